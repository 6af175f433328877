"""The RFID hub: a microcontroller with several MFRC522 readers that speaks a line protocol over USB serial.

The protocol is documented in ``drivers/HUB_PROTOCOL.md`` and spoken by
``firmware/touchline_hub/touchline_hub.ino``.  ``SerialHub`` finds the hub's port by its USB
serial number, reads lines in a thread, turns them into ``TagReading``/``HealthReading`` and
reconnects after an unplug.  ``SimulatedHub`` is a fake microcontroller on a pseudo-terminal, so
the real pyserial port code runs above it.
"""

from __future__ import annotations

import errno
import logging
import os
import select
import threading
import time
import tty
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from drivers.base import HealthReading, TagReading, default_backend, format_uid
from drivers.errors import DriverConfigError, HubProtocolError

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
BAUDRATE = 115200
MAX_LINE = 120  # bytes between '$' and the checksum; longer means a lost newline or noise
HEARTBEAT_TIMEOUT = 3.0  # the hub beats every second, so three missed beats mean it is gone
RECONNECT_DELAYS = (0.2, 0.5, 1.0, 2.0, 5.0)
READ_TIMEOUT = 0.1  # how long one blocking read may wait, so close() and heartbeat checks stay prompt
QUERY_AFTER_NOISE_EVERY = 1.0  # at most one QUERY a second after noise: a wrong baud rate garbles every line

# Hub -> host message types with the number of fields each carries after its type.
HUB_MESSAGES: dict[str, int] = {"HELLO": 3, "TAG": 2, "GONE": 2, "BEAT": 1, "READER": 3, "ERR": 2, "SYNC": 0}
# Host -> hub.
QUERY = "QUERY"

# Sentences shown to the owner (hw-check, the health page); tests import them.
PORT_NOT_FOUND = "no serial port with USB serial number {serial}: is the hub plugged in?"
PORT_LOST = "the hub's port {port} went away ({reason}); reconnecting"
PORT_OPEN_FAILED = "could not open {port} ({reason}); retrying"
HEARTBEAT_LOST = "no heartbeat from the hub for {seconds:.1f} s: is it powered and running its firmware?"
WRONG_PROTOCOL = (
    "the hub speaks protocol version {theirs}, this Touchline speaks {ours}: flash "
    "firmware/touchline_hub/touchline_hub.ino from this release onto the hub"
)
HUB_ONLINE = "hub on {port}: protocol {version}, {readers} readers, firmware {firmware}"
HUB_THREAD_DEAD = "The thread reading hub {name!r} has died: its pads are not read any more."
HUB_THREAD_STUCK = "The thread reading hub {name!r} has not turned for {seconds:.0f} s: its port hangs."
NO_PORT_GIVEN = "The hub needs either a USB serial number or a port (e.g. /dev/ttyACM0)."
BAD_HUB_NAME = "A hub needs a name (it names its readers '<hub>:<n>'), got {name!r}."
BAD_BAUDRATE = "The hub {name!r} has baud rate {baud!r}; the firmware speaks 115200 (give a whole number of baud)."
BAD_HEARTBEAT = "The hub {name!r} has heartbeat_timeout={seconds!r}; give seconds above 1 (the hub beats every second)."
BAD_READER_NUMBER = "The hub {name!r} has no reader {number!r}: its readers are numbered from 1."
BAD_READER_COUNT = "The hub {name!r} has readers={readers!r}; give how many reader slots it has (1 or more)."
READER_ZERO = ("the hub {name!r} numbers its readers from 1 (drivers/HUB_PROTOCOL.md), so no reading will ever come "
               "for {pad!r}, named as its reader 0")
LINES_REJECTED = "rejecting lines ({detail}); later ones are counted in stats until a good line comes"
LINES_GOOD_AGAIN = "good lines again after {count} rejected"


def _check_settings(name: str, serial_number: str | None, port: str | None, baudrate: int,
                    heartbeat_timeout: float, reader_names: Mapping[int, str] | None) -> None:
    """Raise DriverConfigError saying which setting of a hub cannot work."""
    if not serial_number and not port:
        raise DriverConfigError(NO_PORT_GIVEN)
    if not isinstance(name, str) or not name.strip():
        raise DriverConfigError(BAD_HUB_NAME.format(name=name))
    if isinstance(baudrate, bool) or not isinstance(baudrate, int) or baudrate <= 0:
        raise DriverConfigError(BAD_BAUDRATE.format(name=name, baud=baudrate))
    if isinstance(heartbeat_timeout, bool) or not isinstance(heartbeat_timeout, (int, float)) \
            or heartbeat_timeout <= 1:
        raise DriverConfigError(BAD_HEARTBEAT.format(name=name, seconds=heartbeat_timeout))
    for number, pad in (reader_names or {}).items():
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise DriverConfigError(BAD_READER_NUMBER.format(name=name, number=number))
        if number == 0:
            # Said, not refused, while table files still count from 0: that pad can get no readings.
            log.warning("hub %s: %s", name, READER_ZERO.format(name=name, pad=pad))


def checksum(body: str) -> int:
    """Return the NMEA-style checksum of a line body: the XOR of its bytes."""
    value = 0
    for byte in body.encode("ascii"):
        value ^= byte
    return value


def encode_line(kind: str, *fields: object) -> bytes:
    """Build one protocol line, e.g. ``encode_line("TAG", 2, "04A1B2C3D4E5F6")`` -> ``b"$TAG,2,04A1B2C3D4E5F6*64\\r\\n"``."""
    body = ",".join([kind, *(str(f) for f in fields)])
    return f"${body}*{checksum(body):02X}\r\n".encode("ascii")


@dataclass(frozen=True, slots=True)
class HubMessage:
    """One checked line from the hub: its type and its fields."""

    kind: str
    fields: tuple[str, ...]


def parse_line(raw: bytes) -> HubMessage:
    """Check one line's framing and checksum and split it; raise ``HubProtocolError`` saying what is wrong.

    The error's ``reason`` is ``"garbled"``, ``"checksum"`` or ``"unknown"`` so the driver can count each.
    """
    line = raw.strip(b"\r\n")
    try:
        text = line.decode("ascii")
    except UnicodeDecodeError:
        raise _protocol_error("garbled", f"line is not ASCII: {line[:40]!r}") from None
    if not text.startswith("$") or len(text) < 4 or text[-3] != "*":
        raise _protocol_error("garbled", f"line is not framed as $...*XX: {text[:40]!r}")
    body, sent = text[1:-3], text[-2:]
    if len(body) > MAX_LINE or "$" in body or "*" in body:
        raise _protocol_error("garbled", f"line is malformed: {text[:40]!r}")
    try:
        sent_value = int(sent, 16)
    except ValueError:
        raise _protocol_error("garbled", f"checksum {sent!r} is not hex in {text[:40]!r}") from None
    if sent_value != checksum(body):
        raise _protocol_error(
            "checksum", f"checksum {sent} does not match {checksum(body):02X} in {text[:40]!r}"
        )
    kind, *fields = body.split(",")
    if kind not in HUB_MESSAGES:
        raise _protocol_error("unknown", f"unknown message type {kind!r}")
    if len(fields) != HUB_MESSAGES[kind]:
        raise _protocol_error(
            "garbled", f"{kind} carries {len(fields)} field(s), expected {HUB_MESSAGES[kind]}"
        )
    return HubMessage(kind, tuple(fields))


def _protocol_error(reason: str, detail: str) -> HubProtocolError:
    error = HubProtocolError(f"hub line rejected ({reason}): {detail}")
    error.reason = reason  # type: ignore[attr-defined]
    return error


def parse_uid(text: str) -> str:
    """Turn a UID as sent by the hub (4, 7 or 10 bytes in hex) into the printed form ``04-A1-…``."""
    if len(text) not in (8, 14, 20):
        raise _protocol_error("garbled", f"UID {text!r} is not 4, 7 or 10 bytes of hex")
    try:
        return format_uid(bytes.fromhex(text))
    except ValueError:
        raise _protocol_error("garbled", f"UID {text!r} is not hex") from None


def find_port(serial_number: str, list_ports: Callable[[], Iterable[Any]] | None = None) -> str | None:
    """Return the device path of the USB serial port with this serial number, or None."""
    if list_ports is None:
        # Looked up at call time so a test (or a replug) sees the current list.
        from serial.tools import list_ports as lp

        list_ports = lp.comports
    for port in list_ports():
        if getattr(port, "serial_number", None) == serial_number:
            return str(port.device)
    return None


@dataclass(slots=True)
class HubStats:
    """Counters of what came over the line, for the health page and tests."""

    lines: int = 0
    garbled: int = 0
    bad_checksum: int = 0
    unknown: int = 0
    connects: int = 0
    disconnects: int = 0

    @property
    def rejected(self) -> int:
        """Lines thrown away for any reason."""
        return self.garbled + self.bad_checksum + self.unknown


@dataclass(frozen=True, slots=True)
class HubHello:
    """What the hub said about itself when it (re)started or was asked."""

    version: int
    readers: int
    firmware: str


@dataclass(slots=True)
class _Sync:
    """Readers the hub reported since its last HELLO; the rest are lifted at SYNC."""

    seen: set[int] = field(default_factory=set)


class SerialHub:
    """Reads an RFID hub over USB serial in a thread and hands readings to callbacks."""

    def __init__(
        self,
        on_reading: Callable[[TagReading], None],
        *,
        serial_number: str | None = None,
        port: str | None = None,
        name: str = "hub",
        on_health: Callable[[HealthReading], None] | None = None,
        reader_names: Mapping[int, str] | None = None,
        baudrate: int = BAUDRATE,
        heartbeat_timeout: float = HEARTBEAT_TIMEOUT,
        reconnect_delays: Sequence[float] = RECONNECT_DELAYS,
        clock: Callable[[], float] = time.monotonic,
        list_ports: Callable[[], Iterable[Any]] | None = None,
    ) -> None:
        _check_settings(name, serial_number, port, baudrate, heartbeat_timeout, reader_names)
        self.name = name
        self.serial_number = serial_number
        self._fixed_port = port
        self._on_reading = on_reading
        self._on_health = on_health
        self._reader_names = dict(reader_names or {})
        self._baudrate = baudrate
        self._heartbeat_timeout = heartbeat_timeout
        self._delays = tuple(reconnect_delays) or (1.0,)
        self._clock = clock
        self._list_ports = list_ports
        self.stats = HubStats()
        self.hello: HubHello | None = None
        self.port: str | None = None
        self.readers_down: dict[int, str] = {}
        self._present: dict[int, str] = {}
        self._sync: _Sync | None = None
        self._incompatible = False
        self._serial: Any = None
        self._buffer = bytearray()
        self._rejected_run = 0  # rejected lines since the last good one
        self._noise = False  # lines were rejected since the hub was last asked for its state
        self._last_noise_query = float("-inf")
        self._online: bool | None = None
        self._last_line = clock()
        self._last_query = clock()
        self._stop = threading.Event()
        self._synced = threading.Event()  # set once the state list after a HELLO has ended (SYNC)
        self._tried = threading.Event()  # set once the thread has tried to open the port
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.last_turn = time.monotonic()
        """``time.monotonic()`` when the reading thread last went round (reads wait at most 0.1 s): the watchdog's proof."""
        # In simulation, the fake microcontroller this hub talks to (closed with the hub).
        self.simulator: SimulatedHub | None = None

    # -- public -------------------------------------------------------------------------------

    def start(self) -> None:
        """Start reading in a background thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"hub-{self.name}", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop reading and close the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._disconnect(None)
        if self.simulator is not None:
            self.simulator.close()

    @property
    def online(self) -> bool:
        """True while the hub is connected and its heartbeat is coming."""
        return bool(self._online)

    def present(self) -> dict[str, str]:
        """The cards the hub currently reports, as reader name -> UID."""
        with self._lock:
            return {self.reader_name(n): uid for n, uid in self._present.items()}

    def reader_name(self, number: int) -> str:
        """The name of the hub's reader ``number`` (1-based), ``<hub>:<n>`` unless the table names it."""
        return self._reader_names.get(number, f"{self.name}:{number}")

    def wait_for_hello(self, timeout: float) -> HubHello | None:
        """Block until the hub has said hello, giving it ``timeout`` real seconds from the port's opening; for hw-check."""
        # However slow the machine, the hub's time only starts once the thread has tried the port.
        self._tried.wait(timeout)
        deadline = time.monotonic() + timeout
        while self.hello is None and time.monotonic() < deadline and not self._stop.is_set():
            time.sleep(0.02)
        return self.hello

    def wait_for_sync(self, timeout: float) -> bool:
        """Block until the hub has listed its readers' state after its hello (or ``timeout`` passes); for hw-check."""
        return self._synced.wait(timeout)

    # -- the reading thread -------------------------------------------------------------------

    def stalled(self, limit: float) -> str | None:
        """Why the reading thread is not turning (dead, or stuck for ``limit`` seconds); None while it is."""
        thread = self._thread
        if thread is None:
            return None
        if not thread.is_alive():
            return HUB_THREAD_DEAD.format(name=self.name)
        since = time.monotonic() - self.last_turn
        return HUB_THREAD_STUCK.format(name=self.name, seconds=since) if since > limit else None

    def _run(self) -> None:
        attempt = 0
        while not self._stop.is_set():
            self.last_turn = time.monotonic()
            if self._serial is None:
                if self._connect():
                    attempt = 0
                else:
                    self._stop.wait(self._delays[min(attempt, len(self._delays) - 1)])
                    attempt += 1
                continue
            try:
                chunk = self._serial.read(max(1, self._serial.in_waiting))
            except (OSError, ValueError, TypeError) as exc:
                # pyserial raises SerialException (an OSError) when the port vanishes; a port closed
                # under us can surface as TypeError/ValueError from its file descriptor.
                self._disconnect(PORT_LOST.format(port=self.port, reason=exc))
                continue
            if chunk:
                self._feed(chunk)
            self._check_heartbeat()

    def _connect(self) -> bool:
        try:
            return self._open_port()
        finally:
            self._tried.set()

    def _open_port(self) -> bool:
        import serial  # the real library on the real code path, also in simulation

        port = self._fixed_port or find_port(self.serial_number or "", self._list_ports)
        if port is None:
            self._set_health(False, PORT_NOT_FOUND.format(serial=self.serial_number))
            return False
        try:
            # Exclusive: a second program on the port would split the hub's lines between the two readers, and
            # its opening would toggle DTR and reset an Arduino. pyserial takes an flock before touching the port.
            self._serial = serial.serial_for_url(port, baudrate=self._baudrate, timeout=READ_TIMEOUT, exclusive=True)
        except (OSError, ValueError) as exc:
            self._set_health(False, PORT_OPEN_FAILED.format(port=port, reason=exc))
            return False
        self.port = port
        self.stats.connects += 1
        self._buffer.clear()
        self._last_line = self._clock()
        log.info("hub %s: opened %s", self.name, port)
        self._query()
        return True

    def _query(self) -> None:
        # Boards with native USB do not reset when the port opens, so ask for the hello explicitly.
        self._last_query = self._clock()
        try:
            self._serial.write(encode_line(QUERY))
        except (OSError, ValueError, TypeError) as exc:
            self._disconnect(PORT_LOST.format(port=self.port, reason=exc))

    def _disconnect(self, reason: str | None) -> None:
        ser, self._serial = self._serial, None
        if ser is None:
            return
        try:
            ser.close()
        except (OSError, ValueError, TypeError):
            pass  # the port is already gone; closing was only tidying up
        self.hello = None
        self._synced.clear()
        if reason is not None:
            self.stats.disconnects += 1
            log.warning("hub %s: %s", self.name, reason)
            self._set_health(False, reason)

    def _feed(self, chunk: bytes) -> None:
        self._buffer.extend(chunk)
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                if len(self._buffer) > MAX_LINE + 8:
                    # A line that never ends is noise (wrong baud rate, a bootloader): drop it, but keep a line
                    # that may be starting at its last '$'.
                    start = self._buffer.rfind(b"$")
                    keep = start > 0 and len(self._buffer) - start <= MAX_LINE + 8
                    self._rejected(f"{start if keep else len(self._buffer)} bytes without a line end")
                    del self._buffer[: start if keep else len(self._buffer)]
                return
            line = bytes(self._buffer[: end + 1])
            del self._buffer[: end + 1]
            start = line.rfind(b"$")
            if start > 0:
                # Noise without a line end ran into this line: a line starts at its '$' (never inside a body),
                # so the line after the noise is read, not lost with it.
                self._rejected(f"{start} bytes of noise before a line")
                line = line[start:]
            if line.strip():
                self._handle_line(line)

    def _rejected(self, detail: str) -> None:
        """Count bytes thrown away as a garbled line."""
        self.stats.garbled += 1
        self._rejected_run += 1
        self._noise = True
        (log.warning if self._rejected_run == 1 else log.debug)(
            "hub %s: %s", self.name, LINES_REJECTED.format(detail=detail))

    def _handle_line(self, line: bytes) -> None:
        self.stats.lines += 1
        try:
            message = parse_line(line)
            self._last_line = self._clock()
            if self._rejected_run:
                # Said before the line is acted on, so whoever sees its reading also sees this.
                if self._rejected_run > 1:
                    log.info("hub %s: %s", self.name, LINES_GOOD_AGAIN.format(count=self._rejected_run))
                self._rejected_run = 0
            self._handle(message)
            if self._noise and self._clock() - self._last_noise_query >= QUERY_AFTER_NOISE_EVERY:
                # A line lost to the noise may have been a TAG or a GONE: ask the hub for every pad's state.
                # The resync that follows taps what is new and lifts what went, and repeats nothing.
                self._noise = False
                self._last_noise_query = self._clock()
                self._query()
        except HubProtocolError as exc:
            reason = getattr(exc, "reason", "garbled")
            if reason == "checksum":
                self.stats.bad_checksum += 1
            elif reason == "unknown":
                self.stats.unknown += 1
            else:
                self.stats.garbled += 1
            self._rejected_run += 1
            self._noise = True
            # Logged when lines start going bad (a wrong baud rate garbles every one), not for each.
            if self._rejected_run == 1:
                log.warning("hub %s: %s", self.name, LINES_REJECTED.format(detail=exc))
            else:
                log.debug("hub %s: %s", self.name, exc)

    def _reader_number(self, text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise _protocol_error("garbled", f"reader {text!r} is not a number") from None
        limit = self.hello.readers if self.hello else None
        if number < 1 or (limit is not None and number > limit):
            raise _protocol_error("garbled", f"reader {number} is outside 1..{limit}")
        return number

    def _handle(self, message: HubMessage) -> None:
        kind, fields = message.kind, message.fields
        if kind == "HELLO":
            self._handle_hello(fields)
            return
        if self._incompatible:
            return  # a hub with another protocol version: its lines may mean something else
        if kind == "ERR":
            log.warning("hub %s reports %s: %s", self.name, fields[0], fields[1])
        elif kind == "TAG":
            self._tag_on(self._reader_number(fields[0]), parse_uid(fields[1]))
        elif kind == "GONE":
            self._tag_off(self._reader_number(fields[0]))
        elif kind == "READER":
            self._reader_state(self._reader_number(fields[0]), fields[1], fields[2])
        elif kind == "SYNC":
            self._end_sync()
        if self.hello is not None:
            self._set_health(True, self._online_detail())

    def _handle_hello(self, fields: tuple[str, ...]) -> None:
        try:
            version, readers = int(fields[0]), int(fields[1])
        except ValueError:
            raise _protocol_error("garbled", f"HELLO fields {fields!r} are not numbers") from None
        self._incompatible = version != PROTOCOL_VERSION
        if self._incompatible:
            self.hello = None
            self._set_health(False, WRONG_PROTOCOL.format(theirs=version, ours=PROTOCOL_VERSION))
            return
        again = self.hello is not None  # a resync asked for on the same connection, not a (re)start
        self.hello = HubHello(version, readers, fields[2])
        self._sync = _Sync()
        self._synced.clear()
        (log.debug if again else log.info)("hub %s: %s", self.name, self._online_detail())
        self._set_health(True, self._online_detail())

    def _online_detail(self) -> str:
        hello = self.hello
        assert hello is not None
        return HUB_ONLINE.format(
            port=self.port, version=hello.version, readers=hello.readers, firmware=hello.firmware
        )

    def _tag_on(self, number: int, uid: str) -> None:
        if self._sync is not None:
            self._sync.seen.add(number)
        with self._lock:
            previous = self._present.get(number)
            if previous == uid:
                return  # the hub re-reported a card we already know (a resync): not a new tap
            self._present[number] = uid
        if previous is not None:
            self._deliver(TagReading("lift", self.reader_name(number), previous))
        log.info("hub %s: tag %s on reader %s", self.name, uid, self.reader_name(number))
        self._deliver(TagReading("tap", self.reader_name(number), uid))

    def _tag_off(self, number: int) -> None:
        with self._lock:
            previous = self._present.pop(number, None)
        if previous is not None:
            self._deliver(TagReading("lift", self.reader_name(number), previous))

    def _end_sync(self) -> None:
        sync, self._sync = self._sync, None
        if sync is None:
            return
        # A card lifted while the hub was unplugged or resetting: its lift was never sent.
        for number in sorted(set(self._present) - sync.seen):
            self._tag_off(number)
        self._synced.set()

    def _reader_state(self, number: int, state: str, detail: str) -> None:
        device = self.reader_name(number)
        if state == "DOWN":
            if self.readers_down.get(number) != detail:
                self.readers_down[number] = detail
                self._emit_health(HealthReading(device, False, detail))
            self._tag_off(number)
        elif state == "UP":
            if self.readers_down.pop(number, None) is not None:
                self._emit_health(HealthReading(device, True, detail))
        else:
            raise _protocol_error("garbled", f"reader state {state!r} is neither UP nor DOWN")

    def _check_heartbeat(self) -> None:
        now = self._clock()
        silent = now - self._last_line
        if silent > self._heartbeat_timeout and self._online:
            self._set_health(False, HEARTBEAT_LOST.format(seconds=silent))
        if silent > self._heartbeat_timeout and now - self._last_query > self._heartbeat_timeout:
            # A hub that reset without its port going away would otherwise never say hello again.
            self._query()

    def _set_health(self, online: bool, detail: str) -> None:
        if self._online == online:
            return
        self._online = online
        self._emit_health(HealthReading(self.name, online, detail))

    def _emit_health(self, reading: HealthReading) -> None:
        if self._on_health is not None:
            self._deliver(reading, self._on_health)

    def _deliver(self, reading: TagReading | HealthReading, callback: Callable[[Any], None] | None = None) -> None:
        # A failing callback upstream must not kill the reading thread: log it and read on.
        try:
            (callback or self._on_reading)(reading)
        except Exception:
            log.exception("hub %s: handing on %r failed", self.name, reading)


# -- the simulated hub --------------------------------------------------------------------------


class SimulatedHub:
    """A fake hub microcontroller on a pseudo-terminal that speaks the protocol like the firmware."""

    def __init__(
        self,
        readers: int = 4,
        serial_number: str = "TLHUB-SIM",
        firmware: str = "touchline-hub-sim",
        heartbeat: float | None = 1.0,
        protocol_version: int = PROTOCOL_VERSION,
    ) -> None:
        self.readers = readers
        self.serial_number = serial_number
        self.firmware = firmware
        self.protocol_version = protocol_version
        self.heartbeat = heartbeat
        self.received: list[bytes] = []
        self.frozen = False
        self._cards: dict[int, str] = {}
        self._down: dict[int, str] = {}
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._path: str | None = None
        self._beats = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"simhub-{serial_number}", daemon=True)
        self.replug()
        self._thread.start()

    @property
    def device(self) -> str | None:
        """The path of the hub's serial port while it is plugged in."""
        return self._path

    def comports(self) -> list[Any]:
        """What ``serial.tools.list_ports.comports()`` would list for this hub (nothing when unplugged)."""
        from serial.tools.list_ports_common import ListPortInfo

        if self._path is None:
            return []
        info = ListPortInfo(self._path, skip_link_detection=True)
        info.serial_number = self.serial_number
        info.vid, info.pid = 0x2341, 0x0043  # an Arduino Uno's USB ids
        info.description = "Touchline RFID hub (simulated)"
        return [info]

    def place(self, reader: int, uid: bytes | str, garbled: bool = False) -> None:
        """Put a card with this UID on reader ``reader`` (1-based); ``garbled``: its TAG line is damaged on the way."""
        text = uid.hex().upper() if isinstance(uid, bytes) else uid.replace("-", "").replace(":", "").upper()
        self._check_reader(reader)
        with self._lock:
            self._cards[reader] = text
            if reader not in self._down:
                line = bytearray(encode_line("TAG", reader, text))
                if garbled:
                    line[5] ^= 0x01  # one flipped bit in the reader number: the checksum no longer matches
                self._write(bytes(line))

    def lift(self, reader: int) -> None:
        """Take the card off reader ``reader``."""
        self._check_reader(reader)
        with self._lock:
            uid = self._cards.pop(reader, None)
            if uid is not None and reader not in self._down:
                self._send("GONE", reader, uid)

    def reader_down(self, reader: int, detail: str = "version register read 0x00") -> None:
        """Make one of the hub's readers stop answering, as the firmware reports it."""
        with self._lock:
            self._down[reader] = detail
            self._send("READER", reader, "DOWN", detail)

    def reader_up(self, reader: int, version: str = "0x92") -> None:
        """Bring a reader back."""
        with self._lock:
            self._down.pop(reader, None)
            self._send("READER", reader, "UP", version)

    def send_raw(self, line: bytes | str) -> None:
        """Write arbitrary bytes to the host, e.g. a garbled line."""
        self._write(line.encode("latin-1") if isinstance(line, str) else line)

    def beat(self) -> None:
        """Send one heartbeat now."""
        self._beats += 1
        self._send("BEAT", self._beats)

    def hello(self) -> None:
        """Send the hello and the state of every reader, as the firmware does at boot and when asked."""
        with self._lock:
            self._send("HELLO", self.protocol_version, self.readers, self.firmware)
            for reader in range(1, self.readers + 1):
                if reader in self._down:
                    self._send("READER", reader, "DOWN", self._down[reader])
                elif reader in self._cards:
                    self._send("TAG", reader, self._cards[reader])
            self._send("SYNC")

    def unplug(self) -> None:
        """Pull the USB cable: the port disappears."""
        with self._lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None
            self._path = None

    def replug(self) -> None:
        """Plug the cable back in: a new port appears and the hub boots and says hello."""
        with self._lock:
            if self._master is not None:
                return
            master, slave = os.openpty()
            # Raw mode before anyone opens the port, so nothing we write is echoed back to us.
            tty.setraw(slave)
            os.set_blocking(master, False)
            self._master, self._slave, self._path = master, slave, os.ttyname(slave)
            self.hello()

    def close(self) -> None:
        """Stop the fake microcontroller and remove its port."""
        self._stop.set()
        self._thread.join(timeout=5)
        self.unplug()

    def _check_reader(self, reader: int) -> None:
        if not 1 <= reader <= self.readers:
            raise DriverConfigError(f"The simulated hub has readers 1..{self.readers}, not {reader}.")

    def _send(self, kind: str, *fields: object) -> None:
        self._write(encode_line(kind, *fields))

    def freeze(self) -> None:
        """Hang the microcontroller: it stays plugged in but sends nothing and answers nothing."""
        self.frozen = True

    def thaw(self) -> None:
        """Let a frozen microcontroller run again."""
        self.frozen = False

    def _write(self, data: bytes) -> None:
        with self._lock:
            if self._master is None or self.frozen:
                return  # unplugged: the bytes go nowhere, as on a real cable
            try:
                os.write(self._master, data)
            except BlockingIOError:
                pass  # nobody is reading and the buffer is full: a UART drops bytes the same way
            except OSError as exc:
                if exc.errno not in (errno.EIO, errno.EBADF):
                    raise

    def _run(self) -> None:
        pending = bytearray()
        next_beat = time.monotonic() + (self.heartbeat or 0)
        while not self._stop.is_set():
            master = self._master
            if master is None:
                self._stop.wait(0.05)
                continue
            try:
                ready, _, _ = select.select([master], [], [], 0.05)
                data = os.read(master, 256) if ready else b""
            except (OSError, ValueError):
                data = b""  # unplugged between the check and the read
            pending.extend(data)
            while b"\n" in pending:
                end = pending.index(b"\n")
                line = bytes(pending[: end + 1])
                del pending[: end + 1]
                self.received.append(line)
                if line.strip() == encode_line(QUERY).strip():
                    self.hello()
            if self.heartbeat and time.monotonic() >= next_beat:
                next_beat = time.monotonic() + self.heartbeat
                self.beat()


def open_hub(
    on_reading: Callable[[TagReading], None],
    *,
    serial_number: str | None = None,
    port: str | None = None,
    name: str = "hub",
    readers: int = 4,
    on_health: Callable[[HealthReading], None] | None = None,
    reader_names: Mapping[int, str] | None = None,
    baudrate: int = BAUDRATE,
    backend: str | None = None,
) -> SerialHub:
    """Open a hub (not yet started): the real port, or in simulation a ``SimulatedHub`` as ``hub.simulator``."""
    simulator: SimulatedHub | None = None
    list_ports = None
    if isinstance(readers, bool) or not isinstance(readers, int) or readers < 1:
        raise DriverConfigError(BAD_READER_COUNT.format(name=name, readers=readers))
    if default_backend(backend) == "sim":
        simulator = SimulatedHub(readers=readers, serial_number=serial_number or f"SIM-{name}")
        serial_number, port, list_ports = simulator.serial_number, None, simulator.comports
    try:
        hub = SerialHub(
            on_reading,
            serial_number=serial_number,
            port=port,
            name=name,
            on_health=on_health,
            reader_names=reader_names,
            baudrate=baudrate,
            list_ports=list_ports,
        )
    except BaseException:
        if simulator is not None:
            simulator.close()  # nothing will ever close the fake microcontroller otherwise
        raise
    hub.simulator = simulator
    return hub
