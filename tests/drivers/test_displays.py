"""Seat screens: luma.oled's real SSD1306/SH1106 code over simulated panels, an I2C bus and a TCA9548A."""

from __future__ import annotations

import io
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from drivers import displays as displaysmod
from drivers.base import HealthReading
from drivers.displays import Display, SimulatedI2C, open_display
from drivers.errors import DriverConfigError

from .conftest import WAIT, ManualClock, ReadingLog

# luma.oled 3.16 still calls Image.getdata(), which Pillow 13 deprecates (removal planned for Pillow 14).
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")


def frame_with(text: str, box: int = 0) -> Image.Image:
    """A frame a seat screen might show: a line of text and a filled box whose place differs per frame."""
    image = Image.new("1", (128, 64), 0)
    draw = ImageDraw.Draw(image)
    draw.text((2, 2), text, fill=1)
    draw.rectangle((box, 40, box + 20, 63), fill=1)
    return image


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


@pytest.fixture
def table() -> SimulatedI2C:
    return SimulatedI2C(populate=False)


@pytest.fixture(autouse=True)
def close_every_display(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Close every display a test made, so no retry timer outlives its test."""
    made: list[Display] = []
    original = Display.__init__

    def tracked(self: Display, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(Display, "__init__", tracked)
    yield
    for display in made:
        display.close()


@pytest.mark.parametrize(("kind", "interface"), [("ssd1306", "i2c"), ("sh1106", "i2c"), ("ssd1306", "spi"),
                                                 ("sh1106", "spi")])
def test_a_frame_lights_the_same_pixels_on_the_panel(kind: str, interface: str) -> None:
    simulation = SimulatedI2C()
    display = open_display("seat1", kind=kind, interface=interface, bus=0, backend="sim",
                           simulation=simulation)  # type: ignore[arg-type]
    frame = frame_with("Seat 1 rolled 6", box=90)
    assert display.show(frame)
    assert same_pixels(display.frame(), frame)
    assert display.online


def test_panels_behind_a_multiplexer_each_get_their_own_frame(table: SimulatedI2C) -> None:
    # Two panels share address 0x3C on channels 0 and 5; a third sits on the bus directly at 0x3D.
    left = table.add_panel(1, 0x3C, mux_address=0x70, mux_channel=0)
    right = table.add_panel(1, 0x3C, kind="sh1106", mux_address=0x70, mux_channel=5)
    direct = table.add_panel(1, 0x3D)
    seat1 = open_display("seat1", bus=1, mux_address=0x70, mux_channel=0, backend="sim", simulation=table)
    seat2 = open_display("seat2", kind="sh1106", bus=1, mux_address=0x70, mux_channel=5, backend="sim",
                         simulation=table)
    seat3 = open_display("seat3", bus=1, address=0x3D, backend="sim", simulation=table)
    mux = table.bus(1).muxes[0x70]
    mux.selects.clear()
    frames = {name: frame_with(name, box=i * 30) for i, name in enumerate(("one", "two", "three", "four"))}
    assert seat1.show(frames["one"])
    assert seat2.show(frames["two"])
    assert seat1.show(frames["four"])
    assert seat3.show(frames["three"])
    assert same_pixels(left.image(), frames["four"])
    assert same_pixels(right.image(), frames["two"])
    assert same_pixels(direct.image(), frames["three"])
    # The channel is selected before every frame that changes the panel, not once at start.
    assert mux.selects == [1 << 0, 1 << 5, 1 << 0]
    assert seat1.show(frames["four"])
    assert mux.selects == [1 << 0, 1 << 5, 1 << 0], "a frame the panel already shows sends nothing"


def test_the_simulated_multiplexer_hides_panels_on_closed_channels(table: SimulatedI2C) -> None:
    table.add_panel(1, 0x3C, mux_address=0x70, mux_channel=3)
    bus = table.bus(1)
    bus.write_byte(0x70, 1 << 2)
    with pytest.raises(OSError, match="no answer at 0x3C"):
        bus.write_quick(0x3C)
    bus.write_byte(0x70, 1 << 3)
    bus.write_quick(0x3C)


def test_a_panel_that_stops_answering_is_reported_retried_and_does_not_stop_the_others(
    table: SimulatedI2C, health_log: ReadingLog, manual_clock: ManualClock
) -> None:
    flaky = table.add_panel(1, 0x3C, mux_address=0x70, mux_channel=1)
    steady = table.add_panel(1, 0x3C, mux_address=0x70, mux_channel=2)
    seat1 = open_display("seat1", bus=1, mux_address=0x70, mux_channel=1, backend="sim", simulation=table,
                         on_health=health_log, clock=manual_clock, retry_interval=5)
    seat2 = open_display("seat2", bus=1, mux_address=0x70, mux_channel=2, backend="sim", simulation=table,
                         on_health=health_log, clock=manual_clock)
    flaky.fail()
    missed = frame_with("your turn")
    assert not seat1.show(missed)
    assert seat2.show(frame_with("seat 2"))
    assert same_pixels(steady.image(), frame_with("seat 2"))
    offline = [r for r in health_log.items if not r.online]
    assert offline == [HealthReading("seat1", False, displaysmod.PANEL_OFFLINE.format(
        kind="SSD1306", where="at 0x3C on I2C bus 1 behind TCA9548A 0x70 channel 1",
        reason="I2C device not found on address: 0x3C", every=5))]
    flaky.repair()
    assert not seat1.retry()  # not before the retry interval has passed
    manual_clock.advance(5)
    assert seat1.retry()
    assert same_pixels(flaky.image(), missed)  # the frame it missed is shown once it is back
    assert health_log.items[-1] == HealthReading("seat1", True, seat1.detail)


def test_a_panel_missing_at_start_is_reported_not_raised(table: SimulatedI2C, health_log: ReadingLog) -> None:
    display = open_display("seat4", bus=3, address=0x3D, backend="sim", simulation=table, on_health=health_log)
    assert not display.online
    assert "does not answer at 0x3D on I2C bus 3" in health_log.items[0].detail
    assert not display.show(frame_with("nobody sees this"))


def test_the_stock_cleanup_blanks_the_panel_but_ours_persists(table: SimulatedI2C) -> None:
    stock_panel = table.add_panel(1, 0x3C)
    stock = ssd1306(serial_interface=i2c(bus=table.bus(1), address=0x3C))
    stock.display(frame_with("stock"))
    stock.cleanup()  # what luma does at interpreter exit
    assert not stock_panel.display_on

    ours_panel = table.add_panel(2, 0x3C)
    ours = open_display("seat1", bus=2, backend="sim", simulation=table)
    ours.show(frame_with("still here"))
    ours.close()
    assert ours_panel.display_on
    assert same_pixels(ours_panel.image(), frame_with("still here"))


def test_png_and_colour_frames(table: SimulatedI2C) -> None:
    display = open_display("seat1", backend="sim", simulation=SimulatedI2C())
    colour = Image.new("RGB", (128, 64), (0, 0, 0))
    ImageDraw.Draw(colour).rectangle((10, 10, 60, 30), fill=(255, 200, 0))
    assert display.show(colour)
    decoded = Image.open(io.BytesIO(display.png()))
    assert decoded.size == (128, 64)
    assert decoded.convert("1").getpixel((20, 20)) and not decoded.convert("1").getpixel((100, 50))


def test_bad_configuration_and_frames_are_refused_with_clear_messages() -> None:
    with pytest.raises(DriverConfigError, match="'ssd1306' and 'sh1106'"):
        Display("x", kind="st7735", backend="sim")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="use 0x3C or 0x3D"):
        Display("x", address=0x27, backend="sim")
    with pytest.raises(DriverConfigError, match="channels 0-7"):
        Display("x", mux_address=0x70, mux_channel=8, backend="sim")
    with pytest.raises(DriverConfigError, match="not both"):
        Display("x", mux_address=0x70, backend="sim")
    with pytest.raises(DriverConfigError, match="'i2c' or 'spi'"):
        Display("x", interface="uart", backend="sim")  # type: ignore[arg-type]
    display = open_display("seat1", backend="sim", simulation=SimulatedI2C())
    display.show(frame_with("kept"))
    with pytest.raises(DriverConfigError, match="is 64x32 pixels"):
        display.show(Image.new("1", (64, 32)))
    assert same_pixels(display.frame(), frame_with("kept"))


def test_screens_drawn_from_two_threads_never_land_on_each_others_panel(table: SimulatedI2C) -> None:
    left = table.add_panel(1, 0x3C, mux_address=0x70, mux_channel=0)
    right = table.add_panel(1, 0x3C, mux_address=0x70, mux_channel=1)
    seats = [open_display(f"seat{c}", bus=1, mux_address=0x70, mux_channel=c, backend="sim", simulation=table)
             for c in (0, 1)]
    before = (left.wrote, right.wrote)
    frames = [[frame_with("left", box=0), frame_with("left", box=40)], [frame_with("right", box=100),
                                                                          frame_with("right", box=60)]]

    def draw(seat: int) -> None:
        for n in range(15):
            seats[seat].show(frames[seat][n % 2])

    workers = [threading.Thread(target=draw, args=(seat,)) for seat in (0, 1)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert left.wrote > before[0] and right.wrote > before[1]
    assert same_pixels(left.image(), frames[0][0]) and same_pixels(right.image(), frames[1][0])


def test_retrying_an_unplugged_panel_does_not_pile_up_luma_devices(
    table: SimulatedI2C, monkeypatch: pytest.MonkeyPatch, manual_clock: ManualClock
) -> None:
    import luma.core.device

    hooks: list[object] = []
    monkeypatch.setattr(luma.core.device.atexit, "register", hooks.append)
    display = open_display("seat1", bus=1, backend="sim", simulation=table, clock=manual_clock, retry_interval=1)
    for _ in range(20):
        manual_clock.advance(1)
        assert not display.retry()
    assert hooks == []  # each luma device made would stay referenced by its exit hook until exit
    table.add_panel(1, 0x3C)
    manual_clock.advance(1)
    assert display.retry()
    assert len(hooks) == 1


@pytest.mark.parametrize("rotate", [1, 2])
def test_a_turned_panel_shows_the_frame_the_right_way_up_for_the_player(rotate: int) -> None:
    simulation = SimulatedI2C()
    display = open_display("seat1", backend="sim", simulation=simulation, rotate=rotate)
    upright = Image.new("1", display.size, 0)
    ImageDraw.Draw(upright).rectangle((0, 0, 9, 4), fill=1)  # a mark in the player's top-left corner
    assert display.show(upright)
    assert same_pixels(display.frame(), upright)
    lit = simulation.panel(1, 0x3C)
    assert lit is not None
    # The panel itself is turned, so in its own pixels the mark is not at the top-left.
    assert not lit.image().getpixel((0, 0))
    with pytest.raises(DriverConfigError, match="0, 1, 2 or 3"):
        Display("x", rotate=4, backend="sim")


def test_an_offline_panel_comes_back_by_itself_with_the_frame_it_missed(
    table: SimulatedI2C, health_log: ReadingLog
) -> None:
    # Nobody calls retry() and the frame never changes: the driver's own timer brings the panel back.
    flaky = table.add_panel(1, 0x3C)
    display = open_display("seat1", bus=1, backend="sim", simulation=table, on_health=health_log,
                           retry_interval=0.02)
    try:
        flaky.fail()
        missed = frame_with("your turn")
        assert not display.show(missed)
        health_log.wait_for(lambda h: [r.online for r in h] == [True, False], "the panel to be reported offline")
        flaky.repair()
        health_log.wait_for(lambda h: [r.online for r in h] == [True, False, True], "the panel to come back")
        assert same_pixels(flaky.image(), missed)
        assert display.online
    finally:
        display.close()


@pytest.mark.parametrize("path", ["timer", "retry", "show"])
def test_whoever_hears_a_panel_is_back_sees_the_frame_it_missed_on_it(table: SimulatedI2C, path: str) -> None:
    # The screens (and the page's health line) redraw or report on "online": the panel must already show the frame.
    flaky = table.add_panel(1, 0x3C)
    heard = ReadingLog()  # each health reading with what the panel shows at the moment it is said

    clock = ManualClock()
    display = open_display("seat1", bus=1, backend="sim", simulation=table, retry_interval=0.02,
                           on_health=lambda r: heard((r.online, flaky.image().convert("1").tobytes())),
                           auto_retry=path == "timer", **({} if path == "timer" else {"clock": clock}))
    flaky.fail()
    missed = frame_with("your turn", box=60)
    assert not display.show(missed)
    flaky.repair()
    if path != "timer":  # else the driver's own timer tries again
        clock.advance(1)
        assert display.retry() if path == "retry" else display.show(missed)
    seen = heard.wait_count(3, "health readings")
    assert [online for online, _ in seen] == [True, False, True]
    assert seen[-1][1] == missed.tobytes(), "the panel was said to be back before it showed the frame it missed"


def test_a_closed_display_stops_retrying(table: SimulatedI2C, health_log: ReadingLog) -> None:
    before = set(threading.enumerate())
    display = open_display("seat9", bus=1, backend="sim", simulation=table, on_health=health_log,
                           retry_interval=0.01)
    timers = [t for t in threading.enumerate() if t not in before and t.name == "display-retry-seat9"]
    assert len(timers) == 1, "a panel missing at start is retried by a timer"
    display.close()
    table.add_panel(1, 0x3C)
    timers[0].join(WAIT)
    assert [r.online for r in health_log.items] == [False], "no attempt after close()"
    assert not display.online


def test_without_auto_retry_only_show_or_retry_try_again(
    table: SimulatedI2C, health_log: ReadingLog, manual_clock: ManualClock
) -> None:
    display = open_display("seat1", bus=1, backend="sim", simulation=table, on_health=health_log,
                           clock=manual_clock, retry_interval=1, auto_retry=False)
    assert not any(t.name == "display-retry-seat1" for t in threading.enumerate())
    table.add_panel(1, 0x3C)
    assert not display.show(frame_with("too soon"))  # the retry interval has not passed
    manual_clock.advance(1)
    assert display.show(frame_with("now"))
    assert [r.online for r in health_log.items] == [False, True]


@pytest.mark.parametrize(("options", "sentence"), [
    ({"mux_address": 0x20, "mux_channel": 1}, displaysmod.BAD_MUX_ADDRESS.format(name="x", address=0x20)),
    ({"bus": -1}, displaysmod.BAD_BUS_NUMBER.format(name="x", interface="I2C", bus=-1)),
    ({"bus": "1"}, displaysmod.BAD_BUS_NUMBER.format(name="x", interface="I2C", bus="1")),
    ({"interface": "spi", "spi_device": 3}, displaysmod.BAD_SPI_DEVICE.format(name="x", device=3)),
    ({"interface": "spi", "dc_pin": 40}, displaysmod.BAD_GPIO.format(name="x", role="D/C", pin=40)),
    ({"interface": "spi", "rst_pin": None}, displaysmod.BAD_GPIO.format(name="x", role="RST", pin=None)),
    ({"retry_interval": 0}, displaysmod.BAD_RETRY.format(name="x", interval=0)),
])
def test_bad_wiring_values_are_refused_saying_what_to_give(options: dict[str, object], sentence: str) -> None:
    with pytest.raises(DriverConfigError) as caught:
        Display("x", backend="sim", simulation=SimulatedI2C(), **options)  # type: ignore[arg-type]
    assert str(caught.value) == sentence


def test_a_frame_that_is_not_an_image_is_refused_and_changes_nothing() -> None:
    display = open_display("seat1", backend="sim", simulation=SimulatedI2C())
    assert display.show(frame_with("kept"))
    with pytest.raises(DriverConfigError) as caught:
        display.show(b"\x00" * 1024)  # type: ignore[arg-type]
    assert str(caught.value) == displaysmod.NOT_AN_IMAGE.format(name="seat1", got="bytes")
    assert same_pixels(display.frame(), frame_with("kept"))


def test_panels_share_one_small_copy_of_lumas_tables_and_lumas_own_drawing_still_lights_the_frame() -> None:
    # luma's SSD1306 keeps two lookup tables of 8,192 numbers per panel; an SH1106 has none.
    simulation = SimulatedI2C(populate=False)
    panels = [simulation.add_panel(bus, 0x3C) for bus in (1, 2)]
    displays = [open_display(f"seat{bus}", bus=bus, backend="sim", simulation=simulation) for bus in (1, 2)]
    devices = [display._device for display in displays]
    for name in ("_mask", "_offsets"):
        assert getattr(devices[0], name) is getattr(devices[1], name)
    assert sum(sys.getsizeof(getattr(devices[0], name)) for name in ("_mask", "_offsets")) <= 32 * 1024
    # luma's own display(), which reads the tables, draws the whole frame as the driver's own pages do.
    frame = frame_with("Seat 2 holds", box=77)
    devices[1].display(frame)
    assert same_pixels(panels[1].image(), frame)


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
def test_the_frame_read_back_is_what_lumas_dummy_device_would_hold(kind: str) -> None:
    # The simulation was luma's dummy device; ours runs the real panel code under it and must
    # still give a test (and the page) the very image dummy would keep.
    from luma.core.device import dummy

    reference = dummy(width=128, height=64, mode="1")
    display = open_display("seat1", kind=kind, backend="sim", simulation=SimulatedI2C())  # type: ignore[arg-type]
    for frame in (frame_with("Seat 1 rolled 6", box=3), frame_with("Seat 2 holds", box=100)):
        reference.display(frame)
        assert display.show(frame)
        assert same_pixels(display.frame(), reference.image)
        assert same_pixels(Image.open(io.BytesIO(display.png())), reference.image)


def test_with_two_multiplexers_a_frame_lands_only_on_its_own_panel(table: SimulatedI2C) -> None:
    # Seats 1 and 5 both sit on channel 0, of two TCA9548As on one bus. A channel stays open until changed,
    # so the other multiplexer's must be closed before each frame.
    one = table.add_panel(1, 0x3C, mux_address=0x70, mux_channel=0)
    five = table.add_panel(1, 0x3C, mux_address=0x71, mux_channel=0)
    seat1 = open_display("seat1", bus=1, mux_address=0x70, mux_channel=0, backend="sim", simulation=table)
    seat5 = open_display("seat5", bus=1, mux_address=0x71, mux_channel=0, backend="sim", simulation=table)
    frames = [frame_with("seat 1", box=0), frame_with("seat 5", box=100)]
    assert seat1.show(frames[0]) and seat5.show(frames[1])
    assert same_pixels(one.image(), frames[0])
    assert same_pixels(five.image(), frames[1])
    again = frame_with("seat 1 again", box=50)
    assert seat1.show(again)
    assert same_pixels(one.image(), again)
    assert same_pixels(five.image(), frames[1])
    assert table.bus(1).muxes[0x71].mask == 0 and table.bus(1).muxes[0x70].mask == 1


# --- wire time and page diffs -----------------------------------------------------------------------------------------


def checkerboard(shift: int = 0) -> Image.Image:
    """A frame whose every page differs from a blank panel and from the checkerboard shifted by one."""
    image = Image.new("1", (128, 64), 0)
    pixels = image.load()
    assert pixels is not None
    for y in range(64):
        for x in range(128):
            pixels[x, y] = (x + y + shift) % 2
    return image


@pytest.mark.parametrize("speed, low, high", [(100_000, 0.090, 0.110), (400_000, 0.022, 0.028)])
def test_a_whole_new_frame_takes_its_time_on_the_wire(speed: int, low: float, high: float) -> None:
    # 1,024 bytes of display RAM at 9 clocks a byte: 92 ms at 100 kHz, 23 ms at 400 kHz, plus addressing.
    world = SimulatedI2C(speed_hz=speed)
    display = open_display("seat1", bus=1, backend="sim", simulation=world)
    before = world.wire.seconds
    assert display.show(checkerboard())
    assert low <= world.wire.seconds - before <= high


def test_only_the_pages_that_changed_are_sent(table: SimulatedI2C) -> None:
    panel = table.add_panel(1, 0x3C)
    display = open_display("seat1", bus=1, backend="sim", simulation=table)
    first = frame_with("Your turn", box=0)
    assert display.show(first)
    wrote = panel.wrote
    second = first.copy()
    ImageDraw.Draw(second).rectangle((0, 0, 127, 7), fill=0)
    ImageDraw.Draw(second).text((2, -2), "Roll!", fill=1)  # only the top 8 rows change: page 0
    assert display.show(second)
    assert 0 < panel.wrote - wrote <= 128, "at most one page of 128 bytes, not the whole 1,024-byte frame"
    assert same_pixels(panel.image(), second)
    wrote = panel.wrote
    assert display.show(second)
    assert panel.wrote == wrote, "an unchanged frame sends nothing"


@pytest.mark.parametrize("kind, rotate", [("ssd1306", 0), ("sh1106", 0), ("ssd1306", 2), ("sh1106", 2)])
def test_frames_sent_page_by_page_light_exactly_their_pixels(table: SimulatedI2C, kind: str, rotate: int) -> None:
    panel = table.add_panel(1, 0x3C, kind=kind)
    display = open_display("seat1", kind=kind, bus=1, rotate=rotate, backend="sim", simulation=table)  # type: ignore[arg-type]
    for frame in (frame_with("a", box=0), frame_with("a", box=70), checkerboard(), checkerboard(1),
                  frame_with("bottom line only", box=70), Image.new("1", (128, 64), 0)):
        assert display.show(frame)
        assert same_pixels(display.frame(), frame), f"{kind}, rotated {rotate}"
    assert panel.frames < 6, "fewer bytes than six whole frames went to the panel"


# --- windows over the changed columns ---------------------------------------------------------------------------------


def test_the_simulated_ssd1306_fills_its_column_and_page_window_as_the_datasheet_says() -> None:
    # SSD1306 datasheet 10.1.3 (horizontal addressing): after each byte the column pointer moves right; past the
    # window's end column it goes back to the start column on the next page, and past the end page to the start
    # page.  COLUMNADDR (0x21) and PAGEADDR (0x22) set the windows and put the pointer at their start.
    panel = SimulatedI2C(populate=False).add_panel(1)
    panel.command([0x20, 0x00, 0x21, 10, 12, 0x22, 2, 3])
    panel.data([1, 2, 3, 4, 5, 6, 7])
    assert panel.ram[2 * 128 + 10:2 * 128 + 13] == bytes([7, 2, 3])  # the seventh byte wrapped to (page 2, col 10)
    assert panel.ram[3 * 128 + 10:3 * 128 + 13] == bytes([4, 5, 6])
    assert sum(panel.ram) == sum(range(2, 8))  # nothing outside the window was touched
    # Vertical addressing (10.1.3): down the page window first, then the next column.
    panel.command([0x20, 0x01, 0x21, 100, 101, 0x22, 6, 7])
    panel.data([8, 9, 10, 11, 12])
    assert [panel.ram[6 * 128 + 100], panel.ram[7 * 128 + 100], panel.ram[6 * 128 + 101], panel.ram[7 * 128 + 101]] \
        == [12, 9, 10, 11]


def shown_once(table: SimulatedI2C) -> tuple[Any, Display, Image.Image]:
    """A panel on bus 1, its display, and a copy of the frame it shows now (to draw the next frame on)."""
    panel = table.add_panel(1, 0x3C)
    display = open_display("seat1", bus=1, backend="sim", simulation=table)
    first = frame_with("Bid 3", box=0)
    assert display.show(first)
    return panel, display, first.copy()


def test_two_small_changes_far_apart_on_one_page_send_only_their_own_columns(table: SimulatedI2C) -> None:
    panel, display, second = shown_once(table)
    draw = ImageDraw.Draw(second)
    draw.point((3, 20), fill=1)  # page 2, column 3
    draw.point((120, 21), fill=1)  # page 2, column 120
    wrote, before = panel.wrote, table.wire.bytes
    assert display.show(second)
    assert panel.wrote - wrote == 2, "the two changed columns, not the 118 between them"
    # Each column in a window of its own (address, control byte, commands; then address, control byte, one byte of
    # display RAM); the second window is on the page the first left the pointer on, so it sets only its columns.
    assert table.wire.bytes - before == (2 + 6) + (2 + 1) + (2 + 3) + (2 + 1)
    assert same_pixels(panel.image(), second)


def test_a_change_across_three_pages_goes_in_one_window_of_those_pages(table: SimulatedI2C) -> None:
    panel, display, second = shown_once(table)
    ImageDraw.Draw(second).rectangle((60, 20, 70, 35), fill=1)  # columns 60-70 of pages 2, 3 and 4
    before = table.wire.bytes
    assert display.show(second)
    # One COLUMNADDR/PAGEADDR transaction (address, control byte, six command bytes), then one of display RAM
    # (address, control byte, 3 pages x 11 columns): not three of each.
    assert table.wire.bytes - before == (2 + 6) + (2 + 3 * 11)
    assert same_pixels(panel.image(), second)


frame_edits = st.lists(
    st.tuples(
        st.sampled_from(["text", "box", "clear", "dot"]),
        st.integers(min_value=-4, max_value=127),
        st.integers(min_value=-4, max_value=63),
        st.text(alphabet="0123456789€ ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz·:", max_size=16),
    ),
    max_size=6,
)


def edited(frame: Image.Image, edits: list[tuple[str, int, int, str]]) -> Image.Image:
    """``frame`` with a few small changes drawn over it, as one screen's next frame differs from its last."""
    out = frame.copy()
    draw = ImageDraw.Draw(out)
    for kind, x, y, text in edits:
        if kind == "text":
            draw.text((x, y), text, fill=1)
        elif kind == "box":
            draw.rectangle((x, y, x + len(text) * 3, y + 5), fill=1)
        elif kind == "clear":
            draw.rectangle((x, y, x + len(text) * 5, y + 11), fill=0)
        else:
            draw.point((x, y), fill=1)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("kind, rotate", [("ssd1306", 0), ("sh1106", 0), ("ssd1306", 2), ("sh1106", 1)])
@settings(max_examples=30, deadline=None)
@given(sequence=st.lists(frame_edits, min_size=1, max_size=8))
def test_after_any_sequence_of_partial_updates_the_panel_holds_exactly_the_whole_frame(
    kind: str, rotate: int, sequence: list[list[tuple[str, int, int, str]]]
) -> None:
    # The reference is a twin panel on the same bus that luma's own display() sends every frame whole.
    world = SimulatedI2C(populate=False)
    panel = world.add_panel(1, 0x3C, kind=kind)
    twin = world.add_panel(1, 0x3D, kind=kind)
    display = Display("seat1", kind=kind, bus=1, rotate=rotate, backend="sim", simulation=world,  # type: ignore[arg-type]
                      auto_retry=False)
    assert display.open()
    model = ssd1306 if kind == "ssd1306" else sh1106
    whole = model(i2c(bus=world.bus(1), address=0x3D), width=128, height=64, rotate=rotate)
    frame = Image.new("1", display.size, 0)
    try:
        for edits in sequence:
            frame = edited(frame, edits)
            assert display.show(frame)
            whole.display(frame)
            assert panel.ram == twin.ram
            assert same_pixels(display.frame(), frame)
    finally:
        display.close()
        whole.cleanup()
