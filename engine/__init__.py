"""The rules of Eleven as a pure reducer: no clock, no randomness, no I/O, no threads.

    profile = engine.load_profile()
    state = engine.initial_state(profile)
    step = engine.apply(profile, state, {"type": "club", "seat": 1, "name": "Middleham"})
    step.state, step.announcements
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping

from engine.cards import Profile
from engine.events import EVENT_TYPES
from engine.rules import Step, apply, replay
from engine.state import State
from engine.views import final_scores, view

__all__ = [
    "EVENT_TYPES",
    "Profile",
    "State",
    "Step",
    "apply",
    "final_scores",
    "initial_state",
    "legal_events",
    "load_profile",
    "replay",
    "undo",
    "view",
]


def load_profile(folder: str | Path | None = None) -> Profile:
    """The shipped demo deck and board profile (None), or an owner's transcription in a folder."""
    from engine.loader import load_profile as _load

    return _load(folder)


def initial_state(profile: Profile) -> State:
    """The state before setup: no clubs yet."""
    return State()


def undo(profile: Profile, events: Iterable[Mapping[str, Any]]) -> State:
    """The state without the last event (every event but the last, replayed)."""
    log = list(events)
    return replay(profile, log[:-1])


def legal_events(profile: Profile, state: State) -> list[dict[str, Any]]:
    """A sample of events the rules accept now (for tests, demos and the page's hints); not exhaustive."""
    from engine.legal import legal_events as _legal

    return _legal(profile, state)
