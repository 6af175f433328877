"""The base rulebook's Final scoring (000 l.780–822) and Ties (l.793–795), case by case.

Expected VP are worked out by hand from the rule lines and the demo board's printed numbers
(engine/data/demo/board.toml): League 15 12 9 6 3 1 0 -1, 9th and below -3; Staff sets blue/green/red 1 2 3 5,
yellow 1 2 4, purple 1 3 5; Infrastructure: improvements 2 VP, Additional stands and adboard 1 VP; Office spaces
2 3 5 6 8 VP, added up; 3 € a VP; an Objective 2 VP, 2 more when perfect.
"""

from __future__ import annotations

from typing import Any

from engine.state import Held, State, evolve
from engine.views import final_scores

from tests.engine.helpers import club, demo, set_club, tuesday

STEWARDS = ("st_18", "st_19")  # red
DOCTORS = ("st_10", "st_11")  # green
FITNESS_TRAINER = ("st_13",)  # green
FIRST_TRAINER = ("st_01",)  # blue


def table(**per_seat: dict[str, Any]) -> tuple[Any, State]:
    """Three clubs with nothing to score but what each test gives them; the Opponent teams on 0 League points."""
    profile, state = tuesday(seats=(1, 2, 3))
    for c in state.clubs:
        state = set_club(state, c.seat, points=0, players=(), staff=(), infrastructure=(), vp_tokens=0, office=0,
                         res=(0, 0, 0, 0), objective_result="missed")
    for seat, changes in per_seat.items():
        state = set_club(state, int(seat[1:]), **changes)
    return profile, evolve(state, teams=tuple(evolve(t, points=0) for t in state.teams))


def rows(profile: Any, state: State) -> dict[int, dict[str, Any]]:
    return {r["seat"]: r for r in final_scores(profile, state)}


def test_the_rulebooks_scoring_example_adds_up_to_35() -> None:
    """l.808–822: "Your team has finished at 3rd place, so you gain 9 VP. During the game you have gained 4 VP
    tokens. You have 2 Stewards (2 VP for a set), 2 Doctors and 1 Fitness trainer (3VP for a set), and First trainer
    (1VP for a set), 6 VP combined. You have built two Stands, so you gain 2 VP. You have perfectly fulfilled the
    objective from the Objective card, so you gain 4 VP. You are on 3rd space on the Office track, so you gain 10 VP.
    Total = 35 VP" """
    staff = tuple(Held(s) for s in STEWARDS + DOCTORS + FITNESS_TRAINER + FIRST_TRAINER)
    profile, state = table(s1={"points": 3, "vp_tokens": 4, "staff": staff, "infrastructure": ("stands", "stands"),
                               "objective_result": "perfect", "office": 3},
                           s2={"points": 9}, s3={"points": 6})
    r = rows(profile, state)[1]
    assert r["position"] == 3
    assert (r["league"], r["vp_tokens"], r["staff_sets"], r["infrastructure"], r["objective"], r["office"]) == (9, 4, 6, 2, 4, 10)
    assert r["total"] == 35


def test_every_league_position_scores_its_printed_vp_and_ninth_and_below_minus_three() -> None:
    """l.797–806: 1 15, 2 12, 3 9, 4 6, 5 3, 6 1, 7 0, 8 -1, 9+ -3. The three clubs are placed among the eight
    Opponent teams by their League points."""
    profile, state = table(s1={"points": 20}, s2={"points": 2}, s3={"points": 0})
    # the teams on 10 9 8 7 6 5 4 3: seat 1 1st, seat 2 10th, seat 3 11th
    state = evolve(state, teams=tuple(evolve(t, points=10 - i) for i, t in enumerate(state.teams)))
    r = rows(profile, state)
    assert [(r[s]["position"], r[s]["league"]) for s in (1, 2, 3)] == [(1, 15), (10, -3), (11, -3)]
    # seat 2 level with a team shares its position: on 10 it is 2nd with the first team (seat 1 is above both)
    for points, position, vp in ((10, 2, 12), (9, 3, 9), (8, 4, 6), (7, 5, 3), (6, 6, 1), (5, 7, 0), (4, 8, -1), (3, 9, -3)):
        assert (rows(profile, set_club(state, 2, points=points))[2]["position"],
                rows(profile, set_club(state, 2, points=points))[2]["league"]) == (position, vp)


def test_equal_league_points_share_a_position_and_the_next_club_is_placed_after_them_all() -> None:
    """l.784: "If two or more teams are in the same position, both score the indicated VP." Two clubs level at the
    top both score 15; the club behind them is 3rd (9 VP), not 2nd (engine/RULES.md, "Final ties")."""
    profile, state = table(s1={"points": 9}, s2={"points": 9}, s3={"points": 6})
    r = rows(profile, state)
    assert [(r[s]["position"], r[s]["league"]) for s in (1, 2, 3)] == [(1, 15), (1, 15), (3, 9)]


def test_vp_tokens_and_cards_with_tokens_count_one_each() -> None:
    """l.785: "each Player card with VP tokens on it is worth only 1 VP regardless of the actual number of tokens".
    5 loose tokens, a card with 3 tokens, a card with 1, a card with none: 5 + 1 + 1."""
    players = (Held("pl_01", vp=3), Held("pl_02", vp=1), Held("pl_03"))
    profile, state = table(s1={"vp_tokens": 5, "players": players})
    assert rows(profile, state)[1]["vp_tokens"] == 7


def test_staff_sets_score_by_their_colours_track_and_no_more_past_its_end() -> None:
    """l.786 "Sets of Staff cards": 3 Scouts and Analysts (yellow: 4), 2 purple (3), 5 blue (a track of four
    values: 5, no more for the fifth card)."""
    staff = tuple(Held(s) for s in ("st_25", "st_26", "st_28", "st_32", "st_34", "st_01", "st_02", "st_03", "st_05", "st_08"))
    profile, state = table(s1={"staff": staff})
    assert rows(profile, state)[1]["staff_sets"] == 4 + 3 + 5


def test_built_infrastructure_scores_each_tokens_vp() -> None:
    """l.787 "Built Stadium Infrastructure": Stadium lighting 2, Training ground 2, Additional adboard 1."""
    profile, state = table(s1={"infrastructure": ("lighting", "training_ground", "adboard")})
    assert rows(profile, state)[1]["infrastructure"] == 5


def test_the_office_track_adds_every_space_reached() -> None:
    """l.789 and the example (3rd space = 10 VP): spaces worth 2, 3, 5, 6, 8 add up: 2, 5, 10, 16, 24."""
    profile, state = table()
    for space, vp in ((0, 0), (1, 2), (2, 5), (3, 10), (4, 16), (5, 24)):
        assert rows(profile, set_club(state, 1, office=space))[1]["office"] == vp


def test_each_set_of_three_euros_is_one_vp() -> None:
    """l.319: "At the end of the game, each set of 3 € is worth 1 VP." 2 € is none, 3 € one, 11 € three."""
    profile, state = table()
    for budget, vp in ((2, 0), (3, 1), (11, 3)):
        assert rows(profile, set_club(state, 1, res=(budget, 0, 0, 0)))[1]["budget"] == vp


def test_a_tie_goes_to_the_club_higher_in_the_league_and_is_shared_when_level_there_too() -> None:
    """l.793–795: "In case of a tie, the winner is the player who is higher in the League Table. If there is still a
    tie - those players share the victory." Seat 1: 2nd (12) + 6 tokens = 18; seat 2: 1st (15) + 3 tokens = 18;
    seat 3: 3rd (9)."""
    profile, state = table(s1={"points": 6, "vp_tokens": 6}, s2={"points": 9, "vp_tokens": 3}, s3={"points": 3})
    r = rows(profile, state)
    assert (r[1]["total"], r[2]["total"]) == (18, 18)
    assert r[2]["winner"] and not r[1]["winner"] and not r[3]["winner"]
    # level in the League too: seat 1 1st (15) + 3 tokens = 18, seat 2 the same: both win
    state = set_club(set_club(state, 1, points=9, vp_tokens=3), 2, points=9, vp_tokens=3)
    r = rows(profile, state)
    assert r[1]["total"] == r[2]["total"] == 18 and r[1]["winner"] and r[2]["winner"] and not r[3]["winner"]
    assert club(state, 3).points == 3


def test_vp_tokens_a_staff_card_puts_on_itself_count_each_at_the_final_scoring() -> None:
    """l.785 counts a Player card with VP tokens as 1 VP; tokens a card that is no Player card puts "on this card"
    (an owner's Staff card: "Action: 1 €: put 2 VP tokens on this card") are the club's VP tokens and each counts
    (engine/RULES.md, "VP tokens on a card that is no footballer"). From revision 3; revision 1–2 games replay as
    they were played (the tokens lay on the Staff card and scored nothing)."""
    import engine
    from engine.cards import Ability, Effect, Staff
    from tests.engine.helpers import with_cards

    notary = Staff(id="st_r_notary", kind="staff", name="Test Notary", cost=0, profession="Notary", set="purple",
                   abilities=(Ability(timing="action", cost=(("budget", 1),), effects=(Effect.of("vp", amount=2, to="this_card"),)),))
    for revision, vp in ((3, 2), (1, 0)):
        profile, state = tuesday(seats=(1,), profile=with_cards(demo(), notary))
        state = evolve(state, game=evolve(state.game, revision=revision))
        state = set_club(state, 1, staff=(Held(notary.id),), players=(), vp_tokens=0, res=(1, 0, 0, 0))
        state = engine.apply(profile, state, {"type": "use_card", "seat": 1, "card": notary.id}).state
        assert club(state, 1).res[0] == 0
        assert rows(profile, state)[1]["vp_tokens"] == vp, revision


def test_suspended_staff_still_belong_to_their_set() -> None:
    """l.858: "At the end of the game Staff cards with Suspension tokens belong to sets as usual." Two Stewards,
    one with 2 Suspension tokens (unpaid Maintenance): red set of 2, 2 VP."""
    profile, state = table(s1={"staff": (Held("st_18", suspension=2), Held("st_19"))})
    assert rows(profile, state)[1]["staff_sets"] == 2
