"""Figures for the hub, the buttons and the displays, side by side with their targets.

- hub: time from a card landing on a simulated hub (pty, real pyserial) to its ``tap`` reading, and
  the CPU the driver and the fake hub use while nothing happens;
- buttons: time from a (simulated) press to its reading on the real clock, beyond the debounce time;
- displays: I2C bytes to a panel behind a TCA9548A for a whole new frame and for one changed line of text (only the
  changed pages and columns go): what decides how soon a frame is on the glass on a real bus.
"""

from __future__ import annotations

import statistics
import threading
import time
from typing import Any

TAP_MEDIAN_MS = 20.0
HUB_IDLE_CPU_PERCENT = 2.0
BUTTON_EXTRA_MS = 15.0
BYTES_PER_FRAME = 1200  # 1024 bytes of pixels plus addressing (luma's 32-byte blocks): ~26 ms at 400 kHz
SAMPLES = 30


def _hub_figures() -> tuple[float, float, str]:
    """Median ms from a card placed to its tap, idle CPU %, and what went wrong ("" when nothing did)."""
    from drivers.base import TagReading
    from drivers.hub import SerialHub, SimulatedHub

    seen: list[TagReading] = []
    changed = threading.Condition()

    def on_reading(reading: TagReading) -> None:
        with changed:
            seen.append(reading)
            changed.notify_all()

    def wait_for(expected: TagReading) -> bool:
        # Only the reading asked for counts: a stray or repeated one must not stop the clock early.
        with changed:
            return changed.wait_for(lambda: expected in seen, timeout=2)

    simulated = SimulatedHub(readers=4, serial_number="BENCH", heartbeat=1.0)
    hub = SerialHub(on_reading, serial_number="BENCH", list_ports=simulated.comports)
    hub.start()
    try:
        if hub.wait_for_hello(5) is None:
            return float("inf"), float("inf"), "the simulated hub never said hello"
        delays, missing = [], 0
        for i in range(SAMPLES):
            reader, uid = 1 + i % 4, f"04{i:012X}"
            printed = "-".join(uid[j:j + 2] for j in range(0, len(uid), 2))
            started = time.perf_counter()
            simulated.place(reader, uid)
            # A tap that never comes counts as the full wait, so a broken hub misses the target.
            missing += not wait_for(TagReading("tap", f"hub:{reader}", printed))
            delays.append((time.perf_counter() - started) * 1000)
            simulated.lift(reader)
            missing += not wait_for(TagReading("lift", f"hub:{reader}", printed))
        lines_before = hub.stats.lines
        cpu_before, wall_before = time.process_time(), time.perf_counter()
        time.sleep(2.0)
        idle = (time.process_time() - cpu_before) / (time.perf_counter() - wall_before) * 100
        problems = []
        if missing:
            problems.append(f"{missing} of {2 * SAMPLES} readings never came")
        if hub.stats.lines - lines_before < 1 or not hub.online:
            # An idle figure from a hub that stopped reading would look perfect.
            problems.append("no heartbeat was read while idle")
        return statistics.median(delays), idle, "; ".join(problems)
    finally:
        hub.close()
        simulated.close()


def _button_extra_ms() -> float:
    """Median ms from a press to its reading beyond the debounce time (inf when a reading came too soon)."""
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
        if min(extra) < 0:
            print(f"   buttons: a press was handed on {-min(extra):.2f} ms before its debounce time was over")
            return float("inf")
        return statistics.median(extra)
    finally:
        buttons.close()


PIXEL_BYTES = 128 * 64 // 8  # a whole frame carries at least its pixels; fewer counted means the count is wrong
LINE_BYTES = 300  # one line of text changed: its pages (two at most), their changed columns and addressing


def _frame_bytes() -> tuple[int, int]:
    """I2C bytes on the simulated wire for a whole new frame, and for a frame where one line of text changed."""
    from PIL import Image, ImageDraw

    from drivers import displays

    world = displays.SimulatedI2C()
    display = displays.Display("bench", bus=1, mux_address=0x70, mux_channel=3, backend="sim", simulation=world)
    display.open()
    checker = Image.new("1", (128, 64))
    checker.putdata([(x + y) % 2 for y in range(64) for x in range(128)])
    before = world.wire.bytes
    if not display.show(checker):
        raise RuntimeError(f"the benchmark panel did not take the frame: {display.detail}")
    whole = world.wire.bytes - before
    frames = []
    for roll in (6, 4):
        frame = Image.new("1", (128, 64))
        ImageDraw.Draw(frame).text((4, 4), "Seat 1", fill=1)
        ImageDraw.Draw(frame).text((4, 24), f"rolled {roll}", fill=1)
        frames.append(frame)
    display.show(frames[0])
    before = world.wire.bytes
    display.show(frames[1])
    line = world.wire.bytes - before
    display.close()
    return whole, line


def main() -> bool:
    """Print each figure next to its target; False when one is missed."""
    tap_ms, idle, hub_problem = _hub_figures()
    button_ms = _button_extra_ms()
    frame_bytes, line_bytes = _frame_bytes()
    rows = [
        ("hub: card placed -> tap (median ms)", tap_ms, TAP_MEDIAN_MS, tap_ms <= TAP_MEDIAN_MS and not hub_problem),
        ("hub: idle CPU, driver + fake hub (% of a core)", idle, HUB_IDLE_CPU_PERCENT,
         idle <= HUB_IDLE_CPU_PERCENT and not hub_problem),
        ("buttons: press -> reading beyond debounce (median ms)", button_ms, BUTTON_EXTRA_MS,
         button_ms <= BUTTON_EXTRA_MS),
        ("display: I2C bytes of a whole new frame behind a TCA9548A", frame_bytes, BYTES_PER_FRAME,
         PIXEL_BYTES <= frame_bytes <= BYTES_PER_FRAME),
        ("display: I2C bytes when one line of text changes", line_bytes, LINE_BYTES, 0 < line_bytes <= LINE_BYTES),
    ]
    for label, value, target, ok in rows:
        print(f"   {label:<56} {value:>9.2f}   target <= {target:<7} {'ok' if ok else 'MISSED'}")
    if hub_problem:
        print(f"   hub: {hub_problem}")
    if frame_bytes < PIXEL_BYTES:
        print(f"   display: {frame_bytes} bytes cannot carry a frame's {PIXEL_BYTES} bytes of pixels")
    return all(ok for *_, ok in rows)


if __name__ == "__main__":
    raise SystemExit(0 if main() else 1)
