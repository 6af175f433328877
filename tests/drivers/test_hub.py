"""The RFID hub over USB serial: the real pyserial port code against a fake microcontroller on a pty."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers import hub as hubmod
from drivers.base import HealthReading, TagReading
from drivers.errors import DriverConfigError, HubProtocolError
from drivers.hub import SerialHub, SimulatedHub, encode_line, find_port, open_hub, parse_line

from .conftest import WAIT, ManualClock, ReadingLog

SERIAL = "TLHUB-0001"
UID7 = "04A1B2C3D4E5F6"
UID7_PRINTED = "04-A1-B2-C3-D4-E5-F6"
FAST_RETRY = (0.01, 0.02, 0.05)


@pytest.fixture
def sim() -> Iterator[SimulatedHub]:
    simulated = SimulatedHub(readers=4, serial_number=SERIAL, heartbeat=None)
    yield simulated
    simulated.close()


@pytest.fixture
def plugged(sim: SimulatedHub, monkeypatch: pytest.MonkeyPatch) -> SimulatedHub:
    """The simulated hub is the only thing pyserial's port listing shows, next to a decoy."""
    decoy = SimpleNamespace(device="/dev/ttyUSB9", serial_number="SOMETHING-ELSE")
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [decoy, *sim.comports()])
    return sim


@pytest.fixture
def hub(
    plugged: SimulatedHub, reading_log: ReadingLog, health_log: ReadingLog, manual_clock: ManualClock
) -> Iterator[SerialHub]:
    driver = SerialHub(
        reading_log,
        serial_number=SERIAL,
        on_health=health_log,
        reconnect_delays=FAST_RETRY,
        clock=manual_clock,
    )
    driver.start()
    health_log.wait_for(lambda h: any(r.online for r in h), "the hub to come online")
    assert driver.wait_for_sync(WAIT), "the hub's state list after its hello"  # nothing left in flight
    yield driver
    driver.close()


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited in vain for {what}")
        time.sleep(0.01)


def online_states(health: list[HealthReading], device: str = "hub") -> list[bool]:
    return [r.online for r in health if r.device == device]


def test_hello_brings_the_hub_online_with_its_version_and_readers(hub: SerialHub, plugged: SimulatedHub) -> None:
    assert hub.hello is not None
    assert (hub.hello.version, hub.hello.readers) == (hubmod.PROTOCOL_VERSION, 4)
    assert hub.port == plugged.device
    # The driver asked for the hello itself, since boards with native USB do not reset on open.
    assert encode_line(hubmod.QUERY) in plugged.received


def test_tap_and_lift_become_tag_readings(hub: SerialHub, plugged: SimulatedHub, reading_log: ReadingLog) -> None:
    plugged.place(2, UID7)
    plugged.lift(2)
    plugged.place(4, bytes.fromhex("DEADBEEF"))
    got = reading_log.wait_count(3)
    assert got == [
        TagReading("tap", "hub:2", UID7_PRINTED),
        TagReading("lift", "hub:2", UID7_PRINTED),
        TagReading("tap", "hub:4", "DE-AD-BE-EF"),
    ]
    assert hub.present() == {"hub:4": "DE-AD-BE-EF"}


def test_garbled_unknown_and_bad_checksum_lines_are_counted_and_reading_goes_on(
    hub: SerialHub, plugged: SimulatedHub, reading_log: ReadingLog
) -> None:
    good = encode_line("TAG", 1, UID7)
    plugged.send_raw(good[:-4] + b"00\r\n")  # the right line with a wrong checksum
    plugged.send_raw(b"\x00\xff\xfe line noise at the wrong baud rate\r\n")
    plugged.send_raw(b"$TAG,1,04A1B2C3D4E5F6\r\n")  # no checksum at all
    plugged.send_raw(encode_line("FIRMWARE_UPDATE", 3))
    plugged.send_raw(encode_line("TAG", 9, UID7))  # the hub has only four readers
    plugged.send_raw(encode_line("TAG", 1, "04A1"))  # a UID of two bytes
    plugged.send_raw(b"x" * 500)  # a line that never ends
    plugged.send_raw(b"\r\n")
    plugged.place(1, UID7)
    assert reading_log.wait_count(1) == [TagReading("tap", "hub:1", UID7_PRINTED)]
    assert hub.stats.bad_checksum == 1
    assert hub.stats.unknown == 1
    assert hub.stats.garbled == 5
    assert hub.online


def test_a_resent_tag_is_not_a_second_tap_and_a_new_card_lifts_the_old_one(
    hub: SerialHub, plugged: SimulatedHub, reading_log: ReadingLog
) -> None:
    plugged.place(3, UID7)
    plugged.place(3, UID7)
    plugged.place(3, "04112233445566")
    got = reading_log.wait_count(3)
    assert got == [
        TagReading("tap", "hub:3", UID7_PRINTED),
        TagReading("lift", "hub:3", UID7_PRINTED),
        TagReading("tap", "hub:3", "04-11-22-33-44-55-66"),
    ]


def test_unplug_reports_offline_and_replug_reconnects_and_resyncs(
    hub: SerialHub, plugged: SimulatedHub, reading_log: ReadingLog, health_log: ReadingLog
) -> None:
    plugged.place(1, UID7)
    plugged.place(2, "04112233445566")
    reading_log.wait_count(2)
    plugged.unplug()
    health_log.wait_for(lambda h: online_states(h)[-1:] == [False], "the hub to go offline")
    assert hubmod.PORT_LOST.split("{")[0] in health_log.items[-1].detail
    # While unplugged, the card on reader 1 is taken away and another lands on reader 4.
    plugged.lift(1)
    plugged.place(4, "DEADBEEF")
    plugged.replug()
    health_log.wait_for(lambda h: online_states(h)[-1:] == [True], "the hub to come back")
    got = reading_log.wait_count(4)
    assert sorted(got[2:], key=lambda r: r.reader) == [
        TagReading("lift", "hub:1", UID7_PRINTED),
        TagReading("tap", "hub:4", "DE-AD-BE-EF"),
    ]
    assert hub.present() == {"hub:2": "04-11-22-33-44-55-66", "hub:4": "DE-AD-BE-EF"}
    assert hub.stats.connects == 2


def test_missing_heartbeat_takes_the_hub_offline_and_a_beat_brings_it_back(
    hub: SerialHub, plugged: SimulatedHub, health_log: ReadingLog, manual_clock: ManualClock
) -> None:
    plugged.freeze()
    manual_clock.advance(hubmod.HEARTBEAT_TIMEOUT + 1)
    got = health_log.wait_for(lambda h: online_states(h)[-1:] == [False], "a missed heartbeat")
    assert got[-1].detail == hubmod.HEARTBEAT_LOST.format(seconds=hubmod.HEARTBEAT_TIMEOUT + 1)
    # The driver asks a silent hub to say hello again, in case it reset without its port going away.
    received = len(plugged.received)
    manual_clock.advance(hubmod.HEARTBEAT_TIMEOUT + 1)
    wait_until(lambda: encode_line(hubmod.QUERY) in plugged.received[received:], "a query to the silent hub")
    plugged.thaw()
    plugged.beat()
    health_log.wait_for(lambda h: online_states(h)[-1:] == [True], "the heartbeat to return")


def test_a_hub_reader_going_down_is_reported_and_its_card_lifted(
    hub: SerialHub, plugged: SimulatedHub, reading_log: ReadingLog, health_log: ReadingLog
) -> None:
    plugged.place(2, UID7)
    plugged.reader_down(2, "version register read 0x00")
    health_log.wait_for(lambda h: any(r.device == "hub:2" for r in h), "reader 2's health")
    assert reading_log.wait_count(2)[-1] == TagReading("lift", "hub:2", UID7_PRINTED)
    assert HealthReading("hub:2", False, "version register read 0x00") in health_log.items
    plugged.reader_up(2)
    health_log.wait_for(lambda h: HealthReading("hub:2", True, "0x92") in h, "reader 2 to return")


def test_a_hub_with_another_protocol_version_is_refused(
    monkeypatch: pytest.MonkeyPatch, reading_log: ReadingLog, health_log: ReadingLog
) -> None:
    future = SimulatedHub(readers=2, serial_number="FUTURE", heartbeat=None, protocol_version=2)
    driver = SerialHub(reading_log, serial_number="FUTURE", on_health=health_log, list_ports=future.comports)
    try:
        future.place(1, UID7)
        driver.start()
        got = health_log.wait_count(1)
        assert got == [HealthReading("hub", False, hubmod.WRONG_PROTOCOL.format(theirs=2, ours=1))]
        lines = driver.stats.lines
        future.place(2, UID7)
        future.beat()
        wait_until(lambda: driver.stats.lines >= lines + 2, "the TAG and BEAT lines to be read")
        assert driver.hello is None
        assert reading_log.items == []
        assert not driver.online
    finally:
        driver.close()
        future.close()


def test_a_hub_that_is_not_plugged_in_is_reported_by_serial_number(
    monkeypatch: pytest.MonkeyPatch, reading_log: ReadingLog, health_log: ReadingLog
) -> None:
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])
    driver = SerialHub(reading_log, serial_number="NOPE-1", on_health=health_log, reconnect_delays=FAST_RETRY)
    driver.start()
    try:
        assert health_log.wait_count(1) == [
            HealthReading("hub", False, hubmod.PORT_NOT_FOUND.format(serial="NOPE-1"))
        ]
    finally:
        driver.close()


def test_find_port_matches_the_usb_serial_number(monkeypatch: pytest.MonkeyPatch) -> None:
    ports = [
        SimpleNamespace(device="/dev/ttyACM0", serial_number="A"),
        SimpleNamespace(device="/dev/ttyACM1", serial_number=None),
        SimpleNamespace(device="/dev/ttyACM2", serial_number="TLHUB-0001"),
    ]
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: ports)
    assert find_port("TLHUB-0001") == "/dev/ttyACM2"
    assert find_port("TLHUB-0002") is None


def test_parse_line_says_what_is_wrong() -> None:
    assert parse_line(b"$TAG,2,04A1B2C3D4E5F6*64\r\n").fields == ("2", UID7)
    with pytest.raises(HubProtocolError, match="checksum 5C does not match 64"):
        parse_line(b"$TAG,2,04A1B2C3D4E5F6*5C\r\n")
    with pytest.raises(ValueError, match=r"not framed"):
        parse_line(b"TAG,2,04A1B2C3D4E5F6")
    with pytest.raises(HubProtocolError, match="TAG carries 1 field"):
        parse_line(encode_line("TAG", 2))


def test_a_hub_needs_a_serial_number_or_a_port(reading_log: ReadingLog) -> None:
    with pytest.raises(DriverConfigError, match="serial number or a port"):
        SerialHub(reading_log)


@pytest.mark.parametrize(("options", "sentence"), [
    ({"name": " "}, hubmod.BAD_HUB_NAME.format(name=" ")),
    ({"baudrate": "fast"}, hubmod.BAD_BAUDRATE.format(name="hub", baud="fast")),
    ({"baudrate": 0}, hubmod.BAD_BAUDRATE.format(name="hub", baud=0)),
    ({"heartbeat_timeout": 0.5}, hubmod.BAD_HEARTBEAT.format(name="hub", seconds=0.5)),
    ({"reader_names": {-1: "seat1.tap"}}, hubmod.BAD_READER_NUMBER.format(name="hub", number=-1)),
    ({"reader_names": {"1": "seat1.tap"}}, hubmod.BAD_READER_NUMBER.format(name="hub", number="1")),
])
def test_bad_hub_settings_are_refused_saying_what_to_give(reading_log: ReadingLog, options: dict[str, object],
                                                          sentence: str) -> None:
    with pytest.raises(DriverConfigError) as caught:
        SerialHub(reading_log, serial_number=SERIAL, **options)  # type: ignore[arg-type]
    assert str(caught.value) == sentence


def test_a_reader_named_as_number_0_is_warned_about(reading_log: ReadingLog,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    SerialHub(reading_log, serial_number=SERIAL, reader_names={0: "seat1.tap", 1: "seat2.tap"})
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING] == [
        "hub hub: " + hubmod.READER_ZERO.format(name="hub", pad="seat1.tap")]


def test_a_bad_simulated_hub_leaves_no_fake_microcontroller_running(reading_log: ReadingLog) -> None:
    with pytest.raises(DriverConfigError) as caught:
        open_hub(reading_log, name="left", baudrate=-1, backend="sim")
    assert str(caught.value) == hubmod.BAD_BAUDRATE.format(name="left", baud=-1)
    with pytest.raises(DriverConfigError) as caught:
        open_hub(reading_log, name="left", readers=0, backend="sim")
    assert str(caught.value) == hubmod.BAD_READER_COUNT.format(name="left", readers=0)


def test_a_run_of_garbled_lines_is_logged_once_and_counted(
    hub: SerialHub, plugged: SimulatedHub, reading_log: ReadingLog, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="drivers.hub")
    for _ in range(40):  # what a wrong baud rate looks like
        plugged.send_raw(b"\xf0\x0f garbage \x80\r\n")
    plugged.place(1, UID7)
    reading_log.wait_count(1)
    assert hub.stats.garbled == 40
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO and "line" in r.getMessage()]
    assert len(said) == 2, said
    assert said[0].startswith("hub hub: " + hubmod.LINES_REJECTED.split("{")[0] + "hub line rejected (garbled)")
    assert said[1] == "hub hub: " + hubmod.LINES_GOOD_AGAIN.format(count=40)


def test_open_hub_in_simulation_drives_a_fake_microcontroller(
    reading_log: ReadingLog, health_log: ReadingLog
) -> None:
    driver = open_hub(reading_log, name="left", readers=2, on_health=health_log,
                      reader_names={1: "seat1-tap"}, backend="sim")
    assert driver.simulator is not None
    driver.start()
    try:
        health_log.wait_for(lambda h: any(r.online for r in h), "the simulated hub")
        driver.simulator.place(1, UID7)
        driver.simulator.place(2, "DEADBEEF")
        assert reading_log.wait_count(2) == [
            TagReading("tap", "seat1-tap", UID7_PRINTED),
            TagReading("tap", "left:2", "DE-AD-BE-EF"),
        ]
    finally:
        driver.close()


def test_every_example_line_in_the_protocol_document_and_firmware_checks_out() -> None:
    root = Path(__file__).resolve().parents[2]
    texts = [(root / "drivers" / "HUB_PROTOCOL.md").read_text(), (root / "firmware" / "touchline_hub" /
                                                                 "touchline_hub.ino").read_text()]
    examples = [m for text in texts for m in re.findall(r"\$[A-Z][A-Z0-9,]*\*[0-9A-F]{2}", text)]
    assert len(examples) >= 3
    for example in examples:
        parsed = parse_line(example.encode()) if not example.startswith("$QUERY") else None
        assert parsed is not None or example == encode_line(hubmod.QUERY).decode().strip()


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_no_bytes_on_the_wire_crash_the_parser(raw: bytes) -> None:
    try:
        parse_line(raw)
    except HubProtocolError as exc:
        assert exc.reason in ("garbled", "checksum", "unknown")  # type: ignore[attr-defined]


field_text = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126, exclude_characters="$*,"),
                     max_size=12)


@given(st.sampled_from(sorted(hubmod.HUB_MESSAGES)), st.data())
def test_every_encoded_line_parses_back(kind: str, data: st.DataObject) -> None:
    fields = tuple(data.draw(st.lists(field_text, min_size=hubmod.HUB_MESSAGES[kind],
                                      max_size=hubmod.HUB_MESSAGES[kind])))
    assert parse_line(encode_line(kind, *fields)) == hubmod.HubMessage(kind, fields)


def test_a_failing_callback_does_not_stop_the_hub(
    plugged: SimulatedHub, reading_log: ReadingLog, health_log: ReadingLog, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[TagReading] = []

    def flaky_callback(reading: TagReading) -> None:
        calls.append(reading)
        if len(calls) == 1:
            raise RuntimeError("the table choked on it")
        reading_log(reading)

    driver = SerialHub(flaky_callback, serial_number=SERIAL, on_health=health_log, reconnect_delays=FAST_RETRY)
    driver.start()
    try:
        # Only once the hub has said hello (and its resync is done) do the two lines come in this order;
        # cards placed before the port opens would be re-sent in the hello in reader order instead.
        health_log.wait_for(lambda h: any(r.online for r in h), "the hub to come online")
        plugged.place(1, UID7)
        plugged.place(2, "DEADBEEF")
        assert reading_log.wait_count(1) == [TagReading("tap", "hub:2", "DE-AD-BE-EF")]
        assert calls[0] == TagReading("tap", "hub:1", UID7_PRINTED)
        assert "the table choked on it" in caplog.text
        assert driver.present() == {"hub:1": UID7_PRINTED, "hub:2": "DE-AD-BE-EF"}
    finally:
        driver.close()


# --- line noise: a burst without a line end must not swallow the tap after it ----------------------------------------

NOISE_BURSTS = [
    b"\x00\xff\xfe",  # a glitch when a motor or a relay switches nearby
    b"garbage at the wrong baud rate",
    b"$TAG,1,04A1",  # half a line, its end lost
    b"\x80" * 200,  # longer than any line
    b"$$**$",
]


@pytest.mark.parametrize("noise", NOISE_BURSTS)
def test_a_tap_right_after_line_noise_arrives(hub: SerialHub, plugged: SimulatedHub, reading_log: ReadingLog,
                                              noise: bytes) -> None:
    plugged.send_raw(noise)  # no line end: the next line starts in the middle of the noise
    plugged.place(2, UID7)
    assert reading_log.wait_count(1) == [TagReading("tap", "hub:2", UID7_PRINTED)]
    assert hub.stats.rejected >= 1, "the noise itself is counted, not acted on"


def test_after_noise_the_driver_asks_the_hub_for_its_pads_and_gets_a_tap_lost_in_it(
    hub: SerialHub, plugged: SimulatedHub, reading_log: ReadingLog
) -> None:
    plugged.place(1, UID7, garbled=True)  # the hub sent its TAG line, but the cable flipped a bit of it
    plugged.beat()  # the next good line
    assert reading_log.wait_count(1) == [TagReading("tap", "hub:1", UID7_PRINTED)]
    assert hub.stats.bad_checksum + hub.stats.garbled >= 1
    assert encode_line(hubmod.QUERY) in plugged.received[1:], "a QUERY after the noise, besides the one at opening"


def test_a_wrong_baud_rate_does_not_flood_the_hub_with_queries(
    hub: SerialHub, plugged: SimulatedHub, reading_log: ReadingLog
) -> None:
    for _ in range(30):
        plugged.send_raw(b"\xf0\x0f garbage \x80\r\n")
        plugged.beat()
    plugged.place(1, UID7)
    reading_log.wait_count(1)
    queries = [line for line in plugged.received if line == encode_line(hubmod.QUERY)]
    assert len(queries) <= 3, f"{len(queries)} queries for 30 bursts within a second"


def test_a_second_program_cannot_open_the_hubs_port(hub: SerialHub, plugged: SimulatedHub,
                                                    reading_log: ReadingLog) -> None:
    other_health = ReadingLog()
    other = SerialHub(lambda reading: None, serial_number=SERIAL, name="other", on_health=other_health,
                      reconnect_delays=FAST_RETRY)
    other.start()
    try:
        got = other_health.wait_for(lambda h: len(h) >= 1, "the second opener to be refused")
        assert not got[0].online
        assert got[0].detail.startswith(hubmod.PORT_OPEN_FAILED.format(port=plugged.device, reason="")[:-len("); retrying")])
        assert "exclusively lock" in got[0].detail
        plugged.place(1, UID7)
        assert reading_log.wait_count(1) == [TagReading("tap", "hub:1", UID7_PRINTED)], "the first keeps every line"
        assert hub.stats.rejected == 0
    finally:
        other.close()
