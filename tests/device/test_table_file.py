"""The table file: the shipped examples load, and every wiring mistake is named by line and field."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from device import errors
from device.errors import TableFileError
from device.table_file import SIM_TABLE, SPI_SELECT_PINS, TABLES_DIR, default_sim_table, load_table, parse_table

SEAT_1 = """
[[seats]]
seat = 1
  [[seats.pads]]
  bus = 0
  device = 0
  [[seats.buttons]]
  role = "roll"
  gpio = 5
  [seats.screen]
  address = 0x3c
  mux_address = 0x70
  mux_channel = 0
"""

SEAT_2 = (
    SEAT_1.replace("seat = 1", "seat = 2").replace("device = 0", "device = 1")
    .replace("gpio = 5", "gpio = 6").replace("mux_channel = 0", "mux_channel = 1")
)


def line_of(text: str, needle: str, occurrence: int = 1) -> int:
    """The 1-based line of the n-th line containing ``needle`` (what an owner would look for in an editor)."""
    hits = [n for n, line in enumerate(text.splitlines(), start=1) if needle in line]
    return hits[occurrence - 1]


def problems_of(text: str) -> list[errors.Problem]:
    with pytest.raises(TableFileError) as caught:
        parse_table(text, source=Path("/tmp/t.toml"))
    assert isinstance(caught.value, ValueError)
    return list(caught.value.problems)


def only_problem(text: str) -> errors.Problem:
    found = problems_of(text)
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("path", sorted(TABLES_DIR.glob("*.toml")), ids=lambda p: p.name)
def test_every_shipped_table_loads_with_four_seats_and_an_opponent_pad(path: Path) -> None:
    table = load_table(path)
    assert [s.number for s in table.seats] == [1, 2, 3, 4]
    assert [p.role for p in table.shared_pads] == ["opponent"]
    assert table.shared_screen is not None
    assert all(s.screen is not None and s.button("roll") is not None for s in table.seats)
    ids = [p.id for p in table.pads()] + [b.id for b in table.buttons()] + [s.id for s in table.screens()]
    assert len(ids) == len(set(ids))


def test_the_default_simulated_table_is_simulated_and_serves_the_page_locally() -> None:
    table = default_sim_table()
    assert table.backend == "sim"
    assert (table.host, table.port) == ("127.0.0.1", 8000)
    assert table.source == SIM_TABLE
    assert table.seat(1).pads[0].id == "seat1.tap"
    assert table.shared_pads[0].id == "shared.opponent"
    assert [b.id for b in table.shared_buttons] == ["shared.undo"]


def test_the_hub_table_reads_its_pads_on_the_hub() -> None:
    table = load_table(TABLES_DIR / "four-seats-hub.toml")
    assert {p.hub for p in table.pads()} == {"hub"}
    assert sorted(p.reader for p in table.pads()) == [1, 2, 3, 4, 5]
    assert not any(p.on_spi for p in table.pads())
    assert table.hub("hub").baud == 115200


def test_the_parsed_table_cannot_be_changed_by_accident() -> None:
    table = default_sim_table()
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.port = 9000  # type: ignore[misc]


def test_an_unknown_key_names_its_line_and_suggests_the_right_spelling() -> None:
    text = SEAT_1.replace('  gpio = 5', '  gpoi = 5')
    found = problems_of(text)
    unknown = next(p for p in found if p.field.endswith("gpoi"))
    assert unknown.line == line_of(text, "gpoi")
    assert unknown.field == "seats[1].buttons[1].gpoi"
    assert "did you mean 'gpio'" in unknown.message
    # The button then lacks its pin: that is said too, in the same report.
    assert any(p.field == "seats[1].buttons[1].gpio" for p in found)


def test_a_pin_used_twice_points_at_both_lines() -> None:
    text = SEAT_1 + SEAT_2.replace("gpio = 6", "gpio = 5")
    problem = only_problem(text)
    assert problem.line == line_of(text, "gpio = 5", 2)
    assert problem.field == "seats[2].buttons[1].gpio"
    assert problem.message == errors.PIN_TWICE.format(pin=5, other="seat 1's roll button", line=line_of(text, "gpio = 5"))


def test_readers_may_share_a_reset_line_but_a_button_may_not_use_it() -> None:
    shared_reset = SEAT_1.replace("device = 0", "device = 0\n  rst_pin = 25") + SEAT_2.replace("device = 1", "device = 1\n  rst_pin = 25")
    assert parse_table(shared_reset).seat(2).pads[0].rst_pin == 25
    clash = shared_reset.replace("gpio = 6", "gpio = 25")
    problem = only_problem(clash)
    assert problem.field == "seats[2].buttons[1].gpio"
    assert "GPIO 25 is already used by the readers' reset line" in problem.message


def test_an_spi_select_used_twice_is_refused() -> None:
    text = SEAT_1 + SEAT_2.replace("device = 1", "device = 0")
    problem = only_problem(text)
    assert problem.field == "seats[2].pads[1].device"
    assert problem.line == line_of(text, "device = 0", 2)
    assert "SPI0.0 is already used by seat 1's tap pad" in problem.message


def test_two_screens_on_the_same_mux_channel_and_address_clash() -> None:
    text = SEAT_1 + SEAT_2.replace("mux_channel = 1", "mux_channel = 0")
    problem = only_problem(text)
    assert problem.field == "seats[2].screen.address"
    assert "TCA9548A 0x70 channel 0" in problem.message and "seat 1's screen" in problem.message


def test_a_screen_outside_the_mux_clashes_with_every_screen_behind_it() -> None:
    text = SEAT_1 + SEAT_2.replace("  mux_address = 0x70\n  mux_channel = 1\n", "")
    assert only_problem(text).field == "seats[2].screen.address"


def test_screens_on_different_channels_or_addresses_are_fine() -> None:
    table = parse_table(SEAT_1 + SEAT_2)
    assert [(s.mux_channel, s.address) for s in table.screens()] == [(0, 0x3C), (1, 0x3C)]


def test_a_mux_address_without_a_channel_is_refused() -> None:
    text = SEAT_1.replace("  mux_channel = 0\n", "")
    problem = only_problem(text)
    assert problem.field == "seats[1].screen.mux_channel"
    assert problem.message == errors.MUX_HALF


@pytest.mark.parametrize("number", [0, 5, -1])
def test_seat_numbers_outside_one_to_four_are_refused(number: int) -> None:
    text = SEAT_1.replace("seat = 1", f"seat = {number}")
    problem = next(p for p in problems_of(text) if p.field == "seats[1].seat")
    assert problem.line == line_of(text, f"seat = {number}")
    assert "between 1 and 4" in problem.message


def test_the_same_seat_twice_is_refused() -> None:
    text = SEAT_1 + SEAT_2.replace("seat = 2", "seat = 1")
    problem = only_problem(text)
    assert problem.message == errors.SEAT_TWICE.format(seat=1, other=line_of(text, "seat = 1"))


def test_five_seats_are_too_many() -> None:
    seats = "".join(
        SEAT_1.replace("seat = 1", f"seat = {n}").replace("gpio = 5", f"gpio = {n + 20}")
        .replace("device = 0", f"device = {n % 2}").replace("bus = 0", f"bus = {n // 2}")
        .replace("mux_channel = 0", f"mux_channel = {n}")
        for n in range(1, 6)
    )
    assert any(p.message == errors.TOO_MANY_SEATS.format(count=5) for p in problems_of(seats))


def test_a_table_without_seats_is_refused() -> None:
    assert only_problem('name = "empty"\n').message == errors.NO_SEATS


def test_a_pad_with_no_reader_says_how_to_name_one() -> None:
    text = SEAT_1.replace("  bus = 0\n  device = 0\n", '  role = "tap"\n')
    problem = only_problem(text)
    assert problem.field == "seats[1].pads[1]"
    assert problem.line == line_of(text, "[[seats.pads]]")
    assert problem.message == errors.PAD_NEEDS_READER


def test_a_pad_with_two_readers_is_refused() -> None:
    text = '[[hubs]]\nname = "h"\nport = "/dev/ttyACM0"\n' + SEAT_1.replace("device = 0", 'device = 0\n  hub = "h"\n  reader = 1')
    assert only_problem(text).message == errors.PAD_TWO_READERS


def test_a_pad_on_an_undescribed_hub_is_refused() -> None:
    text = SEAT_1.replace("  bus = 0\n  device = 0\n", '  hub = "hub1"\n  reader = 1\n')
    problem = only_problem(text)
    assert problem.field == "seats[1].pads[1].hub"
    assert problem.message == errors.UNKNOWN_HUB.format(hub="hub1", known="(none)")


def test_a_hub_reader_beyond_the_hub_is_refused() -> None:
    text = '[[hubs]]\nname = "h"\nserial = "X1"\nreaders = 4\n' + SEAT_1.replace("  bus = 0\n  device = 0\n", '  hub = "h"\n  reader = 5\n')
    problem = only_problem(text)
    assert problem.field == "seats[1].pads[1].reader"
    assert problem.message == errors.OUT_OF_RANGE.format(value=5, what="a reader of hub 'h'", low=1, high=4)


def test_hub_readers_count_from_one_like_the_hub_protocol() -> None:
    hub = '[[hubs]]\nname = "h"\nserial = "X1"\nreaders = 4\n'
    zero = hub + SEAT_1.replace("  bus = 0\n  device = 0\n", '  hub = "h"\n  reader = 0\n')
    problem = only_problem(zero)
    assert problem.field == "seats[1].pads[1].reader"
    assert problem.line == line_of(zero, "reader = 0")
    assert problem.message == errors.HUB_READER_ZERO
    last = hub + SEAT_1.replace("  bus = 0\n  device = 0\n", '  hub = "h"\n  reader = 4\n')
    assert parse_table(last, source=Path("/tmp/t.toml")).seats[0].pads[0].reader == 4


def test_a_button_on_a_bus_pin_in_use_is_refused() -> None:
    text = SEAT_1.replace("gpio = 5", "gpio = 10")  # SPI0 MOSI, taken by the reader on SPI0
    problem = only_problem(text)
    assert problem.field == "seats[1].buttons[1].gpio"
    assert problem.message == errors.PIN_IS_BUS.format(pin=10, bus_pin="SPI0 MOSI", user="SPI0")


def test_a_button_on_the_i2c_pins_is_refused_when_screens_use_i2c() -> None:
    text = SEAT_1.replace("gpio = 5", "gpio = 3")
    assert "I2C1 SCL" in only_problem(text).message


def test_a_value_of_the_wrong_type_says_how_to_write_it() -> None:
    text = SEAT_1.replace("gpio = 5", 'gpio = "5"')
    problem = next(p for p in problems_of(text) if p.field == "seats[1].buttons[1].gpio")
    assert problem.message == errors.WRONG_TYPE.format(value="5", expected="a whole number", example="gpio = 1")


def test_a_bad_screen_kind_and_backend_list_the_choices() -> None:
    text = 'backend = "fake"\n' + SEAT_1.replace("address = 0x3c", 'kind = "ssd1309"\n  address = 0x3c')
    fields = {p.field: p.message for p in problems_of(text)}
    assert fields["backend"] == errors.NOT_ONE_OF.format(value="fake", allowed="real, sim")
    assert fields["seats[1].screen.kind"] == errors.NOT_ONE_OF.format(value="ssd1309", allowed="ssd1306, sh1106")


def test_every_problem_is_reported_at_once_and_the_message_names_file_line_and_field() -> None:
    text = SEAT_1.replace("gpio = 5", "gpio = 99").replace("mux_channel = 0", "mux_channel = 9")
    with pytest.raises(TableFileError) as caught:
        parse_table(text, source=Path("/home/owner/table.toml"))
    message = str(caught.value)
    assert f"/home/owner/table.toml:{line_of(text, 'gpio = 99')}: seats[1].buttons[1].gpio: " in message
    assert f"/home/owner/table.toml:{line_of(text, 'mux_channel = 9')}: seats[1].screen.mux_channel: " in message


def test_invalid_toml_says_where() -> None:
    with pytest.raises(TableFileError) as caught:
        parse_table("[[seats]]\nseat = = 1\n", source=Path("t.toml"))
    assert "line 2" in str(caught.value) and "not valid TOML" in str(caught.value)


def test_a_missing_file_says_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(TableFileError) as caught:
        load_table(path)
    assert str(caught.value) == errors.TABLE_FILE_MISSING.format(path=path)


def test_relative_deck_and_database_paths_follow_the_table_file(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('deck = "cards"\ndatabase = "games.db"\n' + SEAT_1)
    table = load_table(path)
    assert table.deck == tmp_path / "cards"
    assert table.database == tmp_path / "games.db"


def test_without_a_database_the_log_goes_to_the_service_state_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/touchline")
    assert parse_table(SEAT_1).database == Path("/var/lib/touchline/touchline.db")
    monkeypatch.delenv("STATE_DIRECTORY")
    monkeypatch.setenv("XDG_DATA_HOME", "/home/owner/.data")
    assert parse_table(SEAT_1).database == Path("/home/owner/.data/touchline/touchline.db")


def test_a_screen_on_spi_takes_a_chip_select_and_a_dc_pin() -> None:
    text = SEAT_1.replace("  address = 0x3c\n  mux_address = 0x70\n  mux_channel = 0\n",
                          '  interface = "spi"\n  spi_bus = 0\n  spi_device = 1\n  dc_pin = 24\n')
    screen = parse_table(text).seat(1).screen
    assert screen is not None and (screen.spi_bus, screen.spi_device, screen.dc_pin) == (0, 1, 24)
    clash = text.replace("spi_device = 1", "spi_device = 0")
    assert only_problem(clash).field == "seats[1].screen.spi_device"
    mixed = text.replace("dc_pin = 24", "dc_pin = 24\n  address = 0x3c")
    assert only_problem(mixed).field == "seats[1].screen.address"


def test_the_example_in_the_readme_is_a_valid_table_file() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    example = re.search(r"## Table files.*?```toml\n(.*?)```", readme, re.S)
    assert example is not None
    table = parse_table(example.group(1))
    assert [p.id for p in table.pads()] == ["seat1.tap", "shared.opponent"]


def test_two_buttons_with_the_same_role_on_a_seat_are_refused() -> None:
    text = SEAT_1.replace("  [seats.screen]", '  [[seats.buttons]]\n  role = "roll"\n  gpio = 6\n  [seats.screen]')
    problem = only_problem(text)
    assert problem.field == "seats[1].buttons[2].role"
    assert problem.line == line_of(text, 'role = "roll"', 2)
    assert problem.message == errors.BUTTON_ROLE_TWICE.format(
        owner="seat 1", role="roll", line=line_of(text, "[[seats.buttons]]"), roles="roll, cancel")
    with_cancel = text.replace('role = "roll"\n  gpio = 6', 'role = "cancel"\n  gpio = 6')
    assert [b.id for b in parse_table(with_cancel).seat(1).buttons] == ["seat1.roll", "seat1.cancel"]


def test_the_wiring_table_in_the_readme_matches_the_shipped_spi_table() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    wiring = readme.split("## Wiring", 1)[1].split("\n## ", 1)[0]
    rows = {cells[1].strip(): cells[3].strip() for line in wiring.splitlines()
            if line.startswith("| ") and len(cells := line.split("|")) > 4}
    table = load_table(TABLES_DIR / "four-seats-spi.toml")
    for seat in table.seats:
        roll = seat.button("roll")
        assert roll is not None
        assert rows[f"seat {seat.number} button / LED"] == f"{roll.gpio} / {roll.led_gpio}"
    undo = table.shared_buttons[0]
    assert rows["undo button (shared; hold 2 s)"] == str(undo.gpio) and undo.hold_seconds == 2.0
    # Each reader's SDA goes to the chip-select pin of the bus and select the table file gives it.
    for row, pad in [(f"seat {s.number} reader", s.pads[0]) for s in table.seats] + [
            ("Opponent pad reader (shared)", table.shared_pads[0])]:
        assert rows[row] == str(SPI_SELECT_PINS[pad.bus][pad.device]), row


# --- antenna gain ----------------------------------------------------------------------------------------------------


def test_the_readers_gain_defaults_to_the_chips_reset_value_and_a_pad_may_differ() -> None:
    from drivers.rfid import registers

    default = parse_table(SPI_TABLE_WITH_GAIN.replace('[readers]\ngain_db = 43\n', ""))
    assert {p.id: p.gain_db for p in default.pads()} == {"seat1.tap": registers.RX_GAIN_DEFAULT_DB, "seat2.tap": 23}
    assert registers.RX_GAIN_DEFAULT_DB == 33, "the chip's reset value (RFCfgReg 0x48)"
    table = parse_table(SPI_TABLE_WITH_GAIN)
    assert {p.id: p.gain_db for p in table.pads()} == {"seat1.tap": 43, "seat2.tap": 23}


def test_a_gain_the_chip_does_not_have_is_refused_with_its_line() -> None:
    with pytest.raises(TableFileError) as caught:
        parse_table(SPI_TABLE_WITH_GAIN.replace("gain_db = 43", "gain_db = 40"))
    assert "gain_db: " + errors.NOT_ONE_OF.format(value=40, allowed="18, 23, 33, 38, 43, 48") in str(caught.value)


def test_a_hub_pad_is_told_where_its_gain_is_set() -> None:
    text = """
[[hubs]]
name = "hub"
serial = "TL-1"
[[seats]]
seat = 1
  [[seats.pads]]
  hub = "hub"
  reader = 1
  gain_db = 38
  [[seats.buttons]]
  gpio = 5
"""
    with pytest.raises(TableFileError) as caught:
        parse_table(text)
    assert errors.HUB_GAIN in str(caught.value)


SPI_TABLE_WITH_GAIN = """
[readers]
gain_db = 43
[[seats]]
seat = 1
  [[seats.pads]]
  bus = 0
  device = 0
  [[seats.buttons]]
  gpio = 5
[[seats]]
seat = 2
  [[seats.pads]]
  bus = 0
  device = 1
  gain_db = 23
  [[seats.buttons]]
  gpio = 6
"""
