"""A lineup built on the page: why an event would be refused, the limits each club's view carries, why the jersey
markers placed so far are refused, and the rest filled by the engine (rulebook "000", Matchday, l.612–633).

l.249: "At the beginning of the game you must have exactly 5 ⚽ and 5 🛡 on the pitch."
l.617: "You cannot use two Player cards with the same number during a single Matchday. Assign 1 [Fitness] on each
Player card you want to use. ... Make sure you have all jersey markers on the side corresponding to the Player cards.
You cannot flip jersey markers without corresponding Player cards."
l.624: "You may have up to 3 Jersey markers in each central Zone and up to 1 Jersey marker on each of the wings.
Additionally you may have a maximum of 3 Forwards and 5 Defenders/Midfielders."
l.633: "You may place up to 1 [Fanbase] on each of the Stands (printed on the board and on the Stadium
Infrastructure token)."
l.862: "Injured players cannot play during the following weeks (according to the Injury token)."
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

import engine
from engine import errors as E
from engine.legal import setup_events
from engine.lineup import OUT_INJURED
from engine.state import Held, State

from tests.engine.golden.regenerate import DECK, EVENTS
from tests.engine.helpers import at_stage, club, demo, footballer, run, set_club, with_cards

FAST = footballer("pl_t_fast", 9, "attack", 5, ("fwd",))
SLOW = footballer("pl_t_slow", 9, "attack", 2, ("fwd", "mid"))
WALL = footballer("pl_t_wall", 3, "defence", 4, ("def",))
HURT = footballer("pl_t_hurt", 5, "defence", 6, ("def",))
WING = footballer("pl_t_wing", 10, "attack", 3, ("mid", "fwd"))


def plain(zone: str, jersey: int | None, style: str = "defence") -> dict[str, Any]:
    """A jersey marker without a card."""
    return {"zone": zone, "jersey": jersey, "card": None, "style": style}


def matchday(profile: Any = None) -> tuple[Any, State]:
    """A two-club game on its first Matchday, as dealt: each club's two starting cards have shown their markers."""
    profile = profile or with_cards(demo(), FAST, SLOW, WALL, HURT, WING)
    state = at_stage(profile, run(profile, setup_events(profile, [1, 2])), "matchday")
    return profile, state


def limits(profile: Any, state: State, seat: int = 1) -> dict[str, Any]:
    return next(c for c in engine.view(profile, state)["clubs"] if c["seat"] == seat)["limits"]


# --- why_not: the reducer's own answer -------------------------------------------------------------------------


def test_why_not_agrees_with_the_reducer_over_a_whole_played_game() -> None:
    """Every event of the golden four-club game is accepted where it was played; the event that came next, tried one
    step too early, is refused with the sentence the reducer raises (or accepted when the reducer takes it too), and
    asking never changes the state."""
    profile = engine.load_profile(DECK)
    events = [json.loads(line) for line in EVENTS.read_text().splitlines() if line.strip()]
    state = engine.initial_state(profile)
    refusals = 0
    for i, event in enumerate(events):
        before = state.to_dict()
        assert engine.why_not(profile, state, event) is None, f"event {i} ({event['type']}) was played here"
        if i + 1 < len(events):
            early = events[i + 1]
            why = engine.why_not(profile, state, early)
            try:
                engine.apply(profile, state, early)
            except E.EngineError as refusal:
                refusals += 1
                assert why == refusal.args[0] and why.endswith((".", ")", "!")) and len(why) > 20
            else:
                assert why is None
        assert state.to_dict() == before
        state = engine.apply(profile, state, event).state
    assert state.stage == "over" and refusals > 100


# --- the limits in the view ------------------------------------------------------------------------------------


def test_each_club_s_view_carries_the_limits_of_its_lineup() -> None:
    profile, state = matchday()
    state = set_club(state, 1, players=club(state, 1).players + (Held(HURT.id, injury=2), Held(WALL.id)))
    got = limits(profile, state)
    board = profile.board
    assert got["sides"] == {"attack": 5, "defence": 5}  # l.249
    # the starting Veteran and Youngster showed their markers at the setup: the other eight are half and half
    shown = Counter(side for _, side in club(state, 1).markers_setup)
    assert got["sides_left"] == {"attack": 5 - shown["attack"], "defence": 5 - shown["defence"]}
    assert got["zones"]["def_left"] == 1 and got["zones"]["mid_centre"] == 3 and got["sections"]["fwd"] == 3  # l.624
    assert got["on_pitch"] == 10 and got["jerseys"] == list(board.pitch.jerseys)
    assert got["stands"] == board.board_stands and got["fitness"] == club(state, 1).res[3]
    assert got["out"] == {HURT.id: OUT_INJURED.format(weeks=2)}  # l.862
    assert HURT.id not in got["fielded"] and WALL.id in got["fielded"]
    # ten must play: the number no fit card wears (#5) is replaced by one more blank marker
    assert got["blanks"] == board.pitch.blank_jerseys + 1


def test_the_stands_a_lineup_may_use_follow_the_club_s_unique_setup_card() -> None:
    """003 l.195: a Unique Setup card "increases or decreases the number of [Fanbase] that you may assign to your
    Stands #2"; the view's limit is the one the lineup is held to."""
    profile = demo()
    events = setup_events(profile, [1, 2], game={"type": "game", "modules": ["unique_setup"]})
    events += [{"type": "unique_setup", "seat": 1, "green": "us_1", "red": "us_2"},
               {"type": "unique_setup", "seat": 2, "green": "us_3", "red": "us_4"}]
    state = at_stage(profile, run(profile, events), "matchday")
    state = set_club(state, 1, res=(0, 5, 0, 5))
    assert limits(profile, state, 1)["stands"] == 3 and limits(profile, state, 2)["stands"] == 2
    lineup = engine.fill_lineup(profile, state, 1)
    assert engine.why_not(profile, state, {**lineup, "stands": 3}) is None
    refused = engine.lineup_why_not(profile, state, 1, lineup["players"], stands=4)
    assert refused == {"why": "Club 1 has 3 Stands; it cannot put 4 Fanbase on them.", "index": None}


# --- why the markers placed so far are refused -----------------------------------------------------------------


def test_a_second_marker_on_a_wing_is_the_one_named() -> None:
    profile, state = matchday()
    placed = [plain("def_left", 2), plain("def_left", 3)]
    assert engine.lineup_why_not(profile, state, 1, placed[:1]) is None
    assert engine.lineup_why_not(profile, state, 1, placed) == {
        "why": "The Defenders' left wing holds at most 1 jersey markers; the lineup puts 2 there.", "index": 1}


def test_a_marker_first_seen_cannot_break_the_setup_s_five_and_five() -> None:
    profile, state = matchday()
    left = limits(profile, state)["sides_left"]["attack"]
    unseen = [n for n in profile.board.pitch.jerseys if club(state, 1).marker_side(n) is None]
    zones = ["fwd_centre"] * 3 + ["mid_centre"] * 3 + ["mid_left", "mid_right", "fwd_left", "fwd_right"]
    placed = [plain(zone, n, "attack") for zone, n in zip(zones, unseen)]
    assert engine.lineup_why_not(profile, state, 1, placed[:left]) is None
    refused = engine.lineup_why_not(profile, state, 1, placed[:left + 1])
    assert refused is not None and refused["index"] == left
    assert refused["why"].startswith("At the beginning of the game the numbered jersey markers show exactly 5 attack")


def test_an_injured_footballer_is_named_by_his_card_and_a_wrong_section_in_words() -> None:
    profile, state = matchday()
    state = set_club(state, 1, players=club(state, 1).players + (Held(HURT.id, injury=1), Held(FAST.id)))
    assert engine.lineup_why_not(profile, state, 1, [plain("def_left", 2), {"zone": "def_centre", "card": HURT.id}]) == {
        "why": f"{HURT.name} is injured or suspended and cannot play.", "index": 1}
    assert engine.lineup_why_not(profile, state, 1, [{"zone": "def_centre", "card": FAST.id}]) == {
        "why": f"{FAST.name} cannot play on the Defenders' central zone: the card plays among the Forwards.", "index": 0}


def test_before_matchday_the_club_is_told_when_it_may_line_up() -> None:
    profile = with_cards(demo(), FAST)
    state = at_stage(profile, run(profile, setup_events(profile, [1, 2])), "tuesday")
    refused = engine.lineup_why_not(profile, state, 1, [plain("def_left", 2)])
    assert refused is not None and refused["index"] is None
    assert refused["why"] == "Club 1 cannot set a lineup now: it is Tuesday, and this happens on Matchday."


# --- the rest filled by the engine -----------------------------------------------------------------------------


def test_fill_keeps_the_setup_s_five_and_five_and_puts_defenders_at_the_back() -> None:
    profile, state = matchday()
    lineup = engine.fill_lineup(profile, state, 1)
    after = club(engine.apply(profile, state, lineup).state, 1)
    # every numbered marker has now shown its setup side: exactly 5 and 5 (l.249)
    assert len(after.markers_setup) == 10
    assert Counter(side for _, side in after.markers_setup) == {"attack": 5, "defence": 5}
    plain_ones = [p for p in lineup["players"] if p["card"] is None]
    assert all(p["style"] == "defence" for p in plain_ones if p["zone"].startswith("def_"))
    assert all(p["style"] == "attack" for p in plain_ones if p["zone"].startswith("fwd_"))
    sections = Counter(p["zone"].split("_")[0] for p in lineup["players"])
    assert sections["def"] >= 4 and sections["fwd"] <= 3  # the starting formation, 4-4-2, grown where cards stand


def test_fill_fields_the_strongest_fit_footballers_its_fitness_pays_for() -> None:
    profile, state = matchday()
    cards = (Held(FAST.id), Held(SLOW.id), Held(WALL.id), Held(HURT.id, injury=1), Held(WING.id))
    state = set_club(state, 1, players=club(state, 1).players + cards, res=(0, 0, 0, 3))
    lineup = engine.fill_lineup(profile, state, 1)
    fielded = {p["card"]: p["zone"] for p in lineup["players"] if p["card"]}
    # three Fitness: the three strongest fit cards of different numbers (FAST 5 beats SLOW 2 for #9; HURT is injured)
    strengths = sorted(((c.side(False).strength, c.id) for c in (profile.cards[h.id] for h in club(state, 1).players)
                        if c.id not in (HURT.id, SLOW.id)), reverse=True)
    assert set(fielded) == {card for _, card in strengths[:3]}
    assert fielded[FAST.id].startswith("fwd_") and fielded[WALL.id].startswith("def_")
    assert HURT.id not in fielded and SLOW.id not in fielded
    # the injured #5's number plays only as a plain marker when no fit card wears it
    assert not any(p["jersey"] == 5 for p in lineup["players"])
    assert engine.why_not(profile, state, lineup) is None


def test_fill_keeps_the_markers_placed_where_they_stand() -> None:
    profile, state = matchday()
    placed = [plain("fwd_centre", 2, club(state, 1).marker_side(2) or "defence"), plain("def_left", None, "attack")]
    lineup = engine.fill_lineup(profile, state, 1, placed)
    assert lineup["players"][:2] == placed
    assert engine.why_not(profile, state, lineup) is None


def test_fill_says_why_when_the_markers_placed_are_refused_or_leave_no_room() -> None:
    profile, state = matchday()
    with pytest.raises(E.NotAllowed, match="The Defenders' left wing holds at most 1"):
        engine.fill_lineup(profile, state, 1, [plain("def_left", 2), plain("def_left", 3)])
    blanks = [plain(zone, None, "attack") for zone in ("fwd_left", "fwd_right", "fwd_centre")]
    state = set_club(state, 1, players=(), res=(0, 0, 0, 0))
    assert engine.fill_lineup(profile, state, 1, blanks)["players"][:3] == blanks
    with pytest.raises(E.NotAllowed) as refused:
        engine.fill_lineup(profile, state, 1, blanks + [plain("def_left", None)])
    assert str(refused.value) == "The club has only 3 blank jersey markers; the lineup uses 4."


def test_in_a_match_between_clubs_fill_arranges_the_formation_the_club_declared() -> None:
    """003 l.143: the declaring club plays the formation it declared; its jersey markers filled by the engine keep
    to it, and the other club's arrangement is filled too (each is the secret ``arrange`` event the rules take)."""
    from tests.engine.modules.test_club_matches import _profile, at_club_match, fixture

    profile = _profile()
    state = at_club_match(profile)
    host = fixture(state).host
    other = fixture(state).visitor
    state = engine.apply(profile, state, {"type": "formation", "seat": host, "shape": "5-3-2"}).state
    for seat in (host, other):
        lineup = engine.fill_lineup(profile, state, seat)
        arrangement = {**lineup, "type": "arrange"}
        assert engine.why_not(profile, state, arrangement) is None
    sections = Counter(p["zone"].split("_")[0] for p in engine.fill_lineup(profile, state, host)["players"])
    assert sections == {"def": 5, "mid": 3, "fwd": 2}
