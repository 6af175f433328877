"""The table file: a TOML description of one physical table (seats, pads, buttons, screens, hubs).

``load_table(path)`` parses and validates it into frozen dataclasses.  Every problem found is reported at once,
each naming the line and the field and saying what to do, because an owner fixes wiring mistakes in one sitting.
The format is documented in README.md ("Table files") and by the examples in ``device/tables/``.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from device import errors
from device.errors import Problem, TableFileError
from drivers.rfid.registers import RX_GAIN_CHOICES, RX_GAIN_DEFAULT_DB

TABLES_DIR = Path(__file__).with_name("tables")
SIM_TABLE = TABLES_DIR / "sim.toml"

BACKENDS = ("real", "sim")
SEAT_PAD_ROLES = ("tap",)
SHARED_PAD_ROLES = ("opponent",)
SEAT_BUTTON_ROLES = ("roll", "cancel")
SHARED_BUTTON_ROLES = ("undo",)
SCREEN_KINDS = ("ssd1306", "sh1106")
SCREEN_INTERFACES = ("i2c", "spi")
BAUD_RATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
MAX_SEATS = 4
BCM_PINS = range(0, 28)  # the 40-pin header's GPIO 0-27 on every Pi from the 3 to the 5
DEFAULT_HOLD_SECONDS = 1.0
DEFAULT_PORT = 8000

# Header pins that a bus takes once something on it is used (BCM numbers), so a button cannot be wired there.
SPI_BUS_PINS = {
    0: {"MISO": 9, "MOSI": 10, "SCLK": 11},
    1: {"MISO": 19, "MOSI": 20, "SCLK": 21},
}
SPI_SELECT_PINS = {0: {0: 8, 1: 7}, 1: {0: 18, 1: 17, 2: 16}}
# The MFRC522's receiver gains (RFCfgReg RxGain, datasheet 9.3.3.6) and its reset value, the default: raise it when a
# card is not read through a thick board, lower it when a pad sees its neighbour's card (hw-check --cross-reads).
GAIN_CHOICES_DB = RX_GAIN_CHOICES
DEFAULT_GAIN_DB = RX_GAIN_DEFAULT_DB
I2C_BUS_PINS = {1: {"SDA": 2, "SCL": 3}}


@dataclass(frozen=True)
class PadConfig:
    """A reader's place on the table, bound to a seat (or shared) and a role."""

    id: str
    """Stable name used by drivers and screens, e.g. ``seat1.tap`` or ``shared.opponent``."""
    role: str
    seat: int | None
    bus: int | None = None
    device: int | None = None
    rst_pin: int | None = None
    hub: str | None = None
    reader: int | None = None
    line: int | None = None
    gain_db: int = DEFAULT_GAIN_DB
    """The reader's receiver gain (MFRC522 RxGain) in dB: the pad's ``gain_db``, else ``[readers] gain_db``, else 33."""

    @property
    def on_spi(self) -> bool:
        """True when the reader sits on the Pi's own SPI bus (else on a serial hub)."""
        return self.bus is not None


@dataclass(frozen=True)
class ButtonConfig:
    """A push button on a GPIO pin, with an optional LED."""

    id: str
    role: str
    seat: int | None
    gpio: int
    hold_seconds: float = DEFAULT_HOLD_SECONDS
    led_gpio: int | None = None
    line: int | None = None


@dataclass(frozen=True)
class ScreenConfig:
    """A 128x64 OLED, on I2C (optionally behind a TCA9548A) or on SPI."""

    id: str
    seat: int | None
    kind: str = "ssd1306"
    interface: Literal["i2c", "spi"] = "i2c"
    i2c_bus: int = 1
    address: int = 0x3C
    mux_address: int | None = None
    mux_channel: int | None = None
    spi_bus: int | None = None
    spi_device: int | None = None
    dc_pin: int | None = None
    rst_pin: int | None = None
    rotate: int = 0
    width: int = 128
    height: int = 64
    line: int | None = None


@dataclass(frozen=True)
class SeatConfig:
    """One club's place: its pads, buttons and screen."""

    number: int
    club: str | None
    colour: str | None
    pads: tuple[PadConfig, ...]
    buttons: tuple[ButtonConfig, ...]
    screen: ScreenConfig | None
    line: int | None = None

    @property
    def label(self) -> str:
        """The seat as people call it: the club's name when given, else ``Seat N``."""
        return self.club or f"Seat {self.number}"

    def button(self, role: str) -> ButtonConfig | None:
        """The seat's first button with this role, or None."""
        return next((b for b in self.buttons if b.role == role), None)


@dataclass(frozen=True)
class HubConfig:
    """A USB serial hub that reads several pads; found by its USB serial number (or an explicit port)."""

    name: str
    serial: str | None
    port: str | None
    baud: int = 115200
    readers: int = 8
    line: int | None = None

    @property
    def device_path(self) -> str | None:
        """The serial device to open: the explicit port, else the stable /dev/serial/by-id name when known."""
        if self.port:
            return self.port
        if self.serial:
            by_id = Path("/dev/serial/by-id")
            if by_id.is_dir():
                for entry in sorted(by_id.iterdir()):
                    if self.serial in entry.name:
                        return str(entry)
        return None


@dataclass(frozen=True)
class TableConfig:
    """Everything the table file says, validated."""

    name: str
    backend: Literal["real", "sim"]
    host: str
    port: int
    deck: Path | None
    """The owner's card data folder; None means the shipped demo deck."""
    database: Path
    seats: tuple[SeatConfig, ...]
    shared_pads: tuple[PadConfig, ...] = ()
    shared_buttons: tuple[ButtonConfig, ...] = ()
    shared_screen: ScreenConfig | None = None
    hubs: tuple[HubConfig, ...] = ()
    names: tuple[str, ...] = ()
    """Further names or addresses the page answers to (beyond the machine's own and localhost)."""
    modules: tuple[str, ...] = ()
    """The rule modules a new game plays unless the page or a scenario names others (``[game] modules``)."""
    options: tuple[tuple[str, Any], ...] = ()
    """The game options a new game takes unless named otherwise (``[game] options``), sorted by name."""
    source: Path | None = field(default=None, compare=False)

    def seat(self, number: int) -> SeatConfig:
        """The seat with this number; KeyError when the table has none."""
        for seat in self.seats:
            if seat.number == number:
                return seat
        raise KeyError(f"this table has no seat {number}")

    def pads(self) -> tuple[PadConfig, ...]:
        """Every pad: the seats' in seat order, then the shared ones."""
        return tuple(p for s in self.seats for p in s.pads) + self.shared_pads

    def buttons(self) -> tuple[ButtonConfig, ...]:
        """Every button: the seats' in seat order, then the shared ones."""
        return tuple(b for s in self.seats for b in s.buttons) + self.shared_buttons

    def screens(self) -> tuple[ScreenConfig, ...]:
        """Every screen: the seats' in seat order, then the shared one."""
        found = tuple(s.screen for s in self.seats if s.screen is not None)
        return found + ((self.shared_screen,) if self.shared_screen else ())

    def hub(self, name: str) -> HubConfig:
        """The hub with this name; KeyError when none."""
        for hub in self.hubs:
            if hub.name == name:
                return hub
        raise KeyError(f"this table has no hub {name!r}")


def default_database_path() -> Path:
    """Where the game log lives when the table file names none: systemd's state folder, else the user's data folder."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0]) / "touchline.db"
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "touchline" / "touchline.db"


def load_table(path: str | Path) -> TableConfig:
    """Read and validate a table file; raise TableFileError naming every problem's line and field."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TableFileError(str(path), errors.TABLE_FILE_MISSING.format(path=path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TableFileError(str(path), errors.TABLE_FILE_UNREADABLE.format(path=path, reason=exc)) from None
    return parse_table(text, source=path)


def parse_table(text: str, *, source: Path | None = None) -> TableConfig:
    """Validate the text of a table file; ``source`` names it in messages and anchors relative paths."""
    name = str(source) if source else "<table file>"
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TableFileError(name, errors.TABLE_FILE_SYNTAX.format(path=name, reason=exc)) from None
    except RecursionError:  # tomllib parses nested arrays and tables by recursion
        raise TableFileError(name, errors.TABLE_FILE_SYNTAX.format(path=name, reason=errors.TOO_DEEP)) from None
    checker = _Checker(raw, _LineIndex(text), source)
    config = checker.build()
    if checker.problems or config is None:
        raise TableFileError(name, checker.problems)
    return replace(config, source=source)


def default_sim_table() -> TableConfig:
    """The simulated table ``touchline run --sim`` starts: four seats, a shared Opponent pad and a shared screen."""
    return load_table(SIM_TABLE)


# --- where things are in the source text ----------------------------------------------------------------------------

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-.\" ]+?)\s*=")

PathKey = tuple[str | int, ...]


class _LineIndex:
    """Maps a TOML path (with array-of-tables positions) to the line where it is written.

    tomllib gives no positions for values, so we scan the text for headers and keys; good enough to point an
    owner at the right line, which is all the messages need.
    """

    def __init__(self, text: str) -> None:
        self.lines: dict[PathKey, int] = {}
        counts: dict[PathKey, int] = {}
        current: PathKey = ()
        for number, line in enumerate(text.splitlines(), start=1):
            header = _HEADER.match(line)
            if header and not line.lstrip().startswith("#"):
                is_array = header.group(1) == "[["
                parts = [p.strip().strip('"') for p in header.group(2).split(".")]
                resolved: list[str | int] = []
                for i, part in enumerate(parts):
                    resolved.append(part)
                    key = tuple(resolved)
                    last = i == len(parts) - 1
                    if last and is_array:
                        counts[key] = counts.get(key, 0) + 1
                        resolved.append(counts[key] - 1)
                    elif key in counts:
                        resolved.append(counts[key] - 1)
                current = tuple(resolved)
                self.lines.setdefault(current, number)
                continue
            match = _KEY.match(line)
            if match and not line.lstrip().startswith("#"):
                dotted = tuple(p.strip().strip('"') for p in match.group(1).split("."))
                self.lines.setdefault(current + dotted, number)

    def line_of(self, path: PathKey) -> int | None:
        """The line of the longest prefix of ``path`` that is written in the file."""
        for cut in range(len(path), -1, -1):
            found = self.lines.get(path[:cut])
            if found is not None:
                return found
        return None


def _field_name(path: PathKey) -> str:
    """Show a path the way the README explains it: ``seats[2].pads[1].bus`` (positions count from 1)."""
    out = ""
    for part in path:
        out += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


# --- validation ----------------------------------------------------------------------------------------------------

_TOP_KEYS = ("name", "backend", "deck", "database", "web", "readers", "game", "seats", "shared", "hubs")
_GAME_KEYS = ("modules", "options")
_READERS_KEYS = ("gain_db",)
_WEB_KEYS = ("host", "port", "names")
_SEAT_KEYS = ("seat", "club", "colour", "pads", "buttons", "screen")
_SHARED_KEYS = ("pads", "buttons", "screen")
_PAD_KEYS = ("role", "bus", "device", "rst_pin", "hub", "reader", "gain_db")
_BUTTON_KEYS = ("role", "gpio", "hold_seconds", "led_gpio")
_SCREEN_KEYS = (
    "kind", "interface", "i2c_bus", "address", "mux_address", "mux_channel",
    "spi_bus", "spi_device", "dc_pin", "rst_pin", "rotate",
)
_I2C_ONLY = ("i2c_bus", "address", "mux_address", "mux_channel")
_SPI_ONLY = ("spi_bus", "spi_device", "dc_pin")
_HUB_KEYS = ("name", "serial", "port", "baud", "readers")


class _Checker:
    """Walks the parsed TOML once, building dataclasses and collecting every problem."""

    def __init__(self, raw: dict[str, Any], index: _LineIndex, source: Path | None) -> None:
        self.raw = raw
        self.index = index
        self.base = source.parent if source else Path.cwd()
        self.problems: list[Problem] = []
        # Claims on shared resources: what took it, and where, so the second claimant is told about the first.
        self.pins: dict[int, tuple[str, int | None, PathKey]] = {}
        self.reader_resets: set[int] = set()
        self.gain_db = DEFAULT_GAIN_DB  # [readers] gain_db, read before the pads
        self.spi: dict[tuple[int, int], tuple[str, int | None]] = {}
        self.i2c: list[tuple[ScreenConfig, str]] = []
        self.hub_readers: dict[tuple[str, int], tuple[str, int | None]] = {}

    # -- helpers --
    def problem(self, path: PathKey, message: str) -> None:
        """Record one problem at this path's line."""
        self.problems.append(Problem(self.index.line_of(path), _field_name(path), message))

    def table(self, value: Any, path: PathKey, allowed: tuple[str, ...]) -> dict[str, Any]:
        """Check that ``value`` is a table with only known keys; return it (or {} when it is not a table)."""
        if not isinstance(value, dict):
            self.problem(path, errors.WRONG_TYPE.format(value=value, expected="a table", example=f"[{_field_name(path)}]"))
            return {}
        for key in value:
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                self.problem(path + (key,), errors.UNKNOWN_KEY.format(key=key, hint=hint, allowed=", ".join(allowed)))
        return value

    def array(self, value: Any, path: PathKey) -> list[dict[str, Any]]:
        """Check that ``value`` is an array of tables."""
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.problem(path, errors.WRONG_TYPE.format(value=value, expected="a list of tables", example=f"[[{_field_name(path)}]]"))
            return []
        return value

    def get(self, tbl: Mapping[str, Any], key: str, path: PathKey, kind: type, *, default: Any = None,
            required: str | None = None, low: float | None = None, high: float | None = None,
            choices: tuple[Any, ...] | None = None) -> Any:
        """Read one value with its type, range and allowed values checked; None (or default) when wrong or absent."""
        where = path + (key,)
        if key not in tbl:
            if required is not None:
                self.problem(where, errors.MISSING_KEY.format(key=key, todo=required))
            return default
        value = tbl[key]
        ok = isinstance(value, kind) and not (kind in (int, float) and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            expected, example = {
                int: ("a whole number", f"{key} = 1"),
                float: ("a number", f"{key} = 1.0"),
                str: ("text", f'{key} = "..."'),
            }[kind]
            self.problem(where, errors.WRONG_TYPE.format(value=value, expected=expected, example=example))
            return default
        if choices is not None and value not in choices:
            self.problem(where, errors.NOT_ONE_OF.format(value=value, allowed=", ".join(map(str, choices))))
            return default
        if low is not None and high is not None and not low <= value <= high:
            self.problem(where, errors.OUT_OF_RANGE.format(value=value, what=key, low=low, high=high))
            return default
        return value

    def claim_pin(self, pin: int | None, owner: str, path: PathKey, *, reader_reset: bool = False) -> None:
        """Record that ``owner`` uses GPIO ``pin``; complain when something else already does."""
        if pin is None:
            return
        line = self.index.line_of(path)
        if reader_reset:
            # Several MFRC522 boards may share one reset line (they are reset together at start).
            if pin in self.reader_resets:
                return
            self.reader_resets.add(pin)
        if pin in self.pins:
            other, other_line, _ = self.pins[pin]
            self.problem(path, errors.PIN_TWICE.format(pin=pin, other=other, line=other_line))
        else:
            self.pins[pin] = (owner, line, path)

    def claim_spi(self, bus: int | None, device: int | None, owner: str, path: PathKey) -> None:
        """Record a chip select on SPI; complain when it is taken."""
        if bus is None or device is None:
            return
        if (bus, device) in self.spi:
            other, line = self.spi[(bus, device)]
            self.problem(path, errors.SPI_SELECT_TWICE.format(bus=bus, device=device, other=other, line=line))
        else:
            self.spi[(bus, device)] = (owner, self.index.line_of(path))

    # -- parts --
    def pad(self, raw: dict[str, Any], path: PathKey, seat: int | None, pad_id: str, roles: tuple[str, ...]) -> PadConfig:
        """One pad: exactly one reader, on SPI or on a hub."""
        tbl = self.table(raw, path, _PAD_KEYS)
        role = self.get(tbl, "role", path, str, default=roles[0], choices=roles)
        bus = self.get(tbl, "bus", path, int, low=0, high=6)
        device = self.get(tbl, "device", path, int, low=0, high=3)
        rst = self.get(tbl, "rst_pin", path, int, low=0, high=27)
        hub = self.get(tbl, "hub", path, str)
        reader = self.get(tbl, "reader", path, int, low=0, high=255)
        gain = self.get(tbl, "gain_db", path, int, default=self.gain_db, choices=GAIN_CHOICES_DB)
        if "gain_db" in tbl and ("hub" in tbl or "reader" in tbl):
            self.problem(path + ("gain_db",), errors.HUB_GAIN)
        if reader == 0:
            # The hub protocol and its firmware count readers from 1: reader 0 would never get a reading.
            self.problem(path + ("reader",), errors.HUB_READER_ZERO)
            reader = None
        has_spi = "bus" in tbl or "device" in tbl
        has_hub = "hub" in tbl or "reader" in tbl
        if has_spi and has_hub:
            self.problem(path, errors.PAD_TWO_READERS)
        elif not has_spi and not has_hub:
            self.problem(path, errors.PAD_NEEDS_READER)
        elif has_spi:
            for key in ("bus", "device"):
                if key not in tbl:
                    self.problem(path + (key,), errors.MISSING_KEY.format(key=key, todo=errors.PAD_NEEDS_READER))
        else:
            for key in ("hub", "reader"):
                if key not in tbl:
                    self.problem(path + (key,), errors.MISSING_KEY.format(key=key, todo=errors.PAD_NEEDS_READER))
        owner = _owner(seat, f"{role} pad")
        self.claim_spi(bus, device, owner, path + ("device",))
        self.claim_pin(rst, "the readers' reset line", path + ("rst_pin",), reader_reset=True)
        if hub is not None and reader is not None:
            key = (hub, reader)
            if key in self.hub_readers:
                other, line = self.hub_readers[key]
                self.problem(path + ("reader",), errors.HUB_READER_TWICE.format(reader=reader, hub=hub, other=other, line=line))
            else:
                self.hub_readers[key] = (owner, self.index.line_of(path + ("reader",)))
        return PadConfig(id=pad_id, role=role, seat=seat, bus=bus, device=device, rst_pin=rst, hub=hub, reader=reader,
                         line=self.index.line_of(path), gain_db=gain if gain is not None else self.gain_db)

    def button(self, raw: dict[str, Any], path: PathKey, seat: int | None, prefix: str,
               roles: tuple[str, ...]) -> ButtonConfig | None:
        """One button: a GPIO pin, a role, a hold time and maybe an LED."""
        tbl = self.table(raw, path, _BUTTON_KEYS)
        role = self.get(tbl, "role", path, str, default=roles[0], choices=roles)
        gpio = self.get(tbl, "gpio", path, int, low=0, high=27,
                        required="Give the BCM number of the GPIO the button is wired to, e.g. gpio = 17.")
        hold = self.get(tbl, "hold_seconds", path, float, default=DEFAULT_HOLD_SECONDS, low=0.2, high=10.0)
        led = self.get(tbl, "led_gpio", path, int, low=0, high=27)
        owner = _owner(seat, f"{role} button")
        self.claim_pin(gpio, owner, path + ("gpio",))
        self.claim_pin(led, owner + " LED", path + ("led_gpio",))
        if gpio is None:
            return None
        return ButtonConfig(id=f"{prefix}.{role}", role=role, seat=seat, gpio=gpio, hold_seconds=hold, led_gpio=led,
                            line=self.index.line_of(path))

    def buttons(self, raw: Any, path: PathKey, seat: int | None, prefix: str, roles: tuple[str, ...]) -> list[ButtonConfig]:
        """A seat's (or the shared) buttons: at most one per role, since a role is what a press means."""
        made: list[ButtonConfig] = []
        for i, raw_button in enumerate(self.array(raw, path)):
            button = self.button(raw_button, path + (i,), seat, prefix, roles)
            if button is None:
                continue
            other = next((b for b in made if b.role == button.role), None)
            if other is not None:
                owner = f"seat {seat}" if seat is not None else "the shared controls"
                self.problem(path + (i, "role"), errors.BUTTON_ROLE_TWICE.format(
                    owner=owner, role=button.role, line=other.line, roles=", ".join(roles)))
                continue
            made.append(button)
        return made

    def screen(self, raw: Any, path: PathKey, seat: int | None, screen_id: str) -> ScreenConfig | None:
        """One OLED: kind, interface and where it answers."""
        tbl = self.table(raw, path, _SCREEN_KEYS)
        kind = self.get(tbl, "kind", path, str, default="ssd1306", choices=SCREEN_KINDS)
        interface = self.get(tbl, "interface", path, str, default="i2c", choices=SCREEN_INTERFACES)
        rotate = self.get(tbl, "rotate", path, int, default=0, choices=(0, 1, 2, 3))
        rst = self.get(tbl, "rst_pin", path, int, low=0, high=27)
        owner = _owner(seat, "screen")
        self.claim_pin(rst, owner + " (reset)", path + ("rst_pin",))
        wrong = [k for k in (_SPI_ONLY if interface == "i2c" else _I2C_ONLY) if k in tbl]
        if wrong:
            other = "spi" if interface == "i2c" else "i2c"
            self.problem(path + (wrong[0],), errors.SCREEN_INTERFACE_FIELDS.format(
                interface=interface.upper(), fields=", ".join(wrong), other=other))
        line = self.index.line_of(path)
        if interface == "spi":
            bus = self.get(tbl, "spi_bus", path, int, low=0, high=6, required="Give the SPI bus, e.g. spi_bus = 0.")
            device = self.get(tbl, "spi_device", path, int, low=0, high=3, required="Give the chip select, e.g. spi_device = 1.")
            dc = self.get(tbl, "dc_pin", path, int, low=0, high=27, required="Give the GPIO of the D/C line, e.g. dc_pin = 24.")
            self.claim_spi(bus, device, owner, path + ("spi_device",))
            self.claim_pin(dc, owner + " (D/C)", path + ("dc_pin",))
            return ScreenConfig(id=screen_id, seat=seat, kind=kind, interface="spi", spi_bus=bus, spi_device=device,
                                dc_pin=dc, rst_pin=rst, rotate=rotate, line=line)
        bus = self.get(tbl, "i2c_bus", path, int, default=1, low=0, high=22)
        address = self.get(tbl, "address", path, int, default=0x3C, low=0x03, high=0x77)
        mux = self.get(tbl, "mux_address", path, int, low=0x70, high=0x77)
        channel = self.get(tbl, "mux_channel", path, int, low=0, high=7)
        if ("mux_address" in tbl) != ("mux_channel" in tbl):
            self.problem(path + ("mux_address" if "mux_address" not in tbl else "mux_channel",), errors.MUX_HALF)
        config = ScreenConfig(id=screen_id, seat=seat, kind=kind, interface="i2c", i2c_bus=bus, address=address,
                              mux_address=mux, mux_channel=channel, rst_pin=rst, rotate=rotate, line=line)
        self.check_i2c(config, owner, path)
        return config

    def check_i2c(self, screen: ScreenConfig, owner: str, path: PathKey) -> None:
        """Two screens clash when both answer on the same bus and address at the same time."""
        if screen.mux_address is not None and screen.address == screen.mux_address:
            self.problem(path + ("address",), errors.SCREEN_IS_MUX.format(address=screen.address, bus=screen.i2c_bus))
        for other, other_owner in self.i2c:
            if other.i2c_bus != screen.i2c_bus:
                continue
            if other.mux_address is not None and other.mux_address == screen.address:
                self.problem(path + ("address",), errors.SCREEN_IS_MUX.format(address=screen.address, bus=screen.i2c_bus))
                break
            same_branch = (
                other.mux_address is None or screen.mux_address is None
                or (other.mux_address, other.mux_channel) == (screen.mux_address, screen.mux_channel)
            )
            if other.address == screen.address and same_branch:
                where = f"I2C bus {screen.i2c_bus}, address {screen.address:#04x}"
                if screen.mux_address is not None:
                    where += f", TCA9548A {screen.mux_address:#04x} channel {screen.mux_channel}"
                self.problem(path + ("address",), errors.SCREEN_ADDRESS_TWICE.format(where=where, other=other_owner, line=other.line))
                break
        self.i2c.append((screen, owner))

    def hub(self, raw: dict[str, Any], path: PathKey, seen: dict[str, dict[Any, int | None]]) -> HubConfig | None:
        """One serial hub."""
        tbl = self.table(raw, path, _HUB_KEYS)
        name = self.get(tbl, "name", path, str, required='Name the hub, e.g. name = "hub", and use that name in the pads.')
        serial = self.get(tbl, "serial", path, str)
        port = self.get(tbl, "port", path, str)
        baud = self.get(tbl, "baud", path, int, default=115200, choices=BAUD_RATES)
        readers = self.get(tbl, "readers", path, int, default=8, low=1, high=64)
        if serial is None and port is None:
            self.problem(path + ("serial",), errors.MISSING_KEY.format(
                key="serial", todo="Give the hub's USB serial number (see `ls /dev/serial/by-id`), or a port such as port = \"/dev/ttyACM0\"."))
        for key, value in (("name", name), ("serial", serial), ("port", port)):
            if value is None:
                continue
            if value in seen[key]:
                self.problem(path + (key,), errors.HUB_TWICE.format(field=key, line=seen[key][value]))
            else:
                seen[key][value] = self.index.line_of(path + (key,))
        if name is None:
            return None
        return HubConfig(name=name, serial=serial, port=port, baud=baud, readers=readers, line=self.index.line_of(path))

    def seat(self, raw: dict[str, Any], path: PathKey, numbers: dict[int, int | None]) -> SeatConfig | None:
        """One seat with its pads, buttons and screen."""
        tbl = self.table(raw, path, _SEAT_KEYS)
        number = self.get(tbl, "seat", path, int, low=1, high=MAX_SEATS,
                          required="Give the seat's number, e.g. seat = 1 (seats are numbered 1 to 4).")
        club = self.get(tbl, "club", path, str)
        colour = self.get(tbl, "colour", path, str)
        if number is not None and number in numbers:
            self.problem(path + ("seat",), errors.SEAT_TWICE.format(seat=number, other=numbers[number]))
        elif number is not None:
            numbers[number] = self.index.line_of(path + ("seat",))
        label = number if number is not None else "?"
        pads = []
        for i, raw_pad in enumerate(self.array(tbl.get("pads"), path + ("pads",))):
            suffix = "" if i == 0 else str(i + 1)
            pads.append(self.pad(raw_pad, path + ("pads", i), number, "", SEAT_PAD_ROLES))
            pads[-1] = _with_id(pads[-1], f"seat{label}.{pads[-1].role}{suffix}")
        buttons = self.buttons(tbl.get("buttons"), path + ("buttons",), number, f"seat{label}", SEAT_BUTTON_ROLES)
        screen = None
        if "screen" in tbl:
            screen = self.screen(tbl["screen"], path + ("screen",), number, f"seat{label}.screen")
        if number is None:
            return None
        if not any(p.role == "tap" for p in pads):
            self.problem(path, errors.SEAT_NEEDS_PAD.format(seat=number))
        if not any(b.role == "roll" for b in buttons):
            self.problem(path, errors.SEAT_NEEDS_ROLL.format(seat=number))
        return SeatConfig(number=number, club=club, colour=colour, pads=tuple(pads), buttons=tuple(buttons),
                          screen=screen, line=self.index.line_of(path))

    def build(self) -> TableConfig | None:
        """Check the whole file and build the table (None when a part could not be built)."""
        top = self.table(self.raw, (), _TOP_KEYS)
        name = self.get(top, "name", (), str, default="Touchline table")
        backend = self.get(top, "backend", (), str, default="real", choices=BACKENDS)
        deck_text = self.get(top, "deck", (), str, default="")
        db_text = self.get(top, "database", (), str, default="")
        web = self.table(top.get("web", {}), ("web",), _WEB_KEYS)
        host = self.get(web, "host", ("web",), str, default="127.0.0.1")
        port = self.get(web, "port", ("web",), int, default=DEFAULT_PORT, low=1, high=65535)
        names = web.get("names", [])
        if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
            self.problem(("web", "names"), errors.WRONG_TYPE.format(
                value=names, expected="a list of names", example='names = ["touchline.shop.lan", "192.168.1.50"]'))
            names = []
        modules, options = self.game(top.get("game", {}))
        readers = self.table(top.get("readers", {}), ("readers",), _READERS_KEYS)
        self.gain_db = self.get(readers, "gain_db", ("readers",), int, default=DEFAULT_GAIN_DB, choices=GAIN_CHOICES_DB)

        seen_hubs: dict[str, dict[Any, int | None]] = {"name": {}, "serial": {}, "port": {}}
        hubs = [h for i, raw in enumerate(self.array(top.get("hubs"), ("hubs",)))
                if (h := self.hub(raw, ("hubs", i), seen_hubs)) is not None]

        raw_seats = self.array(top.get("seats"), ("seats",))
        if not raw_seats:
            self.problem(("seats",), errors.NO_SEATS)
        elif len(raw_seats) > MAX_SEATS:
            self.problem(("seats", MAX_SEATS), errors.TOO_MANY_SEATS.format(count=len(raw_seats)))
        numbers: dict[int, int | None] = {}
        seats = [s for i, raw in enumerate(raw_seats) if (s := self.seat(raw, ("seats", i), numbers)) is not None]

        shared = self.table(top.get("shared", {}), ("shared",), _SHARED_KEYS)
        shared_pads = []
        for i, raw_pad in enumerate(self.array(shared.get("pads"), ("shared", "pads"))):
            pad = self.pad(raw_pad, ("shared", "pads", i), None, "", SHARED_PAD_ROLES)
            shared_pads.append(_with_id(pad, f"shared.{pad.role}" + ("" if i == 0 else str(i + 1))))
        shared_buttons = self.buttons(shared.get("buttons"), ("shared", "buttons"), None, "shared", SHARED_BUTTON_ROLES)
        shared_screen = None
        if "screen" in shared:
            shared_screen = self.screen(shared["screen"], ("shared", "screen"), None, "shared.screen")

        self.check_hub_references(seats, shared_pads, hubs)
        self.check_bus_pins(seats, shared_pads, shared_screen)
        if self.problems:
            return None
        return TableConfig(
            name=name,
            backend=backend,
            host=host,
            port=port,
            deck=self.resolve(deck_text) if deck_text else None,
            database=self.resolve(os.path.expanduser(db_text)) if db_text else default_database_path(),
            seats=tuple(sorted(seats, key=lambda s: s.number)),
            shared_pads=tuple(shared_pads),
            shared_buttons=tuple(shared_buttons),
            shared_screen=shared_screen,
            hubs=tuple(hubs),
            names=tuple(n.strip() for n in names),
            modules=modules,
            options=options,
        )

    def game(self, raw: Any) -> tuple[tuple[str, ...], tuple[tuple[str, Any], ...]]:
        """``[game]``: the modules and options a new game plays by default, each checked by the engine's own rules
        (an unknown module, one that excludes another, a bad option: the engine's sentence at the field's line)."""
        import engine  # here: the rest of the table file is read without the rules

        path: PathKey = ("game",)
        tbl = self.table(raw, path, _GAME_KEYS)
        modules = tbl.get("modules", [])
        if not isinstance(modules, list) or not all(isinstance(m, str) for m in modules):
            self.problem(path + ("modules",), errors.WRONG_TYPE.format(
                value=modules, expected="a list of module names", example='modules = ["referee", "betting"]'))
            return (), ()
        problem = engine.game_problem(modules, {})
        if problem is not None:
            self.problem(path + ("modules",), problem)
            return (), ()
        options = self.table(tbl.get("options", {}), path + ("options",), tuple(tbl.get("options", {}) or ()))
        kept: dict[str, Any] = {}
        for key, value in options.items():
            problem = engine.game_problem(modules, {key: value})
            if problem is not None:
                self.problem(path + ("options", key), problem)
            else:
                kept[key] = value
        return tuple(modules), tuple(sorted(kept.items()))

    def resolve(self, text: str) -> Path:
        """Relative paths in a table file are relative to the file, so it can be moved with its deck."""
        path = Path(text)
        return path if path.is_absolute() else (self.base / path)

    def check_hub_references(self, seats: list[SeatConfig], shared: list[PadConfig], hubs: list[HubConfig]) -> None:
        """Every hub a pad names must be described, and its reader index must exist on that hub."""
        by_name = {h.name: h for h in hubs}
        for path, pad in self.pad_paths(seats, shared):
            if pad.hub is None:
                continue
            hub = by_name.get(pad.hub)
            if hub is None:
                self.problem(path + ("hub",), errors.UNKNOWN_HUB.format(hub=pad.hub, known=", ".join(by_name) or "(none)"))
            elif pad.reader is not None and pad.reader > hub.readers:
                self.problem(path + ("reader",), errors.OUT_OF_RANGE.format(
                    value=pad.reader, what=f"a reader of hub {hub.name!r}", low=1, high=hub.readers))

    def pad_paths(self, seats: list[SeatConfig], shared: list[PadConfig]) -> Iterator[tuple[PathKey, PadConfig]]:
        """Each pad with its TOML path, for messages."""
        raw_seats = self.raw.get("seats") or []
        for i, raw in enumerate(raw_seats):
            number = raw.get("seat") if isinstance(raw, dict) else None
            seat = next((s for s in seats if s.number == number), None)
            if seat is not None:
                for j, pad in enumerate(seat.pads):
                    yield ("seats", i, "pads", j), pad
        for j, pad in enumerate(shared):
            yield ("shared", "pads", j), pad

    def check_bus_pins(self, seats: list[SeatConfig], shared_pads: list[PadConfig], shared_screen: ScreenConfig | None) -> None:
        """A button or LED wired to a pin that an SPI or I2C bus in use takes cannot work."""
        taken: dict[int, tuple[str, str]] = {}
        screens = [s.screen for s in seats if s.screen] + ([shared_screen] if shared_screen else [])
        for bus, device in self.spi:
            for role, pin in SPI_BUS_PINS.get(bus, {}).items():
                taken[pin] = (f"SPI{bus} {role}", f"SPI{bus}")
            select = SPI_SELECT_PINS.get(bus, {}).get(device)
            if select is not None:
                taken[select] = (f"SPI{bus} CE{device}", f"SPI{bus}.{device}")
        for screen in screens:
            if screen.interface == "i2c":
                for role, pin in I2C_BUS_PINS.get(screen.i2c_bus, {}).items():
                    taken[pin] = (f"I2C{screen.i2c_bus} {role}", f"the screens on I2C bus {screen.i2c_bus}")
        for pin, (_, _, path) in self.pins.items():
            if pin in taken:
                bus_pin, user = taken[pin]
                self.problem(path, errors.PIN_IS_BUS.format(pin=pin, bus_pin=bus_pin, user=user))


def _owner(seat: int | None, what: str) -> str:
    """Name a part for messages: ``seat 2's roll button`` or ``the shared opponent pad``."""
    return f"seat {seat}'s {what}" if seat is not None else f"the shared {what}"


def _with_id(pad: PadConfig, pad_id: str) -> PadConfig:
    """Give a pad its final id once its role is known."""
    return replace(pad, id=pad_id)
