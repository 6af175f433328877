"""Seat buttons: gpiozero on MockFactory pins, with our own debouncing and hold detection."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from drivers import buttons as buttonsmod
from drivers.base import ButtonReading
from drivers.buttons import Buttons, Debouncer
from drivers.errors import DriverConfigError

from .conftest import HeldDownPin, ManualClock, ReadingLog


@pytest.fixture
def table(reading_log: ReadingLog, manual_clock: ManualClock) -> Iterator[Buttons]:
    """Two seats' buttons on simulated pins, timed by a clock the test moves."""
    buttons = Buttons(reading_log, backend="sim", clock=manual_clock, threaded=False)
    buttons.add("seat1", 17, hold_time=1.0, led_pin=27)
    buttons.add("seat2", 22, hold_time=0.5)
    yield buttons
    buttons.close()


def test_the_stock_library_reports_every_bounce_on_a_mock_pin() -> None:
    # Why debouncing is ours: MockPin ignores bounce_time, so chatter becomes many presses.
    factory = MockFactory()
    stock = Button(5, bounce_time=0.05, pin_factory=factory)
    presses: list[bool] = []
    stock.when_pressed = lambda: presses.append(True)
    pin = factory.pin(5)
    for _ in range(4):
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    assert len(presses) == 5
    stock.close()


def test_a_short_press_is_one_press(table: Buttons, reading_log: ReadingLog) -> None:
    table.simulated("seat1").press()
    assert reading_log.items == [ButtonReading("press", "seat1")]


def test_a_hold_is_one_hold_and_its_release_says_nothing(
    table: Buttons, reading_log: ReadingLog, manual_clock: ManualClock
) -> None:
    button = table.simulated("seat1")
    button.down()
    manual_clock.advance(0.9)
    table.service()
    assert reading_log.items == []  # not yet held, and not a press either until released
    manual_clock.advance(0.2)
    table.service()
    assert reading_log.items == [ButtonReading("hold", "seat1")]
    button.up()
    manual_clock.advance(1.0)
    table.service()
    assert reading_log.items == [ButtonReading("hold", "seat1")]


def test_hold_time_is_per_button(table: Buttons, reading_log: ReadingLog, manual_clock: ManualClock) -> None:
    table.simulated("seat1").down()
    table.simulated("seat2").down()
    manual_clock.advance(0.7)
    table.service()
    assert reading_log.items == [ButtonReading("hold", "seat2")]


def test_chatter_on_press_and_release_gives_exactly_one_press(
    table: Buttons, reading_log: ReadingLog, manual_clock: ManualClock
) -> None:
    button = table.simulated("seat2")
    button.bounce(flips=7, end_pressed=True)
    manual_clock.advance(0.1)
    table.service()
    button.bounce(flips=5, end_pressed=False)
    manual_clock.advance(0.1)
    table.service()
    assert reading_log.items == [ButtonReading("press", "seat2")]


def test_a_release_is_a_press_at_its_first_edge_and_the_chatter_after_it_is_not_another(
    table: Buttons, reading_log: ReadingLog, manual_clock: ManualClock
) -> None:
    button = table.simulated("seat1")
    button.down()
    manual_clock.advance(buttonsmod.DEBOUNCE * 2)
    table.service()
    assert reading_log.items == []
    button.up()
    table.service()  # the clock has not moved: the press is known at the release's edge itself
    assert reading_log.items == [ButtonReading("press", "seat1")]
    for _ in range(5):  # the opening contact bounces shut, each time for less than the debounce interval
        button.down()
        manual_clock.advance(buttonsmod.DEBOUNCE * 0.9)
        table.service()
        button.up()
        manual_clock.advance(0.001)
        table.service()
    manual_clock.advance(2.0)
    table.service()
    assert reading_log.items == [ButtonReading("press", "seat1")]
    assert not table.is_pressed("seat1")


def test_a_glitch_shorter_than_the_debounce_time_is_ignored(
    table: Buttons, reading_log: ReadingLog, manual_clock: ManualClock
) -> None:
    button = table.simulated("seat1")
    button.down()
    manual_clock.advance(buttonsmod.DEBOUNCE / 3)
    table.service()
    button.up()
    manual_clock.advance(1.5)
    table.service()
    assert reading_log.items == []


def test_two_quick_presses_are_two_presses(table: Buttons, reading_log: ReadingLog) -> None:
    button = table.simulated("seat1")
    button.press()
    button.press()
    assert reading_log.items == [ButtonReading("press", "seat1")] * 2


def test_without_a_hold_time_a_press_comes_at_once(reading_log: ReadingLog, manual_clock: ManualClock) -> None:
    buttons = Buttons(reading_log, backend="sim", clock=manual_clock, threaded=False)
    try:
        buttons.add("roll", 4, hold_time=None)
        button = buttons.simulated("roll")
        button.down()
        manual_clock.advance(0.05)
        buttons.service()
        assert reading_log.items == [ButtonReading("press", "roll")]
        manual_clock.advance(5)
        button.up()
        manual_clock.advance(0.05)
        buttons.service()
        assert reading_log.items == [ButtonReading("press", "roll")]
    finally:
        buttons.close()


def test_a_button_already_down_at_start_is_not_a_press(reading_log: ReadingLog, manual_clock: ManualClock) -> None:
    factory = MockFactory()
    # Stuck down, or someone leaning on the button while the box boots.
    factory.pin(6, pin_class=HeldDownPin)
    buttons = Buttons(reading_log, pin_factory=factory, clock=manual_clock, threaded=False)
    try:
        buttons.add("seat3", 6)
        assert buttons.is_pressed("seat3")
        manual_clock.advance(3)
        buttons.service()
        factory.pin(6).drive_high()
        manual_clock.advance(0.1)
        buttons.service()
        assert reading_log.items == []
        buttons.simulated("seat3").press()
        assert reading_log.items == [ButtonReading("press", "seat3")]
    finally:
        buttons.close()


def test_the_thread_delivers_presses_and_holds_on_the_real_clock(reading_log: ReadingLog) -> None:
    buttons = Buttons(reading_log, backend="sim")
    try:
        buttons.add("seat4", 23, hold_time=0.2, debounce=0.01)
        button = buttons.simulated("seat4")
        button.press()
        reading_log.wait_count(1)
        button.hold()
        assert reading_log.wait_count(2) == [ButtonReading("press", "seat4"), ButtonReading("hold", "seat4")]
    finally:
        buttons.close()


def test_the_led_follows_what_the_table_asks(table: Buttons) -> None:
    table.set_led("seat1", "on")
    assert table.led_is_lit("seat1")
    table.set_led("seat1", "off")
    assert not table.led_is_lit("seat1")
    with pytest.raises(DriverConfigError, match="'on', 'off' or 'blink'"):
        table.set_led("seat1", "flash")  # type: ignore[arg-type]
    with pytest.raises(DriverConfigError) as caught:
        table.set_led("seat2", "on")
    assert str(caught.value) == buttonsmod.NO_LED.format(name="seat2")


def test_bad_configuration_is_refused_with_a_clear_message(table: Buttons) -> None:
    with pytest.raises(DriverConfigError) as caught:
        table.add("seat1", 5)
    assert str(caught.value) == buttonsmod.DUPLICATE_BUTTON.format(name="seat1")
    with pytest.raises(ValueError, match="GPIO 17 cannot be used for the button 'extra'"):
        table.add("extra", 17)
    with pytest.raises(DriverConfigError, match="GPIO 99 cannot be used"):
        table.add("extra", 99)
    with pytest.raises(DriverConfigError, match="no button named 'seat9'"):
        table.is_pressed("seat9")
    with pytest.raises(DriverConfigError, match="debounce < hold time"):
        Debouncer("x", debounce=0.5, hold_time=0.2)
    assert table.names == ["seat1", "seat2"]


def test_simulated_presses_are_refused_on_real_pins(reading_log: ReadingLog) -> None:
    class NotMock:
        pass

    buttons = Buttons(reading_log, backend="real", pin_factory=NotMock(), threaded=False)
    with pytest.raises(DriverConfigError, match="only be pressed by software in simulation"):
        buttons.simulated("seat1")


def run_debouncer(debouncer: Debouncer, edges: list[tuple[float, bool]], until: float) -> list[tuple[float, str]]:
    """Feed timed edges and poll at every deadline, as the buttons' thread does (at once after an edge that settled
    something); return each reading's kind and when it was handed on."""
    readings: list[tuple[float, str]] = []
    last_edge = float("-inf")

    def poll_until(t: float) -> None:
        while (deadline := debouncer.next_deadline()) is not None and deadline <= t:
            now = max(deadline, last_edge)
            readings.extend((now, r.kind) for r in debouncer.poll(now))

    for at, pressed in edges:
        poll_until(at)
        debouncer.edge(pressed, at)
        last_edge = at
        poll_until(at)
    poll_until(until)
    return readings


press_shape = st.tuples(
    st.integers(min_value=0, max_value=4),  # chatter flips when the contact closes
    st.one_of(st.floats(min_value=0.08, max_value=0.8), st.floats(min_value=1.2, max_value=3.0)),  # time down
    st.integers(min_value=0, max_value=4),  # chatter flips when it opens
)


@settings(max_examples=200, deadline=None)
@given(st.lists(press_shape, min_size=1, max_size=6))
def test_any_chattering_sequence_gives_one_reading_per_real_press(presses: list[tuple[int, float, int]]) -> None:
    debounce, gap = 0.03, 0.002
    edges: list[tuple[float, bool]] = []
    expected: list[str] = []
    let_go: list[float] = []  # when the finger let go of each short press: its first opening edge
    t = 10.0
    for closing, down_for, opening in presses:
        for flip in range(closing):  # closing contacts chatter: down, up, down...
            edges.append((t, flip % 2 == 0))
            t += gap
        edges.append((t, True))
        t += down_for
        if down_for < 1.0:
            let_go.append(t)
        for flip in range(opening):
            edges.append((t, flip % 2 == 1))
            t += gap
        edges.append((t, False))
        t += 0.5
        expected.append("press" if down_for < 1.0 else "hold")
    readings = run_debouncer(Debouncer("b", debounce=debounce, hold_time=1.0), edges, t + 1)
    assert [kind for _, kind in readings] == expected
    assert [at for at, kind in readings if kind == "press"] == let_go, "a press is handed on as the finger lets go"


def test_a_failing_callback_does_not_stop_the_buttons(manual_clock: ManualClock, reading_log: ReadingLog) -> None:
    def choke(reading: ButtonReading) -> None:
        reading_log(reading)
        if len(reading_log.items) == 1:
            raise RuntimeError("the table choked on it")

    buttons = Buttons(choke, backend="sim", clock=manual_clock, threaded=False)
    try:
        buttons.add("seat1", 17)
        buttons.simulated("seat1").press()
        buttons.simulated("seat1").press()
        assert reading_log.items == [ButtonReading("press", "seat1")] * 2
    finally:
        buttons.close()


def test_a_press_counts_even_when_nothing_polled_while_it_lasted() -> None:
    # On a busy Pi the buttons' thread may wake only after the finger is gone: the edges' own times decide.
    debouncer = Debouncer("seat1", debounce=0.03, hold_time=1.0)
    debouncer.edge(True, 10.0)
    debouncer.edge(False, 10.2)
    assert [r.kind for r in debouncer.poll(12.0)] == ["press"]
    debouncer.edge(True, 20.0)
    debouncer.edge(False, 21.5)
    assert [r.kind for r in debouncer.poll(23.0)] == ["hold"]
    debouncer.edge(True, 30.0)
    debouncer.edge(False, 30.01)  # chatter shorter than the debounce time, never polled: still nothing
    assert debouncer.poll(31.0) == []


@pytest.mark.parametrize(("debounce", "hold_time"), [(0.5, 0.2), ("0.03", 1.0), (0.03, "1"), (-0.01, 1.0),
                                                     (True, 1.0)])
def test_bad_button_timings_are_refused_saying_what_to_give(debounce: object, hold_time: object) -> None:
    with pytest.raises(DriverConfigError) as caught:
        Debouncer("seat1", debounce=debounce, hold_time=hold_time)  # type: ignore[arg-type]
    assert str(caught.value) == buttonsmod.BAD_TIMING.format(name="seat1", debounce=debounce, hold_time=hold_time)
