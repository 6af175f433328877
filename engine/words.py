"""The engine's sentences as people at the table say them: each club by its name, not by its seat."""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.state import State

_SEAT = re.compile(r"(?<!takes )\bSeat (\d+)\b(?: \(([^()]*)\))?")
"""A club named by its seat (not "takes Seat 2", where the seat is the place), maybe followed by its name in brackets."""


def name_clubs(clubs: Mapping[int, str], text: str) -> str:
    """``text`` with "Seat 2" as its club's name (``clubs``: seat → name); "Seat 2 (Reds)" reads "Reds", not
    "Reds (Reds)"; a seat without a club keeps its number."""

    def club(match: re.Match[str]) -> str:
        name = clubs.get(int(match.group(1)))
        if name is None:
            return match.group(0)
        bracket = match.group(2)
        return name if bracket is None or bracket == name else f"{name} ({bracket})"

    return _SEAT.sub(club, text)


def club_words(state: State, text: str) -> str:
    """A sentence of the rules with each club of the game named as the people at the table call it."""
    return name_clubs({club.seat: club.name for club in state.clubs}, text)
