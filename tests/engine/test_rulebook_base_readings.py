"""The base rulebook's readings (../shared/rules/000_1f57cca4583529f7.txt, "l." below; engine/RULES.md "How the rulebook
is read"), checked by hand-computed cases other than those of test_readings.py: more Stands, longer injuries, more
missing euros, other cards sold, other votes, other markers, abilities before the match, and the d10 with two cards
of one number."""

from __future__ import annotations

from typing import Any

import engine
from engine import errors as E
from engine.cards import Ability, Effect, Staff
from engine.state import Held, State

from tests.engine.helpers import (
    at_stage, board_meeting, club, demo, director, footballer, refused, run, set_club, started, tuesday, with_cards,
)
from tests.engine.test_match_and_round import BASIC, EMPTY, STRONG, lineup, matchday
from tests.engine.test_readings import NINE, WITH_STRONG, WITHOUT_NINE
from tests.engine.test_readings import _one_club_matchday as _alone


def _kept(profile: Any, state: State, seat: int = 1) -> State:
    while state.awaiting and state.awaiting[0].get("need") == "keep_or_reroll":
        state = run(profile, [{"type": "keep", "seat": seat}], state)
    return state


def _next_matchday(profile: Any, state: State) -> State:
    week = state.week
    state = at_stage(profile, at_stage(profile, state, "results"), "monday")
    assert state.week == week + 1
    return at_stage(profile, state, "matchday")


# --- Stands (l.632 step 5, l.715) ----------------------------------------------------------------------------------


def test_stands_take_no_more_fanbase_than_the_club_has_and_pay_one_euro_each() -> None:
    """l.632 "You may place up to 1 [Fanbase] on each of the Stands"; l.715 "Discard the [Fanbase] markers from the
    Stands and gain 1 € for each discarded". Two printed Stands, 1 Fanbase: 2 on the Stands is refused; 1 pays
    1 € and the Fanbase is gone (0 left, none comes back)."""
    profile, state = _alone(res=(0, 1, 0, 0))
    refused(profile, state, lineup(1, WITHOUT_NINE, 2), E.NotEnoughResources)
    state = run(profile, [lineup(1, WITHOUT_NINE, 1), {"type": "kickoff", "seat": 1}], state)
    assert club(state, 1).res[:2] == (1, 0)


def test_the_additional_stands_adds_a_stands_and_a_suspended_one_adds_none() -> None:
    """000 l.632 "(printed on the board and on the Stadium Infrastructure token)": with the Additional stands
    built, three Fanbase go on three Stands and pay 3 €. With a Suspension token on the token (l.845 "You cannot use
    their actions or features"), only the two printed Stands take Fanbase."""
    profile, state = _alone(res=(0, 3, 0, 0), infrastructure=("stands",))
    after = run(profile, [lineup(1, WITHOUT_NINE, 3), {"type": "kickoff", "seat": 1}], state)
    assert club(after, 1).res[:2] == (3, 0)
    suspended = set_club(state, 1, suspended=(("stands", 2),))
    refused(profile, suspended, lineup(1, WITHOUT_NINE, 3), E.NotAllowed, E.STANDS_LIMIT.format(seat=1, stands=2, count=3))


# --- Injury and Suspension last as long as their tokens say (l.632, l.850, l.862) ----------------------------------


def test_a_two_week_injury_after_a_draw_misses_weeks_two_and_three_and_plays_in_week_four() -> None:
    """A draw's Match consequence 1 injures for two weeks; the d10's 8th face names number 9 (STRONG). Step 4 of
    each Matchday takes one week off the token: 2 -> 1 in week 2, 1 -> 0 in week 3; he plays in week 4."""
    profile, state = _alone(res=(0, 0, 0, 1))
    state = run(profile, [lineup(1, WITH_STRONG)], state)
    goals = club(run(profile, [{"type": "kickoff", "seat": 1}], state), 1).goals
    # the empty Opponent scores nothing: the same match with as many Opponent goals before it is a draw
    state = run(profile, [{"type": "kickoff", "seat": 1}], set_club(state, 1, conceded=goals))
    assert club(state, 1).result == "draw"
    state = _kept(profile, run(profile, [{"type": "roll", "seat": 1, "value": 1}], state))
    state = _kept(profile, run(profile, [{"type": "roll", "seat": 1, "value": 8}], state))
    assert club(state, 1).held(STRONG.id).injury == 2
    for week, left in ((2, 1), (3, 0)):
        state = _next_matchday(profile, state)
        assert state.week == week
        refused(profile, set_club(state, 1, res=(0, 0, 0, 1)), lineup(1, WITH_STRONG), E.NotAllowed)
        state = run(profile, [lineup(1, WITHOUT_NINE)], state)
        assert club(state, 1).held(STRONG.id).injury == left
        state = run(profile, [{"type": "kickoff", "seat": 1}], state)
    state = _next_matchday(profile, state)
    assert state.week == 4
    engine.apply(profile, set_club(state, 1, res=(0, 0, 0, 1)), lineup(1, WITH_STRONG))


def test_two_missing_euros_put_two_suspension_tokens_on_each_card_named() -> None:
    """000 l.773 "you must place 2 [Suspension tokens] on a Staff or Player card for each € you don't have": 2 €
    short, two cards named, two tokens each; the same card named twice takes four; a wrong count, or a card the
    club does not hold, is refused."""
    profile, state = _alone(res=(0, 0, 0, 1))
    bench = tuple(Held(p.id) for p in profile.cards_of("player") if p.untrained.jersey != 9)[:6]
    state = set_club(state, 1, players=club(state, 1).players + bench)
    state = run(profile, [lineup(1, WITH_STRONG), {"type": "kickoff", "seat": 1}], state)
    state = _kept(profile, run(profile, [{"type": "roll", "seat": 1, "value": 3}], state))
    state = at_stage(profile, state, "results")
    due = profile.board.maintenance_due("players", 7) + profile.board.maintenance_due("staff", len(club(state, 1).staff))
    assert due >= 2
    state = at_stage(profile, set_club(state, 1, res=(due - 2, 0, 0, 0)), "end_of_round")
    assert state.awaiting[0] == {"seat": 1, "need": "suspensions", "count": 2}
    refused(profile, state, {"type": "suspensions", "seat": 1, "cards": [STRONG.id]}, E.NotAllowed)
    refused(profile, state, {"type": "suspensions", "seat": 1, "cards": [STRONG.id, "pl_44"]}, E.NotAllowed)
    two = run(profile, [{"type": "suspensions", "seat": 1, "cards": [STRONG.id, bench[0].id]}], state)
    assert (club(two, 1).held(STRONG.id).suspension, club(two, 1).held(bench[0].id).suspension) == (2, 2)
    four = run(profile, [{"type": "suspensions", "seat": 1, "cards": [STRONG.id, STRONG.id]}], state)
    assert club(four, 1).held(STRONG.id).suspension == 4


# --- A sold card is discarded (l.470) ------------------------------------------------------------------------------


def test_an_injured_player_sold_is_discarded_for_half_and_cannot_be_hired_by_anyone() -> None:
    """l.470 "Discard a chosen Player card"; l.474 "If you are selling the Injured or Suspended Player, you gain half
    (rounded down) VP's and €": 5 // 2 = 2 € and 3 // 2 = 1 VP token; the card is discarded, so the club itself
    cannot hire it back the next day either."""
    profile, state = tuesday(seats=(1, 2))
    state = set_club(state, 1, res=(0, 0, 0, 0), vp_tokens=0, players=club(state, 1).players + (Held("pl_23", trained=True, injury=1, vp=3),))
    state = run(profile, [{"type": "sell", "seat": 1, "card": "pl_23"}], state)
    assert club(state, 1).res[0] == 2 and club(state, 1).vp_tokens == 1 and "pl_23" in state.discarded
    state = set_club(at_stage(profile, state, "wednesday"), 1, res=(20, 0, 0, 0))
    assert state.turn == 1
    refused(profile, state, {"type": "hire_player", "seat": 1, "card": "pl_23"}, E.NotAllowed,
            E.CARD_DISCARDED.format(name=profile.cards["pl_23"].name))


def test_a_sold_veteran_is_discarded_too() -> None:
    """A Veteran is a Player card: it is discarded, never put under the Youngster deck."""
    profile, state = tuesday(seats=(1,))
    state = set_club(state, 1, res=(0, 0, 0, 0), players=club(state, 1).players + (Held("vet_05", trained=True),))
    state = run(profile, [{"type": "sell", "seat": 1, "card": "vet_05"}], state)
    assert club(state, 1).res[0] == 5 and "vet_05" in state.discarded


# --- Board meeting votes (l.385-386) -------------------------------------------------------------------------------


def _meeting(*votes: str, **decisions: Any) -> tuple[Any, State]:
    directors = [director(f"dir_t{i}", v) for i, v in enumerate(votes)]
    card = board_meeting("bm_t_br", **decisions)
    profile = with_cards(demo(), card, *directors)
    state = set_club(started(profile, seats=(1,)), 1, directors=tuple(d.id for d in directors), res=(0, 0, 0, 0))
    return profile, run(profile, [{"type": "board_meeting", "seat": 1, "card": card.id}], state)


def test_two_votes_for_a_colour_the_card_lacks_lose_to_one_vote_for_a_colour_it_shows() -> None:
    """l.386 "Resolve the effect corresponding to the decision with the most votes": on a blue/red card, face 4
    gives yellow, yellow, blue: the yellow votes count for no decision, blue wins with one (2 Operation)."""
    profile, state = _meeting("yyyyyy", "yyyyyy", "bbbbbb",
                              blue=(Effect.of("gain", resource="operation", amount=2),),
                              red=(Effect.of("gain", resource="budget", amount=2),))
    step = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 4})
    step_state = _kept(profile, step.state)
    assert club(step_state, 1).res == (0, 0, 2, 0)


def test_one_vote_each_for_three_colours_shown_is_a_tie_rerolled_for_free() -> None:
    """l.386 "In the rare case of a tie, reroll the die for free": yellow, blue and red one vote each on a card
    showing the three; the next face (all three vote red on 6) decides red: 2 €."""
    profile, state = _meeting("yyyyyr", "bbbbbr", "rrrrrr",
                              yellow=(Effect.of("gain", resource="fitness", amount=2),),
                              blue=(Effect.of("gain", resource="operation", amount=2),),
                              red=(Effect.of("gain", resource="budget", amount=2),))
    step = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 2})
    assert step.announcements[-1]["kind"] == "board_meeting_tie" and club(step.state, 1).res == (0, 0, 0, 0)
    after = _kept(profile, engine.apply(profile, step.state, {"type": "roll", "seat": 1, "value": 6}).state)
    assert club(after, 1).res == (2, 0, 0, 0)


# --- Abilities a club MAY use are offered (l.617) ------------------------------------------------------------------


def _staff(card_id: str, optional: bool) -> Staff:
    return Staff(id=card_id, kind="staff", name=f"Test {card_id}", cost=0, profession="Analyst", set="yellow",
                 abilities=(Ability(timing="before_match", optional=optional, effects=(Effect.of("gain", resource="budget", amount=1),)),))


def test_an_ability_before_the_match_the_club_may_use_is_not_used_unless_asked() -> None:
    """l.617 "additional actions, you may use before/during/after the match ... Other cards have additional mandatory
    effects you have to resolve at the indicated moment (i.e. before the match)": the mandatory +1 € comes with the
    lineup; the optional one only with `use_card`, before the kick-off: 1 € kicked off without it, 2 € with it."""
    may, must = _staff("st_t_bm_may", True), _staff("st_t_bm_must", False)
    profile, state = matchday(seats=(1,), opponents=(EMPTY.id,), profile=with_cards(demo(), STRONG, EMPTY, may, must))
    state = set_club(state, 1, staff=(Held(may.id), Held(must.id)), players=(), res=(0, 0, 0, 0))
    state = run(profile, [lineup(1, BASIC)], state)
    assert club(state, 1).res[0] == 1
    assert [m["card"] for m in engine.view(profile, state)["awaiting"][0]["may_use"]] == [may.id]
    assert club(run(profile, [{"type": "kickoff", "seat": 1}], state), 1).res[0] == 1
    used = run(profile, [{"type": "use_card", "seat": 1, "card": may.id}, {"type": "kickoff", "seat": 1}], state)
    assert club(used, 1).res[0] == 2


# --- The injury d10 (l.717) ----------------------------------------------------------------------------------------


def test_the_d10_injures_the_card_of_that_number_that_played() -> None:
    """l.717 "The result indicates which player caught the injury": the club holds two number 9 cards, Ivan Petrov
    on the pitch and STRONG on the bench (l.617: one card per number plays); face 8 (number 9) injures Ivan Petrov.
    Face 10 names number 11, a number the club holds no card of: "nothing happens"."""
    profile, state = _alone(res=(0, 0, 0, 1))
    state = set_club(state, 1, players=(Held(STRONG.id), Held("pl_23", trained=True)))
    petrov = NINE + [{"zone": "fwd_left", "jersey": 9, "card": "pl_23"}]
    state = run(profile, [lineup(1, petrov), {"type": "kickoff", "seat": 1}], state)
    assert club(state, 1).result == "win"
    state = _kept(profile, run(profile, [{"type": "roll", "seat": 1, "value": 1}], state))
    hit = _kept(profile, run(profile, [{"type": "roll", "seat": 1, "value": 8}], state))
    assert club(hit, 1).held("pl_23").injury == 1 and club(hit, 1).held(STRONG.id).injury == 0
    step = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 10})
    assert next(a for a in step.announcements if a["kind"] == "no_effect")["jersey"] == 11
    assert all(h.injury == 0 for h in club(step.state, 1).players)


def test_a_footballers_ability_he_may_use_waits_for_the_club_even_with_its_resources_assigned() -> None:
    """l.617 "To activate the Player card action, you must assign additional [resources] ... and you may spend them at
    the indicated moment": assigning 1 Operation to him is not using it; his +1 € comes only with `use_card`, paid
    from what lies on him. Unused, the Operation stays on the card and the € never comes."""
    able = footballer("pl_t_able", 9, "attack", 2, ("fwd",), abilities=(
        Ability(timing="before_match", optional=True, cost=(("operation", 1),), effects=(Effect.of("gain", resource="budget", amount=1),)),))
    profile, state = matchday(seats=(1,), opponents=(EMPTY.id,), profile=with_cards(demo(), STRONG, EMPTY, able))
    state = set_club(state, 1, players=(Held(able.id, trained=True),), res=(0, 0, 1, 1))
    field_him = {**lineup(1, NINE + [{"zone": "fwd_left", "jersey": 9, "card": able.id}]), "assign": {able.id: {"operation": 1}}}
    state = run(profile, [field_him], state)
    assert club(state, 1).res == (0, 0, 0, 0) and club(state, 1).held(able.id).assigned == (0, 0, 1, 0)
    assert [m["card"] for m in engine.view(profile, state)["awaiting"][0]["may_use"]] == [able.id]
    unused = run(profile, [{"type": "kickoff", "seat": 1}], state)
    assert club(unused, 1).res[0] == 0
    used = run(profile, [{"type": "use_card", "seat": 1, "card": able.id}, {"type": "kickoff", "seat": 1}], state)
    assert club(used, 1).res[0] == 1 and club(used, 1).held(able.id).assigned == (0, 0, 0, 0)


def test_a_suspended_director_still_votes() -> None:
    """engine/RULES.md "Board meeting votes": l.845 "You cannot use their actions or features" leaves the vote, which
    the club does not use: yellow (suspended), yellow, blue on face 1 is two votes to one, yellow wins (2 Fitness)."""
    profile, state = _meeting("yyyyyy", "yyyyyy", "bbbbbb",
                              yellow=(Effect.of("gain", resource="fitness", amount=2),),
                              blue=(Effect.of("gain", resource="operation", amount=2),))
    state = set_club(state, 1, suspended=(("dir_t0", 1),))
    after = _kept(profile, engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 1}).state)
    assert club(after, 1).res == (0, 0, 0, 2)


def test_a_d10_on_monday_hits_the_card_of_that_number_held_longest() -> None:
    """A Board meeting decision "injure a footballer the d10 names" on Monday, before any lineup: the club holds
    STRONG (#9, held first) and Ivan Petrov (#9); face 8 names number 9 and STRONG takes the token for a week
    (engine/RULES.md "The injury d10")."""
    directors = [director(f"dir_t{i}", "yyyyyy") for i in range(3)]
    card = board_meeting("bm_t_hurt", yellow=(Effect.of("injure", target="roll_d10", weeks=1),),
                         blue=(Effect.of("gain", resource="budget", amount=1),))
    profile = with_cards(demo(), card, STRONG, *directors)
    state = set_club(started(profile, seats=(1,)), 1, directors=tuple(d.id for d in directors), res=(0, 0, 0, 0),
                     players=(Held(STRONG.id), Held("pl_23", trained=True)))
    state = run(profile, [{"type": "board_meeting", "seat": 1, "card": card.id}, {"type": "roll", "seat": 1, "value": 2}], state)
    assert state.awaiting[0]["purpose"] == "injury"
    state = run(profile, [{"type": "roll", "seat": 1, "value": 8}], state)
    assert (club(state, 1).held(STRONG.id).injury, club(state, 1).held("pl_23").injury) == (1, 0)
