"""Rebuild game states from 10,000 events of real play, and answer "why not?" for a page: the targets are at most
0.3 s of CPU for the rebuild on this 2-core machine, and a median of at most 1 ms for `engine.why_not`; the rebuild is
timed with every rule module of the advanced rules' first part on (Division, Referee, Betting, the New Objective cards,
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
import statistics
import time
import tomllib
from pathlib import Path

import engine
from engine.legal import setup_events

TARGET_S = 0.3
EVENTS = 10_000
WHY_NOT_TARGET_MS = 1.0
#: The game whose modules "why not" is asked with: the shipped scenario playing every module of one club's play.
EVERY_MODULE_GAME = Path(__file__).resolve().parents[1] / "scenarios" / "every-module-game.toml"
#: The modules of one club's play (issue 8's part 1), each played when the engine has it.
MODULES = ("division", "referee", "betting", "new_objectives", "market", "unique_setup", "new_infrastructure")


def every_module() -> dict:
    """The ``game`` event playing every module of `MODULES` the engine has (Division 3, the deck's eight weeks)."""
    have = [name for name in MODULES if engine.host.module(name) is not None]
    return {"type": "game", "modules": have, "options": {"division": 3} if "division" in have else {},
            "revision": engine.REVISION}


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


def scenario_game(path: Path = EVERY_MODULE_GAME) -> dict:
    """The ``game`` event of a scenario's new game: its modules and options (the weeks left to the deck)."""
    step = next(s for s in tomllib.loads(path.read_text())["step"] if s.get("page") == "new_game")
    options = {k: v for k, v in step.get("options", {}).items() if k != "weeks"}
    return {"type": "game", "modules": list(step.get("modules", [])), "options": options, "revision": engine.REVISION}


def _median_ms(calls: list[tuple]) -> float:
    """The median wall time of calls (function, arguments...), each timed alone, in milliseconds."""
    times = []
    for fn, *args in calls:
        started = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def why_not_figures(profile: engine.Profile, game: dict) -> tuple[float, dict[str, float]]:
    """The median time of `engine.why_not` over a whole four-club game of ``game``'s modules: at every state, the
    event played there (accepted) and the one played next (mostly refused: a seat out of turn, a roll not awaited);
    and `engine.lineup_why_not` for each lineup of the game, marker by marker.  Returns (median ms, figures)."""
    log = play_game(profile, 1, game)
    states = [engine.initial_state(profile)]
    for event in log:
        states.append(engine.apply(profile, states[-1], event, quiet=True).state)
    asked = [(engine.why_not, profile, states[i], log[j]) for i in range(len(log)) for j in (i, i + 1) if j < len(log)]
    said = [engine.why_not(*call[1:]) for call in asked]
    refused = [call for call, why in zip(asked, said) if why is not None]
    accepted = [call for call, why in zip(asked, said) if why is None]
    lineups = [(engine.lineup_why_not, profile, states[i], e["seat"], e["players"][:k])
               for i, e in enumerate(log) if e["type"] == "lineup" for k in range(1, len(e["players"]) + 1)]
    figures = {"all": _median_ms(asked), "accepted": _median_ms(accepted), "refused": _median_ms(refused),
               "lineup": _median_ms(lineups) if lineups else 0.0, "count": len(asked), "lineups": len(lineups)}
    return figures["all"], figures


def main() -> bool:
    """Print the rebuild time of 10,000 events of play, base game and every module on, and the median time of "why
    not?" with every module of the every-module scenario on, against their targets; False when one misses it."""
    profile = engine.load_profile()
    game = scenario_game()
    median, f = why_not_figures(profile, game)
    print(f"   why_not with {', '.join(game['modules'])}: median {median:.3f} ms over {f['count']} questions "
          f"(target ≤ {WHY_NOT_TARGET_MS} ms); accepted {f['accepted']:.3f} ms, refused {f['refused']:.3f} ms; "
          f"lineup_why_not {f['lineup']:.3f} ms for a lineup being placed ({f['lineups']} asked)")
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
    return cpu <= TARGET_S and median <= WHY_NOT_TARGET_MS


if __name__ == "__main__":
    main()
