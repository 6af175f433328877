"""Referee rules (003 l.60–98): the d6 and d12 before each match, the Referee table as data, the cells' effects on
the assigned footballers with the tags, and bad Referee data refused on load."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import errors as E
from engine.legal import setup_events
from engine.loader import DataError
from engine.modules import referee as R
from engine.rules.context import side_of
from engine.state import Held, State
from engine.tx import Tx
from engine import host

from tests.engine.helpers import at_stage, club, demo, refused, run, set_club

GAME = {"type": "game", "modules": ["referee"], "revision": engine.REVISION}
TABLE = R.table_of(demo())


@lru_cache(maxsize=2)
def _matchday(revision: int = engine.REVISION) -> State:
    profile = demo()
    return at_stage(profile, run(profile, setup_events(profile, [1, 2], game={**GAME, "revision": revision})),
                    "matchday")


def _lined_up(revision: int = engine.REVISION, **changes: Any) -> State:
    """Seat 1 on Matchday, lined up by the engine's own lineup, with plenty of Fanbase unless told otherwise."""
    profile = demo()
    state = set_club(_matchday(revision), 1, **{"res": (5, 0, 5, 5), **changes})
    lineup = engine.legal_events(profile, state)[0]
    assert lineup["type"] == "lineup" and lineup["seat"] == 1
    return run(profile, [lineup], state)


def _fielded(state: State) -> list[str]:
    return [p.card for p in club(state, 1).lineup or () if p.card]


def _face(state: State, half: int, card: str | None = None) -> tuple[int, str]:
    """A d12 face of faces 1–6 (half 0) or 7–12 (half 1) naming a tag of a fielded card (or of ``card``); the card."""
    profile = demo()
    for card_id in [card] if card else _fielded(state):
        tags = profile.cards[card_id].untrained.tags
        for face in range(1 + 6 * half, 7 + 6 * half):
            if set(TABLE.groups[face - 1]) & set(tags):
                return face, card_id
    raise AssertionError("no fielded card has a tag")


def _call(state: State, referee: int, half: int) -> tuple[State, str, list[dict[str, Any]]]:
    """Roll the referee (d6) and a d12 face watching a fielded card: the state, that card, what was announced."""
    profile = demo()
    face, card = _face(state, half)
    said: list[dict[str, Any]] = []
    for event in ({"type": "roll", "seat": 1, "value": referee}, {"type": "roll", "seat": 1, "value": face}):
        step = engine.apply(profile, state, event)
        said += step.announcements
        state = step.state
    return state, card, said


def test_before_the_match_the_seat_rolls_a_d6_then_a_d12_and_the_kickoff_waits_for_both() -> None:
    # 003 l.64: "Before the Match, roll a six-sided and twelve-sided die and resolve the corresponding effect"
    profile = demo()
    state = _lined_up()
    assert state.awaiting[0] == {"seat": 1, "need": "roll", "die": "d6", "purpose": "referee", "rerollable": True}
    assert refused(profile, state, {"type": "kickoff", "seat": 1}, E.NotAllowed) == \
        E.ROLL_BEFORE_KICKOFF.format(seat=1, die="d6")
    state = run(profile, [{"type": "roll", "seat": 1, "value": 2}], state)
    assert state.awaiting[0] == {"seat": 1, "need": "roll", "die": "d12", "purpose": "referee_tags", "rerollable": True}
    assert refused(profile, state, {"type": "roll", "seat": 1, "value": 13}, E.NotAllowed)
    face, _ = _face(state, 0)
    step = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": face})
    said = next(a for a in step.announcements if a["kind"] == "referee")
    assert said["referee"] == "Meticulous" and said["tags"] == list(TABLE.groups[face - 1])
    assert engine.view(profile, step.state)["modules"]["referee"]["1"]["referee"] == "Meticulous"
    assert engine.why_not(profile, step.state, {"type": "kickoff", "seat": 1}) is None


def test_the_referees_dice_may_be_rerolled_for_fanbase_as_usual() -> None:
    # 003 l.64: "You may reroll these dice as usual"
    profile = demo()
    state = _lined_up(res=(5, 2, 5, 5))
    state = run(profile, [{"type": "roll", "seat": 1, "value": 1}], state)
    assert state.awaiting[0]["need"] == "keep_or_reroll" and state.awaiting[0]["purpose"] == "referee"
    state = run(profile, [{"type": "reroll", "seat": 1, "value": 4}, {"type": "keep", "seat": 1}], state)
    assert club(state, 1).res[1] == 2 - 1 - len(_fielded(state)) * 0  # one Fanbase paid for the reroll
    assert R._calls(state).of(1) == (4, 0)


def test_unjust_puts_a_suspension_token_on_the_assigned_footballer_with_the_tags_after_the_match() -> None:
    # 003 l.69: Unjust, "AFTER THE MATCH: Place a [Suspension token] on a Player card with any of these tags."
    profile = demo()
    state = _lined_up()
    fielded = _fielded(state)
    fits = {face: [c for c in fielded if set(profile.cards[c].untrained.tags) & set(TABLE.groups[face - 1])]
            for face in range(1, 7)}
    face = next(f for f, cards in fits.items() if len(cards) == 1)
    card = fits[face][0]
    state = run(profile, [{"type": "roll", "seat": 1, "value": 1}, {"type": "roll", "seat": 1, "value": face},
                          {"type": "kickoff", "seat": 1}], state)
    assert club(state, 1).held(card).suspension == 1  # type: ignore[union-attr]
    assert all(club(state, 1).held(c).suspension == 0 for c in fielded if c != card)  # type: ignore[union-attr]


def _unjust_called(revision: int = engine.REVISION) -> tuple[State, list[str]]:
    """Seat 1 before its kickoff under Unjust watching a tag two of its fielded footballers show (a Player card hired
    to share a tag with one it started with), in a game of that revision of the readings: the state, the
    footballers that fit, in lineup order."""
    profile = demo()
    start = club(_matchday(revision), 1)
    first = start.players[0].id
    for face in range(1, 7):
        group = set(TABLE.groups[face - 1])
        if not group & set(profile.cards[first].untrained.tags):
            continue
        hired = next((c.id for c in profile.cards_of("player") if group & set(c.untrained.tags)), None)
        if hired is not None:
            break
    else:
        raise AssertionError("no Unjust face watches a tag of the first footballer that a Player card shows")
    state = _lined_up(revision, players=start.players + (Held(hired),))
    fits = [c for c in _fielded(state) if group & set(profile.cards[c].untrained.tags)]
    assert len(fits) > 1, "the engine's lineup fields both footballers with the tag"
    return run(profile, [{"type": "roll", "seat": 1, "value": 1}, {"type": "roll", "seat": 1, "value": face}], state), fits


def _unjust_with_several() -> tuple[State, list[str]]:
    """`_unjust_called` after the kickoff: the match played, the referee's call to settle."""
    state, fits = _unjust_called()
    return run(demo(), [{"type": "kickoff", "seat": 1}], state), fits


def test_unjust_waits_for_the_clubs_choice_when_several_footballers_have_the_tags() -> None:
    # 003 l.69: Unjust, "AFTER THE MATCH: Place a [Suspension token] on a Player card with any of these tags."
    # One card: when several fit, the club chooses which, and the game waits for its choice.
    profile = demo()
    state, fits = _unjust_with_several()
    need = next(n for n in state.awaiting if n["need"] == R.SUSPEND_EVENT)
    assert need["seat"] == 1 and list(need["cards"]) == fits
    assert all(club(state, 1).held(c).suspension == 0 for c in fits)  # type: ignore[union-attr]
    # the choices the rules offer are those footballers, and only them
    offered = [e for e in engine.legal_events(profile, state) if e["type"] == R.SUSPEND_EVENT]
    assert sorted(e["card"] for e in offered) == sorted(fits)
    # a footballer who does not show the tags is refused with the reason, and nothing changes
    other = next(h.id for h in club(state, 1).players if h.id not in fits)
    why = refused(profile, state, {"type": R.SUSPEND_EVENT, "seat": 1, "card": other}, E.NotAllowed)
    assert profile.cards[other].name in why and all(profile.cards[c].name in why for c in fits)
    assert engine.why_not(profile, state, {"type": R.SUSPEND_EVENT, "seat": 2, "card": fits[0]}) == \
        R.NOT_CHOOSING.format(seat=2)
    # the page offers the choice in one step
    asks = engine.view(profile, state)["modules"]["referee"]["asks"]
    assert [o["event"]["card"] for o in asks[0]["options"]] == fits
    # the one chosen is suspended, the others are not, and the match goes on to its consequence roll
    step = engine.apply(profile, state, {"type": R.SUSPEND_EVENT, "seat": 1, "card": fits[1]})
    assert club(step.state, 1).held(fits[1]).suspension == 1  # type: ignore[union-attr]
    assert club(step.state, 1).held(fits[0]).suspension == 0  # type: ignore[union-attr]
    assert any(a["kind"] == "suspension" and a["card"] == fits[1] for a in step.announcements)
    assert all(n["need"] != R.SUSPEND_EVENT for n in step.state.awaiting)
    assert refused(profile, step.state, {"type": R.SUSPEND_EVENT, "seat": 1, "card": fits[0]}, E.NotAllowed) == \
        R.NOT_CHOOSING.format(seat=1)


def test_a_game_begun_before_the_choice_was_tapped_leaves_it_to_the_table_as_it_was_recorded() -> None:
    # A Referee game recorded under revision 1 (its game event names no revision) was played with the table placing
    # Unjust's token and recording it with an adjust: it replays to the end as it was played (engine/RULES.md,
    # "Revisions"), nothing waiting for a choice its log never makes.
    profile = demo()
    state, fits = _unjust_called(revision=1)
    assert state.game.revision == 1
    step = engine.apply(profile, state, {"type": "kickoff", "seat": 1})
    (asked,) = [a for a in step.announcements if a["kind"] == "table_resolves"]
    assert "Suspension" in asked["text"] and all(profile.cards[c].name in asked["text"] for c in fits)
    assert all(n["need"] != R.SUSPEND_EVENT for n in step.state.awaiting)
    assert all(club(step.state, 1).held(c).suspension == 0 for c in fits)  # type: ignore[union-attr]
    assert refused(profile, step.state, {"type": R.SUSPEND_EVENT, "seat": 1, "card": fits[0]}, E.NotAllowed) == \
        R.NOT_CHOOSING.format(seat=1)
    # the table's record of the token it placed
    fixed = run(profile, [{"type": "adjust", "seat": 1, "what": "suspension", "delta": 1, "card": fits[1],
                           "reason": "the referee (Unjust)"}], step.state)
    assert club(fixed, 1).held(fits[1]).suspension == 1  # type: ignore[union-attr]


def test_a_game_names_the_revision_of_the_readings_it_is_played_under() -> None:
    # A new game is begun under the newest readings; one recorded before them keeps its own; one from a newer
    # Touchline is refused with what to do, and a revision that is no number with what it must be.
    profile = demo()
    assert run(profile, [GAME]).game.revision == engine.REVISION >= R.CHOICE_REVISION
    assert run(profile, [{"type": "game", "modules": ["referee"]}]).game.revision == 1
    assert engine.view(profile, run(profile, [GAME]))["game"]["revision"] == engine.REVISION
    newer = {**GAME, "revision": engine.REVISION + 1}
    assert refused(profile, State(), newer, E.NotAllowed) == E.NEWER_REVISION.format(revision=engine.REVISION + 1,
                                                                                       known=engine.REVISION)
    for bad in (0, "2", 2.0, True, None):
        assert "revision" in refused(profile, State(), {**GAME, "revision": bad}, E.BadEvent)


def test_friendly_gives_each_assigned_footballer_with_the_tags_a_plus_one_strength_token_before_the_match() -> None:
    # 003 l.85: Friendly, "BEFORE THE MATCH: Place a [+1 Strength token] on each Player card with any of these tags"
    state, card, said = _call(_lined_up(), 4, 0)
    assert club(state, 1).held(card).strength_temp == 1  # type: ignore[union-attr]
    assert any(a["kind"] == "strength" and a["card"] == card for a in said)


def test_meticulous_ignores_the_effects_of_the_assigned_footballers_with_the_tags() -> None:
    # 003 l.69: Meticulous, "BEFORE THE MATCH: Ignore the effects of Player cards with these tags."
    profile = demo()
    before = _lined_up()
    abilities = {c: side_of(Tx(profile, host.rules_for(before.game), before, {}), club(before, 1).held(c), club(before, 1)).abilities
                 for c in _fielded(before)}
    state, card, _ = _call(before, 2, 0)
    tx = Tx(profile, host.rules_for(state.game), state, {})
    assert side_of(tx, club(state, 1).held(card), club(state, 1)).abilities == ()  # type: ignore[arg-type]
    untagged = [c for c in _fielded(state) if not set(profile.cards[c].untrained.tags) & set(TABLE.groups[_face(state, 0, card)[0] - 1])]
    for c in untagged:
        assert side_of(tx, club(state, 1).held(c), club(state, 1)).abilities == abilities[c]  # type: ignore[arg-type]


def test_goal_eager_lets_a_tagged_scorer_score_again_and_the_result_follows() -> None:
    # 003 l.91: Goal eager, "AFTER THE MATCH: If a Player with any of these tags scores, score again."
    profile = demo()
    state, card, _ = _call(_lined_up(), 5, 1)
    step = engine.apply(profile, state, {"type": "kickoff", "seat": 1})
    result = next(a for a in step.announcements if a["kind"] == "result")
    again = [a for a in step.announcements if a["kind"] == "score" and a.get("card")]
    scored = dict(R._calls(step.state).scored)[1]
    assert len(again) == len([c for c in scored if c in R._tagged(Tx(profile, host.rules_for(state.game), step.state, {}), 1,
                                                                  TABLE.groups[_face(state, 1, card)[0] - 1])])
    assert club(step.state, 1).goals == result["goals"] + len(again)


def test_unjust_rolls_a_d6_per_tagged_footballer_after_the_match_and_a_six_is_a_goal_for_the_opponent() -> None:
    # 003 l.75: Unjust, "AFTER THE MATCH: Roll a six-sided die for each Player card with any of these tags. 6: your
    # Opponent scores."
    profile = demo()
    state, card, _ = _call(_lined_up(res=(5, 0, 5, 5)), 1, 1)
    state = run(profile, [{"type": "kickoff", "seat": 1}], state)
    fouls = [p for p in state.pending if p.purpose == "referee_foul"]
    assert fouls and state.awaiting[0]["purpose"] == "referee_foul"
    conceded, points = club(state, 1).conceded, club(state, 1).points
    state = run(profile, [{"type": "roll", "seat": 1, "value": 6}], state)
    assert club(state, 1).conceded == conceded + 1
    assert club(state, 1).points <= points
    for _ in fouls[1:]:
        state = run(profile, [{"type": "roll", "seat": 1, "value": 1}], state)
    assert club(state, 1).conceded == conceded + 1
    assert not any(p.purpose == "referee_foul" for p in state.pending)
    assert any(p.purpose == "match_consequence" for p in state.pending)


def test_inexperienced_turns_the_match_consequences_injury_into_a_suspension() -> None:
    # 003 l.69: Inexperienced, "place a [Suspension token] instead of a [Injury token] when resolving Match Consequences"
    profile = demo()
    state, _, _ = _call(_lined_up(), 3, 0)
    tx = Tx(profile, host.rules_for(state.game), state, {})
    injury = next(e for r in ("win", "draw", "loss") for f in range(1, 7) for e in profile.board.consequence(r, f)
                  if e.op == "injure")
    swapped = R._consequence(tx, 1, "loss", 1, (injury,))
    assert [e.op for e in swapped] == ["suspend"]
    assert swapped[0]["tokens"] == injury.get("weeks", 1)


def test_perfectionist_allows_one_more_tactic_card_this_match() -> None:
    # 003 l.85: Perfectionist, "you may play 1 additional Tactic card this Match"
    profile = demo()
    state, _, _ = _call(_lined_up(), 6, 0)
    tx = Tx(profile, host.rules_for(state.game), state, {})
    assert tx.rules.tactics_allowed(tx, club(state, 1), 1) == 2  # type: ignore[attr-defined]


def test_the_referee_table_and_the_tags_are_data_and_each_cell_reads_as_the_rules_doc_says() -> None:
    doc = (Path(engine.__file__).parent / "RULES.md").read_text()
    assert [r.name for r in TABLE.referees] == ["Unjust", "Meticulous", "Inexperienced", "Friendly", "Goal eager",
                                                "Perfectionist"]
    assert len(TABLE.tags) == 18 and TABLE.groups[0] == ("NBL", "STR", "SUP") and TABLE.groups[11] == ("SWI", "HEA", "PEN")
    for referee in TABLE.referees:
        for cell in referee.cells:
            assert cell.text in doc, f"RULES.md does not give the reading of {referee.name}: {cell.text}"
    module = next(m for m in engine.modules(demo()) if m["name"] == "referee")
    assert "club_matches" in module["excludes"]  # 003 l.62: not with matches against other players


def _deck(tmp_path: Path, **files: str) -> Path:
    deck = tmp_path / "deck"
    deck.mkdir(exist_ok=True)
    (deck / "profile.toml").write_text('name = "Referee deck"\ninherit = "demo"\n')
    for name, text in files.items():
        (deck / name.replace("_toml", ".toml")).write_text(text)
    return deck


def test_bad_referee_data_is_refused_on_load_naming_the_file_the_card_and_the_field(tmp_path: Path) -> None:
    demo_dir = Path(engine.__file__).parent / "data" / "demo"
    players = (demo_dir / "players.toml").read_text()
    deck = _deck(tmp_path, players_toml=players.replace('tags = ["', 'tags = ["XYZ", "', 1))
    with pytest.raises(DataError, match=r'^players.toml, card pl_\w+, field "tags": unknown tag "XYZ": the tags are '
                                         r'those of referee.toml'):
        engine.load_profile(deck)
    table = (demo_dir / "referee.toml").read_text()
    deck = _deck(tmp_path, players_toml=players, referee_toml=table.replace("faces = [7, 8, 9, 10, 11, 12]", "faces = [7, 8]", 1))
    with pytest.raises(DataError, match=r'^referee.toml, field "referee\[1\].cells": expected cells covering each d12 face'):
        engine.load_profile(deck)
    deck = _deck(tmp_path, referee_toml=table.replace('["NBL", "STR", "SUP"]', '["NBL", "STR", "ZZZ"]', 1))
    with pytest.raises(DataError, match=r'^referee.toml, field "groups\[1\]": expected tags from \[tags\]'):
        engine.load_profile(deck)
    deck = _deck(tmp_path, referee_toml=table.replace('op = "tagged_suspend"', 'op = "tagged_sulk"', 1))
    with pytest.raises(DataError, match=r'^referee.toml, field "referee\[1\].cells\[1\].effects\[1\].op"'):
        engine.load_profile(deck)


def test_a_deck_without_a_referee_table_cannot_play_the_module(tmp_path: Path) -> None:
    # the demo inherits its table; a deck of its own that says it is complete must bring one
    demo_dir = Path(engine.__file__).parent / "data" / "demo"
    deck = tmp_path / "own"
    deck.mkdir()
    for f in demo_dir.glob("*.toml"):
        if f.name != "referee.toml":
            (deck / f.name).write_text(f.read_text())
    (deck / "profile.toml").write_text('name = "No referee"\n')
    profile = engine.load_profile(deck)
    assert engine.game_problem(["referee"], {}, profile) == E.MODULE_DATA_MISSING.format(
        profile="No referee", file="referee.toml", title="Referee")
    assert next(m for m in engine.modules(profile) if m["name"] == "referee")["available"] is False
