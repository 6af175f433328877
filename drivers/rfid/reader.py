"""An MFRC522 reader on SPI: the ``mfrc522`` package for the chip, with its defects fixed around it.

``mfrc522.MFRC522`` (0.0.7) opens the bus, drives the reset pin and initialises the chip, and its
``Write_MFRC522``/``Read_MFRC522`` do the register access.  What it gets wrong is done here instead:

* its wait loop tests ``~(n & 0x01)``, which is never false, so the timer interrupt is ignored and an empty
  poll spins through 2,000 register reads: :meth:`Reader._wait` sleeps for the time the exchange takes on
  air and then honours RxIRq/IdleIRq/ErrIRq/TimerIRq, with a sub-millisecond timer for polling, where
  :meth:`Reader._poll_exchange` stops the receiver and reads the interrupt, error and FIFO level registers in
  one transfer, leaving the chip idle with an empty FIFO: an empty poll takes 6 transfers;
* it reads cascade level 1 only, so every 7-byte NTAG UID comes back as ``88 …``: :meth:`Reader._select`
  walks cascade levels 1 to 3;
* a card left on the reader stays READY/ACTIVE and ignores the next REQA, so it reads present every other
  poll: a full read wakes the card with WUPA and ends with HLTA (to HALT), the next poll wakes it with WUPA
  into READY and leaves it there, and every poll after that asks it for its first cascade level again
  (anticollision with nothing known), which a card answers from READY and stays READY: one exchange per poll
  for a resting card; any frame lost or garbled on the way sends the card back to HALT, and the poll falls
  back to a full read;
* ``Close_MFRC522()`` calls the global ``GPIO.cleanup()``, each instance adds a log handler, and an unset
  ``pin_rst`` drives BCM 15 (the UART's RX): we pass BCM mode and the reset pin, release only our pin
  (and only when no other open reader shares it), and remove the handler the library adds.

Only the real backend imports ``spidev``, ``RPi.GPIO`` and ``mfrc522``; on a Pi 5 ``RPi.GPIO`` is the one
``rpi-lgpio`` provides, and ``mfrc522`` is installed with ``--no-deps`` so it does not pull the original
``RPi.GPIO`` back in.  The sim backend runs a private copy of the same package over :mod:`drivers.rfid.sim`.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from drivers.base import default_backend, format_uid
from drivers.errors import (
    BackendUnavailable,
    CardError,
    DeviceIOError,
    DeviceNotFound,
    DriverConfigError,
    DriverError,
)
from drivers.rfid import registers as R
from drivers.rfid.sim import SimMfrc522, SimRig, default_rig

log = logging.getLogger(__name__)

# Chip selects per SPI bus (SPI1 has three with dtoverlay=spi1-3cs) and the pins each bus takes (BCM).
SPI_SELECTS: dict[int, tuple[int, ...]] = {0: (0, 1), 1: (0, 1, 2)}
SPI_PINS: dict[int, dict[int, str]] = {
    0: {9: "MISO", 10: "MOSI", 11: "SCLK", 8: "CE0", 7: "CE1"},
    1: {19: "MISO", 20: "MOSI", 21: "SCLK", 18: "CE0", 17: "CE1", 16: "CE2"},
}
SPI_OVERLAYS = {0: "dtparam=spi=on", 1: "dtoverlay=spi1-3cs"}
SPEED_HZ = 1_000_000  # conservative: readers sit at the end of wires under a board
POLL_TIMEOUT = 0.0005  # a card starts answering REQA/WUPA/SELECT 91 us after the command
CARD_TIMEOUT = 0.025  # authentication, block reads and EEPROM writes
_MARGIN = 0.00005
_MAX_IRQ_CHECKS = 8
# Presence checks between full UID reads of a resting card (about a second): a presence check already compares the
# card's first cascade level, so this only catches a 7-byte UID swapped for one that shares its first three bytes.
REIDENTIFY_EVERY = 50
# After NRSTPD rises the crystal must start before the chip hears SPI (datasheet 8.8.2: the crystal's
# start-up plus 37.74 us); the Arduino MFRC522 library waits 50 ms, and so do we.
POWER_UP_SECONDS = 0.05
ID_BLOCK = 4  # first data block of sector 1: sector 0 holds the manufacturer block
DEFAULT_KEY = b"\xff" * 6
_HLTA = bytes(R.HLTA) + R.crc_a(R.HLTA)
_SAK_CLASSIC = 0x08  # SAK bit 4: MIFARE Classic (1K 0x08, 4K 0x18, Mini 0x09)

# User-facing sentences (tests import these).
BAD_NAME = "A reader needs a name (the pad it sits under), got {name!r}."
BAD_BUS = "SPI bus {bus!r} does not exist: readers sit on SPI0 (chip selects 0-1) or SPI1 (chip selects 0-2)."
BAD_DEVICE = "SPI{bus} has no chip select {device!r}: use {choices}."
BAD_PIN = "GPIO {pin!r} cannot be a reset pin: give a BCM GPIO number from 0 to 27."
PIN_IS_SPI = "GPIO {pin} is SPI{bus}'s {role} line: wire the reader's RST to a GPIO that no bus uses."
SELECT_IN_USE = "SPI{bus}.{device} is already open for reader '{other}': each reader needs its own chip select."
GPIO_NOT_BCM = ("RPi.GPIO is already set to BOARD numbering in this process; Touchline's pins are BCM numbers. "
                "Remove the code that calls GPIO.setmode(GPIO.BOARD).")
NOT_FOUND = ("MFRC522 not found on SPI{bus}.{device} (version register read 0x{version:02X}): "
             "check its wiring and 3.3 V supply.")
NO_SPI_NODE = ("SPI{bus}.{device} is not available (/dev/spidev{bus}.{device} is missing): "
               "enable it with {overlay} in /boot/firmware/config.txt and reboot.")
SPI_FAILED = "SPI transfer to the reader on SPI{bus}.{device} failed ({error}): check its wiring."
NO_INTERRUPT = ("The MFRC522 on SPI{bus}.{device} never finished a command (no interrupt when it should have answered "
                "or timed out): it may have reset; it will be set up again.")
REAL_UNAVAILABLE = ("The real RFID backend needs the spidev and RPi.GPIO modules ({error}). On a Pi install "
                    "Touchline with its [pi] extra (rpi-lgpio provides RPi.GPIO on a Pi 5); elsewhere set "
                    "TOUCHLINE_BACKEND=sim.")
CLOSED = "Reader '{name}' is closed."
NO_CARD = "No card on reader '{name}': put the card on the pad and try again."
NOT_CLASSIC = ("The card {uid} on reader '{name}' is not a MIFARE Classic card, so it cannot hold a card id; "
               "enrol it by its UID instead.")
AUTH_FAILED = ("The card {uid} refused the key for block {block}: it is not a blank card with the default key. "
               "Use a new MIFARE Classic card.")
CARD_IO = "Block {block} of card {uid} could not be {action} ({why}): hold the card still on the pad and try again."
BAD_BLOCK = ("Block {block!r} cannot hold a card id: use a data block from 1 to 62 that is not a sector trailer "
             "(3, 7, 11, ...).")
BAD_TEXT = "A card id is 1 to 16 ASCII characters; {text!r} is not."
BAD_KEY = "A MIFARE key is 6 bytes and its type 'A' or 'B'; got {key_type!r} with {length} bytes."
NOT_AN_ID = "Block {block} of card {uid} holds no card id (it is not ASCII text)."
SETTINGS_WRONG = "{registers}"
SETTINGS_LOST = ("The MFRC522 on SPI{bus}.{device} does not keep its settings ({wrong}) even when set up again: "
                 "check its 3.3 V supply and that nothing else pulses the reset line (GPIO {pin}).")
BAD_GAIN = "An antenna gain of {gain!r} dB is not one the MFRC522 has: use one of {choices}."

# Open chip selects and reset pins, per backend, so two readers never share a select and a shared reset
# line is released only by the last reader on it.
_registry_lock = threading.Lock()
_open_selects: dict[tuple[str, int, int], str] = {}
_pin_users: dict[tuple[str, int], int] = {}


class Reader:
    """One MFRC522 reader: poll for the card on it, read and write a card id, probe the chip."""

    def __init__(self, name: str, bus: int, device: int, rst_pin: int, chip: Any, gpio: Any,
                 sleep: Callable[[float], None], registry_key: str, sim: SimMfrc522 | None = None,
                 gain_db: int = R.RX_GAIN_DEFAULT_DB) -> None:
        self.name, self.bus, self.device, self.rst_pin = name, bus, device, rst_pin
        self.gain_db = gain_db
        """The receiver gain (RFCfgReg RxGain) this reader is set up with."""
        self.setups = 0
        """How many times the chip was found without its settings and set up again since it was opened."""
        self.sim = sim
        """The simulated chip behind this reader (``place``/``lift`` cards on it), or None on hardware."""
        self._chip = chip
        self._spi = chip.spi
        self._gpio = gpio
        self._sleep = sleep
        self._key = registry_key
        self._lock = threading.RLock()
        self._closed = False
        self._ready = False  # True while the chip sits in Transceive after a completed reception
        self._settled = False  # True while the chip sits in Idle with its FIFO empty, after a polling exchange
        self._timer: float | None = None
        self._known: bytes | None = None
        self._holding = False  # the known card was left in READY by the last presence check
        self._level1 = b""  # the known card's answer to anticollision at cascade level 1 (with its BCC)
        self._atqa = b""
        self._sak = 0
        self._checks = 0
        self._last_bits = 0
        self._heard = False  # the last exchange got an answer, intact or not
        self._configure(reset=False)  # the library's constructor has just set the chip up
        if self.settings_problem() is not None:
            # The chip missed the library's set-up (it was still starting, or the line had just risen).
            with self._guard():
                self._configure()

    def __repr__(self) -> str:
        return f"<Reader {self.name!r} on {self.label}>"

    @property
    def label(self) -> str:
        """Where the reader is wired, e.g. ``SPI0.1``."""
        return f"SPI{self.bus}.{self.device}"

    # -- public operations --

    def poll(self) -> bytes | None:
        """The UID of the card on the reader now, or None; raises DeviceNotFound/DeviceIOError if the chip is gone."""
        with self._guard():
            if self._known is not None and self._checks < REIDENTIFY_EVERY and self._still_there():
                self._checks += 1
                return self._known
            # Read the whole UID; a card seen last time gets a second try, since one lost frame (a WUPA, or
            # the HLTA that should have put it to sleep) is enough to make it miss one exchange.
            self._holding = False
            for _ in range(2 if self._known is not None else 1):
                uid = self._select(halt=True)
                if uid is not None:
                    self._known, self._checks = uid, 0
                    return uid
            self._known = None
            return None

    def version(self) -> int:
        """The chip's version register (0x91/0x92 for an MFRC522; 0x00/0xFF when nothing answers)."""
        with self._guard():
            return self._r(R.VERSION)

    def reset_line_high(self) -> bool:
        """True while the reader's reset line is driven high (by this process)."""
        with self._guard():
            try:
                return bool(self._gpio.input(self.rst_pin) == self._gpio.HIGH)
            except RuntimeError:  # RPi.GPIO: the pin is not set up in this process
                return False

    def register(self, address: int) -> int:
        """Read one register of the chip (what hw-check's bus checks use)."""
        with self._guard():
            return self._r(address)

    def check(self) -> int:
        """The version register, raising DeviceNotFound when no chip answers."""
        version = self.version()
        if version in R.ABSENT_VERSIONS:
            raise DeviceNotFound(NOT_FOUND.format(bus=self.bus, device=self.device, version=version))
        return version

    def reinit(self) -> int:
        """Set the chip up again (after it was lost and came back); return its version."""
        with self._guard():
            self._power_up()
        version = self.check()
        with self._guard():
            self._configure()
            wrong = self._wrong_settings()
        if wrong:
            raise DeviceIOError(SETTINGS_LOST.format(bus=self.bus, device=self.device, wrong=wrong, pin=self.rst_pin))
        return version

    def settings_problem(self) -> str | None:
        """Which of the registers a reset puts back differ from this reader's set-up, in words; None when all hold."""
        with self._guard():
            return self._wrong_settings() or None

    def keep_settings(self) -> str | None:
        """Check the set-up (about once a second) and set the chip up again when it was lost; say what was wrong.

        A brown-out, or a reset pulse meant for another reader on the shared line, leaves the chip at its
        reset values: antenna off, timer stopped.  Raises DeviceNotFound when the chip no longer answers and
        DeviceIOError when the set-up does not stick.
        """
        with self._guard():
            wrong = self._wrong_settings()
            if not wrong:
                return None
            version = self._r(R.VERSION)
            if version in R.ABSENT_VERSIONS:
                self._power_up()
                version = self._r(R.VERSION)
                if version in R.ABSENT_VERSIONS:
                    raise DeviceNotFound(NOT_FOUND.format(bus=self.bus, device=self.device, version=version))
            self._configure()
            self.setups += 1
            still = self._wrong_settings()
        if still:
            raise DeviceIOError(SETTINGS_LOST.format(bus=self.bus, device=self.device, wrong=still, pin=self.rst_pin))
        return wrong

    def read_card_id(self, block: int = ID_BLOCK, key: bytes = DEFAULT_KEY, key_type: str = "A") -> tuple[bytes, str]:
        """Read the card id text written on a MIFARE Classic card; return (UID, text)."""
        _check_block(block)
        with self._guard():
            uid, data = self._classic(block, key, key_type, None)
        text = data.rstrip(b"\x00")
        if not text or not all(32 <= b < 127 for b in text):
            raise CardError(NOT_AN_ID.format(block=block, uid=format_uid(uid)))
        return uid, text.decode("ascii")

    def write_card_id(self, text: str, block: int = ID_BLOCK, key: bytes = DEFAULT_KEY, key_type: str = "A") -> bytes:
        """Write ``text`` (1-16 ASCII characters) onto a block of the MIFARE Classic card present; return its UID."""
        if not isinstance(text, str) or not 1 <= len(text) <= 16 or not all(32 <= ord(c) < 127 for c in text):
            raise DriverConfigError(BAD_TEXT.format(text=text))
        _check_block(block)
        data = text.encode("ascii").ljust(16, b"\x00")
        with self._guard():
            uid, _ = self._classic(block, key, key_type, data)
        log.info("reader %s wrote card id %r onto card %s", self.name, text, format_uid(uid))
        return uid

    def close(self) -> None:
        """Close the SPI device and release the reset pin if no other open reader shares it."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                self._spi.close()
            finally:
                release = _unregister(self._key, self.bus, self.device, self.rst_pin)
                if release:
                    self._gpio.cleanup(self.rst_pin)

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- chip set-up --

    def _configure(self, reset: bool = True) -> None:
        if reset:
            self._chip.MFRC522_Init()
        self._timer = None
        self._set_timer(POLL_TIMEOUT)
        self._w(R.RF_CFG, R.rf_cfg_for(self.gain_db))
        # The library's set-up starts with a SoftReset, which leaves the chip in Idle with an empty FIFO (10.3.1.10).
        self._ready, self._settled = False, True
        self._known = None
        self._holding = False

    def _expected(self) -> dict[int, tuple[int, int]]:
        """The registers a reset puts back, with (mask, value) as this reader sets them up."""
        mode = R.timer_settings(self._timer or POLL_TIMEOUT)[0]
        return {R.TX_CONTROL: (R.TX_CONTROL_ANTENNA, R.TX_CONTROL_ANTENNA), R.TX_ASK: (0xFF, R.TX_ASK_FORCE_100),
                R.T_MODE: (0xFF, mode), R.RF_CFG: (0x70, R.rf_cfg_for(self.gain_db) & 0x70)}

    def _wrong_settings(self) -> str:
        wrong = []
        expected = self._expected()
        for (register, (mask, value)), got in zip(expected.items(), self._read_many(*expected), strict=True):
            if got & mask != value:
                wrong.append(f"{_REGISTER_NAMES[register]} 0x{got:02X}{_MEANING.get(register, '')}")
        return ", ".join(wrong)

    def _power_up(self) -> None:
        """Hold the reset line high; when it was low, wait for the oscillator before talking to the chip."""
        if self._gpio.getmode() is None:
            self._gpio.setmode(self._gpio.BCM)
        if _hold_reset_high(self._gpio, self.rst_pin):
            self._sleep(POWER_UP_SECONDS)

    def _set_timer(self, seconds: float) -> None:
        if self._timer == seconds:
            return
        mode, prescaler, reload = R.timer_settings(seconds)
        self._w(R.T_MODE, mode)
        self._w(R.T_PRESCALER, prescaler)
        self._w(R.T_RELOAD_H, reload >> 8)
        self._w(R.T_RELOAD_L, reload & 0xFF)
        self._timer = seconds

    def _guard(self) -> _Guard:
        return _Guard(self)

    # -- register access: the library's, plus FIFO bursts (datasheet 8.1.2.1) --

    def _w(self, register: int, value: int) -> None:
        self._chip.Write_MFRC522(register, value)

    def _r(self, register: int) -> int:
        return int(self._chip.Read_MFRC522(register))

    def _read_many(self, *registers: int) -> list[int]:
        """Several registers in one transfer: each byte after the address names the next register (8.1.2.1)."""
        return list(self._spi.xfer2([((r << 1) & 0x7E) | 0x80 for r in registers] + [0])[1:])

    def _fifo_write(self, data: bytes) -> None:
        self._spi.xfer2([(R.FIFO_DATA << 1) & 0x7E, *data])

    def _fifo_read(self, count: int) -> bytes:
        if count <= 0:
            return b""
        address = ((R.FIFO_DATA << 1) & 0x7E) | 0x80
        return bytes(self._spi.xfer2([address] * count + [0])[1:])

    # -- exchanges --

    def _exchange(self, frame: bytes, tx_bits: int = 0, reply_bytes: int = 0, *, partial: bool = False) -> bytes | None:
        """Send a frame and return the card's answer (None: no answer, or a garbled one)."""
        settled, self._settled = self._settled, False
        if not self._ready and not settled:
            self._w(R.COMMAND, R.CMD_IDLE)
        if reply_bytes:
            self._w(R.COMM_IRQ, 0x7F)  # clear every interrupt bit
        if not settled:
            self._w(R.FIFO_LEVEL, R.FLUSH_BUFFER)
        self._fifo_write(frame)
        if not self._ready:
            self._w(R.COMMAND, R.CMD_TRANSCEIVE)
        self._w(R.BIT_FRAMING, R.START_SEND | tx_bits)
        tx_air = R.air_seconds(len(frame), tx_bits)
        assert self._timer is not None
        if not reply_bytes:
            # Nothing comes back (HLTA): let the frame leave and the timer it started run out, so neither an
            # aborted frame nor a late TimerIRq can spoil the next exchange.
            self._sleep(tx_air + self._timer + _MARGIN)
            self._ready = self._heard = False
            return None
        if self._timer <= 2 * POLL_TIMEOUT and not partial:
            return self._poll_exchange(tx_air, R.air_seconds(reply_bytes))
        irq = self._wait(tx_air, R.air_seconds(reply_bytes), R.IRQ_RX)
        self._ready = self._heard = bool(irq & R.IRQ_RX)
        if irq & R.IRQ_ERR:
            error = self._r(R.ERROR)
            if error & _GARBLED:
                log.debug("reader %s: garbled answer (ErrorReg 0x%02X)", self.name, error)
                self._ready = False
                return None
        if not irq & R.IRQ_RX:
            return None
        data = self._fifo_read(self._r(R.FIFO_LEVEL))
        self._last_bits = self._r(R.CONTROL) & 0x07 if partial else 0
        return data

    def _poll_exchange(self, tx_air: float, reply_air: float) -> bytes | None:
        """The end of an exchange under the short polling timer: one sleep covers the answer or the timeout; then
        Idle stops the receiver (a Transceive that timed out keeps listening until told to stop) and one transfer
        reads ComIrqReg, ErrorReg and FIFOLevelReg, so the next exchange needs neither Idle nor a FIFO flush."""
        assert self._timer is not None
        self._sleep(tx_air + max(R.FDT_SECONDS + reply_air, self._timer) + _MARGIN)
        self._w(R.COMMAND, R.CMD_IDLE)
        self._ready = False
        irq, error, level = self._read_many(R.COMM_IRQ, R.ERROR, R.FIFO_LEVEL)
        if irq & 0x80 or not irq & (R.IRQ_RX | R.IRQ_TIMER | R.IRQ_ERR):  # Set1 reads 0 unless MISO floats
            self.check()
            raise DeviceIOError(NO_INTERRUPT.format(bus=self.bus, device=self.device))
        self._heard = bool(irq & R.IRQ_RX)
        if irq & R.IRQ_ERR and error & _GARBLED:
            log.debug("reader %s: garbled answer (ErrorReg 0x%02X)", self.name, error)
            self._settled = level == 0
            return None
        if not irq & R.IRQ_RX:
            self._settled = level == 0
            return None
        data = self._fifo_read(level)
        self._last_bits = 0
        self._settled = True  # Idle, and every byte the FIFO held is read
        return data

    def _wait(self, tx_air: float, reply_air: float, done: int) -> int:
        """Sleep through the exchange on air, then read ComIrqReg until it says the command is over."""
        assert self._timer is not None
        answer = R.FDT_SECONDS + reply_air
        # With the short polling timer one wait covers both outcomes (answer, or timeout) in one read.
        first = max(answer, self._timer) if self._timer <= 2 * POLL_TIMEOUT else answer
        self._sleep(tx_air + first + _MARGIN)
        step = max(self._timer / 4, answer / 2)
        for _ in range(_MAX_IRQ_CHECKS):
            irq = self._r(R.COMM_IRQ)
            if irq & 0x80:  # Set1 always reads 0: a floating MISO reads 0xFF
                break
            if irq & (done | R.IRQ_TIMER | R.IRQ_ERR):
                return irq
            self._sleep(step)
        self._ready = False
        self.check()
        raise DeviceIOError(NO_INTERRUPT.format(bus=self.bus, device=self.device))

    def _halt(self) -> None:
        self._exchange(_HLTA)

    def _exchange_again(self, frame: bytes, tx_bits: int, reply_bytes: int) -> bytes | None:
        """Exchange, and once more if nothing at all came back: a frame lost on air left the card as it was."""
        answer = self._exchange(frame, tx_bits, reply_bytes)
        if answer is None and not self._heard:
            answer = self._exchange(frame, tx_bits, reply_bytes)
        return answer

    def _still_there(self) -> bool:
        """Whether the known card still lies on the reader; it is left in READY for the next check."""
        if self._holding:
            # In READY the card answers anticollision with its first cascade level and stays READY.  A frame
            # lost on air leaves it READY, so a second try covers it; a garbled one sent it to HALT.
            part = self._exchange_again(bytes((R.SEL_CL1, R.NVB_ANTICOLL)), 0, 5)
            if part == self._level1:
                return True
            self._holding = False
            if part is not None or self._heard:  # another card, or a garbled answer: settle it back to HALT
                self._halt()
            return False
        self._ready = False
        # A second WUPA also covers a lost HLTA: the card was left READY, where the first WUPA is an error that
        # sends it back to IDLE/HALT, from which the second wakes it.
        atqa = self._exchange_again(bytes((R.WUPA,)), 7, 2)
        if atqa is None:
            if self._heard:  # something answered, garbled: settle the card back into IDLE/HALT
                self._halt()
            return False
        if atqa != self._atqa:
            # Another kind of card: HLTA is an unexpected frame in READY, which sends it back to IDLE (or HALT).
            self._halt()
            return False
        # The same kind of card: its first cascade level tells it from another one put down in its place.
        self._holding = True
        return self._still_there()

    def _select(self, halt: bool) -> bytes | None:
        """Wake, anticollide and select the card through every cascade level; return its UID."""
        if self._holding:
            # The card waits in READY, where WUPA is an error: HLTA (as unexpected there) sends it back to HALT.
            self._holding = False
            self._halt()
        self._ready = False
        atqa = self._exchange(bytes((R.WUPA,)), 7, 2)
        if atqa is None:
            if self._heard:
                self._halt()
            return None
        uid = level1 = b""
        selected = False
        try:
            for select in (R.SEL_CL1, R.SEL_CL2, R.SEL_CL3):
                part = self._exchange_again(bytes((select, R.NVB_ANTICOLL)), 0, 5)
                if part is None or len(part) != 5 or R.bcc(part[:4]) != part[4]:
                    return None
                if select == R.SEL_CL1:
                    level1 = part
                frame = bytes((select, R.NVB_SELECT)) + part
                sak = self._exchange_again(frame + R.crc_a(frame), 0, 3)
                if sak is None or len(sak) != 3 or R.crc_a(sak[:1]) != sak[1:]:
                    return None
                if sak[0] & R.SAK_CASCADE:
                    if part[0] != R.CASCADE_TAG:
                        return None
                    uid += part[1:4]
                    continue
                uid += part[:4]
                self._atqa, self._sak, self._level1 = atqa, sak[0], level1
                selected = True
                return uid
            return None
        finally:
            if halt or not selected:
                self._halt()

    def _classic(self, block: int, key: bytes, key_type: str, data: bytes | None) -> tuple[bytes, bytes]:
        """Select the card, authenticate for ``block``, then read it (``data`` None) or write ``data``."""
        if key_type not in ("A", "B") or not isinstance(key, (bytes, bytearray)) or len(key) != 6:
            length = len(key) if hasattr(key, "__len__") else 0
            raise DriverConfigError(BAD_KEY.format(key_type=key_type, length=length))
        self._known = None
        self._sak = 0
        uid = self._select(halt=False)
        if uid is None:
            raise CardError(NO_CARD.format(name=self.name))
        shown = format_uid(uid)
        if not self._sak & _SAK_CLASSIC:
            self._halt()
            raise CardError(NOT_CLASSIC.format(uid=shown, name=self.name))
        self._set_timer(CARD_TIMEOUT)
        try:
            self._authenticate(block, key, key_type, uid, shown)
            if data is None:
                return uid, self._read_block(block, shown)
            self._write_block(block, data, shown)
            return uid, data
        finally:
            self._halt()  # sent while Crypto1 is still on, so the card understands it
            self._w(R.STATUS2, self._r(R.STATUS2) & ~R.STATUS2_CRYPTO1_ON & 0xFF)
            self._set_timer(POLL_TIMEOUT)

    def _authenticate(self, block: int, key: bytes, key_type: str, uid: bytes, shown: str) -> None:
        command = R.MF_AUTH_KEY_A if key_type == "A" else R.MF_AUTH_KEY_B
        self._w(R.COMMAND, R.CMD_IDLE)
        self._w(R.COMM_IRQ, 0x7F)
        self._w(R.FIFO_LEVEL, R.FLUSH_BUFFER)
        self._fifo_write(bytes((command, block)) + bytes(key) + uid[-4:])
        self._w(R.COMMAND, R.CMD_MF_AUTHENT)
        self._ready = self._settled = False
        on_air = R.air_seconds(4) + R.FDT_SECONDS * 2 + R.air_seconds(4) + R.air_seconds(8)
        irq = self._wait(on_air, R.air_seconds(4), R.IRQ_IDLE)
        if not irq & R.IRQ_IDLE or not self._r(R.STATUS2) & R.STATUS2_CRYPTO1_ON:
            self._w(R.COMMAND, R.CMD_IDLE)
            raise CardError(AUTH_FAILED.format(uid=shown, block=block))

    def _read_block(self, block: int, shown: str) -> bytes:
        frame = bytes((R.MF_READ, block))
        answer = self._exchange(frame + R.crc_a(frame), 0, 18)
        if answer is None or len(answer) != 18 or R.crc_a(answer[:16]) != answer[16:]:
            why = "no answer" if answer is None else f"{len(answer)} bytes or a bad CRC"
            raise CardError(CARD_IO.format(block=block, uid=shown, action="read", why=why))
        return answer[:16]

    def _write_block(self, block: int, data: bytes, shown: str) -> None:
        frame = bytes((R.MF_WRITE, block))
        for step, payload in (("command", frame + R.crc_a(frame)), ("data", data + R.crc_a(data))):
            ack = self._exchange(payload, 0, 1, partial=True)
            if ack is None or self._last_bits != 4 or ack[0] & 0x0F != R.MF_ACK:
                why = "no answer" if ack is None else f"NAK 0x{ack[0] & 0x0F:X} to the {step}"
                raise CardError(CARD_IO.format(block=block, uid=shown, action="written", why=why))


_GARBLED = R.ERR_BUFFER_OVFL | R.ERR_COLL | R.ERR_PARITY | R.ERR_PROTOCOL | R.ERR_CRC
_REGISTER_NAMES = {R.TX_CONTROL: "TxControlReg", R.TX_ASK: "TxASKReg", R.T_MODE: "TModeReg", R.RF_CFG: "RFCfgReg"}
_MEANING = {R.TX_CONTROL: " (antenna off)", R.T_MODE: " (timer not started by transmissions)"}


def _hold_reset_high(gpio: Any, pin: int) -> bool:
    """Drive a reset line high as an output (never through a low glitch); True when it was not high before."""
    try:
        already = gpio.input(pin) == gpio.HIGH
    except RuntimeError:  # RPi.GPIO: the pin is not set up in this process yet
        already = False
    if already:
        return False
    gpio.setup(pin, gpio.OUT, initial=gpio.HIGH)
    return True


class _Guard:
    """Holds the reader's lock for one operation and turns SPI errors into driver errors."""

    def __init__(self, reader: Reader) -> None:
        self._reader = reader

    def __enter__(self) -> None:
        self._reader._lock.acquire()
        if self._reader._closed:
            self._reader._lock.release()
            raise DriverConfigError(CLOSED.format(name=self._reader.name))

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        reader = self._reader
        reader._lock.release()
        if exc is not None and isinstance(exc, OSError) and not isinstance(exc, DriverError):
            reader._ready = reader._settled = False
            raise DeviceIOError(SPI_FAILED.format(bus=reader.bus, device=reader.device, error=exc)) from exc


def _check_block(block: int) -> None:
    if isinstance(block, bool) or not isinstance(block, int) or not 0 < block < 63 or block % 4 == 3:
        raise DriverConfigError(BAD_BLOCK.format(block=block))


def validate(name: str, bus: int, device: int, rst_pin: int) -> None:
    """Raise DriverConfigError naming what is wrong with a reader's wiring."""
    if not isinstance(name, str) or not name.strip():
        raise DriverConfigError(BAD_NAME.format(name=name))
    if isinstance(bus, bool) or bus not in SPI_SELECTS:
        raise DriverConfigError(BAD_BUS.format(bus=bus))
    if isinstance(device, bool) or device not in SPI_SELECTS[bus]:
        choices = " or ".join(str(d) for d in SPI_SELECTS[bus])
        raise DriverConfigError(BAD_DEVICE.format(bus=bus, device=device, choices=choices))
    if isinstance(rst_pin, bool) or not isinstance(rst_pin, int) or not 0 <= rst_pin <= 27:
        raise DriverConfigError(BAD_PIN.format(pin=rst_pin))
    if rst_pin in SPI_PINS[bus]:
        raise DriverConfigError(PIN_IS_SPI.format(pin=rst_pin, bus=bus, role=SPI_PINS[bus][rst_pin]))


def _register(key: str, name: str, bus: int, device: int, rst_pin: int) -> None:
    with _registry_lock:
        other = _open_selects.get((key, bus, device))
        if other is not None:
            raise DriverConfigError(SELECT_IN_USE.format(bus=bus, device=device, other=other))
        _open_selects[(key, bus, device)] = name
        _pin_users[(key, rst_pin)] = _pin_users.get((key, rst_pin), 0) + 1


def _unregister(key: str, bus: int, device: int, rst_pin: int) -> bool:
    """Forget an open reader; True when it was the last one on its reset pin."""
    with _registry_lock:
        _open_selects.pop((key, bus, device), None)
        users = _pin_users.get((key, rst_pin), 1) - 1
        if users <= 0:
            _pin_users.pop((key, rst_pin), None)
            return True
        _pin_users[(key, rst_pin)] = users
        return False


def _wall_sleep(seconds: float) -> None:
    time.sleep(seconds)


def _real_library() -> tuple[Any, Any]:
    """Import the hardware libraries, only here: the MFRC522 class and the RPi.GPIO module it uses."""
    try:
        import mfrc522
    except (ImportError, RuntimeError) as exc:  # RPi.GPIO raises RuntimeError off a Pi
        raise BackendUnavailable(REAL_UNAVAILABLE.format(error=exc)) from exc
    cls = mfrc522.MFRC522
    return cls, sys.modules[cls.__module__].GPIO


def _construct(cls: Any, gpio: Any, bus: int, device: int, rst_pin: int) -> Any:
    """Run the library's constructor with BCM numbering and our reset pin, without its log handler."""
    library_log = logging.getLogger("mfrc522Logger")
    handlers, level = list(library_log.handlers), library_log.level
    try:
        return cls(bus=bus, device=device, spd=SPEED_HZ, pin_mode=gpio.BCM, pin_rst=rst_pin)
    except FileNotFoundError as exc:
        raise DeviceNotFound(NO_SPI_NODE.format(bus=bus, device=device, overlay=SPI_OVERLAYS[bus])) from exc
    except OSError as exc:
        raise DeviceIOError(SPI_FAILED.format(bus=bus, device=device, error=exc)) from exc
    finally:
        for handler in library_log.handlers:
            if handler not in handlers:
                library_log.removeHandler(handler)  # the library adds a StreamHandler per instance
        library_log.setLevel(level)


def open_reader(name: str, bus: int, device: int, rst_pin: int, backend: str | None = None, *,
                rig: SimRig | None = None, gain_db: int = R.RX_GAIN_DEFAULT_DB) -> Reader:
    """Open the MFRC522 on SPI<bus>.<device> with its reset on BCM ``rst_pin`` (``rig``: the sim to use).

    The reset line is driven high first and the chip given time to start (the line sits low from boot
    until a process drives it); then the library sets the chip up and the settings are read back.
    """
    validate(name, bus, device, rst_pin)
    if gain_db not in R.RX_GAIN_CHOICES:
        raise DriverConfigError(BAD_GAIN.format(gain=gain_db, choices=", ".join(map(str, R.RX_GAIN_CHOICES))))
    chosen = default_backend(backend)
    if chosen == "sim":
        rig = rig or default_rig()
        sim = rig.chip(bus, device, rst_pin=rst_pin)
        cls, gpio, sleep, key = rig.stock().MFRC522, rig.gpio, rig.clock.sleep, f"sim{rig.serial}"
    else:
        cls, gpio = _real_library()
        sim, sleep, key = None, _wall_sleep, "real"
    if gpio.getmode() not in (None, gpio.BCM):
        # The library would silently take our BCM number as a header pin number.
        raise DriverConfigError(GPIO_NOT_BCM)
    _register(key, name, bus, device, rst_pin)
    try:
        if gpio.getmode() is None:
            gpio.setmode(gpio.BCM)
        if _hold_reset_high(gpio, rst_pin):
            sleep(POWER_UP_SECONDS)
        chip = _construct(cls, gpio, bus, device, rst_pin)
        reader = Reader(name, bus, device, rst_pin, chip, gpio, sleep, key, sim, gain_db)
    except BaseException:
        if _unregister(key, bus, device, rst_pin) and gpio.getmode() == gpio.BCM:
            gpio.cleanup(rst_pin)
        raise
    log.debug("reader %s opened on SPI%d.%d (reset GPIO %d, %s)", name, bus, device, rst_pin, chosen)
    return reader


def describe_version(version: int) -> str:
    """Name a version register value, e.g. 'MFRC522 v2.0 (0x92)'."""
    return f"{R.VERSIONS.get(version, 'unknown chip')} (0x{version:02X})"


def probe_reader(name: str, bus: int, device: int, rst_pin: int, backend: str | None = None, *,
                 rig: SimRig | None = None) -> tuple[bool, int | None, str]:
    """Open a reader, read its version register and close it: (found, version, one line saying what was seen)."""
    try:
        reader = open_reader(name, bus, device, rst_pin, backend, rig=rig)
    except DriverError as exc:
        return False, None, str(exc)
    try:
        version = reader.version()
        if version in R.ABSENT_VERSIONS:
            return False, version, NOT_FOUND.format(bus=bus, device=device, version=version)
        return True, version, f"{describe_version(version)} on SPI{bus}.{device}, reset GPIO {rst_pin}"
    except DriverError as exc:
        return False, None, str(exc)
    finally:
        reader.close()
