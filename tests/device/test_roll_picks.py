"""A die's result whose decision asks for a card, played at the table on the simulated table over the real engine:
once the result is final (kept, or not rerollable) the seat's screen asks for the card the engine says fits, the
result stays held until it is tapped (a hold cancels nothing: a roll is never rolled again), and the tap sends it
with the card named.  The card a ``hire`` effect takes is tapped on the club's pad the same way.

Words are asserted through the constants that make them; the asking screen against a reviewed reference frame.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device import inputs, screens
from device.replay import parse, run_step
from device.sim import SimulatedTable

from tests.device.frames import frame_is

SCENARIOS = Path(__file__).parents[2] / "scenarios"
TRAINING_CAMP = "bm_04"
"""Seat 2's Directors vote red on a 2: "Book it", lose 2 € and train a footballer of your choice."""
ACADEMY = "bm_35"
"""Seat 2's Directors vote blue on a 1: "Hire a youngster", 1 € less."""
PROMOTE = "bm_17"
"""Seat 2's Directors vote red on a 2: "Promote a youngster", train a Youngster of your choice (Seat 2 has one)."""
VETERAN, YOUNGSTER = "vet_02", "yg_03"
"""Seat 2's starting footballers."""


def _play_until(table: SimulatedTable, stop: Any) -> None:
    for step in parse(SCENARIOS / "full-week.toml").steps:
        if stop(step):
            return
        run_step(table, step)


@pytest.fixture
def monday(tmp_path: Path) -> Iterator[SimulatedTable]:
    """Week 1's Monday with every Board meeting card still to tap (full-week.toml's setup); Seat 2 has 2 Fanbase."""
    with SimulatedTable.open(tmp_path / "monday.db", dice=parse(SCENARIOS / "full-week.toml").dice) as table:
        _play_until(table, lambda s: s.kind == "tap" and s.args.get("card") == "bm_01")
        assert _club(table, 2)["resources"]["fanbase"] == 2
        yield table


def _club(table: SimulatedTable, seat: int) -> dict[str, Any]:
    return next(c for c in table.view()["clubs"] if c["seat"] == seat)


def _player(table: SimulatedTable, seat: int, card: str) -> dict[str, Any]:
    return next(p for p in _club(table, seat)["players"] if p["id"] == card)


def _events(table: SimulatedTable) -> list[dict[str, Any]]:
    return [dict(e) for e in table.session.store.events(table.session.game)]


def _awaits(table: SimulatedTable, seat: int) -> str | None:
    return next((e["need"] for e in table.session.state.awaiting if e.get("seat") == seat), None)


def _no_fanbase(table: SimulatedTable, seat: int) -> None:
    fanbase = _club(table, seat)["resources"]["fanbase"]
    table.page({"type": "adjust", "seat": seat, "what": "fanbase", "delta": -fanbase, "reason": "test: no reroll"})


TAP_FOOTBALLER = inputs.TAP_PICK.format(what="footballer")


def test_a_kept_decision_for_a_footballer_waits_for_his_tap_and_trains_him(monday: SimulatedTable, tmp_path: Path) -> None:
    profile = monday.session.profile
    monday.tap("seat2.tap", TRAINING_CAMP)
    monday.force_dice([2])
    monday.press("seat2.roll")
    held = monday.screen("seat2.screen")
    assert held.headline == "Rolled 2" and inputs.THEN_TAP.format(what="footballer") in held.detail
    assert screens.RESOLVE_BY_HAND not in held.detail  # the tap settles it, not the table by hand
    before = len(_events(monday))
    monday.hold("seat2.roll")  # keep it: the decision is known, and asks for a footballer
    asking = monday.screen("seat2.screen")
    assert asking.headline == "Red wins"
    assert asking.detail[0] == TAP_FOOTBALLER and "Book it" in asking.detail
    frame_is(monday, "seat2.screen", "roll_pick.png", tmp_path)
    assert len(_events(monday)) == before and _awaits(monday, 2) == "keep_or_reroll"  # nothing sent yet
    monday.press("seat2.roll")  # no reroll once kept
    monday.hold("seat2.roll")  # and no cancel: the result stands
    stands = monday.screen("seat2.screen")
    assert stands.headline == TAP_FOOTBALLER and inputs.ROLL_STANDS in stands.detail
    assert inputs.HOLD_TO_CANCEL not in stands.detail
    monday.wait(inputs.REROLL_SECONDS * 3)  # the closed window keeps nothing again
    monday.tap("seat2.tap", "pl_05")  # a footballer of no club
    assert monday.screen("seat2.screen").headline == inputs.NOT_A_PICK.format(what="footballer")
    assert len(_events(monday)) == before and _club(monday, 2)["resources"]["fanbase"] == 2
    monday.tap("seat2.tap", YOUNGSTER)
    assert _events(monday)[before:] == [{"type": "keep", "seat": 2, "targets": [YOUNGSTER]}]
    assert _player(monday, 2, YOUNGSTER)["trained"] and not _player(monday, 2, VETERAN)["trained"]
    said = monday.screen("seat2.screen").text()
    assert f"{profile.cards[YOUNGSTER].name} is trained" in said and screens.RESOLVE_BY_HAND not in said


def test_when_the_reroll_window_closes_the_kept_decision_asks_for_its_footballer(monday: SimulatedTable) -> None:
    monday.tap("seat2.tap", TRAINING_CAMP)
    monday.force_dice([2])
    monday.press("seat2.roll")
    before = len(_events(monday))
    monday.wait(inputs.REROLL_SECONDS + 1)
    asking = monday.screen("seat2.screen")
    assert asking.headline == "Red wins" and asking.detail[0] == TAP_FOOTBALLER
    assert len(_events(monday)) == before
    monday.tap("seat2.tap", VETERAN)
    assert _events(monday)[before:] == [{"type": "keep", "seat": 2, "targets": [VETERAN]}]
    assert _player(monday, 2, VETERAN)["trained"]


def test_a_tap_that_keeps_the_roll_names_the_footballer_at_once(monday: SimulatedTable) -> None:
    monday.tap("seat2.tap", TRAINING_CAMP)
    monday.force_dice([2])
    monday.press("seat2.roll")
    before = len(_events(monday))
    monday.tap("seat2.tap", VETERAN)
    assert _events(monday)[before:] == [{"type": "keep", "seat": 2, "targets": [VETERAN]}]
    assert _player(monday, 2, VETERAN)["trained"]


def test_a_roll_no_fanbase_can_reroll_is_held_on_the_seat_until_the_footballer_is_tapped(monday: SimulatedTable) -> None:
    _no_fanbase(monday, 2)
    monday.tap("seat2.tap", TRAINING_CAMP)
    monday.force_dice([2, 5])
    before = len(_events(monday))
    monday.press("seat2.roll")
    asking = monday.screen("seat2.screen")
    assert asking.headline == "Red wins" and asking.detail[0] == TAP_FOOTBALLER
    assert len(_events(monday)) == before and _awaits(monday, 2) == "roll"
    monday.hold("seat2.roll")
    monday.press("seat2.roll")  # the die is not rolled again
    assert monday.dice.rolled[-1] == ("d6", 2) and monday.screen("seat2.screen").headline == TAP_FOOTBALLER
    monday.tap("seat2.tap", YOUNGSTER)
    assert _events(monday)[before:] == [{"type": "roll", "seat": 2, "value": 2, "targets": [YOUNGSTER]}]
    assert _player(monday, 2, YOUNGSTER)["trained"]


def test_a_decision_only_one_card_fits_asks_nothing(monday: SimulatedTable) -> None:
    _no_fanbase(monday, 2)
    monday.tap("seat2.tap", PROMOTE)
    monday.force_dice([2])
    before = len(_events(monday))
    monday.press("seat2.roll")
    assert _events(monday)[before:] == [{"type": "roll", "seat": 2, "value": 2, "targets": [YOUNGSTER]}]
    assert _player(monday, 2, YOUNGSTER)["trained"]
    assert monday.session.interpreter.choices() == {}


def test_a_board_meeting_hire_takes_the_youngster_tapped_on_the_pad(monday: SimulatedTable) -> None:
    profile = monday.session.profile
    _no_fanbase(monday, 2)
    monday.tap("seat2.tap", ACADEMY)
    monday.force_dice([1])
    before = len(_events(monday))
    budget = _club(monday, 2)["resources"]["budget"]
    monday.press("seat2.roll")
    asking = monday.screen("seat2.screen")
    assert asking.headline == "Blue wins" and asking.detail[0] == inputs.TAP_PICK.format(what="Youngster to hire")
    monday.tap("seat2.tap", "yg_02")  # Seat 1's Youngster: the engine says why not
    refused = monday.screen("seat2.screen")
    assert refused.headline == inputs.NOT_THAT.format(name=profile.cards["yg_02"].name)
    assert refused.detail[0].startswith(profile.cards["yg_02"].name)
    monday.tap("seat2.tap", "st_01")  # not a Youngster at all
    assert monday.screen("seat2.screen").headline == inputs.NOT_TO_TAKE.format(what="Youngster to hire")
    assert len(_events(monday)) == before
    monday.tap("seat2.tap", "yg_06")
    assert _events(monday)[before:] == [{"type": "roll", "seat": 2, "value": 1, "targets": ["yg_06"]}]
    assert any(p["id"] == "yg_06" for p in _club(monday, 2)["players"])
    assert _club(monday, 2)["resources"]["budget"] == budget - (profile.cards["yg_06"].untrained.cost - 1)


def test_when_the_page_answers_the_roll_the_table_resolves_it_by_hand_there(monday: SimulatedTable) -> None:
    """The Play page's way stays: the page keeps the roll (no card named), the engine asks the table to resolve it,
    the seat's screen stops asking for a tap, and the Admin page's correction trains the footballer."""
    monday.tap("seat2.tap", TRAINING_CAMP)
    monday.force_dice([2])
    monday.press("seat2.roll")
    monday.hold("seat2.roll")
    assert monday.screen("seat2.screen").detail[0] == TAP_FOOTBALLER
    said = monday.page({"type": "keep", "seat": 2})["announcements"]
    assert any(a["kind"] == "table_resolves" and a["seat"] == 2 for a in said)
    assert TAP_FOOTBALLER not in monday.screen("seat2.screen").text()
    assert screens.RESOLVE_BY_HAND in monday.screen("seat2.screen").detail
    before = len(_events(monday))
    monday.tap("seat2.tap", VETERAN)  # no longer the answer to a roll
    assert {"type": "keep", "seat": 2, "targets": [VETERAN]} not in _events(monday)[before:]
    monday.page({"type": "adjust", "seat": 2, "what": "trained", "card": VETERAN, "delta": 1, "reason": "Book it"})
    assert _player(monday, 2, VETERAN)["trained"]


def test_a_tied_board_meetings_new_roll_asks_for_the_footballer_its_decision_is_for(monday: SimulatedTable) -> None:
    """The table rolls a tie's new d6 by itself; when its decision asks for a footballer, the seat taps him."""
    _no_fanbase(monday, 2)
    monday.tap("seat2.tap", TRAINING_CAMP)
    monday.force_dice([6, 2])  # a 6 ties the three Directors; the 2 is red
    before = len(_events(monday))
    monday.press("seat2.roll")
    assert _events(monday)[before:] == [{"type": "roll", "seat": 2, "value": 6}]
    asking = monday.screen("seat2.screen")
    assert asking.headline == "Red wins" and asking.detail[0] == TAP_FOOTBALLER
    monday.tap("seat2.tap", VETERAN)
    assert _events(monday)[before + 1:] == [{"type": "roll", "seat": 2, "value": 2, "targets": [VETERAN]}]
    assert _player(monday, 2, VETERAN)["trained"]


SCOUT = "st_25"
"""A Staff card whose action (1 Fanbase) hires any Player from the display: the hire names the card."""


def test_a_staff_action_that_hires_takes_the_player_tapped_on_the_pad(tmp_path: Path) -> None:
    with SimulatedTable.open(tmp_path / "scout.db", dice=parse(SCENARIOS / "full-week.toml").dice) as table:
        _play_until(table, lambda s: s.kind == "tap" and s.args.get("card") == "pl_01")  # Tuesday, Seat 1 to play
        profile = table.session.profile
        table.tap("seat1.tap", SCOUT)
        table.press("seat1.roll")  # hired: Seat 1's action of the day
        for seat in (2, 3, 4):
            table.hold(f"seat{seat}.roll")  # pass
        assert table.view()["stage"] == "wednesday" and _awaits(table, 1) == "action"
        budget = _club(table, 1)["resources"]["budget"]
        table.page({"type": "adjust", "seat": 1, "what": "fanbase", "delta": 1, "reason": "test: the Scout's Fanbase"})
        table.page({"type": "adjust", "seat": 1, "what": "budget", "delta": 3 - budget, "reason": "test: 3 € left"})
        table.tap("seat1.tap", SCOUT)
        table.press("seat1.roll")  # use it
        asking = table.screen("seat1.screen")
        assert asking.headline == inputs.TAP_PICK.format(what="Player to hire")
        assert inputs.PICK_FOR.format(name=profile.cards[SCOUT].name) in asking.detail
        before = len(_events(table))
        dear = "pl_38"
        assert profile.cards[dear].untrained.cost > 3
        table.tap("seat1.tap", dear)  # the engine's reason: too dear
        refused = table.screen("seat1.screen")
        assert refused.headline == inputs.NOT_THAT.format(name=profile.cards[dear].name)
        club_name, card_name = _club(table, 1)["name"], profile.cards[dear].name
        assert refused.detail[0].startswith(f"{club_name} cannot hire {card_name}: it costs")
        assert inputs.HOLD_TO_CANCEL in refused.detail  # nothing is rolled: the use may still be cancelled
        table.tap("seat1.tap", "st_02")  # a Staff card, not a Player
        assert table.screen("seat1.screen").headline == inputs.NOT_TO_TAKE.format(what="Player to hire")
        assert len(_events(table)) == before
        table.tap("seat1.tap", "pl_15")
        assert _events(table)[before:] == [{"type": "use_card", "seat": 1, "card": SCOUT, "targets": ["pl_15"]}]
        assert any(p["id"] == "pl_15" for p in _club(table, 1)["players"])
        assert _club(table, 1)["resources"]["budget"] == 3 - profile.cards["pl_15"].untrained.cost


def test_a_result_waiting_for_its_footballer_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "restart.db"
    dice = parse(SCENARIOS / "full-week.toml").dice
    with SimulatedTable.open(path, dice=dice) as table:
        _play_until(table, lambda s: s.kind == "tap" and s.args.get("card") == "bm_01")
        _no_fanbase(table, 2)
        table.tap("seat2.tap", TRAINING_CAMP)
        table.force_dice([2])
        table.press("seat2.roll")
        before = len(_events(table))
    with SimulatedTable.open(path, dice=[6]) as again:  # the plug was pulled; the table starts again
        assert again.screen("seat2.screen").headline == TAP_FOOTBALLER
        again.press("seat2.roll")  # still the 2 rolled before: no new roll
        again.tap("seat2.tap", VETERAN)
        assert _events(again)[before:] == [{"type": "roll", "seat": 2, "value": 2, "targets": [VETERAN]}]
        assert _player(again, 2, VETERAN)["trained"]


def test_an_undo_of_another_event_keeps_the_result_waiting_for_its_footballer(monday: SimulatedTable) -> None:
    """An undo takes back the last recorded event only: a die already rolled for a decision is not rolled again."""
    _no_fanbase(monday, 2)
    monday.tap("seat2.tap", TRAINING_CAMP)
    monday.force_dice([2, 5])
    monday.press("seat2.roll")
    before = len(_events(monday))
    monday.tap("seat1.tap", "bm_01")  # another club's Board meeting card, recorded after the roll
    assert len(_events(monday)) == before + 1
    monday.hold("shared.undo")
    assert len(_events(monday)) == before
    monday.press("seat2.roll")  # the die is not rolled again
    assert monday.dice.rolled[-1] == ("d6", 2) and monday.screen("seat2.screen").headline == TAP_FOOTBALLER
    monday.tap("seat2.tap", VETERAN)
    assert _events(monday)[before:] == [{"type": "roll", "seat": 2, "value": 2, "targets": [VETERAN]}]


def test_an_undo_of_the_card_the_roll_was_for_forgets_its_result(monday: SimulatedTable) -> None:
    _no_fanbase(monday, 2)
    monday.tap("seat2.tap", TRAINING_CAMP)
    monday.force_dice([2])
    monday.press("seat2.roll")
    monday.hold("shared.undo")  # takes back the Board meeting card itself: nothing is awaited from Seat 2 now
    assert _awaits(monday, 2) != "roll"
    assert monday.session.interpreter.choices() == {}


def test_the_page_says_the_result_is_held_on_the_table_for_its_footballer(monday: SimulatedTable) -> None:
    """The page's line for what the table waits for: not "press the button to roll" once the die is rolled."""
    _no_fanbase(monday, 2)
    monday.tap("seat2.tap", TRAINING_CAMP)
    monday.force_dice([2])
    monday.press("seat2.roll")
    club = _club(monday, 2)["name"]
    for where in (monday.session.snapshot()["awaiting"], monday.session.snapshot()["game"]["awaiting"]):
        wait = next(w for w in where if w.get("seat") == 2)
        assert wait["need"] == "roll"
        assert wait["text"].startswith(f"{club} rolled 2 for ") and "tap the footballer it is for on the table" in wait["text"]
    monday.tap("seat2.tap", VETERAN)
    assert all(w.get("seat") != 2 or "rolled 2" not in w.get("text", "") for w in monday.session.snapshot()["awaiting"])
