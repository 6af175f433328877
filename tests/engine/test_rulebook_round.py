"""The base rulebook's End of the round (000 l.767–778, Maintenance l.883–887) and the Monday after it
(Production l.311, the Board meeting l.371–391), case by case.

Expected numbers are worked out by hand from the demo board's Maintenance tracks (engine/data/demo/board.toml:
footballers 0 0 0 0 1 1 1 2 2 2 3 3 3 4, Staff 0 0 1 1 2 2 3 3 4, Infrastructure 0 0 0 1 1 1 2 2, € due for a count
of 0, 1, 2, ...; the last value beyond) and its Production at Stat level 2 (2 €, 2 Fanbase, 1 Operation, 3 Fitness).
"""

from __future__ import annotations

from typing import Any

import engine
from engine import errors as E
from engine.state import Held, State

from engine.cards import Effect

from tests.engine.helpers import at_stage, board_meeting, club, demo, director, refused, run, set_club, started, with_cards
from tests.engine.test_match_and_round import matchday
from tests.engine.test_rulebook_match import OPP_CROWD, profile

PLAYERS = ("pl_01", "pl_02", "pl_03", "pl_04", "pl_05", "pl_06", "pl_07", "pl_08")
STAFF = ("st_01", "st_02", "st_03")  # First trainers: an action each, nothing at the End of the round or on Monday


def at_results(seats: tuple[int, ...] = (1,), first: int = 1) -> tuple[Any, State]:
    """Every club has played (a 0–0 draw against a wall of defenders) and rolled its Match consequence."""
    prof, state = matchday(seats=seats, opponents=(OPP_CROWD.id,) * len(seats), profile=profile())
    state = at_stage(prof, state, "results")
    return prof, set_state(state, first_seat=first)


def set_state(state: State, **changes: Any) -> State:
    from engine.state import evolve
    return evolve(state, **changes)


def close(prof: Any, state: State) -> tuple[State, list[dict[str, Any]]]:
    """Roll every Opponent die (6) and play on until the next Monday or a club's choice of Suspensions; returns
    the state and every announcement on the way."""
    said: list[dict[str, Any]] = []
    while state.stage in ("results", "end_of_round") and not any(a["need"] == "suspensions" for a in state.awaiting):
        need = state.awaiting[0]
        assert need["need"] == "roll" and need.get("purpose") == "opponent_die", need
        step = engine.apply(prof, state, {"type": "roll", "seat": None, "team": need["team"], "value": 6})
        said += step.announcements
        state = step.state
    return state, said


def club_with(state: State, seat: int, players: int, staff: int, infrastructure: tuple[str, ...], res: tuple[int, int, int, int]) -> State:
    return set_club(state, seat, players=tuple(Held(p) for p in PLAYERS[:players]), staff=tuple(Held(s) for s in STAFF[:staff]),
                    infrastructure=infrastructure, res=res, stats=(2, 2, 2, 2))


def maintenance(said: list[dict[str, Any]], seat: int) -> dict[str, Any]:
    return next(a for a in said if a["kind"] == "maintenance" and a["seat"] == seat)


def test_maintenance_adds_the_three_tracks_and_the_rest_of_the_budget_is_kept() -> None:
    """l.773: "Each player checks his position on Maintenance tracks and pays € according to them." 5 footballers
    (1 €), 2 Staff (1 €) and 3 Infrastructure tokens (1 €): 3 € of 7 paid, 4 kept; Monday's Production adds 2."""
    prof, state = at_results()
    state = club_with(state, 1, 5, 2, ("lighting", "merchandise", "adboard"), (7, 0, 0, 0))
    state, said = close(prof, state)
    assert {k: maintenance(said, 1)[k] for k in ("due", "paid", "missing")} == {"due": 3, "paid": 3, "missing": 0}
    assert state.stage == "monday" and club(state, 1).res[0] == 7 - 3 + 2


def test_the_first_spaces_of_each_track_cost_nothing() -> None:
    """The tracks' first spaces are free: 3 footballers, 1 Staff, 2 Infrastructure tokens cost 0 €; the 4th
    footballer costs the first €."""
    prof, state = at_results()
    state = club_with(state, 1, 4, 1, ("lighting", "adboard"), (0, 0, 0, 0))
    _, said = close(prof, state)
    assert maintenance(said, 1)["due"] == 1
    state = club_with(state, 1, 3, 1, ("lighting", "adboard"), (0, 0, 0, 0))
    state, said = close(prof, state)
    assert maintenance(said, 1)["due"] == 0
    assert state.stage == "monday" and club(state, 1).res[0] == 2  # nothing owed, no Suspension asked


def test_a_club_short_of_euros_pays_all_it_has_and_names_a_card_for_two_suspension_tokens_per_missing_euro() -> None:
    """l.773: "If you have less € to pay, you must place 2 Suspension tokens on a Staff or Player card for each € you
    don't have." 8 footballers (2 €) and 3 Staff (1 €) owe 3 €; with 1 € the club pays it and is 2 € short."""
    prof, state = at_results()
    state = club_with(state, 1, 8, 3, (), (1, 0, 0, 0))
    state, said = close(prof, state)
    assert {k: maintenance(said, 1)[k] for k in ("due", "paid", "missing")} == {"due": 3, "paid": 1, "missing": 2}
    assert list(state.awaiting) == [{"seat": 1, "need": "suspensions", "count": 2}]
    assert club(state, 1).res[0] == 0
    # a Director is neither a Staff nor a Player card; one card too few is refused too
    director = club(state, 1).directors[0]
    refused(prof, state, {"type": "suspensions", "seat": 1, "cards": [director, "st_01"]}, E.NotAllowed, "must name 2 Staff or Player card(s)")
    refused(prof, state, {"type": "suspensions", "seat": 1, "cards": ["st_01"]}, E.NotAllowed, "must name 2")
    after = engine.apply(prof, state, {"type": "suspensions", "seat": 1, "cards": ["st_01", "pl_02"]}).state
    assert club(after, 1).held("st_01").suspension == 2 and club(after, 1).held("pl_02").suspension == 2
    assert after.stage == "monday"


def test_a_club_with_no_euro_names_one_card_twice_for_four_tokens() -> None:
    prof, state = at_results()
    state = club_with(state, 1, 8, 1, (), (0, 0, 0, 0))  # 2 € due
    state, _ = close(prof, state)
    after = engine.apply(prof, state, {"type": "suspensions", "seat": 1, "cards": ["pl_01", "pl_01"]}).state
    assert club(after, 1).held("pl_01").suspension == 4


def test_one_of_each_resource_but_euros_is_kept() -> None:
    """l.775: "Keep max. 1 Fanbase, 1 Operation, 1 Fitness markers and discard the rest. You may keep as many €
    markers as you want." Kept: (9 €, 1, 0, 1); Monday's Production at level 2 adds (2, 2, 1, 3)."""
    prof, state = at_results()
    state = club_with(state, 1, 0, 0, (), (9, 4, 0, 3))
    state, _ = close(prof, state)
    assert club(state, 1).res == (9 + 2, 1 + 2, 0 + 1, 1 + 3)


def test_the_stage_marker_passes_to_the_next_player_on_the_left() -> None:
    """l.285: "First player passes the Stage marker to the next player on their left"; l.776 "Pass the Stage marker
    to the next player." Seats play clockwise by rising number: 2 after 1, and 1 after the last seat."""
    prof, state = at_results(seats=(1, 2, 3), first=1)
    state, said = close(prof, state)
    assert state.first_seat == 2 and state.week == 2
    assert any(a["kind"] == "stage_marker" and a["seat"] == 2 for a in said)
    # l.283: "Tuesday, Wednesday and Thursday are resolved by one player at a time, beginning from the First player."
    assert at_stage(prof, state, "tuesday").turn == 2
    prof, state = at_results(seats=(1, 2, 3), first=3)
    state, _ = close(prof, state)
    assert state.first_seat == 1


# --- Monday ------------------------------------------------------------------------------------------------------


def test_production_gains_by_each_stat_level() -> None:
    """l.311: "All players simultaneously gain resources according to the positions of their Stat level markers on
    the tracks." Demo tracks: € 1 2 3 4 5 6, Fanbase 1 2 2 3 3 4, Operation 1 1 2 2 3 3, Fitness 2 3 4 5 6 7. Levels
    € 1, Fanbase 3, Operation 5, Fitness 6 produce 1 €, 2 Fanbase, 3 Operation, 7 Fitness."""
    prof, state = at_results()
    state = club_with(state, 1, 0, 0, (), (0, 0, 0, 0))
    state = set_club(state, 1, stats=(1, 3, 5, 6))
    state, said = close(prof, state)
    assert club(state, 1).res == (1, 2, 3, 7)
    assert next(a for a in said if a["kind"] == "production" and a["seat"] == 1)["gained"] == {
        "budget": 1, "fanbase": 2, "operation": 3, "fitness": 7}


YES = director("dir_r_yes", "yyyyyy")
ALSO = director("dir_r_also", "ybbbbb")
NO = director("dir_r_no", "bbbbby")
MEETING = board_meeting("bm_r_example",
                        yellow=(Effect.of("gain", resource="budget", amount=2), Effect.of("lose", resource="fanbase", amount=3)),
                        blue=(Effect.of("gain", resource="fitness", amount=1),))


def test_the_board_meeting_example_two_directors_for_yellow_beat_one_for_blue() -> None:
    """l.385–389: "Each player rolls a 6 sided die and checks the result on their Director cards ... Resolve the
    effect corresponding to the decision with the most votes ... Example: You have rolled 1. Two of your directors
    vote for the yellow decision and one for the blue decision. Yellow decision wins as it got the most votes. Gain
    the indicated 2€ and lose 3 fanbase". On a 6 YES and NO vote yellow, ALSO blue: yellow again; on a 2 ALSO and NO
    vote blue: blue wins (1 Fitness)."""
    prof = with_cards(demo(), YES, ALSO, NO, MEETING)
    state = set_club(started(prof, seats=(1,)), 1, directors=(YES.id, ALSO.id, NO.id), res=(0, 4, 0, 0))
    state = run(prof, [{"type": "board_meeting", "seat": 1, "card": MEETING.id}], state)
    for face, res in ((1, (2, 1, 0, 0)), (6, (2, 1, 0, 0)), (2, (0, 4, 0, 1))):
        after = engine.apply(prof, state, {"type": "roll", "seat": 1, "value": face}).state
        after = run(prof, [{"type": "keep", "seat": 1}], after) if any(a["need"] == "keep_or_reroll" for a in after.awaiting) else after
        assert club(after, 1).res == res, face
