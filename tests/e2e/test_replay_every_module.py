"""A whole game with every module of one club's play on at once (Division, Referee, Betting, New Objective cards,
Market transfer cards, Unique Setup cards, New Stadium Infrastructure), by the shipped scenario through ``touchline
replay``: the modules play together in one game without getting in each other's way (issue 8, part 1's modules)."""

from __future__ import annotations

import pytest

import engine
from engine.modules import betting as B

from .test_replay_game import replay

pytestmark = pytest.mark.slow

EVERY_MODULE = ["division", "referee", "betting", "new_objectives", "market", "unique_setup", "new_infrastructure"]


def test_the_every_module_scenario_plays_a_whole_game_with_all_the_modules_at_once() -> None:
    # its own checks held, or it fails: each club's own board tables at week 1, the Veteran sold for the Transfer
    # card's bonus on the seat's screen, the Betting after each Thursday and its bets shown, a referee each match,
    # the bets settled at each End of the week, the game over
    final = replay("every-module-game.toml")
    profile = engine.load_profile()
    view, state = final["view"], final["state"]
    assert view["stage"] == "over" and view["game"]["modules"] == EVERY_MODULE
    assert view["game"]["options"] == {"division": 3, "weeks": 3}
    clubs = {c["seat"]: c for c in state["clubs"]}
    # Division 3's Opponent cards only
    for club in clubs.values():
        for card in club["opponents"]:
            assert 3 in (profile.cards[card].divisions or (profile.cards[card].division,))
    # Unique Setup cards: each club's two, every card of the demo on one club's boards
    placed = view["modules"]["unique_setup"]["placed"]
    assert {p["green"]["id"] for p in placed.values()} | {p["red"]["id"] for p in placed.values()} == {
        f"us_{n}" for n in range(1, 9)}
    # Market: the trained Veteran was sold (discarded) and the Transfer card under the one that paid lies on top
    assert state["discarded"] == ["vet_01"] and view["modules"]["market"]["top"] == "tr_6"
    # New Stadium Infrastructure: new tokens built on the clubs' own boards and scored at the end
    assert {k for c in clubs.values() for k in c["infrastructure"]} == {"training_camp", "youth_academy", "tunnel"}
    # Betting: seats 1 and 2 bet each week, 3 and 4 held their buttons; the last week's bets paid as the board says
    settled = view["modules"]["betting"]["settled"]
    assert settled["week"] == 3 and [b["seat"] for b in settled["bets"]] == [1, 2]
    assert settled["space"] == B.pattern([r["result"] for r in settled["results"]])
    for bet in settled["bets"]:
        won = settled["space"] in bet["on"]
        assert bet["gain"] == (bet["on_token"] * B.board_of(profile).pay[bet["kind"]] if won else 0)
    # New Objective cards: the table checked every club's from the record, nobody pressed a button for it
    record = dict(state["modules"])["new_objectives"]["matches"]
    assert len(record) == 4 * 3
    assert all(c["objective_result"] in ("missed", "fulfilled", "perfect") for c in clubs.values())
    losses = sum(1 for m in record if m["seat"] == 1 and m["result"] == "loss")  # Well-oiled Machine: at most 2 losses
    assert clubs[1]["objective_result"] == ("perfect" if losses <= 1 else "fulfilled" if losses <= 2 else "missed")
    # every row of the final scoring adds up
    for row in view["final"]:
        parts = ("league", "vp_tokens", "staff_sets", "infrastructure", "objective", "office", "budget")
        assert row["total"] == sum(row[p] for p in parts)
