"""Rebuild game states from 10,000 events of real play: the target is at most 0.5 s on this 2-core machine.

One game of four clubs over eight weeks is about 560 events, so the 10,000 events are several whole games (each
set up and played with different choices and dice) rebuilt one after the other from their own logs, the last one
cut where the count is reached.  Nothing is padded: every event is a setup step, a roll, an action, a lineup...
Both wall-clock and CPU time are printed; the target is judged on the CPU time of the rebuilding process,
because wall-clock time also counts whatever else the machine runs at the moment (tests, browsers).
"""

from __future__ import annotations

import random
import time

import engine
from engine.legal import setup_events

TARGET_S = 0.5
EVENTS = 10_000


def play_game(profile: engine.Profile, seed: int) -> list[dict]:
    """A legal log of a whole four-club game, set up and played with choices and dice drawn from the seed."""
    rng = random.Random(seed)
    log = setup_events(profile, [1, 2, 3, 4], [rng.randrange(1000) for _ in range(30)])
    state = engine.replay(profile, log)
    while state.stage != "over":
        options = engine.legal_events(profile, state)
        # a pass ends a turn at once; preferring the other actions makes games as full as real ones
        event = rng.choice([e for e in options if e["type"] != "pass"] or options)
        state = engine.apply(profile, state, event).state
        log.append(event)
    return log


def build_logs(profile: engine.Profile, size: int = EVENTS) -> list[list[dict]]:
    """Whole games until `size` events are reached (the last one cut there)."""
    logs: list[list[dict]] = []
    total, seed = 0, 1
    while total < size:
        log = play_game(profile, seed)[: size - total]
        logs.append(log)
        total += len(log)
        seed += 1
    return logs


def _best(profile: engine.Profile, logs: list[list[dict]], rounds: int = 5) -> tuple[float, float]:
    """Best (CPU seconds, wall seconds) of a few rebuilds of every log."""
    cpu = wall = float("inf")
    for _ in range(rounds):
        started, started_cpu = time.perf_counter(), time.process_time()
        for log in logs:
            engine.replay(profile, log)
        cpu = min(cpu, time.process_time() - started_cpu)
        wall = min(wall, time.perf_counter() - started)
    return cpu, wall


def main() -> bool:
    """Print the rebuild time of 10,000 events of play against the target; False when it misses."""
    profile = engine.load_profile()
    logs = build_logs(profile)
    count = sum(len(log) for log in logs)
    kinds = {e["type"] for log in logs for e in log}
    cpu, wall = _best(profile, logs)
    print(f"   rebuild {count} events of play ({len(logs)} four-club games of {profile.name}, {len(kinds)} event types): "
          f"{cpu:.3f} s CPU, {wall:.3f} s wall (target ≤ {TARGET_S} s), {cpu / count * 1e6:.0f} µs CPU per event")
    return cpu <= TARGET_S


if __name__ == "__main__":
    main()
