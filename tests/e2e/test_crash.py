"""A pulled plug: the table's process is killed (SIGKILL) at random points of a scripted session, many times.

After each kill the table is started again on the same log: its state must equal the log folded by the engine,
no event it had acknowledged may be missing, and the screens must show where the game was.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import engine
from device.session import Session
from device.sim import ForcedDice
from device.store import open_store
from device.table_file import default_sim_table
from tests.e2e.crash_child import digest

ROOT = Path(__file__).resolve().parents[2]
KILLS = 12
BUDGET = 50.0  # seconds for all the kills together; fewer kills run when the machine is slow


def run_and_kill(db: Path, rng: random.Random) -> list[tuple[int, str]]:
    """Start the child, let it acknowledge a random number of steps, kill it mid-way; return its acknowledgements."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.e2e.crash_child", str(db)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "TOUCHLINE_BACKEND": "sim"},
    )
    assert child.stdout is not None
    target = rng.randint(1, 80)
    acks: list[tuple[int, str]] = []
    try:
        for line in child.stdout:
            if line.startswith("ACK"):
                _, count, state = line.split()
                acks.append((int(count), state))
            if len(acks) >= target or line.startswith("DONE"):
                break
        # Kill it while it works on the next step (or a moment later): a random point, not a quiet one.
        time.sleep(rng.random() * 0.02)
        child.send_signal(signal.SIGKILL)
        rest, _ = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    for line in rest.splitlines():  # acknowledgements printed before the kill landed count too
        if line.startswith("ACK"):
            _, count, state = line.split()
            acks.append((int(count), state))
    return acks


@pytest.mark.slow
def test_killed_table_comes_back_exactly_where_it_was(tmp_path: Path) -> None:
    rng = random.Random(20260521)
    config = default_sim_table()
    profile = engine.load_profile()
    started = time.monotonic()
    kills = 0
    while kills < KILLS and time.monotonic() - started < BUDGET:
        db = tmp_path / f"kill{kills}.db"
        acks = run_and_kill(db, rng)
        kills += 1
        store = open_store(db)
        try:
            session = Session(config, store, ForcedDice(strict=True), profile=profile)
            log = store.events(session.game) if session.game is not None else []
            # The state the table comes back with is the log folded by the engine...
            if session.game is not None:
                assert session.state == engine.replay(profile, log)
            # ...nothing acknowledged is lost...
            acknowledged = max((count for count, _ in acks), default=0)
            assert len(log) >= acknowledged
            # ...and when the kill fell between two steps, the state is exactly the acknowledged one.
            same = [state for count, state in acks if count == len(log)]
            if same:
                assert digest(session.state) == same[-1]
            # The screens show where the game is.
            view = session.view()
            if view is not None:
                where = session.screen("seat1.screen").where
                assert where.startswith("Wk ") and (str(view["week"]) in where)
        finally:
            store.close()
    assert kills >= 5, f"only {kills} kills fit in {BUDGET} s"
