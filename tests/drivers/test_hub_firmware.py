"""The hub firmware, built for the PC against stand-ins for the Arduino core and the MFRC522 library.

The stand-in card keeps ISO 14443-A states, so these tests show the sketch keeps a resting card
visible, debounces a flaky read, and speaks the protocol the driver understands.
"""

from __future__ import annotations

import shutil
import subprocess
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


def run(firmware: Path, *script: str) -> list[list[str]]:
    """Run a script; return the protocol lines the hub sent after each command (index 0: at boot)."""
    out = subprocess.run([str(firmware)], input="\n".join(script) + "\n", capture_output=True, text=True,
                         check=True, timeout=60).stdout
    sections: list[list[str]] = [[]]
    for line in out.splitlines():
        if line.startswith("# "):
            sections.append([])
        else:
            sections[-1].append(line)
    return sections


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
