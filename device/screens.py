"""What each 128×64 seat screen shows, as text, and that text drawn as a 1-bit frame.

A seat screen has three parts, top to bottom: where the game is (week, day, whose turn), the
club's key numbers, and the latest result for that seat, drawn as large as it fits so it reads
from across a table.  The text model (:class:`SeatScreen`) is what tests assert; :func:`render`
turns it into the image a display shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

WIDTH = 128
HEIGHT = 64
TEXT_WIDTH = WIDTH - 2
"""Glyphs may reach a pixel or two past their advance width: keep text clear of the right edge."""
SMALL = 10
"""Pixel size of the status lines' font."""
HEADLINE_SIZES = (22, 18, 15, 12, 10)
"""Headline sizes tried from largest down until the headline and its detail fit."""
LARGE_ENOUGH = 15
"""The smallest headline size we still call readable from across a table."""

DAY_NAMES = {
    "setup": "Setup",
    "monday": "Mon",
    "tuesday": "Tue",
    "wednesday": "Wed",
    "thursday": "Thu",
    "matchday": "Match",
    "end_of_round": "End",
    "over": "Over",
}

NO_GAME = "No game"
NO_GAME_DETAIL = "Start one on the page"
EMPTY_SEAT = "Seat not in game"

# Pillow's bundled font (Aileron) has no euro sign, dashes or ellipsis; the text model keeps the
# real characters and the frame shows the nearest ones the font has.
_SUBSTITUTES = {"€": "EUR", "—": "-", "–": "-", "…": "...", "’": "'", "‘": "'", "“": '"', "”": '"', "×": "x", "→": ">"}


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
    """Week, day and whose turn it is, e.g. ``Wk 3/8 Tue · Seat 2``."""
    if not view:
        return NO_GAME
    week = _get(view, "week", default=0)
    weeks = _get(view, "weeks", "total_weeks")
    day_key = str(_get(view, "day", "stage", default="")).lower()
    day = DAY_NAMES.get(day_key, day_key.replace("_", " ").title())
    week_text = f"Wk {week}/{weeks}" if weeks else f"Wk {week}"
    turn = _get(view, "turn", "turn_seat")
    if day_key == "over":
        return "Game over"
    if turn:
        return f"{week_text} {day} · Seat {turn}"
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
    """The club's key numbers: money, fanbase, operation, fitness and league points."""
    if club is None:
        return ""
    res = _get(club, "resources", default={}) or {}
    parts = [
        f"€{_get(res, 'budget', 'money', default=0)}",
        f"Fan{_get(res, 'fanbase', default=0)}",
        f"Op{_get(res, 'operation', default=0)}",
        f"Fit{_get(res, 'fitness', default=0)}",
    ]
    league = _get(club, "league_points", "points", "league")
    if isinstance(league, Mapping):
        league = _get(league, "points")
    if league is not None:
        parts.append(f"Pts{league}")
    return " ".join(parts)


def compose(view: Mapping[str, Any] | None, seat: int, message: Message | None = None) -> SeatScreen:
    """What ``seat``'s screen says, given the game view and the latest message for that seat."""
    if not view:
        msg = message or Message(NO_GAME_DETAIL)
        return SeatScreen(NO_GAME, "", msg.headline, msg.detail)
    club = club_of(view, seat)
    if club is None:
        msg = message or Message(EMPTY_SEAT)
        return SeatScreen(where_line(view), "", msg.headline, msg.detail)
    if message is None:
        message = final_message(view, seat) or Message(str(_get(club, "name", default=f"Seat {seat}")))
    return SeatScreen(where_line(view), numbers_line(club), message.headline, message.detail)


def final_message(view: Mapping[str, Any], seat: int) -> Message | None:
    """The seat's place and score once the game is over, or None before."""
    row = next((r for r in _get(view, "final", default=None) or () if r.get("seat") == seat), None)
    if row is None:
        return None
    verdict = "Winner!" if row.get("winner") else f"Rank {row.get('rank')}"
    return Message(f"{verdict} {row.get('total')} VP", ("Game over", f"League {row.get('league')} · Staff {row.get('staff_sets')}"))


def drawable(text: str) -> str:
    """``text`` with the characters the bundled font lacks replaced by ones it has."""
    for char, replacement in _SUBSTITUTES.items():
        text = text.replace(char, replacement)
    return text


@lru_cache(maxsize=None)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at ``size`` pixels (no system fonts needed)."""
    return ImageFont.load_default(size=size)


def text_width(text: str, size: int) -> int:
    """Width in pixels of ``text`` drawn at ``size``."""
    return int(font(size).getlength(drawable(text)))


def wrap(text: str, size: int, width: int = TEXT_WIDTH) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` at ``size``; over-long words are cut."""
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
    return lines


@dataclass(frozen=True, slots=True)
class Placed:
    """One line of text placed on the frame."""

    text: str
    size: int
    y: int


@lru_cache(maxsize=None)
def line_box(size: int) -> tuple[int, int]:
    """(offset, height) of a line at ``size``: the blank rows above capitals, and the rows from cap top to descender."""
    ascent, descent = font(size).getmetrics()
    offset = font(size).getbbox("AHk")[1]
    return offset, ascent + descent - offset


def layout(screen: SeatScreen) -> list[Placed]:
    """Where each line of ``screen`` goes on the 128×64 frame (``y``: the top of its capitals), headline as large as fits."""
    placed: list[Placed] = []
    small = line_box(SMALL)[1]
    y = 0
    for line in (screen.where, screen.numbers):
        if line:
            placed.append(Placed(_fit_one(line, SMALL), SMALL, y))
            y += small + 1
    top = y + 2 if y else 0  # the rule sits in the gap: see draw()
    room = HEIGHT - top
    detail = [line for part in screen.detail for line in wrap(part, SMALL)]
    wanted = min(len(detail), 2)
    # First pass: the largest readable headline that still leaves two detail lines (or all there are);
    # second pass: the largest headline that fits at all, with the detail cut short.
    passes = [(size, wanted) for size in HEADLINE_SIZES if size >= LARGE_ENOUGH] + [(size, 0) for size in HEADLINE_SIZES]
    for size, need in passes:
        head = wrap(screen.headline, size) if screen.headline else []
        height = line_box(size)[1]
        head_height = len(head) * (height + 1)
        if head_height > room or (size > LARGE_ENOUGH and len(head) > 1):
            continue
        fits_detail = max(0, (room - head_height) // small)
        if fits_detail < need:
            continue
        shown = detail[:fits_detail]
        if len(shown) < len(detail) and shown:
            shown[-1] = _fit_one(shown[-1] + "…", SMALL)
        y = top
        for line in head:
            placed.append(Placed(line, size, y))
            y += height + 1
        for line in shown:
            placed.append(Placed(line, SMALL, y))
            y += small
        return placed
    # Nothing fits even at the smallest size: show as much of the headline as the room allows.
    y = top
    for line in wrap(screen.headline, SMALL)[: room // small]:
        placed.append(Placed(line, SMALL, y))
        y += small
    return placed


def _fit_one(line: str, size: int) -> str:
    """``line`` cut with an ellipsis so it fits on one line at ``size``."""
    if text_width(line, size) <= TEXT_WIDTH:
        return line
    while line and text_width(line + "…", size) > TEXT_WIDTH:
        line = line[:-1]
    return line.rstrip() + "…"


def draw(target: ImageDraw.ImageDraw, screen: SeatScreen) -> None:
    """Draw ``screen`` onto a 128×64 drawing surface (a luma ``canvas`` or a plain image)."""
    placed = layout(screen)
    status_lines = sum(1 for line in (screen.where, screen.numbers) if line)
    if status_lines:
        # A rule between where the game is and the seat's own result, in the gap layout() leaves.
        rule_y = (line_box(SMALL)[1] + 1) * status_lines
        target.line([(0, rule_y), (WIDTH - 1, rule_y)], fill="white")
    for item in placed:
        # Pillow draws from the top of the line's ascent; lift it so the capitals start at item.y.
        target.text((0, item.y - line_box(item.size)[0]), drawable(item.text), font=font(item.size), fill="white")


def render(screen: SeatScreen) -> Image.Image:
    """``screen`` as a 1-bit 128×64 image."""
    image = Image.new("1", (WIDTH, HEIGHT))
    draw(ImageDraw.Draw(image), screen)
    return image


def show(device: Any, screen: SeatScreen) -> None:
    """Draw ``screen`` on a luma device (real SSD1306 or the dummy) through luma's ``canvas``."""
    from luma.core.render import canvas

    with canvas(device) as surface:
        draw(surface, screen)


# --- refusals -----------------------------------------------------------------------------------------------------

_REFUSAL = re.compile(r"^Seat \d+ (cannot [^:]+?)(?: now)?: (.+)$")


def refusal_message(sentence: str) -> Message:
    """The engine's reason for a refusal on a seat's screen: "Cannot hire" large, the reason below.

    The sentence names the seat, which its own screen need not repeat; other sentences are shown whole.
    """
    found = _REFUSAL.match(sentence)
    if found is None:
        return Message(sentence)
    what, why = found.groups()
    return Message(what[0].upper() + what[1:], (why[0].upper() + why[1:],))


# --- engine announcements as screen messages -------------------------------------------------------------------

REROLL_HINT = "Press again: reroll, 1 Fan"
RESOLVE_BY_HAND = "By hand, then page: Admin"
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
    return None


def _detail(announcement: Mapping[str, Any], name: Any) -> str:
    """The second line for an announcement: its numbers, else its sentence."""
    a = announcement
    kind = a.get("kind")
    if kind == "roll" and a.get("held"):
        return REROLL_HINT
    if kind == "board_meeting":
        return f"Rolled {a.get('roll')} · votes {_votes(a.get('votes') or {})}"
    if kind == "hire":
        return f"-€{a.get('cost')}"
    if kind == "sell":
        return f"+€{a.get('budget')} +{a.get('vp')}VP"
    if kind == "result":
        return f"+{a.get('points')} pts vs {name(a['opponent']) if a.get('opponent') else ''}".rstrip()
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
        if a.get("kind") in ("board_meeting", "result", "potential_result", "board_meeting_tie", "opponent_die"):
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
