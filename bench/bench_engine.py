"""Rebuild game states from 10,000 events of real play: the target is at most 0.3 s of CPU on this 2-core machine,
with every rule module of the advanced rules' first part on (Division, Referee, Betting, the New Objective cards,
and the Market, Unique Setup and New Infrastructure modules once the engine has them); the base game alone is
printed beside it.

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

TARGET_S = 0.3
EVENTS = 10_000
#: The modules of one club's play (issue 8's part 1), each played when the engine has it.
MODULES = ("division", "referee", "betting", "new_objectives", "market", "unique_setup", "new_infrastructure")


def every_module() -> dict:
    """The ``game`` event playing every module of `MODULES` the engine has (Division 3, the deck's eight weeks)."""
    have = [name for name in MODULES if engine.host.module(name) is not None]
    return {"type": "game", "modules": have, "options": {"division": 3} if "division" in have else {}}


def play_game(profile: engine.Profile, seed: int, game: dict | None = None) -> list[dict]:
    """A legal log of a whole four-club game (of ``game``'s modules), set up and played with choices and dice drawn
    from the seed."""
    rng = random.Random(seed)
    log = setup_events(profile, [1, 2, 3, 4], [rng.randrange(1000) for _ in range(30)], game=game)
    state = engine.replay(profile, log)
    while state.stage != "over":
        options = engine.legal_events(profile, state)
        # a pass ends a turn at once; preferring the other actions makes games as full as real ones
        event = rng.choice([e for e in options if e["type"] != "pass"] or options)
        state = engine.apply(profile, state, event).state
        log.append(event)
    return log


def build_logs(profile: engine.Profile, size: int = EVENTS, game: dict | None = None) -> list[list[dict]]:
    """Whole games until `size` events are reached (the last one cut there)."""
    logs: list[list[dict]] = []
    total, seed = 0, 1
    while total < size:
        log = play_game(profile, seed, game)[: size - total]
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
    """Print the rebuild time of 10,000 events of play, base game and every module on, against the target; False
    when the game with every module misses it."""
    profile = engine.load_profile()
    cpu = 0.0
    for label, game in (("the base game", None), ("every module", every_module())):
        logs = build_logs(profile, game=game)
        count = sum(len(log) for log in logs)
        kinds = {e["type"] for log in logs for e in log}
        cpu, wall = _best(profile, logs)
        modules = f" with {', '.join(game['modules'])}" if game else ""
        print(f"   rebuild {count} events of play, {label} ({len(logs)} four-club games of {profile.name}{modules}, "
              f"{len(kinds)} event types): {cpu:.3f} s CPU, {wall:.3f} s wall (target ≤ {TARGET_S} s), "
              f"{cpu / count * 1e6:.0f} µs CPU per event")
    return cpu <= TARGET_S


if __name__ == "__main__":
    main()
