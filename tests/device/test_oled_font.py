"""The seat screens' font: digits that look alike on a small OLED are told apart in the frames the panels show.

A reader tells a 6 from an 8 by the open top of the 6, a 0 from an 8 by where its holes lie, a 1 from a 7 by the
1's foot and the 7's bar.  ``shape`` reads exactly that from a drawn glyph: the holes its strokes enclose (how many,
and which rows each spans) and how wide its top and bottom rows are.  Two digits whose shapes are equal read the
same, however many pixels differ.
"""

from __future__ import annotations

from importlib import resources

import pytest
from PIL import Image, ImageDraw, ImageFont

from device import screens
from device.screens import HEADLINE_SIZES, SMALL, Message, SeatScreen, compose

LOOKALIKES = (("6", "8"), ("0", "8"), ("1", "7"), ("5", "6"), ("3", "8"), ("9", "8"))
VIEW = {"week": 3, "weeks": 8, "day": "matchday", "turn": None,
        "clubs": [{"seat": 1, "name": "Red FC", "resources": {"budget": 6, "fanbase": 8, "operation": 0, "fitness": 1},
                   "league_points": 7}]}

Shape = tuple[tuple[tuple[int, int], ...], int, int]


def shape(glyph: Image.Image) -> Shape:
    """The enclosed holes (first and last row of each, from the glyph's top) and the ink width of the top and bottom rows."""
    box = glyph.getbbox()
    assert box is not None, "the glyph drew nothing"
    ink = glyph.crop((box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1)).convert("1")
    width, height = ink.size
    px = ink.load()
    seen: set[tuple[int, int]] = set()
    holes = []
    for y in range(height):
        for x in range(width):
            if px[x, y] or (x, y) in seen:
                continue
            stack, rows, open_ = [(x, y)], [], False
            seen.add((x, y))
            while stack:
                cx, cy = stack.pop()
                rows.append(cy)
                open_ |= cx in (0, width - 1) or cy in (0, height - 1)
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if 0 <= nx < width and 0 <= ny < height and not px[nx, ny] and (nx, ny) not in seen:
                        seen.add((nx, ny))
                        stack.append((nx, ny))
            if not open_:
                holes.append((min(rows) - 1, max(rows) - 1))

    def span(row: int) -> int:
        lit = [x for x in range(width) if px[x, row]]
        return lit[-1] - lit[0] + 1

    return tuple(sorted(holes)), span(1), span(height - 2)


def glyph_in_frame(frame: Image.Image, placed: screens.Placed, before: str, digit: str) -> Image.Image:
    """The cell of ``digit`` where ``placed`` drew it, after the text ``before``, cut out of a rendered frame."""
    left = screens.text_width(before, placed.size)
    right = screens.text_width(before + digit, placed.size) + (1 if placed.size >= screens.BOLD_FROM else 0)
    return frame.crop((left, placed.y, right, placed.y + screens.line_box(placed.size)[1]))


DIGITS = "68017539"


def headline_at_every_size() -> dict[int, SeatScreen]:
    """Screens whose headline (all the digits, over and over) the layout draws at each headline size, found by
    lengthening it until it falls to the next size."""
    found: dict[int, SeatScreen] = {}
    for length in range(len(DIGITS), 80):
        text = (DIGITS + " ") * 10
        screen = compose(VIEW, 1, Message(text[:length].strip()))
        found.setdefault(screens.layout(screen)[2].size, screen)
    return found


def digit_shapes(frame: Image.Image, lines: list[screens.Placed]) -> dict[str, Shape]:
    """The shape of each digit as the frame shows it in ``lines`` (every time a digit appears, it looks the same)."""
    shapes: dict[str, Shape] = {}
    for placed in lines:
        for index, char in enumerate(placed.text):
            if char.isdigit():
                seen = shape(glyph_in_frame(frame, placed, placed.text[:index], char))
                assert shapes.setdefault(char, seen) == seen, f"{char} is drawn two ways at {placed.size} px"
    return shapes


def test_every_headline_size_is_drawn_somewhere() -> None:
    assert set(HEADLINE_SIZES) <= set(headline_at_every_size())


@pytest.mark.parametrize(("one", "other"), LOOKALIKES)
def test_lookalike_digits_have_different_shapes_at_every_headline_size(one: str, other: str) -> None:
    for size, screen in headline_at_every_size().items():
        shapes = digit_shapes(screens.render(screen), [p for p in screens.layout(screen)[2:] if p.size == size])
        assert shapes[one] != shapes[other], f"{one} and {other} read alike at {size} px: {shapes[one]}"


@pytest.mark.parametrize(("one", "other"), LOOKALIKES)
def test_lookalike_digits_differ_in_the_status_lines_and_details(one: str, other: str) -> None:
    screen = compose(VIEW, 1, Message("Score", (DIGITS,)))
    placed = screens.layout(screen)
    assert all(p.size == SMALL for p in placed if p.text != "Score")
    shapes = digit_shapes(screens.render(screen), [p for p in placed if p.size == SMALL])
    assert shapes[one] != shapes[other], f"{one} and {other} read alike at {SMALL} px: {shapes[one]}"


def test_the_shape_test_catches_a_font_whose_6_reads_as_8() -> None:
    """Pillow's bundled font, which the screens used before: at the status lines' size its 6 closes like an 8."""
    old = ImageFont.load_default(size=10)
    drawn = {}
    for digit in ("6", "8"):
        image = Image.new("1", (20, 20))
        ImageDraw.Draw(image).text((4, 4), digit, font=old, fill=1)
        drawn[digit] = shape(image)
    assert drawn["6"] == drawn["8"]


def test_the_font_ships_with_its_licence() -> None:
    folder = resources.files("device").joinpath("fonts")
    assert folder.joinpath(screens.FONT_FILE).read_bytes()[:4] == b"\x00\x01\x00\x00"  # a TrueType font
    licence = folder.joinpath("OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "Dimitar Toshkov Zhekov" in licence and "Tilman Blumenbach" in licence


def test_only_sizes_the_font_has_bitmaps_for_are_used() -> None:
    assert {SMALL, *HEADLINE_SIZES} <= set(screens.STRIKES)
    with pytest.raises(ValueError, match="bitmaps"):
        screens.font(13)
