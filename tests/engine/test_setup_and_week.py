"""Setup, Monday and the Tuesday–Thursday turns."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import errors as E
from engine.cards import Ability, Effect, Staff
from engine.legal import setup_events
from engine.state import Held, State, evolve

from tests.engine.helpers import at_stage, club, demo, director, refused, run, set_club, started, tuesday, with_cards


# --- Setup -----------------------------------------------------------------------------------------------------


def test_a_new_club_has_its_stats_on_the_second_space_and_a_first_trainer() -> None:
    profile = demo()
    state = run(profile, [{"type": "club", "seat": 2, "name": "Middleham"}])
    c = club(state, 2)
    assert c.stats == (2, 2, 2, 2)
    assert [profile.cards[h.id].profession for h in c.staff] == ["First trainer"]
    refused(profile, state, {"type": "club", "seat": 2}, E.NotAllowed, "Seat 2 already has a club")
    refused(profile, state, {"type": "club", "seat": 5}, E.UnknownSeat)


def _directors_profile():
    return with_cards(
        demo(),
        director("dir_up", "yyyyyy", (("budget", 3), ("fitness", 1))),
        director("dir_up2", "yyyyyy", (("budget", 2),)),
        director("dir_down", "yyyyyy", (("fanbase", -2),)),
    )


def test_director_stat_changes_past_six_gain_the_resource_and_below_one_lose_it() -> None:
    profile = _directors_profile()
    state = run(profile, [{"type": "club", "seat": 1}])
    state = set_club(state, 1, res=(0, 1, 0, 0))
    state = run(profile, [{"type": "directors", "seat": 1, "cards": ["dir_up", "dir_up2", "dir_down"]}], state)
    c = club(state, 1)
    # budget 2 +3 +2 = 7: the marker stops on 6 and the step past it gains 1 €; fanbase 2 -2: stops on 1, loses 1
    assert c.stats == (6, 1, 2, 3)
    assert c.res == (1, 0, 0, 0)


def test_below_one_without_the_resource_costs_one_euro_and_without_euros_nothing() -> None:
    profile = _directors_profile()
    state = run(profile, [{"type": "club", "seat": 1}, {"type": "club", "seat": 2}])
    state = set_club(state, 1, res=(0, 0, 0, 0))
    after = run(profile, [{"type": "directors", "seat": 1, "cards": ["dir_up", "dir_up2", "dir_down"]}], state)
    assert club(after, 1).res == (1 - 1, 0, 0, 0)  # the € gained past 6 pays for the missing Fanbase
    state = set_club(state, 2, res=(0, 0, 0, 0))
    refused(profile, after, {"type": "directors", "seat": 2, "cards": ["dir_up", "dir_01", "dir_02"]}, E.NotAllowed, "already belongs to Seat 1")


def test_starting_veteran_and_youngster_with_the_same_number_are_refused() -> None:
    profile = demo()
    vet = profile.cards_of("veteran")[0]
    same = next(y for y in profile.cards_of("youngster") if y.untrained.jersey == vet.untrained.jersey)
    other = next(y for y in profile.cards_of("youngster") if y.untrained.jersey != vet.untrained.jersey)
    state = run(profile, [{"type": "club", "seat": 1}])
    text = refused(profile, state, {"type": "starting_players", "seat": 1, "veteran": vet.id, "youngster": same.id}, E.NotAllowed)
    assert text == E.SETUP_SAME_JERSEY.format(veteran=vet.name, youngster=same.name, jersey=vet.untrained.jersey)
    after = run(profile, [{"type": "starting_players", "seat": 1, "veteran": vet.id, "youngster": other.id}], state)
    assert [h.id for h in club(after, 1).players] == [vet.id, other.id]


def test_the_jersey_markers_placed_at_setup_show_exactly_half_attack_and_half_defence() -> None:
    profile = demo()
    vet = profile.cards_of("veteran")[0]
    young = next(y for y in profile.cards_of("youngster") if y.untrained.jersey != vet.untrained.jersey)
    state = run(profile, [{"type": "club", "seat": 1}])
    jerseys = profile.board.pitch.jerseys
    starting = {vet.untrained.jersey: vet.untrained.style, young.untrained.jersey: young.untrained.style}
    others = [n for n in jerseys if n not in starting]
    attack_left = len(jerseys) // 2 - sum(1 for s in starting.values() if s == "attack")
    fair = {**{n: "attack" if i < attack_left else "defence" for i, n in enumerate(others)}, **starting}
    ev = {"type": "starting_players", "seat": 1, "veteran": vet.id, "youngster": young.id}
    after = run(profile, [{**ev, "markers": {str(n): s for n, s in fair.items()}}], state)
    assert dict(club(after, 1).markers) == fair
    lopsided = {**fair, others[0]: "defence" if fair[others[0]] == "attack" else "attack"}
    text = refused(profile, state, {**ev, "markers": lopsided}, E.NotAllowed)
    assert text.startswith("At the beginning of the game exactly 5 jersey markers show attack and 5 defence")
    assert dict(club(after, 1).markers_setup) == fair
    # l.617: "make sure you have all jersey markers on the side corresponding to the Player cards"
    swapped = {**fair, vet.untrained.jersey: "defence" if vet.untrained.style == "attack" else "attack"}
    swapped[next(n for n in others if fair[n] == swapped[vet.untrained.jersey])] = vet.untrained.style
    text = refused(profile, state, {**ev, "markers": swapped}, E.NotAllowed)
    assert text == E.SETUP_MARKERS_CARD.format(jersey=vet.untrained.jersey, style=vet.untrained.style, name=vet.name)
    missing = {n: s for n, s in fair.items() if n != others[0]}
    assert "must name each numbered marker" in refused(profile, state, {**ev, "markers": missing}, E.NotAllowed)


def test_opponent_cards_need_different_emblems_and_the_same_count_for_every_club() -> None:
    profile = demo()
    opps = profile.cards_of("opponent")
    twins = [o.id for o in opps if o.team == opps[0].team][:2]
    state = run(profile, [{"type": "club", "seat": 1}, {"type": "club", "seat": 2}])
    refused(profile, state, {"type": "opponents", "seat": 1, "cards": twins}, E.NotAllowed, "different emblems")
    by_team: dict[str, list[str]] = {}
    for o in opps:
        by_team.setdefault(o.team, []).append(o.id)
    first = [ids[0] for ids in by_team.values()][:6]
    second = [ids[1] for ids in by_team.values()][:5]
    state = run(profile, [{"type": "opponents", "seat": 1, "cards": first}], state)
    refused(profile, state, {"type": "opponents", "seat": 2, "cards": second}, E.NotAllowed, "the same number of weeks")


def test_the_game_starts_only_when_every_club_is_set_up_and_lasts_as_many_weeks_as_opponent_cards() -> None:
    profile = demo()
    events = setup_events(profile, [1, 2])
    partial = run(profile, [e for e in events[:-1] if not (e["type"] == "tactic" and e["seat"] == 2)])
    text = refused(profile, partial, {"type": "first_player", "seat": 2}, E.NotAllowed)
    assert "Seat 2 needs a Tactic card" in text
    state = run(profile, events)
    assert (state.stage, state.week, state.weeks, state.first_seat) == ("monday", 1, profile.board.setup.opponents_per_club, 1)
    assert len(state.teams) == len(profile.board.teams)


# --- Monday ----------------------------------------------------------------------------------------------------


def test_monday_production_follows_the_stat_levels() -> None:
    profile = demo()
    state = started(profile, (1,))
    c = club(state, 1)
    expected = tuple(profile.board.produce(stat, c.stats[i]) for i, stat in enumerate(("budget", "fanbase", "operation", "fitness")))
    before = run(profile, setup_events(profile, [1])[:-1])
    assert tuple(a - b for a, b in zip(c.res, club(before, 1).res)) == expected
    assert state.awaiting == ({"seat": 1, "need": "card", "kinds": ["board_meeting"]},)


def test_a_board_meeting_card_cannot_be_taken_twice_or_on_another_day() -> None:
    profile = demo()
    state = started(profile, (1, 2))
    state = run(profile, [{"type": "board_meeting", "seat": 1, "card": "bm_01"}], state)
    refused(profile, state, {"type": "board_meeting", "seat": 2, "card": "bm_01"}, E.NotAllowed, "already belongs to Seat 1")
    refused(profile, state, {"type": "board_meeting", "seat": 1, "card": "bm_02"}, E.NotAllowed, "already has a Board meeting card")
    tuesday = at_stage(profile, state, "tuesday")
    refused(profile, tuesday, {"type": "board_meeting", "seat": 1, "card": "bm_03"}, E.WrongStage, "Board meetings happen on Monday")


# --- Turns -----------------------------------------------------------------------------------------------------


def test_turns_go_clockwise_from_the_first_player_and_others_must_wait() -> None:
    profile, state = tuesday(first=3)
    assert state.turn == 3
    text = refused(profile, state, {"type": "hire_player", "seat": 2, "card": "pl_01"}, E.NotYourTurn)
    assert text == "Seat 2 cannot hire: it is Seat 3's turn (Tuesday)."
    seen = []
    while state.stage == "tuesday":
        seen.append(state.turn)
        state = engine.apply(profile, state, {"type": "pass", "seat": state.turn}).state
    assert seen == [3, 4, 1, 2]
    assert state.stage == "wednesday" and state.turn == 3


def test_thursday_leads_to_matchday() -> None:
    profile, state = tuesday(seats=(1, 2))
    for _ in range(6):
        state = engine.apply(profile, state, {"type": "pass", "seat": state.turn}).state
    assert state.stage == "matchday"
    assert {a["need"] for a in state.awaiting} == {"lineup"}


def _staff_with_action() -> Staff:
    return Staff(
        id="st_test_action", kind="staff", name="Test Analyst", cost=1, profession="Analyst", set="yellow",
        abilities=(Ability(timing="action", cost=(("budget", 1),), effects=(Effect.of("gain", resource="fitness", amount=2),)),),
    )


def test_one_action_per_day_plus_one_free_card_action_for_two_operation() -> None:
    profile = with_cards(demo(), _staff_with_action())
    profile, state = tuesday(seats=(1, 2), profile=profile)
    state = set_club(state, 1, res=(10, 0, 2, 0), staff=club(state, 1).staff + (Held("st_test_action"),))
    state = run(profile, [{"type": "office", "seat": 1}], state)
    assert state.turn == 1  # a free action is still possible
    refused(profile, state, {"type": "office", "seat": 1}, E.NotAllowed, "already taken its action")
    step = engine.apply(profile, state, {"type": "use_card", "seat": 1, "card": "st_test_action"})
    c = club(step.state, 1)
    assert c.res == (10 - 3 - 1, 0, 0, 2)  # Office 3 €, the action's 1 €, 2 Operation for the free action
    assert c.held("st_test_action").exhausted
    assert step.state.turn == 2  # both used: the turn passes on


def test_a_card_action_is_once_per_round_and_unexhausts_at_the_end_of_the_round() -> None:
    profile = with_cards(demo(), _staff_with_action())
    profile, state = tuesday(seats=(1,), profile=profile)
    state = set_club(state, 1, res=(10, 0, 0, 0), staff=club(state, 1).staff + (Held("st_test_action"),))
    state = run(profile, [{"type": "use_card", "seat": 1, "card": "st_test_action"}], state)
    assert state.stage == "wednesday"
    refused(profile, state, {"type": "use_card", "seat": 1, "card": "st_test_action"}, E.NotAllowed, "once per round")
    state = at_stage(profile, state, "monday")
    assert not club(state, 1).held("st_test_action").exhausted


def test_a_free_action_without_two_operation_is_refused() -> None:
    profile = with_cards(demo(), _staff_with_action())
    profile, state = tuesday(seats=(1, 2), profile=profile)
    state = set_club(state, 1, res=(10, 0, 1, 0), staff=club(state, 1).staff + (Held("st_test_action"),), acted=True)
    refused(profile, state, {"type": "use_card", "seat": 1, "card": "st_test_action", "free": True}, E.NotEnoughResources, "2 Operation")


def test_the_stage_marker_passes_to_the_next_seat_each_week() -> None:
    profile, state = tuesday(seats=(1, 2, 4), first=4)
    state = at_stage(profile, state, "matchday")
    state = at_stage(profile, state, "monday")
    assert (state.week, state.first_seat) == (2, 1)


def test_unknown_events_and_missing_fields_are_refused_with_a_sentence() -> None:
    profile, state = tuesday(seats=(1,))
    assert "There is no event" in refused(profile, state, {"type": "teleport", "seat": 1}, E.BadEvent)
    assert 'needs the field "card"' in refused(profile, state, {"type": "hire_player", "seat": 1}, E.BadEvent)
    refused(profile, state, {"type": "hire_player", "seat": 1, "card": "pl_nope"}, E.UnknownCard, 'There is no card "pl_nope"')
    refused(profile, state, {"type": "hire_player", "seat": 9, "card": "pl_01"}, E.UnknownSeat)



def test_a_view_for_the_table_hides_every_objective_and_a_seat_sees_only_its_own() -> None:
    from engine.views import TABLE, UNKNOWN_VIEWER

    profile, state = tuesday(seats=(1, 2))
    kept = {c.seat: c.objective for c in state.clubs}
    assert all(kept.values())
    everything = engine.view(profile, state)  # the default keeps showing everything
    assert {c["seat"]: c["objective"] for c in everything["clubs"]} == kept
    table = engine.view(profile, state, TABLE)
    assert [c["objective"] for c in table["clubs"]] == [None, None]
    assert all(c["hidden"] == ["objective", "opponent"] and c["opponent"] is None for c in table["clubs"])
    seat_2 = engine.view(profile, state, 2)
    assert {c["seat"]: c["objective"] for c in seat_2["clubs"]} == {1: None, 2: kept[2]}
    # the Opponent card is revealed on Matchday, and Objectives at the Final scoring
    matchday = at_stage(profile, state, "matchday")
    assert all(c["opponent"] is not None and c["hidden"] == ["objective"] for c in engine.view(profile, matchday, TABLE)["clubs"])
    with pytest.raises(ValueError) as info:
        engine.view(profile, state, "everyone")
    assert str(info.value) == UNKNOWN_VIEWER.format(viewer="everyone")


def test_a_board_meeting_choice_is_named_with_the_roll_or_else_asked_of_the_table() -> None:
    from tests.engine.helpers import board_meeting

    yes = [director(f"dir_t_{i}", "yyyyyy") for i in range(3)]
    meeting = board_meeting("bm_t_train", yellow=(Effect.of("train", target="chosen_player"),), blue=(Effect.of("gain", resource="budget", amount=1),))
    profile, state = tuesday(seats=(1,), profile=with_cards(demo(), *yes, meeting))
    state = evolve(set_club(state, 1, board_card=None, board_done=False, directors=tuple(d.id for d in yes), res=(0, 0, 0, 0)), stage="monday")
    state = engine.apply(profile, state, {"type": "board_meeting", "seat": 1, "card": meeting.id}).state
    young = club(state, 1).players[1].id
    named = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 3, "targets": [young]}).state
    assert club(named, 1).held(young).trained and not club(named, 1).players[0].trained
    asked = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 3})
    assert not any(h.trained for h in club(asked.state, 1).players)
    assert [a["kind"] for a in asked.announcements if a["kind"] == "table_resolves"] == ["table_resolves"]
