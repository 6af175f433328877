"""The whole suite's options: ``--quick`` (``make quick``) keeps the developer's inner loop under half a minute.

``make test`` runs everything.  ``make quick`` leaves out what takes seconds each: tests marked ``slow`` or
``browser``, the end-to-end runs of whole games, and the modules below, which install, fuzz, or play whole games on
the simulated table to check the screens.  Everything left out still runs in ``make test`` (and in CI).
"""

from __future__ import annotations

import pytest

NOT_QUICK = (
    "tests/e2e/",  # whole games on the simulated table, killed and restarted tables
    "tests/soak/",
    "tests/engine/test_properties.py",  # random play, hundreds of events per example
    "tests/engine/test_data_fuzz.py",
    "tests/device/test_systemd.py",  # the installer, run against a fake root
    "tests/device/test_bench_test.py",
    "tests/device/test_hardening_inputs.py",
    "tests/device/test_oled_table.py",  # every screen of a whole game
    "tests/device/test_export_players.py",
    "tests/device/test_watchdog.py",
    "tests/drivers/test_hub_firmware.py",  # compiles the hub's firmware
)
"""Test modules ``make quick`` leaves to ``make test``."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--quick", action="store_true",
                     help="the inner loop: leave out slow, browser and whole-game tests (make quick)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--quick"):
        return
    kept, left = [], []
    for item in items:
        slow = item.get_closest_marker("slow") or item.get_closest_marker("browser")
        (left if slow or item.nodeid.startswith(NOT_QUICK) else kept).append(item)
    config.hook.pytest_deselected(items=left)
    items[:] = kept
