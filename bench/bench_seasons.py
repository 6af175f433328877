"""A season's standings: eight whole games replayed through the engine the first time the page asks (after a restart),
then read again while nothing changed."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from device.replay import run_scenario
from device.seasons import FinalScores, standings
from device.store import open_store

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
PLAYED = ("full-game.toml", "modules-game.toml", "betting-game.toml")
GAMES = 8
COLD_TARGET_MS = 1000.0
"""Every game replayed once: the first look at a season of eight evenings after the table started."""
WARM_TARGET_MS = 10.0
ROUNDS = 5


def main() -> bool:
    """Print the standings' times for a season of eight whole games next to their targets; False when one is missed."""
    with tempfile.TemporaryDirectory(prefix="touchline-bench-season-") as folder:
        store = open_store(Path(folder) / "season.db")
        logs = []
        for number, scenario in enumerate(PLAYED):
            played = Path(folder) / f"played-{number}.db"
            run_scenario(SCENARIOS / scenario, db_path=played)
            with open_store(played) as source:
                game = source.games()[-1]
                logs.append((source.events(game.id), game.profile_source))
        for number in range(GAMES):
            events, profile = logs[number % len(logs)]
            store.finish(store.start_game(events, profile_source=profile).id)
        season = store.add_to_season(store.new_season("Bench league").id, [g.id for g in store.games()])
        events = sum(g.events for g in store.games())
        cold, warm = [], []
        for _ in range(ROUNDS):
            scores = FinalScores(store)  # a table just started: nothing replayed yet
            started = time.perf_counter()
            standings(store, season, scores)
            cold.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            standings(store, season, scores)
            warm.append((time.perf_counter() - started) * 1000)
        store.close()
    cold_ms, warm_ms = statistics.median(cold), statistics.median(warm)
    print(f"   season of {GAMES} whole games ({events} events), first look: {cold_ms:.0f} ms "
          f"(target ≤ {COLD_TARGET_MS:.0f} ms)")
    print(f"   the same season again, nothing changed:         {warm_ms:.1f} ms (target ≤ {WARM_TARGET_MS:.0f} ms)")
    return cold_ms <= COLD_TARGET_MS and warm_ms <= WARM_TARGET_MS


if __name__ == "__main__":
    raise SystemExit(0 if main() else 1)
