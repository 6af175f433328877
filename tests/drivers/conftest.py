"""Fixtures shared by the driver tests."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockPin

from drivers.base import ManualClock

# How long a test waits for a background thread to deliver a reading before it fails.
# Tests wait for an outcome; they never assert on how long it took.
WAIT = 5.0


class ReadingLog:
    """Collects readings handed to a driver callback from any thread, and waits for them."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._changed = threading.Condition()

    def __call__(self, reading: Any) -> None:
        with self._changed:
            self.items.append(reading)
            self._changed.notify_all()

    def wait_for(self, predicate: Callable[[list[Any]], bool], what: str) -> list[Any]:
        """Wait until ``predicate(items)`` holds; fail naming ``what`` was awaited and what came instead."""
        with self._changed:
            if not self._changed.wait_for(lambda: predicate(self.items), timeout=WAIT):
                pytest.fail(f"waited in vain for {what}; got {self.items!r}")
            return list(self.items)

    def wait_count(self, count: int, what: str = "readings") -> list[Any]:
        """Wait until at least ``count`` readings have arrived."""
        return self.wait_for(lambda items: len(items) >= count, f"{count} {what}")


@pytest.fixture(autouse=True)
def no_thread_outlives_its_test() -> Iterator[None]:
    """Fail a test that leaves a driver's thread running (a scanner, hub or retry timer nobody stopped)."""
    before = set(threading.enumerate())
    yield
    left = [t for t in threading.enumerate() if t not in before]
    for thread in left:
        thread.join(WAIT)  # a thread being stopped may still be finishing its last step
    alive = [t.name for t in left if t.is_alive()]
    assert not alive, f"threads still running after the test: {alive}"


@pytest.fixture
def reading_log() -> ReadingLog:
    """A callback that records readings (use a second one for health readings)."""
    return ReadingLog()


@pytest.fixture
def health_log() -> ReadingLog:
    """A callback that records health readings."""
    return ReadingLog()


@pytest.fixture
def manual_clock() -> Iterator[ManualClock]:
    """A clock the test moves by hand, for heartbeat, debounce and hold timing."""
    yield ManualClock()


class HeldDownPin(MockPin):
    """A button line that a closed contact holds low whatever the pull-up says (stuck, or held at boot)."""

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self._change_state(False)


@pytest.fixture
def sim_rig() -> Any:
    """A fresh simulated Pi: MFRC522 chips on its SPI selects, one simulated clock, fake spidev and RPi.GPIO."""
    from drivers.rfid.sim import SimRig

    return SimRig()


@pytest.fixture
def open_sim_reader(sim_rig: Any) -> Iterator[Callable[..., Any]]:
    """Opens our readers on ``sim_rig`` (name, bus, device, rst_pin) and closes them after the test."""
    from drivers.rfid.reader import open_reader

    opened: list[Any] = []

    def open_one(name: str = "pad", bus: int = 0, device: int = 0, rst_pin: int = 25) -> Any:
        reader = open_reader(name, bus, device, rst_pin, "sim", rig=sim_rig)
        opened.append(reader)
        return reader

    yield open_one
    for reader in opened:
        reader.close()


@pytest.fixture
def library_log_handlers() -> Iterator[list[Any]]:
    """The handlers on the mfrc522 package's logger; whatever a test adds is removed afterwards."""
    import logging

    library_log = logging.getLogger("mfrc522Logger")
    before = list(library_log.handlers)
    yield library_log.handlers
    for handler in list(library_log.handlers):
        if handler not in before:
            library_log.removeHandler(handler)
