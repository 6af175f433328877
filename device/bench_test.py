"""``touchline bench-test``: the checks to make on a newly wired table before its first game, one at a time.

Each check opens the table's drivers as the running table does, asks the owner to do one thing (put a card on a
pad, press a button, replug the hub), looks at what the drivers report, and says what it found and what to do.
The report is written to a file as it goes, so a table that hangs half-way still leaves one.  On the simulated
table a simulated hand does what the owner would (``--sim``), which is how the tests run it.

The checks: every reader answers and keeps its settings; the readers' reset line is high; each pad reads a card
through the board, and no other pad sees it; the 3.3 V rail holds with every antenna on and every screen lit
(``vcgencmd get_throttled``); the I2C bus speed and what a whole frame costs; each button and its LED; a hub
unplugged and plugged in again while the table runs.
"""

from __future__ import annotations

import queue
import shutil
import subprocess
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from drivers.base import ButtonReading, HealthReading, TagReading

CARD_WAIT = 8.0  # seconds a pad is given to read the card put on it
CROSS_WAIT = 1.5  # seconds the other pads are watched for the same card
BUTTON_WAIT = 10.0
HUB_WAIT = 15.0
SETTLE = 2.0  # seconds between the two looks at the readers' settings (two of the scanner's checks)
RAIL_SECONDS = 5.0  # every antenna on and every screen lit this long before the rail is read
I2C_CLOCK_FILE = Path("/sys/class/i2c-adapter/i2c-1/of_node/clock-frequency")
FRAME_TARGET_MS = 40.0

# What the owner is asked and told (tests import these).
INTRO = ("Bench test of {table}: {count} checks, one at a time. Press Enter to go on at each step; type s and "
         "Enter to skip a step. The report is written to {report}.")
PUT_CARD = "Put a card on {pad} (on the board, where players put it), then press Enter."
TAKE_CARD = "Take the card off {pad}, then press Enter."
PRESS_BUTTON = "Press {button} once, then press Enter."
LED_LIT = "Is the LED of {button} lit now? Type y or n, then Enter."
REPLUG_HUB = "Unplug hub {hub}'s USB cable, wait two seconds, plug it back in, then press Enter."
SIM_HAND = "(simulated table: the simulated hand does it)"
DONE = "{passed} of {count} checks passed, {failed} failed, {skipped} skipped. The report: {report}"

READER_OK = "{label}: {chip}, settings kept (antenna on, 100 % ASK, timer, {gain} dB gain)"
READER_MISSING = "{label}: {why}"
READER_LOST_SETTINGS = ("{label} lost its settings and was set up again ({times} times in {seconds:.0f} s): "
                        "its supply dips or its reset line is pulsed. Check the 3.3 V wiring (docs/WIRING.md, "
                        "\"Power\") and that nothing else drives GPIO {pin}.")
HUB_READERS_OK = "online, readers {numbers} answer"
HUB_READERS_DOWN = "{detail}"
RESET_HIGH = "the readers' reset line is high"
RESET_LOW = ("the readers' reset line reads low: every reader on it is held in reset. Check that "
             "nothing else drives it and that it is wired to RST of every reader (docs/WIRING.md).")
PAD_READS = "reads the card {uid}; no other pad sees it"
PAD_SILENT = ("no card read within {seconds:.0f} s: put it where players will, and check the reader "
              "under it; through a thick board, raise the gain ([readers] gain_db in the table file, now {gain} dB).")
PAD_CROSS = ("reads the card {uid}, and so does {others}: lower the gain ([readers] gain_db in the table file, "
             "now {gain} dB) or move those readers further apart.")
RAIL_OK = "the Pi saw no under-voltage with every antenna on and every screen lit (get_throttled {value})"
RAIL_LOW = ("the Pi saw under-voltage {when} (get_throttled {value}): the 3.3 V rail sags. Feed the readers and "
            "screens from their own 3.3 V regulator of 1 A or more with bulk capacitors (docs/WIRING.md, \"Power\").")
RAIL_UNKNOWN = "not checked: {why}"
I2C_OK = "I2C bus 1 runs at {khz} kHz; a whole new frame takes {ms:.0f} ms to reach the glass"
I2C_SLOW = ("I2C bus 1 runs at {khz} kHz: a whole new frame takes {ms:.0f} ms. Add dtparam=i2c_arm_baudrate=400000 "
            "to /boot/firmware/config.txt (systemd/install.sh does) and reboot.")
BUTTON_OK = "a press arrived"
BUTTON_SILENT = "no press arrived within {seconds:.0f} s. Check its wiring to GPIO {pin} and to ground."
LED_OK = "its LED lights"
LED_DARK = ("its LED on GPIO {pin} does not light: check its polarity and its resistor (docs/WIRING.md, "
            "\"LEDs\").")
HUB_BACK = "unplugged and plugged in again, it was found and its readers answer"
HUB_NOT_BACK = ("did not come back within {seconds:.0f} s of being plugged in again: check that the "
                "touchline service has DeviceAllow for it and that cdc_acm/usbserial load at boot "
                "(sudo systemd/install.sh sets both).")
SKIPPED = "skipped"


@dataclass(frozen=True)
class Check:
    """One line of the report: what was checked, whether it passed (None: skipped or not checkable), and why."""

    section: str
    name: str
    ok: bool | None
    detail: str

    def line(self) -> str:
        """The report's line for this check."""
        mark = "ok" if self.ok else "SKIPPED" if self.ok is None else "FAILED"
        return f"{mark:<8} {self.section:<8} {self.name}: {self.detail}"


class BenchTest:
    """The bench test of one table, on its hardware (real, or simulated with a simulated hand)."""

    def __init__(self, config: Any, hardware: Any, report: Path | None, *, ask: Callable[[str], str],
                 say: Callable[[str], None], simulated: bool = False,
                 run: Callable[[list[str]], str] | None = None, i2c_clock_file: Path = I2C_CLOCK_FILE,
                 waits: float = 1.0) -> None:
        self.config = config
        self.hardware = hardware
        self.report = report
        self._ask = ask
        self._say = say
        self.simulated = simulated
        self._run = run or _run_command
        self._i2c_clock_file = i2c_clock_file
        self._waits = waits  # a factor on every wait, so tests of a table that never answers stay short
        self._readings: queue.Queue[Any] = queue.Queue()
        self.checks: list[Check] = []

    # -- running ------------------------------------------------------------------------------------

    def run(self) -> list[Check]:
        """Open the table, run every check in turn, write the report; return the checks."""
        return self.run_steps([self.check_readers, self.check_reset_line, self.check_pads, self.check_rail,
                               self.check_i2c, self.check_buttons, self.check_hub_replug])

    def run_steps(self, steps: list[Callable[[], None]]) -> list[Check]:
        """Open the table, run these checks in turn (writing the report, if any, as they go); return them."""
        self.hardware.start(self._readings.put)  # first: beside a running table nothing is written
        try:
            if self.report is not None:
                self.report.parent.mkdir(parents=True, exist_ok=True)
                self.report.write_text(f"Touchline bench test of {self.config.name}, "
                                       f"{time.strftime('%Y-%m-%d %H:%M')}\n", encoding="utf-8")
                self._say(INTRO.format(table=self.config.name, count=len(steps), report=self.report))
            for step in steps:
                step()
        finally:
            self.hardware.stop()
        passed = sum(1 for c in self.checks if c.ok)
        failed = sum(1 for c in self.checks if c.ok is False)
        skipped = sum(1 for c in self.checks if c.ok is None)
        summary = DONE.format(passed=passed, count=len(self.checks), failed=failed, skipped=skipped,
                              report=self.report or "not written")
        self._write(summary)
        self._say(summary)
        return self.checks

    def _record(self, section: str, name: str, ok: bool | None, detail: str) -> None:
        check = Check(section, name, ok, detail)
        self.checks.append(check)
        self._write(check.line())
        self._say(check.line())

    def _write(self, line: str) -> None:
        if self.report is not None:
            with self.report.open("a", encoding="utf-8") as out:
                out.write(line + "\n")

    def _step(self, prompt: str) -> bool:
        """Ask the owner to do something; False when they skip it."""
        if self.simulated:
            self._say(f"{prompt} {SIM_HAND}")
            return True
        return self._ask(prompt).strip().lower() not in ("s", "skip")

    def _drain(self) -> list[Any]:
        got = []
        while True:
            try:
                got.append(self._readings.get_nowait())
            except queue.Empty:
                return got

    def _wait_for(self, wanted: Callable[[Any], bool], seconds: float) -> tuple[Any | None, list[Any]]:
        """Wait for a reading ``wanted`` accepts; return it (or None) and every reading seen meanwhile."""
        seen: list[Any] = []
        deadline = time.monotonic() + seconds * self._waits
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None, seen
            try:
                reading = self._readings.get(timeout=min(left, 0.1))
            except queue.Empty:
                continue
            seen.append(reading)
            if wanted(reading):
                return reading, seen

    # -- the checks ---------------------------------------------------------------------------------

    def check_readers(self) -> None:
        """Every reader answers, and still holds its settings a few seconds later."""
        from drivers.errors import DriverError

        readers = dict(self.hardware.readers)
        states: dict[str, tuple[Any, str | None]] = {}
        for name, reader in readers.items():
            try:
                chip = reader.check()
                states[name] = (chip, reader.settings_problem())
            except DriverError as exc:
                states[name] = (None, str(exc))
        time.sleep(SETTLE * self._waits)
        from drivers.rfid.reader import describe_version

        for name, reader in readers.items():
            chip, problem = states[name]
            label = reader.label
            if chip is None:
                self._record("reader", name, False, READER_MISSING.format(label=label, why=problem))
            elif reader.setups or problem:
                self._record("reader", name, False, READER_LOST_SETTINGS.format(
                    label=label, times=max(reader.setups, 1), seconds=SETTLE, pin=reader.rst_pin))
            else:
                self._record("reader", name, True, READER_OK.format(label=label, chip=describe_version(chip),
                                                                    gain=reader.gain_db))
        for hub_name, hub in self.hardware.hubs.items():
            if hub.wait_for_sync(HUB_WAIT * self._waits) and not hub.readers_down:
                numbers = ", ".join(str(p.reader) for p in self.config.pads() if p.hub == hub_name)
                self._record("reader", hub_name, True, HUB_READERS_OK.format(hub=hub_name, numbers=numbers))
            else:
                down = "; ".join(f"reader {n}: {why}" for n, why in sorted(hub.readers_down.items()))
                self._record("reader", hub_name, False, HUB_READERS_DOWN.format(
                    hub=hub_name, detail=down or "did not say hello (is it plugged in and flashed?)"))

    def check_reset_line(self) -> None:
        """The readers' shared reset line is driven high."""
        pins: dict[int, Any] = {}
        for reader in self.hardware.readers.values():
            pins.setdefault(reader.rst_pin, reader)
        for pin, reader in sorted(pins.items()):
            high = reader.reset_line_high()
            self._record("reset", f"GPIO {pin}", high, (RESET_HIGH if high else RESET_LOW).format(pin=pin))

    def check_pads(self) -> None:
        """Each pad reads a card put on it, through the board, and no other pad sees that card."""
        gains = {p.id: p.gain_db for p in self.config.pads()}
        for pad in self.config.pads():
            if not self._step(PUT_CARD.format(pad=pad.id)):
                self._record("pad", pad.id, None, SKIPPED)
                continue
            self._drain()
            if self.simulated:
                self.hand_put(pad.id)
            tap, _ = self._wait_for(lambda r: isinstance(r, TagReading) and r.kind == "tap" and r.reader == pad.id,
                                    CARD_WAIT)
            if tap is None:
                self._record("pad", pad.id, False, PAD_SILENT.format(pad=pad.id, seconds=CARD_WAIT,
                                                                     gain=gains[pad.id]))
            else:
                _, seen = self._wait_for(lambda r: False, CROSS_WAIT)
                others = sorted({r.reader for r in seen if isinstance(r, TagReading) and r.kind == "tap"
                                 and r.reader != pad.id})
                if others:
                    self._record("pad", pad.id, False, PAD_CROSS.format(pad=pad.id, uid=tap.uid,
                                                                        others=", ".join(others), gain=gains[pad.id]))
                else:
                    self._record("pad", pad.id, True, PAD_READS.format(pad=pad.id, uid=tap.uid))
            if self._step(TAKE_CARD.format(pad=pad.id)) and self.simulated:
                self.hand_take(pad.id)
            self._wait_for(lambda r: False, 0.3)

    def check_rail(self) -> None:
        """The Pi reports no under-voltage with every antenna on (the scanner polls) and every screen lit white."""
        white = Image.new("1", (128, 64), 1)
        for display in self.hardware.displays.values():
            display.show(white if display.size == (128, 64) else Image.new("1", display.size, 1))
        time.sleep(RAIL_SECONDS * self._waits)
        try:
            answer = self._run(["vcgencmd", "get_throttled"])
        except (OSError, subprocess.SubprocessError) as exc:
            self._record("power", "3.3 V rail", None, RAIL_UNKNOWN.format(why=f"vcgencmd: {exc}"))
            return
        value = answer.strip().partition("=")[2] or answer.strip()
        try:
            flags = int(value, 16)
        except ValueError:
            self._record("power", "3.3 V rail", None, RAIL_UNKNOWN.format(why=f"vcgencmd said {answer.strip()!r}"))
            return
        # Bit 0: under-voltage now; bit 16: under-voltage has occurred since boot (Raspberry Pi documentation).
        if flags & 0x1:
            self._record("power", "3.3 V rail", False, RAIL_LOW.format(when="now", value=value))
        elif flags & 0x10000:
            self._record("power", "3.3 V rail", False, RAIL_LOW.format(when="since boot", value=value))
        else:
            self._record("power", "3.3 V rail", True, RAIL_OK.format(value=value))

    def check_i2c(self) -> None:
        """I2C bus 1's speed, and the time a whole new frame takes to reach a screen."""
        if not self.hardware.displays:
            return
        display = next(iter(self.hardware.displays.values()))
        wire = display.simulation.wire if display.simulation is not None else None
        if wire is not None:
            hz = wire.speed_hz
        else:
            try:
                hz = int.from_bytes(self._i2c_clock_file.read_bytes()[:4], "big")
            except OSError as exc:
                self._record("i2c", "bus 1", None, RAIL_UNKNOWN.format(why=f"{self._i2c_clock_file}: {exc}"))
                return
        frames = [_checkerboard(0, display.size), _checkerboard(1, display.size)]
        display.show(frames[0])
        started, before = time.perf_counter(), wire.seconds if wire is not None else 0.0
        display.show(frames[1])  # every page changes: the whole frame goes over the wire
        ms = ((wire.seconds - before) if wire is not None else (time.perf_counter() - started)) * 1000
        ok = hz >= 400_000 and ms <= FRAME_TARGET_MS
        self._record("i2c", "bus 1", ok, (I2C_OK if ok else I2C_SLOW).format(khz=hz // 1000, ms=ms))

    def check_buttons(self) -> None:
        """Each button's press arrives, and its LED lights."""
        for button in self.config.buttons():
            if not self._step(PRESS_BUTTON.format(button=button.id)):
                self._record("button", button.id, None, SKIPPED)
                continue
            self._drain()
            if self.simulated:
                self.hardware.press(button.id)
            press, _ = self._wait_for(lambda r: isinstance(r, ButtonReading) and r.button == button.id, BUTTON_WAIT)
            self._record("button", button.id, press is not None,
                         (BUTTON_OK if press else BUTTON_SILENT).format(button=button.id, seconds=BUTTON_WAIT,
                                                                       pin=button.gpio))
            if button.led_gpio is None:
                continue
            self.hardware.buttons.set_led(button.id, "on")
            if self.simulated:
                lit = self.hardware.buttons.led_is_lit(button.id)
                self._say(f"{LED_LIT.format(button=button.id)} {SIM_HAND}")
            else:
                answer = self._ask(LED_LIT.format(button=button.id)).strip().lower()
                if answer in ("s", "skip"):
                    self._record("led", button.id, None, SKIPPED)
                    self.hardware.buttons.set_led(button.id, "off")
                    continue
                lit = answer.startswith("y")
            self.hardware.buttons.set_led(button.id, "off")
            self._record("led", button.id, lit, (LED_OK if lit else LED_DARK).format(button=button.id,
                                                                                     pin=button.led_gpio))

    def check_hub_replug(self) -> None:
        """A hub unplugged and plugged in again while the table runs is found again and its readers answer."""
        for name, hub in self.hardware.hubs.items():
            if not self._step(REPLUG_HUB.format(hub=name)):
                self._record("hub", name, None, SKIPPED)
                continue
            self._drain()
            if self.simulated:
                hub.simulator.unplug()
                time.sleep(0.3)
                hub.simulator.replug()
            went, seen = self._wait_for(lambda r: isinstance(r, HealthReading) and r.device == name and not r.online,
                                        HUB_WAIT)
            back, _ = self._wait_for(lambda r: isinstance(r, HealthReading) and r.device == name and r.online,
                                     HUB_WAIT)
            ok = back is not None and hub.wait_for_sync(HUB_WAIT * self._waits)
            self._record("hub", name, ok, (HUB_BACK if ok else HUB_NOT_BACK).format(hub=name, seconds=HUB_WAIT))

    # -- the simulated hand -------------------------------------------------------------------------

    def hand_put(self, pad: str) -> None:
        """Put a simulated card on a pad (``--sim``)."""
        self.hardware.place_tag(pad, f"04-B7-{zlib.crc32(pad.encode()) % 256:02X}-{len(pad):02X}-10-20-30")

    def hand_take(self, pad: str) -> None:
        """Take the simulated card off a pad (``--sim``)."""
        self.hardware.lift(pad)


def _checkerboard(shift: int, size: tuple[int, int]) -> Image.Image:
    image = Image.new("1", size, 0)
    pixels = image.load()
    assert pixels is not None
    for y in range(size[1]):
        for x in range(size[0]):
            pixels[x, y] = (x + y + shift) % 2
    return image


def _run_command(command: list[str]) -> str:
    """Run a command and return what it printed (OSError when it is not there)."""
    if shutil.which(command[0]) is None:
        raise FileNotFoundError(f"{command[0]} is not installed here (it comes with Raspberry Pi OS)")
    return subprocess.run(command, capture_output=True, text=True, check=True, timeout=10).stdout


def default_report(directory: Path | None = None) -> Path:
    """Where the report goes by default: touchline-bench-test-<date>-<time>.txt in the current folder."""
    return (directory or Path.cwd()) / time.strftime("touchline-bench-test-%Y%m%d-%H%M%S.txt")
