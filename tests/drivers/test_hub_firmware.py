"""The hub firmware, built for the PC against stand-ins for the Arduino core and the MFRC522 library.

The stand-in card keeps ISO 14443-A states and the stand-in chip its registers, its shared reset line and the
library's waits on a simulated clock, so these tests show the sketch keeps a resting card visible, debounces a
flaky read, holds the readers' reset line, sets a reader that lost its settings up again, sweeps as fast as its
README says, and speaks the protocol the driver understands.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from drivers.base import TagReading
from drivers.hub import SerialHub, SimulatedHub, encode_line, parse_line

from .conftest import ReadingLog

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware" / "touchline_hub"
UID7 = "04A1B2C3D4E5F6"


@pytest.fixture(scope="module")
def firmware(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = shutil.which("g++")
    if compiler is None:
        pytest.skip("g++ is not installed, so the sketch cannot be built for the PC")
    binary = tmp_path_factory.mktemp("firmware") / "touchline_hub"
    subprocess.run(
        [compiler, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-I", str(FIRMWARE / "host_test"),
         "-I", str(FIRMWARE), str(FIRMWARE / "host_test" / "harness.cpp"), "-o", str(binary)],
        check=True, capture_output=True, text=True,
    )
    return binary


@dataclass
class Run:
    """What the sketch sent after each command (index 0: at boot), each line's time, and the readers' resets."""

    sections: list[list[str]]
    timed: list[tuple[float, str]]  # (milliseconds, line) for every line sent and every command given
    reset_line: str
    hard_resets: dict[int, int]

    def at(self, text: str) -> float:
        """When the first line or command starting with ``text`` came, in milliseconds."""
        return next(ms for ms, line in self.timed if line.startswith(text))


def play(firmware: Path, *script: str) -> Run:
    """Run a script through the sketch and collect everything it says."""
    done = subprocess.run([str(firmware)], input="\n".join(script) + "\n", capture_output=True, text=True,
                          check=True, timeout=60)
    sections: list[list[str]] = [[]]
    for line in done.stdout.splitlines():
        if line.startswith("# "):
            sections.append([])
        else:
            sections[-1].append(line)
    timed, reset_line, resets = [], "", {}
    for line in done.stderr.splitlines():
        if line.startswith("reset "):
            reset_line = line
        elif line.startswith("resets "):
            _, reader, count = line.split()
            resets[int(reader)] = int(count)
        else:
            micros, text = line.split(" ", 1)
            timed.append((int(micros) / 1000, text))
    return Run(sections, timed, reset_line, resets)


def run(firmware: Path, *script: str) -> list[list[str]]:
    """Run a script; return the protocol lines the hub sent after each command (index 0: at boot)."""
    return play(firmware, *script).sections


def kinds(lines: list[str]) -> list[str]:
    """Each line checked and written back as ``TYPE,field,...`` without framing."""
    return [",".join((m.kind, *m.fields)) for m in (parse_line(line.encode()) for line in lines)]


def test_every_line_the_hub_sends_is_framed_and_checksummed(firmware: Path) -> None:
    sections = run(firmware, "place 1 DEADBEEF", "run 3000", "host $QUERY*4A", "run 10", "lift 1", "run 500")
    lines = [line for section in sections for line in section]
    assert len(lines) >= 8
    for line in lines:
        parse_line(line.encode())  # raises on a bad frame or checksum


def test_a_resting_card_is_one_tag_and_a_lift_is_one_gone(firmware: Path) -> None:
    boot, _, resting, _, flaky, _, lifted = run(
        firmware, "place 2 " + UID7, "run 3000", "miss 2 2", "run 500", "lift 2", "run 500")
    assert kinds(boot) == ["HELLO,1,5,touchline-hub 1.0", "SYNC"]
    # A hundred polls of a card lying still: WUPA wakes the card halted after each read, so no flicker.
    assert [k for k in kinds(resting) if not k.startswith("BEAT")] == [f"TAG,2,{UID7}"]
    # Two missed polls (a card at the edge of the field) are not a lift.
    assert [k for k in kinds(flaky) if not k.startswith("BEAT")] == []
    assert [k for k in kinds(lifted) if not k.startswith("BEAT")] == [f"GONE,2,{UID7}"]


def test_a_card_swapped_without_a_gap_is_a_gone_then_a_tag(firmware: Path) -> None:
    *_, swapped = run(firmware, "place 1 DEADBEEF", "run 200", "place 1 " + UID7, "run 200")
    assert kinds(swapped) == ["GONE,1,DEADBEEF", f"TAG,1,{UID7}"]


def test_the_hub_answers_queries_and_complains_about_bad_lines(firmware: Path) -> None:
    sections = run(firmware, "place 3 " + UID7, "run 200", "host $QUERY*4A", "run 5", "host $QUERY*00", "run 5",
                   "host QUERY", "run 5", "host " + encode_line("REBOOT").decode().strip(), "run 5")
    assert kinds(sections[4]) == ["HELLO,1,5,touchline-hub 1.0", f"TAG,3,{UID7}", "SYNC"]
    assert kinds(sections[6]) == ["ERR,LINE,bad checksum"]
    assert kinds(sections[8]) == ["ERR,LINE,not framed"]
    assert kinds(sections[10]) == ["ERR,LINE,unknown command"]


def test_a_reader_that_stops_answering_is_reported_and_its_card_gone(firmware: Path) -> None:
    *_, down, _, up = run(firmware, "place 4 DEADBEEF", "run 200", "down 4", "run 2100", "up 4", "run 2100")
    assert [k for k in kinds(down) if not k.startswith("BEAT")] == ["READER,4,DOWN,version 0x00",
                                                                   "GONE,4,DEADBEEF"]
    assert [k for k in kinds(up) if not k.startswith("BEAT")] == ["READER,4,UP,0x92", "TAG,4,DEADBEEF"]


def test_the_heartbeat_comes_every_second(firmware: Path) -> None:
    *_, quiet = run(firmware, "run 5000")
    assert kinds(quiet) == [f"BEAT,{n}" for n in range(5)]


def test_the_driver_understands_the_firmware(firmware: Path, reading_log: ReadingLog) -> None:
    sections = run(firmware, "place 1 " + UID7, "run 300", "lift 1", "run 300", "place 2 DEADBEEF", "run 300")
    wire = "".join(line + "\r\n" for section in sections for line in section).encode()
    simulated = SimulatedHub(readers=4, serial_number="FW", heartbeat=None)
    simulated.unplug()  # the fake hub stays silent; the firmware's own bytes go down the wire
    simulated.replug()
    driver = SerialHub(reading_log, serial_number="FW", list_ports=simulated.comports)
    try:
        driver.start()
        assert driver.wait_for_hello(5) is not None
        simulated.send_raw(wire)
        got = reading_log.wait_count(3)
        assert got == [TagReading("tap", "hub:1", "04-A1-B2-C3-D4-E5-F6"),
                       TagReading("lift", "hub:1", "04-A1-B2-C3-D4-E5-F6"),
                       TagReading("tap", "hub:2", "DE-AD-BE-EF")]
        assert driver.stats.rejected == 0
    finally:
        driver.close()
        simulated.close()


def no_beats(lines: list[str]) -> list[str]:
    """The lines checked and written back, without heartbeats."""
    return [k for k in kinds(lines) if not k.startswith("BEAT")]


# --- the readers' reset line and settings ---------------------------------------------------------------------------


def test_the_sketch_resets_the_readers_once_and_holds_the_line_high(firmware: Path) -> None:
    played = play(firmware, "place 1 DEADBEEF", "run 500", "down 3", "run 2100", "up 3", "run 2100")
    assert played.reset_line == "reset 5 OUTPUT HIGH", "driven, never left floating"
    assert played.hard_resets == {1: 1, 2: 1, 3: 1, 4: 1, 5: 1}, "bringing reader 3 back reset no other reader"
    assert no_beats(played.sections[-1]) == ["READER,3,UP,0x92"]
    assert "GONE,1,DEADBEEF" not in kinds([line for section in played.sections for line in section])


def test_a_reader_that_browned_out_is_set_up_again_within_two_seconds(firmware: Path) -> None:
    *_, after, _, read = play(firmware, "run 300", "brownout 2", "run 2100", "place 2 DEADBEEF", "run 200").sections
    assert no_beats(after) == ["ERR,SETUP,reader 2 had lost its settings and is set up again"]
    assert no_beats(read) == ["TAG,2,DEADBEEF"]


def test_a_resting_card_survives_a_brownout_without_a_gone(firmware: Path) -> None:
    *_, after = play(firmware, "place 4 " + UID7, "run 300", "brownout 4", "run 1000").sections
    assert no_beats(after) == ["ERR,SETUP,reader 4 had lost its settings and is set up again"]


def test_a_pulse_on_the_shared_reset_line_is_repaired_on_every_reader(firmware: Path) -> None:
    *_, after, _, read = play(firmware, "run 300", "pulse", "run 2100", "place 5 DEADBEEF", "run 200").sections
    assert sorted(no_beats(after)) == [f"ERR,SETUP,reader {n} had lost its settings and is set up again"
                                       for n in range(1, 6)]
    assert no_beats(read) == ["TAG,5,DEADBEEF"]


# --- sweep time ------------------------------------------------------------------------------------------------------

README = FIRMWARE / "README.md"


def documented_ms(what: str) -> float:
    """A figure of the README's sweep time table, in milliseconds."""
    match = re.search(rf"\| {re.escape(what)} \| about (\d+) ms \|", README.read_text())
    assert match, f"README.md has no row '{what}'"
    return float(match.group(1))


def test_a_tap_is_reported_within_the_sweep_time_the_readme_gives(firmware: Path) -> None:
    # Placed at twenty moments across a sweep of five empty readers, on the last reader polled.
    script = ["run 300"]
    for step in range(20):
        script += [f"run {7 + step}", "place 5 DEADBEEF", "run 300", "lift 5", "run 300"]
    played = play(firmware, *script)
    placed = [ms for ms, line in played.timed if line.startswith("# place 5")]
    tagged = [ms for ms, line in played.timed if line.startswith("$TAG,5,")]
    assert len(placed) == len(tagged) == 20
    latencies = [tag - place for place, tag in zip(placed, tagged)]
    sweep, worst = documented_ms("a sweep of five empty readers"), documented_ms("a card placed to its TAG line, at worst")
    assert max(latencies) <= worst, latencies
    assert max(latencies) >= sweep, "a card placed just after its reader was polled waits a whole sweep"
