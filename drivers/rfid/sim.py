"""A simulated MFRC522 behind a fake ``spidev`` and a fake ``RPi.GPIO``, faithful enough to run the real library.

The chip answers at register level (datasheet 9 and 10) and the card on it follows ISO 14443-3 type A
(IDLE, READY, ACTIVE, HALT, and the starred READY*/ACTIVE* entered from HALT) plus MIFARE Classic
authentication and block access.  Time is simulated: a :class:`SimClock` moves with every SPI transfer
(its bits at the bus speed) and with every wait a driver makes through :meth:`SimClock.sleep`; the
chip's timer and the card's air time at 106 kbit/s are measured on that clock.  So how a driver waits
shows up in what it costs, and the stock library's slow empty poll and flicker appear here as they do
on a real table.

The fake modules live in a :class:`SimRig` and reach ``sys.modules`` only while the rig loads its own
private copy of the ``mfrc522`` package (:meth:`SimRig.stock`); the real ``mfrc522`` import is never
touched, so the real backend can never end up talking to a fake.
"""

from __future__ import annotations

import errno
import heapq
import importlib.util
import itertools
import random
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from drivers.rfid import registers as R

# Chip selects of a Pi with SPI0 and SPI1 enabled (dtoverlay=spi1-3cs).
DEFAULT_SELECTS: tuple[tuple[int, int], ...] = ((0, 0), (0, 1), (1, 0), (1, 1), (1, 2))

# Physical header pin -> BCM GPIO number (40-pin header, every Pi from the 2 to the 5).
BOARD_TO_BCM: dict[int, int] = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10, 21: 9, 22: 25,
    23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21,
}

# Register values after power-up or SoftReset (datasheet 9.2, "reset value" of each register).
_RESET_VALUES: dict[int, int] = {
    R.COMMAND: 0x20, R.COMM_IEN: 0x80, R.COMM_IRQ: 0x14, R.STATUS1: 0x21, R.WATER_LEVEL: 0x08,
    R.CONTROL: 0x10, R.COLL: 0x80, R.MODE: 0x3F, R.TX_CONTROL: 0x80, 0x16: 0x10, 0x17: 0x84, 0x18: 0x84,
    R.DEMOD: 0x4D, 0x1C: 0x62, 0x1F: 0xEB, R.CRC_RESULT_H: 0xFF, R.CRC_RESULT_L: 0xFF, 0x24: 0x26,
    0x26: 0x48, 0x27: 0x88, 0x28: 0x20, 0x29: 0x20,
}
_CRC_PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)  # ModeReg CRCPreset (9.3.2.2)

# After NRSTPD rises (or the supply comes back) the chip's crystal oscillator must start before it takes
# anything over SPI (datasheet 8.8.2: the crystal's start-up time plus 37.74 us; a few ms for a 27.12 MHz
# crystal).  Until then MISO reads 0x00 and every write is lost.
OSC_STARTUP_SECONDS = 0.005

# What a Pi's GPIO reads before anything drives it: BCM 0-8 have a pull-up at boot, 9-27 a pull-down
# (BCM2711 datasheet 5.3, "Alternative Function Assignments"), so a reset line on GPIO 25 sits low.
def boot_level(pin: int) -> int:
    """The level a GPIO sits at from boot until a process drives it."""
    return 1 if pin <= 8 else 0


# A MIFARE Classic write takes the card a while before it acknowledges the data (EEPROM programming).
_EEPROM_WRITE_SECONDS = 0.004
# Transport configuration of a sector trailer: key A, access bits FF 07 80 69, key B.
DEFAULT_KEY = b"\xff" * 6
_TRAILER = DEFAULT_KEY + b"\xff\x07\x80\x69" + DEFAULT_KEY


@dataclass(frozen=True)
class _Kind:
    atqa_lsb: int  # ATQA low byte without the UID-size bits
    sak: int
    blocks: int  # 16-byte blocks (Classic) or 4-byte pages (NTAG)
    block_size: int
    classic: bool


CARD_KINDS: dict[str, _Kind] = {
    "classic1k": _Kind(0x04, 0x08, 64, 16, True),
    "classic4k": _Kind(0x02, 0x18, 256, 16, True),
    "ultralight": _Kind(0x04, 0x00, 16, 4, False),
    "ntag213": _Kind(0x04, 0x00, 45, 4, False),
    "ntag215": _Kind(0x04, 0x00, 135, 4, False),
    "ntag216": _Kind(0x04, 0x00, 231, 4, False),
}
_UID_SIZE_BITS = {4: 0x00, 7: 0x40, 10: 0x80}  # ATQA bits 7..6 (ISO 14443-3, 6.3.2)


class SimClock:
    """Simulated time shared by every chip of a rig; it moves only with transfers and waits.

    With ``follow_wall=True`` it also moves with the wall clock, for code that waits with ``time.sleep``
    (the real backend's waits) instead of :meth:`sleep`.
    """

    def __init__(self, follow_wall: bool = False) -> None:
        self._now = 0.0
        self._lock = threading.Lock()
        self.follow_wall = follow_wall
        self._wall_start = time.monotonic()

    def now(self) -> float:
        """Seconds of simulated time since the rig was made."""
        if self.follow_wall:
            return self._now + (time.monotonic() - self._wall_start)
        return self._now  # one float read: atomic, no lock needed

    def advance(self, seconds: float) -> float:
        """Move simulated time forward by ``seconds`` and return the new time."""
        with self._lock:
            if seconds > 0.0:
                self._now += seconds
            now = self._now
        return now + (time.monotonic() - self._wall_start) if self.follow_wall else now

    def sleep(self, seconds: float) -> None:
        """A driver's wait in simulation: it passes simulated time (and wall time too when following it)."""
        if self.follow_wall:
            time.sleep(seconds)
        else:
            self.advance(seconds)


# --- The card ------------------------------------------------------------------------------------

IDLE, READY, ACTIVE, HALT = "IDLE", "READY", "ACTIVE", "HALT"


@dataclass
class _Reply:
    data: bytes
    last_bits: int = 0  # valid bits of the last byte, 0 for all eight
    delay: float = R.FDT_SECONDS  # from the end of the command to the start of the answer


class SimCard:
    """A contactless card or sticker: its UID, its memory, and its ISO 14443-3 state."""

    def __init__(self, uid: bytes, kind: str = "classic1k", blocks: Mapping[int, bytes] | None = None) -> None:
        uid = bytes(uid)
        if len(uid) not in _UID_SIZE_BITS:
            raise ValueError(f"a card UID has 4, 7 or 10 bytes, not {len(uid)} ({uid.hex()})")
        if kind not in CARD_KINDS:
            raise ValueError(f"unknown card kind {kind!r}: use one of {', '.join(CARD_KINDS)}")
        if not CARD_KINDS[kind].classic and len(uid) != 7:
            raise ValueError(f"an {kind} has a 7-byte UID, not {len(uid)} bytes")
        if uid[0] == R.CASCADE_TAG:
            raise ValueError("a UID never starts with 0x88, the cascade tag")
        self.uid = uid
        self.kind = kind
        self._kind = CARD_KINDS[kind]
        self.memory = [bytearray(self._kind.block_size) for _ in range(self._kind.blocks)]
        self._format()
        for number, content in (blocks or {}).items():
            if not 0 <= number < self._kind.blocks or len(content) != self._kind.block_size:
                raise ValueError(f"block {number} of a {kind} holds {self._kind.block_size} bytes")
            self.memory[number][:] = content
        self.state = IDLE
        self.from_halt = False  # READY*/ACTIVE*: an error sends the card back to HALT, not IDLE
        self.level = 1
        self.auth_sector: int | None = None
        self._write_pending: int | None = None

    @property
    def atqa(self) -> bytes:
        """The two ATQA bytes as they go on air (low byte first)."""
        return bytes((self._kind.atqa_lsb | _UID_SIZE_BITS[len(self.uid)], 0x00))

    @property
    def levels(self) -> int:
        """Number of cascade levels of the UID (1, 2 or 3)."""
        return {4: 1, 7: 2, 10: 3}[len(self.uid)]

    def block(self, number: int) -> bytes:
        """Inspect a block (Classic) or page (NTAG) of the card's memory."""
        return bytes(self.memory[number])

    def _format(self) -> None:
        uid = self.uid
        if self._kind.classic:
            self.memory[0][: len(uid)] = uid
            if len(uid) == 4:
                self.memory[0][4:8] = bytes((R.bcc(uid), self._kind.sak)) + self.atqa
            for trailer in self._trailers():
                self.memory[trailer][:] = _TRAILER
        else:
            self.memory[0][:] = bytes((uid[0], uid[1], uid[2], R.CASCADE_TAG ^ uid[0] ^ uid[1] ^ uid[2]))
            self.memory[1][:] = uid[3:7]
            self.memory[2][:] = bytes((R.bcc(uid[3:7]), 0x48, 0x00, 0x00))
            self.memory[3][:] = bytes((0xE1, 0x10, (self._kind.blocks - 5) * 4 // 8, 0x00))

    def _trailers(self) -> list[int]:
        return [b for b in range(self._kind.blocks) if self._is_trailer(b)]

    def _is_trailer(self, block: int) -> bool:
        if block < 128:
            return block % 4 == 3
        return block % 16 == 15

    def _sector(self, block: int) -> int:
        return block // 4 if block < 128 else 32 + (block - 128) // 16

    def _trailer_of(self, block: int) -> int:
        return block | 3 if block < 128 else block | 15

    def cascade(self, level: int) -> bytes:
        """The four UID bytes sent at a cascade level (with the cascade tag when another level follows)."""
        uid = self.uid
        if self.levels == 1:
            part = uid
        elif self.levels == 2:
            part = bytes((R.CASCADE_TAG,)) + uid[0:3] if level == 1 else uid[3:7]
        else:
            part = {1: bytes((R.CASCADE_TAG,)) + uid[0:3], 2: bytes((R.CASCADE_TAG,)) + uid[3:6]}.get(level, uid[6:10])
        return part

    # -- protocol --

    def power_up(self) -> None:
        """The card enters a field: it starts in IDLE, unauthenticated."""
        self.state, self.from_halt, self.level = IDLE, False, 1
        self.auth_sector = None
        self._write_pending = None

    def _error(self) -> None:
        # ISO 14443-3 6.3: an unexpected frame sends READY/ACTIVE back to IDLE, or to HALT from READY*/ACTIVE*.
        if self.state in (READY, ACTIVE):
            self.state = HALT if self.from_halt else IDLE
        self.auth_sector = None
        self._write_pending = None

    def receive(self, frame: bytes, last_bits: int, encrypted: bool) -> _Reply | None:
        """Handle one frame from the reader and return the answer, if the card gives one."""
        if encrypted != (self.auth_sector is not None):
            # Crypto1 on one side only: the card hears noise.
            self._error()
            return None
        if last_bits == 7 and len(frame) == 1:
            return self._short_frame(frame[0])
        if last_bits:
            self._error()
            return None
        if self.state == READY:
            return self._anticollision(frame)
        if self.state == ACTIVE:
            return self._active(frame)
        return None  # IDLE and HALT ignore everything but REQA/WUPA

    def _short_frame(self, command: int) -> _Reply | None:
        if (command == R.REQA and self.state == IDLE) or (command == R.WUPA and self.state in (IDLE, HALT)):
            self.from_halt = self.state == HALT
            self.state, self.level = READY, 1
            return _Reply(self.atqa)
        self._error()
        return None

    def _anticollision(self, frame: bytes) -> _Reply | None:
        select = (R.SEL_CL1, R.SEL_CL2, R.SEL_CL3)[self.level - 1]
        if len(frame) < 2 or frame[0] != select:
            self._error()
            return None
        nvb = frame[1]
        part = self.cascade(self.level)
        full = part + bytes((R.bcc(part),))
        if nvb == R.NVB_SELECT and len(frame) == 9:
            if R.crc_a(frame[:7]) != frame[7:9] or frame[2:7] != full:
                self._error()
                return None
            if self.level < self.levels:
                self.level += 1
                sak = R.SAK_CASCADE
            else:
                self.state = ACTIVE
                sak = self._kind.sak
            return _Reply(bytes((sak,)) + R.crc_a([sak]))
        known = (nvb >> 4) - 2
        if nvb & 0x0F == 0 and 0 <= known < 5 and len(frame) == 2 + known and frame[2:] == full[:known]:
            # Byte-aligned anticollision; with one card per reader there is never a collision to split.
            return _Reply(full[known:])
        self._error()
        return None

    def _active(self, frame: bytes) -> _Reply | None:
        if self._write_pending is not None:
            return self._write_data(frame)
        if len(frame) < 3 or R.crc_a(frame[:-2]) != frame[-2:]:
            self._error()
            return None
        body = frame[:-2]
        if tuple(body) == R.HLTA:
            self.state, self.auth_sector = HALT, None
            return None
        if body[0] == R.MF_READ and len(body) == 2:
            return self._read(body[1])
        if body[0] == R.MF_WRITE and len(body) == 2:
            return self._write_command(body[1])
        if body[0] == R.NTAG_WRITE and len(body) == 6 and not self._kind.classic:
            page = body[1]
            if 4 <= page < self._kind.blocks - 5:
                self.memory[page][:] = body[2:6]
                return _Reply(bytes((R.MF_ACK,)), 4, _EEPROM_WRITE_SECONDS)
            return self._nak()
        self._error()
        return None

    def _nak(self) -> _Reply:
        self._error()
        return _Reply(bytes((0x00,)), 4)

    def _read(self, block: int) -> _Reply | None:
        if not 0 <= block < self._kind.blocks:
            return self._nak()
        if self._kind.classic:
            if self.auth_sector != self._sector(block):
                return self._nak()
            data = bytearray(self.memory[block])
            if self._is_trailer(block):
                data[0:6] = bytes(6)  # key A never reads back
        else:
            data = bytearray()
            for page in range(block, block + 4):
                data += self.memory[page % self._kind.blocks]
        return _Reply(bytes(data) + R.crc_a(data))

    def _write_command(self, block: int) -> _Reply | None:
        if self._kind.classic:
            allowed = 0 < block < self._kind.blocks and self.auth_sector == self._sector(block)
        else:
            allowed = 4 <= block < self._kind.blocks - 5
        if not allowed:
            return self._nak()
        self._write_pending = block
        return _Reply(bytes((R.MF_ACK,)), 4)

    def _write_data(self, frame: bytes) -> _Reply | None:
        block, self._write_pending = self._write_pending, None
        assert block is not None
        if len(frame) != 18 or R.crc_a(frame[:16]) != frame[16:]:
            return self._nak()
        if self._kind.classic:
            self.memory[block][:] = frame[:16]
        else:
            self.memory[block][:] = frame[:4]  # COMPATIBILITY_WRITE keeps the first page only
        return _Reply(bytes((R.MF_ACK,)), 4, _EEPROM_WRITE_SECONDS)

    def authenticate(self, key_type: int, block: int, key: bytes, uid4: bytes) -> bool | None:
        """First phase of MIFARE authentication: None if the card stays silent, else whether the key fits."""
        if not self._kind.classic or self.state != ACTIVE or not 0 <= block < self._kind.blocks:
            self._error()
            return None
        trailer = self.memory[self._trailer_of(block)]
        expected = bytes(trailer[0:6]) if key_type == R.MF_AUTH_KEY_A else bytes(trailer[10:16])
        if key != expected or uid4 != self.uid[-4:]:
            self._error()  # the reader's answer to the nonce does not verify: the card goes quiet
            return False
        self.auth_sector = self._sector(block)
        return True


# --- The chip ------------------------------------------------------------------------------------


class SimMfrc522:
    """One simulated MFRC522 on a chip select, with at most one card in its field."""

    def __init__(self, clock: SimClock, bus: int, device: int, rst_pin: int | None = None,
                 version: int = 0x92, transfer_overhead: float = 0.0,
                 startup_seconds: float = OSC_STARTUP_SECONDS) -> None:
        self.clock = clock
        self.bus, self.device, self.rst_pin = bus, device, rst_pin
        self.chip_version = version
        self.startup_seconds = startup_seconds
        self.power_ups = 0  # hard resets seen: rising edges of NRSTPD and power cycles
        self._shares_miso = False
        self.miso_level = 0  # the last bit this chip shifted out
        self.rig: SimRig | None = None  # the rig it sits on (set by SimRig.chip)
        self.transfer_overhead = transfer_overhead  # seconds a driver spends around each transfer
        self.transfers = 0
        self.card: SimCard | None = None
        self.drop_rate = 0.0
        self._rng = random.Random(0)
        self._drop_pattern: list[bool] = []
        self._drop_index = 0
        self._garble = 0
        self._garble_after = 0
        self._lost: int | None = None
        self._spi_fails = False
        self._powered = True
        self._off_bus = False
        self._awake_at = 0.0
        self.stray: SimCard | None = None  # a neighbour's card that reaches this antenna
        self.stray_needs_db = 48  # the RxGain at which the stray card is heard
        self.card_needs_db = 18  # the RxGain this pad needs to hear its own card through the board
        self._lock = threading.RLock()
        self._events: list[tuple[float, int, Callable[[float], None]]] = []
        self._seq = itertools.count()
        self._hard_reset()

    # -- what a test does to the chip and the card --

    def place(self, card: SimCard, needs_db: int | None = None) -> None:
        """Put ``card`` on the reader (one card at a time); ``needs_db``: the RxGain it takes to hear it."""
        with self._lock:
            self._catch_up()
            if self.card is not None:
                raise ValueError(f"SPI{self.bus}.{self.device} already holds a card; lift() it first")
            self.card = card
            if needs_db is not None:
                self.card_needs_db = needs_db
            card.power_up()

    def reach(self, card: SimCard | None, needs_db: int = 48) -> None:
        """Let a card lying on a neighbouring pad reach this antenna when RxGain is at least ``needs_db``."""
        with self._lock:
            self._catch_up()
            self.stray, self.stray_needs_db = card, needs_db
        if card is not None and self.rig is not None:
            self.rig.strays = True  # from now on the rig keeps every chip's events in order

    @property
    def shares_miso(self) -> bool:
        """True when this board keeps driving MISO while deselected (a common RC522 board defect)."""
        return self._shares_miso

    @shares_miso.setter
    def shares_miso(self, value: bool) -> None:
        self._shares_miso = value
        if value and self.rig is not None:
            self.rig.miso_sharers = True

    @property
    def rx_gain_db(self) -> int:
        """The receiver gain set in RFCfgReg RxGain (datasheet 9.3.3.6, table 98)."""
        return R.RX_GAIN_DB[(self._regs[R.RF_CFG] >> 4) & 0x07]

    def power_cycle(self) -> None:
        """The chip's supply dips (a brown-out): its registers go back to reset values and it restarts."""
        with self._lock:
            self._hard_reset()
            self.power_ups += 1
            self._awake_at = self.clock.now() + self.startup_seconds

    def lift(self) -> SimCard | None:
        """Take the card off the reader and return it."""
        with self._lock:
            self._catch_up()
            card, self.card = self.card, None
            return card

    def lose_chip(self, reads: int = 0x00, spi_error: bool = False) -> None:
        """Make the chip stop answering: every byte reads ``reads`` (0x00 or 0xFF), or transfers raise EIO."""
        with self._lock:
            self._lost = reads
            self._spi_fails = spi_error
            self._bus_changed()

    def restore_chip(self, power_cycled: bool = True) -> None:
        """Bring the chip back; after a power cycle its registers are at their reset values again."""
        with self._lock:
            self._lost = None
            self._spi_fails = False
            self._bus_changed()
            if power_cycled:
                self.power_cycle()

    def garble_next(self, count: int = 1, after: int = 0) -> None:
        """Corrupt ``count`` answers from the card, once ``after`` more have gone through intact.

        The corruption is a flipped bit, which the chip reports as a parity error.
        """
        with self._lock:
            self._garble, self._garble_after = count, after

    def drop_pattern(self, pattern: Sequence[bool]) -> None:
        """Lose frames on air deterministically: ``pattern[i]`` True drops the i-th frame sent, cycling."""
        with self._lock:
            self._drop_pattern = list(pattern)
            self._drop_index = 0

    def seed(self, seed: int) -> None:
        """Seed the generator behind :attr:`drop_rate`."""
        self._rng.seed(seed)

    @property
    def antenna_on(self) -> bool:
        """True while the chip drives its antenna (TxControlReg Tx1RFEn/Tx2RFEn)."""
        return bool(self._regs[R.TX_CONTROL] & 0x03)

    @property
    def crypto1_on(self) -> bool:
        """True while MIFARE Crypto1 is on (Status2Reg MFCrypto1On)."""
        return self._crypto

    @property
    def pending(self) -> bool:
        """True while frames or timers of this chip are still on their way."""
        return bool(self._events)

    def catch_up(self) -> None:
        """Run whatever the simulated clock says has happened by now."""
        with self._lock:
            self._catch_up()

    def register(self, address: int) -> int:
        """Inspect a register without a transfer (for tests)."""
        with self._lock:
            self._catch_up()
            return self._read(address)

    def set_reset_line(self, high: bool) -> None:
        """The NRSTPD pin: low holds the chip in hard power-down, a rising edge resets it."""
        with self._lock:
            if high and not self._powered:
                self._hard_reset()
                self.power_ups += 1
                self._awake_at = self.clock.now() + self.startup_seconds
            self._powered = high
            self._bus_changed()

    @property
    def powered(self) -> bool:
        """True while NRSTPD is high (the chip is out of hard power-down)."""
        return self._powered

    @property
    def awake(self) -> bool:
        """True once the chip is powered and its oscillator has started: it answers over SPI."""
        return self._powered and self.clock.now() >= self._awake_at

    # -- SPI (datasheet 8.1.2) --

    def transfer(self, data: Sequence[int], speed_hz: int) -> list[int]:
        """One SPI transfer: an address byte then data; reads shift out one register per byte."""
        with self._lock:
            self.transfers += 1
            now = self.clock.advance(len(data) * 8 / (speed_hz if speed_hz > 1 else 1) + self.transfer_overhead)
            if self._off_bus or now < self._awake_at:
                if self._spi_fails:
                    raise OSError(errno.EIO, "Input/output error")
                # A chip in power-down or still starting its oscillator leaves MISO alone and loses every write.
                return [self._lost if self._lost is not None else 0x00] * len(data)
            if self._events:  # what fell due meanwhile (`_catch_up` without its call when nothing is scheduled)
                self._catch_up()
            if len(data) == 2:  # one register, as the library's Read_MFRC522 and Write_MFRC522 send it
                first = data[0]
                if first & 0x80:
                    value = self._read((first >> 1) & 0x3F)
                    if self._events:
                        self._catch_up()
                    return [0x00, value]
                self._write((first >> 1) & 0x3F, data[1] & 0xFF)
                return [0x00, 0x00]
            if not data:
                return []
            out = [0x00]
            if data[0] & 0x80:  # read: every byte but the last names the next register to read
                for addr_byte in data[:-1]:
                    out.append(self._read((addr_byte >> 1) & 0x3F))
                    if self._events:
                        self._catch_up()
                return out
            address = (data[0] >> 1) & 0x3F
            for value in data[1:]:
                self._write(address, value & 0xFF)
                out.append(0x00)
            return out

    def _bus_changed(self) -> None:
        # One flag for the transfer to test: the chip is lost, failing, or held in power-down.
        self._off_bus = self._spi_fails or self._lost is not None or not self._powered

    # -- registers --

    def _hard_reset(self) -> None:
        self._regs = bytearray(64)
        for address, value in _RESET_VALUES.items():
            self._regs[address] = value
        self._fifo = bytearray()
        self._mem_buffer = bytes(25)
        self._crypto = False
        self._command = R.CMD_IDLE
        self._op = 0  # bumps whenever a command starts, so the events of an aborted one are ignored
        self._timer_token = 0
        self._timer_deadline: float | None = None
        self._events = []
        if self.card is not None:
            self.card.power_up()

    def _read(self, address: int) -> int:
        regs = self._regs
        if address == R.FIFO_DATA:
            return self._fifo.pop(0) if self._fifo else 0x00
        if address == R.FIFO_LEVEL:
            return len(self._fifo)
        if address == R.COMMAND:
            return (regs[R.COMMAND] & 0xF0) | self._command
        if address in (R.COMM_IRQ, R.DIV_IRQ):
            return regs[address] & 0x7F
        if address == R.STATUS1:
            running = self._timer_deadline is not None and self.clock.now() < self._timer_deadline
            return (regs[R.STATUS1] & ~0x08) | (0x08 if running else 0)
        if address == R.STATUS2:
            return (regs[R.STATUS2] & 0xF0) | (R.STATUS2_CRYPTO1_ON if self._crypto else 0)
        if address == R.VERSION:
            return self.chip_version
        if address == R.BIT_FRAMING:
            return regs[address] & ~R.START_SEND  # StartSend is a write-only trigger
        if address in (R.T_COUNTER_H, R.T_COUNTER_L):
            value = self._timer_counter()
            return value >> 8 if address == R.T_COUNTER_H else value & 0xFF
        return regs[address]

    def _write(self, address: int, value: int) -> None:
        regs = self._regs
        if address == R.FIFO_DATA:
            if len(self._fifo) < R.FIFO_SIZE:
                self._fifo.append(value)
            else:
                regs[R.ERROR] |= R.ERR_BUFFER_OVFL
        elif address == R.FIFO_LEVEL:
            if value & R.FLUSH_BUFFER:
                self._fifo.clear()
                regs[R.ERROR] &= ~R.ERR_BUFFER_OVFL
        elif address in (R.COMM_IRQ, R.DIV_IRQ):
            marked = value & 0x7F
            regs[address] = regs[address] | marked if value & 0x80 else regs[address] & ~marked
        elif address == R.STATUS2:
            regs[R.STATUS2] = value & 0xC0
            if not value & R.STATUS2_CRYPTO1_ON:
                self._crypto = False  # software may clear MFCrypto1On, only MFAuthent sets it
        elif address == R.COMMAND:
            regs[R.COMMAND] = value & 0x30
            self._start_command(value & 0x0F)
        elif address == R.CONTROL:
            if value & R.T_STOP_NOW:
                self._stop_timer()
            if value & R.T_START_NOW:
                self._start_timer(self.clock.now())
        elif address == R.BIT_FRAMING:
            regs[address] = value
            if value & R.START_SEND and self._command == R.CMD_TRANSCEIVE:
                self._transmit()
        elif address == R.TX_CONTROL:
            was_on = self.antenna_on
            regs[address] = value
            if was_on != self.antenna_on and self.card is not None:
                self.card.power_up()  # the card loses (or gets) its power with the field
        elif address in (R.ERROR, R.VERSION):
            pass  # read-only
        else:
            regs[address] = value

    # -- commands (datasheet 10.3) --

    def _start_command(self, command: int) -> None:
        self._op += 1
        if command == R.CMD_NO_CHANGE:
            return
        self._command = command
        if command == R.CMD_IDLE:
            return  # started by software: IdleIRq stays clear (9.3.1.5)
        if command == R.CMD_SOFT_RESET:
            card_fifo = self._mem_buffer
            self._hard_reset()
            self._mem_buffer = card_fifo  # the internal buffer survives a SoftReset
            return
        if command == R.CMD_CALC_CRC:
            preset = _CRC_PRESETS[self._regs[R.MODE] & 0x03]
            crc = R.crc_a(self._fifo, preset)
            self._fifo.clear()
            self._regs[R.CRC_RESULT_L], self._regs[R.CRC_RESULT_H] = crc[0], crc[1]
            self._regs[R.DIV_IRQ] |= R.DIV_IRQ_CRC
            return  # CalcCRC stays active until another command is written
        if command == R.CMD_MEM:
            if len(self._fifo) >= 25:
                self._mem_buffer = bytes(self._fifo[:25])
                del self._fifo[:25]
            elif not self._fifo:
                self._fifo += self._mem_buffer
            self._finish_command()
            return
        if command == R.CMD_TRANSCEIVE:
            return  # waits for StartSend
        if command == R.CMD_MF_AUTHENT:
            self._authenticate()
            return
        raise NotImplementedError(f"the simulated MFRC522 does not implement command 0x{command:02X}")

    def _finish_command(self) -> None:
        self._command = R.CMD_IDLE
        self._regs[R.COMM_IRQ] |= R.IRQ_IDLE

    def _at(self, when: float, callback: Callable[[float], None]) -> None:
        heapq.heappush(self._events, (when, next(self._seq), callback))

    def _catch_up(self) -> None:
        if not self._events:
            return  # nothing scheduled: no need to read the clock
        now = self.clock.now()
        while self._events and self._events[0][0] <= now:
            when, _, callback = heapq.heappop(self._events)
            callback(when)

    def _start_timer(self, when: float) -> None:
        regs = self._regs
        period = R.timer_seconds(regs[R.T_MODE], regs[R.T_PRESCALER], (regs[R.T_RELOAD_H] << 8) | regs[R.T_RELOAD_L],
                                 bool(regs[R.DEMOD] & 0x10))
        self._timer_token += 1
        token = self._timer_token
        self._timer_deadline = when + period

        def expire(_: float) -> None:
            if token == self._timer_token:
                self._regs[R.COMM_IRQ] |= R.IRQ_TIMER
                self._timer_deadline = None

        self._at(when + period, expire)

    def _stop_timer(self) -> None:
        self._timer_token += 1
        self._timer_deadline = None

    def _timer_counter(self) -> int:
        if self._timer_deadline is None:
            return 0
        regs = self._regs
        tick = R.timer_seconds(regs[R.T_MODE], regs[R.T_PRESCALER], 0, bool(regs[R.DEMOD] & 0x10))
        return max(0, min(0xFFFF, int((self._timer_deadline - self.clock.now()) / tick)))

    def _auto_timer(self, when: float) -> None:
        if self._regs[R.T_MODE] & R.T_AUTO:
            self._start_timer(when)  # TAuto: the timer starts at the end of every transmission

    def _card_in_field(self) -> SimCard | None:
        if (self.card is None and self.stray is None) or not self.antenna_on:
            return None
        gain = self.rx_gain_db
        card = self.card if self.card is not None and gain >= self.card_needs_db else None
        if card is None and self.stray is not None and gain >= self.stray_needs_db:
            card = self.stray
        if card is None:
            return None
        if self._drop_pattern:
            dropped = self._drop_pattern[self._drop_index % len(self._drop_pattern)]
            self._drop_index += 1
            if dropped:
                return None
        if self.drop_rate and self._rng.random() < self.drop_rate:
            return None
        return card

    def _transmit(self) -> None:
        regs = self._regs
        data = bytes(self._fifo)
        self._fifo.clear()
        tx_last = regs[R.BIT_FRAMING] & 0x07
        if regs[R.TX_MODE] & R.CRC_EN and not tx_last:
            data += R.crc_a(data, _CRC_PRESETS[regs[R.MODE] & 0x03])
        regs[R.ERROR] = 0
        op = self._op = self._op + 1
        tx_end = self.clock.now() + R.air_seconds(len(data), tx_last)

        def sent(when: float) -> None:
            if op != self._op:
                return  # aborted by a new command before it left the antenna
            self._regs[R.COMM_IRQ] |= R.IRQ_TX
            self._auto_timer(when)
            card = self._card_in_field()
            reply = card.receive(data, tx_last, self._crypto) if card is not None else None
            if reply is not None:
                self._answer(op, when, reply)

        self._at(tx_end, sent)

    def _answer(self, op: int, sent_at: float, reply: _Reply) -> None:
        start = sent_at + reply.delay
        end = start + R.air_seconds(len(reply.data), reply.last_bits)
        data, errors = bytearray(reply.data), 0
        if self._garble and self._garble_after:
            self._garble_after -= 1
        elif self._garble:
            self._garble -= 1
            data[len(data) // 2] ^= 0x10
            errors |= R.ERR_PARITY
        deadline = self._timer_deadline
        if deadline is not None and start + 5 * R.BIT_SECONDS < deadline:
            token = self._timer_token
            # The timer stops once the fifth bit of an answer has arrived (TModeReg TAuto, 9.3.3.10).
            self._at(start + 5 * R.BIT_SECONDS, lambda _: self._stop_timer() if token == self._timer_token else None)
        elif deadline is not None:
            return  # the answer comes after the timer ran out; the receiver has given up

        def received(_: float) -> None:
            if op != self._op:
                return
            rx_mode = self._regs[R.RX_MODE]
            body = bytes(data)
            if rx_mode & R.CRC_EN and len(body) >= 2:
                if R.crc_a(body[:-2], _CRC_PRESETS[self._regs[R.MODE] & 0x03]) != body[-2:]:
                    self._regs[R.ERROR] |= R.ERR_CRC
                body = body[:-2]
            for byte in body:
                self._write(R.FIFO_DATA, byte)
            self._regs[R.CONTROL] = (self._regs[R.CONTROL] & ~0x07) | reply.last_bits
            self._regs[R.ERROR] |= errors
            self._regs[R.COMM_IRQ] |= R.IRQ_RX | (R.IRQ_ERR if self._regs[R.ERROR] & 0x1F else 0)

        self._at(end, received)

    def _authenticate(self) -> None:
        payload = bytes(self._fifo)
        self._fifo.clear()
        self._regs[R.ERROR] = 0
        if len(payload) < 12 or payload[0] not in (R.MF_AUTH_KEY_A, R.MF_AUTH_KEY_B):
            self._regs[R.ERROR] |= R.ERR_PROTOCOL
            self._regs[R.COMM_IRQ] |= R.IRQ_ERR
            return
        op = self._op
        first_end = self.clock.now() + R.air_seconds(4)  # auth command, block, CRC

        def asked(when: float) -> None:
            if op != self._op:
                return
            self._auto_timer(when)
            card = self._card_in_field()
            if card is None:
                return
            outcome = card.authenticate(payload[0], payload[1], payload[2:8], payload[8:12])
            if outcome is None:
                return
            # The card's nonce, then the reader's encrypted answer, then (if the key fits) the card's.
            second_end = when + R.FDT_SECONDS + R.air_seconds(4) + R.FDT_SECONDS + R.air_seconds(8)
            self._at(second_end, lambda t: self._auto_timer(t) if op == self._op else None)
            if outcome:
                self._at(second_end + R.FDT_SECONDS + R.air_seconds(4), done)

        def done(_: float) -> None:
            if op != self._op:
                return
            self._stop_timer()
            self._crypto = True
            self._finish_command()

        self._at(first_end, asked)


# --- Fake modules --------------------------------------------------------------------------------


class FakeSpiDev:
    """Stands in for ``spidev.SpiDev``: routes transfers to the rig's simulated chip and counts them."""

    def __init__(self, rig: SimRig, bus: int | None = None, device: int | None = None) -> None:
        self._rig = rig
        self._chip: SimMfrc522 | None = None
        self.mode = 0
        self.bits_per_word = 8
        self.max_speed_hz = 125_000_000
        self.transfers = 0
        if bus is not None and device is not None:
            self.open(bus, device)

    def open(self, bus: int, device: int) -> None:
        """Open /dev/spidev<bus>.<device>; a chip select the rig does not have raises FileNotFoundError."""
        if (bus, device) not in self._rig.selects:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", f"/dev/spidev{bus}.{device}")
        self._chip = self._rig.chip(bus, device)

    def xfer2(self, values: Sequence[int], speed_hz: int = 0, delay_usecs: int = 0,
              bits_per_word: int = 0) -> list[int]:
        """Full-duplex transfer with chip select held for the whole list."""
        if self._chip is None:
            raise OSError(errno.EBADF, "Bad file descriptor")
        self.transfers += 1
        rig = self._rig
        if rig.strays:
            rig.settle(self._chip)
        out = self._chip.transfer(list(values), speed_hz or self.max_speed_hz)
        return rig.miso_fight(self._chip, out) if rig.miso_sharers else out

    xfer = xfer2

    def writebytes(self, values: Sequence[int]) -> None:
        """Write-only transfer."""
        self.xfer2(values)

    def close(self) -> None:
        """Close the device node."""
        self._chip = None


class FakeGPIO(types.ModuleType):
    """Stands in for ``RPi.GPIO``: numbering mode, pins, outputs, and every cleanup call, recorded."""

    BCM = 11
    BOARD = 10
    OUT = 0
    IN = 1
    HIGH = 1
    LOW = 0
    PUD_OFF = 20
    PUD_DOWN = 21
    PUD_UP = 22
    RPI_INFO: ClassVar[dict[str, object]] = {"P1_REVISION": 3, "TYPE": "Simulated"}

    def __init__(self, rig: SimRig) -> None:
        super().__init__("RPi.GPIO", "Simulated RPi.GPIO")
        self._rig = rig
        self.mode: int | None = None
        self.pins: dict[int, tuple[int, int]] = {}  # BCM pin -> (direction, level)
        self.cleanups: list[tuple[int, ...] | None] = []
        self.history: list[tuple[str, int, int]] = []  # (call, BCM pin, value)
        self.warnings = True

    def setmode(self, mode: int) -> None:
        """Choose BCM or BOARD numbering; changing it once chosen raises, as RPi.GPIO does."""
        if mode not in (self.BCM, self.BOARD):
            raise ValueError("An invalid mode was passed to setmode()")
        if self.mode is not None and self.mode != mode:
            raise ValueError("A different mode has already been set!")
        self.mode = mode

    def getmode(self) -> int | None:
        """The numbering mode, or None before setmode()."""
        return self.mode

    def setwarnings(self, flag: bool) -> None:
        """Turn warnings on or off."""
        self.warnings = bool(flag)

    @staticmethod
    def _channels(channel: int | Sequence[int]) -> list[int]:
        return list(channel) if isinstance(channel, (list, tuple)) else [channel]  # type: ignore[list-item]

    def _bcm(self, channel: int) -> int:
        if self.mode is None:
            raise RuntimeError("Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or GPIO.setmode(GPIO.BCM)")
        if self.mode == self.BOARD:
            if channel not in BOARD_TO_BCM:
                raise ValueError("The channel sent is invalid on a Raspberry Pi")
            return BOARD_TO_BCM[channel]
        if not 0 <= channel <= 27:
            raise ValueError("The channel sent is invalid on a Raspberry Pi")
        return channel

    def setup(self, channel: int | Sequence[int], direction: int, pull_up_down: int = 20, initial: int = -1) -> None:
        """Make a pin an input or an output; an output keeps its latched level unless ``initial`` is given."""
        for one in self._channels(channel):
            pin = self._bcm(one)
            previous = self.pins.get(pin, (self.IN, 0))
            level = previous[1] if initial == -1 else int(bool(initial))
            self.pins[pin] = (direction, level)
            self.history.append(("setup", pin, direction))
            if direction == self.OUT:
                self._rig.drive(pin, level)

    def output(self, channel: int | Sequence[int], value: int | bool) -> None:
        """Drive an output pin."""
        for one in self._channels(channel):
            pin = self._bcm(one)
            if self.pins.get(pin, (self.IN, 0))[0] != self.OUT:
                raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
            self.pins[pin] = (self.OUT, int(bool(value)))
            self.history.append(("output", pin, int(bool(value))))
            self._rig.drive(pin, int(bool(value)))

    def input(self, channel: int) -> int:
        """Read a pin's level."""
        pin = self._bcm(channel)
        if pin not in self.pins:
            raise RuntimeError("You must setup() the GPIO channel first")
        return self.pins[pin][1]

    def cleanup(self, channel: int | Sequence[int] | None = None) -> None:
        """Release pins: all of them (and the numbering mode) without an argument, else only those named."""
        if channel is None:
            self.cleanups.append(None)
            released = list(self.pins)
            self.pins.clear()
            self.mode = None
        else:
            released = [self._bcm(c) for c in self._channels(channel)]
            self.cleanups.append(tuple(released))
            for pin in released:
                self.pins.pop(pin, None)
        for pin in released:
            self.history.append(("cleanup", pin, 0))
            self._rig.release(pin)


# --- The rig -------------------------------------------------------------------------------------


class SimRig:
    """A simulated Pi with its SPI buses: the chips, one clock, and the fake modules the library sees."""

    _count = itertools.count()

    def __init__(self, selects: Sequence[tuple[int, int]] = DEFAULT_SELECTS, follow_wall: bool = False) -> None:
        self.selects = tuple(selects)
        self.serial = next(self._count)  # tells rigs apart for the lifetime of the process
        self.clock = SimClock(follow_wall)
        self.chips: dict[tuple[int, int], SimMfrc522] = {}
        self.gpio = FakeGPIO(self)
        self.rpi = types.ModuleType("RPi")
        self.rpi.GPIO = self.gpio  # type: ignore[attr-defined]
        self.spidev = types.ModuleType("spidev")
        self.spidev.SpiDev = lambda bus=None, device=None: FakeSpiDev(self, bus, device)  # type: ignore[attr-defined]
        self._stock: types.ModuleType | None = None
        self._lock = threading.Lock()
        # Set once a card reaches two antennas, or a board drives MISO: only then does a transfer need the others.
        self.strays = False
        self.miso_sharers = False

    def chip(self, bus: int, device: int, *, rst_pin: int | None = None) -> SimMfrc522:
        """The chip on SPI<bus>.<device>, made on first use (``rst_pin``: the BCM pin wired to its NRSTPD)."""
        with self._lock:
            chip = self.chips.get((bus, device))
            if chip is None:
                chip = self.chips[(bus, device)] = SimMfrc522(self.clock, bus, device, rst_pin)
                chip.rig = self
            elif rst_pin is not None and chip.rst_pin != rst_pin:
                chip.rst_pin = rst_pin  # the table file opening it says how it is wired
            else:
                return chip
        if rst_pin is not None:
            # From now on the chip follows its reset line, which may sit low since boot.
            chip.set_reset_line(bool(self.line_level(rst_pin)))
        return chip

    def settle(self, selected: SimMfrc522) -> None:
        """Let every other chip finish what its clock says is done, so a card in two fields sees events in order."""
        for chip in list(self.chips.values()):
            if chip is not selected and chip.pending:
                chip.catch_up()

    def line_level(self, pin: int) -> int:
        """The level of a GPIO line now: what a process drives, else where it sits since boot."""
        direction, level = self.gpio.pins.get(pin, (self.gpio.IN, boot_level(pin)))
        return level if direction == self.gpio.OUT else boot_level(pin)

    def miso_fight(self, selected: SimMfrc522, out: list[int]) -> list[int]:
        """What the host reads when a deselected board on the same bus keeps driving MISO.

        Such a board holds the line at the level of the last bit it shifted out, and wins: the selected
        chip's answer reads as all zeros or all ones.
        """
        with self._lock:
            culprits = [chip for (bus, _), chip in self.chips.items()
                        if bus == selected.bus and chip is not selected and chip.shares_miso and chip.powered]
        selected.miso_level = out[-1] & 0x01 if out else selected.miso_level
        if not culprits:
            return out
        level = 0xFF if culprits[-1].miso_level else 0x00
        return [out[0], *([level] * (len(out) - 1))] if out else out

    def drive(self, pin: int, level: int) -> None:
        """A GPIO output changed: chips whose reset line it is follow it."""
        for chip in list(self.chips.values()):
            if chip.rst_pin == pin:
                chip.set_reset_line(bool(level))

    def release(self, pin: int) -> None:
        """A GPIO pin was released: the line falls back to its boot level (a reset line on GPIO 9-27: low)."""
        self.drive(pin, boot_level(pin))

    @contextmanager
    def installed(self) -> Iterator[None]:
        """Put this rig's fake ``spidev`` and ``RPi.GPIO`` into ``sys.modules`` for the block, then restore."""
        names = ("spidev", "RPi", "RPi.GPIO")
        saved = {name: sys.modules.get(name) for name in names}
        sys.modules.update({"spidev": self.spidev, "RPi": self.rpi, "RPi.GPIO": self.gpio})
        try:
            yield
        finally:
            for name, module in saved.items():
                if module is None:
                    sys.modules.pop(name, None)
                else:
                    sys.modules[name] = module

    def stock(self) -> types.ModuleType:
        """This rig's private copy of the ``mfrc522`` package, its ``spidev`` and ``GPIO`` bound to the fakes."""
        with self._lock:
            if self._stock is None:
                self._stock = _load_private_mfrc522(self, f"_touchline_sim_mfrc522_{self.serial}")
            return self._stock


def _load_private_mfrc522(rig: SimRig, alias: str) -> types.ModuleType:
    spec = importlib.util.find_spec("mfrc522")
    if spec is None or spec.origin is None:
        raise ImportError("the mfrc522 package is not installed: run `make venv` (scripts/bootstrap.sh installs it)")
    package_dir = Path(spec.origin).parent
    private = importlib.util.spec_from_file_location(alias, package_dir / "__init__.py",
                                                     submodule_search_locations=[str(package_dir)])
    assert private is not None and private.loader is not None
    module = importlib.util.module_from_spec(private)
    with rig.installed():
        sys.modules[alias] = module
        try:
            private.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(alias, None)
            raise
    return module


def sim_card(uid: str, kind: str | None = None) -> SimCard:
    """A card from its printed UID (``04-A3-1F-2B-3C-4D-80`` or ``04A31F…``): 4 bytes a Classic 1K, 7 an NTAG213."""
    try:
        raw = bytes.fromhex(uid.replace("-", "").replace(":", "").replace(" ", ""))
    except ValueError:
        raise ValueError(f"{uid!r} is not a UID: give hex bytes such as 04-A3-1F-2B-3C-4D-80") from None
    return SimCard(raw, kind or ("ntag213" if len(raw) == 7 else "classic1k"))


_default_rig: SimRig | None = None
_default_lock = threading.Lock()


def default_rig() -> SimRig:
    """The process-wide simulated rig used when no rig is given (``TOUCHLINE_BACKEND=sim``)."""
    global _default_rig
    with _default_lock:
        if _default_rig is None:
            _default_rig = SimRig()
        return _default_rig


def stock_reader(rig: SimRig, bus: int = 0, device: int = 0, **kwargs: Any) -> Any:
    """The stock ``mfrc522.MFRC522`` opened on the rig (for showing its defects side by side with ours)."""
    return rig.stock().MFRC522(bus=bus, device=device, **kwargs)


def stock_simple(rig: SimRig, bus: int = 0, device: int = 0, **kwargs: Any) -> Any:
    """The stock ``mfrc522.SimpleMFRC522`` (its ``read_id_no_block``) over the chip on SPI<bus>.<device>."""
    simple = rig.stock().SimpleMFRC522.__new__(rig.stock().SimpleMFRC522)
    simple.READER = stock_reader(rig, bus, device, **kwargs)
    return simple
