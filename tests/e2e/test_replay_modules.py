"""A whole game with the Division and Referee modules, by the shipped scenario through ``touchline replay``: the
referee's dice are rolled on the seats' buttons before each match, every Opponent dealt is of Division 3, and in
week 3 seat 2's Unjust referee suspends one of two footballers showing his tags: its screen asks, and the seat taps
the one it chooses (the scenario's own checks)."""

from __future__ import annotations

import pytest

import engine

from .test_replay_game import replay

pytestmark = pytest.mark.slow


def test_the_modules_scenario_plays_a_whole_game_in_division_3_with_a_referee_at_every_match() -> None:
    final = replay("modules-game.toml")  # its own checks (each week's referee, the game's rules) held, or it fails
    profile = engine.load_profile()
    assert final["view"]["stage"] == "over"
    assert final["view"]["game"]["modules"] == ["division", "referee"]
    for club in final["state"]["clubs"]:
        assert {profile.cards[c].division for c in club["opponents"]} == {3}
    # two referee dice per club per week, a d6 and a d12, rolled by the table's buttons
    twelve = [r for r in final["rolls"] if (r.get("die") if isinstance(r, dict) else r[0]) == "d12"]
    assert len(twelve) == 4 * 4
    # the game was begun under the newest readings: the referee's choice among several was the club's to tap
    assert final["view"]["game"]["revision"] == engine.REVISION
