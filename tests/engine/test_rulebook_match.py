"""The base rulebook's match (000, Matchday: "Resolve the match", "Result of the match"), case by case.

Every expected number below is worked out by hand from the quoted rule line and the demo board's printed tables
(engine/data/demo/board.toml): the zone pairs, who scores, the result, League points for the club and the Opponent
team, the Stands' €, the Match consequence table and the Opponent dice.
"""

from __future__ import annotations

from typing import Any

import engine
from engine import errors as E
from engine.state import Held, State

from tests.engine.helpers import club, demo, footballer, opponent, refused, run, set_club, with_cards
from tests.engine.test_match_and_round import BASIC, lineup, matchday, plain

#: BASIC with the right-wing Defender (5) moved into the centre: nobody defends the right wing.
SHIFTED = [plain("def_centre", 5) if p["jersey"] == 5 else p for p in BASIC]

#: Defenders of Strength 1 facing each of BASIC's attackers (mid_centre 7 8, mid_right 9, fwd_centre 10 11), so
#: none of them scores: their mid_centre faces our mid_centre, their mid_left our mid_right, their def_centre our
#: fwd_centre.
WALLS = {"mid_centre": "D1 D1", "mid_left": "D1", "def_centre": "D1 D1"}

#: The Opponent's right Forward: faces our left Defenders (l.673).
OPP_RIGHT_WING = opponent("opp_r_rwing", "downtown", {**WALLS, "fwd_right": "A1"})
#: The Opponent's left Forward: faces our right Defenders.
OPP_LEFT_WING = opponent("opp_r_lwing", "downtown", {**WALLS, "fwd_left": "A1"})
#: Their left midfield empty, a defender on their right midfield instead: our right Midfielder (9) is unblocked.
OPP_MID_RIGHT = opponent("opp_r_midr", "downtown", {"mid_centre": "D1 D1", "mid_right": "D1", "def_centre": "D1 D1"})
#: Example 1 (l.691–693): their central Defender of Strength 3; their attacker meets our empty right wing.
OPP_EXAMPLE_1 = opponent("opp_r_ex1", "steelchester", {"mid_centre": "D1 D1", "mid_left": "D1", "def_centre": "D3", "fwd_left": "A1"})
#: Example 2 (l.705–707): their central Midfielders are one defender and one attacker of Strength 1.
OPP_EXAMPLE_2 = opponent("opp_r_ex2", "harbour", {"mid_centre": "D1 A1", "mid_left": "D1", "def_centre": "D1 D1"})
#: Three defenders against our two central Forwards and nothing else: "If there are more defenders ... nothing happens".
OPP_CROWD = opponent("opp_r_crowd", "northfield", {**WALLS, "def_centre": "D1 D1 D1"})
#: Nobody at all: every attacker of ours scores, nobody of theirs.
OPP_EMPTY = opponent("opp_r_empty", "riverside", {})
#: Strong attackers in every central zone of theirs: three goals against BASIC (see the test).
OPP_STRONG = opponent("opp_r_strong", "oldcastle", {**WALLS, "fwd_centre": "A2 A2", "mid_centre": "D1 D1 A2", "fwd_left": "A1"})

#: Two central Midfielders of Strength 2 block a Strength-2 attacker of ours.
OPP_MID_WALL = opponent("opp_r_midwall", "kingsbridge", {**WALLS, "mid_centre": "D2 D2"})

#: One central Midfielder of Strength 1: of two equal attackers of ours there, one is blocked and one scores.
OPP_ONE_MID = opponent("opp_r_onemid", "millbrook", {**WALLS, "mid_centre": "D1"})
#: A Youngster whose only experience space fills when he scores.
KID = footballer("yg_r_kid", 7, "attack", 1, ("mid",), experience=("scored",))

TEN3 = footballer("pl_r_ten3", 10, "attack", 3, ("fwd",))
SEVEN2 = footballer("pl_r_seven2", 7, "attack", 2, ("mid",))

CARDS = (OPP_RIGHT_WING, OPP_LEFT_WING, OPP_MID_RIGHT, OPP_EXAMPLE_1, OPP_EXAMPLE_2, OPP_CROWD, OPP_EMPTY, OPP_STRONG, OPP_MID_WALL, OPP_ONE_MID, KID, TEN3, SEVEN2)


def profile() -> Any:
    return with_cards(demo(), *CARDS)


def play(opponents: tuple[str, ...], lineups: dict[int, list[dict[str, Any]]], cards: dict[int, tuple[str, ...]] | None = None,
         stands: dict[int, int] | None = None, res: tuple[int, int, int, int] = (0, 0, 0, 0)) -> tuple[Any, State, dict[int, dict[str, Any]]]:
    """Each seat plays its week-1 Opponent card with its lineup; returns the state after every kick-off and each
    seat's `result` announcement."""
    prof = profile()
    seats = tuple(range(1, len(opponents) + 1))
    prof, state = matchday(seats=seats, opponents=opponents, profile=prof)
    results: dict[int, dict[str, Any]] = {}
    for seat in seats:
        held = tuple(Held(c) for c in (cards or {}).get(seat, ()))
        state = set_club(state, seat, players=held, res=res, points=0)
    for seat in seats:
        state = engine.apply(prof, state, lineup(seat, lineups[seat], (stands or {}).get(seat, 0))).state
    for seat in seats:
        step = engine.apply(prof, state, {"type": "kickoff", "seat": seat})
        results[seat] = next(a for a in step.announcements if a["kind"] == "result")
        state = step.state
    return prof, state, results


def score(result: dict[str, Any]) -> tuple[int, int]:
    return result["goals"], result["conceded"]


# --- Zones (l.673–684) ---------------------------------------------------------------------------------------------


def test_the_left_defenders_face_the_opponents_right_forwards_and_the_right_defenders_their_left() -> None:
    """l.673: "The left Defenders will be compared to right Forwards, middle Defenders to middle Forwards etc." """
    # their right Forward meets our left Defender (2): Strength 1 against 1, blocked; 0–0
    _, _, r = play((OPP_RIGHT_WING.id,), {1: SHIFTED})
    assert score(r[1]) == (0, 0) and r[1]["result"] == "draw"
    # their left Forward meets our right wing, left empty: "your defence Strength is 0, so their attacker will score"
    _, _, r = play((OPP_LEFT_WING.id,), {1: SHIFTED})
    assert score(r[1]) == (0, 1) and r[1]["result"] == "loss"
    # the Midfielders face the same way: our right Midfielder (9) meets their left midfield, empty on this card
    _, _, r = play((OPP_MID_RIGHT.id,), {1: BASIC})
    assert score(r[1]) == (1, 0)


def test_example_1_an_equal_defender_blocks_the_strongest_attacker_and_the_other_attacker_scores() -> None:
    """l.691–693: "Yours attack Strength is 3 and the Opponent defence Strength is 3, so your attacker will be
    blocked and your other attacker is not blocked and scores a goal. Opponents attack Strength is 1 and your
    defence Strength is 0, so their attacker will score without being blocked." """
    with_ten = [{"zone": "fwd_centre", "jersey": 10, "card": TEN3.id} if p["jersey"] == 10 else p for p in SHIFTED]
    prof, state, r = play((OPP_EXAMPLE_1.id,), {1: with_ten}, cards={1: (TEN3.id,)}, res=(0, 0, 0, 1))
    fwd = next(z for z in r[1]["zones"] if z["zone"] == "fwd_centre")
    assert (fwd["scored"], fwd["conceded"]) == (1, 0)
    assert score(r[1]) == (1, 1) and r[1]["result"] == "draw"
    # "for drawing - by 1 space": the club and Steelchester both move 1
    assert club(state, 1).points == 1 and state.team("steelchester").points == 1
    # a card that plays costs 1 Fitness (l.617): the one Fitness given is spent
    assert club(state, 1).res[3] == 0


def test_example_2_a_stronger_attacker_scores_and_an_equal_one_is_blocked() -> None:
    """l.705–707: "Yours attack Strength is 2 and the Opponent defence Strength is 1, so your attacker will score.
    Opponents attack Strength is 1, so he will be blocked by your defence (Strength 1)." """
    mids = [{"zone": "mid_centre", "jersey": 7, "card": SEVEN2.id} if p["jersey"] == 7 else p for p in BASIC]
    mids = [plain("mid_centre", 8, "defence") if p["jersey"] == 8 else p for p in mids]
    mids = [plain("mid_left", 6, "attack") if p["jersey"] == 6 else p for p in mids]  # five plain defenders, five attackers
    prof, state, r = play((OPP_EXAMPLE_2.id,), {1: mids}, cards={1: (SEVEN2.id,)}, res=(0, 0, 0, 1))
    mid = next(z for z in r[1]["zones"] if z["zone"] == "mid_centre")
    assert (mid["scored"], mid["conceded"]) == (1, 0)
    # our left Midfielder (6, attack) meets their right midfield, empty on this card: a second goal
    assert score(r[1]) == (2, 0) and r[1]["result"] == "win"
    assert club(state, 1).points == 3 and state.team("harbour").points == 0


def test_more_defenders_than_attackers_nothing_happens_and_unblocked_attackers_all_score() -> None:
    """l.675: "If there are more attackers than defenders, the remaining attackers are not blocked by anybody, so
    they score. If there are more defenders than attackers, nothing happens." """
    _, _, r = play((OPP_CROWD.id,), {1: BASIC})
    assert score(r[1]) == (0, 0)
    _, _, r = play((OPP_EMPTY.id,), {1: BASIC})
    assert score(r[1]) == (5, 0)  # BASIC's five attackers, nobody to block them; their card has nobody to score
    # their side scores the same way: fwd_centre A2 A2 against our central Defenders 1 1 (both stronger: 2 goals),
    # mid_centre A2 against our two central Midfielders, both attackers (nobody defends: 1 goal), fwd_left A1 against
    # our right Defender of Strength 1 (blocked)
    _, _, r = play((OPP_STRONG.id,), {1: BASIC})
    assert score(r[1]) == (0, 3)


# --- Result of the match (l.711–722) -------------------------------------------------------------------------------


def test_two_clubs_against_one_team_move_it_for_each_match_and_flip_it_inactive() -> None:
    """l.714: "Move the Team markers of both teams on the League table ... If 2 or more players have played against
    the same opponent in that round, flip its marker to the inactive (black) side." Club 1 draws against Downtown
    (1 space each), club 2 loses to Downtown (Downtown 3 more): Downtown moves 4."""
    prof, state, r = play((OPP_RIGHT_WING.id, OPP_LEFT_WING.id), {1: SHIFTED, 2: SHIFTED})
    assert (r[1]["result"], r[2]["result"]) == ("draw", "loss")
    assert state.team("downtown").points == 4
    assert (club(state, 1).points, club(state, 2).points) == (1, 0)
    state = consequences(prof, state, {1: 3, 2: 5})
    assert state.team("downtown").inactive
    assert "downtown" not in {a.get("team") for a in state.awaiting}


def consequences(prof: Any, state: State, faces: dict[int, int]) -> State:
    """Each club rolls its Match consequence (kept when the club could reroll)."""
    for seat, face in faces.items():
        state = engine.apply(prof, state, {"type": "roll", "seat": seat, "value": face}).state
        while any(a.get("seat") == seat and a["need"] == "keep_or_reroll" for a in state.awaiting):
            state = engine.apply(prof, state, {"type": "keep", "seat": seat}).state
    return state


def test_the_stands_fanbase_pays_one_euro_each_after_the_match() -> None:
    """l.633: "You may place up to 1 Fanbase on each of the Stands"; l.715: "Discard the Fanbase markers from the
    Stands and gain 1 € for each discarded". The demo board prints 2 Stands."""
    prof = profile()
    prof, state = matchday(seats=(1,), opponents=(OPP_CROWD.id,), profile=prof)
    state = set_club(state, 1, players=(), res=(4, 3, 0, 0))
    refused(prof, state, lineup(1, BASIC, 3), E.NotAllowed)
    state = run(prof, [lineup(1, BASIC, 2), {"type": "kickoff", "seat": 1}], state)
    assert club(state, 1).res[:2] == (4 + 2, 3 - 2)


def test_the_match_consequence_follows_the_result_row_of_the_table() -> None:
    """l.716–718: "Roll a 6 sided die and resolve the corresponding result, depending on the Match result ...
    RESOURCE GAIN/LOSS - Move the Stat marker on the indicated Resource track." The demo table: a win's 6 is
    Budget +1, a draw's 6 Fanbase +1, a loss's 3 Fanbase -1."""
    prof, state, r = play((OPP_EMPTY.id, OPP_CROWD.id, OPP_LEFT_WING.id), {1: BASIC, 2: BASIC, 3: SHIFTED})
    assert [r[s]["result"] for s in (1, 2, 3)] == ["win", "draw", "loss"]
    stats = {c.seat: c.stats for c in state.clubs}  # budget, fanbase, operation, fitness levels
    after = consequences(prof, state, {1: 6, 2: 6, 3: 3})
    assert club(after, 1).stats[0] == stats[1][0] + 1
    assert club(after, 2).stats[1] == stats[2][1] + 1
    assert club(after, 3).stats[1] == stats[3][1] - 1


def test_teams_nobody_played_roll_their_die_by_the_board_table() -> None:
    """l.722: "Roll a corresponding die for each Opponent team that nobody has played against and move their Team
    markers on the League table." Demo dice: red 3 3 3 1 1 0, blue 3 3 1 1 0 0, green 3 1 1 0 0 0; Harbour and
    Northfield roll red, Kingsbridge blue, Riverside green."""
    prof, state, r = play((OPP_CROWD.id,), {1: BASIC})  # Northfield is played: it rolls nothing
    state = consequences(prof, state, {1: 4})
    rolled = {a["team"] for a in state.awaiting if a.get("purpose") == "opponent_die"}
    assert "northfield" not in rolled and {"harbour", "kingsbridge", "riverside"} <= rolled
    assert state.team("northfield").points == 1  # the draw
    before = {t.id: t.points for t in state.teams}
    for team, face, moves in (("harbour", 4, 1), ("kingsbridge", 3, 1), ("riverside", 1, 3)):
        state = engine.apply(prof, state, {"type": "roll", "seat": None, "team": team, "value": face}).state
        assert state.team(team).points == before[team] + moves
    state = engine.apply(prof, state, {"type": "roll", "seat": None, "team": "oldcastle", "value": 6}).state
    assert state.team("oldcastle").points == before["oldcastle"]  # green 6: a loss, no move


def test_a_printed_demo_opponent_card_plays_as_worked_out_by_hand() -> None:
    """Downtown United's first card (opp_downtown_1, as printed in engine/data/demo/opponents.toml): def_left D2,
    def_centre D2, def_right A1, mid_left A2, mid_centre D2 D2, fwd_centre A2, fwd_right A1, against BASIC (our
    Defenders 2 | 3 4 | 5, Midfielders 6 (defence) | 7 8 | 9, Forwards 10 11, all Strength 1):
    our left Defender against their right Forward A1: blocked; our central Defenders against their A2: 2 > 1, a
    goal for them; our right Midfielder A1 against their left midfield A2 and nobody else: we score 1 (no defender
    there) and they score 1 (nobody of ours defends); our left Forwards' zone, empty, against their right defence
    zone's attacker A1: a goal for them; our central Forwards A1 A1 against their central Defender D2: one blocked,
    the other unpaired scores. 2–3, a loss: Downtown moves 3."""
    prof, state, r = play(("opp_downtown_1",), {1: BASIC})
    assert score(r[1]) == (2, 3) and r[1]["result"] == "loss"
    assert club(state, 1).points == 0 and state.team("downtown").points == 3
    by_zone = {z["zone"]: (z["scored"], z["conceded"]) for z in r[1]["zones"]}
    assert by_zone == {"def_left": (0, 0), "def_centre": (0, 1), "def_right": (0, 0), "mid_left": (0, 0), "mid_centre": (0, 0),
                       "mid_right": (1, 1), "fwd_left": (0, 1), "fwd_centre": (1, 0), "fwd_right": (0, 0)}


def test_a_youngsters_experience_spaces_fill_for_playing_and_for_scoring() -> None:
    """l.464: "If the player has an empty experience place and played a match, place a VP on it. If he has an empty
    experience place and scored, place a VP on it." Milo Adler (yg_02, trained: #7, attack, Midfielder, Strength 2,
    spaces "played" and "scored") in our central midfield: against nobody he scores (2 VP tokens); against two
    central Defenders of Strength 2 he is blocked (1 VP token, for playing)."""
    milo = [{"zone": "mid_centre", "jersey": 7, "card": "yg_02"} if p["jersey"] == 7 else p for p in BASIC]
    young = Held("yg_02", trained=True)
    prof = profile()
    for opp, vp in ((OPP_EMPTY.id, 2), (OPP_MID_WALL.id, 1)):
        prof, state = matchday(seats=(1,), opponents=(opp,), profile=prof)
        state = set_club(state, 1, players=(young,), res=(0, 0, 0, 1))
        state = run(prof, [lineup(1, milo), {"type": "kickoff", "seat": 1}], state)
        assert club(state, 1).held("yg_02").vp == vp, opp


def test_the_stands_take_fanbase_the_club_has() -> None:
    """l.633: the Fanbase placed on the Stands is the club's own: with 1 Fanbase, 2 on the Stands is refused."""
    prof, state = matchday(seats=(1,), opponents=(OPP_CROWD.id,), profile=profile())
    state = set_club(state, 1, players=(), res=(0, 1, 0, 0))
    refused(prof, state, lineup(1, BASIC, 2), E.NotEnoughResources)


def test_each_additional_stands_token_takes_one_more_fanbase() -> None:
    """l.633: "You may place up to 1 Fanbase on each of the Stands (printed on the board and on the Stadium
    Infrastructure token)". The board's 2 Stands and two Additional stands tokens: 4 Fanbase, paid back as 4 €; 5
    are refused."""
    prof, state = matchday(seats=(1,), opponents=(OPP_CROWD.id,), profile=profile())
    state = set_club(state, 1, players=(), res=(0, 5, 0, 0), infrastructure=("stands", "stands"))
    refused(prof, state, lineup(1, BASIC, 5), E.NotAllowed)
    state = run(prof, [lineup(1, BASIC, 4), {"type": "kickoff", "seat": 1}], state)
    assert club(state, 1).res[:2] == (4, 1)


def test_a_consequence_past_the_ends_of_a_stat_track_gains_or_loses_the_resource() -> None:
    """l.225: "Whenever you must move a Stat marker over the value 6, gain the indicated Resource marker. Whenever you
    must move it below value 1, lose the indicated Resource marker (If you don't have any, lose 1 € instead. If you
    don't have € either, nothing happens)." A win's 6 (Budget +1) at Budget level 6 gains 1 €; a loss's 3 (Fanbase
    -1) at Fanbase level 1 loses 1 Fanbase, or 1 € when there is none, or nothing."""
    prof, state, r = play((OPP_EMPTY.id, OPP_LEFT_WING.id, OPP_LEFT_WING.id, OPP_LEFT_WING.id), {1: BASIC, 2: SHIFTED, 3: SHIFTED, 4: SHIFTED})
    assert [r[s]["result"] for s in (1, 2, 3, 4)] == ["win", "loss", "loss", "loss"]
    state = set_club(state, 1, stats=(6, 2, 2, 2), res=(0, 0, 0, 0))
    for seat, res in ((2, (3, 2, 0, 0)), (3, (3, 0, 0, 0)), (4, (0, 0, 0, 0))):
        state = set_club(state, seat, stats=(2, 1, 2, 2), res=res)
    after = consequences(prof, state, {1: 6, 2: 3, 3: 3, 4: 3})
    assert club(after, 1).stats[0] == 6 and club(after, 1).res == (1, 0, 0, 0)
    assert club(after, 2).stats[1] == 1 and club(after, 2).res == (3, 1, 0, 0)
    assert club(after, 3).res == (2, 0, 0, 0)
    assert club(after, 4).res == (0, 0, 0, 0)


def test_of_two_equal_attackers_the_plain_jersey_marker_is_blocked_and_the_card_scores() -> None:
    """l.675: "In each of the zones, combine pairs of Players ... If there are more attackers than defenders, the
    remaining attackers are not blocked by anybody, so they score." Which of two attackers of equal Strength the one
    defender blocks is the club's to combine; the engine pairs a jersey marker without a card first, so the card
    scores and gets what scoring brings it (engine/RULES.md, "Zone pairs"; from revision 3). The Youngster (Strength
    1, an experience space for scoring) and plain marker 8 in our central midfield against one D1: 1 goal either
    way; from revision 3 it is the Youngster's (1 VP token), before it went by lineup order (his card, placed first,
    was blocked)."""
    from engine.state import evolve

    kid = [{"zone": "mid_centre", "jersey": 7, "card": KID.id} if p["jersey"] == 7 else p for p in BASIC]
    for revision, vp in ((3, 1), (1, 0)):
        prof, state = matchday(seats=(1,), opponents=(OPP_ONE_MID.id,), profile=profile())
        state = evolve(state, game=evolve(state.game, revision=revision))
        state = set_club(state, 1, players=(Held(KID.id, trained=True),), res=(0, 0, 0, 1))
        step = engine.apply(prof, engine.apply(prof, state, lineup(1, kid)).state, {"type": "kickoff", "seat": 1})
        result = next(a for a in step.announcements if a["kind"] == "result")
        assert score(result) == (1, 0)
        assert club(step.state, 1).held(KID.id).vp == vp, revision
