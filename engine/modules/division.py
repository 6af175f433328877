"""Division (003 l.15, l.136, l.307): the Division the clubs play in decides the Opponent cards they are dealt.

Opponent cards carry the Division(s) they are printed for (``division`` in ``opponents.toml``; a card printed
"2/1" belongs to both decks).  A game played in Division N deals every club's Opponent cards from the Division N
deck only (003 l.136: "you only face Opponents from 1 deck (i.e. Division 3 when playing in the 3rd Division)"),
one card per team as in the base game.  The reading is written in engine/RULES.md.
"""

from __future__ import annotations

from typing import Any, Final

from engine import host
from engine.cards import Profile

#: The Division a game plays in when it chooses the module without naming one: where a new club starts.
DEFAULT_DIVISION: Final = 3
NOT_IN_DIVISION: Final = ("{name} ({card}) is an Opponent of Division {printed}: this game plays in Division "
                          "{division}, so its clubs are dealt Division {division} Opponent cards only.")


def division_of(game: Any) -> int:
    """The Division a game plays in."""
    return int(game.option("division", DEFAULT_DIVISION))


def _check(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 9:
        raise ValueError(f"the Division is a whole number from 1 to 9, not {value!r}")
    return value


def offered(profile: Profile) -> list[int]:
    """The Divisions the deck's Opponent cards are printed for, the lowest (highest number) first."""
    return sorted({d for c in profile.cards_of("opponent") for d in (c.divisions or (c.division,))}, reverse=True)


def _deck(profile: Profile, game: Any, kind: str, cards: Any) -> Any:
    if kind != "opponent":
        return cards
    division = division_of(game)
    return tuple(c for c in cards if division in (c.divisions or (c.division,)))


def _not_dealt(profile: Profile, game: Any, card: Any) -> str | None:
    if card.kind != "opponent":  # asked of every card dealt at setup
        return None
    division = division_of(game)
    if division in (card.divisions or (card.division,)):
        return None
    printed = "/".join(map(str, card.divisions or (card.division,)))
    return NOT_IN_DIVISION.format(name=card.name, card=card.id, printed=printed, division=division)


DIVISION = host.register(host.Module(
    name="division",
    title="Division",
    doc="The clubs play in one Division: every club is dealt that Division's Opponent cards (003 l.15, l.136).",
    hooks={"deck": _deck, "not_dealt": _not_dealt},
    options={"division": host.Option(
        f"the Division the clubs play in (1 is the highest; default {DEFAULT_DIVISION}): its Opponent cards are dealt",
        _check, DEFAULT_DIVISION, choices=offered, title="Division")},
))
