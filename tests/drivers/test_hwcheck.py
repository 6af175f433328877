"""hw-check: one line per device saying what answered where, or why not; works against the simulation."""

from __future__ import annotations

import os
import tty

import pytest
from gpiozero.pins.mock import MockFactory

from drivers import hub as hubmod
from drivers import hwcheck
from drivers.displays import SimulatedI2C
from drivers.hub import SimulatedHub
from drivers.hwcheck import ButtonSpec, DisplaySpec, HubSpec, ProbeResult, ReaderSpec, probe_all
from drivers.rfid import reader as reader_module
from drivers.rfid.sim import SimRig

from .conftest import HeldDownPin


def test_a_whole_simulated_table_checks_out() -> None:
    specs = [
        ReaderSpec("pad1", bus=0, device=1, rst_pin=22),
        HubSpec("hub", serial_number="TLHUB-7", readers=6, reader_names={1: "seat5.tap", 2: "seat6.tap"}),
        ButtonSpec("seat1", gpio=17, led_gpio=27),
        DisplaySpec("screen1", i2c_bus=1, mux_address=0x70, mux_channel=2),
        DisplaySpec("screen2", kind="sh1106", interface="spi", spi_bus=0, spi_device=0),
    ]
    results = probe_all(specs, backend="sim")
    lines = [r.line() for r in results]
    assert [r.ok for r in results] == [True] * 7, "\n".join(lines)
    assert lines[0] == "ok       reader   pad1: MFRC522 v2.0 (0x92) on SPI0.1, reset GPIO 22"
    assert "protocol 1, 6 readers" in lines[1]
    assert lines[2:4] == ["ok       reader   seat5.tap: " + hwcheck.HUB_READER_UP.format(number=1, hub="hub"),
                          "ok       reader   seat6.tap: " + hwcheck.HUB_READER_UP.format(number=2, hub="hub")]
    assert lines[4].endswith("seat1: GPIO 17, reads released, LED on GPIO 27")
    assert lines[5].endswith("a display answers at 0x3C on I2C bus 1 behind TCA9548A 0x70 channel 2")


def test_a_reader_that_is_lost_miswired_or_failing_is_one_line_not_a_crash(
    sim_rig: SimRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    sim_rig.chip(0, 0).lose_chip(0xFF)
    lost = hwcheck.probe_reader(ReaderSpec("pad1", bus=0, device=0), "sim", rig=sim_rig)
    assert lost == ProbeResult("pad1", "reader", False, reader_module.NOT_FOUND.format(bus=0, device=0,
                                                                                      version=0xFF))
    on_spi_pin = hwcheck.probe_reader(ReaderSpec("pad2", bus=0, device=1, rst_pin=10), "sim", rig=sim_rig)
    assert on_spi_pin == ProbeResult("pad2", "reader", False, reader_module.PIN_IS_SPI.format(
        pin=10, bus=0, role="MOSI"))

    def broken(*args: object, **kwargs: object) -> tuple[bool, int, str]:
        raise RuntimeError("SPI bus 0 is not enabled")

    monkeypatch.setattr("drivers.rfid.probe_reader", broken)
    result = hwcheck.probe_reader(ReaderSpec("pad3", bus=0, device=0), "sim")
    assert result.line() == "MISSING  reader   pad3: probe failed on SPI0.0: SPI bus 0 is not enabled"


def test_each_reader_behind_a_hub_gets_its_own_line(monkeypatch: pytest.MonkeyPatch) -> None:
    hub = SimulatedHub(readers=3, serial_number="TLHUB-LINES", heartbeat=None)
    hub.reader_down(2, "version register read 0x00")
    monkeypatch.setattr("serial.tools.list_ports.comports", hub.comports)
    spec = HubSpec("left", serial_number="TLHUB-LINES", readers=3, reader_names={1: "seat1.tap", 2: "seat2.tap",
                                                                                  4: "seat4.tap"})
    try:
        results = probe_all([spec], backend="real")
    finally:
        hub.close()
    assert [(r.name, r.kind, r.ok) for r in results] == [
        ("left", "hub", False), ("seat1.tap", "reader", True), ("seat2.tap", "reader", False),
        ("seat4.tap", "reader", False)]
    assert results[0].detail.endswith(hwcheck.HUB_TOO_FEW_READERS.format(theirs=3, ours=4))
    assert results[2].detail == hwcheck.HUB_READER_DOWN.format(number=2, hub="left", why="version register read 0x00")
    assert results[3].detail == hwcheck.HUB_READER_ABSENT.format(number=4, hub="left", readers=3)


def test_the_readers_of_a_hub_that_does_not_answer_are_reported_unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])
    monkeypatch.setattr(hwcheck, "HUB_HELLO_TIMEOUT", 0.3)
    spec = HubSpec("right", serial_number="TLHUB-GONE", readers=2, reader_names={1: "right:1", 2: "right:2"})
    results = probe_all([spec], backend="real")
    assert [r.line() for r in results] == [
        ProbeResult("right", "hub", False, hubmod.PORT_NOT_FOUND.format(serial="TLHUB-GONE")).line(),
        *(ProbeResult(f"right:{n}", "reader", False, hwcheck.HUB_READER_UNKNOWN.format(hub="right")).line()
          for n in (1, 2))]


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


def test_without_reader_names_the_hub_line_names_the_readers_that_are_down(monkeypatch: pytest.MonkeyPatch) -> None:
    hub = SimulatedHub(readers=4, serial_number="TLHUB-ONE", heartbeat=None)
    hub.reader_down(3, "version register read 0xFF")
    monkeypatch.setattr("serial.tools.list_ports.comports", hub.comports)
    try:
        results = probe_all([HubSpec("hub", serial_number="TLHUB-ONE", readers=4)], backend="real")
    finally:
        hub.close()
    assert [(r.name, r.ok) for r in results] == [("hub", False)]
    assert results[0].detail.endswith("; hub:3 down (version register read 0xFF)")


def test_a_reader_board_that_keeps_driving_miso_is_named_with_the_fix(sim_rig: SimRig) -> None:
    sim_rig.chip(0, 1, rst_pin=25).shares_miso = True
    specs = [ReaderSpec("seat1.tap", bus=0, device=0), ReaderSpec("seat2.tap", bus=0, device=1),
             ReaderSpec("seat3.tap", bus=1, device=0)]
    results = probe_all(specs, backend="sim", rig=sim_rig)
    lines = {r.name: r for r in results}
    assert not lines["seat1.tap"].ok, "its answers are drowned by the board next to it: it looks missing"
    assert lines["seat2.tap"].ok
    bus = lines["SPI0"]
    assert not bus.ok and bus.kind == "bus"
    assert bus.detail.startswith("the reader on SPI0.1 keeps driving MISO when it is not selected: SPI0.0 read")
    assert "74HC125" in bus.detail and "docs/WIRING.md" in bus.detail
    assert "SPI1" not in lines, "a bus with one reader has nobody to fight"


def test_readers_that_release_miso_pass_the_bus_check(sim_rig: SimRig) -> None:
    specs = [ReaderSpec(f"pad{d}", bus=1, device=d) for d in range(3)]
    bus = [r for r in probe_all(specs, backend="sim", rig=sim_rig) if r.kind == "bus"]
    assert bus == [ProbeResult("SPI1", "bus", True, hwcheck.MISO_CLEAN.format(readers=3))]
