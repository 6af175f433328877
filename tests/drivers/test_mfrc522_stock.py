"""The stock mfrc522 package (0.0.7) on the simulated chip: its defects show up as people report them.

Each test here has a partner in test_rfid_reader.py showing our reader without the defect.
"""

from __future__ import annotations

import logging

import pytest

from drivers.rfid import registers as R
from drivers.rfid.sim import SimCard, SimRig, stock_reader, stock_simple

# The stock library adds a log handler per instance: take them off again after each test.
pytestmark = pytest.mark.usefixtures("library_log_handlers")

CLASSIC = bytes.fromhex("DEADBEEF")
NTAG_A = bytes.fromhex("04A31F2B3C4D80")
NTAG_B = bytes.fromhex("04A31F99887780")


def test_stock_empty_poll_ignores_the_timer_and_spins_2000_reads(sim_rig: SimRig) -> None:
    simple = stock_simple(sim_rig)
    chip = sim_rig.chip(0, 0)
    before = chip.transfers
    assert simple.read_id_no_block() is None
    assert chip.transfers - before >= 2000, "the loop runs to its count of 2,000 reads"
    assert chip.register(R.COMM_IRQ) & R.IRQ_TIMER, "although the timer had long fired"


def test_stock_reads_every_7_byte_uid_as_the_same_88_id(sim_rig: SimRig) -> None:
    simple = stock_simple(sim_rig)
    chip = sim_rig.chip(0, 0)
    ids = []
    for uid in (NTAG_A, NTAG_B):
        chip.place(SimCard(uid, "ntag213"))
        ids.append(simple.read_id_no_block())
        chip.lift()
    assert ids[0] == ids[1]
    assert ids[0] >> 32 == R.CASCADE_TAG, "what it returns starts with the cascade tag, not the UID"


def test_stock_sees_a_resting_card_every_other_poll(sim_rig: SimRig) -> None:
    simple = stock_simple(sim_rig)
    sim_rig.chip(0, 0).place(SimCard(CLASSIC))
    seen = [simple.read_id_no_block() is not None for _ in range(6)]
    assert seen == [True, False, True, False, True, False]


def test_stock_close_frees_every_pin_in_the_process(sim_rig: SimRig) -> None:
    gpio = sim_rig.gpio
    gpio.setmode(gpio.BCM)
    gpio.setup(5, gpio.IN)  # a seat's button, set up by someone else
    lib = stock_reader(sim_rig, pin_rst=25)
    lib.Close_MFRC522()
    assert gpio.cleanups == [None], "GPIO.cleanup() without a pin"
    assert 5 not in gpio.pins and gpio.getmode() is None, "the button and the numbering mode are gone too"


def test_stock_adds_a_log_handler_per_instance(sim_rig: SimRig, library_log_handlers: list) -> None:
    count = len(library_log_handlers)
    stock_reader(sim_rig, 0, 0)
    stock_reader(sim_rig, 0, 1)
    assert len(logging.getLogger("mfrc522Logger").handlers) == count + 2


def test_stock_without_reset_pin_drives_uart_rx(sim_rig: SimRig) -> None:
    gpio = sim_rig.gpio
    gpio.setmode(gpio.BCM)
    stock_reader(sim_rig)
    assert gpio.pins[15] == (gpio.OUT, 1), "BCM 15 is the UART's RX"


def test_stock_without_reset_pin_or_mode_takes_board_pin_22(sim_rig: SimRig) -> None:
    gpio = sim_rig.gpio
    stock_reader(sim_rig)
    assert gpio.getmode() == gpio.BOARD
    assert gpio.pins[25] == (gpio.OUT, 1), "header pin 22 is BCM 25"
