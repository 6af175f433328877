"""The referee's call comes first among the effects before the match (003 l.64, l.70; 000 l.617–632, step 3): the
club's own effects before the match, the cards sitting out (step 4), its match abilities and its Tactic card wait for
the d6 and the d12, so that the call covers them.  Games of revision 1–2 keep the order they were recorded with.

Cards of the demo deck: Erik Sandvik (pl_10, untrained, STR: "Before the match roll a d6: on 6 he scores an own
goal"), Callum Reid (pl_13, trained, HOT: "Spend 1 assigned fitness: +1 Strength this match").  The d6 names the
referee (2 Meticulous, 4 Friendly, 5 Goal eager); the d12 the tags (1 NBL/STR/SUP, 2 HAR/HOT/GLA, 8 STR/HOT/FAS)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import engine
from engine import errors as E
from engine.legal import setup_events
from engine.lineup import auto_lineup
from engine.state import Held, State
from engine.views import may_use

from tests.engine.helpers import at_stage, club, demo, refused, run, set_club

ROLL_FIRST = E.ROLL_BEFORE_KICKOFF.format(seat=1, die="d6")
REFEREE_D6 = {"seat": 1, "need": "roll", "die": "d6", "purpose": "referee", "rerollable": True}
OWN_GOAL_D6 = {"seat": 1, "need": "roll", "die": "d6", "purpose": "effect", "rerollable": True, "card": "pl_10"}


@lru_cache(maxsize=4)
def _matchday(revision: int, modules: tuple[str, ...]) -> State:
    profile = demo()
    game = {"type": "game", "modules": list(modules), "revision": revision}
    return at_stage(profile, run(profile, setup_events(profile, [1, 2], game=game)), "matchday")


def _lineup(players: tuple[Held, ...], revision: int = 3, modules: tuple[str, ...] = ("referee",),
            assign: dict[str, Any] | None = None) -> tuple[State, list[dict[str, Any]]]:
    """Seat 1 on Matchday with these footballers (and a suspended Veteran sitting out), lined up; no Fanbase, so
    each die is kept as rolled.  The state and what the lineup announced."""
    profile = demo()
    state = set_club(_matchday(revision, modules), 1, players=players + (Held("vet_01", suspension=1),),
                     res=(5, 0, 5, 5), tactics=("tac_01",))
    lineup = auto_lineup(profile, club(state, 1), state)
    assert [p["card"] for p in lineup["players"] if p["card"]] == [h.id for h in players]
    step = engine.apply(profile, state, {**lineup, "assign": assign or {}})
    return step.state, step.announcements


def _rolls(state: State, *values: int) -> State:
    return run(demo(), [{"type": "roll", "seat": 1, "value": v} for v in values], state)


def _score(state: State) -> tuple[int, int]:
    return club(state, 1).goals, club(state, 1).conceded


def test_the_referee_is_rolled_first_and_meticulous_ignores_an_own_goal_roll_before_the_match() -> None:
    # 003 l.70: Meticulous, "BEFORE THE MATCH: Ignore the effects of Player cards with these tags"
    profile = demo()
    state, said = _lineup((Held("pl_10"),))
    assert state.awaiting[0] == REFEREE_D6  # not Sandvik's own-goal d6
    assert engine.view(profile, state)["awaiting"][0] == REFEREE_D6
    assert [a["kind"] for a in said if a["kind"] in ("await_roll", "recovery")] == ["await_roll"]
    assert club(state, 1).held("vet_01").suspension == 1  # type: ignore[union-attr]  # step 4 waits too
    state = _rolls(state, 2, 1)  # Meticulous, watching NBL/STR/SUP: Sandvik is STR
    assert not any(p.seat == 1 for p in state.pending)  # no d6 for him to roll: his effect is ignored
    assert _score(state) == (0, 0)
    vet = club(state, 1).held("vet_01")
    assert vet is not None and vet.suspension == 0 and vet.exhausted  # step 4, after the call
    refused(profile, state, {"type": "roll", "seat": 1, "value": 6}, E.NotAllowed)
    run(profile, [{"type": "kickoff", "seat": 1}], state)


def test_a_referee_watching_other_tags_lets_the_own_goal_roll_come_after_his_call() -> None:
    profile = demo()
    state, _ = _lineup((Held("pl_10"),))
    state = _rolls(state, 2, 2)  # Meticulous, watching HAR/HOT/GLA: not Sandvik
    assert state.awaiting[0] == OWN_GOAL_D6
    assert refused(profile, state, {"type": "kickoff", "seat": 1}, E.NotAllowed) == ROLL_FIRST
    state = _rolls(state, 6)
    assert _score(state) == (0, 1)  # his own goal


def test_a_game_of_revision_2_keeps_the_own_goal_before_the_referee() -> None:
    state, _ = _lineup((Held("pl_10"),), revision=2)
    assert state.awaiting[0]["purpose"] == "effect"  # Sandvik's d6 came with the lineup, before the referee's
    assert club(state, 1).held("vet_01").suspension == 0  # type: ignore[union-attr]  # step 4 at the lineup
    state = _rolls(state, 6)
    assert _score(state) == (0, 1)
    state = _rolls(state, 2, 1)  # Meticulous watching STR comes too late
    assert _score(state) == (0, 1)


def test_without_the_referee_the_effects_before_the_match_still_come_with_the_lineup() -> None:
    profile = demo()
    for revision in (2, 3):
        state, _ = _lineup((Held("pl_10"),), revision=revision, modules=())
        assert state.awaiting[0] == OWN_GOAL_D6
        assert club(state, 1).held("vet_01").suspension == 0  # type: ignore[union-attr]
        assert refused(profile, state, {"type": "kickoff", "seat": 1}, E.NotAllowed) == ROLL_FIRST
        state = _rolls(state, 6)
        assert _score(state) == (0, 1)
        run(profile, [{"type": "kickoff", "seat": 1}], state)


def test_match_abilities_and_the_tactic_wait_for_the_referee_then_meticulous_ignores_the_ability() -> None:
    profile = demo()
    state, _ = _lineup((Held("pl_13", trained=True),), assign={"pl_13": {"fitness": 1}})
    assert may_use(profile, state, 1) == []  # nothing offered while the referee is to roll
    assert refused(profile, state, {"type": "use_card", "seat": 1, "card": "pl_13"}, E.NotAllowed) == ROLL_FIRST
    assert refused(profile, state, {"type": "tactic_played", "seat": 1, "card": "tac_01"}, E.NotAllowed) == ROLL_FIRST
    state = _rolls(state, 2)
    assert refused(profile, state, {"type": "use_card", "seat": 1, "card": "pl_13"}, E.NotAllowed) == \
        E.ROLL_BEFORE_KICKOFF.format(seat=1, die="d12")
    state = _rolls(state, 2)  # Meticulous, watching HAR/HOT/GLA: Reid is HOT
    assert may_use(profile, state, 1) == []
    refused(profile, state, {"type": "use_card", "seat": 1, "card": "pl_13"}, E.NotAllowed,
            E.CARD_HAS_NO_ACTION.format(name="Callum Reid"))
    assert club(state, 1).held("pl_13").assigned[3] == 1  # type: ignore[union-attr]  # his Fitness stays on him
    run(profile, [{"type": "tactic_played", "seat": 1, "card": "tac_01"}], state)


def test_after_the_referee_the_ability_is_paid_or_free_as_his_call_says() -> None:
    profile = demo()
    use = {"type": "use_card", "seat": 1, "card": "pl_13"}
    for d6, d12, fitness_left in ((5, 1, 0), (4, 8, 1)):  # Goal eager watching NBL/STR/SUP; Friendly 7–12, HOT
        state, _ = _lineup((Held("pl_13", trained=True),), assign={"pl_13": {"fitness": 1}})
        state = _rolls(state, d6, d12)
        assert [m["card"] for m in may_use(profile, state, 1)] == ["pl_13"]
        state = run(profile, [use], state)
        reid = club(state, 1).held("pl_13")
        assert reid is not None and reid.strength_temp == 1 and reid.assigned[3] == fitness_left
