"""Request bodies of the JSON API, validated by pydantic (a bad field gets a 422 that names it)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import engine
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

Seat = Annotated[int, Field(ge=1, le=4, description="a seat at the table, 1–4")]
CardId = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64,
                                          pattern=r"^[a-z]+_[A-Za-z0-9_\-]+$")]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
Zone = Literal["def_left", "def_centre", "def_right", "mid_left", "mid_centre", "mid_right",
               "fwd_left", "fwd_centre", "fwd_right"]
Style = Literal["attack", "defence"]
Resource = Literal["budget", "fanbase", "operation", "fitness"]


class Body(BaseModel):
    """A request body: unknown fields are refused so a typo is named instead of ignored."""

    model_config = ConfigDict(extra="forbid")

    def action(self, kind: str) -> dict[str, Any]:
        """The action handed to the table: this body as plain JSON plus its ``type``."""
        return {"type": kind, **self.model_dump(mode="json")}


class Login(Body):
    """The table's PIN, to unlock this browser."""

    pin: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=32)]


class ClubSetup(Body):
    """One club at a new game: seat and name, then the cards it got at setup (any left out are dealt by the table)."""

    seat: Seat
    name: Name
    directors: list[CardId] = Field(default_factory=list, max_length=3, description="the Directors kept after the draft")
    veteran: CardId | None = None
    youngster: CardId | None = None
    opponents: list[CardId] = Field(default_factory=list, max_length=12, description="Opponent cards dealt, in order")
    objective: CardId | None = None
    tactic: CardId | None = None


class NewGame(Body):
    """A new game: the clubs at the table, who starts, and the optional modules chosen."""

    clubs: list[ClubSetup] = Field(min_length=1, max_length=4)
    first_seat: Seat | None = None
    options: dict[Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,32}$")], bool] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _seats_differ(self) -> NewGame:
        seats = [c.seat for c in self.clubs]
        if len(set(seats)) != len(seats):
            raise ValueError("two clubs cannot sit at the same seat")
        if self.first_seat is not None and self.first_seat not in seats:
            raise ValueError(f"the first player must be one of the seats playing ({', '.join(map(str, seats))})")
        return self


class Placement(Body):
    """One jersey marker on the pitch: zone, number (None: a blank marker), the card playing (if any), side."""

    zone: Zone
    jersey: Annotated[int, Field(ge=1, le=99)] | None
    card: CardId | None = None
    style: Style | None = Field(default=None, description="the side shown; omitted: as a numbered marker shows, or as its card shows")


class Lineup(Body):
    """A club's lineup for Matchday: ten jersey markers in the nine zones, and Fanbase on the Stands."""

    seat: Seat
    players: list[Placement] = Field(min_length=10, max_length=10)
    stands: Annotated[int, Field(ge=0, le=20, description="Fanbase on the Stands (the rules check the club's Stands)")] = 0
    assign: dict[CardId, dict[Resource, Annotated[int, Field(ge=0, le=10)]]] = Field(
        default_factory=dict, description="resources placed on footballer cards that play, for their match actions")

    @model_validator(mode="after")
    def _distinct_numbers(self) -> Lineup:
        numbers = [p.jersey for p in self.players if p.jersey is not None]
        if len(set(numbers)) != len(numbers):
            raise ValueError("two jersey markers cannot carry the same number in one match")
        return self


class SeatOnly(Body):
    """An action that only names the seat (kick off the match)."""

    seat: Seat


class TacticPlayed(Body):
    """The Tactic card a club plays this match."""

    seat: Seat
    card: CardId


class Adjust(Body):
    """Change one tracked number by hand, with the reason recorded beside it (an event like any other)."""

    seat: Seat | None = None
    what: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40,
                                           pattern=r"^[a-z_]+(:[a-z_]+)?$")]
    delta: Annotated[int, Field(ge=-99, le=99)]
    reason: Annotated[str, StringConstraints(strip_whitespace=True, min_length=3, max_length=200)]
    card: CardId | None = None
    team: Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]{1,40}$")] | None = None

    @field_validator("delta")
    @classmethod
    def _not_zero(cls, delta: int) -> int:
        if delta == 0:
            raise ValueError("a correction must change the number (delta cannot be 0)")
        return delta


class Event(BaseModel):
    """Any event the rules know (see the ``type`` list), for a table driven from the page alone."""

    model_config = ConfigDict(extra="allow")

    type: Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,32}$")]
    seat: Seat | None = None

    @field_validator("type")
    @classmethod
    def _known(cls, kind: str) -> str:
        if kind not in engine.EVENT_TYPES:
            raise ValueError(f"unknown event type {kind!r}; the rules know " + ", ".join(sorted(engine.EVENT_TYPES)))
        return kind


class Enrol(Body):
    """Bind the tag last tapped to a card of the deck."""

    uid: Annotated[str, StringConstraints(strip_whitespace=True, min_length=4, max_length=40,
                                          pattern=r"^[0-9A-Fa-f]{2}(-[0-9A-Fa-f]{2})+$")]
    card: CardId


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
