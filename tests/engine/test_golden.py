"""The golden playthrough: a whole four-club game of the demo deck, replayed and compared with its transcript.

When a rule changes on purpose, regenerate with ``.venv/bin/python -m tests.engine.golden.regenerate`` and review
the transcript's diff before committing it.
"""

from __future__ import annotations

import difflib
import json

import engine
from engine.state import State

from tests.engine.golden.regenerate import DECK, EVENTS, TRANSCRIPT, transcript


def _events() -> list[dict]:
    return [json.loads(line) for line in EVENTS.read_text().splitlines() if line.strip()]


def test_the_golden_game_replays_to_the_recorded_transcript() -> None:
    expected = TRANSCRIPT.read_text()
    got = transcript(_events())
    if got != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), got.splitlines(True), "recorded", "now", n=2))
        raise AssertionError("the golden game plays differently now (regenerate if intended):\n" + diff[:4000])


def test_the_golden_game_is_a_full_eight_week_four_club_game_with_a_winner() -> None:
    profile = engine.load_profile(DECK)
    state = engine.replay(profile, _events())
    assert state.stage == "over" and state.week == state.weeks == 8 and len(state.clubs) == 4
    final = engine.view(profile, state)["final"]
    assert [r["rank"] for r in final] == sorted(r["rank"] for r in final) and final[0]["winner"]
    for row in final:
        parts = ("league", "vp_tokens", "staff_sets", "infrastructure", "objective", "office", "budget")
        assert row["total"] == sum(row[p] for p in parts)


def test_the_golden_game_replays_identically_and_survives_json() -> None:
    profile = engine.load_profile(DECK)
    events = _events()
    first = engine.replay(profile, events)
    assert engine.replay(profile, events) == first
    assert State.from_dict(json.loads(json.dumps(first.to_dict()))) == first
    assert json.loads(json.dumps(engine.view(profile, first))) == engine.view(profile, first)
