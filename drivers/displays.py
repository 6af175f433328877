"""Seat screens: SSD1306 / SH1106 128x64 OLED panels through luma.oled, over I2C (optionally behind a
TCA9548A multiplexer) or SPI.

Simulation.  luma's own ``dummy`` device only keeps the PIL image handed to it, so nothing of the panel
driver would run.  The simulated backend goes one level lower and simulates the *chips*: an I2C bus with
a TCA9548A, and panels whose display RAM is filled by the bytes luma's real ``ssd1306``/``sh1106``
classes send (init sequence, addressing modes, the SH1106's 132-column RAM, rotation).  What ``dummy``
offers is kept: :meth:`Display.frame` is the last frame as a PIL image a test can read (decoded from
what the panel would light), and :meth:`Display.png` the same for the web page.  A forgotten channel
select shows up as a frame on the wrong panel; so does a channel left open on a second TCA9548A of the
same bus, which the driver therefore closes before selecting its own.

Wire time.  A frame is 1,024 bytes: about 93 ms on an I2C bus at the default 100 kHz, 23 ms at the 400 kHz the
installer sets, and a table redraws several screens for one tap.  So :meth:`Display.show` sends only the 128-byte
pages (8 rows of pixels) that differ from what the panel already holds, and of each only the runs of columns that
changed, each in a column window of its own (a gap of unchanged columns shorter than a new window's commands is
sent over); on an SSD1306 a window spans several pages when that costs fewer bytes, so a large digit goes in one.
luma.oled's ``ssd1306.display`` always sends the whole frame, so the windows are set here through luma's device.  The simulated I2C bus charges every byte its time on the wire (9 clocks: 8 bits and the
acknowledge), counted in ``SimulatedI2C.wire`` and waited out once a frame is sent when the simulation is given a
``sleep`` (as the simulated MFRC522 charges its air time).  It carries the transactions a Pi's smbus2 sends:
commands as SMBus block writes, display RAM in one I2C_RDWR write per run.

A panel that stops answering is reported as a ``HealthReading`` and retried by the driver itself: on the
next :meth:`Display.show` once ``retry_interval`` has passed, and by a timer every ``retry_interval``
seconds while it stays offline, so a screen whose frame does not change comes back too, showing the
frame it missed.  One panel failing never stops the others.  ``persist`` is set on every luma device,
so a restart of the service does not blank the table.
"""

from __future__ import annotations

import ctypes
import errno
import io
import logging
import os
import re
import threading
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from PIL import Image

from drivers.base import HealthReading, default_backend
from drivers.errors import DriverConfigError

log = logging.getLogger(__name__)

WIDTH, HEIGHT = 128, 64
PAGES = HEIGHT // 8
KINDS = ("ssd1306", "sh1106")
INTERFACES = ("i2c", "spi")
RETRY_INTERVAL = 5.0  # a panel with a loose wire is tried again at most this often
I2C_SPEED_HZ = 400_000  # what systemd/install.sh sets (dtparam=i2c_arm_baudrate); the Pi's default is 100 kHz
PAGE_BYTES = WIDTH  # one page: 8 rows of pixels, a byte per column
# Bit-reversed bytes: PIL packs a row's leftmost pixel in the high bit, a panel's page byte has its top row low.
_REVERSED = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))

BAD_KIND = "The display {name!r} is a {kind!r}; Touchline drives 'ssd1306' and 'sh1106' panels."
BAD_INTERFACE = "The display {name!r} is wired over {interface!r}; use 'i2c' or 'spi'."
BAD_ADDRESS = "The display {name!r} has I2C address {address!r}; OLED panels use 0x3C or 0x3D."
BAD_CHANNEL = "The display {name!r} sits on multiplexer channel {channel!r}; a TCA9548A has channels 0-7."
MUX_HALF_GIVEN = "The display {name!r} names a multiplexer address or channel but not both: give both."
BAD_FRAME_SIZE = "A frame for {name!r} is {w}x{h} pixels; the panel shows {size}."
BAD_ROTATE = "The display {name!r} has rotate={rotate!r}; use 0, 1, 2 or 3 quarter turns clockwise."
NOT_AN_IMAGE = "A frame for {name!r} must be a PIL image, not a {got}."
BAD_RETRY = "The display {name!r} has retry_interval={interval!r}; give a number of seconds above 0."
BAD_BUS_NUMBER = "The display {name!r} is on {interface} bus {bus!r}; give a bus number from 0 (e.g. 1 for I2C1)."
BAD_SPI_DEVICE = "The display {name!r} is on SPI chip select {device!r}; use 0, 1 or 2."
BAD_GPIO = "The display {name!r} has {role} on GPIO {pin!r}; give a BCM GPIO number from 0 to 27."
BAD_MUX_ADDRESS = "The display {name!r} names multiplexer address {address!r}; a TCA9548A sits at 0x70-0x77."
PANEL_ONLINE = "{kind} answers {where}"
PANEL_OFFLINE = "{kind} does not answer {where} ({reason}); retrying every {every:.0f} s"


def _where(interface: str, bus: int, address: int, mux_address: int | None, mux_channel: int | None,
           spi_device: int) -> str:
    if interface == "spi":
        return f"on SPI{bus}.{spi_device}"
    place = f"at 0x{address:02X} on I2C bus {bus}"
    if mux_address is not None:
        place += f" behind TCA9548A 0x{mux_address:02X} channel {mux_channel}"
    return place


# -- simulated chips ---------------------------------------------------------------------------

# Commands of the SSD1306 (datasheet section 9, "Command table") that carry argument bytes.
_SSD1306_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1,
                 0xA3: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
# The SH1106 (datasheet section "Commands") knows fewer; 0x20 and 0x8D mean nothing to it.
_SH1106_ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
_SH1106_RAM_WIDTH = 132  # 132 columns of RAM, of which a 128-pixel panel shows columns 2..129
_SH1106_VISIBLE_OFFSET = 2


class SimulatedPanel:
    """An SSD1306 or SH1106 controller at register level: commands, addressing and display RAM."""

    def __init__(self, kind: str = "ssd1306", address: int = 0x3C) -> None:
        if kind not in KINDS:
            raise DriverConfigError(BAD_KIND.format(name="simulated", kind=kind))
        self.kind = kind
        self.address = address
        self.answering = True
        self.display_on = False
        self.frames = 0  # how many full frames of data arrived, for tests
        self.wrote = 0  # display RAM bytes written, for tests
        ram_width = WIDTH if kind == "ssd1306" else _SH1106_RAM_WIDTH
        self._ram_width = ram_width
        self.ram = bytearray(ram_width * PAGES)
        self._args = _SSD1306_ARGS if kind == "ssd1306" else _SH1106_ARGS
        self._pending: list[int] = []  # a command waiting for its argument bytes
        self._memory_mode = 2  # page addressing after reset (SSD1306 datasheet 10.1.3)
        self._col, self._page = 0, 0
        self._col_window = (0, ram_width - 1)
        self._page_window = (0, PAGES - 1)
        self._data_bytes = 0

    def fail(self) -> None:
        """Stop answering on the bus, like a panel with a loose wire."""
        self.answering = False

    def repair(self) -> None:
        """Answer again."""
        self.answering = True

    def image(self) -> Image.Image:
        """What the panel lights right now, as a 128x64 1-bit image (black while switched off)."""
        img = Image.new("1", (WIDTH, HEIGHT), 0)
        if not self.display_on:
            return img
        offset = 0 if self.kind == "ssd1306" else _SH1106_VISIBLE_OFFSET
        pixels = img.load()
        assert pixels is not None
        for page in range(PAGES):
            row = page * self._ram_width
            for x in range(WIDTH):
                byte = self.ram[row + x + offset]
                for bit in range(8):
                    if byte >> bit & 1:
                        pixels[x, page * 8 + bit] = 1
        return img

    def command(self, data: list[int]) -> None:
        """Feed command bytes (the D/C line low, or I2C control byte 0x00)."""
        for byte in data:
            if self._pending:
                self._pending.append(byte)
                if len(self._pending) - 1 == self._args[self._pending[0]]:
                    self._apply(self._pending[0], self._pending[1:])
                    self._pending = []
            elif byte in self._args:
                self._pending = [byte]
            else:
                self._apply(byte, [])

    def data(self, data: list[int]) -> None:
        """Feed display RAM bytes (the D/C line high, or I2C control byte 0x40)."""
        at, count = 0, len(data)
        while at < count:
            if self._memory_mode == 0 and self._col_window[0] <= self._col <= self._col_window[1]:
                # Horizontal addressing: the bytes up to the window's last column land side by side on one page.
                take = min(count - at, self._col_window[1] - self._col + 1)
                start = self._page * self._ram_width + self._col
                self.ram[start:start + take] = bytes(data[at:at + take])
                self._col += take - 1
                at += take
            else:
                if self._col < self._ram_width:  # past the last column of RAM a byte lands nowhere
                    self.ram[self._page * self._ram_width + self._col] = data[at]
                at += 1
            self._advance()
        self._data_bytes += len(data)
        self.wrote += len(data)
        if self._data_bytes >= WIDTH * PAGES:
            self.frames += self._data_bytes // (WIDTH * PAGES)
            self._data_bytes %= WIDTH * PAGES

    def _advance(self) -> None:
        # SSD1306 datasheet 10.1.3: after each byte the pointer moves on inside the column and page windows that
        # COLUMNADDR (0x21) and PAGEADDR (0x22) set, and wraps to the windows' start after their end.
        if self._memory_mode == 0:  # horizontal: along the page, then to the next page
            self._col, self._page = _step(self._col, self._col_window, self._page, self._page_window)
        elif self._memory_mode == 1:  # vertical: down the pages, then to the next column
            self._page, self._col = _step(self._page, self._page_window, self._col, self._col_window)
        elif self._col < self._ram_width - 1:  # page addressing: stay on the page
            self._col += 1

    def _apply(self, cmd: int, args: list[int]) -> None:
        if cmd == 0xAE:
            self.display_on = False
        elif cmd == 0xAF:
            self.display_on = True
        elif self.kind == "ssd1306" and cmd == 0x20:
            self._memory_mode = args[0] & 0x03
        elif self.kind == "ssd1306" and cmd == 0x21:
            self._col_window = (args[0] & 0x7F, args[1] & 0x7F)
            self._col = self._col_window[0]
        elif self.kind == "ssd1306" and cmd == 0x22:
            self._page_window = (args[0] & 0x07, args[1] & 0x07)
            self._page = self._page_window[0]
        elif 0xB0 <= cmd <= 0xB7:
            self._page = cmd & 0x07
        elif cmd <= 0x0F:
            # Each nibble of the column address is set alone: the value between the two writes means nothing yet.
            self._col = (self._col & 0xF0) | cmd
        elif 0x10 <= cmd <= 0x1F:
            self._col = (self._col & 0x0F) | (cmd & 0x0F) << 4
        # Contrast, multiplex, clocks, remap...: accepted; the picture does not depend on them here.


def _step(inner: int, inner_window: tuple[int, int], outer: int, outer_window: tuple[int, int]) -> tuple[int, int]:
    """The pointer after one byte: the inner address moves on; past its window's end it starts the window again
    and the outer address moves on, back to its window's start after its end."""
    if inner < inner_window[1]:
        return inner + 1, outer
    return inner_window[0], outer + 1 if outer < outer_window[1] else outer_window[0]


class SimulatedMux:
    """A TCA9548A I2C multiplexer: one control register whose bits connect channels 0-7."""

    def __init__(self, address: int = 0x70) -> None:
        self.address = address
        self.mask = 0
        self.selects: list[int] = []  # every control byte written, for tests

    def write(self, value: int) -> None:
        """Write the control register."""
        self.mask = value & 0xFF
        self.selects.append(self.mask)


class WireTime:
    """What the simulated I2C buses carried: bytes, and the seconds they took at ``speed_hz``."""

    def __init__(self, speed_hz: int = I2C_SPEED_HZ, sleep: Callable[[float], None] | None = None) -> None:
        self.speed_hz = speed_hz
        self.sleep = sleep
        """Called with each transfer's seconds (``time.sleep`` for a table timed in real time), or None."""
        self.seconds = 0.0
        self.bytes = 0
        self._owed = 0.0
        self._lock = threading.Lock()

    def charge(self, nbytes: int) -> None:
        """One transfer of ``nbytes`` (address byte included): 9 clocks a byte, plus start and stop."""
        seconds = (9 * nbytes + 2) / self.speed_hz
        with self._lock:
            self.seconds += seconds
            self.bytes += nbytes
            self._owed += seconds

    def settle(self) -> None:
        """Wait out the wire time of the transfers since the last call (one sleep for a frame, not one a transfer)."""
        with self._lock:
            owed, self._owed = self._owed, 0.0
        if self.sleep is not None and owed > 0:
            self.sleep(owed)


@dataclass
class SimulatedI2CBus:
    """An I2C bus with an smbus2-like interface, carrying panels directly and behind multiplexers."""

    number: int
    panels: dict[tuple[int | None, int | None, int], SimulatedPanel] = field(default_factory=dict)
    muxes: dict[int, SimulatedMux] = field(default_factory=dict)
    wire: WireTime = field(default_factory=WireTime)

    def _targets(self, address: int) -> list[SimulatedPanel]:
        found = []
        for (mux_address, channel, panel_address), panel in self.panels.items():
            if panel_address != address or not panel.answering:
                continue
            if mux_address is None or (channel is not None and self.muxes[mux_address].mask >> channel & 1):
                found.append(panel)
        return found

    def _nack(self, address: int) -> OSError:
        # What the kernel's i2c-dev returns when nobody acknowledges the address.
        return OSError(errno.EREMOTEIO, f"Remote I/O error (no answer at 0x{address:02X})")

    def write_byte(self, address: int, value: int) -> None:
        """Write one byte: to a multiplexer's control register, or a bare byte to a panel."""
        self.wire.charge(2)
        if address in self.muxes:
            self.muxes[address].write(value)
        elif not self._targets(address):
            raise self._nack(address)

    def write_quick(self, address: int) -> None:
        """Address a device without data, as ``i2cdetect`` does."""
        self.wire.charge(1)
        if address not in self.muxes and not self._targets(address):
            raise self._nack(address)

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        """Write a control byte and data: 0x00 for commands, 0x40 for display RAM (SSD1306 section 8.1.5)."""
        self.wire.charge(2 + len(data))
        self._deliver(address, register, list(data))

    def i2c_rdwr(self, *messages: Any) -> None:
        """Run smbus2 ``i2c_msg.write`` messages, as the kernel's I2C_RDWR does: each is the address byte and its
        bytes, the first of which is the panel's control byte (however long the rest: no 32-byte SMBus blocks)."""
        for message in messages:
            data = list(ctypes.string_at(message.buf, message.len))  # at once: iterating an i2c_msg goes byte by byte
            self.wire.charge(1 + len(data))
            self._deliver(message.addr, data[0], data[1:])

    def _deliver(self, address: int, control: int, data: list[int]) -> None:
        targets = self._targets(address)
        if not targets:
            raise self._nack(address)
        for panel in targets:  # two panels with one address on open channels both listen
            (panel.data if control & 0x40 else panel.command)(data)

    def close(self) -> None:
        """Nothing to release; present for smbus compatibility."""


class _SimulatedSpi:
    """An spidev-compatible SPI device delivering bytes to a panel as commands or data per its D/C line."""

    def __init__(self, panel: SimulatedPanel, gpio: _SimulatedGpio) -> None:
        self._panel, self._gpio = panel, gpio
        self.max_speed_hz = 0
        self.mode = 0

    def open(self, port: int, device: int) -> None:
        """Open the device (nothing to do in simulation)."""

    def writebytes(self, data: list[int]) -> None:
        """Clock bytes out to the panel."""
        if not self._panel.answering:
            return  # SPI has no acknowledge: a dead panel simply shows nothing
        (self._panel.data if self._gpio.dc_high else self._panel.command)(list(data))

    def close(self) -> None:
        """Close the device (nothing to do in simulation)."""


class _SimulatedGpio:
    """The few RPi.GPIO calls luma's SPI interface makes, tracking the D/C line."""

    LOW, HIGH, OUT, BCM = 0, 1, 0, 11

    def __init__(self, dc_pin: int) -> None:
        self._dc_pin = dc_pin
        self.dc_high = False

    def setup(self, pin: int, direction: int) -> None:
        """Configure a pin (nothing to do in simulation)."""

    def output(self, pin: int, value: int) -> None:
        """Drive a pin; only D/C matters to the panel."""
        if pin == self._dc_pin:
            self.dc_high = bool(value)

    def cleanup(self, pins: list[int] | None = None) -> None:
        """Release pins (nothing to do in simulation)."""


class SimulatedI2C:
    """The simulated table's displays: I2C buses with multiplexers and panels, and SPI panels."""

    def __init__(self, populate: bool = True, speed_hz: int = I2C_SPEED_HZ,
                 sleep: Callable[[float], None] | None = None) -> None:
        # With ``populate``, opening a display puts a panel where the table file says one is.
        self.populate = populate
        self.wire = WireTime(speed_hz, sleep)
        """Every byte the simulated I2C buses carried and its time on the wire (one clock for all buses)."""
        self.buses: dict[int, SimulatedI2CBus] = {}
        self.spi_panels: dict[tuple[int, int], SimulatedPanel] = {}
        self.lock = threading.RLock()

    def bus(self, number: int) -> SimulatedI2CBus:
        """The simulated I2C bus ``number`` (created on first use)."""
        with self.lock:
            return self.buses.setdefault(number, SimulatedI2CBus(number, wire=self.wire))

    def add_mux(self, bus: int, address: int = 0x70) -> SimulatedMux:
        """Wire a TCA9548A to a bus."""
        with self.lock:
            return self.bus(bus).muxes.setdefault(address, SimulatedMux(address))

    def add_panel(self, bus: int, address: int = 0x3C, kind: str = "ssd1306",
                  mux_address: int | None = None, mux_channel: int | None = None) -> SimulatedPanel:
        """Wire a panel to a bus, directly or behind a multiplexer channel."""
        with self.lock:
            if mux_address is not None:
                self.add_mux(bus, mux_address)
            key = (mux_address, mux_channel, address)
            return self.bus(bus).panels.setdefault(key, SimulatedPanel(kind, address))

    def add_spi_panel(self, port: int, device: int, kind: str = "ssd1306") -> SimulatedPanel:
        """Wire a panel to an SPI chip select."""
        with self.lock:
            return self.spi_panels.setdefault((port, device), SimulatedPanel(kind))

    def panel(self, bus: int, address: int = 0x3C, mux_address: int | None = None,
              mux_channel: int | None = None) -> SimulatedPanel | None:
        """The panel wired at that place, if any."""
        return self.bus(bus).panels.get((mux_address, mux_channel, address))


SIMULATED_TABLE = SimulatedI2C()  # the displays of the simulated table when no other is given

_BUS_LOCKS: dict[tuple[int, int], threading.Lock] = {}
_BUS_LOCKS_GUARD = threading.Lock()


def _bus_lock(world: object, bus: int) -> threading.Lock:
    # Panels behind one multiplexer share it: select-then-draw must not interleave between threads.
    with _BUS_LOCKS_GUARD:
        return _BUS_LOCKS.setdefault((id(world), bus), threading.Lock())


@dataclass
class _Muxes:
    """What the displays of one I2C bus know about its multiplexers (read and changed under the bus lock)."""

    addresses: dict[int, set[int]] = field(default_factory=dict)  # multiplexer -> panel addresses behind it
    masks: dict[int, int | None] = field(default_factory=dict)  # multiplexer -> channels left open (None: unknown)


_MUXES: dict[tuple[int, int], _Muxes] = {}


def _muxes(world: object, bus: int) -> _Muxes:
    with _BUS_LOCKS_GUARD:
        return _MUXES.setdefault((id(world), bus), _Muxes())


# -- the driver ---------------------------------------------------------------------------------


class Display:
    """One seat screen: shows PIL frames, reports and retries when the panel stops answering."""

    def __init__(
        self,
        name: str,
        *,
        kind: Literal["ssd1306", "sh1106"] = "ssd1306",
        interface: Literal["i2c", "spi"] = "i2c",
        bus: int = 1,
        address: int = 0x3C,
        mux_address: int | None = None,
        mux_channel: int | None = None,
        spi_device: int = 0,
        dc_pin: int = 24,
        rst_pin: int = 25,
        rotate: int = 0,
        backend: str | None = None,
        on_health: Callable[[HealthReading], None] | None = None,
        retry_interval: float = RETRY_INTERVAL,
        auto_retry: bool = True,
        clock: Callable[[], float] = time.monotonic,
        simulation: SimulatedI2C | None = None,
    ) -> None:
        _check_config(name, kind, interface, address, mux_address, mux_channel)
        _check_wiring(name, interface, bus, spi_device, dc_pin, rst_pin)
        if rotate not in (0, 1, 2, 3):
            raise DriverConfigError(BAD_ROTATE.format(name=name, rotate=rotate))
        if isinstance(retry_interval, bool) or not isinstance(retry_interval, (int, float)) or retry_interval <= 0:
            raise DriverConfigError(BAD_RETRY.format(name=name, interval=retry_interval))
        self.name = name
        self.rotate = rotate
        # Frames are drawn the way the reader sees them: portrait when the panel is turned a quarter.
        self.size = (HEIGHT, WIDTH) if rotate % 2 else (WIDTH, HEIGHT)
        self.kind = kind
        self.interface = interface
        self.bus = bus
        self.address = address
        self.mux_address = mux_address
        self.mux_channel = mux_channel
        self.spi_device = spi_device
        self.dc_pin = dc_pin
        self.rst_pin = rst_pin
        self.backend = default_backend(backend)
        self.simulation = (simulation or SIMULATED_TABLE) if self.backend == "sim" else None
        self.where = _where(interface, bus, address, mux_address, mux_channel, spi_device)
        self._on_health = on_health
        self._retry_interval = retry_interval
        self._auto_retry = auto_retry
        self._timer: threading.Timer | None = None
        self._closed = False
        # One operation at a time on this display: the caller's show() and the retry timer's attempt.
        self._guard = threading.RLock()
        self._clock = clock
        self._device: Any = None
        self._smbus: Any = None
        self._online: bool | None = None
        self._last_attempt = float("-inf")
        self._pending: Image.Image | None = None
        self._shown: Image.Image | None = None
        self._pages: list[bytes] | None = None  # what the panel's RAM holds, page by page (None: not known)
        self.detail = ""
        self._lock = _bus_lock(self.simulation, bus)
        self._muxes = _muxes(self.simulation, bus)
        if interface == "i2c" and mux_address is not None:
            with self._lock:
                self._muxes.addresses.setdefault(mux_address, set()).add(address)
                self._muxes.masks.setdefault(mux_address, None)
        if self.simulation is not None and self.simulation.populate:
            self._populate(self.simulation)

    @property
    def online(self) -> bool:
        """True while the panel answers."""
        return bool(self._online)

    def open(self) -> bool:
        """Initialise the panel now; False (and a health reading) when it does not answer."""
        with self._guard:
            if not self._open():
                return False
            self._set_health(True, PANEL_ONLINE.format(kind=self.kind.upper(), where=self.where))
            return True

    def _open(self) -> bool:
        self._last_attempt = self._clock()
        try:
            with self._lock:
                self._select()
                if self.interface == "i2c":
                    # Knock first: a luma device registers an exit hook for life as it is made,
                    # so making one for every retry of an unplugged panel would pile them up.
                    self._i2c_bus().write_quick(self.address)
                self._device = self._make_device()
                # A restart of the service must not blank the table: no switch-off at exit.
                self._device.persist = True
                self._pages = [bytes(PAGE_BYTES)] * PAGES  # luma's set-up cleared the panel's RAM
                if self.simulation is not None:
                    self.simulation.wire.settle()
        except Exception as exc:  # luma raises its own errors, smbus2/spidev OSError: all mean "no panel"
            self._offline(exc)
            return False
        # Said online by the caller once it has drawn what the panel missed, so whoever hears "back" sees it.
        return True

    def show(self, image: Image.Image) -> bool:
        """Draw a 128x64 frame; False when the panel is offline (the frame is kept and shown once it is back)."""
        if not isinstance(image, Image.Image):
            raise DriverConfigError(NOT_AN_IMAGE.format(name=self.name, got=type(image).__name__))
        if image.size != self.size:
            raise DriverConfigError(BAD_FRAME_SIZE.format(
                name=self.name, w=image.width, h=image.height, size="x".join(map(str, self.size))))
        frame = image if image.mode == "1" else image.convert("L").point(lambda p: 255 if p >= 128 else 0, "1")
        with self._guard:
            self._pending = frame
            if self._device is None:
                if self._clock() - self._last_attempt < self._retry_interval or not self._open():
                    return False
            return self._draw(frame)

    def _draw(self, frame: Image.Image) -> bool:
        try:
            pages = _page_bytes(self._device.preprocess(frame))  # rotated as luma would
            held = self._pages or [b""] * PAGES
            windows = _windows(held, pages, self._window_cost, stack=self.kind == "ssd1306")
            if windows:
                with self._lock:
                    self._select()
                    previous = None
                    for window in windows:
                        self._send_window(window, pages, same_pages=previous is not None and previous[:2] == window[:2])
                        previous = window
                    self._pages = pages
                    if self.simulation is not None:
                        self.simulation.wire.settle()  # the frame is on the glass once its last byte is
        except Exception as exc:  # as in open(): any failure of the bus means the panel is gone
            self._offline(exc)
            return False
        self._shown, self._pending = frame, None
        self._set_health(True, PANEL_ONLINE.format(kind=self.kind.upper(), where=self.where))
        return True

    def retry(self) -> bool:
        """Try an offline panel again if its retry interval has passed, showing the frame it missed.

        With ``auto_retry`` (the default) a timer does this every ``retry_interval`` seconds while the panel
        is offline, so a screen whose frame does not change still comes back; calling it is never needed.
        """
        with self._guard:
            if self._device is not None or self._clock() - self._last_attempt < self._retry_interval:
                return self._device is not None
            return self._attempt()

    def _attempt(self) -> bool:
        if not self._open():
            return False
        if self._pending is not None:
            return self._draw(self._pending)
        self._set_health(True, PANEL_ONLINE.format(kind=self.kind.upper(), where=self.where))
        return True

    def _retry_due(self) -> None:
        # The retry timer fired: its interval has passed, whatever clock the caller gave.
        with self._guard:
            self._timer = None
            if self._closed or self._device is not None:
                return
            try:
                self._attempt()
            except Exception:  # a timer thread has nobody to raise to: report, and try again later
                log.exception("display %s: retrying failed", self.name)
                self._schedule_retry()

    def probe(self) -> tuple[bool, str]:
        """Check that the panel answers without drawing on it (for hw-check); return (found, sentence)."""
        if self.interface == "spi":
            return self._probe_spi()
        try:
            bus = self._i2c_bus()
        except OSError as exc:
            return False, f"I2C bus {self.bus} cannot be opened ({exc}): is I2C enabled (dtparam=i2c_arm=on)?"
        with self._lock:
            if self.interface == "i2c":
                try:
                    self._select()
                except OSError as exc:
                    return False, (f"TCA9548A multiplexer 0x{self.mux_address:02X} does not answer on "
                                   f"I2C bus {self.bus} ({exc})")
            try:
                bus.write_quick(self.address)
            except OSError as exc:
                return False, f"nothing answers {self.where} ({exc})"
        return True, f"a display answers {self.where}"

    def _probe_spi(self) -> tuple[bool, str]:
        # SPI has no acknowledge: only the device node (or the simulated panel) can be checked.
        if self.simulation is not None:
            if self.simulation.spi_panels.get((self.bus, self.spi_device)) is None:
                return False, f"no panel {self.where}"
            return True, f"a display is wired {self.where} (SPI cannot confirm it answers)"
        node = f"/dev/spidev{self.bus}.{self.spi_device}"
        if not os.path.exists(node):
            return False, f"{node} does not exist: is SPI enabled (dtparam=spi=on)?"
        return True, f"{node} is present (SPI cannot confirm a display answers)"

    def frame(self) -> Image.Image:
        """What the screen shows: the simulated panel's lit pixels, or the last frame sent to real hardware."""
        if self.simulation is not None:
            panel = self._simulated_panel()
            if panel is not None:
                # Undo luma's rotation: the page shows what a player facing the panel sees.
                return panel.image().rotate(90 * self.rotate, expand=True)
        return (self._shown or Image.new("1", self.size, 0)).copy()

    def png(self) -> bytes:
        """``frame()`` as PNG bytes, for the web page."""
        out = io.BytesIO()
        self.frame().save(out, format="PNG")
        return out.getvalue()

    def close(self) -> None:
        """Stop retrying and release the bus; the panel keeps showing its last frame."""
        with self._guard:
            self._closed = True
            timer, self._timer = self._timer, None
            if timer is not None:
                timer.cancel()
            self._release()

    def _release(self) -> None:
        device, self._device = self._device, None
        if device is not None:
            try:
                with self._lock:
                    self._select()
                    device.cleanup()
            except Exception:  # noqa: BLE001 - closing a panel that has gone away is not an error
                log.debug("display %s: cleanup failed", self.name, exc_info=True)
        if self._smbus is not None and self.simulation is None:
            self._smbus.close()
        self._smbus = None

    # -- internals ------------------------------------------------------------------------------

    def _populate(self, simulation: SimulatedI2C) -> None:
        if self.interface == "spi":
            simulation.add_spi_panel(self.bus, self.spi_device, self.kind)
        else:
            simulation.add_panel(self.bus, self.address, self.kind, self.mux_address, self.mux_channel)

    def _simulated_panel(self) -> SimulatedPanel | None:
        assert self.simulation is not None
        if self.interface == "spi":
            return self.simulation.spi_panels.get((self.bus, self.spi_device))
        return self.simulation.panel(self.bus, self.address, self.mux_address, self.mux_channel)

    def _i2c_bus(self) -> Any:
        if self._smbus is None:
            if self.simulation is not None:
                self._smbus = self.simulation.bus(self.bus)
            else:
                import smbus2  # only where real hardware opens

                self._smbus = smbus2.SMBus(self.bus)
        return self._smbus

    def _select(self) -> None:
        # Called with the bus lock held, before every exchange: another thread may have switched the
        # multiplexer to its own panel.  A channel left open on *another* multiplexer connects a panel
        # with our address too (TCA9548A channels stay open until changed), so those are closed first.
        if self.interface != "i2c":
            return
        bus = self._i2c_bus()
        for mux, addresses in self._muxes.addresses.items():
            if mux == self.mux_address or self.address not in addresses or self._muxes.masks.get(mux) == 0:
                continue
            try:
                bus.write_byte(mux, 0)
                self._muxes.masks[mux] = 0
            except OSError:  # that multiplexer is gone: its panels cannot answer either
                self._muxes.masks[mux] = None
                log.debug("display %s: closing multiplexer 0x%02X failed", self.name, mux, exc_info=True)
        if self.mux_address is not None and self.mux_channel is not None:
            self._muxes.masks[self.mux_address] = None  # unknown until the write below is acknowledged
            bus.write_byte(self.mux_address, 1 << self.mux_channel)
            self._muxes.masks[self.mux_address] = 1 << self.mux_channel

    def _send_window(self, window: tuple[int, int, int, int], pages: list[bytes], same_pages: bool = False) -> None:
        """Write one window (first and last page, first and last column) of the frame's pages, through luma's device;
        ``same_pages`` when the window sent just before spanned the same pages."""
        top, bottom, first, last = window
        device = self._device
        if self.kind == "sh1106":
            # Page addressing; the SH1106's 132-column RAM shows columns 2-129 (luma's page_address_offset).
            column = device._page_address_offset + first
            device.command(0xB0 | top, column & 0x0F, 0x10 | column >> 4)
        else:
            # Horizontal addressing (luma sets MEMORYMODE 0): the panel fills the window page by page.  A window
            # filled to its end leaves the page pointer at its first page (datasheet 10.1.3), so the next window
            # over the same pages needs only its columns.
            commands = [0x21, device._colstart + first, device._colstart + last]
            if not same_pages:
                commands += [0x22, top, bottom]
            device.command(*commands)
        device.data(list(b"".join(pages[page][first:last + 1] for page in range(top, bottom + 1))))

    @property
    def _window_cost(self) -> int:
        """Bytes on the wire that pointing the panel at another run of columns costs: its addressing commands, and
        on I2C the address and control bytes of the command's and the data's transactions."""
        commands = 3 if self.kind == "sh1106" else 6
        return commands + (4 if self.interface == "i2c" else 0)

    def _make_device(self) -> Any:
        from luma.core.interface.serial import i2c, spi
        from luma.oled.device import sh1106, ssd1306

        if self.interface == "spi":
            if self.simulation is not None:
                panel = self.simulation.spi_panels.get((self.bus, self.spi_device))
                if panel is None:
                    raise OSError(errno.ENOENT, f"no SPI device {self.bus}.{self.spi_device}")
                gpio = _SimulatedGpio(self.dc_pin)
                serial = spi(spi=_SimulatedSpi(panel, gpio), gpio=gpio, port=self.bus, device=self.spi_device,
                             gpio_DC=self.dc_pin, gpio_RST=self.rst_pin)
            else:
                serial = spi(port=self.bus, device=self.spi_device, gpio_DC=self.dc_pin, gpio_RST=self.rst_pin)
        elif self.simulation is not None:
            serial = i2c(bus=self.simulation.bus(self.bus), address=self.address)
            # luma sends display RAM to a bus it is handed in 32-byte SMBus blocks, but on the Pi it opens smbus2
            # itself and sends each run in one I2C_RDWR transaction: the simulated bus takes those, so it carries
            # (and charges the wire time of) the transactions a Pi sends.
            from smbus2 import i2c_msg

            serial._managed, serial._i2c_msg_write = True, i2c_msg.write
        else:
            serial = i2c(port=self.bus, address=self.address)
        model = ssd1306 if self.kind == "ssd1306" else sh1106
        return _share_tables(model(serial_interface=serial, width=WIDTH, height=HEIGHT, rotate=self.rotate))

    def _offline(self, exc: BaseException) -> None:
        device, self._device = self._device, None
        if device is not None:
            # The luma device lives on in its exit hook; at least give back its bus handle now,
            # since a panel that comes back gets a fresh device (and its init sequence).
            try:
                device._serial_interface.cleanup()
            except Exception:  # noqa: BLE001 - the bus may be as gone as the panel
                log.debug("display %s: releasing the bus failed", self.name, exc_info=True)
        reason = str(exc) or type(exc).__name__
        self._set_health(False, PANEL_OFFLINE.format(
            kind=self.kind.upper(), where=self.where, reason=reason, every=self._retry_interval))
        self._schedule_retry()

    def _schedule_retry(self) -> None:
        if not self._auto_retry or self._closed or self._timer is not None:
            return
        self._timer = threading.Timer(self._retry_interval, self._retry_due)
        self._timer.name = f"display-retry-{self.name}"
        self._timer.daemon = True
        self._timer.start()

    def _set_health(self, online: bool, detail: str) -> None:
        self.detail = detail
        if self._online == online:
            return
        self._online = online
        (log.info if online else log.warning)("display %s: %s", self.name, detail)
        if self._on_health is not None:
            self._on_health(HealthReading(self.name, online, detail))


_LUMA_TABLES: dict[tuple[str, int, int], array[int]] = {}
"""One compact copy of each of luma's per-panel lookup tables, by name and panel size."""
_LUMA_TABLE_TYPES = {"_mask": "B", "_offsets": "H"}  # bit masks 1-128; offsets into a frame of 1,024 bytes


def _share_tables(device: Any) -> Any:
    """Keep luma's two per-panel lookup tables of 8,192 numbers each (about 330 KB a panel as luma makes them) as
    one copy per panel size of the same numbers in arrays of bytes and 16-bit numbers (24 KB), shared by every
    panel of that size: a panel that comes back gets a new device while the old one lives on in luma's exit hook.
    luma's own ``display`` reads them as before; this driver sends its pages itself."""
    for name, kind in _LUMA_TABLE_TYPES.items():
        table = getattr(device, name, None)
        if not isinstance(table, list):
            continue
        key = (name, device.width, device.height)
        shared = _LUMA_TABLES.get(key)
        if shared is None:
            try:
                shared = _LUMA_TABLES[key] = array(kind, table)
            except (OverflowError, TypeError):  # numbers another luma release made that do not fit: keep its list
                continue
        if shared.tolist() == table:
            setattr(device, name, shared)
    return device


def _windows(held: list[bytes], pages: list[bytes], cost: int, stack: bool) -> list[tuple[int, int, int, int]]:
    """The windows (first page, last page, first column, last column) that carry every change of ``pages`` from
    ``held``: a window per run of changed columns of a page, or, with ``stack`` (a panel that takes a page window),
    a run joined to the window that ends on the page above when sending the unchanged columns that joining adds
    costs no more than the ``cost`` in bytes of a window of its own."""
    windows: list[tuple[int, int, int, int]] = []
    for page, (was, now) in enumerate(zip(held, pages)):
        if was == now:
            continue
        for first, last in _changed_runs(was, now, cost):
            for index, (top, bottom, left, right) in enumerate(windows):
                if not stack or bottom != page - 1:
                    continue
                low, high = min(left, first), max(right, last)
                if (page - top + 1) * (high - low + 1) <= (bottom - top + 1) * (right - left + 1) + last - first + 1 + cost:
                    windows[index] = (top, page, low, high)
                    break
            else:
                windows.append((page, page, first, last))
    return windows


_CHANGED = re.compile(rb"[^\x00]+")


def _changed_runs(held: bytes, data: bytes, gap: int) -> list[tuple[int, int]]:
    """The (first, last) columns of each run of ``data`` that differs from ``held``; runs apart by no more than
    ``gap`` unchanged columns are one run, since sending those columns again costs no more than a new window."""
    if len(held) != len(data):  # what the panel holds is not known: all of it
        return [(0, len(data) - 1)]
    # The bytes that differ are the non-zero bytes of the two pages XORed (found in C, not column by column).
    differ = (int.from_bytes(held, "big") ^ int.from_bytes(data, "big")).to_bytes(len(data), "big")
    runs: list[tuple[int, int]] = []
    for changed in _CHANGED.finditer(differ):
        first, last = changed.start(), changed.end() - 1
        if runs and first - runs[-1][1] - 1 <= gap:
            runs[-1] = (runs[-1][0], last)
        else:
            runs.append((first, last))
    return runs


def _page_bytes(image: Image.Image) -> list[bytes]:
    """A 128x64 1-bit image as the panel's eight pages: per page, a byte per column with the top row in bit 0."""
    # Transposed, each row of the image is one column of the panel: its 64 pixels packed in 8 bytes, one a page.
    columns = image.transpose(Image.Transpose.TRANSPOSE).tobytes().translate(_REVERSED)
    return [columns[page::PAGES] for page in range(PAGES)]


def _check_config(name: str, kind: str, interface: str, address: int, mux_address: int | None,
                  mux_channel: int | None) -> None:
    if kind not in KINDS:
        raise DriverConfigError(BAD_KIND.format(name=name, kind=kind))
    if interface not in INTERFACES:
        raise DriverConfigError(BAD_INTERFACE.format(name=name, interface=interface))
    if interface == "i2c" and address not in (0x3C, 0x3D):
        raise DriverConfigError(BAD_ADDRESS.format(name=name, address=address))
    if (mux_address is None) != (mux_channel is None):
        raise DriverConfigError(MUX_HALF_GIVEN.format(name=name))
    if mux_address is not None and (not _is_int(mux_address) or not 0x70 <= mux_address <= 0x77):
        raise DriverConfigError(BAD_MUX_ADDRESS.format(name=name, address=mux_address))
    if mux_channel is not None and (not _is_int(mux_channel) or not 0 <= mux_channel <= 7):
        raise DriverConfigError(BAD_CHANNEL.format(name=name, channel=mux_channel))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_wiring(name: str, interface: str, bus: int, spi_device: int, dc_pin: int, rst_pin: int) -> None:
    if not _is_int(bus) or bus < 0:
        raise DriverConfigError(BAD_BUS_NUMBER.format(name=name, interface=interface.upper(), bus=bus))
    if interface != "spi":
        return
    if not _is_int(spi_device) or not 0 <= spi_device <= 2:
        raise DriverConfigError(BAD_SPI_DEVICE.format(name=name, device=spi_device))
    for role, pin in (("D/C", dc_pin), ("RST", rst_pin)):
        if not _is_int(pin) or not 0 <= pin <= 27:
            raise DriverConfigError(BAD_GPIO.format(name=name, role=role, pin=pin))


def open_display(
    name: str,
    kind: Literal["ssd1306", "sh1106"] = "ssd1306",
    bus: int = 1,
    address: int = 0x3C,
    mux_address: int | None = None,
    mux_channel: int | None = None,
    interface: Literal["i2c", "spi"] = "i2c",
    backend: str | None = None,
    **options: Any,
) -> Display:
    """Open a seat screen and initialise it; a panel that does not answer is reported, retried, never raised."""
    display = Display(name, kind=kind, interface=interface, bus=bus, address=address,
                      mux_address=mux_address, mux_channel=mux_channel, backend=backend, **options)
    display.open()
    return display
