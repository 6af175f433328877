"""What each 128×64 seat screen shows, as text, and that text drawn as 1-bit frames.

A seat screen has three parts, top to bottom: where the game is (week, day, whose turn), the
club's key numbers, and the latest result for that seat, drawn as large as it fits so it reads
from across a table.  The text model (:class:`SeatScreen`) is what tests assert; :func:`pages`
lays it out, and :func:`render` draws one page as the image a display shows.  A message longer
than the panel is not cut: it is laid out on several pages, and :class:`Pager` turns them on the
table's clock.

The font is Terminus (``device/fonts``, SIL Open Font License 1.1, see ``OFL.txt`` beside it): a
hand-drawn bitmap font whose 6 has an open top, whose 0 carries a slash and whose 1 a flag and a
foot, so no digit of a score or a price reads as another on a small OLED.  Only the sizes it has
bitmaps for (``STRIKES``) are used, so every glyph is drawn pixel for pixel as designed.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from PIL import Image, ImageDraw, ImageFont

WIDTH = 128
HEIGHT = 64
FONT_FILE = "TerminusTTF-4.46.0.ttf"
STRIKES = (12, 14, 16, 18, 20, 22, 24, 28, 32)
"""The pixel sizes Terminus has hand-drawn bitmaps for; other sizes would be scaled outlines."""
TEXT_WIDTH = WIDTH
"""Bitmap glyphs stay inside their advance width, so a line may use every column."""
SMALL = 12
"""Pixel size of the status lines' and the details' font (21 characters to a line)."""
HEADLINE_SIZES = (24, 20, 16, 14, 12)
"""Headline sizes tried from largest down until the headline and its first details fit."""
LARGE_ENOUGH = 16
"""The smallest headline size we still call readable from across a table."""
LINE_GAP = 1
"""Blank rows between two lines of text."""
PAGE_SECONDS = 4.0
"""How long each page of a message longer than the panel stays on the screen."""
BOLD_FROM = 16
"""Headlines this large are drawn twice, a column apart: two-pixel strokes read from across a table."""

DAY_NAMES = {
    "setup": "Setup",
    "monday": "Mon",
    "tuesday": "Tue",
    "wednesday": "Wed",
    "thursday": "Thu",
    "matchday": "Match",
    "end_of_round": "End",
    "final_scoring": "Final",
    "over": "Over",
}

NO_GAME = "No game"
NO_GAME_DETAIL = "Start one on the page"
EMPTY_SEAT = "Seat not in game"
GAME_OVER = "Game over"
WINNER = "Winner! {total} VP"
PLACE = "{place} · {total} VP"
PLACE_OF = "{place} of {clubs} clubs"
SHARED_WINNER = "Winner: {name}"
SHARED_WINNERS = "Shared victory"
FINAL_ROW = "{place} {name} {total} VP"
RESULTS = "Week {week} results"
RESULT_ROW = "{name} {goals}-{conceded} {opponent}"
TO_PLAY = "{name}: to play"
LEAGUE_TABLE = "League table"
LEAGUE_ROW = "{position}. {name} {points}"
SCORE_PARTS = {"league": "League", "vp_tokens": "Tokens", "staff_sets": "Staff", "infrastructure": "Stadium",
               "objective": "Objective", "office": "Office", "budget": "Budget"}
"""The final scoring's parts as a seat's screen names them, in the rulebook's order."""


@dataclass(frozen=True, slots=True)
class Message:
    """A result or prompt for one seat's screen: a short headline and up to a few detail lines."""

    headline: str
    detail: tuple[str, ...] = ()

    def text(self) -> str:
        """The message as plain text, one line per part."""
        return "\n".join((self.headline, *self.detail))


@dataclass(frozen=True, slots=True)
class SeatScreen:
    """Everything one seat's screen says, as text."""

    where: str
    numbers: str
    headline: str
    detail: tuple[str, ...] = field(default_factory=tuple)

    def lines(self) -> list[str]:
        """Every line of the screen, top to bottom, empty ones left out."""
        return [line for line in (self.where, self.numbers, self.headline, *self.detail) if line]

    def text(self) -> str:
        """The screen as plain text (what tests compare)."""
        return "\n".join(self.lines())


def _get(mapping: Mapping[str, Any] | None, *keys: str, default: Any = None) -> Any:
    """The first of ``keys`` present in ``mapping`` (the view's names vary by section)."""
    if not mapping:
        return default
    for key in keys:
        if key in mapping and mapping[key] is not None:
            return mapping[key]
    return default


def where_line(view: Mapping[str, Any] | None) -> str:
    """Week, day and whose turn it is by the club's name, e.g. ``Wk 3/8 Tue · Red FC``."""
    if not view:
        return NO_GAME
    week = _get(view, "week", default=0)
    weeks = _get(view, "weeks", "total_weeks")
    day_key = str(_get(view, "day", "stage", default="")).lower()
    day = DAY_NAMES.get(day_key, day_key.replace("_", " ").title())
    week_text = f"Wk {week}/{weeks}" if weeks else f"Wk {week}"
    turn = _get(view, "turn", "turn_seat")
    if day_key == "over":
        return GAME_OVER
    if turn:
        club = club_of(view, turn)  # players know each other by their clubs, not by the seats' numbers
        return f"{week_text} {day} · {_get(club, 'name', default=f'Seat {turn}')}"
    return f"{week_text} {day}"


def club_of(view: Mapping[str, Any] | None, seat: int) -> Mapping[str, Any] | None:
    """The club sitting at ``seat`` in the view, or None."""
    clubs = _get(view, "clubs", default=[])
    if isinstance(clubs, Mapping):
        clubs = list(clubs.values())
    for club in clubs:
        if _get(club, "seat") == seat:
            return club
    return None


def numbers_line(club: Mapping[str, Any] | None) -> str:
    """The club's key numbers: money, fanbase, operation, fitness and league points (shorter when they do not fit)."""
    if club is None:
        return ""
    res = _get(club, "resources", default={}) or {}
    money, fans, ops, fit = (_get(res, k, default=0) for k in ("budget", "fanbase", "operation", "fitness"))
    league = _get(club, "league_points", "points", "league")
    if isinstance(league, Mapping):
        league = _get(league, "points")
    points = [] if league is None else [f"Pts{league}"]
    # Shorter words once the numbers grow, same figures in the same order; the last form is cut if it must be.
    forms = (
        [f"€{money}", f"Fan{fans}", f"Op{ops}", f"Fit{fit}", *points],
        [f"€{money}", f"Fan{fans}", f"Op{ops}", f"Fit{fit}", *([f"P{league}"] if points else [])],
        [f"€{money}", f"Fn{fans}", f"Op{ops}", f"Ft{fit}", *([f"P{league}"] if points else [])],
    )
    for form in forms:
        line = " ".join(form)
        if text_width(line, SMALL) <= TEXT_WIDTH:
            return line
    return line


def ordinal(n: Any) -> str:
    """1st, 2nd, 3rd, 4th... (a place in the final ranking)."""
    try:
        number = int(n)
    except (TypeError, ValueError):
        return str(n)
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def compose(view: Mapping[str, Any] | None, seat: int, message: Message | None = None, address: str = "") -> SeatScreen:
    """What ``seat``'s screen says, given the game view and the latest message for that seat.

    Once the game is over the seat's rank and VP come first, whatever else was said last.  With nothing to say, the
    club's name and ``address``: where a phone opens the seat's own page.
    """
    if not view:
        msg = message or Message(NO_GAME_DETAIL)
        return SeatScreen(NO_GAME, "", msg.headline, msg.detail)
    club = club_of(view, seat)
    if club is None:
        msg = message or Message(EMPTY_SEAT)
        return SeatScreen(where_line(view), "", msg.headline, msg.detail)
    final = final_message(view, seat)
    if final is not None:
        extra = (message.headline, *message.detail) if message is not None and message.headline else ()
        message = Message(final.headline, tuple(dict.fromkeys((*final.detail, *extra))))
    elif message is None:
        message = Message(str(_get(club, "name", default=f"Seat {seat}")), (address,) if address else ())
    return SeatScreen(where_line(view), numbers_line(club), message.headline, message.detail)


def final_message(view: Mapping[str, Any], seat: int) -> Message | None:
    """The seat's place and VP once the game is over, with what the VP are made of, or None before."""
    rows = list(_get(view, "final", default=None) or ())
    row = next((r for r in rows if r.get("seat") == seat), None)
    if row is None:
        return None
    total = row.get("total", 0)
    place = ordinal(row.get("rank"))
    head = WINNER.format(total=total) if row.get("winner") else PLACE.format(place=place, total=total)
    parts = " · ".join(f"{word} {row[key]}" for key, word in SCORE_PARTS.items() if row.get(key))
    return Message(head, tuple(p for p in (PLACE_OF.format(place=place, clubs=len(rows)), parts) if p))


def final_table(view: Mapping[str, Any]) -> Message | None:
    """The shared screen's final ranking: who won, then every club's place and VP; None before the end."""
    rows = sorted(_get(view, "final", default=None) or (), key=lambda r: (r.get("rank", 99), r.get("seat", 0)))
    if not rows:
        return None
    winners = [r for r in rows if r.get("winner")]
    head = SHARED_WINNER.format(name=winners[0].get("name")) if len(winners) == 1 else SHARED_WINNERS
    lines = tuple(FINAL_ROW.format(place=ordinal(r.get("rank")), name=r.get("name"), total=r.get("total")) for r in rows)
    return Message(head, lines)


def match_results(view: Mapping[str, Any]) -> Message | None:
    """The shared screen on Matchday once a match is played: every club's score so far, or that it is still to play."""
    if str(_get(view, "stage", default="")) != "matchday":
        return None
    clubs = list(_get(view, "clubs", default=()) or ())
    played = [c for c in clubs if (_get(c, "match", default={}) or {}).get("result")]
    if not played:
        return None
    lines = []
    for club in clubs:
        match = _get(club, "match", default={}) or {}
        name = str(_get(club, "name", default=f"Seat {_get(club, 'seat')}"))
        if match.get("result"):
            opponent = _get(_get(club, "opponent", default={}) or {}, "name", default="")
            lines.append(RESULT_ROW.format(name=name, goals=match.get("goals", 0), conceded=match.get("conceded", 0),
                                           opponent=opponent).rstrip())
        else:
            lines.append(TO_PLAY.format(name=name))
    return Message(RESULTS.format(week=_get(view, "week", default="")), tuple(lines))


def league_message(view: Mapping[str, Any] | None) -> Message:
    """The shared screen when there is no news: the whole League table, a page at a time."""
    if view is None:
        return Message("Touchline", (NO_GAME_DETAIL,))
    rows = [LEAGUE_ROW.format(position=r["position"], name=r["name"], points=r["points"]) for r in view.get("league", ())]
    return Message(LEAGUE_TABLE, tuple(rows))


def shared_message(view: Mapping[str, Any] | None, news: Message | None) -> Message:
    """What the shared screen says: the final ranking at the end, live results on Matchday, else the news or the League."""
    if view:
        # What the whole table watches for comes first: the final ranking, or the scores while Matchday is played.
        special = final_table(view) or match_results(view)
        if special is not None:
            return special
    return news or league_message(view)


# --- drawing ---------------------------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Terminus at one of the sizes it has bitmaps for (``STRIKES``), read from the package's data."""
    if size not in STRIKES:
        raise ValueError(f"Terminus has bitmaps for {STRIKES} pixels, not {size}: pick one of those sizes.")
    data = resources.files("device").joinpath("fonts", FONT_FILE)
    if isinstance(data, os.PathLike):
        # FreeType reads the file itself, and keeps only what it uses of it: given the bytes, Pillow would keep
        # a copy of the whole font (0.4 MB) for every size.
        return ImageFont.truetype(os.fspath(data), size)
    return ImageFont.truetype(io.BytesIO(data.read_bytes()), size)


_CONTROL_TO_SPACE = {code: " " for code in range(32)}


def drawable(text: str) -> str:
    """``text`` as the frame shows it: control characters (a stray tab or newline in a name) become spaces."""
    return text.translate(_CONTROL_TO_SPACE)


@lru_cache(maxsize=2048)
def text_width(text: str, size: int) -> int:
    """Width in pixels of ``text`` drawn at ``size``."""
    # Kept: every bid redraws four screens whose lines, and the words wrap() tries, are mostly the same.
    return int(font(size).getlength(drawable(text)))


def wrap(text: str, size: int, width: int = TEXT_WIDTH) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` at ``size``; a word longer than a line is split."""
    return list(_wrapped(text, size, width))


@lru_cache(maxsize=512)
def _wrapped(text: str, size: int, width: int) -> tuple[str, ...]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split():
            candidate = f"{current} {word}" if current else word
            if text_width(candidate, size) <= width:
                current = candidate
                continue
            if current:
                lines.append(current)
            current = word
            while text_width(current, size) > width:
                cut = len(current) - 1
                while cut > 1 and text_width(current[:cut], size) > width:
                    cut -= 1
                lines.append(current[:cut])
                current = current[cut:]
        lines.append(current)
    return tuple(lines)


@dataclass(frozen=True, slots=True)
class Placed:
    """One line of text placed on the frame."""

    text: str
    size: int
    y: int


@lru_cache(maxsize=None)
def line_box(size: int) -> tuple[int, int]:
    """(offset, height) of a line at ``size``: the blank rows above capitals, and the rows from cap top to descender.

    Measured on the drawn glyphs: a bitmap font's reported box is its whole cell, blank rows included.
    """
    probe = Image.new("1", (size * 12, size * 2))
    ImageDraw.Draw(probe).text((0, 0), "AHk0gjpq", font=font(size), fill=1)
    box = probe.getbbox()
    assert box is not None
    return box[1], box[3] - box[1]


def _status(screen: SeatScreen) -> list[str]:
    return [line for line in (screen.where, screen.numbers) if line]


def _message_top(screen: SeatScreen) -> int:
    """The first row of the message area: below the status lines and the rule between them (see ``draw``)."""
    count = len(_status(screen))
    return (line_box(SMALL)[1] + LINE_GAP) * count + 2 if count else 0


def headline_width(size: int) -> int:
    """The columns a headline at ``size`` may take (a bold one is a column wider than its text)."""
    return TEXT_WIDTH - 1 if size >= BOLD_FROM else TEXT_WIDTH


def _headline_size(headline: str, detail: Sequence[str], room: int) -> int:
    """The largest headline size that fits one line (two from ``LARGE_ENOUGH`` down) and leaves room for the first
    two detail lines; fewer details, then the smallest size, when nothing larger does."""
    if not headline:
        return SMALL
    small = line_box(SMALL)[1] + LINE_GAP
    for wanted in range(min(len(detail), 2), -1, -1):
        for size in HEADLINE_SIZES:
            lines = len(wrap(headline, size, headline_width(size)))
            if lines > (1 if size > LARGE_ENOUGH else 2):
                continue
            if lines * (line_box(size)[1] + LINE_GAP) + wanted * small <= room:
                return size
    return SMALL


@lru_cache(maxsize=256)
def pages(screen: SeatScreen) -> tuple[tuple[Placed, ...], ...]:
    """Every page of ``screen``: the status lines on each, then the headline and details, as many as fit a page.

    Nothing is cut: what does not fit goes on the next page (``y`` is the top of a line's capitals).
    """
    status: list[Placed] = []
    y = 0
    for line in _status(screen):
        status.append(Placed(_fit_one(line, SMALL), SMALL, y))
        y += line_box(SMALL)[1] + LINE_GAP
    top = _message_top(screen)
    detail = [line for part in screen.detail for line in wrap(part, SMALL)]
    size = _headline_size(screen.headline, detail, HEIGHT - top)
    rows = [(line, size) for line in (wrap(screen.headline, size, headline_width(size)) if screen.headline else [])]
    rows += [(line, SMALL) for line in detail]
    out: list[tuple[Placed, ...]] = []
    page: list[Placed] = []
    y = top
    for text, row_size in rows:
        height = line_box(row_size)[1]
        if page and y + height > HEIGHT:
            out.append((*status, *page))
            page, y = [], top
        page.append(Placed(text, row_size, y))
        y += height + LINE_GAP
    out.append((*status, *page))
    return tuple(out)


def layout(screen: SeatScreen, page: int = 0) -> list[Placed]:
    """Where each line of one page of ``screen`` goes on the 128×64 frame (the first page unless told)."""
    laid = pages(screen)
    return list(laid[page % len(laid)])


def page_count(screen: SeatScreen) -> int:
    """How many pages ``screen`` takes."""
    return len(pages(screen))


def _fit_one(line: str, size: int) -> str:
    """``line`` cut with an ellipsis so it fits on one line at ``size`` (status lines only: they are short)."""
    if text_width(line, size) <= TEXT_WIDTH:
        return line
    while line and text_width(line + "…", size) > TEXT_WIDTH:
        line = line[:-1]
    return line.rstrip() + "…"


MARK_PITCH = 5
"""Columns between two page marks at the right end of the rule."""


def draw(target: ImageDraw.ImageDraw, screen: SeatScreen, page: int = 0) -> None:
    """Draw one page of ``screen`` onto a 128×64 drawing surface (a luma ``canvas`` or a plain image)."""
    _draw(target, screen, page, None)


def _draw(target: ImageDraw.ImageDraw, screen: SeatScreen, page: int, frame: Image.Image | None) -> None:
    # With ``frame`` (the 1-bit image under ``target``) each line is stamped from a kept stencil of it.
    count = page_count(screen)
    placed = layout(screen, page)
    if _status(screen):
        # A rule between where the game is and the seat's own result, in the gap pages() leaves; a long message
        # ends the rule with one mark per page, the page shown filled.
        rule_y = _message_top(screen) - 2
        marks = count if count > 1 else 0
        target.line([(0, rule_y), (WIDTH - 1 - marks * MARK_PITCH, rule_y)], fill="white")
        for index in range(marks):
            x = WIDTH - (marks - index) * MARK_PITCH + 1
            if index == page % count:
                target.rectangle([(x, rule_y - 1), (x + 2, rule_y + 1)], fill="white")
            else:
                target.point((x + 1, rule_y), fill="white")
    for item in placed:
        # Pillow draws from the top of the line's cell; lift it so the capitals start at item.y.
        top = item.y - line_box(item.size)[0]
        for x in ((0, 1) if item.size >= BOLD_FROM else (0,)):
            if frame is not None:
                stencil, (left, up) = _line_stencil(item.text, item.size)
                frame.paste(255, (x - left, top - up), stencil)
            else:
                target.text((x, top), drawable(item.text), font=font(item.size), fill="white")


@lru_cache(maxsize=128)  # a few hundred KB at most
def _line_stencil(text: str, size: int) -> tuple[Image.Image, tuple[int, int]]:
    """One line drawn once as a 1-bit stencil, and where in it the line's origin lies: a bid redraws four screens
    whose lines are mostly those of the frame before, and drawing through FreeType is most of a frame's cost."""
    shown = drawable(text)
    left, upper, right, lower = font(size).getbbox(shown)
    origin = (max(0, -left), max(0, -upper))  # a glyph reaching left of or above its origin is kept whole
    image = Image.new("1", (max(1, origin[0] + right), max(1, origin[1] + lower)))
    ImageDraw.Draw(image).text(origin, shown, font=font(size), fill="white")
    return image, origin


def render(screen: SeatScreen, page: int = 0) -> Image.Image:
    """One page of ``screen`` (the first unless told) as a 1-bit 128×64 image."""
    image = Image.new("1", (WIDTH, HEIGHT))
    _draw(ImageDraw.Draw(image), screen, page, image)
    return image


def show(device: Any, screen: SeatScreen, page: int = 0) -> None:
    """Draw one page of ``screen`` on a luma device (real SSD1306 or the dummy) through luma's ``canvas``."""
    from luma.core.render import canvas

    with canvas(device) as surface:
        draw(surface, screen, page)


class Pager:
    """Which page each screen shows now: a message longer than its panel turns a page every ``seconds`` of the
    table's clock, from its first page each time the screen's text changes, round and round until it does."""

    def __init__(self, clock: Callable[[], float], seconds: float = PAGE_SECONDS) -> None:
        self.clock = clock
        self.seconds = seconds
        self._since: dict[str, tuple[SeatScreen, float]] = {}
        self._shown: dict[str, tuple[SeatScreen, int]] = {}

    def page(self, screen_id: str, screen: SeatScreen) -> int:
        """The page of ``screen`` to show now on ``screen_id``'s panel."""
        now = self.clock()
        held = self._since.get(screen_id)
        if held is None or held[0] != screen:
            self._since[screen_id] = (screen, now)
            return 0
        count = page_count(screen)
        return int((now - held[1]) // self.seconds) % count if count > 1 else 0

    def changed(self, screens: Mapping[str, SeatScreen]) -> dict[str, tuple[SeatScreen, int]]:
        """The screens whose frame differs from the one last handed out (new text, or its next page), with the page."""
        out: dict[str, tuple[SeatScreen, int]] = {}
        for screen_id, screen in screens.items():
            frame = (screen, self.page(screen_id, screen))
            if self._shown.get(screen_id) != frame:
                self._shown[screen_id] = frame
                out[screen_id] = frame
        return out

    def turning(self) -> bool:
        """Whether some screen shows a message of more than one page (only then does the clock change a frame)."""
        return any(page_count(screen) > 1 for screen, _ in self._since.values())

    def due(self) -> bool:
        """Whether a screen's next page is due now (its text unchanged since the frame last handed out)."""
        return any(page_count(shown) > 1 and self.page(screen_id, shown) != page
                   for screen_id, (shown, page) in self._shown.items())

    def shown(self, screen_id: str) -> tuple[int, int]:
        """(page, pages) of the frame last handed out for ``screen_id``; (0, 1) before any."""
        frame = self._shown.get(screen_id)
        return (frame[1], page_count(frame[0])) if frame is not None else (0, 1)


# --- refusals -----------------------------------------------------------------------------------------------------

_REFUSAL = re.compile(r"^Seat \d+ (cannot [^:]+?)(?: now)?: (.+)$")
REFUSED = {
    "hire_player": "Cannot hire", "hire_youngster": "Cannot hire", "hire_staff": "Cannot hire", "sell": "Cannot sell",
    "sponsor": "Cannot sign", "use_card": "Cannot use it", "board_meeting": "No Board meeting",
    "kickoff": "No match now", "tactic_played": "No Tactic now", "reveal_opponent": "No match now",
    "potential": "Cannot raise", "objective_result": "Not now", "pass": "Cannot pass", "build": "Cannot build",
    "office": "Cannot move up", "directors": "Not now", "starting_players": "Not now", "objective": "Not now",
    "tactic": "Not now", "opponents": "Not now", "roll": "No roll now", "reroll": "Cannot reroll", "keep": "Not now",
    "referee_suspend": "Not that one",
}
"""The large line over a refusal whose sentence does not start "Seat N cannot ...", by the event refused."""
REFUSED_ANY = "Cannot do that"


def refusal_message(sentence: str, event: Mapping[str, Any] | None = None) -> Message:
    """The engine's reason for a refusal on a seat's screen: what cannot be done large ("Cannot hire"), why below.

    A sentence "Seat N cannot hire: ..." names the seat, which its own screen need not repeat; another sentence
    ("Gordon McBride is not trained: ...") is shown whole under the words for the event refused.
    """
    found = _REFUSAL.match(sentence)
    if found is not None:
        what, why = found.groups()
        return Message(what[0].upper() + what[1:], (why[0].upper() + why[1:],))
    kind = str((event or {}).get("type", ""))
    return Message(REFUSED.get(kind, REFUSED_ANY), (sentence,))


# --- engine announcements as screen messages -------------------------------------------------------------------

BOARD_VOTES = "Roll {roll} · votes {votes}"
"""The roll of a Board meeting and each Director's vote, on one line of a seat's screen."""
RESOLVE_BY_HAND = "By hand, fix on Admin"
"""An effect the engine cannot settle from the taps (a choice no tap gave): the table does it and corrects the numbers."""
_STAT_SHORT = {"budget": "€", "fanbase": "Fan", "operation": "Op", "fitness": "Fit"}


def _signed(amount: int, resource: str) -> str:
    short = _STAT_SHORT.get(resource, resource)
    return f"{amount:+d}{short}" if short != "€" else f"{'+' if amount >= 0 else '-'}€{abs(amount)}"


def headline(announcement: Mapping[str, Any], name: Any = str) -> str | None:
    """A few words for the big line of a seat's screen, or None when the sentence itself must do."""
    kind = announcement.get("kind")
    a = announcement
    card = name(a["card"]) if a.get("card") else ""
    if kind == "roll":
        return f"Rolled {a.get('value')}"
    if kind == "reroll":
        return f"Rerolled {a.get('value')}"
    if kind == "keep":
        return f"Kept {a.get('value')}"
    if kind == "board_meeting_card":
        return card or "Board meeting"
    if kind == "board_meeting_tie":
        return "Tie: reroll"
    if kind == "board_meeting":
        return f"{str(a.get('decision', '')).capitalize()} wins"
    if kind == "hire":
        return f"Hired {card}"
    if kind == "sell":
        return f"Sold {card}"
    if kind == "sponsor":
        return f"{str(a.get('contract', '')).capitalize()}: {card}"
    if kind == "potential":
        return f"Potential: {str(a.get('stat', '')).capitalize()}"
    if kind == "potential_result":
        return f"{str(a.get('stat', '')).capitalize()} up!" if a.get("success") else "No change"
    if kind == "pass":
        return "Passed"
    if kind == "turn":
        return "Your turn"
    if kind == "result":
        return f"{a.get('goals')}-{a.get('conceded')} {str(a.get('result', '')).capitalize()}"
    if kind == "match_consequence":
        return f"Consequence {a.get('roll')}"
    if kind == "injury":
        return f"{card} injured"
    if kind == "maintenance":
        return f"Maintenance €{a.get('paid')}"
    if kind == "suspension":
        return f"{card}: suspended"
    if kind == "opponent_die":
        return f"{str(a.get('team', '')).capitalize()} +{a.get('moves')}"
    if kind == "gain":
        return _signed(int(a.get("amount", 0)), str(a.get("resource", "")))
    if kind == "lose":
        return _signed(-int(a.get("amount", 0)), str(a.get("resource", "")))
    if kind == "game_over":
        return "Game over"
    if a.get("short"):  # a module's announcement says its own few words for the screen
        return str(a["short"])
    if kind == "market":
        gain = " ".join(x for x in (_signed(int(a.get("budget", 0)), "budget") if a.get("budget") else "",
                                    f"+{a.get('vp')}VP" if a.get("vp") else "") if x)
        return f"Market {gain}" if gain else "Market: no bonus"
    if kind == "token_production":
        return str(a.get("name", "Production"))
    simple = {
        "directors": "Directors kept",
        "starting_players": "Starting pair in",
        "objective": "Objective kept",
        "tactic": "Tactic card in",
        "first_player": "First player",
        "production": "Production",
        "stage_marker": "Stage marker",
        "end_of_round": "End of the week",
        "final_scoring": "Final scoring",
        "use_card": f"Used {card}",
        "build": "Built",
        "office": "Office up",
        "tactic_played": f"Tactic: {card}",
        "market_top": "Market deck laid",
        "unique_setup": "Unique Setup cards",
    }
    if kind in simple:
        return simple[kind]
    if kind == "stat":
        return f"{str(a.get('stat', '')).capitalize()} {a.get('before')}→{a.get('after')}"
    if kind == "lineup":
        return "Lineup set"
    if kind == "opponents":
        return f"{len(a.get('cards', ()))} Opponents dealt"
    if kind == "club_joined":
        return str(a.get("name", "Club"))
    return _club_match_headline(a)


def _club_match_headline(a: Mapping[str, Any]) -> str | None:
    """The big line for a step of a match between clubs (formations, the reveal, a half, the tie-break)."""
    kind = a.get("kind")
    half = "1st half" if a.get("half") == 1 else "2nd half"
    if kind == "fixture":
        return f"Seat {a.get('host')} v Seat {a.get('visitor')}"
    if kind == "formation":
        return f"{half}: {a.get('shape')}"
    if kind == "arranged":
        return "Arranged"
    if kind == "reveal":
        shapes = a.get("shapes") or {}
        return " v ".join(str(shape) for shape in shapes.values()) or "Revealed"
    if kind == "half_result":
        goals = a.get("goals") or {}
        return f"{half} " + "-".join(str(g) for g in goals.values())
    if kind == "tiebreak":
        return f"Tie-break {a.get('score')}"
    if kind == "tiebreak_won":
        return "Tie-break won"
    return None


def _detail(announcement: Mapping[str, Any], name: Any) -> str:
    """The second line for an announcement: its numbers, else its sentence."""
    a = announcement
    kind = a.get("kind")
    if kind == "roll" and a.get("held"):
        return ""  # the seat's prompt says how to reroll, and what keeping gives
    if kind == "board_meeting":
        return BOARD_VOTES.format(roll=a.get("roll"), votes=_votes(a.get("votes") or {}))
    if kind == "hire":
        return f"-€{a.get('cost')}"
    if kind == "sell":
        return f"+€{a.get('budget')} +{a.get('vp')}VP"
    if kind == "result":
        against = name(a["opponent"]) if a.get("opponent") else f"Seat {a['opponent_seat']}" if a.get("opponent_seat") else ""
        return f"+{a.get('points')} pts vs {against}".rstrip()
    if kind == "potential_result":
        return f"Rolled {a.get('roll')}"
    if kind == "production":
        gained = a.get("gained") or {}
        return " ".join(_signed(int(n), str(r)) for r, n in gained.items() if n) or "nothing"
    if kind == "keep":
        return ""
    if kind == "maintenance" and a.get("missing"):
        return f"Short €{a.get('missing')}: tap cards"
    if kind == "table_resolves":
        return RESOLVE_BY_HAND
    if kind == "market" and a.get("next_number"):
        return f"{headline(a, name)}, next: {a['next_number']}"
    if a.get("short") and a.get("detail"):  # a module's announcement says its own line under its words
        return str(a["detail"])
    if kind == "unique_setup" and a.get("names"):
        return " · ".join(str(n) for n in a["names"])
    text = headline(a, name)
    return text if text is not None else str(a.get("text", ""))


def _votes(votes: Mapping[str, Any]) -> str:
    """Each Director's vote in the club's order, by the colour's initial (``Y Y B``), or its first letters when two
    colours of the deck share an initial."""
    colours = [str(colour) for colour in votes.values()]
    short = [c[:1].upper() for c in colours]
    if len(set(short)) < len(set(colours)):
        short = [c[:3].capitalize() for c in colours]
    return " ".join(short)


def message_for(announcements: Sequence[Mapping[str, Any]], name: Any = str) -> Message:
    """What one seat's screen shows after a step: the first announcement large, the others (short) below."""
    if not announcements:
        return Message("")
    first = announcements[0]
    # The decision of a Board meeting or a match result matters more than the roll that led to it.
    for a in announcements:
        if a.get("kind") in ("board_meeting", "result", "potential_result", "board_meeting_tie", "opponent_die", "half_result"):
            first = a
            break
    big = headline(first, name)
    details: list[str] = []
    if big is None:
        big = str(first.get("text", ""))
    else:
        own = _detail(first, name)
        if own and own != big:
            details.append(own)
        if first.get("kind") == "board_meeting" and first.get("title"):
            details.append(str(first["title"]))  # the decision in words, under the roll and the votes
    for a in announcements:
        if a is first or a.get("kind") in ("roll", "zone"):
            continue
        line = _detail(a, name)
        if line and line not in details:
            details.append(line)
    return Message(big, tuple(details))
