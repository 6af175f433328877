"""Figures for the hub, the buttons and the displays, side by side with their targets.

- hub: time from a card landing on a simulated hub (pty, real pyserial) to its ``tap`` reading, and
  the CPU the driver and the fake hub use while nothing happens;
- buttons: time from a (simulated) press to its reading on the real clock, beyond the debounce time;
- displays: I2C bytes per frame to a panel behind a TCA9548A (what decides the frame rate on a real bus).
"""

from __future__ import annotations

import statistics
import threading
import time
from typing import Any

TAP_MEDIAN_MS = 20.0
HUB_IDLE_CPU_PERCENT = 2.0
BUTTON_EXTRA_MS = 15.0
BYTES_PER_FRAME = 1100  # 1024 bytes of pixels plus framing: ~25 ms per frame at 400 kHz
SAMPLES = 30


def _hub_figures() -> tuple[float, float]:
    from drivers.hub import SerialHub, SimulatedHub

    arrived = threading.Event()
    simulated = SimulatedHub(readers=4, serial_number="BENCH", heartbeat=1.0)
    hub = SerialHub(lambda reading: arrived.set(), serial_number="BENCH", list_ports=simulated.comports)
    hub.start()
    try:
        hub.wait_for_hello(5)
        delays = []
        for i in range(SAMPLES):
            arrived.clear()
            started = time.perf_counter()
            simulated.place(1 + i % 4, f"04{i:012X}")
            # A tap that never comes counts as the full wait, so a broken hub misses the target.
            arrived.wait(2)
            delays.append((time.perf_counter() - started) * 1000)
            arrived.clear()
            simulated.lift(1 + i % 4)
            arrived.wait(2)
        cpu_before, wall_before = time.process_time(), time.perf_counter()
        time.sleep(2.0)
        idle = (time.process_time() - cpu_before) / (time.perf_counter() - wall_before) * 100
        return statistics.median(delays), idle
    finally:
        hub.close()
        simulated.close()


def _button_extra_ms() -> float:
    from gpiozero.pins.mock import MockFactory

    from drivers.buttons import Buttons

    debounce, got = 0.01, threading.Event()
    factory = MockFactory()
    buttons = Buttons(lambda reading: got.set(), pin_factory=factory)
    buttons.add("b", 17, hold_time=None, debounce=debounce)
    pin = factory.pin(17)
    extra = []
    try:
        for _ in range(SAMPLES):
            got.clear()
            started = time.perf_counter()
            pin.drive_low()
            got.wait(2)
            extra.append((time.perf_counter() - started - debounce) * 1000)
            pin.drive_high()
            time.sleep(debounce * 2)
        return statistics.median(extra)
    finally:
        buttons.close()


class _CountingBus:
    """An I2C bus that only counts bytes: every address answers."""

    def __init__(self) -> None:
        self.bytes = 0

    def write_quick(self, address: int) -> None:
        self.bytes += 1  # the address byte of the presence knock

    def write_byte(self, address: int, value: int) -> None:
        self.bytes += 2  # address byte and control byte

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self.bytes += 2 + len(data)


def _bytes_per_frame() -> int:
    from PIL import Image, ImageDraw

    from drivers import displays

    counting = _CountingBus()
    world: Any = displays.SimulatedI2C(populate=False)
    world.buses[1] = counting
    display = displays.Display("bench", bus=1, mux_address=0x70, mux_channel=3, backend="sim", simulation=world)
    display.open()
    frame = Image.new("1", (128, 64))
    ImageDraw.Draw(frame).text((4, 4), "Seat 1 rolled 6", fill=1)
    counting.bytes = 0
    if not display.show(frame):
        raise RuntimeError(f"the benchmark panel did not take the frame: {display.detail}")
    return counting.bytes


def main() -> bool:
    """Print each figure next to its target; False when one is missed."""
    tap_ms, idle = _hub_figures()
    button_ms = _button_extra_ms()
    frame_bytes = _bytes_per_frame()
    rows = [
        ("hub: card placed -> tap (median ms)", tap_ms, TAP_MEDIAN_MS, tap_ms <= TAP_MEDIAN_MS),
        ("hub: idle CPU, driver + fake hub (% of a core)", idle, HUB_IDLE_CPU_PERCENT, idle <= HUB_IDLE_CPU_PERCENT),
        ("buttons: press -> reading beyond debounce (median ms)", button_ms, BUTTON_EXTRA_MS,
         button_ms <= BUTTON_EXTRA_MS),
        ("display: I2C bytes per frame behind a TCA9548A", frame_bytes, BYTES_PER_FRAME,
         frame_bytes <= BYTES_PER_FRAME),
    ]
    for label, value, target, ok in rows:
        print(f"   {label:<56} {value:>9.2f}   target <= {target:<7} {'ok' if ok else 'MISSED'}")
    return all(ok for *_, ok in rows)


if __name__ == "__main__":
    raise SystemExit(0 if main() else 1)
