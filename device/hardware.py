"""The table's drivers as a table file describes them: readers (SPI or behind a hub), buttons and screens."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from device import screens
from device.screens import SeatScreen
from device.table_file import TableConfig


class Hardware(Protocol):
    """The table's drivers as the running table uses them (real from the table file, or simulated)."""

    sim: Any
    """The simulated hardware facade (``web.interface.SimulatedHardware``), or None on a real table."""
    drawing: threading.Lock
    """Held while frames are drawn (one redraw at a time); a simulated screen's frame is read under it, so a frame
    being drawn is read once it is drawn."""

    def start(self, emit: Callable[[Any], None]) -> None:
        """Start the readers' and buttons' threads; they call ``emit(reading)`` from their threads."""

    def stop(self) -> None:
        """Stop the threads and release the hardware."""

    def show(self, screen_id: str, screen: SeatScreen, page: int = 0) -> None:
        """Draw one page of what a screen says on its display."""

    def lights(self, lit: Iterable[int]) -> None:
        """Light the buttons of these seats, the others off."""

    def stalled(self) -> str | None:
        """Which driver thread stopped working, in a sentence (the watchdog then lets systemd restart the table)."""


DEFAULT_READER_RST = 25
STALL_SECONDS = 10.0
"""A scanner or hub thread silent this long has hung: a sweep takes milliseconds, a hub read at most 0.1 s."""
"""The reset GPIO of a reader whose table file names none (the wiring the README shows)."""


class TableHardware:
    """The drivers a table file describes: readers (SPI or on a hub), buttons, screens, on one backend."""

    sim: Any = None

    def __init__(self, config: TableConfig, *, backend: str, clock: Callable[[], float] | None = None,
                 threaded: bool = True, rig: Any = None, displays: Any = None) -> None:
        from drivers.displays import Display

        self.config = config
        self.backend = backend
        self.drawing = threading.Lock()
        self.clock = clock
        self.threaded = threaded
        self.rig = rig
        self._claim: Any = None
        self._emit: Callable[[Any], None] | None = None
        self.readers: dict[str, Any] = {}
        self.hubs: dict[str, Any] = {}
        self.scanner: Any = None
        self.buttons: Any = None
        self.displays: dict[str, Display] = {}
        for s in config.screens():
            options: dict[str, Any] = {"backend": backend, "on_health": self._health, "simulation": displays}
            if s.interface == "spi":
                options.update(bus=s.spi_bus or 0, spi_device=s.spi_device or 0, dc_pin=s.dc_pin or 24,
                               rst_pin=s.rst_pin or DEFAULT_READER_RST)
            else:
                options.update(bus=s.i2c_bus, address=s.address, mux_address=s.mux_address, mux_channel=s.mux_channel)
            display = Display(s.id, kind=s.kind, interface=s.interface, **options)  # type: ignore[arg-type]
            display.open()  # a panel that does not answer is reported and retried, never fatal
            self.displays[s.id] = display

    def _health(self, reading: Any) -> None:
        # Before start() the display driver's own log line is all there is to say.
        if self._emit is not None:
            self._emit(reading)

    def start(self, emit: Callable[[Any], None]) -> None:
        """Open the readers and buttons and start their threads; readings go to ``emit`` from those threads."""
        from drivers.buttons import Buttons
        from drivers.hub import open_hub
        from drivers.rfid import Scanner, open_reader

        from drivers.base import default_backend
        from drivers.claim import claim_hardware

        self._emit = emit
        if default_backend(self.backend) == "real" and self._claim is None:
            # hw-check, enroll or another table on the same pins would fight this one over every line and bus.
            self._claim = claim_hardware()
        spi = [p for p in self.config.pads() if p.hub is None]
        for pad in spi:
            extra = {"rig": self.rig} if self.rig is not None else {}
            self.readers[pad.id] = open_reader(pad.id, int(pad.bus or 0), int(pad.device or 0),
                                               pad.rst_pin or DEFAULT_READER_RST, self.backend, gain_db=pad.gain_db,
                                               **extra)
        self.scanner = Scanner(list(self.readers.values()), emit)
        if self.threaded:
            self.scanner.start()
        for hub in self.config.hubs:
            names = {int(p.reader or 0): p.id for p in self.config.pads() if p.hub == hub.name}
            self.hubs[hub.name] = open_hub(emit, serial_number=hub.serial, port=hub.port, name=hub.name, readers=hub.readers,
                                           on_health=emit, reader_names=names, baudrate=hub.baud, backend=self.backend)
            if self.threaded:
                self.hubs[hub.name].start()
        options: dict[str, Any] = {"backend": self.backend, "threaded": self.threaded}
        if self.clock is not None:
            options["clock"] = self.clock
        self.buttons = Buttons(emit, **options)
        for button in self.config.buttons():
            self.buttons.add(button.id, button.gpio, hold_time=button.hold_seconds, led_pin=button.led_gpio)

    def stop(self) -> None:
        """Stop the threads and release every device."""
        if self.scanner is not None:
            self.scanner.stop()
        for reader in self.readers.values():
            reader.close()
        for hub in self.hubs.values():
            hub.close()
        if self.buttons is not None:
            self.buttons.close()
        for display in self.displays.values():
            display.close()
        self.readers, self.hubs, self.scanner, self.buttons = {}, {}, None, None
        if self._claim is not None:
            self._claim.release()
            self._claim = None

    def stalled(self) -> str | None:
        """Which driver thread stopped working, in a sentence; None while the scanner and every hub thread turn."""
        threads = [self.scanner, *self.hubs.values()] if self.threaded else []
        for thread in threads:
            stuck = thread.stalled(STALL_SECONDS) if thread is not None else None
            if stuck:
                return str(stuck)
        return None

    def card_id_on(self, pad: str) -> str | None:
        """The card id written on the MIFARE Classic tag lying on a pad (by ``touchline enroll``), or None."""
        from drivers.errors import DriverError

        reader = self.readers.get(pad)
        if reader is None:
            return None
        try:
            return str(reader.read_card_id()[1])
        except (DriverError, OSError, ValueError):  # not a Classic card, no id written, or the card left
            return None

    def write_card_id(self, pad: str, card_id: str) -> None:
        """Write a card id onto the MIFARE Classic tag lying on a pad (ValueError/OSError when it cannot)."""
        reader = self.readers.get(pad)
        if reader is None:
            raise NotImplementedError(f"Pad {pad} is read through a hub, which cannot write tags.")
        reader.write_card_id(card_id)

    def lights(self, lit: Iterable[int]) -> None:
        """Light the buttons of the seats the table waits for (a press, a hold or a tap), the others off."""
        if self.buttons is None:
            return
        wanted = set(lit)
        for button in self.config.buttons():
            if button.led_gpio is None or button.seat is None:
                continue
            on = button.seat in wanted
            if self.buttons.led_is_lit(button.id) != on:
                self.buttons.set_led(button.id, "on" if on else "off")

    def show(self, screen_id: str, screen: SeatScreen, page: int = 0) -> None:
        """Draw one page of what a screen says on its display (rendered with the bundled font, sent through luma)."""
        display = self.displays.get(screen_id)
        if display is not None:
            display.show(screens.render(screen, page))


