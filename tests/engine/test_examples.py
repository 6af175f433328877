"""The rulebook's worked examples, played through the engine.

The rulebook's pictures are missing from our copy, so the line-ups of the zone examples and of the Middleham
match are rebuilt from the sentences that describe them; every sentence is checked.
"""

from __future__ import annotations


import engine
from engine.cards import Effect
from engine.legal import setup_events
from engine.rules.matchday import zone_goals
from engine.state import Held, State, evolve
from engine.views import final_scores

from tests.engine.helpers import (
    board_meeting,
    club,
    demo,
    director,
    footballer,
    opponent,
    run,
    set_club,
    with_cards,
)


# --- Board meeting ---------------------------------------------------------------------------------------------


def _meeting_profile():
    return with_cards(
        demo(),
        director("dir_ta", "yybyyy"),
        director("dir_tb", "ybyyyy"),
        director("dir_tc", "brbbbb"),
        board_meeting(
            "bm_t1",
            yellow=(Effect.of("gain", resource="budget", amount=2), Effect.of("lose", resource="fanbase", amount=3)),
            blue=(Effect.of("gain", resource="fanbase", amount=1),),
            red=(Effect.of("vp", amount=1),),
        ),
    )


def _monday_with_test_directors(profile) -> State:
    events = setup_events(profile, [1])
    for ev in events:
        if ev["type"] == "directors":
            ev["cards"] = ["dir_ta", "dir_tb", "dir_tc"]
    return run(profile, events)


def test_board_meeting_example_two_yellow_votes_beat_one_blue() -> None:
    """"You have rolled 1. Two of your directors vote for yellow and one for blue. Yellow wins: gain 2 € and lose 3 fanbase."""
    profile = _meeting_profile()
    state = _monday_with_test_directors(profile)
    state = set_club(state, 1, res=(4, 5, 1, 3))
    state = run(profile, [{"type": "board_meeting", "seat": 1, "card": "bm_t1"}, {"type": "roll", "seat": 1, "value": 1}], state)
    # the club has Fanbase, so it may reroll: nothing happens until it keeps the result
    assert club(state, 1).res == (4, 5, 1, 3)
    step = engine.apply(profile, state, {"type": "keep", "seat": 1})
    assert club(step.state, 1).res == (6, 2, 1, 3)
    meeting = next(a for a in step.announcements if a["kind"] == "board_meeting")
    assert meeting["roll"] == 1 and meeting["decision"] == "yellow"
    assert meeting["votes"] == {"dir_ta": "yellow", "dir_tb": "yellow", "dir_tc": "blue"}
    assert step.state.stage == "tuesday"


def test_board_meeting_tie_is_rerolled_for_free() -> None:
    profile = _meeting_profile()
    state = _monday_with_test_directors(profile)
    state = set_club(state, 1, res=(4, 0, 1, 3))  # no Fanbase: results take effect at once
    step = engine.apply(profile, run(profile, [{"type": "board_meeting", "seat": 1, "card": "bm_t1"}], state), {"type": "roll", "seat": 1, "value": 2})
    assert any(a["kind"] == "board_meeting_tie" for a in step.announcements)
    assert club(step.state, 1).res == (4, 0, 1, 3)
    assert step.state.awaiting == ({"seat": 1, "need": "roll", "die": "d6", "purpose": "board_meeting", "rerollable": True},)
    after = engine.apply(profile, step.state, {"type": "roll", "seat": 1, "value": 3}).state
    assert club(after, 1).res == (4, 1, 1, 3)  # blue: +1 Fanbase, and no Fanbase was spent on the tie
    assert after.stage == "tuesday"


# --- Zone examples ---------------------------------------------------------------------------------------------


def test_zone_example_1_equal_strength_is_blocked_and_the_spare_forward_scores() -> None:
    # "Your attack Strength is 3 and the Opponent defence is 3, so it is blocked; your other forward is not
    # blocked and scores."
    assert zone_goals([3, 1], [3]) == 1
    # "Opponent's attack Strength is 1 and your defence is 0, so their forward scores without being blocked."
    assert zone_goals([1], []) == 1


def test_zone_example_2_stronger_attack_scores_equal_attack_is_blocked() -> None:
    assert zone_goals([2], [1]) == 1  # "Your attack Strength is 2 and the Opponent's defence 1: you score."
    assert zone_goals([1], [1]) == 0  # "Their attack Strength is 1, blocked by your defence (Strength 1)."


def test_more_defenders_than_attackers_means_nothing_happens() -> None:
    assert zone_goals([], [2, 1]) == 0
    assert zone_goals([], []) == 0


# --- The Middleham Local Club against Downtown United ----------------------------------------------------------

MIDDLEHAM_CARDS = (
    footballer("pl_m_d3", 4, "defence", 3, ("def",)),
    footballer("pl_m_a3", 9, "attack", 3, ("fwd",)),
    footballer("pl_m_a2", 8, "attack", 2, ("mid",)),
)
DOWNTOWN = opponent(
    "opp_t_downtown", "downtown",
    {
        "fwd_right": "A1",  # faces our left defenders
        "fwd_centre": "A2",
        "fwd_left": "D1",
        "mid_right": "A1",  # faces our left midfielders
        "mid_centre": "A2",
        "mid_left": "D1",
        "def_right": "D2",
        "def_centre": "D2 D2",
        "def_left": "D2",
    },
)
MIDDLEHAM_LINEUP = [
    {"zone": "def_left", "jersey": 2, "card": None, "style": "defence"},  # Red 1, Purple 1: nobody scores
    {"zone": "def_centre", "jersey": 4, "card": "pl_m_d3"},  # Red 3, Purple 2: nobody scores
    {"zone": "def_centre", "jersey": 3, "card": None, "style": "defence"},
    {"zone": "def_centre", "jersey": 5, "card": None, "style": "defence"},
    # def_right: Red has no players, Purple (a defender) is not blocking anybody
    {"zone": "mid_left", "jersey": 8, "card": "pl_m_a2"},  # Red 2 and Purple 1, no defenders: both score
    {"zone": "mid_centre", "jersey": 6, "card": None, "style": "defence"},  # Red 1, Purple 2: Purple scores
    {"zone": "mid_right", "jersey": 7, "card": None, "style": "defence"},  # Red 0, Purple 0 (no attackers)
    {"zone": "fwd_centre", "jersey": 10, "card": None, "style": "attack"},  # 2 attackers of 1 blocked by 2 of 2
    {"zone": "fwd_centre", "jersey": 11, "card": None, "style": "attack"},
    {"zone": "fwd_right", "jersey": 9, "card": "pl_m_a3"},  # Red 3, Purple 2: Red scores
    # fwd_left: Red has no players, so the Purple defender blocks nobody
]


def _match_day(profile) -> State:
    state = run(profile, setup_events(profile, [1]))
    week_opponents = (DOWNTOWN.id,) + club(state, 1).opponents[1:]
    players = club(state, 1).players + tuple(Held(c.id) for c in MIDDLEHAM_CARDS)
    # the rulebook's picture places the plain jersey markers: none has been seen before this lineup
    state = set_club(state, 1, name="Middleham Local Club", opponents=week_opponents, players=players, res=(5, 0, 0, 9), markers=())
    return evolve(state, stage="matchday", turn=0, pending=())


def test_middleham_against_downtown_zone_by_zone() -> None:
    profile = with_cards(demo(), *MIDDLEHAM_CARDS, DOWNTOWN)
    state = _match_day(profile)
    state = run(profile, [{"type": "lineup", "seat": 1, "players": MIDDLEHAM_LINEUP, "stands": 0}], state)
    assert club(state, 1).res[3] == 9 - 3  # one Fitness for each of the three cards used
    step = engine.apply(profile, state, {"type": "kickoff", "seat": 1})
    result = next(a for a in step.announcements if a["kind"] == "result")
    zones = {z["zone"]: (z["scored"], z["conceded"]) for z in result["zones"]}
    assert zones == {
        "def_left": (0, 0), "def_centre": (0, 0), "def_right": (0, 0),
        "mid_left": (1, 1), "mid_centre": (0, 1), "mid_right": (0, 0),
        "fwd_left": (0, 0), "fwd_centre": (0, 0), "fwd_right": (1, 0),
    }
    by_zone = {z["zone"]: z for z in result["zones"]}
    assert by_zone["def_centre"]["our_defence"] == [3, 1, 1] and by_zone["def_centre"]["their_attack"] == [2]
    assert by_zone["fwd_centre"]["our_attack"] == [1, 1] and by_zone["fwd_centre"]["their_defence"] == [2, 2]
    assert (result["goals"], result["conceded"], result["result"]) == (2, 2, "draw")
    after = step.state
    assert club(after, 1).points == 1 and after.team("downtown").points == 1
    assert after.awaiting[0]["purpose"] == "match_consequence"


# --- Scoring example -------------------------------------------------------------------------------------------


def test_scoring_example_is_35_vp() -> None:
    profile = demo()
    staff = {s.profession: [c.id for c in profile.cards_of("staff") if c.profession == s.profession] for s in profile.cards_of("staff")}
    team = (staff["Steward"][0], staff["Steward"][1], staff["Doctor"][0], staff["Doctor"][1], staff["Fitness trainer"][0], staff["First trainer"][0])
    state = run(profile, setup_events(profile, [1]))
    state = set_club(
        state, 1,
        staff=tuple(Held(s) for s in team),
        players=tuple(evolve(h, vp=0) for h in club(state, 1).players),
        vp_tokens=4, infrastructure=("stands", "stands"), objective_result="perfect", office=3, res=(2, 0, 0, 0), points=10,
    )
    # third in the League: two Opponent teams above, everyone else below
    teams = tuple(evolve(t, points=20 if i < 2 else 0) for i, t in enumerate(state.teams))
    state = evolve(state, teams=teams)
    (row,) = final_scores(profile, state)
    assert row["position"] == 3
    assert (row["league"], row["vp_tokens"], row["staff_sets"], row["infrastructure"], row["objective"], row["office"]) == (9, 4, 6, 2, 4, 10)
    assert row["total"] == 35



def test_directors_who_tie_on_every_face_let_the_first_of_them_decide() -> None:
    profile = with_cards(_meeting_profile(), director("dir_ty", "yyyyyy"), director("dir_tbb", "bbbbbb"), director("dir_tr", "rrrrrr"))
    events = setup_events(profile, [1])
    for ev in events:
        if ev["type"] == "directors":
            ev["cards"] = ["dir_tbb", "dir_ty", "dir_tr"]
    state = set_club(run(profile, events), 1, res=(4, 0, 1, 3))
    step = engine.apply(profile, run(profile, [{"type": "board_meeting", "seat": 1, "card": "bm_t1"}], state), {"type": "roll", "seat": 1, "value": 3})
    assert next(a for a in step.announcements if a["kind"] == "board_meeting")["decision"] == "blue"
    assert step.state.stage == "tuesday"
