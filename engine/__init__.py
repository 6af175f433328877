"""The rules of Eleven as a pure reducer: no clock, no randomness, no I/O, no threads.

    profile = engine.load_profile()
    state = engine.initial_state(profile)
    step = engine.apply(profile, state, {"type": "club", "seat": 1, "name": "Middleham"})
    step.state, step.announcements
    engine.why_not(profile, step.state, {"type": "pass", "seat": 1})   # the sentence, or None when accepted
    engine.lineup_why_not(profile, state, 1, placed)   # which jersey marker placed so far is refused, and why
    engine.fill_lineup(profile, state, 1, placed)      # the lineup event with the rest placed by the rules' choice
    engine.card_uses(profile, state, 1, "st_06")       # what a card may do for the club now, and what it asks to choose

A game is a pack (``eleven``) plus the rule modules chosen for it (`modules`); its first event may name them
(``{"type": "game", "modules": [...], "options": {...}}``).  How to write a module: engine/RULES.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping

import engine.modules  # noqa: F401  (the shipped modules register themselves)
import engine.rules  # noqa: F401  (the base game registers itself as the pack "eleven")
from engine import host
from engine.cards import Profile
from engine.events import EVENT_TYPES
from engine.legal import legal_events as _legal_events
from engine.lineup import fill_lineup, lineup_why_not
from engine.loader import load_profile as _load
from engine.errors import EngineError
from engine.reducer import GAME_DOC, GAME_EVENT, REVISION, Step, apply, check_game, replay, why_not
from engine.rules.league import week_opponent
from engine.state import State
from engine.uses import card_uses
from engine.views import final_scores, secret_cards, view
from engine.words import club_words

__all__ = [
    "EVENT_TYPES",
    "REVISION",
    "Profile",
    "State",
    "Step",
    "apply",
    "card_uses",
    "club_words",
    "event_types",
    "final_scores",
    "fill_lineup",
    "game_options",
    "game_problem",
    "initial_state",
    "legal_events",
    "lineup_why_not",
    "load_profile",
    "modules",
    "replay",
    "seat_events",
    "secret_cards",
    "undo",
    "view",
    "week_opponent",
    "why_not",
]


def load_profile(folder: str | Path | None = None) -> Profile:
    """The shipped demo deck and board profile (None), or an owner's transcription in a folder."""
    return _load(folder)


def initial_state(profile: Profile) -> State:
    """The state before setup: no clubs yet (the base game until a ``game`` event names modules)."""
    return State()


def undo(profile: Profile, events: Iterable[Mapping[str, Any]]) -> State:
    """The state without the last event (every event but the last, replayed)."""
    log = list(events)
    return replay(profile, log[:-1])


def legal_events(profile: Profile, state: State) -> list[dict[str, Any]]:
    """A sample of events the rules accept now (for tests, demos and the page's hints); not exhaustive."""
    return _legal_events(profile, state)


def event_types(state: State | None = None) -> dict[str, str]:
    """Every event a game takes, with its fields in words: the ``game`` event, the pack's and its modules' events.

    Without a state: every event of the base game and of every registered module (what a form may send at all).
    """
    rules = host.rules_for((state or State()).game)
    out = {GAME_EVENT: GAME_DOC, **{name: spec.doc for name, spec in rules.events.items()}}
    if state is None:
        for m in host.modules():
            out.update({name: spec.doc for name, spec in m.events.items()})
    return out


def seat_events(state: State | None = None) -> frozenset[str]:
    """The events a seat sends from its own page: those its game's rules mark ``seat_page`` (a club's secret
    choices).  Without a state: those of every registered module."""
    rules = host.rules_for((state or State()).game)
    specs = dict(rules.events)
    if state is None:
        for m in host.modules():
            specs.update(m.events)
    return frozenset(name for name, spec in specs.items() if spec.seat_page)


def modules(profile: Profile | None = None) -> list[dict[str, Any]]:
    """The rule modules a game may choose: name, title, what it is, its options, the data files it reads, what it
    needs and excludes (each by name and title).

    With a profile, each option lists the values it offers with this deck (``choices``), and a module whose
    required data files the deck lacks says so (``available`` false, ``missing``: the sentence a game would be
    refused with).
    """
    out = []
    for m in host.modules():
        item: dict[str, Any] = {
            "name": m.name, "title": m.title, "doc": m.doc, "options": _options(m.options, profile),
            "data": [d.name for d in m.data], "requires": list(m.requires), "excludes": list(m.excludes),
            "excludes_titles": [_title(n) for n in m.excludes], "requires_titles": [_title(n) for n in m.requires],
        }
        if profile is not None:
            missing = next((d.name for d in m.data if d.required and d.name not in profile.module_data.get(m.name, {})), None)
            item["available"] = missing is None
            if missing is not None:
                item["missing"] = str(game_problem([m.name], {}, profile))
        out.append(item)
    return out


def game_options(profile: Profile | None = None, pack: str = "eleven") -> dict[str, dict[str, Any]]:
    """The options every game of a pack takes (``weeks``), described as `modules` describes a module's."""
    found = host.pack(pack)
    return _options(found.options if found is not None else {}, profile)


def game_problem(modules: Iterable[str], options: Mapping[str, Any] | None = None, profile: Profile | None = None,
                 pack: str = "eleven") -> str | None:
    """Why a game with these modules and options would be refused, as the sentence the engine says; None when fine.

    Without a profile the deck's data is not looked at (a table file's defaults are checked before the deck loads).
    """
    try:
        check_game({"type": GAME_EVENT, "pack": pack, "modules": list(modules), "options": dict(options or {})}, profile)
    except EngineError as refusal:
        return str(refusal)
    return None


def _options(options: Mapping[str, host.Option], profile: Profile | None) -> dict[str, dict[str, Any]]:
    return {k: {"title": o.title or k.replace("_", " ").capitalize(), "doc": o.doc, "default": o.default,
                **({"choices": o.offered(profile)} if profile is not None or not callable(o.choices) else {})}
            for k, o in options.items()}


def _title(name: str) -> str:
    found = host.module(name)
    return found.title if found is not None else name
