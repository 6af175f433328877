"""Shared helpers for the engine tests: the demo profile, profiles with extra cards, games at a given moment."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any, Callable, Iterable

import pytest

import engine
from engine import errors as E
from engine.cards import (
    Ability,
    BoardMeeting,
    Decision,
    Director,
    Effect,
    Footballer,
    Opponent,
    PlayerCard,
    PlayerSide,
    Profile,
    ZONES,
)
from engine.legal import setup_events
from engine.state import Club, State, evolve


@lru_cache(maxsize=1)
def demo() -> Profile:
    """The shipped demo deck and board profile."""
    return engine.load_profile()


def with_cards(profile: Profile, *cards: Any) -> Profile:
    """The profile plus some cards of a test's own."""
    merged = dict(profile.cards)
    merged.update({c.id: c for c in cards})
    return replace(profile, cards=merged)


def footballer(card_id: str, jersey: int, style: str, strength: int, sections: tuple[str, ...] = ("def", "mid", "fwd"),
               *, cost: int = 2, trained_strength: int | None = None, abilities: tuple[Ability, ...] = (),
               experience: tuple[str, ...] = ()) -> PlayerCard:
    """A footballer card with the same numbers on both sides (unless told otherwise)."""
    kind = {"yg": "youngster", "vet": "veteran"}.get(card_id.split("_")[0], "player")
    side = PlayerSide(cost=cost, style=style, sections=sections, strength=strength, jersey=jersey)
    trained = replace(side, strength=trained_strength if trained_strength is not None else strength, abilities=abilities, experience=experience)
    return PlayerCard(id=card_id, kind=kind, name=f"Test {card_id}", untrained=side, trained=trained)


def opponent(card_id: str, team: str, zones: dict[str, str]) -> Opponent:
    """An Opponent card from a compact form: {"def_left": "D2 A1", ...}."""
    parsed = []
    for zone in ZONES:
        items = zones.get(zone, "").split()
        parsed.append((zone, tuple(Footballer(style="attack" if t[0] == "A" else "defence", strength=int(t[1:])) for t in items)))
    return Opponent(id=card_id, kind="opponent", name=f"Test {card_id}", team=team, division=1, zones=tuple(parsed))


def director(card_id: str, votes: str, stat_changes: tuple[tuple[str, int], ...] = ()) -> Director:
    """A Director voting by the letters of `votes` (y/b/r per d6 face)."""
    colours = {"y": "yellow", "b": "blue", "r": "red"}
    return Director(id=card_id, kind="director", name=f"Director {card_id}", votes=tuple(colours[v] for v in votes),  # type: ignore[arg-type]
                    stat_changes=stat_changes)


def board_meeting(card_id: str, **decisions: tuple[Effect, ...]) -> BoardMeeting:
    """A Board meeting card with the given decisions."""
    return BoardMeeting(id=card_id, kind="board_meeting", name=f"Meeting {card_id}",
                        decisions=tuple(Decision(colour=c, title=f"{c} decision", effects=e) for c, e in decisions.items()))


def run(profile: Profile, events: Iterable[dict[str, Any]], state: State | None = None) -> State:
    """Apply events in order."""
    state = state if state is not None else engine.initial_state(profile)
    for ev in events:
        state = engine.apply(profile, state, ev).state
    return state


def started(profile: Profile | None = None, seats: tuple[int, ...] = (1, 2, 3, 4)) -> State:
    """A game just past setup: week 1, Monday, Production done."""
    profile = profile or demo()
    return run(profile, setup_events(profile, list(seats)))


def set_club(state: State, seat: int, **changes: Any) -> State:
    """The state with one club's fields replaced."""
    return evolve(state, clubs=tuple(evolve(c, **changes) if c.seat == seat else c for c in state.clubs))


def club(state: State, seat: int) -> Club:
    """The club at a seat (fails the test when missing)."""
    c = state.club(seat)
    assert c is not None
    return c


def advance_until(profile: Profile, state: State, done: Callable[[State], bool],
                  choose: Callable[[list[dict[str, Any]]], dict[str, Any]] | None = None, limit: int = 3000) -> State:
    """Play legal events (the first one offered, or `choose`'s pick) until `done(state)`."""
    for _ in range(limit):
        if done(state):
            return state
        options = engine.legal_events(profile, state)
        assert options, f"no legal event at {state.stage}: {state.awaiting}"
        state = engine.apply(profile, state, choose(options) if choose else _prefer_pass(options, state.events)).state
    raise AssertionError("the game did not reach the wanted moment")


def _prefer_pass(options: list[dict[str, Any]], turn: int) -> dict[str, Any]:
    for kind in ("pass", "keep", "kickoff"):
        for ev in options:
            if ev["type"] == kind:
                return ev
    rolls = [ev for ev in options if ev["type"] == "roll"]
    if rolls:  # vary the dice so that a tie or a bad roll does not repeat forever
        return rolls[((turn * 2654435761) >> 7) % len(rolls)]
    return options[0]


def at_stage(profile: Profile, state: State, stage: str) -> State:
    """Play the simplest legal events until the stage begins."""
    return advance_until(profile, state, lambda s: s.stage == stage)


def refused(profile: Any, state: State, event: dict[str, Any], error: type[Exception], text: str = "") -> str:
    """The event is refused with that error class, and the state is left exactly as it was."""
    before = state.to_dict()
    with pytest.raises(error) as info:
        engine.apply(profile, state, event)
    assert isinstance(info.value, E.EngineError) and isinstance(info.value, ValueError | KeyError)
    assert state.to_dict() == before
    assert text in str(info.value)
    return str(info.value)


def tuesday(seats: tuple[int, ...] = (1, 2, 3, 4), first: int = 1, profile: Profile | None = None) -> tuple[Profile, State]:
    """A game at the first Tuesday, with the First player chosen."""
    profile = profile or demo()
    events = setup_events(profile, list(seats))
    events[-1] = {"type": "first_player", "seat": first}
    state = at_stage(profile, run(profile, events), "tuesday")
    return profile, state
