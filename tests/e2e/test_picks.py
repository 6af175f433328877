"""A Staff card's action for a footballer of the club's choice, done by taps: the card, a press, then the footballer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from device import inputs
from device.sim import SimulatedTable
from tests.e2e.table import SEATS, club, decisive_rolls, new_game_action, screen, tap_setup


@pytest.fixture
def table(tmp_path: Path) -> Iterator[SimulatedTable]:
    with SimulatedTable.open(tmp_path / "picks.db") as opened:
        yield opened


def to_tuesday(table: SimulatedTable) -> None:
    """Setup by taps, then each seat's Board meeting card and a decisive roll, until Seat 1's Tuesday turn."""
    profile = table.session.profile
    table.page(new_game_action())
    tap_setup(table)
    for seat in SEATS:
        table.tap(f"seat{seat}.tap", f"bm_0{seat}")
        table.force_dice([decisive_rolls(profile, seat)[0]])
        table.press(f"seat{seat}.roll")
    table.wait(inputs.REROLL_SECONDS + 1)
    assert (table.view()["stage"], table.view()["turn"]) == ("tuesday", 1)


def test_a_coach_trains_the_footballer_tapped_after_the_press(table: SimulatedTable) -> None:
    profile = table.session.profile
    to_tuesday(table)
    coach = "st_06"  # Coach Varela, "Action: spend 2 fitness to train a footballer."
    table.page({"type": "hire_staff", "seat": 1, "card": coach})
    table.page({"type": "adjust", "seat": 1, "what": "fitness", "delta": 2, "reason": "test: enough to use the coach"})
    for seat in SEATS:  # round the table to Seat 1's next turn
        table.hold(f"seat{seat}.roll")
    assert table.view()["turn"] == 1
    youngster = next(p for p in club(table, 1)["players"] if p["id"].startswith("yg_"))
    assert not youngster["trained"]
    table.tap("seat1.tap", coach)
    assert inputs.PRESS_TO_CONFIRM in screen(table, 1)
    table.press("seat1.roll")
    assert inputs.TAP_PICK.format(what="footballer") in screen(table, 1)
    before = len(table.session.store.events(table.session.game))
    table.tap("seat1.tap", "pl_05")  # not one of the club's footballers: refused, still waiting
    assert inputs.NOT_A_PICK.format(what="footballer") in screen(table, 1)
    assert len(table.session.store.events(table.session.game)) == before
    table.tap("seat1.tap", youngster["id"])
    trained = next(p for p in club(table, 1)["players"] if p["id"] == youngster["id"])
    assert trained["trained"], screen(table, 1)
    assert profile.cards[youngster["id"]].name in screen(table, 1)


def test_the_table_knows_which_cards_ask_for_a_footballer_of_the_clubs_choice(table: SimulatedTable) -> None:
    """Read from the demo deck's cards, by moment: a Sponsor's contract, a Staff or Director action, a match ability."""
    from device.replay import parse, run_step

    to_tuesday(table)
    game = table.session._view()
    assert game is not None
    assert game.picks({"type": "sponsor", "seat": 1, "card": "sp_22", "contract": "megaphone"}) == ("footballer",)
    assert game.picks({"type": "sponsor", "seat": 1, "card": "sp_22", "contract": "adboard"}) == ()  # its action heals
    assert game.picks({"type": "use_card", "seat": 1, "card": "st_31"}) == ("Youngster",)
    assert game.picks({"type": "use_card", "seat": 1, "card": "dir_14"}) == ("footballer",)
    assert game.picks({"type": "hire_staff", "seat": 1, "card": "st_06"}) == ()  # it trains by its action, not on hire
    assert game.picks({"type": "use_card", "seat": 1, "card": "vet_01"}) == ()  # no action on Tuesday

    # On Matchday before the match: a Veteran's match ability, from the side he shows, is for a footballer of choice.
    week = Path(__file__).parents[2] / "scenarios" / "full-week.toml"
    with SimulatedTable.open(table.session.store.path.with_name("week.db")) as played:
        steps = iter(parse(week).steps)
        while played.view() is None or played.view()["stage"] != "matchday":
            run_step(played, next(steps))
        event = {"type": "use_card", "seat": 1, "card": "vet_01"}
        assert played.session._view().picks(event) == ()  # untrained, he has no such ability
        played.page({"type": "adjust", "seat": 1, "what": "trained", "card": "vet_01", "delta": 1, "reason": "test"})
        assert next(p for p in club(played, 1)["players"] if p["id"] == "vet_01")["trained"]
        assert played.session._view().picks(event) == ("footballer",)
