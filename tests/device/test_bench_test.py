"""``touchline bench-test`` and ``hw-check --cross-reads`` on the simulated table, a simulated hand doing each step."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from device import bench_test as bt
from device import cli
from device.bench_test import BenchTest, Check
from device.sim import SimHardware
from device.table_file import TABLES_DIR, default_sim_table, load_table
from drivers.claim import BUSY
from drivers.rfid.sim import OSC_STARTUP_SECONDS, SimCard


def bench(config: Any = None, *, run: Any = lambda command: "throttled=0x0\n", waits: float = 0.15,
          cls: type[BenchTest] = BenchTest, report: Path | None = None, speed_hz: int | None = None) -> BenchTest:
    config = config or default_sim_table()
    hardware = SimHardware(config, threaded=True)
    if speed_hz is not None:
        next(iter(hardware.displays.values())).simulation.wire.speed_hz = speed_hz
    said: list[str] = []
    test = cls(config, hardware, report, ask=lambda prompt: "", say=said.append, simulated=True, run=run, waits=waits)
    test.said = said  # type: ignore[attr-defined]
    return test


def by_name(checks: list[Check]) -> dict[tuple[str, str], Check]:
    return {(c.section, c.name): c for c in checks}


@pytest.mark.slow
@pytest.mark.parametrize("table", ["sim", "four-seats-hub"])
def test_a_well_wired_simulated_table_passes_every_check_and_the_report_says_so(tmp_path: Path, table: str) -> None:
    config = load_table(TABLES_DIR / f"{table}.toml")
    report = tmp_path / "report.txt"
    checks = bench(config, report=report).run()
    assert [c.line() for c in checks if not c.ok] == []
    sections = {c.section for c in checks}
    assert {"reader", "pad", "power", "i2c", "button", "led"} <= sections
    assert ("hub" in sections) == bool(config.hubs) and ("reset" in sections) == any(p.on_spi for p in config.pads())
    assert len([c for c in checks if c.section == "pad"]) == len(config.pads())
    written = report.read_text().splitlines()
    assert written[1:-1] == [c.line() for c in checks]
    assert written[-1] == bt.DONE.format(passed=len(checks), count=len(checks), failed=0, skipped=0, report=report)


def test_a_pad_that_sees_its_neighbours_card_is_named_with_the_fix() -> None:
    class Neighbourly(BenchTest):
        def hand_put(self, pad: str) -> None:
            super().hand_put(pad)
            if pad == "seat1.tap":  # the card reaches seat 2's antenna too at this gain
                card: SimCard = self.hardware.readers["seat1.tap"].sim.card
                self.hardware.readers["seat2.tap"].sim.reach(card, needs_db=33)

        def hand_take(self, pad: str) -> None:
            super().hand_take(pad)
            self.hardware.readers["seat2.tap"].sim.reach(None)

    test = bench(cls=Neighbourly, waits=0.3)
    checks = test.run_steps([test.check_pads])
    seat1 = by_name(checks)[("pad", "seat1.tap")]
    assert not seat1.ok
    assert seat1.detail == bt.PAD_CROSS.format(uid=seat1.detail.split()[3].rstrip(","), others="seat2.tap", gain=33)
    assert by_name(checks)[("pad", "seat2.tap")].ok, "once the card is taken away, seat 2 sees only its own"


def test_a_pad_that_reads_nothing_says_to_raise_the_gain() -> None:
    class ThickBoard(BenchTest):
        def hand_put(self, pad: str) -> None:
            if pad == "seat3.tap":
                self.hardware.readers[pad].sim.card_needs_db = 43  # not heard at the default 33 dB
            super().hand_put(pad)

    test = bench(cls=ThickBoard)
    seat3 = by_name(test.run_steps([test.check_pads]))[("pad", "seat3.tap")]
    assert seat3 == Check("pad", "seat3.tap", False, bt.PAD_SILENT.format(seconds=bt.CARD_WAIT, gain=33))


def test_a_reader_that_lost_its_settings_fails_its_check() -> None:
    class BrownOut(BenchTest):
        def check_readers(self) -> None:
            chip = self.hardware.readers["seat2.tap"].sim
            with chip._lock:  # the scanner does not look in between: the brown-out is over, its settings gone
                chip.power_cycle()
                chip.clock.advance(OSC_STARTUP_SECONDS)
            super().check_readers()

    test = bench(cls=BrownOut)
    seat2 = by_name(test.run_steps([test.check_readers]))[("reader", "seat2.tap")]
    assert not seat2.ok and seat2.detail.startswith("SPI0.1 lost its settings and was set up again")
    assert by_name(test.checks)[("reader", "seat1.tap")].ok


@pytest.mark.parametrize("answer, ok, detail", [
    ("throttled=0x0\n", True, bt.RAIL_OK.format(value="0x0")),
    ("throttled=0x50005\n", False, bt.RAIL_LOW.format(when="now", value="0x50005")),
    ("throttled=0x50000\n", False, bt.RAIL_LOW.format(when="since boot", value="0x50000")),
])
def test_the_rail_is_judged_from_get_throttled(answer: str, ok: bool, detail: str) -> None:
    asked: list[list[str]] = []

    def run(command: list[str]) -> str:
        asked.append(command)
        return answer

    test = bench(run=run, waits=0.05)
    checks = test.run_steps([test.check_rail])
    assert checks == [Check("power", "3.3 V rail", ok, detail)]
    assert asked == [["vcgencmd", "get_throttled"]]
    assert all(d.frame().getbbox() == (0, 0, 128, 64) for d in test.hardware.displays.values()), \
        "every screen lit white while the rail is read"


def test_without_vcgencmd_the_rail_is_skipped_not_failed() -> None:
    def run(command: list[str]) -> str:
        raise FileNotFoundError("vcgencmd is not installed here")

    test = bench(run=run, waits=0.05)
    (check,) = test.run_steps([test.check_rail])
    assert check.ok is None and check.detail.startswith("not checked: vcgencmd")


def test_i2c_at_the_pis_default_100_khz_is_a_failure_with_the_fix() -> None:
    test = bench(speed_hz=100_000)
    (check,) = test.run_steps([test.check_i2c])
    assert not check.ok and "dtparam=i2c_arm_baudrate=400000" in check.detail
    # 1,024 bytes of display RAM at 9 clocks a byte are 92 ms at 100 kHz, against 23 ms at 400 kHz.
    assert re.match(r"I2C bus 1 runs at 100 kHz: a whole new frame takes 9\d ms\.", check.detail), check.detail


def test_a_hub_that_does_not_come_back_after_a_replug_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    test = bench(load_table(TABLES_DIR / "four-seats-hub.toml"), waits=0.1)
    test.hardware.start(test._readings.put)
    hub = test.hardware.hubs["hub"]
    hub.wait_for_sync(5)
    monkeypatch.setattr(hub.simulator, "replug", lambda: None)  # the cable stays out
    test.hardware.start = lambda emit: None  # already started above
    (check,) = test.run_steps([test.check_hub_replug])
    assert check == Check("hub", "hub", False, bt.HUB_NOT_BACK.format(seconds=bt.HUB_WAIT))


def test_the_command_line_runs_the_bench_test_and_writes_the_report(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    for name, seconds in (("RAIL_SECONDS", 0.1), ("SETTLE", 0.1), ("CROSS_WAIT", 0.3)):
        monkeypatch.setattr(bt, name, seconds)
    report = tmp_path / "bench.txt"
    assert cli.main(["bench-test", "--sim", "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert bt.INTRO.split("{")[0] in out and report.exists()
    assert report.read_text().splitlines()[-1].startswith("21 of 22 checks passed, 0 failed, 1 skipped")


def test_hw_check_cross_reads_walks_every_pad(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bt, "CROSS_WAIT", 0.3)
    assert cli.main(["hw-check", "--sim", "--cross-reads"]) == 0
    out = capsys.readouterr().out.splitlines()
    pads = [line for line in out if line.split()[:2] == ["ok", "pad"]]
    assert [line.split()[2].rstrip(":") for line in pads] == [p.id for p in default_sim_table().pads()]


HOLDER = textwrap.dedent("""
    import sys, time
    from drivers.claim import claim_hardware
    claim = claim_hardware()
    print("held", flush=True)
    sys.stdin.read()
""")


@pytest.mark.parametrize("command", [["hw-check"], ["enroll"], ["bench-test"]])
def test_beside_a_running_table_the_tools_refuse_with_a_sentence(command: list[str], tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    holder = subprocess.Popen([sys.executable, "-c", HOLDER], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        table = str(TABLES_DIR / "four-seats-spi.toml")
        env = {**os.environ, "TOUCHLINE_DB": str(tmp_path / "t.db"), "PYTHONPATH": str(root)}
        done = subprocess.run([sys.executable, "-m", "device.cli", *command, "--table", table],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                              env=env)
        assert done.returncode == 1
        assert done.stderr.strip().endswith(BUSY.format(holder=f"process {holder.pid}")), done.stderr
        assert "Traceback" not in done.stderr
        assert list(tmp_path.glob("touchline-bench-test-*")) == [], "no report begun for a check that never ran"
    finally:
        holder.communicate("", timeout=10)
