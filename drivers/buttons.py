"""Seat buttons on GPIO through gpiozero: short press, hold, and debouncing done here.

gpiozero's ``MockPin`` ignores ``bounce_time`` and its hold timer runs on real time, so both are
ours: every raw edge goes into a ``Debouncer`` with a timestamp from an injectable clock, and a
small thread wakes only at the next deadline (end of a debounce interval or of a hold).  In
simulation every device gets gpiozero's ``MockFactory`` explicitly, so real and mock pins never mix.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from drivers.base import ButtonReading, default_backend
from drivers.errors import DeviceIOError, DriverConfigError
from drivers.memory import import_parts

log = logging.getLogger(__name__)

DEBOUNCE = 0.03  # contacts of cheap arcade buttons chatter for up to ~20 ms
HOLD_TIME = 1.0

DUPLICATE_BUTTON = "A button named {name!r} is already set up: give each button its own name."
PIN_REFUSED = "GPIO {pin} cannot be used for the button {name!r}: {reason}"
UNKNOWN_BUTTON = "There is no button named {name!r}; known buttons: {known}."
LED_MODES = ("on", "off", "blink")
BAD_LED_MODE = "The LED of {name!r} can be 'on', 'off' or 'blink', not {mode!r}."
BAD_TIMING = ("The button {name!r} needs seconds with 0 <= debounce < hold time (got debounce={debounce!r}, "
              "hold_time={hold_time!r}).")
NO_LED = "The button {name!r} has no LED: give it an led_pin in the table file."


class Debouncer:
    """Turns raw, chattering edges of one button into debounced presses and holds.

    A closing contact counts only once it has stayed closed for ``debounce`` seconds.  With a hold
    time, ``press`` comes on release (the button might still become a hold); ``hold`` comes as soon
    as the button has been down for ``hold_time``, and its release then says nothing.  Without a
    hold time, ``press`` comes as soon as the button is down.

    A release is acted on at its first edge: the contact has then been proven closed for a whole
    debounce interval, so the edge is a finger letting go, not chatter.  The chatter of the opening
    contact that follows only closes it for moments shorter than ``debounce``, which never count as
    a new press.  Waiting for the open level to settle would hold every press back by ``debounce``.
    """

    def __init__(self, name: str, debounce: float = DEBOUNCE, hold_time: float | None = HOLD_TIME) -> None:
        numbers = (debounce,) if hold_time is None else (debounce, hold_time)
        if not all(isinstance(n, (int, float)) and not isinstance(n, bool) for n in numbers) \
                or debounce < 0 or (hold_time is not None and hold_time <= debounce):
            raise DriverConfigError(BAD_TIMING.format(name=name, debounce=debounce, hold_time=hold_time))
        self.name = name
        self.debounce = debounce
        self.hold_time = hold_time
        self._raw = False
        self._raw_since = float("-inf")
        self._stable = False
        self._pressed_at = 0.0
        self._held = False
        self._settled: list[ButtonReading] = []  # decided at an edge, handed on at the next poll

    @property
    def pressed(self) -> bool:
        """The debounced state: True while the button is down."""
        return self._stable

    def edge(self, pressed: bool, now: float) -> None:
        """Record a raw level change seen on the pin at time ``now``."""
        if pressed != self._raw:
            # Settle what the old level decided before it ended: a press whose debounce interval (or a hold
            # whose hold time) ran out must count even if the thread that polls was late getting there.
            self._settled.extend(self._decide(now))
            self._raw = pressed
            self._raw_since = now
            if not pressed and self._stable and self.hold_time is not None:
                self._stable = False
                if not self._held:
                    self._settled.append(ButtonReading("press", self.name))

    def poll(self, now: float) -> list[ButtonReading]:
        """Return the readings that became due by ``now``."""
        readings, self._settled = self._settled, []
        readings.extend(self._decide(now))
        return readings

    def _decide(self, now: float) -> list[ButtonReading]:
        readings: list[ButtonReading] = []
        # Compared as ``now >= deadline`` exactly as next_deadline() computes it, so the thread
        # never wakes at a deadline that float rounding then says has not come yet.
        if self._raw != self._stable and now >= self._raw_since + self.debounce:
            self._stable = self._raw
            if self._stable:
                self._pressed_at = self._raw_since
                self._held = False
                if self.hold_time is None:
                    readings.append(ButtonReading("press", self.name))
            # A settled release says nothing: with a hold time, edge() acted on it at once.
        if self._hold_due(now):
            self._held = True
            readings.append(ButtonReading("hold", self.name))
        return readings

    def next_deadline(self) -> float | None:
        """When ``poll`` next has something to decide, or None while nothing is pending."""
        if self._settled:
            return float("-inf")
        if self._raw != self._stable:
            return self._raw_since + self.debounce
        if self._stable and self.hold_time is not None and not self._held:
            return self._pressed_at + self.hold_time
        return None

    def _hold_due(self, now: float) -> bool:
        return (
            self._stable
            and self.hold_time is not None
            and not self._held
            and now >= self._pressed_at + self.hold_time
        )


@dataclass(slots=True)
class _Seated:
    """One configured button: its gpiozero device, its debouncer and its optional LED."""

    pin: int | str
    device: Any
    debouncer: Debouncer
    led: Any = None


class Buttons:
    """The table's buttons: gpiozero inputs whose edges are debounced here and handed on as readings."""

    def __init__(
        self,
        on_reading: Callable[[ButtonReading], None],
        *,
        backend: str | None = None,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
        threaded: bool = True,
    ) -> None:
        self.backend = default_backend(backend)
        # gpiozero's package imports every board, motor and sensor it offers (0.5 MB); the table uses two devices.
        import_parts("gpiozero")
        if pin_factory is None and self.backend == "sim":
            from gpiozero.pins.mock import MockFactory

            pin_factory = MockFactory()
        # None on real hardware: gpiozero picks lgpio / RPi.GPIO itself.
        self.pin_factory = pin_factory
        self._on_reading = on_reading
        self.clock = clock
        self._buttons: dict[str, _Seated] = {}
        self._wake = threading.Condition()
        self._closed = False
        self._thread: threading.Thread | None = None
        if threaded:
            self._thread = threading.Thread(target=self._run, name="buttons", daemon=True)
            self._thread.start()

    def add(
        self,
        name: str,
        pin: int | str,
        *,
        hold_time: float | None = HOLD_TIME,
        debounce: float = DEBOUNCE,
        pull_up: bool = True,
        led_pin: int | str | None = None,
    ) -> None:
        """Set up a button (wired to ground with the internal pull-up by default) and its optional LED."""
        # DigitalInputDevice, not Button: Button's own hold thread runs on real time (and makes
        # close() wait up to its hold time); holds are timed here instead.
        from gpiozero.exc import GPIOZeroError
        from gpiozero.input_devices import DigitalInputDevice
        from gpiozero.output_devices import LED

        if name in self._buttons:
            raise DriverConfigError(DUPLICATE_BUTTON.format(name=name))
        debouncer = Debouncer(name, debounce, hold_time)
        try:
            # bounce_time stays None: the library's debouncing is not used (and MockPin ignores it).
            device = DigitalInputDevice(pin, pull_up=pull_up, bounce_time=None, pin_factory=self.pin_factory)
        except (GPIOZeroError, OSError, RuntimeError) as exc:
            raise DriverConfigError(PIN_REFUSED.format(pin=pin, name=name, reason=exc)) from exc
        led = None
        if led_pin is not None:
            try:
                led = LED(led_pin, pin_factory=self.pin_factory)
            except (GPIOZeroError, OSError, RuntimeError) as exc:
                device.close()
                raise DriverConfigError(PIN_REFUSED.format(pin=led_pin, name=f"{name} LED", reason=exc)) from exc
        with self._wake:
            # The pin may already be down when we start (a stuck button): that is not a press.
            debouncer.edge(device.is_active, float("-inf"))
            debouncer.poll(self.clock())
            self._buttons[name] = _Seated(pin, device, debouncer, led)
        device.when_activated = lambda: self._edge(name, True)
        device.when_deactivated = lambda: self._edge(name, False)
        log.info("button %s on GPIO %s%s", name, pin, f", LED on GPIO {led_pin}" if led_pin is not None else "")

    @property
    def names(self) -> list[str]:
        """The names of the buttons set up so far."""
        return list(self._buttons)

    def is_pressed(self, name: str) -> bool:
        """The debounced state of one button."""
        return self._get(name).debouncer.pressed

    def set_led(self, name: str, mode: Literal["on", "off", "blink"]) -> None:
        """Switch a button's LED on, off, or make it blink (e.g. 'your turn to roll')."""
        seated = self._get(name)
        if seated.led is None:
            raise DriverConfigError(NO_LED.format(name=name))
        if mode not in LED_MODES:
            raise DriverConfigError(BAD_LED_MODE.format(name=name, mode=mode))
        try:
            if mode == "blink":
                seated.led.blink(on_time=0.3, off_time=0.3)
            elif mode == "on":
                seated.led.on()
            else:
                seated.led.off()
        except OSError as exc:
            raise DeviceIOError(f"The LED of {name!r} did not switch: {exc}") from exc

    def led_is_lit(self, name: str) -> bool:
        """Whether a button's LED is lit right now."""
        seated = self._get(name)
        return bool(seated.led is not None and seated.led.is_lit)

    def simulated(self, name: str) -> SimulatedButton:
        """The simulated button behind ``name`` (simulation only)."""
        from gpiozero.pins.mock import MockFactory

        if not isinstance(self.pin_factory, MockFactory):
            raise DriverConfigError("Buttons can only be pressed by software in simulation (TOUCHLINE_BACKEND=sim).")
        return SimulatedButton(self, name)

    def service(self) -> None:
        """Hand on every reading that is due now; the thread calls this, and tests with a manual clock do."""
        readings: list[ButtonReading] = []
        with self._wake:
            now = self.clock()
            for seated in self._buttons.values():
                readings.extend(seated.debouncer.poll(now))
        for reading in readings:
            log.info("button %s: %s", reading.button, reading.kind)
            try:
                self._on_reading(reading)
            except Exception:
                # A failing callback upstream must not kill the buttons' thread.
                log.exception("button %s: handing on %r failed", reading.button, reading)

    def close(self) -> None:
        """Stop the thread and release every pin."""
        with self._wake:
            self._closed = True
            self._wake.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)
        for seated in self._buttons.values():
            seated.device.close()
            if seated.led is not None:
                seated.led.close()
        self._buttons.clear()

    def _get(self, name: str) -> _Seated:
        try:
            return self._buttons[name]
        except KeyError:
            raise DriverConfigError(UNKNOWN_BUTTON.format(name=name, known=sorted(self._buttons))) from None

    def _edge(self, name: str, pressed: bool) -> None:
        # Called from gpiozero's callback thread (or, for a MockPin, from whoever drives it).
        with self._wake:
            seated = self._buttons.get(name)
            if seated is not None:
                seated.debouncer.edge(pressed, self.clock())
                self._wake.notify_all()

    def _next_deadline(self) -> float | None:
        deadlines = [d for s in self._buttons.values() if (d := s.debouncer.next_deadline()) is not None]
        return min(deadlines, default=None)

    def _run(self) -> None:
        while True:
            with self._wake:
                if self._closed:
                    return
                deadline = self._next_deadline()
                # Sleep until the next deadline or the next edge: no polling while nothing happens.
                timeout = None if deadline is None else max(0.0, deadline - self.clock())
                if timeout is None or timeout > 0:
                    self._wake.wait(timeout)
                if self._closed:
                    return
            self.service()


class SimulatedButton:
    """Drives a button's ``MockPin`` like a finger would: press, hold, release, chatter."""

    def __init__(self, buttons: Buttons, name: str) -> None:
        self._buttons = buttons
        seated = buttons._get(name)
        self.name = name
        self._debouncer = seated.debouncer
        self.pin = buttons.pin_factory.pin(seated.pin)
        self._active_low = bool(seated.device.pull_up)

    def down(self) -> None:
        """Close the contact (and leave it closed)."""
        self._drive(True)

    def up(self) -> None:
        """Open the contact."""
        self._drive(False)

    def press(self) -> None:
        """A short press: down for a moment, then released."""
        self.down()
        self._wait(self._debouncer.debounce * 2)
        self.up()
        self._wait(self._debouncer.debounce * 2)

    def hold(self) -> None:
        """Hold the button past its hold time, then release it."""
        self.down()
        self._wait((self._debouncer.hold_time or 0.0) + self._debouncer.debounce * 2)
        self.up()
        self._wait(self._debouncer.debounce * 2)

    def bounce(self, flips: int = 6, gap: float = 0.002, end_pressed: bool = True) -> None:
        """Chatter: ``flips`` quick level changes ``gap`` seconds apart, ending pressed or released."""
        for flip in range(flips):
            self._drive(end_pressed if flip % 2 == 0 else not end_pressed)
            self._wait(gap)
        self._drive(end_pressed)

    def _drive(self, pressed: bool) -> None:
        if pressed == self._active_low:
            self.pin.drive_low()
        else:
            self.pin.drive_high()

    def _wait(self, seconds: float) -> None:
        advance = getattr(self._buttons.clock, "advance", None)
        if advance is not None:
            # A manual clock: move it and let the buttons act, without sleeping real time.
            advance(seconds)
            self._buttons.service()
        else:
            time.sleep(seconds)
