"""What a seat's screen says, as text and as the 1-bit frame a 128×64 OLED shows."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.device import dummy
from PIL import Image, ImageChops

from device import screens
from device.screens import HEIGHT, LARGE_ENOUGH, SMALL, WIDTH, Message, SeatScreen, compose, layout, render

VIEW = {
    "week": 3,
    "weeks": 8,
    "day": "tuesday",
    "turn": 2,
    "clubs": [
        {"seat": 1, "name": "Blue Rovers", "resources": {"budget": 4, "fanbase": 1, "operation": 0, "fitness": 2},
         "points": 3},
        {"seat": 2, "name": "Red FC", "resources": {"budget": 12, "fanbase": 3, "operation": 2, "fitness": 4},
         "points": 7},
    ],
}


def _ink(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """How many lit pixels lie inside ``box``."""
    return image.crop(box).histogram()[255]


def test_screen_says_where_the_game_is_and_the_clubs_numbers() -> None:
    screen = compose(VIEW, 2, Message("Rolled 4", ("Yellow decision",)))
    assert screen.text().splitlines() == [
        "Wk 3/8 Tue · Red FC",  # players are their clubs: the header names whose turn it is
        "€12 Fan3 Op2 Fit4 P7",  # "Pts7" would not fit the panel's 21 columns
        "Rolled 4",
        "Yellow decision",
    ]


def test_each_seat_sees_its_own_club() -> None:
    assert compose(VIEW, 1).numbers == "€4 Fan1 Op0 Fit2 Pts3"
    big = {"seat": 1, "resources": {"budget": 123, "fanbase": 14, "operation": 12, "fitness": 10}, "points": 17}
    assert screens.numbers_line(big) == "€123 Fn14 Op12 Ft10 P17"
    assert compose(VIEW, 1).headline == "Blue Rovers"


def test_seat_without_club_and_table_without_game_say_so() -> None:
    assert compose(VIEW, 4).headline == screens.EMPTY_SEAT
    no_game = compose(None, 1)
    assert no_game.where == screens.NO_GAME
    assert no_game.headline == screens.NO_GAME_DETAIL


def test_short_result_is_drawn_large_enough_to_read_across_a_table() -> None:
    placed = layout(compose(VIEW, 2, Message("2-1 Win", ("League +3",))))
    headline = next(p for p in placed if p.text == "2-1 Win")
    assert headline.size >= LARGE_ENOUGH
    assert any(p.text == "League +3" for p in placed)


def test_every_placed_line_fits_the_frame() -> None:
    long = Message("Unknown card — enrol it on the page",
                   ("A very long explanation that cannot possibly fit on one line of the little screen",
                    "and a second one", "and a third one"))
    for placed in layout(compose(VIEW, 2, long)):
        assert screens.text_width(placed.text, placed.size) <= screens.TEXT_WIDTH
        assert placed.y + screens.line_box(placed.size)[1] <= HEIGHT


def test_a_long_message_is_paged_not_cut() -> None:
    many = Message("Rolled 4", tuple(f"line {i}" for i in range(8)))
    screen = compose(VIEW, 2, many)
    shown = [p.text for page in screens.pages(screen) for p in page]
    assert [f"line {i}" for i in range(8)] == [t for t in shown if t.startswith("line ")]
    assert not any(t.endswith("…") for t in shown)
    assert screens.page_count(screen) > 1


def test_rendered_frame_is_1bit_128x64_with_ink_in_every_part() -> None:
    image = render(compose(VIEW, 2, Message("Rolled 4", ("Yellow decision",))))
    assert image.mode == "1" and image.size == (WIDTH, HEIGHT)
    line = screens.line_box(SMALL)[1] + screens.LINE_GAP
    assert _ink(image, (0, 0, WIDTH, line)) > 20  # where the game is
    assert _ink(image, (0, line, WIDTH, 2 * line)) > 20  # the club's numbers
    assert _ink(image, (0, 2 * line + 2, WIDTH, HEIGHT)) > 60  # the result


def test_different_results_give_different_frames() -> None:
    four = render(compose(VIEW, 2, Message("Rolled 4")))
    five = render(compose(VIEW, 2, Message("Rolled 5")))
    assert ImageChops.difference(four.convert("L"), five.convert("L")).getbbox() is not None


def test_the_font_draws_the_euro_sign_and_dashes_as_they_are() -> None:
    assert screens.drawable("€5 — ok…") == "€5 — ok…"
    assert screens.drawable("Red\tLions") == "Red Lions"  # a stray control character is a space, not a box


def test_luma_canvas_on_dummy_device_matches_render() -> None:
    device = dummy(width=WIDTH, height=HEIGHT, mode="1")
    screen = compose(VIEW, 2, Message("Hire Rossi for €3?", ("Press: confirm",)))
    screens.show(device, screen)
    assert ImageChops.difference(device.image.convert("L"), render(screen).convert("L")).getbbox() is None


typed = st.text(alphabet=st.one_of(st.characters(codec="latin-1"), st.sampled_from("€·…–—’")), max_size=40)


@settings(max_examples=60, deadline=None)
@given(headline=typed, detail=st.lists(typed, max_size=4))
def test_every_page_rendered_from_kept_lines_is_the_frame_luma_and_pillow_draw(headline: str, detail: list[str]) -> None:
    screen = compose(VIEW, 2, Message(headline, tuple(detail)))
    for page in range(screens.page_count(screen)):
        device = dummy(width=WIDTH, height=HEIGHT, mode="1")
        screens.show(device, screen, page)
        # Pixel values compared as stored (a lit pixel of a 1-bit image is 255), not only as lit or dark.
        assert ImageChops.difference(device.image, render(screen, page)).getbbox() is None, \
            f"page {page} of {screen.text()!r}"


def test_text_model_lines_skip_empty_parts() -> None:
    assert SeatScreen("Wk 1 Mon", "", "Hello").lines() == ["Wk 1 Mon", "Hello"]


REFERENCE = Path(__file__).with_name("reference")
REFERENCE_VIEW = {"week": 3, "weeks": 8, "day": "monday", "turn": None, "clubs": [
    {"seat": 2, "name": "Red FC", "resources": {"budget": 12, "fanbase": 3, "operation": 2, "fitness": 4}, "league_points": 7}]}


@pytest.mark.parametrize(("name", "day", "message"), [
    ("board_meeting", "monday", Message("Yellow wins", ("Rolled 4: Raise the prices", "+€2 -1Fan"))),
    ("match_result", "matchday", Message("2-1 Win", ("Press to roll the d6", "+3 pts vs Downtown United"))),
])
def test_frames_match_the_reference_images(name: str, day: str, message: Message, tmp_path: Path) -> None:
    """Pixel for pixel as reviewed; a change in layout or font shows up here (the new frame is saved to compare)."""
    frame = render(compose({**REFERENCE_VIEW, "day": day}, 2, message))
    expected = Image.open(REFERENCE / f"{name}.png").convert("1")
    if ImageChops.difference(frame.convert("L"), expected.convert("L")).getbbox() is not None:
        frame.save(tmp_path / f"{name}.png")
        pytest.fail(f"{name}: the frame differs from tests/device/reference/{name}.png (new frame: {tmp_path / name}.png)")


def test_a_refusal_says_what_cannot_be_done_large_and_why_below() -> None:
    from engine import errors as EE

    sentence = EE.NOT_YOUR_TURN.format(seat=2, what="hire", turn=3, day="Tuesday")
    assert screens.refusal_message(sentence) == Message("Cannot hire", ("It is Seat 3's turn (Tuesday).",))
    other = EE.GAME_OVER
    assert screens.refusal_message(other) == Message(screens.REFUSED_ANY, (other,))
    # A sentence that does not name the seat is shown whole, under what the refused event would have done.
    untrained = EE.SELL_UNTRAINED.format(name="Gordon McBride")
    assert screens.refusal_message(untrained, {"type": "sell", "seat": 1, "card": "vet_01"}) == Message("Cannot sell", (untrained,))


def test_an_effect_left_to_the_table_says_to_do_it_by_hand_and_correct_it_on_the_page() -> None:
    announcements = [
        {"kind": "board_meeting", "seat": 1, "decision": "green", "roll": 4, "title": "Youth day", "text": "Green wins."},
        {"kind": "table_resolves", "seat": 1,
         "text": "Please resolve by hand — Board meeting: train a footballer of your choice."},
    ]
    message = screens.message_for(announcements)
    assert message.headline == "Green wins"
    assert screens.RESOLVE_BY_HAND in message.detail
    assert screens.text_width(screens.RESOLVE_BY_HAND, screens.SMALL) <= screens.TEXT_WIDTH  # readable, not cut


def test_a_board_meeting_shows_the_roll_each_directors_vote_and_the_decision() -> None:
    meeting = {"kind": "board_meeting", "seat": 1, "roll": 1, "decision": "yellow", "title": "Raise the prices",
               "votes": {"dir_01": "yellow", "dir_02": "yellow", "dir_03": "blue"}, "text": "..."}
    gain = {"kind": "gain", "seat": 1, "resource": "budget", "amount": 2, "text": "Seat 1 gains 2 Budget."}
    message = screens.message_for([meeting, gain])
    assert message.headline == "Yellow wins"
    assert message.detail[:2] == ("Roll 1 · votes Y Y B", "Raise the prices")
    shown = [p.text for p in layout(compose(REFERENCE_VIEW, 2, message))]
    assert "Roll 1 · votes Y Y B" in shown and "Yellow wins" in shown
    # Colours sharing an initial are told apart by their first letters.
    both = {**meeting, "votes": {"dir_01": "blue", "dir_02": "black", "dir_03": "blue"}}
    assert screens.message_for([both]).detail[0] == "Roll 1 · votes Blu Bla Blu"


def test_a_settled_bet_shows_large_what_it_won_on_its_seats_screen() -> None:
    """A module's announcement brings its own few words for the screen (the Betting's settled bet)."""
    from engine.modules import betting

    won = {"kind": "bet_won", "seat": 3, "gain": 9, "short": "Bet won +€9",
           "text": betting.WON.format(seat=3, label="3/1/0/0 | 3/0/0/0", on_token=3, times=3, gain=9)}
    lost = {"kind": "bet_lost", "seat": 1, "short": "Bet lost", "text": betting.LOST.format(seat=1, label="3/3/0/0", on_token=2)}
    assert screens.message_for([won]).headline == "Bet won +€9"
    assert screens.message_for([lost]).headline == "Bet lost"
    shown = [p.text for p in layout(compose(REFERENCE_VIEW, 3, screens.message_for([won])))]
    assert "Bet won +€9" in shown
