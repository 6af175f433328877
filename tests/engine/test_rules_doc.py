"""engine/RULES.md names every event and every kind of wait the engine uses, so the page and the device can rely on it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import engine
from engine.events import EVENT_TYPES

from tests.engine.golden.regenerate import DECK, EVENTS

DOC = (Path(engine.__file__).parent / "RULES.md").read_text()


def test_every_event_type_is_documented() -> None:
    missing = [name for name in engine.event_types() if f"`{name}`" not in DOC]
    assert not missing, f"RULES.md does not mention {missing}"
    assert set(EVENT_TYPES) < set(engine.event_types())


def test_every_hook_a_module_may_fill_is_documented() -> None:
    from engine.host import HOOKS

    assert not [name for name in HOOKS if f"`{name}`" not in DOC]


def test_every_need_and_announcement_kind_of_the_golden_game_is_documented() -> None:
    profile = engine.load_profile(DECK)
    state = engine.initial_state(profile)
    needs: set[str] = set()
    kinds: set[str] = set()
    for line in EVENTS.read_text().splitlines():
        step = engine.apply(profile, state, json.loads(line))
        state = step.state
        needs.update(a["need"] for a in state.awaiting)
        kinds.update(a["kind"] for a in step.announcements)
    assert not [n for n in needs if f"`{n}`" not in DOC]
    assert not [k for k in kinds if f"`{k}`" not in DOC]


def test_every_announcement_kind_in_the_rules_is_documented() -> None:
    source = "".join(p.read_text() for p in Path(engine.__file__).parent.rglob("*.py"))
    kinds = set(re.findall(r'say\(\s*"(\w+)"', source))
    assert len(kinds) > 40
    assert not sorted(k for k in kinds if f"`{k}`" not in DOC)
