"""Base-game rules read word for word from the rulebook (``../shared/rules/000_1f57cca4583529f7.txt``, "l." below),
where the engine once read them wrongly. Each test quotes the lines it follows."""

from __future__ import annotations

from typing import Any

import engine
from engine import errors as E
from engine.cards import Ability, Effect, Staff
from engine.legal import auto_lineup
from engine.state import Held, State

from tests.engine.helpers import (
    at_stage, board_meeting, club, demo, director, footballer, refused, run, set_club, started, tuesday, with_cards,
)
from tests.engine.test_match_and_round import BASIC, EMPTY, STRONG, lineup, matchday, plain

NINE = [p for p in BASIC if p["jersey"] != 9]
WITH_STRONG = NINE + [{"zone": "fwd_left", "jersey": 9, "card": STRONG.id}]
WITHOUT_NINE = NINE + [plain("mid_right", None, "attack")]


def _one_club_matchday(**changes: Any) -> tuple[Any, State]:
    """Seat 1 alone on its first Matchday, holding only STRONG (#9, forward, attack 4), facing an empty Opponent."""
    profile, state = matchday(seats=(1,), opponents=(EMPTY.id,))
    return profile, set_club(state, 1, players=(Held(STRONG.id),), **changes)


def _next_matchday(profile: Any, state: State) -> State:
    """Play the simplest legal events (passing, keeping rolls) until the next Matchday begins."""
    week = state.week
    state = at_stage(profile, state, "results")
    state = at_stage(profile, state, "monday")
    assert state.week == week + 1
    return at_stage(profile, state, "matchday")


# --- Stands ----------------------------------------------------------------------------------------------------


def test_the_stands_pay_one_euro_per_fanbase_and_the_fanbase_is_discarded() -> None:
    """l.715: "Discard the [Fanbase] markers from the Stands and gain 1 € for each discarded"."""
    profile, state = _one_club_matchday(res=(0, 3, 0, 0))
    stands = profile.board.board_stands
    state = engine.apply(profile, state, lineup(1, WITHOUT_NINE, stands)).state
    assert club(state, 1).res[:2] == (0, 3 - stands)
    step = engine.apply(profile, state, {"type": "kickoff", "seat": 1})
    assert club(step.state, 1).res[:2] == (stands, 3 - stands)
    said = next(a for a in step.announcements if a["kind"] == "stands")
    assert said["budget"] == stands and said["fanbase"] == 0


# --- Injury and Suspension last as long as their tokens say ----------------------------------------------------


def test_a_one_week_injury_in_week_one_misses_week_two_and_plays_in_week_three() -> None:
    """l.617 (step 1 chooses the cards), l.632 (step 4: "If you have any Injured or Suspended staff or players, exhaust
    their cards and discard 1 Injury/Suspension token"), l.862: "Injured players cannot play during the following
    weeks (according to the Injury token)". The Match consequence of a win on a 1 injures for one week; the d10's
    8th face names the 8th numbered jersey marker, number 9."""
    profile, state = _one_club_matchday(res=(0, 0, 0, 1))
    assert profile.board.pitch.jerseys[8 - 1] == 9
    state = run(profile, [lineup(1, WITH_STRONG), {"type": "kickoff", "seat": 1}, {"type": "roll", "seat": 1, "value": 1},
                          {"type": "roll", "seat": 1, "value": 8}], state)
    assert club(state, 1).result == "win" and club(state, 1).held(STRONG.id).injury == 1

    state = _next_matchday(profile, state)
    assert state.week == 2 and club(state, 1).held(STRONG.id).injury == 1
    refused(profile, state, lineup(1, WITH_STRONG), E.NotAllowed, E.LINEUP_UNAVAILABLE.format(name=STRONG.name))
    refused(profile, state, lineup(1, BASIC), E.NotAllowed, "Number 9")  # no other #9 card: a blank stands in
    step = engine.apply(profile, state, lineup(1, WITHOUT_NINE))
    held = club(step.state, 1).held(STRONG.id)
    assert held.injury == 0 and held.exhausted
    assert any(a["kind"] == "recovery" and a["card"] == STRONG.id for a in step.announcements)

    state = _next_matchday(profile, run(profile, [{"type": "kickoff", "seat": 1}], step.state))
    assert state.week == 3
    engine.apply(profile, set_club(state, 1, res=(0, 0, 0, 1)), lineup(1, WITH_STRONG))


def test_two_suspension_tokens_from_maintenance_cost_two_matches() -> None:
    """End of the round step 3 (l.773): "If you have less € to pay, you must place 2 [Suspension tokens] on a Staff or
    Player card for each € you don't have"; l.850: "Suspended players cannot play during the following weeks
    (according to the Suspension token)"; one token goes at each Matchday's step 4 (l.632)."""
    profile, state = _one_club_matchday(res=(0, 0, 0, 1))
    bench = tuple(Held(p.id) for p in profile.cards_of("player") if p.untrained.jersey != 9)[:4]  # Maintenance is due
    state = set_club(state, 1, players=club(state, 1).players + bench)
    state = run(profile, [lineup(1, WITH_STRONG), {"type": "kickoff", "seat": 1}, {"type": "roll", "seat": 1, "value": 3}], state)
    state = at_stage(profile, state, "results")
    due = profile.board.maintenance_due("players", 5) + profile.board.maintenance_due("staff", len(club(state, 1).staff))
    assert due >= 1
    state = at_stage(profile, set_club(state, 1, res=(due - 1, 0, 0, 0)), "end_of_round")
    assert state.awaiting[0] == {"seat": 1, "need": "suspensions", "count": 1}
    state = engine.apply(profile, state, {"type": "suspensions", "seat": 1, "cards": [STRONG.id]}).state
    assert club(state, 1).held(STRONG.id).suspension == 2

    for week, left in ((2, 1), (3, 0)):
        state = at_stage(profile, state, "matchday")
        assert state.week == week
        refused(profile, set_club(state, 1, res=(0, 0, 0, 1)), lineup(1, WITH_STRONG), E.NotAllowed, "injured or suspended")
        state = engine.apply(profile, state, lineup(1, WITHOUT_NINE)).state
        assert club(state, 1).held(STRONG.id).suspension == left
        state = _next_matchday(profile, run(profile, [{"type": "kickoff", "seat": 1}], state))
        if week == 3:
            break
        state = at_stage(profile, state, "matchday")
    assert state.week == 4
    engine.apply(profile, set_club(state, 1, res=(0, 0, 0, 1)), lineup(1, WITH_STRONG))


def test_every_face_of_the_injury_d10_names_a_numbered_jersey_marker_so_number_11_can_be_injured() -> None:
    """l.717: "Roll a 10 sided die. The result indicates which player caught the injury." The ten numbered markers
    (2 to 11) meet the ten faces in order (see engine/RULES.md), so no number is out of reach."""
    eleven = footballer("pl_t_eleven", 11, "attack", 2, ("fwd",))
    profile, state = matchday(seats=(1,), opponents=(EMPTY.id,), profile=with_cards(demo(), STRONG, EMPTY, eleven))
    state = set_club(state, 1, players=(Held(eleven.id),), res=(0, 0, 0, 1))
    eleven_up = [p for p in BASIC if p["jersey"] != 11] + [{"zone": "fwd_left", "jersey": 11, "card": eleven.id}]
    state = run(profile, [lineup(1, eleven_up), {"type": "kickoff", "seat": 1}, {"type": "roll", "seat": 1, "value": 1}], state)
    assert state.awaiting[0]["die"] == "d10" and state.awaiting[0]["purpose"] == "injury"
    hit = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 10})
    assert club(hit.state, 1).held(eleven.id).injury == 1
    assert next(a for a in hit.announcements if a["kind"] == "injury")["card"] == eleven.id
    named = [profile.board.pitch.jerseys[face - 1] for face in range(1, 11)]
    assert named == list(range(2, 12))
    miss = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 1})  # number 2: the club has no #2 card
    assert next(a for a in miss.announcements if a["kind"] == "no_effect")["jersey"] == 2


# --- A sold card is discarded --------------------------------------------------------------------------------


def test_a_sold_player_is_discarded_and_nobody_can_hire_it_again_but_a_youngster_goes_under_its_deck() -> None:
    """l.470: "Discard a chosen Player card with the trained side face-up. Remember that discarded Youngster cards
    are placed at the bottom of the Youngster deck." """
    profile, state = tuesday(seats=(1, 2))
    youngster = next(y.id for y in profile.cards_of("youngster") if all(h.id != y.id for c in state.clubs for h in c.players))
    state = set_club(state, 1, players=club(state, 1).players + (Held("pl_04", trained=True),))
    state = run(profile, [{"type": "sell", "seat": 1, "card": "pl_04"}], state)
    assert state.discarded == ("pl_04",) and engine.view(profile, state)["discarded"] == ["pl_04"]
    assert state.turn == 2
    state = set_club(state, 2, res=(20, 0, 0, 0))
    text = refused(profile, state, {"type": "hire_player", "seat": 2, "card": "pl_04"}, E.NotAllowed)
    assert text == E.CARD_DISCARDED.format(name=profile.cards["pl_04"].name)
    assert not any(e.get("card") == "pl_04" for e in engine.legal_events(profile, state))

    state = set_club(state, 2, players=club(state, 2).players + (Held(youngster, trained=True),))
    state = run(profile, [{"type": "sell", "seat": 2, "card": youngster}], state)
    assert youngster not in state.discarded
    state = at_stage(profile, state, "wednesday")
    state = set_club(state, 1, res=(20, 0, 0, 0))
    assert club(run(profile, [{"type": "hire_youngster", "seat": 1, "card": youngster}], state), 1).held(youngster)


# --- Board meeting votes ---------------------------------------------------------------------------------------


def _board(*votes: str) -> tuple[Any, State]:
    """Seat 1 on Monday with three test Directors (votes by d6 face: y/b/r) and a yellow/blue Board meeting card."""
    directors = [director(f"dir_t{i}", v) for i, v in enumerate(votes)]
    card = board_meeting("bm_t_vote", yellow=(Effect.of("gain", resource="budget", amount=2),),
                         blue=(Effect.of("gain", resource="operation", amount=2),))
    profile = with_cards(demo(), card, *directors)
    state = started(profile, seats=(1,))
    state = set_club(state, 1, directors=tuple(d.id for d in directors), res=(0, 0, 0, 0))
    return profile, run(profile, [{"type": "board_meeting", "seat": 1, "card": card.id}], state)


def test_a_vote_for_a_colour_the_card_does_not_show_counts_for_no_decision() -> None:
    """l.386: "Resolve the effect corresponding to the decision with the most votes"; a Director voting for a colour
    the card does not show votes for no decision on it (engine/DATA.md), so one vote for yellow beats two for red."""
    profile, state = _board("rrrrrr", "rrrrrr", "yyyyyy")
    step = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 3})
    said = next(a for a in step.announcements if a["kind"] == "board_meeting")
    assert said["decision"] == "yellow"
    assert club(step.state, 1).res[0] == 2


def test_when_no_director_votes_for_a_decision_on_the_card_the_tie_is_rerolled_for_free() -> None:
    """l.386: "In the rare case of a tie, reroll the die for free." Every decision has no vote: a tie."""
    profile, state = _board("rrrrry", "rrrrrr", "rrrrrr")
    step = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 2})
    assert [a["kind"] for a in step.announcements][-1] == "board_meeting_tie"
    assert step.state.awaiting[0]["purpose"] == "board_meeting" and club(step.state, 1).res == (0, 0, 0, 0)
    after = engine.apply(profile, step.state, {"type": "roll", "seat": 1, "value": 6}).state
    assert club(after, 1).res[0] == 2


# --- The setup's 5 attack and 5 defence --------------------------------------------------------------------------


def test_the_first_lineup_keeps_the_setups_five_attack_and_five_defence_when_the_sides_were_not_stated() -> None:
    """l.249: "At the beginning of the game you must have exactly 5 ⚽ and 5 🛡 on the pitch"; l.617: "Make sure you
    have all jersey markers on the side corresponding to the Player cards. You cannot flip jersey markers without
    corresponding Player cards." A plain marker fielded in the first lineup shows the side it was set up on."""
    profile, state = tuesday(seats=(1,))
    state = at_stage(profile, state, "matchday")
    fair = auto_lineup(profile, club(state, 1))
    starting = {h.id for h in club(state, 1).players}
    plain_numbers = [p["jersey"] for p in fair["players"] if p["card"] is None and p["jersey"] is not None
                     and p["jersey"] not in dict(club(state, 1).markers)]
    assert plain_numbers and all(p["card"] in starting for p in fair["players"] if p["card"])
    defended = {**fair, "players": [{**p, "style": "defence"} if p["jersey"] in plain_numbers else p for p in fair["players"]]}
    text = refused(profile, state, defended, E.NotAllowed)
    assert text.startswith("At the beginning of the game the numbered jersey markers show exactly 5 attack and 5 defence")
    after = engine.apply(profile, state, fair).state
    setup = dict(club(after, 1).markers_setup)
    assert sorted(setup.values()).count("attack") == 5 and sorted(setup.values()).count("defence") == 5


# --- "You may" is offered; only what the card makes mandatory happens by itself ----------------------------------


def _staff(card_id: str, timing: str, *, optional: bool = True, cost: tuple[tuple[str, int], ...] = ()) -> Staff:
    return Staff(id=card_id, kind="staff", name=f"Test {card_id}", cost=0, profession="Analyst", set="yellow",
                 abilities=(Ability(timing=timing, optional=optional, cost=cost,
                                    effects=(Effect.of("gain", resource="budget", amount=1),)),))


def test_an_optional_ability_after_the_match_is_offered_even_free_and_a_mandatory_one_applies_alone() -> None:
    """l.617: "Some of the Player cards have additional actions, you may use before/during/after the match ... Other
    cards have additional mandatory effects you have to resolve at the indicated moment"."""
    may, must = _staff("st_t_may", "after_match"), _staff("st_t_must", "after_match", optional=False)
    profile, state = matchday(seats=(1, 2), opponents=(EMPTY.id, EMPTY.id), profile=with_cards(demo(), STRONG, EMPTY, may, must))
    state = set_club(state, 1, staff=(Held(may.id), Held(must.id)), res=(0, 0, 0, 0))
    state = run(profile, [lineup(1, BASIC), {"type": "kickoff", "seat": 1}], state)
    assert club(state, 1).res[0] == 1  # the mandatory € only
    need = engine.view(profile, state)["awaiting"][0]
    assert need["purpose"] == "match_consequence" and [m["card"] for m in need["may_use"]] == [may.id]
    assert any(e["type"] == "use_card" and e["card"] == may.id for e in engine.legal_events(profile, state))
    refused(profile, state, {"type": "use_card", "seat": 1, "card": must.id}, E.NotAllowed, "has no action")
    used = engine.apply(profile, state, {"type": "use_card", "seat": 1, "card": may.id}).state
    assert club(used, 1).res[0] == 2
    refused(profile, used, {"type": "use_card", "seat": 1, "card": may.id}, E.NotAllowed, "exhausted")
    rolled = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 3}).state
    refused(profile, rolled, {"type": "use_card", "seat": 1, "card": may.id}, E.NotAllowed, E.AFTER_MATCH_OVER.format(seat=1))


def test_an_optional_monday_ability_is_offered_on_monday_once() -> None:
    """Monday abilities come "every Monday, after Production" (engine/DATA.md); one the club may use waits for it."""
    may = _staff("st_t_monday", "monday", cost=(("fanbase", 1),))
    profile = with_cards(demo(), may)
    state = started(profile, seats=(1,))
    state = at_stage(profile, set_club(state, 1, staff=club(state, 1).staff + (Held(may.id),)), "monday")
    state = at_stage(profile, state, "tuesday")
    state = at_stage(profile, state, "monday")  # week 2: Production ran with the card in play
    budget = club(state, 1).res[0]
    assert any(m["card"] == may.id for need in engine.view(profile, state)["awaiting"] for m in need.get("may_use", []))
    used = engine.apply(profile, state, {"type": "use_card", "seat": 1, "card": may.id}).state
    assert club(used, 1).res[0] == budget + 1
    refused(profile, used, {"type": "use_card", "seat": 1, "card": may.id}, E.NotAllowed,
            E.ABILITY_USED.format(name=may.name, moment="Monday"))


def test_an_optional_end_of_round_ability_waits_for_the_club_to_use_it_or_pass() -> None:
    """An ability a club may use at the End of the round is offered there: the round waits for the club's word."""
    may = _staff("st_t_end", "end_of_round")
    profile, state = matchday(seats=(1,), opponents=(EMPTY.id,), profile=with_cards(demo(), STRONG, EMPTY, may))
    state = set_club(state, 1, staff=(Held(may.id),), res=(0, 0, 0, 0))
    state = run(profile, [lineup(1, BASIC), {"type": "kickoff", "seat": 1}, {"type": "roll", "seat": 1, "value": 3}], state)
    state = at_stage(profile, state, "end_of_round")
    assert state.awaiting[0] == {"seat": 1, "need": "abilities", "timing": "end_of_round"}
    budget = club(state, 1).res[0]
    used = engine.apply(profile, state, {"type": "use_card", "seat": 1, "card": may.id}).state
    assert used.stage == "monday" and used.week == 2 and club(used, 1).res[0] >= budget + 1
    passed = engine.apply(profile, state, {"type": "pass", "seat": 1}).state
    assert passed.stage == "monday" and passed.week == 2
