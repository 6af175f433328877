"""Transferring Players at the table (003 l.27–30, l.45): the seller taps his footballer and steps to "Auction" on
the button; each bidder's button raises one step and a hold passes; every seat's screen (its rendered frame) shows
the card, the highest bid and whose turn it is to bid; an offer's owner accepts with a press and declines with a hold."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine
from device.screens import render
from device.sim import SimulatedTable
from engine.modules import transfers as T

from tests.engine.helpers import _prefer_pass

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SEATS = (1, 2, 3, 4)


@pytest.fixture
def table(tmp_path: Path) -> Any:
    """A four-club game with Transferring Players at its first Tuesday, each club with 12 € more."""
    with SimulatedTable.open(tmp_path / "t.db") as t:
        t.page({"type": "new_game", "clubs": [{"seat": s, "name": f"Club {s}"} for s in SEATS], "first_seat": 1,
                "modules": ["transfers"]})
        profile = t.session.profile
        count = 0
        while t.session.state.stage != "tuesday":
            t.page(_prefer_pass(engine.legal_events(profile, t.session.state), count))
            count += 1
        for seat in SEATS:
            t.page({"type": "adjust", "seat": seat, "what": "budget", "delta": 12, "reason": "a test's money"})
        yield t


def _shows(t: SimulatedTable, *words: str) -> None:
    """Every seat's screen says these words, and its panel shows exactly the frame drawn from them."""
    for seat in SEATS:
        sid = f"seat{seat}.screen"
        screen = t.screen(sid)
        for word in words:
            assert word in screen.text(), f"{sid}: {screen.text()!r} lacks {word!r}"
        page = t.pager.shown(sid)[0]
        assert t.hardware.frame(sid).convert("1").tobytes() == render(screen, page).convert("1").tobytes()


def test_an_auction_on_the_buttons_shows_every_screen_the_card_the_highest_bid_and_whose_turn(table: Any) -> None:
    t = table
    state = t.session.state
    assert state.turn == 1
    seller = state.club(1)
    card = seller.players[0].id
    name = t.session.profile.cards[card].name
    t.tap("seat1.tap", card)
    assert t.screen("seat1.screen").headline.startswith(f"{name}: ")
    while "Auction" not in t.screen("seat1.screen").headline:
        t.press("seat1.roll")
    t.hold("seat1.roll")
    auction = t.view()["modules"]["transfers"]["auction"]
    assert auction["seller"] == 1 and auction["turn"] == 2
    ask = auction["ask"]
    _shows(t, f"Auction: {name}", f"{name} ask €{ask} · Club 2 to bid")
    assert t.lit("seat2.roll") and not t.lit("seat3.roll")
    assert f"Ask €{ask} · Press: bid €{ask}" in t.screen("seat2.screen").text()
    t.press("seat2.roll")  # the asking price
    _shows(t, f"€{ask} Club 2", f"{name} €{ask} · Club 3 to bid")
    t.press("seat3.roll")  # one step more
    _shows(t, f"€{ask + 1} Club 3", f"{name} €{ask + 1} · Club 4 to bid")
    t.press("seat2.roll")  # not its turn: its own screen says so, the others still follow the auction
    assert f"€{ask + 1} Club 3 · Press: bid €{ask + 2}" in t.screen("seat4.screen").text()
    assert f"{name} €{ask + 1} · Club 4 to bid" in t.screen("seat1.screen").text()
    t.hold("seat4.roll")
    _shows(t, "Club 4 passes", f"{name} €{ask + 1} · Club 2 to bid")
    t.press("seat2.roll")
    _shows(t, f"€{ask + 2} Club 2", f"{name} €{ask + 2} · Club 3 to bid")
    ARTIFACTS.mkdir(exist_ok=True)
    for seat in SEATS:
        render(t.screen(f"seat{seat}.screen")).save(ARTIFACTS / f"screen-auction-seat{seat}.png")
    t.hold("seat3.roll")  # every club but Club 2 has passed: sold
    _shows(t, f"Sold €{ask + 2} Club 2", name)
    clubs = {c.seat: c for c in t.session.state.clubs}
    assert clubs[2].held(card) is not None and clubs[1].held(card) is None
    assert t.view()["modules"]["transfers"]["auction"] is None


def test_an_auction_nobody_bids_for_sells_at_strength(table: Any) -> None:
    t = table
    card = t.session.state.club(1).players[0].id
    before = t.session.state.club(1).res[0]
    t.page({"type": "auction", "seat": 1, "card": card})
    for seat in (2, 3, 4):
        t.hold(f"seat{seat}.roll")
    unsold = t.view()["modules"]["transfers"]["last"]
    assert unsold["buyer"] == 0
    assert t.session.state.club(1).res[0] == before + unsold["amount"] + 1
    _shows(t, f"No bid: {t.session.profile.cards[card].name}")


def test_an_offers_owner_declines_with_a_hold_and_accepts_with_a_press(table: Any) -> None:
    t = table
    card = t.session.state.club(3).players[0].id
    t.page({"type": "offer", "seat": 1, "card": card, "amount": 4})
    assert t.lit("seat3.roll")
    assert "Press: accept €4" in t.screen("seat3.screen").text()
    t.hold("seat3.roll")
    assert t.view()["modules"]["transfers"]["declined"] == {"1": 1}
    t.page({"type": "offer", "seat": 1, "card": card, "amount": 6})
    t.press("seat3.roll")
    assert t.session.state.club(1).held(card) is not None
    assert t.view()["modules"]["transfers"]["last"]["kind"] == "offer"
    assert T.ACCEPTED_SHORT.format(name=t.session.profile.cards[card].name, amount=6) in t.screen("shared.screen").text()
