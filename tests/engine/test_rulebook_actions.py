"""The base rulebook's Tuesday–Thursday turns (000 l.393–599), case by case: one action and one free action a day,
clockwise from the First player; card actions once per round; the free action; the Scout and Toncini examples; the
Office track; the Club potential.

Prices are the demo deck's printed numbers (engine/data/demo): Scout Jansen (st_25) costs 3 € and his action 1
Fanbase ("hire any Player from the display"); Ray Dunmore (pl_01) 1 €, Jonas Brekke (pl_02) 2 €, Matteo Galli
(pl_03) 3 €; the Office track 3, 5, 7, 9, 11 €; the free action 2 Operation.
"""

from __future__ import annotations

from typing import Any

import engine
from engine import errors as E
from engine.state import Held, State

from tests.engine.helpers import club, refused, run, set_club, tuesday
from tests.engine.test_match_and_round import matchday
from tests.engine.test_rulebook_match import OPP_LEFT_WING, SHIFTED, profile as match_profile


def days(seats: tuple[int, ...] = (1, 2), first: int = 1) -> tuple[Any, State]:
    profile, state = tuesday(seats=seats, first=first)
    for seat in seats:
        state = set_club(state, seat, res=(0, 0, 0, 0), staff=(), players=(), stats=(2, 2, 2, 2))
    return profile, state


def test_one_action_a_day_clockwise_from_the_first_player_and_the_same_action_again_the_next_day() -> None:
    """l.397: "players will perform actions, beginning from the First player and proceeding clockwise. Each player
    may perform exactly 1 action plus 1 free action"; l.411: "Each of these actions can be performed multiple times
    per round (regarding the limit of 1 action per stage)". First player Seat 2 of three: 2, 3, then 1."""
    profile, state = days(seats=(1, 2, 3), first=2)
    state = set_club(state, 2, res=(6, 0, 0, 0))
    assert state.turn == 2
    refused(profile, state, {"type": "hire_player", "seat": 1, "card": "pl_01"}, E.NotYourTurn, "it is Seat 2's turn")
    state = engine.apply(profile, state, {"type": "hire_player", "seat": 2, "card": "pl_01"}).state  # 1 €
    assert club(state, 2).res[0] == 5 and state.turn == 3  # no card action to take as a free action: the turn passes
    state = run(profile, [{"type": "pass", "seat": 3}, {"type": "pass", "seat": 1}], state)
    assert state.stage == "wednesday" and state.turn == 2
    state = engine.apply(profile, state, {"type": "hire_player", "seat": 2, "card": "pl_02"}).state  # 2 €
    assert club(state, 2).res[0] == 3
    assert {h.id for h in club(state, 2).players} == {"pl_01", "pl_02"}


def test_a_second_action_the_same_day_is_refused_and_only_a_card_action_is_left_as_the_free_action() -> None:
    """l.593–595: "During each day ... you may perform only 1 action. You may spend 2 Operation to perform 1 additional
    free action. Return 2 Operation to the Supply and choose any of your cards or tokens. Pay it's regular cost and
    exhaust that card or token." """
    profile, state = days()
    state = set_club(state, 1, res=(10, 1, 2, 0))
    state = engine.apply(profile, state, {"type": "hire_staff", "seat": 1, "card": "st_25"}).state  # 3 €
    assert state.turn == 1  # Scout Jansen's action is left for the free action
    text = refused(profile, state, {"type": "hire_player", "seat": 1, "card": "pl_01"}, E.NotAllowed)
    assert text == E.ALREADY_ACTED.format(seat=1, day="Tuesday")
    refused(profile, state, {"type": "office", "seat": 1}, E.NotAllowed, "already taken its action")


def test_the_scout_example_hire_a_scout_then_use_him_as_the_free_action() -> None:
    """l.597: "As your action, you have hired a Scout. As a free action, you may spend 2 Operation plus required
    Resources to perform their action and hire any player from a display." 10 € − 3 (Scout) − 3 (Galli) = 4 €;
    2 Operation and the Scout's 1 Fanbase spent."""
    profile, state = days()
    state = set_club(state, 1, res=(10, 1, 2, 0))
    state = engine.apply(profile, state, {"type": "hire_staff", "seat": 1, "card": "st_25"}).state
    state = engine.apply(profile, state, {"type": "use_card", "seat": 1, "card": "st_25", "targets": ["pl_03"]}).state
    c = club(state, 1)
    assert c.res[:3] == (4, 0, 0) and c.held("pl_03") is not None and c.held("st_25").exhausted
    assert state.turn == 2  # action and free action taken: Seat 2 plays


def test_the_free_action_needs_two_operation_besides_the_cards_cost() -> None:
    """l.595: "Return 2 Operation to the Supply ... Pay it's regular cost". With 2 Operation and no Fanbase the
    Scout's action (1 Fanbase) is refused; with 1 Operation no free action is possible and the turn passes at once."""
    profile, state = days()
    state = set_club(state, 1, res=(10, 0, 2, 0))
    state = engine.apply(profile, state, {"type": "hire_staff", "seat": 1, "card": "st_25"}).state
    assert state.turn == 1
    refused(profile, state, {"type": "use_card", "seat": 1, "card": "st_25", "targets": ["pl_03"]}, E.NotEnoughResources)
    profile, state = days()
    state = set_club(state, 1, res=(10, 1, 1, 0))
    state = engine.apply(profile, state, {"type": "hire_staff", "seat": 1, "card": "st_25"}).state
    assert state.turn == 2
    refused(profile, state, {"type": "use_card", "seat": 1, "card": "st_25", "targets": ["pl_03"]}, E.NotYourTurn)


def test_a_cards_action_is_used_once_per_round_and_again_the_next_round() -> None:
    """l.411: "... except for actions on cards, which can be performed only once per round each. You must exhaust
    every card that you have used"; l.771: "Unexhaust every exhausted cards and tokens" at the End of the round.
    The Scout used as Tuesday's action is still exhausted on Wednesday, even as a free action."""
    profile, state = days()
    state = set_club(state, 1, res=(10, 2, 4, 0), staff=(Held("st_25"),))
    state = engine.apply(profile, state, {"type": "use_card", "seat": 1, "card": "st_25", "targets": ["pl_01"]}).state
    assert club(state, 1).res[:2] == (9, 1)  # Ray Dunmore's 1 € and the Scout's 1 Fanbase
    assert state.turn == 2  # no other card action ready: the turn passes by itself
    state = engine.apply(profile, state, {"type": "pass", "seat": 2}).state
    assert state.stage == "wednesday" and state.turn == 1
    text = refused(profile, state, {"type": "use_card", "seat": 1, "card": "st_25", "targets": ["pl_02"]}, E.NotAllowed)
    assert text == E.CARD_EXHAUSTED.format(name="Scout Jansen")
    refused(profile, state, {"type": "use_card", "seat": 1, "card": "st_25", "targets": ["pl_02"], "free": True}, E.NotAllowed, "exhausted")


def test_the_toncini_example_a_trained_youngster_who_played_once_sells_for_five_euros_and_one_vp() -> None:
    """l.464: "If the player has an empty experience place and played a match, place a VP on it"; l.472–476: "Gain
    5 € and all VP tokens from that Player card ... Example: You want to sell a Toncini card. He is a trained
    Youngster, who has played in one match. You gain 5 € and 1 VP token that was laying on that Player card."
    Toncini (yg_01, trained: #4, defence, experience space "played") plays a match that is lost 0–1 (his own
    ability, a VP after a match without conceding, does not fire)."""
    prof, state = matchday(seats=(1,), opponents=(OPP_LEFT_WING.id,), profile=match_profile())
    state = set_club(state, 1, players=(Held("yg_01", trained=True),), res=(0, 0, 0, 1))
    placed = [{"zone": "def_centre", "jersey": 4, "card": "yg_01"} if p["jersey"] == 4 else p for p in SHIFTED]
    state = run(prof, [{"type": "lineup", "seat": 1, "players": placed, "stands": 0}, {"type": "kickoff", "seat": 1}], state)
    assert club(state, 1).result == "loss"
    toncini = club(state, 1).held("yg_01")
    assert toncini.vp == 1
    profile, state = days(seats=(1,))
    state = set_club(state, 1, players=(toncini,), vp_tokens=0)
    after = engine.apply(profile, state, {"type": "sell", "seat": 1, "card": "yg_01"}).state
    assert club(after, 1).res[0] == 5 and club(after, 1).vp_tokens == 1 and club(after, 1).players == ()
    # "If you are selling the Injured or Suspended Player, you gain half (rounded down) VP's and €": 2 € and 1 of 3
    hurt = set_club(state, 1, players=(Held("yg_01", trained=True, vp=3, injury=1),))
    after = engine.apply(profile, hurt, {"type": "sell", "seat": 1, "card": "yg_01"}).state
    assert club(after, 1).res[0] == 2 and club(after, 1).vp_tokens == 1


def test_the_office_costs_the_space_above_the_marker() -> None:
    """l.569: "Pay cost indicated next to the space above your Office marker and move it on Office track by 1
    space." With 8 €: the 1st space (3 €) on Tuesday, the 2nd (5 €) on Wednesday; the 3rd (7 €) is out of reach."""
    profile, state = days(seats=(1,))
    state = set_club(state, 1, res=(8, 0, 0, 0))
    state = engine.apply(profile, state, {"type": "office", "seat": 1}).state
    assert club(state, 1).res[0] == 5 and state.stage == "wednesday"
    state = engine.apply(profile, state, {"type": "office", "seat": 1}).state
    assert club(state, 1).res[0] == 0 and club(state, 1).office == 2 and state.stage == "thursday"
    refused(profile, state, {"type": "office", "seat": 1}, E.NotEnoughResources, "7")


def test_the_club_potential_needs_a_roll_higher_than_the_stat() -> None:
    """l.579–583: "Pick any of those tracks and roll a 6 sided die. If the result is higher than your current Stat
    marker position, move it by 1 space to the right. If it is lower or equal - nothing happens." Fitness at 5: a 5
    does nothing, a 6 raises it to 6."""
    profile, state = days(seats=(1,))
    state = set_club(state, 1, stats=(2, 2, 2, 5))
    asked = engine.apply(profile, state, {"type": "potential", "seat": 1, "stat": "fitness"}).state
    assert club(engine.apply(profile, asked, {"type": "roll", "seat": 1, "value": 5}).state, 1).stats[3] == 5
    assert club(engine.apply(profile, asked, {"type": "roll", "seat": 1, "value": 6}).state, 1).stats[3] == 6


def test_a_stat_at_the_top_cannot_be_tried_and_the_budget_never() -> None:
    """l.579–585: a roll "higher than your current Stat marker position" raises it: at 6 no d6 can, so the action
    is refused rather than wasted (engine/RULES.md, "Club potential"); "You may not increase the Stat of [budget]
    that way"."""
    profile, state = days(seats=(1,))
    state = set_club(state, 1, stats=(2, 2, 6, 2))
    assert refused(profile, state, {"type": "potential", "seat": 1, "stat": "operation"}, E.NotAllowed) == \
        E.POTENTIAL_TOP.format(seat=1, stat="Operation", level=6)
    refused(profile, state, {"type": "potential", "seat": 1, "stat": "budget"}, E.NotAllowed)


def test_a_second_card_of_a_number_the_club_holds_may_be_hired() -> None:
    """l.437: "You may have more players with the same number, but you can never have two players with the same
    jersey number playing in the same match." Ray Dunmore (pl_01, #2, 1 €) then the other #2, pl_07 (2 €), on
    Wednesday: 3 € spent, both held."""
    profile, state = days(seats=(1,))
    state = set_club(state, 1, res=(3, 0, 0, 0))
    state = engine.apply(profile, state, {"type": "hire_player", "seat": 1, "card": "pl_01"}).state
    state = engine.apply(profile, state, {"type": "hire_player", "seat": 1, "card": "pl_07"}).state
    assert club(state, 1).res[0] == 0 and {h.id for h in club(state, 1).players} == {"pl_01", "pl_07"}
