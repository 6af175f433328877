"""What the seat screens say at the table, on the simulated table over the real engine: refusals in the player's
words (asked of the engine before any confirming press), rolls that name their card and what keeping them gives,
each seat's rank and VP at the end, and the shared screen's Matchday results.

Words are asserted through the constants that make them; frames against reviewed reference images.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from device import inputs, screens
from device.game_view import GameView
from device.replay import parse, run_step
from device.sim import SimulatedTable
from engine import errors as EE

from tests.device.frames import frame_is

SCENARIOS = Path(__file__).parents[2] / "scenarios"
TUESDAY_STEP = "pl_01"
"""Seat 1's hire in full-week.toml: every step before it brings the table to Tuesday, Seat 1's turn."""


def _play_until(table: SimulatedTable, scenario: str, stop: object) -> None:
    """Run a shipped scenario's steps up to (not including) the first step ``stop(step)`` picks."""
    for step in parse(SCENARIOS / scenario).steps:
        if stop(step):
            return
        run_step(table, step)


def _events(table: SimulatedTable) -> int:
    return len(table.session.store.events(table.session.game))


@pytest.fixture
def tuesday(tmp_path: Path) -> Iterator[SimulatedTable]:
    """Four clubs on Week 1's Tuesday, Seat 1 to play (full-week.toml up to its first hire)."""
    with SimulatedTable.open(tmp_path / "tuesday.db", dice=parse(SCENARIOS / "full-week.toml").dice) as table:
        _play_until(table, "full-week.toml", lambda s: s.kind == "tap" and s.args.get("card") == TUESDAY_STEP)
        assert table.view()["stage"] == "tuesday" and table.view()["turn"] == 1
        yield table


def _refusal(table: SimulatedTable, event: dict[str, object]) -> screens.Message:
    """What the screen must say for ``event``: the engine's own sentence, made a screen message."""
    why = GameView(table.session.profile, table.session.state).why_not(event)
    assert why is not None, f"the engine would take {event}"
    said = screens.refusal_message(why, event)
    clubs = {club.seat: club.name for club in table.session.state.clubs}  # the screens name clubs, not seats
    named = [re.sub(r"\bSeat (\d+)\b", lambda m: clubs[int(m.group(1))], text) for text in (said.headline, *said.detail)]
    return screens.Message(named[0], tuple(named[1:]))


SEAT_NUMBER = re.compile(r"\bSeat \d\b")


def test_every_screen_names_the_clubs_never_seat_numbers_through_a_whole_week(tmp_path: Path) -> None:
    """Players are their clubs: the header names whose turn it is, and no line says "Seat 2" (full-week.toml)."""
    scenario = parse(SCENARIOS / "full-week.toml")
    with SimulatedTable.open(tmp_path / "week.db", dice=scenario.dice) as table:
        turns = set()
        for step in scenario.steps:
            run_step(table, step)
            view = table.view()
            if view is None or not view.get("clubs"):
                continue
            for screen_id, screen in table.session.screens().items():
                assert not SEAT_NUMBER.search(screen.text()), f"{step.where}, {screen_id}: {screen.text()!r}"
                if view.get("turn") and view["stage"] != "over":
                    turn_club = next(c["name"] for c in view["clubs"] if c["seat"] == view["turn"])
                    assert screen.where.endswith(" · " + turn_club), screen.where
                    turns.add(turn_club)
        assert len(turns) == 4  # each club had its turn, and its name was on every screen then


EVENT_NAMES = re.compile(r"\b(" + "|".join(t for t in engine.EVENT_TYPES if "_" in t) + r")\b")
CARD_ID = re.compile(r"\b(?:bm|pl|yg|vet|st|sp|dir|obj|tac|opp)_\w+")


def test_an_opponent_card_on_a_seats_pad_on_tuesday_says_there_is_no_match_in_the_players_words(
        tuesday: SimulatedTable) -> None:
    before = _events(tuesday)
    tuesday.tap("seat1.tap", "opp_downtown_1")
    said = tuesday.screen("seat1.screen")
    expected = _refusal(tuesday, {"type": "kickoff", "seat": 1})
    assert (said.headline, said.detail[:1]) == (expected.headline, expected.detail)
    assert "There is no event" not in said.text() and not EVENT_NAMES.search(said.text())
    assert _events(tuesday) == before


@pytest.mark.parametrize(("seat", "card"), [(1, "dir_05"), (2, "dir_05"), (2, "dir_01"), (1, "dir_01")])
def test_a_director_tapped_on_tuesday_is_never_called_a_tactic_card(tuesday: SimulatedTable, seat: int, card: str) -> None:
    before = _events(tuesday)
    tuesday.tap(f"seat{seat}.tap", card)
    said = tuesday.screen(f"seat{seat}.screen").text()
    assert "Tactic" not in said
    expected = _refusal(tuesday, {"type": "use_card", "seat": seat, "card": card})
    assert expected.headline in said and expected.detail[0] in said
    assert _events(tuesday) == before


def test_an_untrained_footballer_is_refused_at_the_tap_not_after_the_confirming_press(tuesday: SimulatedTable) -> None:
    profile = tuesday.session.profile
    before = _events(tuesday)
    tuesday.tap("seat1.tap", "vet_01")  # the starting Veteran: untrained
    said = tuesday.screen("seat1.screen")
    assert said.headline == screens.REFUSED["sell"]
    assert said.detail[0] == EE.SELL_UNTRAINED.format(name=profile.cards["vet_01"].name)
    assert inputs.PRESS_TO_CONFIRM not in said.text()
    assert tuesday.session.interpreter.choices() == {}  # nothing waits for a press
    tuesday.press("seat1.roll")  # so the button means what it means on a turn: Club potential, not a sale
    assert "Potential" in tuesday.screen("seat1.screen").headline
    assert _events(tuesday) == before


def test_no_card_of_any_kind_ever_shows_an_engine_event_name_or_a_card_id(tuesday: SimulatedTable) -> None:
    """Every kind of card of the deck, on the pad of the seat to play and of a seat waiting, on Tuesday."""
    profile = tuesday.session.profile
    one_of_each = {}
    for card in profile.cards.values():
        one_of_each.setdefault(card.kind, card.id)
    owned = ["vet_01", "yg_02", "dir_01"]  # Seat 1's own starting cards and Director
    for seat in (1, 2):
        for card in [*one_of_each.values(), *owned]:
            tuesday.tap(f"seat{seat}.tap", card)
            said = tuesday.screen(f"seat{seat}.screen").text()
            assert "There is no event" not in said, (card, said)
            assert not EVENT_NAMES.search(said), (card, said)
            assert not CARD_ID.search(said), (card, said)


def test_a_refusal_frame_matches_the_reference(tuesday: SimulatedTable, tmp_path: Path) -> None:
    tuesday.tap("seat1.tap", "vet_01")
    frame_is(tuesday, "seat1.screen", "refusal_untrained.png", tmp_path)


@pytest.fixture
def monday(tmp_path: Path) -> Iterator[SimulatedTable]:
    """Week 1's Monday with every Board meeting card still to tap (full-week.toml's setup)."""
    with SimulatedTable.open(tmp_path / "monday.db", dice=parse(SCENARIOS / "full-week.toml").dice) as table:
        _play_until(table, "full-week.toml", lambda s: s.kind == "tap" and s.args.get("card") == "bm_01")
        yield table


def test_a_roll_names_its_card_and_what_keeping_it_gives_before_it_is_kept(monday: SimulatedTable, tmp_path: Path) -> None:
    profile = monday.session.profile
    monday.tap("seat2.tap", "bm_02")
    name = profile.cards["bm_02"].name
    tapped = monday.screen("seat2.screen")
    assert (tapped.headline, tapped.detail[0]) == (name, inputs.PRESS_TO_ROLL.format(die="d6"))
    monday.force_dice([3])
    monday.press("seat2.roll")
    held = monday.screen("seat2.screen")
    assert held.headline == "Rolled 3"
    assert held.detail[:1] == (inputs.ROLL_FOR.format(what=name),)
    gives = next(line for line in held.detail if line.startswith(inputs.KEEP_GIVES.format(outcome="")))
    assert inputs.PRESS_TO_REROLL in held.detail
    frame_is(monday, "seat2.screen", "roll_held.png", tmp_path)
    monday.hold("seat2.roll")  # keep it
    kept = monday.screen("seat2.screen")
    assert gives == inputs.KEEP_GIVES.format(outcome=kept.headline)  # what the screen promised is what happened
    meeting = next(a for a in monday.session.recent if a.get("kind") == "board_meeting" and a.get("seat") == 2)
    assert meeting.get("title") and meeting["title"] in held.detail  # the decision, named before the keep


def test_after_a_reroll_the_screen_names_what_the_new_value_gives(monday: SimulatedTable) -> None:
    monday.tap("seat2.tap", "bm_02")
    monday.force_dice([3, 1])
    monday.press("seat2.roll")
    monday.press("seat2.roll")  # within the reroll window: 1 Fanbase for another roll
    held = monday.screen("seat2.screen")
    assert held.headline == "Rerolled 1"
    gives = next(line for line in held.detail if line.startswith(inputs.KEEP_GIVES.format(outcome="")))
    monday.hold("seat2.roll")
    assert gives == inputs.KEEP_GIVES.format(outcome=monday.screen("seat2.screen").headline)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SimulatedTable]:
    """A whole four-club game to its final scoring (full-game.toml)."""
    path = tmp_path_factory.mktemp("final") / "final.db"
    with SimulatedTable.open(path, dice=parse(SCENARIOS / "full-game.toml").dice) as table:
        _play_until(table, "full-game.toml", lambda s: False)
        assert table.view()["stage"] == "over"
        yield table


def test_each_seat_sees_its_rank_and_vp_at_the_end(finished: SimulatedTable) -> None:
    rows = finished.view()["final"]
    for row in rows:
        said = finished.screen(f"seat{row['seat']}.screen")
        wanted = (screens.WINNER.format(total=row["total"]) if row["winner"]
                  else screens.PLACE.format(place=screens.ordinal(row["rank"]), total=row["total"]))
        assert said.where == screens.GAME_OVER
        assert said.headline == wanted
        assert screens.PLACE_OF.format(place=screens.ordinal(row["rank"]), clubs=len(rows)) in said.detail


def test_the_shared_screen_shows_the_final_ranking(finished: SimulatedTable, tmp_path: Path) -> None:
    rows = sorted(finished.view()["final"], key=lambda r: r["rank"])
    said = finished.screen("shared.screen")
    winner = next(r for r in rows if r["winner"])
    assert said.headline == screens.SHARED_WINNER.format(name=winner["name"])
    assert said.detail == tuple(screens.FINAL_ROW.format(place=screens.ordinal(r["rank"]), name=r["name"], total=r["total"])
                                for r in rows)
    frame_is(finished, "seat1.screen", "final_seat1.png", tmp_path)


def test_the_shared_screen_shows_matchday_results_as_they_come_in(tmp_path: Path) -> None:
    with SimulatedTable.open(tmp_path / "match.db", dice=parse(SCENARIOS / "full-week.toml").dice) as table:
        _play_until(table, "full-week.toml", lambda s: s.kind == "tap" and s.target == "shared.opponent")
        assert screens.RESULTS.format(week=1) not in table.screen("shared.screen").text()  # nothing played yet
        table.tap("shared.opponent", "opp_downtown_1")
        view = table.view()
        first = next(c for c in view["clubs"] if c["seat"] == 1)
        said = table.screen("shared.screen")
        assert said.headline == screens.RESULTS.format(week=1)
        assert said.detail[0] == screens.RESULT_ROW.format(name=first["name"], goals=first["match"]["goals"],
                                                           conceded=first["match"]["conceded"], opponent=first["opponent"]["name"])
        assert said.detail[1:] == tuple(screens.TO_PLAY.format(name=c["name"]) for c in view["clubs"][1:])
        table.tap("shared.opponent", "opp_downtown_2")
        assert not table.screen("shared.screen").detail[1].endswith("to play")
        frame_is(table, "shared.screen", "shared_results.png", tmp_path)
