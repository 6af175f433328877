"""Probing every device of a table, one printable line each: what ``touchline hw-check`` prints.

The specs here are plain driver-level descriptions; the device layer maps the table file onto
them.  Every probe works against the simulation too (``backend="sim"``), where it runs the same
driver code over the simulated chips and pins.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from drivers.base import HealthReading, default_backend

log = logging.getLogger(__name__)

HUB_HELLO_TIMEOUT = 3.0  # an Arduino that resets when its port opens needs about 2 s to boot

READER_PROBE_MISSING = "reader probing is not available: drivers.rfid.probe_reader is missing from this build"
BUTTON_FOUND = "GPIO {pin}, reads released{led}"
BUTTON_STUCK = "GPIO {pin} reads pressed: a stuck or shorted button, or someone is holding it down"
HUB_TOO_FEW_READERS = (
    "the hub has {theirs} readers but the table file uses {ours}: list every SS pin in the firmware's SS_PINS"
)
HUB_SILENT = "port {port} opened, but the hub did not say hello within {seconds:.0f} s: is its firmware flashed?"

Kind = Literal["reader", "hub", "button", "display"]


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


def probe_reader(spec: ReaderSpec, backend: str | None = None) -> ProbeResult:
    """Probe an MFRC522 reader through ``drivers.rfid.probe_reader`` (version register, reset pin)."""
    try:
        from drivers.rfid import probe_reader as rfid_probe  # the reader engineer's module, loaded late
    except ImportError:
        return ProbeResult(spec.name, "reader", False, READER_PROBE_MISSING)
    try:
        found, version, detail = rfid_probe(spec.name, spec.bus, spec.device, spec.rst_pin, backend)
    except Exception as exc:  # noqa: BLE001 - a probe reports every failure as a line, never crashes the check
        return ProbeResult(spec.name, "reader", False, f"probe failed on SPI{spec.bus}.{spec.device}: {exc}")
    if not detail:
        where = f"SPI{spec.bus}.{spec.device}, reset GPIO {spec.rst_pin}"
        detail = f"MFRC522 version {version} on {where}" if found else f"no MFRC522 on {where}"
    return ProbeResult(spec.name, "reader", bool(found), detail)


def probe_hub(spec: HubSpec, backend: str | None = None, timeout: float = HUB_HELLO_TIMEOUT) -> ProbeResult:
    """Open the hub's port, wait for its hello and report its protocol, readers and any reader it says is down."""
    from drivers.hub import SerialHub, SimulatedHub

    health: list[HealthReading] = []
    simulator: SimulatedHub | None = None
    list_ports = None
    serial_number, port = spec.serial_number, spec.port
    if default_backend(backend) == "sim":
        simulator = SimulatedHub(readers=spec.readers, serial_number=serial_number or f"SIM-{spec.name}")
        serial_number, port, list_ports = simulator.serial_number, None, simulator.comports
    try:
        hub = SerialHub(lambda reading: None, serial_number=serial_number, port=port or None, name=spec.name,
                        on_health=health.append, list_ports=list_ports, baudrate=spec.baud)
    except ValueError as exc:
        return ProbeResult(spec.name, "hub", False, str(exc))
    hub.start()
    try:
        hello = hub.wait_for_hello(timeout)
        if hello is None:
            if hub.port is not None and not health:
                return ProbeResult(spec.name, "hub", False, HUB_SILENT.format(port=hub.port, seconds=timeout))
            detail = health[-1].detail if health else HUB_SILENT.format(port=hub.port, seconds=timeout)
            return ProbeResult(spec.name, "hub", False, detail)
        detail = [r.detail for r in health if r.online and r.device == spec.name][-1:] or [hub.port or ""]
        down = [f"{r.device} down ({r.detail})" for r in health if not r.online and r.device != spec.name]
        if hello.readers < spec.readers:
            down.append(HUB_TOO_FEW_READERS.format(theirs=hello.readers, ours=spec.readers))
        return ProbeResult(spec.name, "hub", not down, "; ".join(detail + down))
    finally:
        hub.close()
        if simulator is not None:
            simulator.close()


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
    """Probe one device of any kind."""
    if isinstance(spec, ReaderSpec):
        return probe_reader(spec, backend)
    if isinstance(spec, HubSpec):
        return probe_hub(spec, backend)
    if isinstance(spec, ButtonSpec):
        return probe_button(spec, backend)
    return probe_display(spec, backend)


def probe_all(specs: Iterable[Spec], backend: str | None = None) -> list[ProbeResult]:
    """Probe every device in order; one failing never stops the others."""
    results = []
    for spec in specs:
        try:
            result = probe(spec, backend)
        except Exception as exc:  # noqa: BLE001 - an unexpected failure is still one line of the report
            log.exception("probing %s failed", spec.name)
            result = ProbeResult(spec.name, _kind_of(spec), False, f"probe failed: {exc}")
        results.append(result)
    return results


def _kind_of(spec: Spec) -> Kind:
    return {ReaderSpec: "reader", HubSpec: "hub", ButtonSpec: "button"}.get(type(spec), "display")  # type: ignore[return-value]
