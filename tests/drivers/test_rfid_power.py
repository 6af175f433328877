"""Readers on a real table's power: a reset line low since boot, the oscillator's start, brown-outs, a
neighbour's reset pulse, and the antenna gain.  Each is something that happens on a wired Pi and that the
simulated chip can now do to our driver."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from drivers.base import HealthReading, TagReading
from drivers.errors import DriverConfigError
from drivers.rfid import reader as reader_module
from drivers.rfid import registers as R
from drivers.rfid.reader import Reader, open_reader
from drivers.rfid.scanner import SET_UP_AGAIN, SETTINGS_EVERY, Scanner
from drivers.rfid.sim import OSC_STARTUP_SECONDS, SimCard, SimRig, stock_reader

from .conftest import ReadingLog

CLASSIC = bytes.fromhex("DEADBEEF")
OpenReader = Callable[..., Reader]
LOST = "TxControlReg 0x80 (antenna off), TxASKReg 0x00, TModeReg 0x00 (timer not started by transmissions)"


def test_the_reset_line_sits_low_from_boot_so_the_chips_are_powered_down(sim_rig: SimRig) -> None:
    chip = sim_rig.chip(0, 0, rst_pin=25)
    assert not chip.powered, "GPIO 25 has a pull-down until a process drives it"
    assert sim_rig.chip(1, 0, rst_pin=4).powered, "GPIO 0-8 have a pull-up at boot"


@pytest.mark.usefixtures("library_log_handlers")
def test_the_stock_library_sets_the_chip_up_before_it_has_started(sim_rig: SimRig) -> None:
    chip = sim_rig.chip(0, 0, rst_pin=25)
    stock_reader(sim_rig, 0, 0, pin_mode=sim_rig.gpio.BCM, pin_rst=25)
    assert chip.powered
    assert not chip.antenna_on, "every register write landed while the oscillator was still starting"
    assert chip.register(R.T_MODE) == 0x00


def test_our_reader_raises_the_line_first_and_waits_for_the_oscillator(sim_rig: SimRig,
                                                                      open_sim_reader: OpenReader) -> None:
    chip = sim_rig.chip(0, 0, rst_pin=25)
    before = sim_rig.clock.now()
    reader = open_sim_reader("seat1", 0, 0, 25)
    assert ("output", 25, 0) not in sim_rig.gpio.history, "the line is never pulled low: no reset pulse"
    assert sim_rig.gpio.pins[25] == (sim_rig.gpio.OUT, 1)
    assert sim_rig.clock.now() - before >= reader_module.POWER_UP_SECONDS
    assert chip.power_ups == 1 and chip.antenna_on
    assert reader.settings_problem() is None
    chip.place(SimCard(CLASSIC))
    assert reader.poll() == CLASSIC


def test_a_second_reader_on_the_shared_line_resets_nobody(sim_rig: SimRig, open_sim_reader: OpenReader) -> None:
    first = open_sim_reader("seat1", 0, 0, 25)
    first_chip = sim_rig.chip(0, 0)
    first_chip.place(SimCard(CLASSIC))
    assert first.poll() == CLASSIC
    open_sim_reader("seat2", 0, 1, 25)
    assert first_chip.power_ups == 1, "opening seat 2 did not pulse the line seat 1 shares"
    assert first.settings_problem() is None and first.poll() == CLASSIC


def test_a_brown_out_under_a_resting_card_is_set_up_again_without_a_lift(open_sim_reader: OpenReader,
                                                                          reading_log: ReadingLog) -> None:
    reader = open_sim_reader("seat1")
    chip = reader.sim
    assert chip is not None
    scanner = Scanner([reader], reading_log)
    chip.place(SimCard(CLASSIC))
    scanner.sweep()
    chip.power_cycle()
    chip.clock.advance(OSC_STARTUP_SECONDS)
    assert reader.settings_problem() == LOST
    for _ in range(10):
        scanner.sweep()
    assert reading_log.items == [
        TagReading("tap", "seat1", "DE-AD-BE-EF"),
        HealthReading("seat1", True, SET_UP_AGAIN.format(label="SPI0.0", wrong=LOST)),
    ], "the card never left: no lift, no second tap"
    assert chip.antenna_on and reader.setups == 1


def test_a_reset_pulse_on_the_shared_line_is_noticed_within_a_second_on_every_reader(
    sim_rig: SimRig, open_sim_reader: OpenReader, reading_log: ReadingLog
) -> None:
    readers = [open_sim_reader(f"seat{n}", bus, device, 25) for n, (bus, device) in enumerate([(0, 0), (0, 1), (1, 0)])]
    scanner = Scanner(readers, reading_log)
    scanner.sweep()
    # Another program (or a hub set up by the stock Arduino library) pulses the line the readers share.
    sim_rig.gpio.output(25, 0)
    sim_rig.gpio.output(25, 1)
    sim_rig.clock.advance(OSC_STARTUP_SECONDS)
    assert all(not sim_rig.chip(bus, device).antenna_on for bus, device in [(0, 0), (0, 1), (1, 0)])
    for _ in range(SETTINGS_EVERY):
        scanner.sweep()
    restored = [r.device for r in reading_log.items if isinstance(r, HealthReading) and r.online]
    assert restored == ["seat0", "seat1", "seat2"]
    sim_rig.chip(1, 0).place(SimCard(CLASSIC))
    scanner.sweep()
    assert reading_log.items[-1] == TagReading("tap", "seat2", "DE-AD-BE-EF")


def test_a_line_held_low_is_driven_high_again(sim_rig: SimRig, open_sim_reader: OpenReader) -> None:
    reader = open_sim_reader("seat1", 0, 0, 25)
    sim_rig.gpio.output(25, 0)  # someone else holds the readers in reset
    held = LOST.replace("0x80 (antenna off)", "0x00 (antenna off)") + ", RFCfgReg 0x00"
    assert reader.keep_settings() == held, "a chip held in reset reads all zeros"
    assert sim_rig.gpio.pins[25] == (sim_rig.gpio.OUT, 1)
    assert reader.settings_problem() is None


def test_a_chip_still_lost_is_reported_offline(open_sim_reader: OpenReader, reading_log: ReadingLog) -> None:
    reader = open_sim_reader("seat1")
    assert reader.sim is not None
    scanner = Scanner([reader], reading_log)
    reader.sim.lose_chip(0x00)
    for _ in range(SETTINGS_EVERY):
        scanner.sweep()
    assert reading_log.items == [HealthReading("seat1", False, reader_module.NOT_FOUND.format(
        bus=0, device=0, version=0))]


# --- antenna gain ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("gain", R.RX_GAIN_CHOICES)
def test_the_gain_asked_for_is_set_and_kept(sim_rig: SimRig, gain: int) -> None:
    with open_reader("seat1", 0, 0, 25, "sim", rig=sim_rig, gain_db=gain) as reader:
        assert reader.sim is not None and reader.sim.rx_gain_db == gain
        reader.sim.power_cycle()
        reader.sim.clock.advance(OSC_STARTUP_SECONDS)
        assert reader.keep_settings() is not None
        assert reader.sim.rx_gain_db == gain


def test_the_default_gain_is_the_chips_reset_value(open_sim_reader: OpenReader) -> None:
    reader = open_sim_reader()
    assert reader.sim is not None and reader.sim.register(R.RF_CFG) == 0x48 and reader.gain_db == 33


def test_a_thick_board_needs_more_gain_and_more_gain_reaches_the_neighbour(sim_rig: SimRig) -> None:
    card = SimCard(CLASSIC)
    for gain, own, neighbour in ((33, None, None), (38, CLASSIC, None), (48, CLASSIC, CLASSIC)):
        with open_reader("seat1", 0, 0, 25, "sim", rig=sim_rig, gain_db=gain) as seat1, \
                open_reader("seat2", 0, 1, 25, "sim", rig=sim_rig, gain_db=gain) as seat2:
            assert seat1.sim is not None and seat2.sim is not None
            seat1.sim.place(card, needs_db=38)
            seat2.sim.reach(card, needs_db=43)
            assert (seat1.poll(), seat2.poll()) == (own, neighbour), f"at {gain} dB"
            seat1.sim.lift()


def test_a_gain_the_chip_does_not_have_is_refused(sim_rig: SimRig) -> None:
    with pytest.raises(DriverConfigError) as caught:
        open_reader("seat1", 0, 0, 25, "sim", rig=sim_rig, gain_db=40)
    assert str(caught.value) == reader_module.BAD_GAIN.format(gain=40, choices="18, 23, 33, 38, 43, 48")
