"""League matches between clubs (003 l.100–167), played through the engine as the table would.

The halves below are computed by hand from the rulebook: each half compares five pairs of sections, the first
half from the Host's Central Defenders (l.152), the second from the Visitor's (l.162), and each zone pair as a
normal match does (000 l.675: attackers and defenders pair off, an attacker scores when stronger).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

import engine
from engine import errors as E
from engine.cards import Ability, Effect, Goalkeeper
from engine.legal import setup_events
from engine.loader import DataError
from engine.modules import club_matches as cm
from engine.state import Held, State

from tests.engine.helpers import advance_until, club, demo, footballer, refused, run, set_club, with_cards

GAME = {"type": "game", "modules": ["club_matches"]}

# Each club fields ten cards of its own, so every Strength below is known: (jersey, style, Strength, zone).
HOST_SIDE = [(2, "defence", 2, "def_centre"), (3, "defence", 2, "def_centre"), (4, "defence", 1, "def_left"),
             (5, "defence", 1, "def_right"), (6, "attack", 2, "mid_centre"), (7, "defence", 1, "mid_centre"),
             (8, "attack", 1, "mid_left"), (9, "defence", 1, "mid_right"), (10, "attack", 3, "fwd_centre"),
             (11, "attack", 1, "fwd_centre")]
VISITOR_SIDE = [(2, "defence", 2, "def_centre"), (3, "defence", 1, "def_centre"), (4, "defence", 1, "def_left"),
                (5, "defence", 1, "def_right"), (6, "attack", 2, "mid_centre"), (7, "attack", 1, "mid_centre"),
                (8, "defence", 1, "mid_left"), (9, "attack", 2, "mid_right"), (10, "attack", 2, "fwd_centre"),
                (11, "attack", 2, "fwd_centre")]
KEEPER = Goalkeeper(gloves=1, luck=2)
SECTIONS = ("def", "mid", "fwd")


def _cards(prefix: str, side: list[tuple[int, str, int, str]], keeper_jersey: int | None = None) -> list[Any]:
    out = []
    for jersey, style, strength, _ in side:
        card = footballer(f"pl_{prefix}{jersey}", jersey, style, strength, SECTIONS)
        if jersey == keeper_jersey:
            card = replace(card, untrained=replace(card.untrained, goalkeeper=KEEPER), trained=replace(card.trained, goalkeeper=KEEPER))
        out.append(card)
    return out


STOPPER = replace(footballer("pl_stop", 12, "defence", 1, SECTIONS), untrained=replace(
    footballer("pl_stop", 12, "defence", 1, SECTIONS).untrained,
    abilities=(Ability(timing="after_reveal", cost=(("fitness", 1),), effects=(Effect.of("opponent_strength", amount=-1),), text="t"),
               )))


def _profile() -> Any:
    return with_cards(demo(), *_cards("h", HOST_SIDE, keeper_jersey=2), *_cards("v", VISITOR_SIDE), STOPPER)


def players(prefix: str, side: list[tuple[int, str, int, str]]) -> list[dict[str, Any]]:
    """The arrangement event's markers: every card in the zone the table above gives it."""
    return [{"zone": zone, "jersey": jersey, "card": f"pl_{prefix}{jersey}", "style": style} for jersey, style, _, zone in side]


def at_club_match(profile: Any, seats: tuple[int, ...] = (1, 2), weeks: int = 2) -> State:
    """A game of matches between clubs at its first match between clubs, every club holding its ten cards."""
    state = run(profile, setup_events(profile, list(seats), game={**GAME, "options": {"weeks": weeks}}))
    state = advance_until(profile, state, lambda s: s.stage == cm.STAGE)
    for seat, prefix, side in ((1, "v", VISITOR_SIDE), (2, "h", HOST_SIDE)):
        if seat in seats:
            state = set_club(state, seat, players=tuple(Held(f"pl_{prefix}{j}") for j, *_ in side),
                             res=(10, 3, 3, 12), markers=(), markers_setup=())
    return state


def fixture(state: State, seat: int = 1) -> cm.Fixture:
    found = state.slice(cm.NAME).of(seat)
    assert found is not None
    return found


# --- The schedule (l.104–136) -------------------------------------------------------------------------------------


def test_four_clubs_are_dealt_opponent_cards_only_for_the_weeks_against_regular_opponents() -> None:
    """l.126–134: with four clubs the last three weeks are matches between clubs, so each club is dealt three
    cards fewer; a game without a weeks option lasts the dealt cards plus those three weeks."""
    profile = demo()
    events = setup_events(profile, [1, 2, 3, 4], game=GAME)
    dealt = [e for e in events if e["type"] == "opponents"]
    weeks = profile.board.setup.opponents_per_club
    assert {len(e["cards"]) for e in dealt} == {weeks - 3}
    state = run(profile, events)
    assert state.weeks == weeks
    # Player 1 meets Player 2, then 4, then 3 (l.130–132); the earlier weeks are its Opponent cards, in order
    one = club(state, 1)
    assert [engine.week_opponent(state, one, w) for w in range(1, weeks + 1)] == list(one.opponents) + [None] * 3
    view = engine.view(profile, state)["modules"][cm.NAME]
    assert view["schedule"] == [{"week": weeks - 2, "pairs": [[1, 2], [3, 4]]}, {"week": weeks - 1, "pairs": [[1, 4], [2, 3]]},
                                {"week": weeks, "pairs": [[1, 3], [2, 4]]}]


def test_three_clubs_take_turns_to_sit_a_week_out_against_an_opponent_card() -> None:
    """l.116–122: in each of the last three weeks one club plays a regular Opponent card."""
    profile = demo()
    state = run(profile, setup_events(profile, [1, 2, 3], game={**GAME, "options": {"weeks": 6}}))
    assert {len(c.opponents) for c in state.clubs} == {4}
    regular = {w: [c.seat for c in state.clubs if engine.week_opponent(state, c, w)] for w in (4, 5, 6)}
    assert regular == {4: [3], 5: [1], 6: [2]}
    assert club(state, 1).opponents[3] == engine.week_opponent(state, club(state, 1), 5)


def test_a_club_alone_has_nobody_to_play() -> None:
    profile = demo()
    alone = setup_events(profile, [1], game=GAME)
    start = alone.pop()
    assert refused(profile, run(profile, alone), start, E.NotAllowed) == cm.NO_SCHEDULE.format(known="2 or 3 or 4", clubs=1)


def test_matches_between_clubs_cannot_be_played_with_the_referee() -> None:
    """l.62: "when playing Matches against other players, do not use the Referee rules mode"."""
    assert "referee" in cm.CLUB_MATCHES.excludes


# --- Formations, secret arrangements and the reveal (l.142–147) --------------------------------------------------


def test_the_host_declares_first_then_both_arrange_in_secret_and_the_reveal_places_both() -> None:
    profile = _profile()
    state = at_club_match(profile)
    f = fixture(state)
    # week 2: the Stage marker passed to Seat 2, the first in turn order, so Seat 2 hosts (l.142)
    assert (f.host, f.visitor, f.step) == (2, 1, "formation")
    # every formation of ten jerseys the demo pitch allows (at most 5 Defenders, 5 Midfielders, 3 Forwards): the
    # starting 4-4-2 first, the button steps through the rest, the more defensive first
    shapes = ["4-4-2", "5-5-0", "5-4-1", "5-3-2", "5-2-3", "4-5-1", "4-3-3", "3-5-2", "3-4-3", "2-5-3"]
    assert {"seat": 2, "need": "formation", "half": 1, "shapes": shapes} in state.awaiting
    why = cm.NOT_NOW.format(seat=1, what="declare a formation", why=cm.NOT_DECLARER.format(declarer=2, half="first half"))
    assert refused(profile, state, {"type": "formation", "seat": 1, "shape": "4-4-2"}, E.NotAllowed) == why
    assert refused(profile, state, {"type": "arrange", "seat": 1, "players": players("v", VISITOR_SIDE)}, E.NotAllowed) == \
        cm.NOT_NOW.format(seat=1, what="arrange its jersey markers", why=cm.NOT_ARRANGING.format(half="first half"))
    assert "not '4-5-2'" in refused(profile, state, {"type": "formation", "seat": 2, "shape": "4-5-2"}, E.NotAllowed)
    step = engine.apply(profile, state, {"type": "formation", "seat": 2, "shape": "4-4-2"})
    assert step.announcements[0]["text"] == cm.DECLARE.format(seat=2, half="first half", shape="4-4-2")
    state = step.state
    # the Host keeps to the formation it declared
    moved = [dict(p, zone="fwd_left") if p["jersey"] == 4 else p for p in players("h", HOST_SIDE)]
    assert refused(profile, state, {"type": "arrange", "seat": 2, "players": moved}, E.NotAllowed) == \
        cm.WRONG_SHAPE.format(seat=2, shape="4-4-2", half="first half", want=2, section="Forwards", got=3)
    # the Visitor arranges first, in secret: nothing of it reaches the table, the other seat or the announcements
    step = engine.apply(profile, state, {"type": "arrange", "seat": 1, "players": players("v", VISITOR_SIDE)})
    assert [a["kind"] for a in step.announcements] == ["arranged"]
    assert "def_centre" not in json.dumps(step.announcements)
    state = step.state
    for viewer in ("table", 2):
        seen = engine.view(profile, state, viewer)
        assert seen["modules"][cm.NAME]["fixtures"][0]["secret"] == {}
        assert "pl_v10" not in json.dumps(seen["modules"]) and club_view(seen, 1)["match"]["lineup"] is None
    own = engine.view(profile, state, 1)["modules"][cm.NAME]["fixtures"][0]["secret"]["1"]
    assert own["shape"] == "4-4-2" and len(own["players"]) == 10
    assert engine.view(profile, state, "table")["modules"][cm.NAME]["fixtures"][0]["arranged"] == [1]
    # the Host's arrangement completes the pair: both are revealed and placed, 1 Fitness per card paid
    step = engine.apply(profile, state, {"type": "arrange", "seat": 2, "players": players("h", HOST_SIDE)})
    state = step.state
    reveal = next(a for a in step.announcements if a["kind"] == "reveal")
    assert reveal["text"] == cm.REVEALED.format(half="First half", host=2, visitor=1, host_shape="4-4-2", visitor_shape="4-4-2")
    assert club_view(engine.view(profile, state, "table"), 1)["match"]["lineup"] is not None
    assert club(state, 1).res[3] == 2 and club(state, 2).res[3] == 2
    # neither club has an ability after the reveal or before the match: the turns pass by themselves, Host first
    passes = [a["text"] for a in step.announcements if a["kind"] == "pass"]
    assert passes == [cm.NOTHING_TO_USE.format(seat=s, moment=m) for m in ("after the reveal", "before the match") for s in (2, 1)]
    assert fixture(state).step == "half"


def club_view(view: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(c for c in view["clubs"] if c["seat"] == seat)


def _arranged(profile: Any, state: State) -> State:
    return run(profile, [{"type": "formation", "seat": 2, "shape": "4-4-2"},
                         {"type": "arrange", "seat": 2, "players": players("h", HOST_SIDE)},
                         {"type": "arrange", "seat": 1, "players": players("v", VISITOR_SIDE)}], state)


def test_abilities_after_the_reveal_alternate_from_the_host_and_a_club_that_passed_uses_no_more() -> None:
    """l.145: "Beginning with the Host, players alternately resolve ... Once a player has passed, their opponent
    may resolve as many effects as they want." """
    profile = _profile()
    state = at_club_match(profile)
    # both clubs field the Stopper instead of #11 (jersey 12, a blank marker), with 1 Fitness assigned for its use
    state = set_club(state, 1, players=club(state, 1).players + (Held("pl_stop"),))
    host = players("h", HOST_SIDE)
    visitor = [p if p["jersey"] != 11 else {"zone": "fwd_centre", "jersey": None, "card": "pl_stop", "style": "defence"}
               for p in players("v", VISITOR_SIDE)]
    state = run(profile, [{"type": "formation", "seat": 2, "shape": "4-4-2"},
                          {"type": "arrange", "seat": 2, "players": host},
                          {"type": "arrange", "seat": 1, "players": visitor, "assign": {"pl_stop": {"fitness": 1}}}], state)
    f = fixture(state)
    # the Host has nothing to use after the reveal: it passes by itself, and the Visitor may use as many as it has
    assert f.step == "after_reveal" and f.turn == 1 and f.passed == (2,)
    assert engine.view(profile, state)["awaiting"][0]["may_use"][0]["card"] == "pl_stop"
    assert refused(profile, state, {"type": "use_card", "seat": 2, "card": "pl_h6"}, E.NotAllowed) == \
        cm.ALREADY_PASSED.format(seat=2, moment="after the reveal")
    step = engine.apply(profile, state, {"type": "use_card", "seat": 1, "card": "pl_stop"})
    assert club(step.state, 1).opp_mods[-1][2] == -1
    # with nothing left to use, the Visitor passes too and the turns before the match begin, from the Host
    assert fixture(step.state).step == "half"
    # what a tap at the table is answered with: the fixture's moment decides, the engine's words say why not
    uses = {u.event["type"]: u.why_not for u in engine.card_uses(profile, state, 1, "pl_stop")}
    assert uses["use_card"] is None
    host_uses = {u.event["type"]: u.why_not for u in engine.card_uses(profile, state, 2, "pl_h6")}
    assert host_uses["use_card"] == cm.ALREADY_PASSED.format(seat=2, moment="after the reveal")
    later = {u.event["type"]: u.why_not for u in engine.card_uses(profile, step.state, 1, "pl_stop")}
    assert later["use_card"] is not None  # its ability is for after the reveal, not during the half


def test_two_halves_are_compared_pair_by_pair_and_the_goalkeeper_blocks_in_each() -> None:
    """l.152: the first half from the Host's Central Defenders; l.160: "Goalkeepers may use their effects to block
    shots again"; l.162: the second half from the Visitor's Central Defenders."""
    profile = _profile()
    state = _arranged(profile, at_club_match(profile))
    # nobody has an ability to use: the turns pass by themselves, and the first half waits for both to be ready
    assert fixture(state).step == "half"
    assert [n for n in state.awaiting if n["need"] == "half"] == [{"seat": 2, "need": "half", "half": 1},
                                                                    {"seat": 1, "need": "half", "half": 1}]
    state = run(profile, [{"type": "pass", "seat": 1}], state)
    step = engine.apply(profile, state, {"type": "pass", "seat": 2})
    pairs = [a for a in step.announcements if a["kind"] == "pair"]
    # Host (A) against Visitor (B): centre defence 0–0 (B's 2 and 2 against A's 2 and 2), centre midfield 1–2
    # (A's 2 against nobody; B's 2 beats A's 1 and B's 1 is left over), centre attack 1–0 (A's 3 beats 2, A's 1 does
    # not beat 1), left wing 1–1 (midfield: A's 1 and B's 2 meet no defender), right wing 0–0
    assert [(p["section"], p["goals"]["2"], p["goals"]["1"]) for p in pairs] == [
        ("centre_defence", 0, 0), ("centre_midfield", 1, 1), ("centre_attack", 1, 0), ("left_wing", 1, 1), ("right_wing", 0, 0)]
    # the Host's Goalkeeper (#2, one glove) blocked the Visitor's first goal, in the central midfield
    assert pairs[1]["zones"][0]["saved"] == 1
    blocked = next(a for a in step.announcements if a["kind"] == "blocked")
    assert blocked["text"] == cm.BLOCKED.format(keeper="Test pl_h2", seat=2, count=1, other=1, half="first half")
    state = step.state
    f = fixture(state)
    assert (f.step, f.half, f.declarer) == ("formation", 2, 1)
    # the second half: the Visitor declares, both arrange again (the same zones), the Host's shape is revealed
    state = run(profile, [{"type": "formation", "seat": 1, "shape": "4-4-2"},
                          {"type": "arrange", "seat": 1, "players": players("v", VISITOR_SIDE)},
                          {"type": "arrange", "seat": 2, "players": players("h", HOST_SIDE)},
                          {"type": "pass", "seat": 2}], state)
    step = engine.apply(profile, state, {"type": "pass", "seat": 1})
    pairs = [a for a in step.announcements if a["kind"] == "pair"]
    # Visitor (A) against Host (B): centre defence 0–1 (B's 3 beats 2), centre midfield 1–1 (A's 2 and 1 beat B's
    # 1 and are left over, the Goalkeeper's renewed glove blocks the first; B's 2 meets nobody), centre attack 0–0,
    # left wing 0–0, right wing 1–1 (midfield: A's 2 and B's 1 meet no defender)
    assert [(p["section"], p["goals"]["1"], p["goals"]["2"]) for p in pairs] == [
        ("centre_defence", 0, 1), ("centre_midfield", 1, 1), ("centre_attack", 0, 0), ("left_wing", 0, 0), ("right_wing", 1, 1)]
    before = {seat: club(state, seat).points for seat in (1, 2)}
    state = step.state
    # 3–2 and 3–2: the Host wins 6–4, each club rolls its Match consequence
    assert (club(state, 2).goals, club(state, 2).conceded, club(state, 2).result) == (6, 4, "win")
    assert (club(state, 1).goals, club(state, 1).conceded, club(state, 1).result) == (4, 6, "loss")
    assert (club(state, 2).points - before[2], club(state, 1).points - before[1]) == (3, 0)
    result = next(a for a in step.announcements if a["kind"] == "result" and a["seat"] == 2)
    assert result["text"].startswith("Seat 2 wins 6–4 against Club 1 (Seat 1)")
    assert [h["goals"] for h in result["halves"]] == [3, 3] and [len(h["pairs"]) for h in result["halves"]] == [9, 9]
    assert {n["purpose"] for n in state.awaiting if n["need"] == "roll"} == {"match_consequence"}
    # the breakdown, pair by pair, is public
    halves = engine.view(profile, state, "table")["modules"][cm.NAME]["fixtures"][0]["halves"]
    assert [[s["section"] for s in h["sections"]] for h in halves] == [[s for s, _ in cm.SECTION_PAIRS]] * 2
    assert halves[1]["sections"][0]["words"] == "Central Defenders of Seat 1 against Central Forwards of Seat 2"


def test_no_tactic_card_is_played_in_a_match_between_clubs() -> None:
    """l.150: "except for playing Tactic cards, which are not used in player versus player Matches"."""
    profile = _profile()
    state = _arranged(profile, at_club_match(profile))
    tactic = club(state, 1).tactics[0]
    assert refused(profile, state, {"type": "tactic_played", "seat": 1, "card": tactic}, E.NotAllowed) == \
        E.TACTIC_NONE.format(seat=1)


def test_a_level_match_is_settled_by_a_d6_minus_the_other_goalkeepers_luck_and_a_level_tiebreak_is_rolled_again() -> None:
    """l.167: "each player rolls a six-sided die and subtracts the luck of their opponent's Goalkeeper ... in the
    rare case of a tie, repeat this step"."""
    profile = _profile()
    state = at_club_match(profile)
    # the same ten on both sides, Goalkeepers too (the Visitor's cards arranged as the Host's): every pair is level
    mirror = [(j, s, st, z) for j, s, st, z in HOST_SIDE]
    profile = with_cards(profile, *_cards("v", mirror, keeper_jersey=2))
    state = set_club(state, 1, res=(10, 0, 3, 12))  # no Fanbase: the Visitor's die cannot be rerolled
    state = run(profile, [{"type": "formation", "seat": 2, "shape": "4-4-2"},
                          {"type": "arrange", "seat": 2, "players": players("h", HOST_SIDE)},
                          {"type": "arrange", "seat": 1, "players": players("v", mirror)},
                          {"type": "pass", "seat": 1}, {"type": "pass", "seat": 2},
                          {"type": "formation", "seat": 1, "shape": "4-4-2"},
                          {"type": "arrange", "seat": 1, "players": players("v", mirror)},
                          {"type": "arrange", "seat": 2, "players": players("h", HOST_SIDE)},
                          {"type": "pass", "seat": 1}], state)
    step = engine.apply(profile, state, {"type": "pass", "seat": 2})
    state = step.state
    assert fixture(state).step == "tiebreak" and club(state, 1).result is None
    assert any(a["kind"] == "level" for a in step.announcements)
    assert [(n["seat"], n["purpose"]) for n in state.awaiting if n["need"] == "roll"] == [(2, "club_tiebreak"), (1, "club_tiebreak")]
    # each Goalkeeper has 2 luck: a 4 counts 2 for either club
    state = run(profile, [{"type": "roll", "seat": 1, "value": 4}, {"type": "roll", "seat": 2, "value": 4}], state)
    held = next(n for n in state.awaiting if n["seat"] == 2)
    assert held["need"] == "keep_or_reroll"  # the Host has Fanbase to reroll its own die, as usual
    step = engine.apply(profile, state, {"type": "keep", "seat": 2})
    assert any(a["kind"] == "tiebreak_level" for a in step.announcements)
    state = run(profile, [{"type": "roll", "seat": 1, "value": 6}, {"type": "roll", "seat": 2, "value": 5},
                          {"type": "keep", "seat": 2}], step.state)
    # 6 - 2 = 4 against 5 - 2 = 3: the Visitor wins the tie-break; the score stays level
    f = fixture(state)
    assert f.winner == 1 and [[x[2] for x in r] for r in f.tiebreaks] == [[2, 2], [4, 3]]
    assert club(state, 1).result == "win" and club(state, 2).result == "loss"
    assert club(state, 1).goals == club(state, 1).conceded == club(state, 2).goals > 0
    result = engine.view(profile, state, "table")["modules"][cm.NAME]["fixtures"][0]["tiebreaks"]
    assert result[1] == [{"seat": 1, "die": 6, "score": 4}, {"seat": 2, "die": 5, "score": 3}]


def test_a_card_used_in_the_first_half_plays_the_second_but_cannot_be_used_again() -> None:
    """l.151: "Exhausted Players will play in the Second Half, but you may not use their effects again"."""
    striker = footballer("pl_v11", 11, "attack", 2, SECTIONS)
    striker = replace(striker, untrained=replace(striker.untrained, abilities=(Ability(
        timing="during_match", cost=(("fitness", 1),), effects=(Effect.of("strength", amount=1, target="this_card", lasting="temporary"),),
        text="t"),)))
    profile = with_cards(_profile(), striker)
    state = at_club_match(profile)
    state = run(profile, [{"type": "formation", "seat": 2, "shape": "4-4-2"},
                          {"type": "arrange", "seat": 2, "players": players("h", HOST_SIDE)},
                          {"type": "arrange", "seat": 1, "players": players("v", VISITOR_SIDE), "assign": {"pl_v11": {"fitness": 2}}},
                          {"type": "use_card", "seat": 1, "card": "pl_v11"},
                          {"type": "pass", "seat": 1}, {"type": "pass", "seat": 2},
                          {"type": "formation", "seat": 1, "shape": "4-4-2"},
                          {"type": "arrange", "seat": 1, "players": players("v", VISITOR_SIDE)},
                          {"type": "arrange", "seat": 2, "players": players("h", HOST_SIDE)}], state)
    assert any(p.card == "pl_v11" for p in club(state, 1).lineup or ())
    assert refused(profile, state, {"type": "use_card", "seat": 1, "card": "pl_v11"}, E.NotAllowed) == \
        E.CARD_EXHAUSTED.format(name="Test pl_v11")


def test_the_second_half_moves_the_same_markers_only() -> None:
    """l.156: the formation "may be the same or different", but the cards assigned are those of the first half."""
    profile = _profile()
    state = run(profile, [{"type": "pass", "seat": 1}, {"type": "pass", "seat": 2},
                          {"type": "formation", "seat": 1, "shape": "5-3-2"}], _arranged(profile, at_club_match(profile)))
    shifted = [dict(p, zone="def_centre") if p["jersey"] == 8 else p for p in players("v", VISITOR_SIDE)]
    state = run(profile, [{"type": "arrange", "seat": 1, "players": shifted}], state)
    swapped = [dict(p, card="pl_stop", jersey=None) if p["jersey"] == 11 else p for p in players("h", HOST_SIDE)]
    assert refused(profile, state, {"type": "arrange", "seat": 2, "players": swapped}, E.NotAllowed).startswith(
        "In the second half Seat 2 plays the jersey markers of the first")
    state = run(profile, [{"type": "arrange", "seat": 2, "players": players("h", HOST_SIDE)}], state)
    assert fixture(state).shapes == ((2, "4-4-2"), (1, "5-3-2"))
    assert sum(1 for p in club(state, 1).lineup or () if p.zone == "def_centre") == 3


def test_a_second_half_being_arranged_is_checked_marker_by_marker_like_the_first() -> None:
    """The lineup editor asks about each marker placed (engine.lineup_why_not): in the second half a marker the
    first half did not play, or one too many in a zone, is named as it is placed, not once all ten are down."""
    profile = _profile()
    state = run(profile, [{"type": "pass", "seat": 1}, {"type": "pass", "seat": 2},
                          {"type": "formation", "seat": 1, "shape": "5-3-2"}], _arranged(profile, at_club_match(profile)))
    mine = players("v", VISITOR_SIDE)
    assert engine.lineup_why_not(profile, state, 1, mine[:3]) is None  # three of the first half's, anywhere they fit
    stranger = {"zone": "mid_left", "jersey": None, "card": "pl_stop", "style": "defence"}  # not fielded in the first
    refusal = engine.lineup_why_not(profile, state, 1, [*mine[:3], stranger])
    assert refusal is not None and refusal["index"] == 3
    assert refusal["why"].startswith("In the second half Seat 1 plays the jersey markers of the first".replace("Seat 1", "Club 1"))
    twice = engine.lineup_why_not(profile, state, 1, [*mine[:3], mine[2]])  # the same marker placed again
    assert twice is not None and twice["index"] == 3
    crowded = [dict(p, zone="def_left") for p in mine[:2]]  # two markers on a wing taking one
    refusal = engine.lineup_why_not(profile, state, 1, crowded)
    assert refusal is not None and refusal["index"] == 1
    assert refusal["why"] == E.LINEUP_ZONE_FULL.format(zone=cm.zone_words("def_left", capital=True), cap=1, count=2)
    # all ten: the arrangement itself, in the 5-3-2 declared
    assert "declared a 5-3-2" in engine.lineup_why_not(profile, state, 1, mine)["why"]
    shifted = [dict(p, zone="def_centre") if p["jersey"] == 8 else p for p in mine]
    assert engine.lineup_why_not(profile, state, 1, shifted) is None


def test_a_whole_game_with_matches_between_clubs_replays_and_survives_json() -> None:
    profile = demo()
    events = setup_events(profile, [1, 2], game={**GAME, "options": {"weeks": 2}})
    state = run(profile, events)
    log = list(events)
    while state.stage != "over":
        options = engine.legal_events(profile, state)
        event = next((e for e in options if e["type"] in ("pass", "keep", "formation", "arrange")), None)
        if event is None:
            rolls = [e for e in options if e["type"] == "roll"]
            event = rolls[len(log) % len(rolls)] if rolls else options[0]
        state = engine.apply(profile, state, event).state
        log.append(event)
    assert fixture(state).step == "played"
    assert engine.replay(profile, log) == state
    assert State.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    assert json.loads(json.dumps(engine.view(profile, state))) == engine.view(profile, state)


def test_a_broken_schedule_is_refused_on_load_naming_the_file_and_the_field(tmp_path: Any) -> None:
    (tmp_path / "profile.toml").write_text('name = "Bad"\ninherit = "demo"\n')
    (tmp_path / "club_matches.toml").write_text("[schedule]\n2 = [[0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [2, 2]]\n")
    with pytest.raises(DataError) as info:
        engine.load_profile(tmp_path)
    assert str(info.value).startswith('club_matches.toml, field "schedule.2[6]": Player 1 plays Player 2, so Player 2 must play Player 1')
