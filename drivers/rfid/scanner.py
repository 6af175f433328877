"""Polls every reader round-robin in one thread and turns what it sees into taps, lifts and health readings.

A card counts as arrived (``tap``) on the first poll that reads its whole UID, and as gone (``lift``) only
after ``lift_after`` polls in a row find nothing, so a card slid on edgewise or a reader that drops a read
now and then gives exactly one tap and one lift.  A reader whose chip stops answering is reported offline
(with a lift for the card it held: the table cannot vouch for what it no longer senses) and is probed
again every ``retry_after`` sweeps until it answers, when it is set up again and reported back online.

The thread sleeps between sweeps on a lock that :meth:`Scanner.stop` releases, so it never spins and stops at once
(a bare lock wakes the thread more cheaply than an Event, which matters fifty times a second); readings go to
``on_reading`` from the scanner's thread (the device hands them to its event loop with
``loop.call_soon_threadsafe``).  Tests call :meth:`Scanner.sweep` directly instead of starting the thread.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from drivers.base import HealthReading, TagReading, format_uid
from drivers.errors import DriverConfigError, DriverError
from drivers.rfid.reader import describe_version, open_reader
from drivers.rfid.sim import SimRig

log = logging.getLogger(__name__)

Reading = TagReading | HealthReading

# Seconds between sweeps: a card is seen 10 ms after it lands on average, which leaves room in the 30 ms from a tap to
# the new frame on the glass for the game and for the I2C bus (bench_device). A sweep of five empty readers costs a
# Pi about 1 ms of CPU, so sweeping keeps about 5 % of a core busy.
SWEEP_INTERVAL = 0.02
LIFT_AFTER = 4  # empty polls in a row before a card counts as lifted (80 ms)
RETRY_AFTER = 50  # sweeps between probes of an offline reader (about one second)
SETTINGS_EVERY = 50  # sweeps between checks that each reader keeps its set-up (about one second)

BACK_ONLINE = "{chip} answers again on {label}."
SCANNER_DEAD = "The RFID scanner's thread has died: no pad is read any more."
SCANNER_STUCK = "The RFID scanner has not finished a sweep for {seconds:.0f} s: a reader or the SPI bus hangs."
SET_UP_AGAIN = ("The reader on {label} had lost its settings ({wrong}): a brown-out or a reset pulse on its line. "
                "It is set up again.")
DUPLICATE_NAMES = "Two readers share a name ({names}): give every pad its own name."
BAD_SETTINGS = ("The scanner needs interval > 0 seconds and whole numbers of sweeps lift_after >= 1, "
                "retry_after >= 1 and settings_every >= 1 (got interval={interval!r}, lift_after={lift_after!r}, "
                "retry_after={retry_after!r}, settings_every={settings_every!r}).")


class PollableReader(Protocol):
    """What the scanner needs from a reader (``drivers.rfid.reader.Reader`` is one)."""

    name: str

    @property
    def label(self) -> str:
        """Where the reader is wired."""
        ...

    def poll(self) -> bytes | None:
        """The UID on the reader, or None."""
        ...

    def reinit(self) -> int:
        """Set the chip up again; return its version."""
        ...

    def keep_settings(self) -> str | None:
        """Set the chip up again if it lost its settings; say what was wrong (None: nothing)."""
        ...


@dataclass
class _PadState:
    reader: PollableReader
    uid: bytes | None = None
    misses: int = 0
    online: bool = True
    offline_sweeps: int = 0


class Scanner:
    """Round-robin poller of several readers, with tap/lift hysteresis and offline detection."""

    def __init__(self, readers: Sequence[PollableReader], on_reading: Callable[[Reading], None], *,
                 interval: float = SWEEP_INTERVAL, lift_after: int = LIFT_AFTER,
                 retry_after: int = RETRY_AFTER, settings_every: int = SETTINGS_EVERY,
                 owns_readers: bool = False) -> None:
        names = [r.name for r in readers]
        if len(set(names)) != len(names):
            raise DriverConfigError(DUPLICATE_NAMES.format(names=", ".join(names)))
        counts_ok = all(isinstance(n, int) and not isinstance(n, bool) and n >= 1
                        for n in (lift_after, retry_after, settings_every))
        interval_ok = isinstance(interval, (int, float)) and not isinstance(interval, bool) and interval > 0
        if not counts_ok or not interval_ok:
            raise DriverConfigError(BAD_SETTINGS.format(interval=interval, lift_after=lift_after,
                                                        retry_after=retry_after, settings_every=settings_every))
        self._pads = [_PadState(r) for r in readers]
        self._on_reading = on_reading
        self._interval = interval
        self._lift_after = lift_after
        self._retry_after = retry_after
        self._settings_every = settings_every
        self._sweep_lock = threading.Lock()
        self._stopping = threading.Event()
        self._wake: threading.Lock | None = None  # held by the running thread's sweep wait; stop() releases it
        self._thread: threading.Thread | None = None
        self._owns_readers = owns_readers  # close the readers on stop()
        self.sweeps = 0
        self._started = time.monotonic()
        self.last_sweep: float | None = None
        """``time.monotonic()`` at the end of the last sweep: the watchdog's proof that the thread sweeps."""

    @property
    def present(self) -> dict[str, str | None]:
        """The card each reader holds now (formatted UID), by reader name."""
        return {p.reader.name: format_uid(p.uid) if p.uid else None for p in self._pads}

    @property
    def online(self) -> dict[str, bool]:
        """Whether each reader answers, by reader name."""
        return {p.reader.name: p.online for p in self._pads}

    def sweep(self) -> None:
        """Poll every reader once and hand on what changed."""
        with self._sweep_lock:
            self.sweeps += 1
            check = self.sweeps % self._settings_every == 0
            for pad in self._pads:
                if pad.online and check:
                    _, error = self._keep_settings(pad)
                    if error is not None:
                        self._offline(pad, str(error))
                if pad.online:
                    self._poll(pad)
                else:
                    self._retry(pad)
            self.last_sweep = time.monotonic()

    def _poll(self, pad: _PadState) -> None:
        failure: DriverError | None = None
        try:
            uid = pad.reader.poll()
        except DriverError as exc:  # chip gone, SPI failing, or the reader closed under us
            uid, failure = None, exc
        # A chip that stopped finishing commands, or stopped seeing the card that lay on it a sweep ago, may
        # have lost its set-up to a brown-out: restore it and look again, rather than report it gone.
        if failure is not None or (uid is None and pad.uid is not None and pad.misses == 0):
            restored, error = self._keep_settings(pad)
            if restored:
                try:
                    uid, failure = pad.reader.poll(), None
                except DriverError as exc:
                    failure = exc
            elif failure is None and error is not None:
                failure = error
        if failure is not None:
            self._offline(pad, str(failure))
            return
        if uid is None:
            pad.misses += 1
            if pad.uid is not None and pad.misses >= self._lift_after:
                self._lift(pad)
            return
        pad.misses = 0
        if uid != pad.uid:
            if pad.uid is not None:
                self._lift(pad)
            pad.uid = uid
            log.info("reader %s: card %s arrived", pad.reader.name, format_uid(uid))
            self._emit(TagReading("tap", pad.reader.name, format_uid(uid)))

    def _keep_settings(self, pad: _PadState) -> tuple[bool, DriverError | None]:
        """Check the reader's set-up and restore it: (whether it had been lost and is back, why it failed)."""
        keep = getattr(pad.reader, "keep_settings", None)
        if keep is None:
            return False, None
        try:
            wrong = keep()
        except DriverError as exc:
            return False, exc
        if not wrong:
            return False, None
        detail = SET_UP_AGAIN.format(label=pad.reader.label, wrong=wrong)
        log.warning("reader %s: %s", pad.reader.name, detail)
        self._emit(HealthReading(pad.reader.name, True, detail))
        return True, None

    def _lift(self, pad: _PadState) -> None:
        assert pad.uid is not None
        uid, pad.uid = format_uid(pad.uid), None
        log.info("reader %s: card %s went away", pad.reader.name, uid)
        self._emit(TagReading("lift", pad.reader.name, uid))

    def _offline(self, pad: _PadState, detail: str) -> None:
        if pad.uid is not None:
            self._lift(pad)
        pad.online, pad.misses, pad.offline_sweeps = False, 0, 0
        log.warning("reader %s is offline: %s", pad.reader.name, detail)
        self._emit(HealthReading(pad.reader.name, False, detail))

    def _retry(self, pad: _PadState) -> None:
        pad.offline_sweeps += 1
        if pad.offline_sweeps % self._retry_after:
            return
        try:
            version = pad.reader.reinit()
        except (DriverError, OSError) as exc:
            log.debug("reader %s still offline: %s", pad.reader.name, exc)
            return
        pad.online, pad.offline_sweeps = True, 0
        detail = BACK_ONLINE.format(chip=describe_version(version), label=pad.reader.label)
        log.info("reader %s is back online: %s", pad.reader.name, detail)
        self._emit(HealthReading(pad.reader.name, True, detail))

    def _emit(self, reading: Reading) -> None:
        try:
            self._on_reading(reading)
        except Exception:  # a failing consumer must not stop the readers
            log.exception("the RFID reading callback failed on %r", reading)

    # -- the thread --

    def start(self) -> None:
        """Start polling in a background thread (once)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stopping.clear()
        self._started = time.monotonic()
        self._wake = threading.Lock()
        self._wake.acquire()
        self._thread = threading.Thread(target=self._run, args=(self._wake,), name="rfid-scanner", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop polling, wait for the thread to finish its sweep, and close the readers if it owns them."""
        self._stopping.set()
        wake, self._wake = self._wake, None
        if wake is not None:
            try:
                wake.release()  # ends the thread's wait between sweeps at once
            except RuntimeError:
                pass  # already released
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        if self._owns_readers:
            with self._sweep_lock:
                for pad in self._pads:
                    close = getattr(pad.reader, "close", None)
                    if close is not None:
                        close()

    def _run(self, wake: threading.Lock) -> None:
        while not self._stopping.is_set():
            try:
                self.sweep()
            except Exception:
                log.exception("an RFID sweep failed; carrying on")
            if wake.acquire(timeout=self._interval):
                break  # stop() released it

    def stalled(self, limit: float) -> str | None:
        """Why the polling thread is not sweeping (dead, or no sweep for ``limit`` seconds); None while it is."""
        thread = self._thread
        if thread is None:
            return None  # not started: swept by hand (tests) or stopped on purpose
        if not thread.is_alive():
            return SCANNER_DEAD
        since = time.monotonic() - (self.last_sweep if self.last_sweep is not None else self._started)
        return SCANNER_STUCK.format(seconds=since) if since > limit else None

    def __enter__(self) -> Scanner:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def open_scanner(pads: Iterable[tuple[str, int, int, int]], on_reading: Callable[[Reading], None],
                 backend: str | None = None, *, rig: SimRig | None = None, gain_db: int | None = None,
                 **settings: Any) -> Scanner:
    """Open a reader per (name, bus, device, rst_pin) and a scanner over them that closes them on stop()."""
    readers: list[PollableReader] = []
    gain = {} if gain_db is None else {"gain_db": gain_db}
    try:
        for name, bus, device, rst_pin in pads:
            readers.append(open_reader(name, bus, device, rst_pin, backend, rig=rig, **gain))
        return Scanner(readers, on_reading, owns_readers=True, **settings)
    except BaseException:
        for reader in readers:
            reader.close()  # type: ignore[attr-defined]
        raise
