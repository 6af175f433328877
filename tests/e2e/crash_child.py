"""The process the crash test kills: plays the shipped full-week scenario on a table whose log is ``argv[1]``.

After each step it prints ``ACK <events in the log> <digest of the state>``: by then the step's events are
committed and the screens show them, so everything up to that line has been acknowledged to the players.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from device.replay import parse, run_step
from device.sim import SimulatedTable

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "full-week.toml"


def digest(state: object) -> str:
    """A short fingerprint of a state (None before a game)."""
    data = None if state is None else state.to_dict()  # type: ignore[attr-defined]
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def main() -> int:
    """Play every step, acknowledging each on stdout."""
    scenario = parse(SCENARIO)
    with SimulatedTable.open(Path(sys.argv[1]), dice=scenario.dice) as table:
        store = table.session.store
        for step in scenario.steps:
            run_step(table, step)
            count = len(store.events(table.session.game)) if table.session.game is not None else 0
            print(f"ACK {count} {digest(table.session.state)}", flush=True)
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
