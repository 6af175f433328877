"""Request bodies of the JSON API that are not table actions (those are in ``web.actions``): the PIN, a lineup being
built, and the virtual table's pads and buttons."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints

from web.actions import Body, CardId, Name, Placement, Resource, Seat


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


class LineupDraft(Body):
    """A lineup being built on the page: the jersey markers placed so far, in the order they were placed, and what
    the club means to put on the Stands and on its cards."""

    seat: Seat
    players: list[Placement] = Field(default_factory=list, max_length=10,
                                     description="the jersey markers placed so far, first placed first")
    stands: Annotated[int, Field(ge=0, le=20, description="Fanbase on the Stands")] = 0
    assign: dict[CardId, dict[Resource, Annotated[int, Field(ge=0, le=10)]]] = Field(
        default_factory=dict, description="resources placed on footballer cards that play, for their match actions")

    def placed(self) -> list[dict[str, object]]:
        """The markers as the engine reads them."""
        return [p.model_dump(mode="json") for p in self.players]
