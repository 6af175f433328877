"""Unique Setup cards against the leaflet (../shared/rules/003_aec5c853de079e9f.txt, "l." below), worked by hand from
the demo's printed numbers (engine/data/demo/unique_setup.toml and board.toml).

l.191: "Before the game, each player draws 2 random Unique Setup cards and places them so that they cover the
corresponding parts of their boards ... One card must be played with its positive (green) side faceup and the other
with its negative (red) side faceup. During the game, you must apply the effects of these cards."

The demo board: two printed Stands of 1 Fanbase each; Players' Maintenance 0,0,0,0,1,... € by the number of Player
cards; a win's Match consequence 1 injures for one week; Office track 3/5/7/9/11 €; Stat tracks end at 6.
"""

from __future__ import annotations

from typing import Any

import engine
from engine import errors as E
from engine.legal import auto_lineup, setup_events
from engine.state import Held, State

from tests.engine.helpers import at_stage, club, demo, refused, run, set_club


def _game(cards: dict[int, tuple[str, str]], modules: tuple[str, ...] = ("unique_setup",)) -> State:
    """A game past its setup, each seat playing its (green, red) Unique Setup cards."""
    profile = demo()
    events = setup_events(profile, sorted(cards), game={"type": "game", "modules": list(modules)})
    return run(profile, [*events, *({"type": "unique_setup", "seat": s, "green": g, "red": r} for s, (g, r) in cards.items())])


def _matchday(cards: dict[int, tuple[str, str]], **changes: Any) -> State:
    state = at_stage(demo(), _game(cards), "matchday")
    return set_club(state, 1, **changes)


def _kicked_off(state: State, stands: int = 0) -> State:
    profile = demo()
    return run(profile, [{**auto_lineup(profile, club(state, 1)), "stands": stands}, {"type": "kickoff", "seat": 1}], state)


def _consequence(state: State, face: int) -> State:
    """Roll the Match consequence (the footballers' own rolls after the match kept at 6 first)."""
    while state.awaiting and state.awaiting[0].get("purpose") != "match_consequence":
        state = _kept(run(demo(), [{"type": "roll", "seat": 1, "value": 6}], state))
    state = run(demo(), [{"type": "roll", "seat": 1, "value": face}], state)
    return _kept(state)


def _kept(state: State) -> State:
    while state.awaiting and state.awaiting[0].get("need") == "keep_or_reroll":
        state = run(demo(), [{"type": "keep", "seat": 1}], state)
    return state


# --- placing the cards (l.191) --------------------------------------------------------------------------------------


def test_four_clubs_share_out_all_eight_cards_and_none_can_take_a_card_already_placed() -> None:
    """Eight cards, two per club: the fourth club places the last two; a card lies on one club's boards only."""
    profile = demo()
    state = run(profile, setup_events(profile, [1, 2, 3, 4], game={"type": "game", "modules": ["unique_setup"]}))
    state = run(profile, [{"type": "unique_setup", "seat": s, "green": f"us_{2 * s - 1}", "red": f"us_{2 * s}"} for s in (1, 2, 3)], state)
    refused(profile, state, {"type": "unique_setup", "seat": 4, "green": "us_7", "red": "us_1"}, E.NotAllowed,
            "lies on Seat 1's boards already")
    refused(profile, state, {"type": "unique_setup", "seat": 4, "green": "us_7", "red": "us_7"}, E.NotAllowed)
    assert state.stage == "setup"
    state = run(profile, [{"type": "unique_setup", "seat": 4, "green": "us_8", "red": "us_7"}], state)
    assert state.stage == "monday"
    refused(profile, state, {"type": "unique_setup", "seat": 4, "green": "us_8", "red": "us_7"}, E.WrongStage)


# --- Stands #2 (l.195) ------------------------------------------------------------------------------------------------


def test_stands_two_closed_takes_one_fanbase_in_all_and_pays_one_euro() -> None:
    """l.195 "the number of [Fanbase] that you may assign to your Stands #2", red side of us_1: Stands #2 takes none,
    so the club's Stands take 1 Fanbase; 000 l.715 "Discard the [Fanbase] markers from the Stands and gain 1 € for
    each discarded": 3 Fanbase, 1 on the Stands -> 2 Fanbase and 1 € after the match."""
    state = _matchday({1: ("us_2", "us_1")}, res=(0, 3, 0, 9))
    refused(demo(), state, {**auto_lineup(demo(), club(state, 1)), "stands": 2}, E.NotAllowed,
            E.STANDS_LIMIT.format(seat=1, stands=1, count=2))
    after = _kicked_off(state, stands=1)
    assert club(after, 1).res[:2] == (1, 2)


def test_stands_two_widened_takes_two_and_the_additional_stands_one_more() -> None:
    """Green side of us_1: 1 + 2 = 3 Fanbase; the Additional stands token (its own 1 Fanbase) makes 4: four € after
    the match and the four Fanbase gone (5 - 4 = 1)."""
    state = _matchday({1: ("us_1", "us_2")}, res=(0, 5, 0, 9), infrastructure=("stands",))
    refused(demo(), state, {**auto_lineup(demo(), club(state, 1)), "stands": 5}, E.NotAllowed,
            E.STANDS_LIMIT.format(seat=1, stands=4, count=5))
    after = _kicked_off(state, stands=4)
    assert club(after, 1).res[:2] == (4, 1)


# --- Maintenance (l.199) ----------------------------------------------------------------------------------------------


def _maintenance(cards: tuple[str, str], players: int, budget: int) -> tuple[State, list[dict[str, Any]]]:
    """Play to the End of the round with ``players`` Player cards and ``budget`` €: the state once it asks for
    Suspension tokens or has gone on, and the announcements on the way."""
    profile = demo()
    state = at_stage(profile, _game({1: cards}), "tuesday")
    held = tuple(Held(p.id) for p in profile.cards_of("player")[:players])
    state = set_club(state, 1, players=held, staff=club(state, 1).staff[:1])
    state = set_club(at_stage(profile, state, "results"), 1, res=(budget, 0, 0, 0))
    said: list[dict[str, Any]] = []
    while state.stage in ("results", "end_of_round") and not any(n.get("need") == "suspensions" for n in state.awaiting):
        options = engine.legal_events(profile, state)
        step = engine.apply(profile, state, next((e for e in options if e["type"] in ("pass", "keep")), options[0]))
        state, said = step.state, said + list(step.announcements)
    return state, said


def test_high_wages_cost_one_euro_for_three_players_and_a_club_without_it_is_suspended() -> None:
    """l.199, red side of us_2: the Players track reads 0, 0, 0, 1 €: three Player cards cost 1 € (the demo's: 0).
    000 l.773: with 0 € the club places 2 Suspension tokens for the missing euro."""
    state, _ = _maintenance(("us_1", "us_2"), players=3, budget=0)
    assert state.awaiting[0] == {"seat": 1, "need": "suspensions", "count": 1}


def test_low_wages_cost_nothing_for_five_players() -> None:
    """Green side of us_2: 0, 0, 0, 0, 0, 0, 1 €: five Player cards cost nothing (the demo's asks 1 € from four on)."""
    state, said = _maintenance(("us_2", "us_1"), players=5, budget=0)
    assert not any(n.get("need") == "suspensions" for n in state.awaiting)
    assert [a["due"] for a in said if a["kind"] == "maintenance"] == [0]


# --- the Match consequences (l.203) -----------------------------------------------------------------------------------


def test_no_doctor_makes_a_win_on_a_one_injure_for_two_weeks() -> None:
    """l.203, red side of us_3: a win's first row injures for two weeks (the demo's for one); the d10's 8th face
    names number 9."""
    strong = "pl_23"  # Ivan Petrov, #9, attacking Forward
    state = _matchday({1: ("us_4", "us_3")}, goals=9, res=(0, 0, 0, 9), players=(Held(strong, trained=True),))
    state = _kicked_off(state)
    assert club(state, 1).result == "win"
    assert any(p.card == strong for p in club(state, 1).lineup or ())
    state = _consequence(state, 1)
    assert state.awaiting[0]["purpose"] == "injury"
    state = _kept(run(demo(), [{"type": "roll", "seat": 1, "value": 8}], state))
    assert club(state, 1).held(strong).injury == 2


# --- Stat levels past the top or below 1 (l.211) -----------------------------------------------------------------------


def test_an_ambitious_owner_gains_fanbase_and_a_euro_for_a_step_past_the_top() -> None:
    """l.211, green side of us_5 ("gain its resource and 1 €"): a win's 5th row moves Fanbase up 1 from 6, the top:
    the marker stays, the club gains 1 Fanbase and 1 €. Red side of us_5: nothing."""
    for cards, gained in ((("us_5", "us_1"), (1, 1)), (("us_1", "us_5"), (0, 0))):
        state = _kicked_off(_matchday({1: cards}, goals=9, stats=(2, 6, 2, 2), res=(0, 0, 0, 9)))
        before = club(state, 1).res[:2]
        state = _consequence(state, 5)
        assert club(state, 1).stats[1] == 6
        assert (club(state, 1).res[0] - before[0], club(state, 1).res[1] - before[1]) == gained


def test_an_impatient_board_takes_two_of_the_resource_or_a_euro_each_below_one() -> None:
    """Red side of us_6 ("lose 2 of its resource, 1 € for each one missing"): a loss's 3rd row moves Fanbase down 1
    from 1: with 1 Fanbase and 3 €, the club loses that Fanbase and 1 €. With nothing, it loses nothing."""
    for res, after in (((3, 1, 0, 9), (2, 0)), ((0, 0, 0, 9), (0, 0))):
        state = _kicked_off(_matchday({1: ("us_1", "us_6")}, conceded=9, stats=(2, 1, 2, 2), res=res))
        assert club(state, 1).result == "loss"
        state = _consequence(state, 3)
        assert club(state, 1).stats[1] == 1 and club(state, 1).res[:2] == after


# --- the Match result (l.215) -----------------------------------------------------------------------------------------


def test_demanding_fans_green_side_gives_nothing_after_a_loss() -> None:
    """l.215 "additional effects depending on your Match result", us_7: the green side names a win only (+1
    Fanbase), so after a loss the club keeps its 2 Fanbase."""
    state = _kicked_off(_matchday({1: ("us_7", "us_1")}, conceded=9, res=(0, 2, 0, 9)))
    assert club(state, 1).result == "loss" and club(state, 1).res[1] == 2


def test_demanding_fans_fanbase_comes_before_the_match_consequence_roll() -> None:
    """The green side's Fanbase after a win is there while the Match consequence roll is awaited."""
    state = _kicked_off(_matchday({1: ("us_7", "us_1")}, goals=9, res=(0, 0, 0, 9)))
    assert club(state, 1).result == "win" and club(state, 1).res[1] == 1
    assert not club(state, 1).consequence_done


# --- the Office track (l.219) -----------------------------------------------------------------------------------------


def test_a_divided_boardroom_asks_four_euros_for_the_first_office_space() -> None:
    """l.219, red side of us_8: 4 € for the first space (2 VP). With exactly 4 € the club moves up and has 0 €."""
    state = at_stage(demo(), _game({1: ("us_1", "us_8")}), "tuesday")
    state = set_club(state, 1, res=(4, 0, 0, 0))
    state = run(demo(), [{"type": "office", "seat": 1}], state)
    assert club(state, 1).office == 1 and club(state, 1).res[0] == 0
