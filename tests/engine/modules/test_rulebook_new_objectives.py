"""New Objective cards about Green, Blue and Red Opponents (003 l.355–361) checked by whole games: each club's
results, as the result announcements tell them, counted by hand against the colour of the die each Opponent team
rolls on the League table (demo board.toml), and the Objectives scored from them at the Final scoring."""

from __future__ import annotations

from collections import Counter
from typing import Any

import engine
from engine.legal import setup_events
from engine.state import State

from tests.engine.helpers import _prefer_pass, club, demo, run

# The demo board's teams and the die each rolls (board.toml, [[team]] die): the Opponent's colour
COLOUR = {"downtown": "opp_blue", "steelchester": "opp_blue", "kingsbridge": "opp_blue", "harbour": "opp_red",
          "northfield": "opp_red", "riverside": "opp_green", "oldcastle": "opp_green", "millbrook": "opp_green"}
WELL_OILED, GET_REDDY = "obj_21", "obj_19"
OBJECTIVE_VP, PERFECT_VP = 2, 2  # board.toml: objective_vp, objective_perfect_vp


def _game(modules: list[str], seats: list[int], weeks: int, objectives: dict[int, str]) -> tuple[State, dict]:
    """A game played to its end by the simplest events; each seat's result of each week, as announced, and the
    Opponent team it played (None for a match between clubs)."""
    profile = demo()
    game = {"type": "game", "modules": modules, "options": {"weeks": weeks}, "revision": engine.REVISION}
    events = [{**e, "card": objectives[e["seat"]]} if e["type"] == "objective" and e["seat"] in objectives else e
              for e in setup_events(profile, seats, game=game)]
    state = run(profile, events)
    played: dict[tuple[int, int], tuple[str, str | None]] = {}
    for _ in range(20000):
        if state.stage == "over":
            return state, played
        step = engine.apply(profile, state, _prefer_pass(engine.legal_events(profile, state), state.events))
        for a in step.announcements:
            if a["kind"] == "result" and a.get("seat") is not None:
                seat = a["seat"]
                against = next((t for t, name in _TEAMS.items() if f"against {name}" in a["text"]), None)
                played[(state.week, seat)] = (a["result"], against)
        state = step.state
    raise AssertionError("the game did not end")


_TEAMS = {t.id: t.name for t in demo().board.teams}


def _tally(played: dict, seat: int) -> dict[str, dict[str, int]]:
    """The seat's wins, draws and losses against Opponents of each colour, counted by hand."""
    out: dict[str, dict[str, int]] = {}
    for (week, s), (result, team) in played.items():
        if s == seat and team is not None:
            out.setdefault(COLOUR[team], {"win": 0, "draw": 0, "loss": 0})[result] += 1
    return out


def _expected(losses: int) -> str:
    # Well-oiled Machine (RULES.md): at most 2 losses all game fulfils it, at most 1 perfectly
    return "perfect" if losses <= 1 else "fulfilled" if losses <= 2 else "missed"


def test_each_clubs_results_count_against_the_colour_of_the_opponents_die_and_score_its_objective() -> None:
    # 003 l.361: "Some of these cards refer to Green, Blue, or Red Opponents"; a game of three weeks, three clubs
    profile = demo()
    state, played = _game(["new_objectives"], [1, 2, 3], 3, {1: WELL_OILED, 2: GET_REDDY})
    assert len(played) == 9 and all(team is not None for _, team in played.values())
    shown = engine.view(profile, state, "table")["modules"]["new_objectives"]["by_die"]
    for seat in (1, 2, 3):
        assert shown[str(seat)] == _tally(played, seat), seat
    losses = sum(1 for (week, s), (result, _) in played.items() if s == 1 and result == "loss")
    assert club(state, 1).objective_result == _expected(losses)
    red = _tally(played, 2).get("opp_red", {"win": 0, "draw": 0, "loss": 0})
    # Get Red'dy (RULES.md): a win against a Red Opponent fulfils it; without a loss against one, perfectly
    assert club(state, 2).objective_result == ("missed" if not red["win"] else "fulfilled" if red["loss"] else "perfect")


def test_a_match_between_clubs_is_against_no_coloured_opponent_but_its_loss_counts_for_well_oiled_machine() -> None:
    # 003 l.114–122: three clubs; Seat 1 plays Seat 2 in week 4 (and its fourth Opponent card in week 5), Seat 2
    # plays Seat 3 in week 5, Seat 3 plays Seat 1 in week 6.  A match against a club is against no Green, Blue or Red
    # Opponent (l.361), yet it is a match of the club's "all game" for Well-oiled Machine.
    state, played = _game(["club_matches", "new_objectives"], [1, 2, 3], 6, {1: WELL_OILED})
    against_clubs = {(4, 1), (4, 2), (5, 2), (5, 3), (6, 1), (6, 3)}
    assert {k for k, (_, team) in played.items() if team is None} == against_clubs
    shown = engine.view(demo(), state, "table")["modules"]["new_objectives"]["by_die"]
    for seat in (1, 2, 3):
        assert shown[str(seat)] == _tally(played, seat), seat
        assert sum(n for row in shown[str(seat)].values() for n in row.values()) == 4  # four Opponent cards each
    losses = Counter(result for (week, s), (result, _) in played.items() if s == 1)["loss"]
    assert club(state, 1).objective_result == _expected(losses)


def test_a_game_begun_under_revision_2_keeps_recording_the_weeks_card_of_the_stack() -> None:
    # engine/RULES.md "Revisions": a log replays to the state its players saw; revision 2 recorded a match between
    # clubs against the card of the club's stack at that week's place
    profile = demo()
    game = {"type": "game", "modules": ["club_matches", "new_objectives"], "options": {"weeks": 6}, "revision": 2}
    state = run(profile, setup_events(profile, [1, 2, 3], game=game))
    for _ in range(20000):
        if state.week == 5:
            break
        state = engine.apply(profile, state, _prefer_pass(engine.legal_events(profile, state), state.events)).state
    week4 = {m.seat: m.card for m in state.slice("new_objectives").matches if m.week == 4}
    assert week4 == {seat: club(state, seat).opponents[3] for seat in (1, 2, 3)}
