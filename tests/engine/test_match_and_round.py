"""Matchday (lineups, Stands, Tactics, the result, consequences, the League), End of the round and Final scoring."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import errors as E
from engine.cards import Condition, Effect, Tactic
from engine.legal import auto_lineup
from engine.state import Held, State, evolve
from engine.views import final_scores, league_positions

from tests.engine.helpers import at_stage, club, demo, footballer, opponent, refused, run, set_club, tuesday, with_cards

STRONG = footballer("pl_t_big", 9, "attack", 4, ("fwd",))
WALL = footballer("pl_t_wall", 4, "defence", 4, ("def",))
EMPTY = opponent("opp_t_empty", "downtown", {})
KEEPERS = opponent("opp_t_keepers", "steelchester", {"def_centre": "D3 D3 D3", "fwd_centre": "A5", "mid_centre": "D2 D2", "mid_left": "D2"})
TACTIC = Tactic(id="tac_t_press", kind="tactic", name="Test Press", effects=(Effect.of("opponent_strength", amount=-1),))


def plain(zone: str, jersey: int | None, style: str = "defence") -> dict[str, Any]:
    """A jersey marker without a card."""
    return {"zone": zone, "jersey": jersey, "card": None, "style": style}


BASIC = [
    plain("def_left", 2), plain("def_centre", 3), plain("def_centre", 4), plain("def_right", 5),
    plain("mid_left", 6), plain("mid_centre", 7, "attack"), plain("mid_centre", 8, "attack"), plain("mid_right", 9, "attack"),
    plain("fwd_centre", 10, "attack"), plain("fwd_centre", 11, "attack"),
]


def matchday(seats=(1, 2), opponents: tuple[str, ...] = (), profile=None) -> tuple[Any, State]:
    """A game on the first Matchday; the clubs get the Opponent cards named (one per seat) for week 1."""
    profile = profile or with_cards(demo(), STRONG, WALL, EMPTY, KEEPERS, TACTIC)
    profile, state = tuesday(seats=seats, profile=profile)
    state = at_stage(profile, state, "matchday")
    for seat, opp in zip(seats, opponents):
        state = set_club(state, seat, opponents=(opp,) + club(state, seat).opponents[1:])
    # the hand-made lineups below place every plain jersey marker as they like (half attack, half defence, as at
    # the setup): none has been seen yet
    for c in state.clubs:
        state = set_club(state, c.seat, markers=(), markers_setup=())
    return profile, state


def lineup(seat: int, players: list[dict[str, Any]], stands: int = 0) -> dict[str, Any]:
    return {"type": "lineup", "seat": seat, "players": players, "stands": stands}


# --- Lineups ---------------------------------------------------------------------------------------------------


def test_a_lineup_needs_exactly_ten_jerseys() -> None:
    profile, state = matchday()
    assert "exactly 10 jersey markers" in refused(profile, state, lineup(1, BASIC[:9]), E.NotAllowed)


def test_no_two_jerseys_with_the_same_number() -> None:
    profile, state = matchday()
    twice = BASIC[:9] + [plain("fwd_centre", 10, "attack")]
    refused(profile, state, lineup(1, twice), E.NotAllowed, "Jersey number 10 is used twice")


def test_wings_hold_one_centres_three_and_at_most_three_forwards() -> None:
    profile, state = matchday()
    wing = BASIC[:4] + [plain("mid_left", 6), plain("mid_left", None)] + BASIC[6:]
    refused(profile, state, lineup(1, wing), E.NotAllowed, "The Midfielders' left wing holds at most 1")
    crowded = [plain("def_centre", n) for n in (2, 3, 4, 5)] + BASIC[4:]
    refused(profile, state, lineup(1, crowded), E.NotAllowed, "The Defenders' central zone holds at most 3")
    forwards = BASIC[:6] + [plain("fwd_left", 9, "attack"), plain("fwd_right", 8, "attack")] + BASIC[8:]
    refused(profile, state, lineup(1, forwards), E.NotAllowed, "At most 3 jersey markers may stand among the Forwards")


def test_a_card_plays_only_in_its_section_with_its_number_and_costs_one_fitness() -> None:
    profile, state = matchday()
    state = set_club(state, 1, players=club(state, 1).players + (Held(STRONG.id),), res=(0, 0, 0, 1))
    wrong = BASIC[:9] + [{"zone": "def_left", "jersey": 9, "card": STRONG.id}]
    wrong[0] = plain("mid_left", 2)
    refused(profile, state, lineup(1, [p for p in BASIC if p["jersey"] != 9][:8] + [{"zone": "mid_centre", "jersey": 9, "card": STRONG.id}, plain("def_left", None)]), E.NotAllowed, "cannot play on the Midfielders' central zone")
    good = [p for p in BASIC if p["jersey"] not in (9, 11)] + [{"zone": "fwd_centre", "jersey": 9, "card": STRONG.id}, plain("mid_right", 11, "attack")]
    after = engine.apply(profile, state, lineup(1, good)).state
    assert club(after, 1).res[3] == 0
    broke = set_club(state, 1, res=(0, 0, 0, 0))
    refused(profile, broke, lineup(1, good), E.NotEnoughResources, "Fitness")


def test_an_injured_footballer_cannot_play_and_neither_can_his_number_alone() -> None:
    profile, state = matchday()
    state = set_club(state, 1, players=club(state, 1).players + (Held(STRONG.id, injury=2),), res=(0, 0, 0, 5))
    with_card = [p for p in BASIC if p["jersey"] != 9] + [{"zone": "fwd_left", "jersey": 9, "card": STRONG.id}]
    refused(profile, state, lineup(1, with_card), E.NotAllowed, "injured or suspended")
    refused(profile, state, lineup(1, BASIC), E.NotAllowed, "Number 9")
    blank = [p for p in BASIC if p["jersey"] != 9] + [plain("mid_right", None, "attack")]
    engine.apply(profile, state, lineup(1, blank))


def test_one_tactic_per_match_and_it_weakens_the_opponent() -> None:
    profile, state = matchday(opponents=(KEEPERS.id, KEEPERS.id))
    state = set_club(state, 1, tactics=(TACTIC.id,) + club(state, 1).tactics)
    state = run(profile, [lineup(1, BASIC), {"type": "tactic_played", "seat": 1, "card": TACTIC.id}], state)
    refused(profile, state, {"type": "tactic_played", "seat": 1, "card": club(state, 1).tactics[1]}, E.NotAllowed, "already played a Tactic")
    step = engine.apply(profile, state, {"type": "kickoff", "seat": 1})
    result = next(a for a in step.announcements if a["kind"] == "result")
    fwd = next(z for z in result["zones"] if z["zone"] == "fwd_centre")
    assert fwd["their_defence"] == [2, 2, 2]  # D3 D3 D3 with -1
    assert club(step.state, 1).tactics[0] == TACTIC.id  # the Tactic returns to the club


def test_goals_scored_before_the_match_count_in_the_result() -> None:
    own_goal = Tactic(id="tac_t_own", kind="tactic", name="Test Own goal", effects=(Effect.of("score", side="opponent", goals=1),))
    goal = Tactic(id="tac_t_goal", kind="tactic", name="Test Early goal", effects=(Effect.of("score", side="us", goals=2),))
    profile, state = matchday(seats=(1, 2), opponents=(EMPTY.id, EMPTY.id), profile=with_cards(demo(), STRONG, WALL, EMPTY, KEEPERS, TACTIC, own_goal, goal))
    for seat, tactic, scored, conceded in ((1, goal, 2, 0), (2, own_goal, 0, 1)):
        state = set_club(state, seat, tactics=(tactic.id,), res=(0, 0, 0, 0))
        state = run(profile, [lineup(seat, BASIC), {"type": "tactic_played", "seat": seat, "card": tactic.id}], state)
        result = next(a for a in engine.apply(profile, state, {"type": "kickoff", "seat": seat}).announcements if a["kind"] == "result")
        attackers = sum(1 for p in BASIC if p["style"] == "attack")  # nobody on the empty Opponent card blocks them
        assert (result["goals"], result["conceded"]) == (scored + attackers, conceded)


# --- Result, League, consequences ------------------------------------------------------------------------------


def test_win_three_draw_one_loss_zero_for_club_and_opponent() -> None:
    profile, state = matchday(seats=(1, 2), opponents=(EMPTY.id, KEEPERS.id))
    state = run(profile, [lineup(1, BASIC), lineup(2, BASIC), {"type": "kickoff", "seat": 1}, {"type": "kickoff", "seat": 2}], state)
    assert club(state, 1).result == "win" and club(state, 1).points == 3
    assert club(state, 2).result == "loss" and club(state, 2).points == 0
    assert state.team("steelchester").points == 3 and state.team("downtown").points == 0


def test_an_opponent_played_by_two_clubs_flips_inactive_then_flips_back_instead_of_rolling() -> None:
    profile, state = matchday(seats=(1, 2), opponents=(EMPTY.id, "opp_downtown_2"))
    state = run(profile, [lineup(1, BASIC), lineup(2, BASIC), {"type": "kickoff", "seat": 1}, {"type": "kickoff", "seat": 2},
                          {"type": "roll", "seat": 1, "value": 3}, {"type": "roll", "seat": 2, "value": 3}], state)
    while state.awaiting and state.awaiting[0]["need"] != "roll" or (state.awaiting and state.awaiting[0]["purpose"] != "opponent_die"):
        need = state.awaiting[0]
        state = engine.apply(profile, state, {"type": "keep", "seat": need["seat"]} if need["need"] == "keep_or_reroll" else {"type": "roll", "seat": need["seat"], "value": 5}).state
    assert state.team("downtown").inactive
    dice = [a for a in state.awaiting if a.get("purpose") == "opponent_die"]
    assert {a["team"] for a in dice} == {t.id for t in profile.board.teams} - {"downtown"}
    assert all(a["rerollable"] is False and a["seat"] is None for a in dice)
    # an Opponent die is never held for a reroll: it moves its team at once
    first = dice[0]
    step = engine.apply(profile, state, {"type": "roll", "seat": None, "team": first["team"], "value": 1})
    die = profile.board.team(first["team"]).die
    assert step.state.team(first["team"]).points == profile.board.opponent_move(die, 1)
    refused(profile, step.state, {"type": "reroll", "seat": 1, "value": 2}, E.NotAllowed)
    state = step.state
    for a in dice[1:]:
        state = engine.apply(profile, state, {"type": "roll", "seat": None, "team": a["team"], "value": 6}).state
    assert state.stage in ("monday", "end_of_round")
    # next week nobody plays Downtown: it flips back instead of rolling
    state = set_club(state, 1, opponents=club(state, 1).opponents[:1] + ("opp_steelchester_1",) + club(state, 1).opponents[2:])
    state = set_club(state, 2, opponents=club(state, 2).opponents[:1] + ("opp_steelchester_2",) + club(state, 2).opponents[2:])
    state = at_stage(profile, state, "results")
    assert not state.team("downtown").inactive
    assert "downtown" not in {a.get("team") for a in state.awaiting}


def test_temporary_strength_goes_after_the_match_and_permanent_stays() -> None:
    profile, state = matchday(opponents=(EMPTY.id, EMPTY.id))
    state = set_club(state, 1, players=club(state, 1).players + (Held(STRONG.id, strength_temp=2, strength_perm=1),), res=(0, 0, 0, 1))
    good = [p for p in BASIC if p["jersey"] not in (9, 11)] + [{"zone": "fwd_centre", "jersey": 9, "card": STRONG.id}, plain("mid_right", 11, "attack")]
    state = run(profile, [lineup(1, good), {"type": "kickoff", "seat": 1}], state)
    held = club(state, 1).held(STRONG.id)
    assert (held.strength_temp, held.strength_perm) == (0, 1)


def test_match_consequence_injury_rolls_a_d10_for_the_number_hit() -> None:
    profile, state = matchday(opponents=(EMPTY.id, EMPTY.id))
    injury_face = next(i + 1 for i, effects in enumerate(profile.board.consequence("win", f) for f in range(1, 7))
                       if any(e.op == "injure" for e in effects))
    vet = club(state, 1).players[0]
    number = profile.cards[vet.id].untrained.jersey
    state = set_club(state, 1, res=(0, 0, 0, 0))
    state = run(profile, [lineup(1, BASIC), {"type": "kickoff", "seat": 1}, {"type": "roll", "seat": 1, "value": injury_face}], state)
    assert state.awaiting[0] == {"seat": 1, "need": "roll", "die": "d10", "purpose": "injury", "rerollable": True}
    face = profile.board.pitch.jerseys.index(number) + 1  # the d10's faces name the numbered markers in order
    hit = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": face}).state
    assert club(hit, 1).held(vet.id).injury >= 1
    miss = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 1}).state
    assert all(h.injury == 0 for h in club(miss, 1).players)
    refused(profile, state, {"type": "roll", "seat": 1, "value": 11}, E.NotAllowed, "A d10 shows 1 to 10")


def _to_end_of_round(profile, state) -> State:
    return at_stage(profile, state, "results")


def test_maintenance_is_paid_and_each_missing_euro_puts_two_suspension_tokens_on_a_chosen_card() -> None:
    profile, state = matchday(seats=(1,), opponents=(EMPTY.id,))
    extra = tuple(Held(p.id) for p in profile.cards_of("player")[:10])
    state = set_club(state, 1, players=club(state, 1).players + extra)
    state = _to_end_of_round(profile, state)
    due = profile.board.maintenance_due("players", 12) + profile.board.maintenance_due("staff", 1)
    state = set_club(state, 1, res=(1, 3, 3, 3))
    state = at_stage(profile, state, "end_of_round")
    assert due > 1
    need = state.awaiting[0]
    assert need == {"seat": 1, "need": "suspensions", "count": due - 1}
    c = club(state, 1)
    assert c.res == (0, 1, 1, 1)  # all € paid; at most one Fanbase, Operation and Fitness kept
    refused(profile, state, {"type": "suspensions", "seat": 1, "cards": []}, E.NotAllowed, f"must name {due - 1}")
    target = c.players[0].id
    after = engine.apply(profile, state, {"type": "suspensions", "seat": 1, "cards": [target] * (due - 1)}).state
    assert club(after, 1).held(target).suspension == 2 * (due - 1)
    assert after.stage == "monday" and after.week == 2


def test_the_end_of_the_round_discards_resources_on_cards_and_unexhausts() -> None:
    profile, state = matchday(seats=(1,), opponents=(EMPTY.id,))
    state = set_club(state, 1, players=tuple(evolve(h, assigned=(0, 0, 0, 2), exhausted=True) for h in club(state, 1).players),
                     exhausted=club(state, 1).directors[:1])
    state = at_stage(profile, state, "monday")
    c = club(state, 1)
    assert all(h.assigned == (0, 0, 0, 0) and not h.exhausted for h in c.players) and c.exhausted == ()


def test_after_the_last_opponent_the_game_goes_to_final_scoring_without_maintenance() -> None:
    profile, state = matchday(seats=(1, 2), opponents=(EMPTY.id, EMPTY.id))
    state = evolve(state, weeks=1)
    state = set_club(state, 1, opponents=club(state, 1).opponents[:1])
    state = set_club(state, 2, opponents=club(state, 2).opponents[:1])
    budgets = {c.seat: c.res[0] for c in state.clubs}
    state = at_stage(profile, state, "over")
    assert all(c.objective_result is not None for c in state.clubs)
    rows = engine.view(profile, state)["final"]
    assert {r["seat"] for r in rows} == {1, 2}
    refused(profile, state, {"type": "pass", "seat": 1}, E.WrongStage, "The game is over")
    assert budgets  # Maintenance was not paid: budgets only grew through the match
    for c in state.clubs:
        assert c.res[0] >= budgets[c.seat]


# --- Final scoring ---------------------------------------------------------------------------------------------


def _final(profile, **per_seat: dict[str, Any]) -> State:
    profile, state = tuesday(seats=(1, 2, 3), profile=profile)
    for seat, changes in per_seat.items():
        state = set_club(state, int(seat[1:]), **changes)
    return evolve(state, teams=tuple(evolve(t, points=0) for t in state.teams))


def test_shared_league_positions_score_alike() -> None:
    profile = demo()
    state = _final(profile, s1={"points": 9}, s2={"points": 9}, s3={"points": 3})
    pos = league_positions(state)
    assert (pos["seat:1"], pos["seat:2"], pos["seat:3"]) == (1, 1, 3)
    rows = {r["seat"]: r for r in final_scores(profile, state)}
    assert rows[1]["league"] == rows[2]["league"] == profile.board.position_vp(1)
    assert rows[3]["league"] == profile.board.position_vp(3)


def test_a_footballer_card_with_vp_tokens_is_worth_one_vp() -> None:
    profile = demo()
    state = _final(profile)
    players = tuple(evolve(h, vp=3) for h in club(state, 1).players)
    state = set_club(state, 1, players=players, vp_tokens=2)
    rows = {r["seat"]: r for r in final_scores(profile, state)}
    assert rows[1]["vp_tokens"] == 2 + len(players)


def test_three_euros_make_one_vp_and_ties_go_to_the_higher_league_position_then_are_shared() -> None:
    profile = demo()
    state = _final(profile, s1={"points": 3, "res": (8, 0, 0, 0)}, s2={"points": 6, "res": (8, 0, 0, 0)}, s3={"points": 0, "res": (0, 0, 0, 0)})
    rows = {r["seat"]: r for r in final_scores(profile, state)}
    assert rows[1]["budget"] == 8 // 3
    # give seat 1 exactly the League VP difference back as VP tokens: equal totals, seat 2 is higher in the League
    diff = rows[2]["total"] - rows[1]["total"]
    state = set_club(state, 1, vp_tokens=club(state, 1).vp_tokens + diff)
    rows = {r["seat"]: r for r in final_scores(profile, state)}
    assert rows[1]["total"] == rows[2]["total"]
    assert rows[2]["winner"] and not rows[1]["winner"]
    # on equal League points (a shared position) and equal totals, the victory is shared
    state = set_club(state, 1, points=6)
    rows = {r["seat"]: r for r in final_scores(profile, state)}
    gap = rows[2]["total"] - rows[1]["total"]
    behind = 1 if gap > 0 else 2
    state = set_club(state, behind, vp_tokens=club(state, behind).vp_tokens + abs(gap))
    rows = {r["seat"]: r for r in final_scores(profile, state)}
    assert rows[1]["position"] == rows[2]["position"]
    assert rows[1]["total"] == rows[2]["total"] and rows[1]["winner"] and rows[2]["winner"]


@pytest.mark.parametrize("result,vp", [("missed", 0), ("fulfilled", 2), ("perfect", 4)])
def test_objectives_score_two_and_two_more_when_perfect(result: str, vp: int) -> None:
    profile = demo()
    state = _final(profile, s1={"objective_result": result})
    rows = {r["seat"]: r for r in final_scores(profile, state)}
    assert rows[1]["objective"] == vp


def test_auto_lineup_is_always_legal_for_a_fresh_club() -> None:
    profile, state = matchday()
    engine.apply(profile, state, auto_lineup(profile, club(state, 1)))


def test_a_die_condition_in_the_match_consequence_table_asks_for_its_roll_and_applies() -> None:
    """A board whose win row 3 reads "roll a d6: on 5 or more, gain 2 €" (an owner's own table)."""
    from dataclasses import replace

    gamble = (Effect.of("gain", resource="budget", amount=2, when=(Condition.of("roll", die="d6", at_least=5),)),)
    base = with_cards(demo(), STRONG, WALL, EMPTY, KEEPERS, TACTIC)
    rows = dict(base.board.match_consequences)
    rows["win"] = tuple(gamble if i == 2 else r for i, r in enumerate(rows["win"]))
    profile = replace(base, board=replace(base.board, match_consequences=tuple(rows.items())))
    profile, state = matchday(seats=(1,), opponents=(EMPTY.id,), profile=profile)
    state = set_club(state, 1, res=(0, 0, 0, 0))
    state = run(profile, [lineup(1, BASIC), {"type": "kickoff", "seat": 1}, {"type": "roll", "seat": 1, "value": 3}], state)
    assert state.awaiting[0] == {"seat": 1, "need": "roll", "die": "d6", "purpose": "effect", "rerollable": True,
                                 "card": None, "table": "match_consequence"}
    assert club(engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 5}).state, 1).res[0] == 2
    missed = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 4})
    assert club(missed.state, 1).res[0] == 0 and [a["kind"] for a in missed.announcements][:2] == ["roll", "no_effect"]


def test_jersey_marker_sides_follow_the_starting_cards_hires_and_lineups_and_the_auto_lineup_keeps_them() -> None:
    profile, state = tuesday(seats=(1,))
    vet = profile.cards[club(state, 1).players[0].id].untrained
    assert engine.view(profile, state)["clubs"][0]["markers"][str(vet.jersey)] == vet.style
    profile, state = matchday(seats=(1,), opponents=(EMPTY.id,))
    state = set_club(state, 1, res=(0, 0, 0, 0), players=())
    after = engine.apply(profile, state, lineup(1, BASIC)).state
    assert club(after, 1).markers == tuple(sorted((p["jersey"], p["style"]) for p in BASIC))
    again = auto_lineup(profile, evolve(club(after, 1), lineup=None))
    assert {p["jersey"]: p["style"] for p in again["players"] if p["jersey"]} == {p["jersey"]: p["style"] for p in BASIC}


def _next_match(state: State, seat: int, **changes: Any) -> State:
    """The same club before its next lineup (the markers stay as they lie)."""
    return set_club(state, seat, lineup=None, result=None, **changes)


def _without_style(players: list[dict[str, Any]], jersey: int) -> list[dict[str, Any]]:
    """The lineup with no side given for one plain jersey marker."""
    return [{k: v for k, v in p.items() if not (p["jersey"] == jersey and k == "style")} for p in players]


def test_a_plain_jersey_marker_cannot_be_flipped_and_omitting_its_style_places_it_as_it_shows() -> None:
    profile, state = matchday(seats=(1,), opponents=(EMPTY.id,))
    state = set_club(state, 1, res=(0, 0, 0, 0), players=(), markers=((7, "attack"),))
    flipped = [p if p["jersey"] != 7 else {**p, "style": "defence"} for p in BASIC]
    text = refused(profile, state, lineup(1, flipped), E.NotAllowed)
    assert text == E.LINEUP_MARKER_SIDE.format(jersey=7, shows="attack", style="defence")
    assert "Jersey marker 7 shows attack, not defence" in text
    after = engine.apply(profile, state, lineup(1, _without_style(flipped, 7))).state
    assert next(p for p in club(after, 1).lineup or () if p.jersey == 7).style == "attack"
    # a marker never seen needs its side once; afterwards it keeps it
    assert club(after, 1).marker_side(2) == "defence"
    unseen = _without_style(BASIC, 2)
    assert refused(profile, state, lineup(1, unseen), E.NotAllowed) == E.LINEUP_MARKER_UNSEEN.format(jersey=2)
    later = engine.apply(profile, _next_match(after, 1), lineup(1, unseen)).state
    assert next(p for p in club(later, 1).lineup or () if p.jersey == 2).style == "defence"
    blank = [p if p["jersey"] != 11 else {"zone": p["zone"], "jersey": None, "card": None} for p in BASIC]
    assert refused(profile, state, lineup(1, blank), E.NotAllowed) == E.LINEUP_BLANK_SIDE


def test_fielding_a_card_flips_its_numbers_jersey_marker_to_the_cards_symbol() -> None:
    seven = footballer("pl_t_seven", 7, "defence", 2)
    profile, state = matchday(seats=(1,), opponents=(EMPTY.id,), profile=with_cards(demo(), STRONG, WALL, EMPTY, KEEPERS, TACTIC, seven))
    state = set_club(state, 1, res=(0, 0, 0, 1), players=(Held(seven.id),), markers=((7, "attack"),))
    fielded = [p if p["jersey"] != 7 else {"zone": p["zone"], "jersey": 7, "card": seven.id} for p in BASIC]
    after = engine.apply(profile, state, lineup(1, fielded)).state
    assert club(after, 1).marker_side(7) == "defence"
    # the next match without the card: the marker lies on its defence side now
    benched = _next_match(after, 1, players=())
    assert refused(profile, benched, lineup(1, BASIC), E.NotAllowed) == E.LINEUP_MARKER_SIDE.format(jersey=7, shows="defence", style="attack")
    shown = engine.apply(profile, benched, lineup(1, _without_style(BASIC, 7))).state
    assert club(shown, 1).marker_side(7) == "defence"


def test_a_starting_cards_marker_shows_its_symbol_from_the_setup_on() -> None:
    """l.617: "Make sure you have all jersey markers on the side corresponding to the Player cards. You cannot flip
    jersey markers without corresponding Player cards." The starting cards' markers lie as their cards show."""
    profile, state = tuesday(seats=(1,))
    state = set_club(at_stage(profile, state, "matchday"), 1, opponents=(EMPTY.id,) + club(state, 1).opponents[1:])
    vet = profile.cards[club(state, 1).players[0].id].untrained
    other = "defence" if vet.style == "attack" else "attack"
    state = set_club(state, 1, res=(0, 0, 0, 0), players=())  # the cards sit out: their markers play plain
    placed = [{**p, "style": other} if p["jersey"] == vet.jersey else p for p in BASIC]
    text = refused(profile, state, lineup(1, placed), E.NotAllowed)
    assert text == E.LINEUP_MARKER_SIDE.format(jersey=vet.jersey, shows=vet.style, style=other)
