"""Our MFRC522 reader on the simulated chip: the stock library's defects fixed, card ids, bad wiring."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

import pytest

from drivers.errors import BackendUnavailable, CardError, DeviceIOError, DeviceNotFound, DriverConfigError
from drivers.rfid import reader as reader_module
from drivers.rfid import registers as R
from drivers.rfid.reader import Reader, open_reader, probe_reader
from drivers.rfid.sim import OSC_STARTUP_SECONDS, SimCard, SimRig

CLASSIC = bytes.fromhex("DEADBEEF")
CLASSIC_7 = bytes.fromhex("04112233445566")
NTAG_A = bytes.fromhex("04A31F2B3C4D80")
NTAG_B = bytes.fromhex("04A31F99887780")

OpenReader = Callable[..., Reader]


def cost(reader: Reader, action: Callable[[], Any]) -> tuple[Any, int]:
    """Run ``action`` and return its result with the SPI transfers it took."""
    assert reader.sim is not None
    before = reader.sim.transfers
    result = action()
    return result, reader.sim.transfers - before


# --- the defects, fixed ---------------------------------------------------------------------------


def test_empty_poll_stops_at_the_timer_interrupt(open_sim_reader: OpenReader) -> None:
    reader = open_sim_reader()
    uid, transfers = cost(reader, reader.poll)
    assert uid is None
    assert transfers <= 16


def test_an_empty_reader_is_polled_in_six_transfers_and_still_sees_a_card_put_down(open_sim_reader: OpenReader) -> None:
    # Each empty poll leaves the chip in Idle with its FIFO empty, so the next one needs neither Idle nor a flush.
    reader = open_sim_reader()
    assert reader.sim is not None
    reader.poll()
    costs = [cost(reader, reader.poll) for _ in range(10)]
    assert all(uid is None and transfers <= 6 for uid, transfers in costs)
    reader.sim.place(SimCard(NTAG_A, "ntag213"))
    assert reader.poll() == NTAG_A


@pytest.mark.parametrize("kind", ["ntag213", "ntag215", "ntag216"])
def test_7_byte_uids_are_read_whole(open_sim_reader: OpenReader, kind: str) -> None:
    reader = open_sim_reader()
    assert reader.sim is not None
    seen = []
    for uid in (NTAG_A, NTAG_B):
        reader.sim.place(SimCard(uid, kind))
        seen.append(reader.poll())
        reader.sim.lift()
        assert reader.poll() is None
    assert seen == [NTAG_A, NTAG_B]


@pytest.mark.parametrize("uid", [CLASSIC, CLASSIC_7])
def test_mifare_classic_uids_are_read(open_sim_reader: OpenReader, uid: bytes) -> None:
    reader = open_sim_reader()
    assert reader.sim is not None
    reader.sim.place(SimCard(uid, "classic1k"))
    assert reader.poll() == uid


def test_resting_card_reads_present_on_every_poll(open_sim_reader: OpenReader) -> None:
    reader = open_sim_reader()
    assert reader.sim is not None
    reader.sim.place(SimCard(NTAG_A, "ntag213"))
    assert [reader.poll() for _ in range(50)] == [NTAG_A] * 50


def test_a_card_swapped_for_another_reads_as_the_new_one(open_sim_reader: OpenReader) -> None:
    reader = open_sim_reader()
    assert reader.sim is not None
    reader.sim.place(SimCard(CLASSIC))
    reader.poll()
    reader.sim.lift()
    reader.sim.place(SimCard(NTAG_A, "ntag213"))
    seen = [reader.poll() for _ in range(3)]
    assert seen == [NTAG_A] * 3, "a card of another kind answers WUPA differently: noticed at the first poll"


@pytest.mark.parametrize(("first", "second", "kind"), [(CLASSIC, bytes.fromhex("CAFEF00D"), "classic1k"),
                                                     (NTAG_A, CLASSIC_7, "ntag213")], ids=["classic", "ntag"])
@pytest.mark.parametrize("resting_polls", [0, 1, 5])
def test_a_card_swapped_for_one_of_the_same_kind_is_noticed_at_the_next_poll(
    open_sim_reader: OpenReader, first: bytes, second: bytes, kind: str, resting_polls: int,
) -> None:
    # Swapped without a gap (never quite possible by hand), whether the old card had just been read whole or had
    # rested a while: the new card answers anticollision with other UID bytes, or not at all from where it starts.
    reader = open_sim_reader()
    assert reader.sim is not None
    reader.sim.place(SimCard(first, kind))
    assert [reader.poll() for _ in range(1 + resting_polls)] == [first] * (1 + resting_polls)
    reader.sim.lift()
    reader.sim.place(SimCard(second, kind))
    assert [reader.poll() for _ in range(3)] == [second] * 3


def test_a_card_swapped_for_one_sharing_its_first_uid_bytes_is_noticed_within_the_reidentify_period(
    open_sim_reader: OpenReader,
) -> None:
    # Two 7-byte UIDs that share their first three bytes answer anticollision at level 1 alike: only the
    # reader's periodic full UID read tells them apart.
    reader = open_sim_reader()
    assert reader.sim is not None
    reader.sim.place(SimCard(NTAG_A, "ntag213"))
    assert reader.poll() == NTAG_A
    reader.sim.lift()
    reader.sim.place(SimCard(NTAG_B, "ntag213"))
    seen = [reader.poll() for _ in range(reader_module.REIDENTIFY_EVERY + 1)]
    assert seen[-1] == NTAG_B
    first = seen.index(NTAG_B)
    assert seen[first:] == [NTAG_B] * (len(seen) - first) and set(seen[:first]) <= {NTAG_A}


def test_a_resting_card_takes_one_exchange_per_poll(open_sim_reader: OpenReader) -> None:
    # After the full read and the next poll's WUPA, the card waits in READY and each poll asks it for its first
    # cascade level: one exchange, fewer transfers than the WUPA and HLTA of two exchanges.
    reader = open_sim_reader()
    assert reader.sim is not None
    reader.sim.place(SimCard(NTAG_A, "ntag213"))
    reader.poll()
    reader.poll()
    costs = [cost(reader, reader.poll) for _ in range(20)]
    assert [uid for uid, _ in costs] == [NTAG_A] * 20
    assert all(transfers <= 8 for _, transfers in costs)


def test_a_lost_frame_while_the_card_rests_does_not_lose_it(open_sim_reader: OpenReader) -> None:
    reader = open_sim_reader()
    assert reader.sim is not None
    reader.sim.place(SimCard(NTAG_A, "ntag213"))
    assert [reader.poll() for _ in range(3)] == [NTAG_A] * 3
    reader.sim.drop_pattern([True, False])  # the next frame is lost on air, then every other one
    assert [reader.poll() for _ in range(6)] == [NTAG_A] * 6


@pytest.mark.parametrize("nth", range(3))
def test_a_garbled_answer_while_the_card_rests_never_gives_a_wrong_uid(open_sim_reader: OpenReader,
                                                                        nth: int) -> None:
    reader = open_sim_reader()
    assert reader.sim is not None
    reader.sim.place(SimCard(NTAG_A, "ntag213"))
    assert [reader.poll() for _ in range(3)] == [NTAG_A] * 3
    reader.sim.garble_next(1, after=nth)
    seen = [reader.poll() for _ in range(4)]
    assert set(seen) <= {NTAG_A, None} and seen[-2:] == [NTAG_A] * 2


def test_close_releases_only_our_reset_pin(sim_rig: SimRig, open_sim_reader: OpenReader) -> None:
    gpio = sim_rig.gpio
    gpio.setmode(gpio.BCM)
    gpio.setup(5, gpio.IN)  # a seat's button
    first = open_sim_reader("seat1", 0, 0, 24)
    open_sim_reader("seat2", 0, 1, 25)
    first.close()
    assert gpio.cleanups == [(24,)]
    assert 5 in gpio.pins and 25 in gpio.pins and gpio.getmode() == gpio.BCM


def test_shared_reset_line_is_released_by_the_last_reader(sim_rig: SimRig, open_sim_reader: OpenReader) -> None:
    readers = [open_sim_reader(f"seat{i}", bus, dev, 25) for i, (bus, dev) in enumerate([(0, 0), (0, 1), (1, 0)])]
    readers[0].close()
    readers[1].close()
    assert sim_rig.gpio.cleanups == []
    assert readers[2].poll() is None, "the remaining reader still works"
    readers[2].close()
    assert sim_rig.gpio.cleanups == [(25,)]


def test_opening_readers_adds_no_log_handlers(open_sim_reader: OpenReader, library_log_handlers: list) -> None:
    count = len(library_log_handlers)
    for device in (0, 1):
        open_sim_reader(f"pad{device}", 0, device, 25)
    assert len(logging.getLogger("mfrc522Logger").handlers) == count


def test_reset_pin_is_the_one_given_in_bcm_numbers(sim_rig: SimRig, open_sim_reader: OpenReader) -> None:
    open_sim_reader("pad", 0, 0, 25)
    gpio = sim_rig.gpio
    assert gpio.getmode() == gpio.BCM
    assert {pin for _, pin, _ in gpio.history} == {25}, "no other pin (such as BCM 15, the UART's RX) is touched"
    assert gpio.pins[25] == (gpio.OUT, 1)


def test_board_numbering_set_elsewhere_is_refused(sim_rig: SimRig, open_sim_reader: OpenReader) -> None:
    sim_rig.gpio.setmode(sim_rig.gpio.BOARD)
    with pytest.raises(DriverConfigError) as caught:
        open_sim_reader("pad", 0, 0, 25)
    assert str(caught.value) == reader_module.GPIO_NOT_BCM
    assert sim_rig.gpio.pins == {}
    sim_rig.gpio.cleanup()
    assert open_sim_reader("pad", 0, 0, 25).poll() is None, "nothing was left half open"


def test_no_fake_module_is_left_in_sys_modules(open_sim_reader: OpenReader) -> None:
    open_sim_reader()
    for name in ("spidev", "RPi.GPIO"):
        module = sys.modules.get(name)
        assert module is None or "Simulated" not in (module.__doc__ or "")


# --- card ids on MIFARE Classic -------------------------------------------------------------------


def test_card_id_written_and_read_back(open_sim_reader: OpenReader) -> None:
    reader = open_sim_reader()
    assert reader.sim is not None
    card = SimCard(CLASSIC)
    reader.sim.place(card)
    assert reader.write_card_id("bm_07") == CLASSIC
    assert card.block(reader_module.ID_BLOCK) == b"bm_07".ljust(16, b"\x00")
    assert reader.read_card_id() == (CLASSIC, "bm_07")
    assert not reader.sim.crypto1_on
    assert reader.poll() == CLASSIC, "polling carries on after the card was written"


def test_card_id_is_read_from_a_card_left_resting_on_the_reader(open_sim_reader: OpenReader) -> None:
    # Between polls a resting card waits in READY; reading its card id must still find it, and polling goes on.
    reader = open_sim_reader()
    assert reader.sim is not None
    reader.sim.place(SimCard(CLASSIC))
    reader.write_card_id("bm_07")
    assert [reader.poll() for _ in range(4)] == [CLASSIC] * 4
    assert reader.read_card_id() == (CLASSIC, "bm_07")
    assert [reader.poll() for _ in range(4)] == [CLASSIC] * 4


def test_card_id_follows_the_card_to_another_reader(open_sim_reader: OpenReader) -> None:
    writer, other = open_sim_reader("desk", 0, 0), open_sim_reader("seat", 0, 1)
    assert writer.sim is not None and other.sim is not None
    card = SimCard(CLASSIC_7)
    writer.sim.place(card)
    writer.write_card_id("pl_11", block=8)
    other.sim.place(writer.sim.lift())  # type: ignore[arg-type]
    assert other.read_card_id(block=8) == (CLASSIC_7, "pl_11")


def test_wrong_key_is_refused_and_changes_nothing(open_sim_reader: OpenReader) -> None:
    reader = open_sim_reader()
    assert reader.sim is not None
    trailer = bytes.fromhex("A0A1A2A3A4A5") + bytes.fromhex("FF078069") + bytes.fromhex("B0B1B2B3B4B5")
    card = SimCard(CLASSIC, blocks={7: trailer})
    reader.sim.place(card)
    with pytest.raises(CardError) as caught:
        reader.write_card_id("bm_07")
    assert str(caught.value) == reader_module.AUTH_FAILED.format(uid="DE-AD-BE-EF", block=4)
    assert card.block(4) == bytes(16)
    assert reader.write_card_id("bm_07", key=bytes.fromhex("A0A1A2A3A4A5")) == CLASSIC


def test_ntag_cannot_hold_a_card_id(open_sim_reader: OpenReader) -> None:
    reader = open_sim_reader()
    assert reader.sim is not None
    reader.sim.place(SimCard(NTAG_A, "ntag213"))
    with pytest.raises(CardError) as caught:
        reader.write_card_id("bm_07")
    assert str(caught.value) == reader_module.NOT_CLASSIC.format(uid="04-A3-1F-2B-3C-4D-80", name="pad")


def test_no_card_to_write(open_sim_reader: OpenReader) -> None:
    reader = open_sim_reader()
    with pytest.raises(CardError) as caught:
        reader.write_card_id("bm_07")
    assert str(caught.value) == reader_module.NO_CARD.format(name="pad")


def test_blank_block_holds_no_card_id(open_sim_reader: OpenReader) -> None:
    reader = open_sim_reader()
    assert reader.sim is not None
    reader.sim.place(SimCard(CLASSIC))
    with pytest.raises(CardError) as caught:
        reader.read_card_id()
    assert str(caught.value) == reader_module.NOT_AN_ID.format(block=4, uid="DE-AD-BE-EF")


@pytest.mark.parametrize("text", ["", "x" * 17, "caf\u00e9", "tab\there"])
def test_bad_card_id_text_is_refused_before_touching_the_card(open_sim_reader: OpenReader, text: str) -> None:
    reader = open_sim_reader()
    assert reader.sim is not None
    card = SimCard(CLASSIC)
    reader.sim.place(card)
    with pytest.raises(DriverConfigError) as caught:
        reader.write_card_id(text)
    assert str(caught.value) == reader_module.BAD_TEXT.format(text=text)
    assert card.block(4) == bytes(16)


@pytest.mark.parametrize("block", [0, 3, 7, 63, -1, True])
def test_manufacturer_block_and_sector_trailers_are_refused(open_sim_reader: OpenReader, block: int) -> None:
    reader = open_sim_reader()
    with pytest.raises(DriverConfigError) as caught:
        reader.write_card_id("bm_07", block=block)
    assert str(caught.value) == reader_module.BAD_BLOCK.format(block=block)


# --- garbled, dropped, lost -----------------------------------------------------------------------


@pytest.mark.parametrize("nth", range(5))
def test_a_garbled_answer_never_gives_a_wrong_uid(open_sim_reader: OpenReader, nth: int) -> None:
    reader = open_sim_reader()
    assert reader.sim is not None
    reader.sim.place(SimCard(NTAG_A, "ntag213"))
    # A 7-byte read takes five answers: ATQA, level 1 UID, its SAK, level 2 UID, its SAK. Garble one.
    reader.sim.garble_next(1, after=nth)
    assert reader.poll() is None
    assert reader.poll() == NTAG_A


def test_reads_under_random_drops_and_garbles_are_right_or_none(open_sim_reader: OpenReader) -> None:
    reader = open_sim_reader()
    assert reader.sim is not None
    reader.sim.place(SimCard(NTAG_B, "ntag213"))
    reader.sim.drop_rate = 0.2
    reader.sim.seed(7)
    results = []
    for step in range(300):
        if step % 7 == 0:
            reader.sim.garble_next(1)
        results.append(reader.poll())
    assert set(results) == {None, NTAG_B}


@pytest.mark.parametrize("reads", [0x00, 0xFF])
def test_lost_chip_is_reported_not_found(open_sim_reader: OpenReader, reads: int) -> None:
    reader = open_sim_reader("pad", 0, 1)
    assert reader.sim is not None
    reader.sim.lose_chip(reads)
    with pytest.raises(DeviceNotFound) as caught:
        reader.poll()
    assert str(caught.value) == reader_module.NOT_FOUND.format(bus=0, device=1, version=reads)


def test_spi_failure_is_a_device_io_error(open_sim_reader: OpenReader) -> None:
    reader = open_sim_reader()
    assert reader.sim is not None
    reader.sim.lose_chip(spi_error=True)
    with pytest.raises(DeviceIOError) as caught:
        reader.poll()
    assert str(caught.value).startswith("SPI transfer to the reader on SPI0.0 failed")


def test_reader_that_comes_back_works_after_reinit(open_sim_reader: OpenReader) -> None:
    reader = open_sim_reader()
    assert reader.sim is not None
    reader.sim.place(SimCard(CLASSIC))
    reader.sim.lose_chip()
    with pytest.raises(DeviceNotFound):
        reader.poll()
    reader.sim.restore_chip(power_cycled=True)
    reader.sim.clock.advance(OSC_STARTUP_SECONDS)
    with pytest.raises(DeviceIOError) as caught:
        reader.poll()  # its timer and antenna are back at their reset values: nothing ever finishes
    assert str(caught.value) == reader_module.NO_INTERRUPT.format(bus=0, device=0)
    assert reader.reinit() == 0x92
    assert reader.poll() == CLASSIC


def test_closed_reader_says_so(open_sim_reader: OpenReader) -> None:
    reader = open_sim_reader()
    reader.close()
    with pytest.raises(DriverConfigError) as caught:
        reader.poll()
    assert str(caught.value) == reader_module.CLOSED.format(name="pad")


# --- configuration --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("", 0, 0, 25), reader_module.BAD_NAME.format(name="")),
        (("pad", 2, 0, 25), reader_module.BAD_BUS.format(bus=2)),
        (("pad", 0, 2, 25), reader_module.BAD_DEVICE.format(bus=0, device=2, choices="0 or 1")),
        (("pad", 1, 3, 25), reader_module.BAD_DEVICE.format(bus=1, device=3, choices="0 or 1 or 2")),
        (("pad", 0, 0, 28), reader_module.BAD_PIN.format(pin=28)),
        (("pad", 0, 0, -1), reader_module.BAD_PIN.format(pin=-1)),
        (("pad", 0, 0, True), reader_module.BAD_PIN.format(pin=True)),
        (("pad", 0, 0, 10), reader_module.PIN_IS_SPI.format(pin=10, bus=0, role="MOSI")),
        (("pad", 1, 2, 16), reader_module.PIN_IS_SPI.format(pin=16, bus=1, role="CE2")),
    ],
)
def test_bad_wiring_is_refused_with_a_clear_message(sim_rig: SimRig, args: tuple, message: str) -> None:
    with pytest.raises(DriverConfigError) as caught:
        open_reader(*args, backend="sim", rig=sim_rig)
    assert str(caught.value) == message
    assert sim_rig.gpio.pins == {}, "nothing was set up"


def test_a_chip_select_opens_once(open_sim_reader: OpenReader) -> None:
    open_sim_reader("seat1", 1, 2, 25)
    with pytest.raises(DriverConfigError) as caught:
        open_sim_reader("seat2", 1, 2, 26)
    assert str(caught.value) == reader_module.SELECT_IN_USE.format(bus=1, device=2, other="seat1")


def test_probe_finds_the_chip_and_reports_a_missing_one(sim_rig: SimRig) -> None:
    found, version, detail = probe_reader("seat1", 0, 0, 25, "sim", rig=sim_rig)
    assert (found, version) == (True, 0x92)
    assert detail == "MFRC522 v2.0 (0x92) on SPI0.0, reset GPIO 25"
    sim_rig.chip(0, 1).lose_chip(0x00)
    assert probe_reader("seat2", 0, 1, 25, "sim", rig=sim_rig) == (
        False, 0x00, reader_module.NOT_FOUND.format(bus=0, device=1, version=0))
    assert probe_reader("seat3", 3, 0, 25, "sim", rig=sim_rig) == (False, None, reader_module.BAD_BUS.format(bus=3))
    assert sim_rig.gpio.cleanups == [(25,), (25,)], "each probe released its reset pin"


def test_real_backend_without_its_libraries_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TOUCHLINE_BACKEND", raising=False)
    monkeypatch.setitem(sys.modules, "mfrc522", None)  # as on a laptop: the import fails
    with pytest.raises(BackendUnavailable) as caught:
        open_reader("pad", 0, 0, 25, "real")
    assert "rpi-lgpio provides RPi.GPIO on a Pi 5" in str(caught.value)
    assert "TOUCHLINE_BACKEND=sim" in str(caught.value)


def test_version_register_reads_through_the_reader(open_sim_reader: OpenReader) -> None:
    reader = open_sim_reader()
    assert reader.version() == 0x92 and reader.check() == 0x92
    assert reader.sim is not None
    assert reader.sim.register(R.TX_CONTROL) & 0x03 == 0x03, "antenna on after set-up"


def test_real_backend_code_path_runs_over_the_fake_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    # The real backend imports spidev, RPi.GPIO and mfrc522 itself and waits with time.sleep; give it the
    # rig's fakes in sys.modules and a simulated clock that follows the wall clock.
    monkeypatch.delenv("TOUCHLINE_BACKEND", raising=False)
    rig = SimRig(follow_wall=True)
    saved = {name: module for name, module in sys.modules.items() if name.split(".")[0] == "mfrc522"}
    for name in saved:
        del sys.modules[name]
    try:
        with rig.installed():
            reader = open_reader("pad", 0, 1, 25, "real")
            try:
                assert reader.sim is None
                rig.chip(0, 1).place(SimCard(NTAG_A, "ntag213"))
                assert [reader.poll() for _ in range(3)] == [NTAG_A] * 3
            finally:
                reader.close()
        assert rig.gpio.cleanups == [(25,)]
    finally:
        for name in [n for n in sys.modules if n.split(".")[0] == "mfrc522"]:
            del sys.modules[name]
        sys.modules.update(saved)
