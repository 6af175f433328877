"""A whole game with the Market transfer cards, Unique Setup cards and New Stadium Infrastructure, by the shipped
scenario through ``touchline replay``: the page lays the Market deck and each club's two cards, a Veteran trained in a
new training camp is sold with a tap and a press for the top Transfer card's bonus, new tokens are built on the
clubs' own Stadium boards and produce on Monday."""

from __future__ import annotations

import pytest

from .test_replay_game import replay

pytestmark = pytest.mark.slow


def test_the_module_cards_scenario_plays_a_whole_game_with_each_clubs_own_boards() -> None:
    final = replay("module-cards-game.toml")  # its own checks (the boards, the sale's bonus on the screen) held
    view, state = final["view"], final["state"]
    assert view["stage"] == "over" and view["week"] == 4
    assert view["game"]["modules"] == ["market", "unique_setup", "new_infrastructure"]
    placed = view["modules"]["unique_setup"]["placed"]
    assert {seat: (p["green"]["id"], p["red"]["id"]) for seat, p in placed.items()} == {
        "1": ("us_1", "us_8"), "2": ("us_4", "us_2"), "3": ("us_7", "us_3"), "4": ("us_5", "us_6")}
    clubs = {c["seat"]: c for c in state["clubs"]}
    assert "vet_01" in state["discarded"] and clubs[1]["infrastructure"] == ["training_camp"]
    built = {seat: c["infrastructure"] for seat, c in clubs.items()}
    assert {k for ks in built.values() for k in ks} >= {"youth_academy", "tunnel", "kids_fan_zone"}
    # a Veteran sold with Experience counts on top: the sale's 5 € and its +2 €, then the next card on top
    assert view["modules"]["market"]["top"] == "tr_6"
    # every row of the final scoring adds up, the new tokens' VP in the infrastructure part
    for row in view["final"]:
        parts = ("league", "vp_tokens", "staff_sets", "infrastructure", "objective", "office", "budget")
        assert row["total"] == sum(row[p] for p in parts)
