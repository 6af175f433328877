"""The Epic League's Tough token (003 l.538: "Each time this Player gains [Injury or Suspension tokens], ignore 1 of
them"): the engine keeps to it, from revision 3 of the readings (engine/RULES.md "Revisions"); a game begun before
left it to the table, and replays so."""

from __future__ import annotations

from typing import Any

import engine
from engine.host import rules_for
from engine.modules import epic_league as epic
from engine.rules.suspension_and_injury import injure, suspend
from engine.state import Held, Pending, State, evolve
from engine.tx import Tx

from tests.engine.helpers import club, run, set_club
from tests.engine.modules.test_rulebook_epic_league import MID, begun, profile_


def _tough(revision: int = engine.REVISION, token: str = "tough") -> tuple[Any, State]:
    """Week 1 of an Epic League game; Seat 1 holds MID with a Winter Break token on him (placed as at the break)."""
    profile = profile_()
    state = begun(profile, seats=(1, 2), revision=revision)
    state = set_club(state, 1, players=club(state, 1).players + (Held(MID.id, trained=True),))
    mine = state.slice(epic.NAME)
    placed = evolve(mine, placed=mine.placed + ((1, MID.id, token),))
    return profile, evolve(state, modules=tuple((n, placed if n == epic.NAME else v) for n, v in state.modules))


def _injured(profile: Any, state: State, weeks: int) -> tuple[Held, list[dict[str, Any]]]:
    tx = Tx(profile, rules_for(state.game), state, {}, False)
    club_ = injure(tx, tx.club(1), tx.club(1).held(MID.id), weeks, "a Match consequence")
    return club_.held(MID.id), tx.anns  # type: ignore[return-value]


def test_a_tough_footballer_injured_for_two_weeks_is_injured_for_one_and_for_one_week_not_at_all() -> None:
    profile, state = _tough()
    held, said = _injured(profile, state, 2)
    assert held.injury == 1
    assert any(a["kind"] == "tokens_ignored" and a["ignored"] == 1 for a in said)
    held, said = _injured(profile, state, 1)
    assert held.injury == 0 and not any(a["kind"] == "injury" for a in said)


def test_a_tough_footballer_named_for_unpaid_maintenance_gets_one_suspension_token_instead_of_two() -> None:
    # 000: each missing € of Maintenance puts two Suspension tokens on a card the club names; Tough ignores one
    profile, state = _tough()
    state = evolve(state, pending=(Pending("suspensions", 1, count=1),))
    after = run(profile, [{"type": "suspensions", "seat": 1, "cards": [MID.id]}], state)
    assert club(after, 1).held(MID.id).suspension == 1  # type: ignore[union-attr]


def test_another_token_or_a_game_begun_before_changes_nothing() -> None:
    for profile, state in (_tough(token="strength"), _tough(revision=2)):
        held, _ = _injured(profile, state, 2)
        assert held.injury == 2
        tx = Tx(profile, rules_for(state.game), state, {}, False)
        assert suspend(tx, tx.club(1), tx.club(1).held(MID.id), 2, "the referee").held(MID.id).suspension == 2  # type: ignore[union-attr]
