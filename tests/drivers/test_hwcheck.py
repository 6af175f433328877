"""hw-check: one line per device saying what answered where, or why not; works against the simulation."""

from __future__ import annotations

import os
import sys
import tty
from types import ModuleType

import pytest
from gpiozero.pins.mock import MockFactory

from drivers import hub as hubmod
from drivers import hwcheck
from drivers.displays import SimulatedI2C
from drivers.hub import SimulatedHub
from drivers.hwcheck import ButtonSpec, DisplaySpec, HubSpec, ProbeResult, ReaderSpec, probe_all

from .conftest import HeldDownPin


def test_a_whole_simulated_table_checks_out(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_rfid = ModuleType("drivers.rfid")
    fake_rfid.probe_reader = lambda name, bus, device, rst, backend: (True, "0x92", "")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "drivers.rfid", fake_rfid)
    specs = [
        ReaderSpec("pad1", bus=0, device=1, rst_pin=22),
        HubSpec("hub", serial_number="TLHUB-7", readers=6),
        ButtonSpec("seat1", gpio=17, led_gpio=27),
        DisplaySpec("screen1", i2c_bus=1, mux_address=0x70, mux_channel=2),
        DisplaySpec("screen2", kind="sh1106", interface="spi", spi_bus=0, spi_device=0),
    ]
    results = probe_all(specs, backend="sim")
    assert [r.ok for r in results] == [True] * 5, "\n".join(r.line() for r in results)
    lines = [r.line() for r in results]
    assert lines[0] == "ok       reader   pad1: MFRC522 version 0x92 on SPI0.1, reset GPIO 22"
    assert "protocol 1, 6 readers" in lines[1]
    assert lines[2].endswith("seat1: GPIO 17, reads released, LED on GPIO 27")
    assert lines[3].endswith("a display answers at 0x3C on I2C bus 1 behind TCA9548A 0x70 channel 2")


def test_a_missing_reader_module_or_a_failing_probe_is_one_line_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "drivers.rfid", None)  # makes the import fail
    assert hwcheck.probe_reader(ReaderSpec("pad1"), "sim") == ProbeResult(
        "pad1", "reader", False, hwcheck.READER_PROBE_MISSING)

    def broken(*args: object) -> tuple[bool, str, str]:
        raise OSError("SPI bus 0 is not enabled")

    fake_rfid = ModuleType("drivers.rfid")
    fake_rfid.probe_reader = broken  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "drivers.rfid", fake_rfid)
    result = hwcheck.probe_reader(ReaderSpec("pad2", bus=0, device=0), "sim")
    assert not result.ok
    assert result.line() == "MISSING  reader   pad2: probe failed on SPI0.0: SPI bus 0 is not enabled"


def test_a_display_that_is_not_there_is_reported_with_its_place() -> None:
    empty = SimulatedI2C(populate=False)
    result = hwcheck.probe_display(DisplaySpec("screen3", i2c_bus=1, address=0x3D), "sim", simulation=empty)
    assert not result.ok
    assert "nothing answers at 0x3D on I2C bus 1" in result.detail
    empty.add_panel(1, 0x3C, mux_address=0x71, mux_channel=0)
    wrong_channel = hwcheck.probe_display(
        DisplaySpec("screen4", i2c_bus=1, mux_address=0x71, mux_channel=1), "sim", simulation=empty)
    assert not wrong_channel.ok
    assert "channel 1" in wrong_channel.detail


def test_a_stuck_or_unusable_button_is_reported() -> None:
    factory = MockFactory()
    factory.pin(5, pin_class=HeldDownPin)
    stuck = hwcheck.probe_button(ButtonSpec("seat2", gpio=5), pin_factory=factory)
    assert stuck == ProbeResult("seat2", "button", False, hwcheck.BUTTON_STUCK.format(pin=5))
    bad = hwcheck.probe_button(ButtonSpec("seat3", gpio=99), "sim")
    assert not bad.ok and "GPIO 99 cannot be used" in bad.detail


def test_a_hub_that_is_unplugged_or_silent_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])
    unplugged = hwcheck.probe_hub(HubSpec("hub", serial_number="TLHUB-9"), "real", timeout=0.5)
    assert unplugged == ProbeResult("hub", "hub", False, hubmod.PORT_NOT_FOUND.format(serial="TLHUB-9"))
    # A port where something else listens and never says hello (e.g. a board without our firmware).
    master, slave = os.openpty()
    tty.setraw(slave)
    port = os.ttyname(slave)
    try:
        silent = hwcheck.probe_hub(HubSpec("hub", port=port), "real", timeout=0.3)
    finally:
        os.close(master)
        os.close(slave)
    assert silent == ProbeResult("hub", "hub", False, hwcheck.HUB_SILENT.format(port=port, seconds=0.3))


def test_a_hub_with_fewer_readers_than_the_table_uses_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    small = SimulatedHub(readers=2, serial_number="TLHUB-SMALL", heartbeat=None)
    monkeypatch.setattr("serial.tools.list_ports.comports", small.comports)
    try:
        result = hwcheck.probe_hub(HubSpec("hub", serial_number="TLHUB-SMALL", readers=5), "real")
    finally:
        small.close()
    assert not result.ok
    assert result.detail.endswith(hwcheck.HUB_TOO_FEW_READERS.format(theirs=2, ours=5))
    assert "protocol 1, 2 readers" in result.detail
