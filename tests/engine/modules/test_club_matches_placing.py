"""A match between clubs arranged marker by marker (003 l.143, l.156, l.160, l.167): the lineup editor asks the
engine about the jersey markers placed so far (`engine.lineup_why_not`), and the first marker the arrangement can
no longer take is the one named, in the words the whole arrangement is refused with.

003 l.143: "First, the Host reveals what Formation they are going to use during the First Half. Then both players
secretly arrange their Jersey markers on the Pitch. Once this is done, the Visitor reveals their Formation."
003 l.156: "The Visitor reveals the Formation they will use during the Second Half. It may be the same or different
from the Formation they used in the First Half. Then both players secretly arrange their Jersey markers on the Pitch."
003 l.167: "each player rolls a six-sided die and subtracts the 🍀 of their opponent's Goalkeeper" (one Goalkeeper
a club: engine/RULES.md, "Goalkeepers").
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import engine
from engine import errors as E
from engine.modules import club_matches as cm
from engine.state import Held, State
from engine.words import club_words

from tests.engine.helpers import demo, footballer, refused, run, set_club, with_cards
from tests.engine.modules.test_club_matches import (
    HOST_SIDE,
    KEEPER,
    VISITOR_SIDE,
    _arranged,
    _cards,
    at_club_match,
    players,
)

# The Host (Seat 2) has a second Goalkeeper on the bench; the Visitor's #7 plays only among the Midfielders.
SECOND_KEEPER = replace(footballer("pl_gk2", 12, "defence", 1, ("def",)),
                        untrained=replace(footballer("pl_gk2", 12, "defence", 1, ("def",)).untrained, goalkeeper=KEEPER),
                        trained=replace(footballer("pl_gk2", 12, "defence", 1, ("def",)).trained, goalkeeper=KEEPER))
MIDFIELDER_ONLY = footballer("pl_v7", 7, "attack", 1, ("mid",))


def _profile() -> Any:
    visitor = [c for c in _cards("v", VISITOR_SIDE) if c.id != "pl_v7"]
    return with_cards(demo(), *_cards("h", HOST_SIDE, keeper_jersey=2), *visitor, MIDFIELDER_ONLY, SECOND_KEEPER)


def _declared(profile: Any, shape: str = "4-4-2") -> State:
    """The first half, the Host (Seat 2) having declared its formation; the Host's bench holds a second keeper."""
    state = at_club_match(profile)
    host = state.club(2)
    assert host is not None
    state = set_club(state, 2, players=host.players + (Held("pl_gk2"),))
    return run(profile, [{"type": "formation", "seat": 2, "shape": shape}], state)


def _says(state: State, sentence: str) -> str:
    """A sentence of the rules as the page shows it (clubs by name)."""
    return club_words(state, sentence)


def test_the_marker_beyond_the_declared_formation_is_named_as_it_is_placed() -> None:
    """l.143: the Host declared a 4-4-2, so its fifth Defender is refused as it is placed, not once all ten are down,
    and in the words the whole arrangement is refused with."""
    profile = _profile()
    state = _declared(profile)
    mine = players("h", HOST_SIDE)  # 4 Defenders (#2-#5), 4 Midfielders (#6-#9), 2 Forwards
    assert engine.lineup_why_not(profile, state, 2, mine[:4]) is None  # four Defenders: the 4-4-2 takes them
    fifth = dict(mine[5], zone="def_centre")  # #7 put among the Defenders
    refusal = engine.lineup_why_not(profile, state, 2, [*mine[:4], fifth])
    why = cm.WRONG_SHAPE.format(seat=2, shape="4-4-2", half="first half", want=4, section="Defenders", got=5)
    assert refusal == {"why": _says(state, why), "index": 4}
    # placed later among the others, it is still that marker that is named
    refusal = engine.lineup_why_not(profile, state, 2, [*mine[:4], mine[4], mine[6], fifth, *mine[8:]])
    assert refusal == {"why": _says(state, why), "index": 6}
    # the whole arrangement with it (a 5-3-2) is refused by the engine in the same sentence
    assert refused(profile, state, {"type": "arrange", "seat": 2, "players": [*mine[:5], fifth, *mine[6:]]},
                   E.NotAllowed) == why


def test_the_lineup_editors_limits_carry_the_declared_formation_for_the_club_that_declared_it() -> None:
    """l.143: the Host's 4-4-2 is public; the editor's counts for it are the formation's, the Visitor's the pitch's."""
    profile = _profile()
    state = _declared(profile)
    view = engine.view(profile, state, "table")
    sections = {c["seat"]: c["limits"]["sections"] for c in view["clubs"]}
    assert sections == {2: {"def": 4, "mid": 4, "fwd": 2}, 1: {"def": 5, "mid": 5, "fwd": 3}}


def test_the_club_that_has_not_declared_arranges_any_formation_the_pitch_allows() -> None:
    """l.143: the Visitor reveals its formation only once both have arranged: five Defenders are its own choice."""
    profile = _profile()
    state = _declared(profile)
    mine = players("v", VISITOR_SIDE)
    five = [*mine[:4], dict(mine[6], zone="def_centre")]  # #8 among the Defenders
    assert engine.lineup_why_not(profile, state, 1, five) is None


def test_the_second_goalkeeper_placed_is_named_as_it_is_placed() -> None:
    """l.167 (one Goalkeeper a club): the Host's second Goalkeeper is refused as it is placed."""
    profile = _profile()
    state = _declared(profile)
    mine = players("h", HOST_SIDE)  # #2 is the Host's Goalkeeper
    keeper = {"zone": "def_left", "jersey": None, "card": "pl_gk2", "style": "defence"}
    assert engine.lineup_why_not(profile, state, 2, [mine[1], keeper, mine[3]]) is None  # one Goalkeeper so far
    refusal = engine.lineup_why_not(profile, state, 2, [mine[1], keeper, mine[3], mine[0]])
    why = cm.ONE_KEEPER.format(seat=2, count=2)
    assert refusal == {"why": _says(state, why), "index": 3}
    whole = [*mine[:2], keeper, *mine[3:]]  # the second keeper instead of #4
    assert refused(profile, state, {"type": "arrange", "seat": 2, "players": whole}, E.NotAllowed) == why


def _second_half(profile: Any, shape: str) -> State:
    """Both clubs arranged the first half as the tables give it and played it; the Visitor declared the second."""
    state = run(profile, [{"type": "formation", "seat": 2, "shape": "4-4-2"},
                          {"type": "arrange", "seat": 2, "players": players("h", HOST_SIDE)},
                          {"type": "arrange", "seat": 1, "players": players("v", VISITOR_SIDE)}], at_club_match(profile))
    return run(profile, [{"type": "pass", "seat": 1}, {"type": "pass", "seat": 2},
                         {"type": "formation", "seat": 1, "shape": shape}], state)


def test_in_the_second_half_the_marker_beyond_the_visitors_formation_is_named() -> None:
    """l.156: the Visitor declares first in the second half; its 4th Defender of a 3-5-2 is refused as placed."""
    profile = _profile()
    state = _second_half(profile, "3-5-2")
    mine = players("v", VISITOR_SIDE)  # the first half: 4 Defenders (#2-#5), 4 Midfielders (#6-#9), 2 Forwards
    assert engine.lineup_why_not(profile, state, 1, mine[:3]) is None
    refusal = engine.lineup_why_not(profile, state, 1, [*mine[:3], mine[6], mine[3]])
    why = cm.WRONG_SHAPE.format(seat=1, shape="3-5-2", half="second half", want=3, section="Defenders", got=4)
    assert refusal == {"why": _says(state, why), "index": 4}
    # #5 among the Midfielders instead: the 3-5-2 is kept and the whole arrangement taken
    kept = [dict(p, zone="mid_centre") if p["jersey"] == 5 else p for p in mine]
    assert engine.lineup_why_not(profile, state, 1, kept) is None


def test_in_the_second_half_the_marker_that_leaves_no_place_for_a_card_still_to_place_is_named() -> None:
    """l.156: the second half plays the first half's markers. In a 5-3-2 the Visitor's #7 plays only among the
    Midfielders: once three others fill the Midfielders, #7 has nowhere left, so the third is named."""
    profile = _profile()
    state = _second_half(profile, "5-3-2")
    mine = {p["jersey"]: p for p in players("v", VISITOR_SIDE)}
    assert engine.lineup_why_not(profile, state, 1, [mine[6], mine[8]]) is None
    refusal = engine.lineup_why_not(profile, state, 1, [mine[6], mine[8], mine[9]])
    why = cm.NO_ROOM_LEFT.format(seat=1, names="Test pl_v7", sections="Midfielders", room=0)
    assert refusal == {"why": _says(state, why), "index": 2}
    # #7 among the three Midfielders and another moved back: taken, and the whole arrangement is
    shifted = [dict(p, zone="def_centre") if p["jersey"] == 8 else p for p in players("v", VISITOR_SIDE)]
    assert engine.lineup_why_not(profile, state, 1, shifted) is None


def test_a_card_placed_again_in_the_second_half_stands_on_the_marker_it_wore() -> None:
    """l.156: the page sends a card taken back and placed again without its marker: it is the first half's."""
    profile = _profile()
    state = _second_half(profile, "4-4-2")
    mine = players("v", VISITOR_SIDE)
    again = [dict(p, jersey=None, style=None) if p["jersey"] == 10 else p for p in mine]
    assert engine.lineup_why_not(profile, state, 1, again[:9]) is None
    assert engine.lineup_why_not(profile, state, 1, again) is None
    state = run(profile, [{"type": "arrange", "seat": 1, "players": again}], state)
    assert state.slice(cm.NAME).of(1).arrangement(1) is not None


def test_the_rest_of_a_second_half_is_filled_with_the_first_halfs_markers_in_the_formation_declared() -> None:
    """l.156: "Fill the rest" in the second half places the first half's markers, not others, in the 5-3-2 the
    Visitor declared, #7 among the Midfielders it plays in, and the engine takes the arrangement."""
    profile = _profile()
    state = _second_half(profile, "5-3-2")
    mine = players("v", VISITOR_SIDE)
    for placed in ([], mine[:3], [mine[5]]):
        event = engine.fill_lineup(profile, state, 1, placed)
        got = event["players"]
        assert sorted((p["jersey"], p["card"]) for p in got) == sorted((p["jersey"], p["card"]) for p in mine)
        assert got[:len(placed)] == [dict(p) for p in placed]
        assert [sum(1 for p in got if p["zone"].startswith(s)) for s in ("def", "mid", "fwd")] == [5, 3, 2]
        assert next(p["zone"] for p in got if p["card"] == "pl_v7").startswith("mid_")
        arranged = run(profile, [{"type": "arrange", "seat": 1, "players": got}], state)
        assert arranged.slice(cm.NAME).of(1).arrangement(1) is not None


def test_the_rest_of_a_first_half_is_filled_with_one_goalkeeper() -> None:
    """l.167 (one Goalkeeper a club): the Host holds two Goalkeepers; "Fill the rest" fields one of them."""
    profile = _profile()
    state = _declared(profile)
    event = engine.fill_lineup(profile, state, 2, [])
    keepers = [p["card"] for p in event["players"] if p["card"] in ("pl_h2", "pl_gk2")]
    assert len(keepers) == 1
    assert [sum(1 for p in event["players"] if p["zone"].startswith(s)) for s in ("def", "mid", "fwd")] == [4, 4, 2]
    arranged = run(profile, [{"type": "arrange", "seat": 2, "players": event["players"]}], state)
    assert arranged.slice(cm.NAME).of(2).arrangement(2) is not None
