"""Property tests: random legal play never crashes, replays identically, undoes cleanly and keeps numbers legal;
random malformed events are refused with an engine error and change nothing."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.errors import EngineError
from engine.events import EVENT_TYPES
from engine.legal import setup_events
from engine.state import State

from tests.engine.helpers import demo

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check_numbers(state: State) -> None:
    """Nothing the rules keep non-negative ever goes below zero; Stats stay on their tracks."""
    top = demo().board.stat_max
    for c in state.clubs:
        assert all(r >= 0 for r in c.res), c.res
        assert all(1 <= s <= top for s in c.stats), c.stats
        assert c.vp_tokens >= 0 and c.points >= 0 and c.goals >= 0 and c.conceded >= 0
        assert 0 <= c.office <= len(demo().board.office)
        for h in c.players + c.staff:
            assert h.injury >= 0 and h.suspension >= 0 and h.vp >= 0 and all(a >= 0 for a in h.assigned)
    for t in state.teams:
        assert t.points >= 0


def _play(data: Any, steps: int) -> tuple[list[dict[str, Any]], State]:
    profile = demo()
    seats = data.draw(st.sampled_from([[1], [1, 2], [2, 3, 4], [1, 2, 3, 4]]), label="seats")
    picks = data.draw(st.lists(st.integers(0, 999), min_size=30, max_size=30), label="picks")
    log = setup_events(profile, seats, picks)
    state = engine.replay(profile, log)
    for _ in range(steps):
        options = engine.legal_events(profile, state)
        if not options:
            assert state.stage == "over", state.awaiting
            break
        event = options[data.draw(st.integers(0, len(options) - 1), label="choice")]
        step = engine.apply(profile, state, event)
        state = step.state
        assert step.announcements, f"{event['type']} said nothing"
        assert all({"kind", "seat", "text"} <= a.keys() and a["text"].endswith((".", "?", "!")) for a in step.announcements)
        log.append(event)
        _check_numbers(state)
    return log, state


@SETTINGS
@given(st.data())
def test_random_legal_play_replays_to_the_same_state_and_round_trips_json(data: Any) -> None:
    profile = demo()
    log, state = _play(data, 150)
    again = engine.replay(profile, json.loads(json.dumps(log)))
    assert again == state
    assert State.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    json.dumps(engine.view(profile, state))


@SETTINGS
@given(st.data())
def test_undo_then_redo_gives_the_same_state(data: Any) -> None:
    profile = demo()
    log, state = _play(data, 80)
    before = engine.undo(profile, log)
    assert before == engine.replay(profile, log[:-1])
    assert engine.apply(profile, before, log[-1]).state == state


_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.text(max_size=6),
                    st.sampled_from(["pl_01", "st_05", "sp_01", "dir_01", "bm_01", "opp_downtown_1", "tac_01", "stands", "budget", "win"]),
                    st.lists(st.sampled_from(["pl_01", "st_01", "yg_01", "x"]), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
_FIELDS = ["seat", "card", "cards", "value", "team", "stat", "kind", "contract", "players", "stands", "what", "delta", "result", "free", "targets", "name"]


@SETTINGS
@given(st.data())
def test_random_events_are_either_applied_or_refused_with_an_engine_error(data: Any) -> None:
    profile = demo()
    _, state = _play(data, data.draw(st.integers(0, 60), label="warm-up"))
    for _ in range(25):
        event: dict[str, Any] = {"type": data.draw(st.sampled_from(sorted(EVENT_TYPES) + ["bogus"]))}
        for name in data.draw(st.lists(st.sampled_from(_FIELDS), max_size=5, unique=True)):
            event[name] = data.draw(_VALUES)
        before = state.to_dict()
        try:
            state = engine.apply(profile, state, event).state
        except EngineError as err:
            assert str(err) and state.to_dict() == before
        _check_numbers(state)
