"""Request bodies of the JSON API that are not table actions (those are in ``web.actions``): the PIN, and the
virtual table's pads and buttons."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints

from web.actions import Body, CardId, Name


class Login(Body):
    """The table's PIN, to unlock this browser."""

    pin: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=32)]


class PadCard(Body):
    """Put a card of the deck on a simulated pad."""

    pad: Name
    card: CardId


class Pad(Body):
    """A simulated pad."""

    pad: Name


class Button(Body):
    """A simulated button."""

    button: Name


class DealOpponents(Body):
    """A club's Opponent cards dealt at random for the new game's form: the game chosen so far, and the cards other
    seats already hold."""

    modules: list[Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,32}$")]] = Field(default_factory=list, max_length=16)
    options: dict[Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,32}$")], int] = Field(default_factory=dict)
    taken: list[CardId] = Field(default_factory=list, max_length=64, description="cards the other seats hold")
