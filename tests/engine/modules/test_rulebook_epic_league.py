"""The Epic League mode checked against its rulebook (003 l.436–556), case by case, with the numbers worked out by
hand from the lines quoted and the demo deck's printed values (board.toml: production per Stat level, sell price
5 €; epic_league.toml: the 16 Winter Break tokens and the VP table; players.toml: the cards used)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import errors as E
from engine.legal import setup_events
from engine.modules import epic_league as epic
from engine.state import Held, State, evolve

from tests.engine.helpers import advance_until, club, demo, footballer, refused, run, set_club, with_cards

GAME = {"type": "game", "modules": ["epic_league"], "revision": engine.REVISION}
# a footballer of this test: Strength 2 untrained, 4 trained, a midfielder
MID = footballer("pl_mid4", 7, "attack", 2, ("mid",), trained_strength=4)


def profile_() -> Any:
    return with_cards(demo(), MID)


def begun(profile: Any, seats: tuple[int, ...] = (1, 2, 3, 4), first: int = 1, revision: int = engine.REVISION) -> State:
    events = setup_events(profile, list(seats), game={**GAME, "revision": revision})
    assert events[-1]["type"] == "first_player"
    events[-1] = {"type": "first_player", "seat": first}
    return run(profile, events)


def at_break(profile: Any, state: State) -> State:
    return advance_until(profile, state, lambda s: s.stage == epic.STAGE)


def objectives_missed(profile: Any, state: State) -> State:
    for c in state.clubs:
        state = run(profile, [{"type": "winter_objective", "seat": c.seat, "card": c.objective, "result": "missed"}], state)
    return state


def window_passed(profile: Any, state: State) -> State:
    while state.slice(epic.NAME).step == "transfer":
        state = run(profile, [{"type": "pass", "seat": state.turn}], state)
    return state


def draft(profile: Any, state: State, tokens: list[str], picks: list[str]) -> tuple[State, list[int], list[Any]]:
    """Reveal the tokens, then the clubs pick in the order the engine asks for; the announcements made."""
    step = engine.apply(profile, state, {"type": "winter_tokens", "tokens": tokens})
    state, said, order = step.state, list(step.announcements), []
    for kind in picks:
        seat = state.awaiting[0]["seat"]
        order.append(seat)
        step = engine.apply(profile, state, {"type": "winter_pick", "seat": seat, "token": kind})
        state, said = step.state, said + list(step.announcements)
    return state, order, said


def kinds_said(said: list[Any], kind: str) -> list[Any]:
    return [a for a in said if a["kind"] == kind]


# ---------------------------------------------------------------------------------------------------------------
# Setup (l.446–460)


def test_twelve_teams_start_on_space_0_and_the_box_holds_sixteen_winter_break_tokens() -> None:
    """l.448: "Place all 12 Opponent Team markers on space 0 of the League table along with the player's Team
    markers"; l.450: "Place 16 Winter Break tokens next to the League table"; l.438: 10 Weeks."""
    profile = profile_()
    state = begun(profile)
    assert state.weeks == 10
    assert len(state.teams) == 12 and all(t.points == 0 for t in state.teams)
    assert all(c.points == 0 for c in state.clubs)
    supply = engine.view(profile, state, "table")["modules"][epic.NAME]["supply"]
    assert sum(supply.values()) == 16


# ---------------------------------------------------------------------------------------------------------------
# The Winter Break, step 1: Objectives (l.460, l.466) and the final scoring of the other (l.542)


def test_the_objective_fulfilled_before_the_break_scores_3_or_6_and_the_other_scores_the_same_at_the_end() -> None:
    """l.460: "1 of them must be fulfilled before the Winter Break and another 1 after the Winter Break. You gain 3
    for each fulfilled Objective and 6 for each perfectly fulfilled Objective"; l.466: "If they didn't fulfill an
    Objective, they must discard an Objective card of their choice"; l.542: "the Objective cards that provide 3 for
    fulfilling it or 6 for fulfilling it perfectly"."""
    profile = profile_()
    state = at_break(profile, begun(profile))
    second = {c.seat: state.slice(epic.NAME).second_of(c.seat) for c in state.clubs}
    first = {c.seat: c.objective for c in state.clubs}
    state = run(profile, [{"type": "winter_objective", "seat": 1, "card": second[1], "result": "fulfilled"},
                          {"type": "winter_objective", "seat": 2, "card": first[2], "result": "perfect"},
                          {"type": "winter_objective", "seat": 3, "card": second[3], "result": "missed"}], state)
    # the card not scored (or not discarded) is the club's Objective for after the break
    assert (club(state, 1).objective, club(state, 2).objective, club(state, 3).objective) == (first[1], second[2], first[3])
    # a card the club does not hold, a result the rule does not know, a second answer: refused, nothing changes
    foreign = {"type": "winter_objective", "seat": 4, "card": first[1], "result": "fulfilled"}
    assert refused(profile, state, foreign, E.NotAllowed).startswith(f"{profile.cards[first[1]].name} is not one of Seat 4's")
    refused(profile, state, {"type": "winter_objective", "seat": 4, "card": first[4], "result": "won"}, E.BadEvent)
    again = {"type": "winter_objective", "seat": 1, "card": first[1], "result": "perfect"}
    assert refused(profile, state, again, E.NotAllowed) == epic.ANSWERED.format(seat=1)
    state = run(profile, [{"type": "winter_objective", "seat": 4, "card": first[4], "result": "missed"}], state)
    assert state.slice(epic.NAME).step == "transfer"
    # at the end, the Objective kept is scored 3, 6 perfectly; the one of the break keeps its 3 or 6
    for seat, result in ((1, "fulfilled"), (2, "perfect"), (3, "missed"), (4, "perfect")):
        state = set_club(state, seat, objective_result=result)
    rows = {r["seat"]: r for r in engine.final_scores(profile, state)}
    assert {s: (r["winter_objective"], r["objective"]) for s, r in rows.items()} == {1: (3, 3), 2: (6, 6), 3: (0, 0), 4: (0, 6)}


# ---------------------------------------------------------------------------------------------------------------
# Step 2: Season Maintenance (l.467); step 3: the Transfer Window's Production (l.468)


def test_season_maintenance_lowers_each_stat_by_one_but_not_below_1_then_production_pays_the_lowered_levels() -> None:
    """l.467: "Decrease all your Stat levels by 1 (if possible)"; l.468: "Each player gains [resources] according to
    their position on the Resource track". Demo production at levels 1..6: Budget 1..6, Fanbase 1,2,2,3,3,4,
    Operation 1,1,2,2,3,3, Fitness 2..7."""
    profile = profile_()
    state = at_break(profile, begun(profile))
    state = set_club(state, 1, stats=(4, 2, 1, 6), res=(0, 0, 0, 0))
    state = set_club(state, 2, stats=(1, 1, 1, 1), res=(0, 0, 0, 0))
    state = objectives_missed(profile, state)
    # (4,2,1,6) -> (3,1,1,5): Budget 3, Fanbase 1, Operation 1, Fitness 6
    assert (club(state, 1).stats, club(state, 1).res) == ((3, 1, 1, 5), (3, 1, 1, 6))
    # every Stat at 1 stays at 1 and nothing is lost for it: Budget 1, Fanbase 1, Operation 1, Fitness 2
    assert (club(state, 2).stats, club(state, 2).res) == ((1, 1, 1, 1), (1, 1, 1, 2))


# ---------------------------------------------------------------------------------------------------------------
# Step 3: the Transfer Window's turns (l.468–510)


def _window(profile: Any, revision: int = engine.REVISION) -> State:
    state = at_break(profile, begun(profile, revision=revision))
    state = objectives_missed(profile, state)
    # "Beginning with the First player" (l.468): the Stage marker went 1, 2, 3, 4, 1 in weeks 1-5 and passed to
    # Seat 2 at the End of the round of week 5 (000 l.776), the club that begins week 6
    assert state.turn == state.first_seat == 2
    return state


def test_a_club_with_no_money_cannot_hire_but_may_sell_at_strength_plus_2_or_pass() -> None:
    """l.468: "They may offer to Hire or Sell Players to the other player(s), Sell them as usual, or pass"; l.472:
    "Sell them as usual and gain a number of [€] equal to their Strength plus 2"; l.508: "After a player finishes 1
    of these 3 actions, the next player begins"."""
    profile = profile_()
    state = _window(profile)
    held = {h.id for c in state.clubs for h in c.players}
    card = next(c for c in profile.cards_of("player") if c.id not in held and c.untrained.cost > 0)
    state = set_club(state, 2, res=(0, 0, 0, 0), players=club(state, 2).players + (Held(MID.id, trained=True),))
    why = refused(profile, state, {"type": "hire_player", "seat": 2, "card": card.id}, E.NotEnoughResources)
    assert why.startswith(f"Seat 2 cannot hire {card.name}: it costs")
    assert state.turn == 2
    # trained, Strength 4: 4 + 2 = 6 € (the board's usual 5 € is not the Window's price)
    state = run(profile, [{"type": "sell", "seat": 2, "card": MID.id}], state)
    assert club(state, 2).res == (6, 0, 0, 0) and club(state, 2).held(MID.id) is None
    assert state.turn == 3
    # an injured footballer brings half, rounded down: (4 + 2) // 2 = 3 €
    state = set_club(state, 3, res=(0, 0, 0, 0), players=club(state, 3).players + (Held(MID.id, trained=True, injury=1),))
    state = run(profile, [{"type": "sell", "seat": 3, "card": MID.id}], state)
    assert club(state, 3).res == (3, 0, 0, 0) and state.turn == 4
    # passing ends the turn with nothing gained
    before = club(state, 4).res
    state = run(profile, [{"type": "pass", "seat": 4}], state)
    assert club(state, 4).res == before and state.turn == 1


def test_a_game_begun_before_revision_3_keeps_the_board_price_in_the_window() -> None:
    """Revision 1–2 sold to the supply at the board's 5 € in the Transfer Window (engine/RULES.md "Revisions")."""
    profile = profile_()
    state = _window(profile, revision=2)
    state = set_club(state, 2, res=(0, 0, 0, 0), players=club(state, 2).players + (Held(MID.id, trained=True),))
    state = run(profile, [{"type": "sell", "seat": 2, "card": MID.id}], state)
    assert club(state, 2).res == (5, 0, 0, 0)


def test_the_window_hires_players_and_youngsters_but_no_staff() -> None:
    """l.468: "They may offer to Hire or Sell Players"; l.494: "Hire them from the Transfer Area as usual"; l.504:
    "When Hiring Youngsters, follow the same procedure"; l.510: "During this phase, ignore all Staff card effects"."""
    profile = profile_()
    state = _window(profile)
    staff = next(c for c in profile.cards_of("staff") if all(c.id not in {h.id for h in k.staff} for k in state.clubs))
    state = set_club(state, 2, res=(10, 0, 0, 0))
    why = refused(profile, state, {"type": "hire_staff", "seat": 2, "card": staff.id}, E.NotAllowed)
    assert why == epic.NO_STAFF.format(seat=2, name=staff.name)
    held = {h.id for c in state.clubs for h in c.players}
    young = next(c for c in profile.cards_of("youngster") if c.id not in held)
    state = run(profile, [{"type": "hire_youngster", "seat": 2, "card": young.id}], state)
    assert club(state, 2).held(young.id) is not None
    assert club(state, 2).res == (10 - young.untrained.cost, 0, 0, 0) and state.turn == 3


def test_a_game_begun_before_revision_3_may_still_hire_staff_in_the_window() -> None:
    profile = profile_()
    state = _window(profile, revision=2)
    staff = next(c for c in profile.cards_of("staff") if all(c.id not in {h.id for h in k.staff} for k in state.clubs))
    state = set_club(state, 2, res=(10, 0, 0, 0))
    state = run(profile, [{"type": "hire_staff", "seat": 2, "card": staff.id}], state)
    assert any(h.id == staff.id for h in club(state, 2).staff)


# ---------------------------------------------------------------------------------------------------------------
# Step 4: Winter Training (l.516–518)


@pytest.mark.parametrize("points, first, orders", [
    # most first: the 7s in turn order from Seat 4 (4 then 2), then the 3s (1 then 3); fewest first: 3s then 7s
    # (the game began with Seat 3 first: the Stage marker passed five times, to Seat 4, by the break)
    ({1: 3, 2: 7, 3: 3, 4: 7}, 3, [[4, 2, 1, 3], [1, 3, 4, 2], [4, 2, 1, 3]]),
    # all level: turn order from the First player (Seat 4) in every round
    ({1: 5, 2: 5, 3: 5, 4: 5}, 3, [[4, 1, 2, 3], [4, 1, 2, 3], [4, 1, 2, 3]]),
])
def test_winter_training_picks_from_most_fewest_most_points_ties_in_turn_order(points: dict[int, int], first: int,
                                                                            orders: list[list[int]]) -> None:
    """l.516: "Beginning with the player with the most points on the League table ... Resolve this step again,
    beginning with the player who has the least points ... a third time beginning with the player with the most
    points". Equal points: turn order from the First player (engine/RULES.md, "Epic League")."""
    profile = profile_()
    state = at_break(profile, begun(profile, first=first))
    for seat, p in points.items():
        state = set_club(state, seat, points=p)
    state = window_passed(profile, objectives_missed(profile, state))
    got = []
    for tokens in (["strength", "strength", "attacker", "attacker", "defender"],
                   ["any_section", "any_section", "cheaper", "cheaper", "tough"],
                   ["first_goal", "first_goal", "swap_resource", "swap_resource", "jersey_1"]):
        state, order, said = draft(profile, state, tokens, tokens[:4])
        got.append(order)
        # "until there is 1 token left, which is discarded"
        assert [a["token"] for a in kinds_said(said, "winter_discard")] == [tokens[4]]
    assert got == orders


def test_the_box_runs_out_of_a_kind_and_the_last_round_leaves_one_token_in_the_box() -> None:
    """l.516: "Reveal the number of Winter Break tokens equal to the number of players plus 1": 5 a round with four
    clubs, 15 of the 16 in three rounds; the demo box holds one Defender."""
    profile = profile_()
    state = window_passed(profile, objectives_missed(profile, at_break(profile, begun(profile))))
    four = {"type": "winter_tokens", "tokens": ["strength", "attacker", "cheaper", "tough"]}
    assert refused(profile, state, four, E.NotAllowed) == epic.WRONG_COUNT.format(count=5, got=4)
    unknown = {"type": "winter_tokens", "tokens": ["strength", "attacker", "cheaper", "tough", "wings"]}
    assert refused(profile, state, unknown, E.NotAllowed).startswith("There is no Winter Break token 'wings'")
    state, _, _ = draft(profile, state, ["defender", "attacker", "attacker", "cheaper", "tough"],
                        ["defender", "attacker", "attacker", "cheaper"])
    again = {"type": "winter_tokens", "tokens": ["defender", "strength", "strength", "cheaper", "jersey_1"]}
    assert refused(profile, state, again, E.NotAllowed).startswith("No Defender token is left to reveal")
    state, _, _ = draft(profile, state, ["strength", "strength", "any_section", "any_section", "jersey_1"],
                        ["strength", "strength", "any_section", "any_section"])
    state, _, _ = draft(profile, state, ["first_goal", "first_goal", "swap_resource", "swap_resource", "cheaper"],
                        ["first_goal", "first_goal", "swap_resource", "swap_resource"])
    supply = engine.view(profile, state, "table")["modules"][epic.NAME]["supply"]
    assert {k: n for k, n in supply.items() if n} == {"jersey_12": 1}
    assert state.slice(epic.NAME).step == "place"
    assert sorted(a["seat"] for a in state.awaiting) == [1, 2, 3, 4] and all(len(a["tokens"]) == 3 for a in state.awaiting)


def test_placing_tokens_one_a_card_never_versatile_on_a_goalkeeper_and_a_token_with_no_free_card_is_lost() -> None:
    """l.518: "Each player places Winter Break tokens on their Player cards. Each Player card may have a maximum of 1
    Winter Break token. They remain there until the end of the game"; l.526: "This cannot be played on a Goalkeeper
    card"; l.530: "A Player with this token has Strength equal to 3"; l.536: "This Player is now a [defender]"."""
    profile = profile_()
    state = at_break(profile, begun(profile, seats=(1, 2)))
    state = set_club(state, 1, points=9, players=(Held("pl_43"), Held(MID.id, trained=True)))  # pl_43: a Goalkeeper
    state = set_club(state, 2, points=2, players=(Held("pl_44"), Held("yg_03")))  # pl_44: a Goalkeeper
    state = window_passed(profile, objectives_missed(profile, state))
    # three a round with two clubs: 9 points picks first, last, first
    state, order, said = draft(profile, state, ["strength", "any_section", "tough"], ["strength", "any_section"])
    assert order == [1, 2]
    not_shown = {"type": "winter_pick", "seat": 2, "token": "strength"}
    state, order, _ = draft(profile, state, ["attacker", "defender", "cheaper"], ["defender", "attacker"])
    assert order == [2, 1]
    state, order, _ = draft(profile, state, ["first_goal", "jersey_1", "swap_resource"], ["first_goal", "jersey_1"])
    assert order == [1, 2]
    mine = state.slice(epic.NAME)
    assert sorted(k for s, k in mine.drafted if s == 1) == ["attacker", "first_goal", "strength"]
    assert sorted(k for s, k in mine.drafted if s == 2) == ["any_section", "defender", "jersey_1"]
    refused(profile, state, not_shown, E.NotAllowed)  # the draft is over
    # a token the club did not take; a card of another club; Versatile on a Goalkeeper
    assert refused(profile, state, {"type": "winter_place", "seat": 1, "token": "defender", "card": MID.id},
                   E.NotAllowed) == epic.NOT_DRAFTED.format(seat=1, name="Defender")
    assert refused(profile, state, {"type": "winter_place", "seat": 2, "token": "any_section", "card": MID.id},
                   E.NotAllowed) == epic.NOT_A_PLAYER.format(seat=2, card=MID.name)
    assert refused(profile, state, {"type": "winter_place", "seat": 2, "token": "any_section", "card": "pl_44"},
                   E.NotAllowed) == epic.NO_KEEPER.format(name="Versatile", card=profile.cards["pl_44"].name)
    # Strength 3 on a trained Strength 4: he is Strength 3 now (equal to 3, not + 3)
    state = run(profile, [{"type": "winter_place", "seat": 1, "token": "strength", "card": MID.id}], state)
    assert refused(profile, state, {"type": "winter_place", "seat": 1, "token": "attacker", "card": MID.id},
                   E.NotAllowed) == epic.ONE_PER_CARD.format(card=MID.name)
    face = {p["id"]: p for p in engine.view(profile, state)["clubs"][0]["players"]}
    assert face[MID.id]["strength"] == 3
    # the last free card of Seat 1: its third token has no card left and is discarded
    step = engine.apply(profile, state, {"type": "winter_place", "seat": 1, "token": "attacker", "card": "pl_43"})
    state = step.state
    lost = kinds_said(list(step.announcements), "winter_discard")
    assert [(a["seat"], a["token"]) for a in lost] == [(1, "first_goal")]
    assert not any(s == 1 for s, _ in state.slice(epic.NAME).drafted)
    assert state.stage == epic.STAGE  # Seat 2 still places
    state = run(profile, [{"type": "winter_place", "seat": 2, "token": "defender", "card": "pl_44"}], state)
    step = engine.apply(profile, state, {"type": "winter_place", "seat": 2, "token": "any_section", "card": "yg_03"})
    said = [(a["kind"], a["seat"], a.get("token")) for a in step.announcements]
    assert said.index(("winter_discard", 2, "jersey_1")) + 1 == said.index(("winter_over", None, None))
    state = step.state
    face = {p["id"]: p for p in engine.view(profile, state)["clubs"][1]["players"]}
    assert face["pl_44"]["style"] == "defence" and face["yg_03"]["sections"] == ["def", "mid", "fwd"]
    # "They remain there until the end of the game": week 6 plays the Division above with the tokens on
    state = advance_until(profile, state, lambda s: s.week == 6)
    one = club(state, 1)
    assert engine.week_opponent(state, one, 6) == one.opponents[5]
    assert 2 in set(profile.cards[one.opponents[5]].divisions or (profile.cards[one.opponents[5]].division,))
    face = {p["id"]: p for p in engine.view(profile, state)["clubs"][0]["players"]}
    assert face[MID.id]["strength"] == 3


def test_with_transferring_players_a_window_sale_is_priced_once() -> None:
    """l.472 is also the Transferring Players module's own price (003 l.23): played together, a sale to the supply
    in the Window still brings Strength + 2 = 6 € for a Strength 4, not more."""
    profile = profile_()
    events = setup_events(profile, [1, 2], game={**GAME, "modules": ["epic_league", "transfers"]})
    state = objectives_missed(profile, at_break(profile, run(profile, events)))
    seat = state.turn
    state = set_club(state, seat, res=(0, 0, 0, 0), players=club(state, seat).players + (Held(MID.id, trained=True),))
    state = run(profile, [{"type": "sell", "seat": seat, "card": MID.id}], state)
    assert club(state, seat).res == (6, 0, 0, 0)


def _placing(profile: Any, revision: int = engine.REVISION) -> State:
    """Two clubs at the placing of Winter Training: Seat 1 drafted Strength 3, Attacker and First goal."""
    state = at_break(profile, begun(profile, seats=(1, 2), revision=revision))
    state = set_club(set_club(state, 1, points=9), 2, points=2)
    state = window_passed(profile, objectives_missed(profile, state))
    state, _, _ = draft(profile, state, ["strength", "any_section", "tough"], ["strength", "any_section"])
    state, _, _ = draft(profile, state, ["attacker", "defender", "cheaper"], ["defender", "attacker"])
    state, _, _ = draft(profile, state, ["first_goal", "jersey_1", "swap_resource"], ["first_goal", "jersey_1"])
    return state


@pytest.mark.parametrize("token", ["strength", "any_section"])
def test_a_winter_break_token_goes_on_a_player_card_never_on_a_staff_card(token: str) -> None:
    """l.518: "Each player places Winter Break tokens on their Player cards"."""
    profile = profile_()
    state = _placing(profile)
    seat = 1 if token == "strength" else 2  # Seat 2 drafted Versatile
    staff = club(state, seat).staff[0].id
    event = {"type": "winter_place", "seat": seat, "token": token, "card": staff}
    assert refused(profile, state, event, E.NotAllowed) == epic.NOT_A_PLAYER.format(seat=seat, card=profile.cards[staff].name)


def test_a_game_begun_before_revision_3_keeps_a_token_placed_on_a_staff_card() -> None:
    profile = profile_()
    state = _placing(profile, revision=2)
    staff = club(state, 1).staff[0].id
    state = run(profile, [{"type": "winter_place", "seat": 1, "token": "strength", "card": staff}], state)
    assert state.slice(epic.NAME).token_on(1, staff) == "strength"


def test_a_box_of_too_few_winter_break_tokens_refuses_the_club_it_cannot_serve() -> None:
    """l.516: three rounds of "the number of players plus 1" tokens: a box of 8 serves one club (3 x 2 = 6), not
    two (3 x 3 = 9), so the second club is refused at setup rather than the Winter Break waiting forever."""
    from dataclasses import replace

    base = profile_()
    ext = base.module_data[epic.NAME][epic.DATA_FILE]
    small = ext._replace(tokens=tuple(t._replace(count=1) for t in ext.tokens[:8]))
    profile = replace(base, module_data={**base.module_data, epic.NAME: {**base.module_data[epic.NAME], epic.DATA_FILE: small}})
    events = setup_events(profile, [1, 2], game=GAME)
    i = [n for n, e in enumerate(events) if e["type"] == "club"][1]
    why = refused(profile, run(profile, events[:i]), events[i], E.NotAllowed)
    assert why == epic.SHORT_BOX.format(clubs=2, need=9, profile=profile.name, have=8, most=1)
    # a game begun before revision 3 let the second club join
    old = setup_events(profile, [1, 2], game={**GAME, "revision": 2})
    assert len(run(profile, old[:i + 1]).clubs) == 2


def test_strength_3_replaces_the_printed_strength_and_the_strength_tokens_still_add() -> None:
    """l.530: "A Player with this token has Strength equal to 3": the printed Strength (trained 4 here) becomes 3; a
    +1 Strength token on the card still counts (engine/RULES.md, "Epic League"): 3 + 1 = 4."""
    profile = profile_()
    state = _placing(profile)
    players = tuple(h for h in club(state, 1).players if h.id != MID.id) + (Held(MID.id, trained=True, strength_perm=1),)
    state = set_club(state, 1, players=players)
    face = {p["id"]: p for p in engine.view(profile, state)["clubs"][0]["players"]}
    assert face[MID.id]["strength"] == 5
    state = run(profile, [{"type": "winter_place", "seat": 1, "token": "strength", "card": MID.id}], state)
    face = {p["id"]: p for p in engine.view(profile, state)["clubs"][0]["players"]}
    assert face[MID.id]["strength"] == 4


def test_the_tokens_revealed_out_of_their_moment_are_refused_in_the_tables_words() -> None:
    """l.514–516: the tokens are revealed at Winter Training, after the Transfer Window; the table is told so."""
    profile = profile_()
    state = begun(profile)
    tokens = {"type": "winter_tokens", "tokens": ["strength", "attacker", "cheaper", "tough", "jersey_12"]}
    assert refused(profile, state, tokens, E.NotAllowed) == epic.TABLE_NOT_NOW.format(what="reveal Winter Break tokens",
                                                                                     why=epic.NOT_IN_BREAK)
    state = objectives_missed(profile, at_break(profile, state))
    why = refused(profile, state, tokens, E.NotAllowed)
    assert why == "The table cannot reveal Winter Break tokens now: the Winter Break is at the Transfer Window (round 1 of 3)."


def test_a_winter_break_token_moves_with_its_card_to_the_club_that_hires_it() -> None:
    """l.504: "Remember that all tokens remain on cards Sold to other players"; l.518: the Winter Break tokens
    "remain there until the end of the game". With Transferring Players, Seat 2 hires Seat 1's Strength 3
    footballer in week 6: he is Strength 3 for Seat 2 (his printed trained Strength is 4)."""
    profile = profile_()
    events = setup_events(profile, [1, 2], game={**GAME, "modules": ["epic_league", "transfers"]})
    state = at_break(profile, run(profile, events))
    state = set_club(set_club(state, 1, points=9, players=club(state, 1).players + (Held(MID.id, trained=True),)), 2, points=2)
    state = window_passed(profile, objectives_missed(profile, state))
    state, _, _ = draft(profile, state, ["strength", "any_section", "tough"], ["strength", "any_section"])
    state, _, _ = draft(profile, state, ["attacker", "defender", "cheaper"], ["defender", "attacker"])
    state, _, _ = draft(profile, state, ["first_goal", "jersey_1", "swap_resource"], ["first_goal", "jersey_1"])
    state = run(profile, [{"type": "winter_place", "seat": 1, "token": "strength", "card": MID.id}], state)
    state = advance_until(profile, state, lambda s: s.stage == "tuesday" and s.turn == 2)
    state = set_club(state, 2, res=(9, 0, 0, 0))
    state = run(profile, [{"type": "offer", "seat": 2, "card": MID.id, "amount": 4}, {"type": "accept_offer", "seat": 1}], state)
    assert club(state, 2).held(MID.id) is not None
    face = {p["id"]: p for p in engine.view(profile, state)["clubs"][1]["players"]}
    assert face[MID.id]["strength"] == 3
    assert state.slice(epic.NAME).token_on(2, MID.id) == "strength" and state.slice(epic.NAME).token_on(1, MID.id) is None
