"""A whole Epic League (003 l.436–556) by the shipped scenario through ``touchline replay``: four clubs, ten weeks, the
Winter Break after week 5 at the table (Objectives tapped and stepped on the buttons, the Transfer Window's turns with
a transfer auction raised on the buttons (Transferring Players, 003 l.13–58), Winter Training on the page), and the
final scoring with the Epic League's VP table."""

from __future__ import annotations

import pytest

from .test_replay_game import replay

pytestmark = pytest.mark.slow

#: l.549–556: VP by League position, "12+" for every place beyond the 11th.
EPIC_VP = [24, 20, 16, 13, 10, 7, 4, 1, 0, -3, -6]


def test_the_epic_league_scenario_plays_ten_weeks_and_the_winter_break_to_the_final_scoring() -> None:
    final = replay("epic-league-game.toml")  # its checks (the break after week 5, its steps, week 6 after) held
    view, state = final["view"], final["state"]
    assert final["status"] == "finished" and view["stage"] == "over" and view["week"] == 10
    assert len(view["league"]) == 4 + 12  # the clubs and the 12 Opponent teams of the extension (l.450)
    epic = view["modules"]["epic_league"]
    # the Objectives said at the break: seat 1 perfectly (6 VP), seats 2 and 4 fulfilled (3 VP), seat 3 none
    assert [(w["seat"], w["result"]) for w in epic["winter"]] == [(1, "perfect"), (2, "fulfilled"), (3, "missed"), (4, "fulfilled")]
    # three drafts of five tokens for four clubs: twelve taken, three discarded; each on its own Player card
    assert sum(epic["supply"].values()) == 16 - 15
    assert len({(p["seat"], p["card"]) for p in epic["placed"]}) == len(epic["placed"]) <= 12
    # the Transfer Window's hire: seat 2 (the First player that week) holds a third footballer
    assert len(next(c for c in state["clubs"] if c["seat"] == 2)["players"]) == 3
    # and its auction (Transferring Players): seat 3's Veteran, raised on seats 4 and 1's buttons, went to seat 1 for 2 €
    assert state["game"]["modules"] == ["epic_league", "transfers"]
    assert view["modules"]["transfers"]["last"] == {"kind": "auction", "card": "vet_03", "name": "Hans Keller",
                                                    "seller": 3, "buyer": 1, "amount": 2}
    assert "vet_03" in {p["id"] for p in next(c for c in state["clubs"] if c["seat"] == 1)["players"]}
    for row in view["final"]:
        position = row["position"]
        assert row["league"] == (EPIC_VP[position - 1] if position <= 11 else -9)
        assert row["winter_objective"] == {1: 6, 2: 3, 3: 0, 4: 3}[row["seat"]]
        assert row["total"] == sum(row[p] for p in ("league", "vp_tokens", "staff_sets", "infrastructure", "objective",
                                                     "office", "budget", "winter_objective"))
    assert all("Game over" in "\n".join(lines) for sid, lines in final["screens"].items() if sid != "shared.screen")
