"""Probing every device of a table, one printable line each: what ``touchline hw-check`` prints.

The specs here are plain driver-level descriptions; the device layer maps the table file onto
them.  A hub gets its own line and, when its ``HubSpec.reader_names`` names the readers the table
uses on it, one line per reader (up, down and why, or missing from the hub); without names, the
hub's line names any reader the hub reports down.  Every probe works against the simulation too (``backend="sim"``), where it runs the same
driver code over the simulated chips and pins.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from drivers.base import HealthReading, default_backend

log = logging.getLogger(__name__)

HUB_HELLO_TIMEOUT = 3.0  # an Arduino that resets when its port opens needs about 2 s to boot

BUTTON_FOUND = "GPIO {pin}, reads released{led}"
BUTTON_STUCK = "GPIO {pin} reads pressed: a stuck or shorted button, or someone is holding it down"
HUB_TOO_FEW_READERS = (
    "the hub has {theirs} readers but the table file uses {ours}: list every SS pin in the firmware's SS_PINS"
)
HUB_READER_UP = "reader {number} of hub {hub}: the hub reports it answering"
HUB_READER_DOWN = "reader {number} of hub {hub} does not answer: {why}"
HUB_READER_ABSENT = "hub {hub} has readers 1-{readers}, so there is no reader {number}: check the table file"
HUB_READER_UNKNOWN = "not checked: hub {hub} did not answer"
HUB_SILENT = "port {port} opened, but the hub did not say hello within {seconds:.0f} s: is its firmware flashed?"

MISO_CLEAN = "{readers} readers checked against each other: none drives MISO while another is selected"
MISO_DRIVEN = ("the reader on {culprit} keeps driving MISO when it is not selected: {victim} read 0x{high:02X} or "
               "0x{low:02X} depending on what {culprit} sent last (0x{version:02X} when alone). Give that board a "
               "74HC125 buffer on MISO, or each reader its own SPI bus (docs/WIRING.md, \"Readers sharing MISO\")")
MISO_UNCHECKED = "not checked for readers driving MISO: {why}"

Kind = Literal["reader", "hub", "button", "display", "bus"]


@dataclass(frozen=True, slots=True)
class ReaderSpec:
    """An MFRC522 reader on an SPI chip select with its own reset pin."""

    name: str
    bus: int = 0
    device: int = 0
    rst_pin: int = 25


@dataclass(frozen=True, slots=True)
class HubSpec:
    """An RFID hub on USB serial, found by its USB serial number (or a fixed port)."""

    name: str
    serial_number: str | None = None
    port: str | None = None
    baud: int = 115200
    readers: int = 4
    reader_names: Mapping[int, str] = field(default_factory=dict)
    """The table's names of the hub's readers it uses, by number (1-based): each gets its own hw-check line.
    Empty: the hub's line alone, naming any reader the hub reports down."""


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """A seat button on a GPIO pin (to ground, internal pull-up), with an optional LED."""

    name: str
    gpio: int | str
    led_gpio: int | str | None = None
    pull_up: bool = True


@dataclass(frozen=True, slots=True)
class DisplaySpec:
    """An OLED panel on I2C (optionally behind a TCA9548A channel) or SPI."""

    name: str
    kind: Literal["ssd1306", "sh1106"] = "ssd1306"
    interface: Literal["i2c", "spi"] = "i2c"
    i2c_bus: int = 1
    address: int = 0x3C
    mux_address: int | None = None
    mux_channel: int | None = None
    spi_bus: int = 0
    spi_device: int = 0
    dc_pin: int = 24
    rst_pin: int = 25


Spec = ReaderSpec | HubSpec | ButtonSpec | DisplaySpec


@dataclass(frozen=True, slots=True)
class ProbeResult:
    """What a probe found: a device, whether it answered, and one sentence saying how or why not."""

    name: str
    kind: Kind
    ok: bool
    detail: str

    def line(self) -> str:
        """One printable line, e.g. ``ok       display  seat1: a display answers at 0x3C on I2C bus 1``."""
        return f"{'ok' if self.ok else 'MISSING':<8} {self.kind:<8} {self.name}: {self.detail}"

    def __str__(self) -> str:
        return self.line()


def probe_reader(spec: ReaderSpec, backend: str | None = None, rig: Any = None) -> ProbeResult:
    """Probe an MFRC522 reader: open it, read its version register, close it (``rig``: the simulation to use)."""
    from drivers.rfid import probe_reader as rfid_probe  # imports spidev/RPi.GPIO only on the real backend

    try:
        found, _, detail = rfid_probe(spec.name, spec.bus, spec.device, spec.rst_pin, backend, rig=rig)
    except Exception as exc:  # noqa: BLE001 - a probe reports every failure as a line, never crashes the check
        return ProbeResult(spec.name, "reader", False, f"probe failed on SPI{spec.bus}.{spec.device}: {exc}")
    return ProbeResult(spec.name, "reader", found, detail)


def check_shared_miso(specs: Iterable[ReaderSpec], backend: str | None = None, rig: Any = None) -> list[ProbeResult]:
    """For each SPI bus with two readers or more: does a reader keep driving MISO while another one is selected?

    A board that does holds MISO at the last bit it shifted out, so what another reader answers changes with
    that bit. Each reader's version register is read right after each other reader sent a register ending
    in 1 (ModeReg, 0x3D once set up) and one ending in 0 (VersionReg, 0x92); on a clean bus both reads agree.
    """
    from drivers.errors import DriverError
    from drivers.rfid import open_reader
    from drivers.rfid import registers as R

    by_bus: dict[int, list[ReaderSpec]] = {}
    for spec in specs:
        by_bus.setdefault(spec.bus, []).append(spec)
    results: list[ProbeResult] = []
    for bus, group in sorted(by_bus.items()):
        if len(group) < 2:
            continue
        name = f"SPI{bus}"
        readers: list[Any] = []
        try:
            for spec in group:
                readers.append(open_reader(spec.name, spec.bus, spec.device, spec.rst_pin, backend, rig=rig))
            culprits: list[str] = []
            for victim in readers:
                alone = victim.version()
                for culprit in readers:
                    if culprit is victim:
                        continue
                    culprit.register(R.MODE)
                    high = victim.version()
                    culprit.register(R.VERSION)
                    low = victim.version()
                    if high != low:
                        culprits.append(MISO_DRIVEN.format(culprit=culprit.label, victim=victim.label, high=high,
                                                           low=low, version=alone))
            unique = list(dict.fromkeys(culprits))
            results.append(ProbeResult(name, "bus", not unique,
                                       "; ".join(unique) or MISO_CLEAN.format(readers=len(readers))))
        except DriverError as exc:
            results.append(ProbeResult(name, "bus", False, MISO_UNCHECKED.format(why=exc)))
        finally:
            for reader in readers:
                reader.close()
    return results


def probe_hub(spec: HubSpec, backend: str | None = None, timeout: float | None = None) -> ProbeResult:
    """Open the hub's port, wait for its hello and report its protocol and readers (the hub's own line)."""
    return probe_hub_and_readers(spec, backend, timeout)[0]


def probe_hub_and_readers(spec: HubSpec, backend: str | None = None,
                          timeout: float | None = None) -> list[ProbeResult]:
    """The hub's line, then one line per reader the table uses on it (up, down and why, or not there)."""
    from drivers.hub import SerialHub, SimulatedHub

    timeout = HUB_HELLO_TIMEOUT if timeout is None else timeout
    health: list[HealthReading] = []
    simulator: SimulatedHub | None = None
    list_ports = None
    serial_number, port = spec.serial_number, spec.port
    if default_backend(backend) == "sim":
        simulator = SimulatedHub(readers=spec.readers, serial_number=serial_number or f"SIM-{spec.name}")
        serial_number, port, list_ports = simulator.serial_number, None, simulator.comports
    try:
        hub = SerialHub(lambda reading: None, serial_number=serial_number, port=port or None, name=spec.name,
                        on_health=health.append, list_ports=list_ports, baudrate=spec.baud,
                        reader_names=spec.reader_names)
    except ValueError as exc:
        if simulator is not None:
            simulator.close()
        return [ProbeResult(spec.name, "hub", False, str(exc))]
    hub.start()
    try:
        hello = hub.wait_for_hello(timeout)
        if hello is not None:
            hub.wait_for_sync(timeout)  # the readers that are down are listed between HELLO and SYNC
    finally:
        hub.close()
        if simulator is not None:
            simulator.close()
    # Without the table's names for the hub's readers, the hub's line alone speaks for them (naming any down).
    numbers = sorted(spec.reader_names)
    if hello is None:
        if hub.port is not None and not health:
            detail = HUB_SILENT.format(port=hub.port, seconds=timeout)
        else:
            detail = health[-1].detail if health else HUB_SILENT.format(port=hub.port, seconds=timeout)
        unknown = HUB_READER_UNKNOWN.format(hub=spec.name)
        return [ProbeResult(spec.name, "hub", False, detail),
                *(ProbeResult(hub.reader_name(n), "reader", False, unknown) for n in numbers)]
    said = [r.detail for r in health if r.online and r.device == spec.name][-1:] or [hub.port or ""]
    used = max(numbers, default=spec.readers)
    problems = [HUB_TOO_FEW_READERS.format(theirs=hello.readers, ours=used)] if used > hello.readers else []
    if not numbers:
        problems += [f"{hub.reader_name(n)} down ({why})" for n, why in sorted(hub.readers_down.items())]
    results = [ProbeResult(spec.name, "hub", not problems, "; ".join(said + problems))]
    for number in numbers:
        name = hub.reader_name(number)
        if number > hello.readers:
            results.append(ProbeResult(name, "reader", False, HUB_READER_ABSENT.format(
                number=number, hub=spec.name, readers=hello.readers)))
        elif number in hub.readers_down:
            results.append(ProbeResult(name, "reader", False, HUB_READER_DOWN.format(
                number=number, hub=spec.name, why=hub.readers_down[number])))
        else:
            results.append(ProbeResult(name, "reader", True, HUB_READER_UP.format(number=number, hub=spec.name)))
    return results


def probe_button(spec: ButtonSpec, backend: str | None = None, pin_factory: Any = None) -> ProbeResult:
    """Claim the button's pin (and LED pin) and read it: released is right, pressed means stuck."""
    from drivers.buttons import Buttons

    buttons = Buttons(lambda reading: None, backend=backend, pin_factory=pin_factory, threaded=False)
    try:
        buttons.add(spec.name, spec.gpio, pull_up=spec.pull_up, led_pin=spec.led_gpio)
    except ValueError as exc:
        return ProbeResult(spec.name, "button", False, str(exc))
    try:
        if buttons.is_pressed(spec.name):
            return ProbeResult(spec.name, "button", False, BUTTON_STUCK.format(pin=spec.gpio))
        led = f", LED on GPIO {spec.led_gpio}" if spec.led_gpio is not None else ""
        return ProbeResult(spec.name, "button", True, BUTTON_FOUND.format(pin=spec.gpio, led=led))
    finally:
        buttons.close()


def probe_display(spec: DisplaySpec, backend: str | None = None, simulation: Any = None) -> ProbeResult:
    """Check that a panel (and its multiplexer) answers on its bus, without drawing on it."""
    from drivers.displays import Display

    try:
        bus = spec.spi_bus if spec.interface == "spi" else spec.i2c_bus
        display = Display(spec.name, kind=spec.kind, interface=spec.interface, bus=bus,
                          address=spec.address, mux_address=spec.mux_address, mux_channel=spec.mux_channel,
                          spi_device=spec.spi_device, dc_pin=spec.dc_pin, rst_pin=spec.rst_pin,
                          backend=backend, simulation=simulation)
    except ValueError as exc:
        return ProbeResult(spec.name, "display", False, str(exc))
    try:
        found, detail = display.probe()
    finally:
        display.close()
    return ProbeResult(spec.name, "display", found, f"{spec.kind.upper()}: {detail}")


def probe(spec: Spec, backend: str | None = None) -> ProbeResult:
    """Probe one device of any kind (for a hub, its own line only)."""
    if isinstance(spec, ReaderSpec):
        return probe_reader(spec, backend)
    if isinstance(spec, HubSpec):
        return probe_hub(spec, backend)
    if isinstance(spec, ButtonSpec):
        return probe_button(spec, backend)
    return probe_display(spec, backend)


def probe_all(specs: Iterable[Spec], backend: str | None = None, rig: Any = None) -> list[ProbeResult]:
    """Probe every device in order (a hub followed by its readers), then each SPI bus shared by readers;
    one failing never stops the others."""
    results: list[ProbeResult] = []
    readers: list[ReaderSpec] = []
    answering: set[int] = set()  # buses where some reader answered
    for spec in specs:
        try:
            if isinstance(spec, HubSpec):
                results.extend(probe_hub_and_readers(spec, backend))
            elif isinstance(spec, ReaderSpec):
                results.append(probe_reader(spec, backend, rig))
                readers.append(spec)
                if results[-1].ok:
                    answering.add(spec.bus)
            else:
                results.append(probe(spec, backend))
        except Exception as exc:  # noqa: BLE001 - an unexpected failure is still one line of the report
            log.exception("probing %s failed", spec.name)
            results.append(ProbeResult(spec.name, _kind_of(spec), False, f"probe failed: {exc}"))
    # A reader that keeps driving MISO makes its neighbours read as missing: check every reader of a bus where
    # one answered (a bus with none has a wiring or overlay problem the reader lines already name).
    results.extend(check_shared_miso([r for r in readers if r.bus in answering], backend, rig))
    return results


def _kind_of(spec: Spec) -> Kind:
    return {ReaderSpec: "reader", HubSpec: "hub", ButtonSpec: "button"}.get(type(spec), "display")  # type: ignore[return-value]
