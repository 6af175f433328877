"""The scanner: taps and lifts with hysteresis, readers going offline and coming back, its thread."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from drivers.base import HealthReading, TagReading
from drivers.errors import DriverConfigError
from drivers.rfid import reader as reader_module
from drivers.rfid import scanner as scanner_module
from drivers.rfid.reader import Reader
from drivers.rfid.scanner import BACK_ONLINE, Scanner, open_scanner
from drivers.rfid.sim import OSC_STARTUP_SECONDS, SimCard, SimMfrc522, SimRig, sim_card

from .conftest import ReadingLog

CLASSIC = bytes.fromhex("DEADBEEF")
NTAG = bytes.fromhex("04A31F2B3C4D80")
OpenReader = Callable[..., Reader]


def chip_of(reader: Reader) -> SimMfrc522:
    """The simulated chip behind a reader."""
    assert reader.sim is not None
    return reader.sim


def sweeps(scanner: Scanner, count: int) -> None:
    """Run ``count`` sweeps by hand, as the thread would."""
    for _ in range(count):
        scanner.sweep()


def taps_and_lifts(log: ReadingLog) -> list[tuple[str, str, str]]:
    """The tag readings so far as (kind, reader, uid)."""
    return [(r.kind, r.reader, r.uid) for r in log.items if isinstance(r, TagReading)]


def test_tap_at_once_and_lift_only_after_misses_in_a_row(open_sim_reader: OpenReader, reading_log: ReadingLog) -> None:
    reader = open_sim_reader("seat1")
    scanner = Scanner([reader], reading_log, lift_after=3)
    chip_of(reader).place(SimCard(NTAG, "ntag213"))
    scanner.sweep()
    assert taps_and_lifts(reading_log) == [("tap", "seat1", "04-A3-1F-2B-3C-4D-80")]
    sweeps(scanner, 20)
    chip_of(reader).lift()
    sweeps(scanner, 2)
    assert len(reading_log.items) == 1, "two empty polls are not yet a lift"
    scanner.sweep()
    assert taps_and_lifts(reading_log)[-1] == ("lift", "seat1", "04-A3-1F-2B-3C-4D-80")
    assert scanner.present == {"seat1": None}


def test_a_card_slid_on_gives_one_tap_and_one_lift(open_sim_reader: OpenReader, reading_log: ReadingLog) -> None:
    reader = open_sim_reader("seat1")
    chip = chip_of(reader)
    scanner = Scanner([reader], reading_log, lift_after=3)
    chip.place(SimCard(CLASSIC))
    # Sliding in from the edge of the field: nothing gets through, then every other frame, then most.
    for pattern in ([True], [True, False], [False, True, False], [False, False, False, True], []):
        chip.drop_pattern(pattern)
        sweeps(scanner, 6)
    sweeps(scanner, 20)
    # And out again the same way.
    for pattern in ([False, False, False, True], [False, True, False], [True, False], [True]):
        chip.drop_pattern(pattern)
        sweeps(scanner, 6)
    assert taps_and_lifts(reading_log) == [("tap", "seat1", "DE-AD-BE-EF"), ("lift", "seat1", "DE-AD-BE-EF")]


@pytest.mark.parametrize("seed", range(5))
def test_flaky_reads_of_a_resting_card_give_one_tap(open_sim_reader: OpenReader, reading_log: ReadingLog,
                                                      seed: int) -> None:
    reader = open_sim_reader("seat2")
    chip = chip_of(reader)
    chip.drop_rate = 0.05
    chip.seed(seed)
    scanner = Scanner([reader], reading_log)
    chip.place(SimCard(NTAG, "ntag213"))
    for step in range(200):
        if step % 17 == 0:
            chip.garble_next(1)
        scanner.sweep()
    assert taps_and_lifts(reading_log) == [("tap", "seat2", "04-A3-1F-2B-3C-4D-80")]


def test_a_swapped_card_lifts_the_old_and_taps_the_new(open_sim_reader: OpenReader, reading_log: ReadingLog) -> None:
    reader = open_sim_reader("seat1")
    scanner = Scanner([reader], reading_log, lift_after=3)
    chip_of(reader).place(SimCard(CLASSIC))
    sweeps(scanner, 3)
    chip_of(reader).lift()
    scanner.sweep()  # the hand is over the pad for a moment
    chip_of(reader).place(SimCard(NTAG, "ntag213"))
    sweeps(scanner, 3)
    assert taps_and_lifts(reading_log) == [
        ("tap", "seat1", "DE-AD-BE-EF"), ("lift", "seat1", "DE-AD-BE-EF"), ("tap", "seat1", "04-A3-1F-2B-3C-4D-80")]


def test_readers_are_polled_round_robin(open_sim_reader: OpenReader, reading_log: ReadingLog) -> None:
    readers = [open_sim_reader(f"seat{i}", bus, dev) for i, (bus, dev) in enumerate([(0, 0), (0, 1), (1, 0), (1, 1)])]
    scanner = Scanner(readers, reading_log)
    chip_of(readers[2]).place(SimCard(CLASSIC))
    chip_of(readers[3]).place(SimCard(NTAG, "ntag213"))
    scanner.sweep()
    assert sorted(taps_and_lifts(reading_log)) == [
        ("tap", "seat2", "DE-AD-BE-EF"), ("tap", "seat3", "04-A3-1F-2B-3C-4D-80")]
    assert scanner.present == {"seat0": None, "seat1": None, "seat2": "DE-AD-BE-EF", "seat3": "04-A3-1F-2B-3C-4D-80"}


def test_lost_reader_goes_offline_and_comes_back(open_sim_reader: OpenReader, reading_log: ReadingLog) -> None:
    reader, other = open_sim_reader("seat1", 0, 0), open_sim_reader("seat2", 0, 1)
    chip = chip_of(reader)
    scanner = Scanner([reader, other], reading_log, retry_after=5)
    chip.place(SimCard(CLASSIC))
    scanner.sweep()
    chip.lose_chip(0x00)
    scanner.sweep()
    assert reading_log.items[1:] == [
        TagReading("lift", "seat1", "DE-AD-BE-EF"),
        HealthReading("seat1", False, reader_module.NOT_FOUND.format(bus=0, device=0, version=0)),
    ]
    assert scanner.online == {"seat1": False, "seat2": True}
    sweeps(scanner, 12)
    assert len(reading_log.items) == 3, "still offline: nothing new, and the other reader carries on"
    chip_of(other).place(SimCard(NTAG, "ntag213"))
    chip.restore_chip(power_cycled=True)
    chip.clock.advance(OSC_STARTUP_SECONDS)
    sweeps(scanner, 5)
    back = HealthReading("seat1", True, BACK_ONLINE.format(chip="MFRC522 v2.0 (0x92)", label="SPI0.0"))
    assert back in reading_log.items
    assert TagReading("tap", "seat2", "04-A3-1F-2B-3C-4D-80") in reading_log.items
    scanner.sweep()
    assert reading_log.items[-1] == TagReading("tap", "seat1", "DE-AD-BE-EF"), "the card still lying there"
    assert scanner.online == {"seat1": True, "seat2": True}


def test_spi_errors_take_a_reader_offline(open_sim_reader: OpenReader, reading_log: ReadingLog) -> None:
    reader = open_sim_reader("seat1")
    scanner = Scanner([reader], reading_log, retry_after=2)
    chip_of(reader).lose_chip(spi_error=True)
    scanner.sweep()
    health = reading_log.items[-1]
    assert isinstance(health, HealthReading) and not health.online
    assert health.detail.startswith("SPI transfer to the reader on SPI0.0 failed")
    chip_of(reader).restore_chip(power_cycled=False)
    sweeps(scanner, 2)
    assert reading_log.items[-1] == HealthReading("seat1", True, BACK_ONLINE.format(chip="MFRC522 v2.0 (0x92)",
                                                                                    label="SPI0.0"))


def test_a_failing_callback_does_not_stop_the_scanner(open_sim_reader: OpenReader, reading_log: ReadingLog) -> None:
    reader = open_sim_reader("seat1")
    calls: list[object] = []

    def broken(reading: object) -> None:
        calls.append(reading)
        raise RuntimeError("consumer bug")

    scanner = Scanner([reader], broken, lift_after=1)
    chip_of(reader).place(SimCard(CLASSIC))
    scanner.sweep()
    chip_of(reader).lift()
    scanner.sweep()
    assert [getattr(c, "kind", None) for c in calls] == ["tap", "lift"]


def test_only_changes_are_logged(open_sim_reader: OpenReader, reading_log: ReadingLog,
                                 caplog: pytest.LogCaptureFixture) -> None:
    reader = open_sim_reader("seat1")
    scanner = Scanner([reader], reading_log)
    chip_of(reader).place(SimCard(CLASSIC))
    with caplog.at_level(logging.DEBUG, logger="drivers.rfid"):
        sweeps(scanner, 30)
    assert [r.getMessage() for r in caplog.records] == ["reader seat1: card DE-AD-BE-EF arrived"]


def test_thread_delivers_taps_and_lifts_and_stops(open_sim_reader: OpenReader, reading_log: ReadingLog) -> None:
    reader = open_sim_reader("seat1")
    with Scanner([reader], reading_log, interval=0.005) as scanner:
        chip_of(reader).place(SimCard(NTAG, "ntag213"))
        reading_log.wait_for(lambda items: any(getattr(r, "kind", "") == "tap" for r in items), "a tap")
        chip_of(reader).lift()
        reading_log.wait_for(lambda items: any(getattr(r, "kind", "") == "lift" for r in items), "a lift")
        thread = scanner._thread
    assert thread is not None and not thread.is_alive()
    assert taps_and_lifts(reading_log) == [("tap", "seat1", "04-A3-1F-2B-3C-4D-80"),
                                           ("lift", "seat1", "04-A3-1F-2B-3C-4D-80")]


@pytest.mark.parametrize("settings", [{"lift_after": 0}, {"retry_after": 2.5}, {"interval": 0}, {"interval": "fast"},
                                      {"lift_after": True}, {"settings_every": 0}])
def test_scanner_settings_are_checked(open_sim_reader: OpenReader, reading_log: ReadingLog,
                                      settings: dict[str, object]) -> None:
    reader = open_sim_reader("seat1")
    with pytest.raises(DriverConfigError) as caught:
        Scanner([reader, reader], reading_log)
    assert str(caught.value) == scanner_module.DUPLICATE_NAMES.format(names="seat1, seat1")
    with pytest.raises(DriverConfigError) as caught:
        Scanner([reader], reading_log, **settings)  # type: ignore[arg-type]
    given = {"interval": scanner_module.SWEEP_INTERVAL, "lift_after": scanner_module.LIFT_AFTER,
             "retry_after": scanner_module.RETRY_AFTER, "settings_every": scanner_module.SETTINGS_EVERY} | settings
    assert str(caught.value) == scanner_module.BAD_SETTINGS.format(**given)


def test_open_scanner_opens_the_pads_and_closes_them_on_stop(sim_rig: SimRig, reading_log: ReadingLog) -> None:
    pads = [("seat1.tap", 0, 0, 25), ("seat2.tap", 0, 1, 25)]
    scanner = open_scanner(pads, reading_log, "sim", rig=sim_rig)
    sim_rig.chip(0, 1).place(sim_card("04-A3-1F-2B-3C-4D-80"))
    scanner.sweep()
    assert reading_log.items == [TagReading("tap", "seat2.tap", "04-A3-1F-2B-3C-4D-80")]
    scanner.stop()
    assert sim_rig.gpio.cleanups == [(25,)], "both readers closed, the shared reset line released once"


def test_open_scanner_with_a_bad_pad_leaves_nothing_open(sim_rig: SimRig, reading_log: ReadingLog) -> None:
    with pytest.raises(DriverConfigError):
        open_scanner([("seat1.tap", 0, 0, 25), ("seat2.tap", 0, 5, 25)], reading_log, "sim", rig=sim_rig)
    assert sim_rig.gpio.cleanups == [(25,)]
    open_scanner([("seat1.tap", 0, 0, 25)], reading_log, "sim", rig=sim_rig).stop()


def test_a_reader_closed_under_the_scanner_is_reported_offline(open_sim_reader: OpenReader,
                                                              reading_log: ReadingLog) -> None:
    reader = open_sim_reader("seat1")
    scanner = Scanner([reader], reading_log, retry_after=1)
    reader.close()
    sweeps(scanner, 3)
    assert reading_log.items == [HealthReading("seat1", False, reader_module.CLOSED.format(name="seat1"))]


def test_a_reader_dead_from_the_start_is_reported_and_picked_up_when_it_answers(
    sim_rig: SimRig, open_sim_reader: OpenReader, reading_log: ReadingLog
) -> None:
    # Its board was not powered when the table started: the reader opens, but nothing answers.
    sim_rig.chip(0, 1).lose_chip(0x00)
    reader = open_sim_reader("seat2", 0, 1)
    scanner = Scanner([reader], reading_log, retry_after=3)
    scanner.sweep()
    assert reading_log.items == [HealthReading("seat2", False, reader_module.NOT_FOUND.format(bus=0, device=1,
                                                                                              version=0))]
    chip_of(reader).restore_chip(power_cycled=True)
    sim_rig.clock.advance(OSC_STARTUP_SECONDS)  # its oscillator starts
    chip_of(reader).place(SimCard(CLASSIC))
    sweeps(scanner, 4)
    assert reading_log.items[1:] == [
        HealthReading("seat2", True, BACK_ONLINE.format(chip="MFRC522 v2.0 (0x92)", label="SPI0.1")),
        TagReading("tap", "seat2", "DE-AD-BE-EF"),
    ]
