"""Epic League mode (003 l.436–556), played through the engine as the table would: two decks of Opponent cards, 12
teams, two Objectives, the Winter Break in its order, and the Epic League's final scoring."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import errors as E
from engine.legal import setup_events
from engine.modules import epic_league as epic
from engine.state import Held, State

from tests.engine.helpers import advance_until, club, demo, refused, run, set_club

GAME = {"type": "game", "modules": ["epic_league"]}
LISTED = ["Talent School", "Only the Result Matters", "A Game to Remember", "The Perfect Day", "Money Comes First",
          "Let's Rebuild the Stadium", "Loyal Companions", "Talent Hunters"]  # l.458


def started(lower: int = 3) -> tuple[Any, State]:
    profile = demo()
    game = {**GAME, "options": {"lower_division": lower}}
    return profile, run(profile, setup_events(profile, [1, 2, 3, 4], game=game))


def at_break(profile: Any, state: State) -> State:
    return advance_until(profile, state, lambda s: s.stage == epic.STAGE)


def divisions(profile: Any, card: str) -> set[int]:
    c = profile.cards[card]
    return set(c.divisions or (c.division,))


@pytest.mark.parametrize("lower", [3, 2])
def test_each_club_plays_five_opponents_of_the_lower_division_then_five_of_the_one_above(lower: int) -> None:
    """l.448: "The first 5 Opponents should belong to the lower Division (2nd or 3rd) and the second deck must
    contain Opponent cards from a higher Division than the first (1st or 2nd respectively)"; one card per team in
    each deck; ten weeks (l.438); 12 teams on the table (l.450)."""
    profile, state = started(lower)
    assert state.weeks == 10 and len(state.teams) == 12
    for c in state.clubs:
        assert len(c.opponents) == 10
        first, second = c.opponents[:5], c.opponents[5:]
        assert all(lower in divisions(profile, o) for o in first)
        assert all(lower - 1 in divisions(profile, o) for o in second)
        for deck in (first, second):
            assert len({profile.cards[o].team for o in deck}) == 5
        # the lower deck is on top: weeks 1-5 play it, weeks 6-10 the higher one
        assert [engine.week_opponent(state, c, w) for w in range(1, 11)] == list(c.opponents)


def test_a_stack_out_of_division_order_is_refused_naming_the_card() -> None:
    profile = demo()
    events = setup_events(profile, [1, 2], game=GAME)
    i = next(i for i, e in enumerate(events) if e["type"] == "opponents")
    cards = events[i]["cards"]
    swapped = {**events[i], "cards": cards[5:] + cards[:5]}
    why = refused(profile, run(profile, events[:i]), swapped, E.NotAllowed)
    first = profile.cards[cards[5]]
    assert why == E.SETUP_OPPONENT_DECK.format(seat=1, name=first.name, card=first.id, first=1, last=5, division=3)


def test_the_objective_deck_is_the_eight_cards_listed_and_each_club_keeps_two_in_secret() -> None:
    """l.458 and l.466: only the listed cards; "Each player draws 2 Objective cards"."""
    profile, state = started()
    listed = set(profile.module_data[epic.NAME][epic.DATA_FILE].objectives)
    assert sorted(profile.cards[c].name for c in listed) == sorted(LISTED)
    seconds = state.slice(epic.NAME).second
    for c in state.clubs:
        second = state.slice(epic.NAME).second_of(c.seat)
        assert c.objective in listed and second in listed and second != c.objective
    # nobody else sees a club's second Objective: not the table, not another seat
    assert engine.view(profile, state, "table")["modules"][epic.NAME]["second"] == {}
    assert engine.view(profile, state, 2)["modules"][epic.NAME]["second"] == {"2": dict(seconds)[2]}
    events = setup_events(profile, [1], game=GAME)
    i = next(i for i, e in enumerate(events) if e["type"] == "objective")
    base = next(c for c in profile.cards_of("objective") if c.id not in listed)
    why = refused(profile, run(profile, events[:i]), {**events[i], "card": base.id}, E.NotAllowed)
    assert why.startswith(f"{base.name} ({base.id}) is not one of the Objective cards of the Epic League")
    # a club with one Objective card waits for its second
    partial = run(profile, events[:i + 1])
    assert {"seat": 1, "need": "card", "kinds": ["objective"], "what": "its second Objective card"} in partial.awaiting


def test_the_winter_break_comes_after_the_end_of_the_round_of_week_5_and_scores_the_objective_fulfilled() -> None:
    """l.477: "Each player gains VP for a fulfilled Objective. If they didn't fulfill an Objective, they must discard
    an Objective card of their choice." 3 VP, 6 perfectly (l.466)."""
    profile, state = started()
    state = at_break(profile, state)
    assert state.week == 5 and [a["need"] for a in state.awaiting] == ["winter_objective"] * 4
    one, two = club(state, 1), state.slice(epic.NAME).second_of(1)
    state = run(profile, [{"type": "winter_objective", "seat": 1, "card": two, "result": "perfect"}], state)
    assert club(state, 1).objective == one.objective  # the other one is for after the break
    other = state.slice(epic.NAME).second_of(2)
    state = run(profile, [{"type": "winter_objective", "seat": 2, "card": other, "result": "fulfilled"},
                          {"type": "winter_objective", "seat": 3, "card": club(state, 3).objective, "result": "missed"}], state)
    assert engine.view(profile, state, "table")["modules"][epic.NAME]["winter"][2] == {"seat": 3, "result": "missed"}
    scores = {r["seat"]: r["winter_objective"] for r in engine.final_scores(profile, state)}
    assert scores == {1: 6, 2: 3, 3: 0, 4: 0}
    # seat 3 discarded a card of its choice: the other is its Objective now, and which one stays secret
    assert club(state, 3).objective != state.slice(epic.NAME).winter[2][1]
    wrong = {"type": "winter_objective", "seat": 4, "card": one.objective, "result": "fulfilled"}
    assert refused(profile, state, wrong, E.NotAllowed).startswith(f"{profile.cards[one.objective].name} is not one of Seat 4's")


def _through_objectives(profile: Any, state: State) -> State:
    for seat in [c.seat for c in state.clubs]:
        state = run(profile, [{"type": "winter_objective", "seat": seat, "card": club(state, seat).objective, "result": "missed"}], state)
    return state


def test_season_maintenance_lowers_every_stat_then_the_transfer_window_pays_production_and_gives_three_rounds() -> None:
    """l.479: "Decrease all your Stat levels by 1 (if possible)"; l.481: "Each player gains according to their position
    on the Resource track. Beginning with the First player, each player may make a Transfer offer"; three times (l.534)."""
    profile, state = started()
    state = at_break(profile, state)
    state = set_club(state, 1, stats=(1, 3, 2, 6), res=(0, 0, 0, 0))
    state = _through_objectives(profile, state)
    one = club(state, 1)
    assert one.stats == (1, 2, 1, 5)
    board = profile.board
    assert one.res == tuple(board.produce(stat, level) for stat, level in zip(("budget", "fanbase", "operation", "fitness"), one.stats))
    first = state.first_seat
    assert state.turn == first and state.awaiting[0] == {"seat": first, "need": "action", "day": epic.STAGE,
                                                          "free_only": False, "round": 1}
    # only hiring, selling and passing: building waits for the next week
    build = {"type": "build", "seat": first, "kind": board.infrastructure[0].id}
    assert refused(profile, state, build, E.WrongStage)
    turns = []
    while state.stage == epic.STAGE and state.slice(epic.NAME).step == "transfer":
        turns.append((state.slice(epic.NAME).round, state.turn))
        state = run(profile, [{"type": "pass", "seat": state.turn}], state)
    order = [first + i - (4 if first + i > 4 else 0) for i in range(4)]
    assert turns == [(r, s) for r in (1, 2, 3) for s in order]
    assert state.slice(epic.NAME).step == "tokens"


def test_a_hire_in_the_transfer_window_ignores_staff_abilities() -> None:
    """l.537: "During this phase, ignore all Staff card effects"."""
    profile, state = started()
    state = _through_objectives(profile, at_break(profile, state))
    seat = state.turn
    held = {h.id for c in state.clubs for h in c.players}
    card = next(c for c in profile.cards_of("player") if c.id not in held)
    state = set_club(state, seat, res=(card.untrained.cost, 0, 0, 0))
    state = run(profile, [{"type": "hire_player", "seat": seat, "card": card.id}], state)
    assert club(state, seat).held(card.id) is not None and club(state, seat).res[0] == 0
    assert state.turn != seat  # one action a turn: the next club's turn


def _to_draft(profile: Any, state: State, points: dict[int, int]) -> State:
    for seat, p in points.items():
        state = set_club(state, seat, points=p)
    state = _through_objectives(profile, state)
    while state.slice(epic.NAME).step == "transfer":
        state = run(profile, [{"type": "pass", "seat": state.turn}], state)
    return state


def test_winter_training_drafts_from_most_points_then_fewest_then_most_and_discards_the_last_token() -> None:
    """l.543: "Beginning with the player with the most points on the League table, each player chooses 1 Winter Break
    token ... until there is 1 token left, which is discarded. Resolve this step again, beginning with the player who
    has the least points on the League table. Finally, resolve it a third time beginning with the player with the
    most points"."""
    profile, state = started()
    state = _to_draft(profile, at_break(profile, state), {1: 4, 2: 9, 3: 1, 4: 6})
    assert state.awaiting == ({"seat": None, "need": "winter_tokens", "count": 5, "round": 1,
                               "text": epic.WAIT_TOKENS.format(count=5, round=1)},)
    too_few = {"type": "winter_tokens", "tokens": ["strength", "attacker"]}
    assert refused(profile, state, too_few, E.NotAllowed) == epic.WRONG_COUNT.format(count=5, got=2)
    three = {"type": "winter_tokens", "tokens": ["strength", "strength", "strength", "attacker", "defender"]}
    assert "No Strength 3 token is left" in refused(profile, state, three, E.NotAllowed)
    orders = []
    reveals = [["strength", "strength", "attacker", "attacker", "defender"],
               ["any_section", "any_section", "cheaper", "cheaper", "tough"],
               ["first_goal", "first_goal", "swap_resource", "swap_resource", "jersey_1"]]
    for tokens in reveals:
        state = run(profile, [{"type": "winter_tokens", "tokens": tokens}], state)
        order = []
        while state.slice(epic.NAME).step == "draft":
            seat = state.awaiting[0]["seat"]
            order.append(seat)
            if len(order) == 1:
                assert refused(profile, state, {"type": "winter_pick", "seat": [s for s in (1, 2, 3, 4) if s != seat][0],
                                                "token": tokens[0]}, E.NotAllowed) == epic.NOT_YOUR_PICK.format(turn=seat)
            state = run(profile, [{"type": "winter_pick", "seat": seat, "token": state.awaiting[0]["tokens"][0]}], state)
        orders.append(order)
    assert orders == [[2, 4, 1, 3], [3, 1, 4, 2], [2, 4, 1, 3]]
    drafted = dict.fromkeys((1, 2, 3, 4), 0)
    for seat, _ in state.slice(epic.NAME).drafted:
        drafted[seat] += 1
    assert drafted == {1: 3, 2: 3, 3: 3, 4: 3}  # the fifth token of each round was discarded


def test_a_token_placed_changes_the_footballer_for_the_rest_of_the_game_one_a_card() -> None:
    """l.545: "Each player places Winter Break tokens on their Player cards. Each Player card may have a maximum of 1
    Winter Break token. They remain there until the end of the game"; the Strength and symbol tokens (l.551–554)."""
    profile, state = started()
    state = _to_draft(profile, at_break(profile, state), {1: 9, 2: 1, 3: 1, 4: 1})
    for tokens in (["strength", "attacker", "cheaper", "tough", "jersey_12"],
                   ["cheaper", "defender", "first_goal", "attacker", "jersey_1"],
                   ["any_section", "strength", "swap_resource", "swap_resource", "first_goal"]):
        state = run(profile, [{"type": "winter_tokens", "tokens": tokens}], state)
        while state.slice(epic.NAME).step == "draft":
            need = state.awaiting[0]
            state = run(profile, [{"type": "winter_pick", "seat": need["seat"], "token": need["tokens"][0]}], state)
    mine = [k for s, k in state.slice(epic.NAME).drafted if s == 1]
    assert mine == ["strength", "attacker", "any_section"]  # seat 1 picks first, last and first
    one = club(state, 1)
    state = set_club(state, 1, players=one.players + (Held("pl_01"),))
    vet = one.players[0].id
    state = run(profile, [{"type": "winter_place", "seat": 1, "token": "strength", "card": vet}], state)
    again = {"type": "winter_place", "seat": 1, "token": "attacker", "card": vet}
    assert refused(profile, state, again, E.NotAllowed) == epic.ONE_PER_CARD.format(card=profile.cards[vet].name)
    face = engine.view(profile, state)["clubs"][0]["players"]
    assert next(p for p in face if p["id"] == vet)["strength"] == 3
    young = one.players[1].id
    state = run(profile, [{"type": "winter_place", "seat": 1, "token": "attacker", "card": young},
                          {"type": "winter_place", "seat": 1, "token": "any_section", "card": "pl_01"}], state)
    face = {p["id"]: p for p in engine.view(profile, state)["clubs"][0]["players"]}
    assert face[young]["style"] == "attack" and face["pl_01"]["sections"] == ["def", "mid", "fwd"]


def test_the_final_scoring_uses_the_epic_league_vp_table_and_three_or_six_vp_an_objective() -> None:
    """l.549–556: 24, 20, 16, 13, 10, 7, 4, 1, 0, -3, -6 and "12+" -9; Objectives 3 VP, 6 perfectly."""
    profile, state = started()
    board = engine.host.rules_for(state.game).board(profile, state, None, profile.board)  # type: ignore[attr-defined]
    assert [board.position_vp(p) for p in range(1, 16)] == [24, 20, 16, 13, 10, 7, 4, 1, 0, -3, -6, -9, -9, -9, -9]
    assert (board.objective_vp, board.objective_vp + board.objective_perfect_vp) == (3, 6)
    final = advance_until(profile, state, lambda s: s.stage == "over")
    assert final.week == 10
    for row in engine.view(profile, final)["final"]:
        assert row["league"] == board.position_vp(row["position"])
        assert row["objective"] in (0, 3, 6) and "winter_objective" in row


def test_the_first_goal_token_puts_one_vp_on_the_card_at_his_first_goal_only() -> None:
    """l.553: "When this Player scores for the first time, place 1 VP on this card"."""
    from tests.engine.helpers import footballer, with_cards

    striker = footballer("pl_striker", 9, "attack", 9, ("fwd",))
    profile = with_cards(demo(), striker)
    state = run(profile, setup_events(profile, [1, 2], game=GAME))
    state = _to_draft(profile, at_break(profile, state), {1: 9, 2: 1})
    state = set_club(state, 1, players=club(state, 1).players + (Held("pl_striker"),))
    for tokens in (["first_goal", "cheaper", "tough"], ["strength", "defender", "jersey_1"], ["attacker", "strength", "cheaper"]):
        state = run(profile, [{"type": "winter_tokens", "tokens": tokens}], state)
        while state.slice(epic.NAME).step == "draft":
            need = state.awaiting[0]
            state = run(profile, [{"type": "winter_pick", "seat": need["seat"], "token": need["tokens"][0]}], state)
    state = run(profile, [{"type": "winter_place", "seat": 1, "token": "first_goal", "card": "pl_striker"}], state)
    state = advance_until(profile, state, lambda s: s.stage != epic.STAGE)
    for week in (6, 7):
        state = advance_until(profile, state, lambda s: any(a["need"] == "lineup" and a["seat"] == 1 for a in s.awaiting))
        lineup = engine.legal.auto_lineup(profile, club(state, 1), state)
        assert any(p["card"] == "pl_striker" and p["zone"].startswith("fwd") for p in lineup["players"])
        state = run(profile, [lineup, {"type": "kickoff", "seat": 1}], state)
        assert club(state, 1).mod("scored:pl_striker:round") >= 1  # Strength 9 scores against any Opponent
        assert club(state, 1).held("pl_striker").vp == 1  # one VP, at the first goal only
        state = advance_until(profile, state, lambda s: s.week == week + 1)
