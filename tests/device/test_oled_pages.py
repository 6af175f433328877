"""Messages longer than a 128×64 panel: laid out on pages that the table's clock turns, nothing cut off.

The frames are checked as a panel shows them: rendered pages against reviewed reference images, and the simulated
SSD1306 panels of the simulated table, whose frames change as the table's manual clock is advanced.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from device import screens
from device.screens import HEIGHT, PAGE_SECONDS, WIDTH, Message, Pager, compose
from device.sim import SimulatedTable
from drivers.base import ManualClock
from tests.e2e.table import decisive_rolls, new_game_action, tap_setup

REFERENCE = Path(__file__).with_name("reference")
VIEW = {"week": 2, "weeks": 8, "day": "monday", "turn": None, "clubs": [
    {"seat": 1, "name": "Middleham Local Club", "resources": {"budget": 9, "fanbase": 2, "operation": 1, "fitness": 3},
     "league_points": 4}]}
MEETING = Message("Yellow wins", ("Press to roll the d6", "Roll 4 · votes Y Y B", "Raise the prices",
                                  "Each home match brings 2 € more this round", "+€2", "-1Fan"))


def _differ(one: Image.Image, other: Image.Image) -> bool:
    return ImageChops.difference(one.convert("L"), other.convert("L")).getbbox() is not None


def test_every_line_of_a_long_message_is_on_some_page_once_and_whole() -> None:
    screen = compose(VIEW, 1, MEETING)
    laid = screens.pages(screen)
    assert len(laid) > 1
    shown = [p.text for page in laid for p in page[2:]]  # each page starts with the two status lines
    wrapped = [line for part in MEETING.detail for line in screens.wrap(part, screens.SMALL)]
    assert shown == [MEETING.headline, *wrapped]
    for page in laid:
        assert [p.text for p in page[:2]] == [screen.where, screen.numbers]  # where the game is, on every page
        for placed in page:
            assert placed.y + screens.line_box(placed.size)[1] <= HEIGHT
            assert screens.text_width(placed.text, placed.size) <= WIDTH


def test_a_message_that_fits_is_one_page_without_page_marks() -> None:
    screen = compose(VIEW, 1, Message("2-1 Win", ("+3 pts",)))
    assert screens.page_count(screen) == 1
    rule_y = screens.line_box(screens.SMALL)[1] * 2 + 2 * screens.LINE_GAP
    frame = screens.render(screen)
    assert all(frame.getpixel((x, rule_y)) for x in range(WIDTH))  # the rule runs to the edge: no marks


def test_each_page_is_marked_at_the_end_of_the_rule_the_page_shown_filled() -> None:
    screen = compose(VIEW, 1, MEETING)
    count = screens.page_count(screen)
    rule_y = screens.line_box(screens.SMALL)[1] * 2 + 2 * screens.LINE_GAP
    for page in range(count):
        frame = screens.render(screen, page)
        filled = [i for i in range(count)
                  if frame.getpixel((WIDTH - (count - i) * screens.MARK_PITCH + 1, rule_y - 1))]
        assert filled == [page]


@pytest.mark.parametrize("page", [0, 1, 2])
def test_pages_match_the_reference_images(page: int, tmp_path: Path) -> None:
    """Pixel for pixel as reviewed (the new frame is saved to compare when it differs)."""
    screen = compose(VIEW, 1, MEETING)
    assert screens.page_count(screen) == 3
    frame = screens.render(screen, page)
    name = f"board_meeting_page{page + 1}.png"
    expected = Image.open(REFERENCE / name).convert("1")
    if _differ(frame, expected):
        frame.save(tmp_path / name)
        pytest.fail(f"page {page + 1} differs from tests/device/reference/{name} (new frame: {tmp_path / name})")


def test_the_pager_turns_pages_on_the_clock_and_starts_again_on_new_text() -> None:
    clock = ManualClock()
    pager = Pager(clock)
    long = compose(VIEW, 1, MEETING)
    assert pager.changed({"s": long}) == {"s": (long, 0)}
    assert pager.turning() and not pager.due()
    clock.advance(PAGE_SECONDS - 0.1)
    assert not pager.due() and pager.changed({"s": long}) == {}
    clock.advance(0.1)
    assert pager.due()
    assert pager.changed({"s": long}) == {"s": (long, 1)}
    clock.advance(PAGE_SECONDS)
    assert pager.changed({"s": long}) == {"s": (long, 2)}
    clock.advance(PAGE_SECONDS)
    assert pager.changed({"s": long}) == {"s": (long, 0)}  # round again
    clock.advance(PAGE_SECONDS)
    short = compose(VIEW, 1, Message("Passed"))
    assert pager.changed({"s": short}) == {"s": (short, 0)}  # new text: its first page at once
    assert not pager.turning()
    clock.advance(10 * PAGE_SECONDS)
    assert not pager.due() and pager.changed({"s": short}) == {}
    assert pager.shown("s") == (0, 1)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[SimulatedTable]:
    with SimulatedTable.open(tmp_path / "pages.db", strict_dice=True) as t:
        yield t


def test_the_simulated_panel_turns_the_pages_of_a_board_meeting_as_the_clock_runs(table: SimulatedTable) -> None:
    table.page(new_game_action())
    tap_setup(table)
    table.tap("seat1.tap", "bm_01")
    table.force_dice([decisive_rolls(table.session.profile, 1)[0]])  # no tie
    table.press("seat1.roll")
    table.hold("seat1.roll")  # keep the roll: the Board meeting decides
    screen = table.screen("seat1.screen")
    count = screens.page_count(screen)
    assert count > 1, screen.text()
    frames = []
    for _ in range(count):
        frames.append(table.hardware.frame("seat1.screen").copy())
        table.wait(PAGE_SECONDS)
    assert table.screen("seat1.screen") == screen  # time passed, nothing else happened
    for page, frame in enumerate(frames):
        assert not _differ(frame, screens.render(screen, page)), f"the panel does not show page {page + 1}"
    assert all(_differ(a, b) for a, b in zip(frames, frames[1:]))
    assert not _differ(table.hardware.frame("seat1.screen"), frames[0])  # and round again


def test_a_screen_of_one_page_stays_as_it_is_while_time_passes(table: SimulatedTable) -> None:
    table.page(new_game_action())
    frame = table.hardware.frame("seat2.screen").copy()
    assert screens.page_count(table.screen("seat2.screen")) == 1
    table.wait(3 * PAGE_SECONDS)
    assert not _differ(frame, table.hardware.frame("seat2.screen"))
    assert not table.pager.due()
