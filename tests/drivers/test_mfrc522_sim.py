"""The simulated MFRC522 behaves like the chip and the cards: registers, timer, air time, ISO 14443-3 states."""

from __future__ import annotations

import sys

import pytest

from drivers.rfid import registers as R
from drivers.rfid.sim import OSC_STARTUP_SECONDS, HALT, IDLE, READY, SimCard, SimRig, sim_card, stock_reader, stock_simple

# The stock library adds a log handler per instance: take them off again after each test.
pytestmark = pytest.mark.usefixtures("library_log_handlers")

CLASSIC = bytes.fromhex("DEADBEEF")
NTAG = bytes.fromhex("04A31F2B3C4D80")


def start_request(chip_reader: object, command: int) -> None:
    """Send a 7-bit REQA/WUPA through the stock library's register access, without waiting."""
    lib = chip_reader
    lib.Write_MFRC522(R.COMMAND, R.CMD_IDLE)  # type: ignore[attr-defined]
    lib.Write_MFRC522(R.COMM_IRQ, 0x7F)  # type: ignore[attr-defined]
    lib.Write_MFRC522(R.FIFO_LEVEL, 0x80)  # type: ignore[attr-defined]
    lib.Write_MFRC522(R.FIFO_DATA, command)  # type: ignore[attr-defined]
    lib.Write_MFRC522(R.COMMAND, R.CMD_TRANSCEIVE)  # type: ignore[attr-defined]
    lib.Write_MFRC522(R.BIT_FRAMING, 0x87)  # type: ignore[attr-defined]


def test_crc_matches_iso14443_annex_b_examples(sim_rig: SimRig) -> None:
    # ISO/IEC 14443-3 annex B: CRC_A of 00 00 is A0 1E, of 12 34 is 26 CF.
    lib = stock_reader(sim_rig)
    assert lib.CalulateCRC([0x00, 0x00]) == [0xA0, 0x1E]
    assert lib.CalulateCRC([0x12, 0x34]) == [0x26, 0xCF]
    assert R.crc_a([0x12, 0x34]) == bytes((0x26, 0xCF))


def test_version_register_and_a_lost_chip(sim_rig: SimRig) -> None:
    lib = stock_reader(sim_rig)
    chip = sim_rig.chip(0, 0)
    assert lib.Read_MFRC522(R.VERSION) == 0x92
    chip.lose_chip(0x00)
    assert lib.Read_MFRC522(R.VERSION) == 0x00
    chip.lose_chip(0xFF)
    assert lib.Read_MFRC522(R.VERSION) == 0xFF
    chip.restore_chip()
    assert lib.Read_MFRC522(R.VERSION) == 0x00, "its oscillator is still starting after the power cycle"
    sim_rig.clock.advance(OSC_STARTUP_SECONDS)
    assert lib.Read_MFRC522(R.VERSION) == 0x92
    assert not chip.antenna_on, "a power-cycled chip comes back with its antenna off, as after reset"


def test_fifo_level_flush_and_interrupt_set_clear(sim_rig: SimRig) -> None:
    lib = stock_reader(sim_rig)
    lib.spi.xfer2([(R.FIFO_DATA << 1), 1, 2, 3])  # one burst writes three bytes
    assert lib.Read_MFRC522(R.FIFO_LEVEL) == 3
    assert lib.Read_MFRC522(R.FIFO_DATA) == 1
    lib.Write_MFRC522(R.FIFO_LEVEL, 0x80)
    assert lib.Read_MFRC522(R.FIFO_LEVEL) == 0
    lib.Write_MFRC522(R.COMM_IRQ, 0x7F)  # Set1 clear: clear every marked bit
    assert lib.Read_MFRC522(R.COMM_IRQ) == 0
    lib.Write_MFRC522(R.COMM_IRQ, 0x80 | R.IRQ_TIMER | R.IRQ_RX)  # Set1: set the marked bits
    assert lib.Read_MFRC522(R.COMM_IRQ) == R.IRQ_TIMER | R.IRQ_RX
    lib.Write_MFRC522(R.COMM_IRQ, R.IRQ_TIMER)  # Set1 clear: clear the marked bits
    assert lib.Read_MFRC522(R.COMM_IRQ) == R.IRQ_RX


def test_timer_interrupt_comes_only_after_the_programmed_period(sim_rig: SimRig) -> None:
    lib = stock_reader(sim_rig)  # its init programs TPrescaler 0xD3E, TReload 30: (2*3390+1)*31/13.56 MHz
    chip = sim_rig.chip(0, 0)
    period = (2 * 0xD3E + 1) * 31 / 13_560_000
    start_request(lib, R.REQA)
    sent = sim_rig.clock.now() + R.air_seconds(1, 7)
    sim_rig.clock.advance(sent + period * 0.95 - sim_rig.clock.now())
    assert not chip.register(R.COMM_IRQ) & R.IRQ_TIMER
    sim_rig.clock.advance(period * 0.1)
    assert chip.register(R.COMM_IRQ) & R.IRQ_TIMER


def test_card_answers_only_after_its_air_time(sim_rig: SimRig) -> None:
    lib = stock_reader(sim_rig)
    chip = sim_rig.chip(0, 0)
    chip.place(SimCard(CLASSIC))
    start_request(lib, R.REQA)
    # REQA (7 bits) out, 1236/fc of frame delay, then ATQA (2 bytes) back.
    on_air = R.air_seconds(1, 7) + R.FDT_SECONDS + R.air_seconds(2)
    sim_rig.clock.advance(on_air * 0.9)
    assert not chip.register(R.COMM_IRQ) & R.IRQ_RX
    sim_rig.clock.advance(on_air * 0.2)
    assert chip.register(R.COMM_IRQ) & R.IRQ_RX
    assert lib.Read_MFRC522(R.FIFO_LEVEL) == 2
    assert [lib.Read_MFRC522(R.FIFO_DATA) for _ in range(2)] == [0x04, 0x00]


def test_card_states_follow_iso14443_3() -> None:
    card = SimCard(NTAG, "ntag213")
    card.power_up()
    assert card.receive(bytes((R.REQA,)), 7, False) is not None and card.state == READY
    anticoll = card.receive(bytes((R.SEL_CL1, 0x20)), 0, False)
    assert anticoll is not None and anticoll.data == bytes((0x88, 0x04, 0xA3, 0x1F, 0x88 ^ 0x04 ^ 0xA3 ^ 0x1F))
    select = bytes((R.SEL_CL1, 0x70)) + anticoll.data
    sak = card.receive(select + R.crc_a(select), 0, False)
    assert sak is not None and sak.data[0] & R.SAK_CASCADE, "cascade bit: the UID goes on at level 2"
    part2 = card.receive(bytes((R.SEL_CL2, 0x20)), 0, False)
    assert part2 is not None and part2.data[:4] == NTAG[3:]
    select2 = bytes((R.SEL_CL2, 0x70)) + part2.data
    sak2 = card.receive(select2 + R.crc_a(select2), 0, False)
    assert sak2 is not None and sak2.data[0] == 0x00 and card.state == "ACTIVE"
    assert card.receive(bytes((R.REQA,)), 7, False) is None and card.state == IDLE, "REQA in ACTIVE is an error"
    card.receive(bytes((R.WUPA,)), 7, False)
    card.receive(bytes(R.HLTA) + R.crc_a(R.HLTA), 0, False)  # HLTA in READY: an error, back to IDLE
    assert card.state == IDLE
    # Select fully, then halt from ACTIVE: only WUPA wakes it.
    card.receive(bytes((R.WUPA,)), 7, False)
    for frame in (select + R.crc_a(select), select2 + R.crc_a(select2)):
        card.receive(frame, 0, False)
    card.receive(bytes(R.HLTA) + R.crc_a(R.HLTA), 0, False)
    assert card.state == HALT
    assert card.receive(bytes((R.REQA,)), 7, False) is None and card.state == HALT
    assert card.receive(bytes((R.WUPA,)), 7, False) is not None and card.state == READY


def test_stock_library_reads_and_writes_text_on_a_classic_card(sim_rig: SimRig, library_log_handlers: list) -> None:
    simple = stock_simple(sim_rig)
    card = SimCard(CLASSIC)
    sim_rig.chip(0, 0).place(card)
    uid, _ = simple.write("Eleven")
    assert uid == int.from_bytes(CLASSIC + bytes((R.bcc(CLASSIC),)), "big")
    assert card.block(8)[:6] == b"Eleven"
    sim_rig.chip(0, 0).lift()
    sim_rig.chip(0, 0).place(card)  # lift and put back: the card starts over in IDLE
    _, text = simple.read()
    assert text.rstrip() == "Eleven"


def test_fakes_never_reach_sys_modules(sim_rig: SimRig) -> None:
    before = {name: sys.modules.get(name) for name in ("spidev", "RPi", "RPi.GPIO", "mfrc522")}
    stock_reader(sim_rig)
    after = {name: sys.modules.get(name) for name in before}
    assert after == before
    assert sim_rig.stock().MFRC522.__module__ != "mfrc522.MFRC522", "the sim runs a private copy"


@pytest.mark.parametrize("uid", [b"\x01\x02\x03", bytes.fromhex("88010203")])
def test_impossible_uids_are_refused(uid: bytes) -> None:
    with pytest.raises(ValueError):
        SimCard(uid)


def test_cards_from_printed_uids() -> None:
    assert sim_card("04-A3-1F-2B-3C-4D-80").kind == "ntag213"
    assert sim_card("DE:AD:BE:EF").uid == CLASSIC
    with pytest.raises(ValueError, match="is not a UID"):
        sim_card("bm_07")


def _selected_classic() -> SimCard:
    card = SimCard(CLASSIC)
    card.power_up()
    card.receive(bytes((R.REQA,)), 7, False)
    frame = bytes((R.SEL_CL1, 0x70)) + CLASSIC + bytes((R.bcc(CLASSIC),))
    card.receive(frame + R.crc_a(frame), 0, False)
    return card


def test_classic_naks_a_read_without_authentication_and_goes_idle() -> None:
    card = _selected_classic()
    read = bytes((R.MF_READ, 4))
    reply = card.receive(read + R.crc_a(read), 0, False)
    assert reply is not None and (reply.data[0] & 0x0F, reply.last_bits) == (0x0, 4), "a 4-bit NAK"
    assert card.state == IDLE


def test_classic_acks_a_write_after_authentication_and_naks_block_0() -> None:
    card = _selected_classic()
    assert card.authenticate(R.MF_AUTH_KEY_A, 4, b"\xff" * 6, CLASSIC) is True
    command = bytes((R.MF_WRITE, 5))
    ack = card.receive(command + R.crc_a(command), 0, True)
    assert ack is not None and (ack.data[0], ack.last_bits) == (R.MF_ACK, 4)
    data = bytes(range(16))
    assert card.receive(data + R.crc_a(data), 0, True) is not None
    assert card.block(5) == data
    card = _selected_classic()
    card.authenticate(R.MF_AUTH_KEY_A, 0, b"\xff" * 6, CLASSIC)
    block0 = bytes((R.MF_WRITE, 0))
    nak = card.receive(block0 + R.crc_a(block0), 0, True)
    assert nak is not None and nak.data[0] & 0x0F != R.MF_ACK
    assert card.block(0)[:4] == CLASSIC, "the manufacturer block is read-only"
