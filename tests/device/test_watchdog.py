"""The watchdog pings systemd only while the table really works: its loop turns, the scanner sweeps, the hubs read."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from device import hardware as hardware_module
from device import serve
from device.sim import SimHardware
from device.table_file import TABLES_DIR, default_sim_table, load_table
from drivers.hub import HUB_THREAD_DEAD
from drivers.rfid.scanner import SCANNER_STUCK

WAIT = 5.0


class Notifier:
    """Records what would go to systemd."""

    watchdog_seconds = 0.02

    def __init__(self) -> None:
        self.messages: list[str] = []

    def notify(self, message: str) -> None:
        self.messages.append(message)


@pytest.fixture
def fast_stall(monkeypatch: pytest.MonkeyPatch) -> None:
    # short enough for a test, long enough that a busy machine's slow turn (a hub's read waits 0.1 s) is no stall
    monkeypatch.setattr(hardware_module, "STALL_SECONDS", 1.0)


def pings_after(hardware: Any, trouble: Any, caplog: pytest.LogCaptureFixture) -> tuple[int, int]:
    """Run the watchdog, cause ``trouble`` once it has pinged, and count pings before it and after it has told."""
    notifier = Notifier()

    async def scenario() -> tuple[int, int]:
        task = asyncio.create_task(serve._watchdog(notifier, hardware))  # type: ignore[arg-type]
        try:
            while notifier.messages.count("WATCHDOG=1") < 3:
                await asyncio.sleep(0.01)
            trouble()
            for _ in range(int(WAIT / 0.01)):
                if any(serve.WATCHDOG_WITHHELD in r.getMessage() for r in caplog.records):
                    break
                await asyncio.sleep(0.01)
            before = notifier.messages.count("WATCHDOG=1")
            await asyncio.sleep(0.2)
            return before, notifier.messages.count("WATCHDOG=1")
        finally:
            task.cancel()

    return asyncio.run(scenario())


@pytest.fixture
def spi_table() -> Iterator[SimHardware]:
    hardware = SimHardware(default_sim_table(), threaded=True)
    hardware.start(lambda reading: None)
    yield hardware
    hardware.stop()


def test_a_hung_scanner_stops_the_pings(spi_table: SimHardware, fast_stall: None,
                                        caplog: pytest.LogCaptureFixture) -> None:
    hang = threading.Event()
    reader = next(iter(spi_table.readers.values()))
    poll = reader.poll

    def hung_poll() -> Any:
        hang.wait(WAIT)  # an SPI transfer that never returns
        return poll()

    assert spi_table.stalled() is None
    before, after = pings_after(spi_table, lambda: setattr(reader, "poll", hung_poll), caplog)
    hang.set()
    assert after == before, "no ping once the scanner stopped sweeping"
    said = [r.getMessage() for r in caplog.records if serve.WATCHDOG_WITHHELD in r.getMessage()]
    assert len(said) == 1 and said[0].startswith(SCANNER_STUCK.split("{")[0]), said


def test_a_dead_hub_thread_stops_the_pings(fast_stall: None, caplog: pytest.LogCaptureFixture) -> None:
    hardware = SimHardware(load_table(TABLES_DIR / "four-seats-hub.toml"), threaded=True)
    hardware.start(lambda reading: None)
    try:
        hub = next(iter(hardware.hubs.values()))
        def crash() -> None:  # the thread ends as if it had crashed, before the watchdog looks again
            hub._stop.set()
            hub._thread.join(WAIT)

        before, after = pings_after(hardware, crash, caplog)
        assert after == before
        said = [r.getMessage() for r in caplog.records if serve.WATCHDOG_WITHHELD in r.getMessage()]
        assert said == [HUB_THREAD_DEAD.format(name=hub.name) + " " + serve.WATCHDOG_WITHHELD]
    finally:
        hardware.stop()


def test_a_working_table_keeps_pinging(spi_table: SimHardware, caplog: pytest.LogCaptureFixture) -> None:
    before, after = pings_after(spi_table, lambda: None, caplog)
    assert after > before
