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


def test_the_table_asks_for_the_cards_the_engine_says_a_use_chooses(table: SimulatedTable) -> None:
    """Asked of the engine for what the club may do now: a Sponsor's contract (a shirt's bonus too), a Staff or
    Director action of the club's own, each with the club's cards that fit; nothing for a use the engine refuses."""
    from device.game_view import GameView
    from engine.state import Held
    from tests.engine.helpers import set_club

    to_tuesday(table)
    profile, state = table.session.profile, table.session.state
    footballers = tuple(p["id"] for p in club(table, 1)["players"])
    youngsters = tuple(p for p in footballers if p.startswith("yg_"))

    def asked(event: dict, game: GameView | None = None) -> list[tuple[str, tuple[str, ...]]]:
        return [(p.what, p.cards) for p in (game or GameView(profile, state)).picks(event)]

    sponsor = {"type": "sponsor", "seat": 1, "card": "sp_22"}
    assert asked({**sponsor, "contract": "megaphone"}) == [("footballer", footballers)]
    assert asked({**sponsor, "contract": "adboard"}) == []  # its adboard heals by its action, not when signed
    assert asked({**sponsor, "contract": "shirt"}) == [("footballer", footballers)]  # the shirt's bonus heals one
    assert asked({"type": "hire_staff", "seat": 1, "card": "st_06"}) == []  # it trains by its action, not on hire
    assert asked({"type": "use_card", "seat": 1, "card": "vet_01"}) == []  # no action on Tuesday: refused
    assert asked({"type": "use_card", "seat": 1, "card": "st_31"}) == []  # not the club's card: refused
    own = GameView(profile, set_club(state, 1, staff=(Held("st_31"),), directors=(*(d["id"] for d in club(table, 1)["directors"]), "dir_14"),
                                     res=(5, 0, 5, 5)))
    assert asked({"type": "use_card", "seat": 1, "card": "st_31"}, own) == [("Youngster", youngsters)]
    assert asked({"type": "use_card", "seat": 1, "card": "dir_14"}, own) == [("footballer", footballers)]
