"""A whole game with Betting and the New Objective cards, by the shipped scenario through ``touchline replay``: three
clubs, so the fourth Betting token lies on an Opponent card the table dealt; every week two clubs bet from the page
and one holds its button to bet nothing; the bets are settled at the End of each week; the New Objective cards are
checked by the table from the clubs' results against Green, Blue and Red Opponents (003 l.355–432)."""

from __future__ import annotations

import pytest

import engine
from engine.modules import betting as B

from .test_replay_game import replay

pytestmark = pytest.mark.slow


def test_the_betting_scenario_plays_a_whole_game_with_bets_settled_every_week() -> None:
    final = replay("betting-game.toml")  # its own checks (the Betting each week, bets shown, settled) held, or it fails
    profile = engine.load_profile()
    view, state = final["view"], final["state"]
    assert view["stage"] == "over" and view["game"]["modules"] == ["division", "betting", "new_objectives"]
    betting = dict(state["modules"])["betting"]
    (token,) = betting["cards"]
    assert token not in {c for club in state["clubs"] for c in club["opponents"]}
    assert 3 in (profile.cards[token].divisions or (profile.cards[token].division,))
    settled = view["modules"]["betting"]["settled"]
    # the last week's winning space is the four results sorted highest first
    assert settled["space"] == B.pattern([r["result"] for r in settled["results"]])
    assert [b["seat"] for b in settled["bets"]] == [1, 2]  # seat 3 held its button: no bet
    for bet in settled["bets"]:
        place = B.board_of(profile).place(tuple(bet["on"]))
        won = settled["space"] in bet["on"]
        assert bet["gain"] == (bet["on_token"] * B.board_of(profile).pay[place.kind] if won else 0)
    # the New Objective cards were scored by the table from the record, without a word from the players: seat 1's
    # Well-oiled Machine (demo reading: at most 2 losses, perfectly at most 1)
    record = dict(state["modules"])["new_objectives"]["matches"]
    assert len(record) == 3 * 3
    losses = sum(1 for m in record if m["seat"] == 1 and m["result"] == "loss")
    expected = "perfect" if losses <= 1 else "fulfilled" if losses <= 2 else "missed"
    assert {c["seat"]: c["objective_result"] for c in state["clubs"]}[1] == expected
