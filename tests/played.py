"""The logs of the shipped scenarios, each played once per test run and copied for every test that needs one.

A whole four-club game takes seconds to play on the simulated table; many tests start from one played to its end
(a restart, an export, the TV after the final scoring).  :func:`played` plays each scenario the first time it is
asked for and hands every caller its own copy of the log, so a test may change it.
"""

from __future__ import annotations

import atexit
import copy
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from device.replay import run_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
_HOME = Path(tempfile.mkdtemp(prefix="touchline-played-"))
atexit.register(shutil.rmtree, _HOME, True)
_PLAYED: dict[str, tuple[Path, dict[str, Any]]] = {}


def played(scenario: str, into: Path, name: str = "touchline.db") -> tuple[Path, dict[str, Any]]:
    """A copy (``into/name``) of the log of ``scenario`` played on the simulated table, and the replay's output."""
    if scenario not in _PLAYED:
        master = _HOME / f"{scenario}.db"
        _PLAYED[scenario] = (master, run_scenario(SCENARIOS / scenario, db_path=master))
    master, final = _PLAYED[scenario]
    into.mkdir(parents=True, exist_ok=True)
    target = into / name
    with sqlite3.connect(master) as source, sqlite3.connect(target) as copied:
        source.backup(copied)
    source.close()
    copied.close()
    return target, copy.deepcopy(final)
