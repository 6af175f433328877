"""What happened: the game's log lines, each filed in its week, told as a viewer may read them.

A line is one of the engine's announcements as the table keeps it (``device.store``: kept across restarts, marked
undone rather than dropped).  The engine's sentences name clubs by their seat ("Seat 2 keeps ...") and some name a
die or a card by its id; people read club, card and die names, so :class:`Reader` tells each line with those, and
leaves out the cards of a secret line for anyone but its own seat.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from engine.views import EVERYTHING
from engine.words import name_clubs

UNDONE_LINE = "Undone: {what}"
"""The log line (and the screens' detail) that says an event was taken back."""
UNDO_KIND = "undo"

_ID = re.compile(r"\b[a-z]+_[A-Za-z0-9_\-]*[A-Za-z0-9]\b")
"""What a card's or a die's id looks like in a sentence (``opp_green``, ``obj_03``)."""


def file_in_weeks(announcements: Iterable[Mapping[str, Any]], week: int) -> list[dict[str, Any]]:
    """Announcements of one event as log lines, each with the week it belongs to.

    An event that ends a week (the last Opponent die) also brings the End of the round, Maintenance and the next
    week's start: what comes before the engine's "week" announcement belongs to the week that ends.
    """
    lines = []
    for announcement in announcements:
        if announcement.get("kind") == "week" and isinstance(announcement.get("week"), int):
            week = announcement["week"]
        lines.append({**announcement, "week": week})
    return lines


def undo_lines(undone: list[dict[str, Any]], event: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The line that says an event was undone: its first sentence (the engine's, which never names a secret card),
    or, for an event that said nothing, its kind and club."""
    first = next((line for line in undone if line.get("text")), None)
    if first is not None:
        what = str(first["text"])
    else:
        seat = event.get("seat")
        what = str(event.get("type", "event")).replace("_", " ").capitalize() + (f" (Seat {seat})" if seat else "")
    week = undone[0].get("week", 0) if undone else 0
    return [{"kind": UNDO_KIND, "seat": event.get("seat") if isinstance(event.get("seat"), int) else None,
             "text": UNDONE_LINE.format(what=what), "undoes": [line["id"] for line in undone], "week": week}]


class Reader:
    """Tells log lines with the names people know, for one viewer (the table, a seat, or the owner)."""

    def __init__(self, profile: Any, clubs: Mapping[int, str]) -> None:
        """``clubs``: each seat's club name in the game the lines come from."""
        self.clubs = dict(clubs)
        self.names = {card.id: card.name for card in profile.cards.values()}
        # The Opponent dice have only ids in the board profile ("opp_green"): "the green die" is what people say.
        dice = [die for die, _ in profile.board.opponent_dice]
        self.names.update({die: f"{_die_word(die)} die" for die in dice})
        self._die_twice = re.compile(r"\b(" + "|".join(map(re.escape, dice)) + r") die\b") if dice else None

    def text(self, text: str) -> str:
        """A sentence with club, card and die names for seats and ids."""
        text = name_clubs(self.clubs, text)
        if self._die_twice is not None:
            text = self._die_twice.sub(r"\1", text)  # "the opp_green die" and "the opp_green" alike
        return _ID.sub(lambda m: self.names.get(m.group(0), m.group(0)), text)

    def need(self, need: Mapping[str, Any]) -> dict[str, Any]:
        """What the table waits for, its sentences (``text``, ``short``, ``hint``) with the names people know."""
        return {k: self.text(v) if k in ("text", "short", "hint") and isinstance(v, str) else v for k, v in need.items()}

    def line(self, line: Mapping[str, Any], viewer: int | str) -> dict[str, Any]:
        """One line as ``viewer`` may read it: names instead of seats and ids; a secret line keeps its sentence but
        not the cards it names, except for its own seat and the owner (a ``face_down`` one, such as the Opponent
        cards dealt, for the owner only: not even its own seat has seen them)."""
        seat = line.get("seat")
        readers = (EVERYTHING,) if line.get("face_down") else (EVERYTHING, seat)
        out = {k: v for k, v in line.items()
               if not (line.get("secret") and viewer not in readers and k in ("card", "cards"))}
        if isinstance(line.get("text"), str):
            out["text"] = self.text(line["text"])
        if isinstance(seat, int) and seat in self.clubs:
            out["club"] = self.clubs[seat]
        return out


def _die_word(die: str) -> str:
    """How a die is called in a sentence: ``opp_green`` is the green die."""
    word = die.removeprefix("opp_").removesuffix("_die").replace("_", " ")
    return word or die
