"""A whole game with Transferring Players (003 l.13–58) by the shipped scenario: an offer declined with a hold and
one accepted with a press, an auction opened on the seller's button that nobody bids in, and an auction raised on
three clubs' buttons until all but one passed, to the final scoring."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.store import open_store

from tests.played import played

from .test_replay_game import replay

pytestmark = pytest.mark.slow


def test_the_transfers_scenario_plays_its_auctions_and_offers_to_the_final_scoring(tmp_path: Path) -> None:
    final = replay("transfers-game.toml")  # its checks (each screen showing the bids, each outcome) held
    view, state = final["view"], final["state"]
    assert final["status"] == "finished" and view["stage"] == "over" and view["week"] == 3
    for row in view["final"]:
        assert row["total"] == sum(row[p] for p in ("league", "vp_tokens", "staff_sets", "infrastructure", "objective",
                                                     "office", "budget"))
    holds = {c["seat"]: {p["id"] for p in c["players"]} for c in state["clubs"]}
    assert {"vet_02", "vet_03"} <= holds[1]  # Seat 2's Veteran by the accepted offer, Seat 3's by the auction
    assert "yg_03" not in set().union(*holds.values())  # nobody bid for Seat 2's Youngster: sold to the supply
    db, replayed = played("transfers-game.toml", tmp_path)
    assert replayed == final  # every die forced by the file: the same game again
    store = open_store(db)
    try:
        events = store.events(store.games()[-1].id)
    finally:
        store.close()
    kinds = [(e["type"], e.get("seat"), e.get("amount")) for e in events if e["type"] in (
        "offer", "accept_offer", "decline_offer", "auction", "bid", "bid_pass")]
    assert kinds == [
        ("offer", 1, 1), ("decline_offer", 2, None), ("offer", 1, 3), ("accept_offer", 2, None),
        ("auction", 2, None), ("bid_pass", 3, None), ("bid_pass", 4, None), ("bid_pass", 1, None),
        ("auction", 3, None), ("bid", 4, None), ("bid", 1, None), ("bid", 2, None), ("bid_pass", 4, None),
        ("bid", 1, None), ("bid_pass", 2, None)]
