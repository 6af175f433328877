"""Request bodies of the JSON API, validated by pydantic (a bad field gets a 422 that names it)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

Seat = Annotated[int, Field(ge=1, le=4, description="a seat at the table, 1–4")]
CardId = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64,
                                          pattern=r"^[a-z]+_[A-Za-z0-9_\-]+$")]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
Zone = Literal["def_left", "def_centre", "def_right", "mid_left", "mid_centre", "mid_right",
               "fwd_left", "fwd_centre", "fwd_right"]
Style = Literal["attack", "defence"]


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
    """One club at a new game: its seat, name, Director from the draft, Opponents dealt and Objectives."""

    seat: Seat
    name: Name
    directors: list[CardId] = Field(default_factory=list, max_length=3)
    opponents: list[CardId] = Field(default_factory=list, max_length=12)
    objectives: list[CardId] = Field(default_factory=list, max_length=4)


class NewGame(Body):
    """A new game: the clubs at the table and the optional modules chosen."""

    clubs: list[ClubSetup] = Field(min_length=1, max_length=4)
    options: dict[Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,32}$")], bool] = Field(default_factory=dict)

    @field_validator("clubs")
    @classmethod
    def _seats_differ(cls, clubs: list[ClubSetup]) -> list[ClubSetup]:
        seats = [c.seat for c in clubs]
        if len(set(seats)) != len(seats):
            raise ValueError("two clubs cannot sit at the same seat")
        return clubs


class Placement(Body):
    """One jersey marker on the pitch: zone, number (None: a blank marker), the card playing (if any), side."""

    zone: Zone
    jersey: Annotated[int, Field(ge=1, le=99)] | None
    card: CardId | None = None
    style: Style


class Lineup(Body):
    """A club's lineup for Matchday: ten jersey markers in the nine zones."""

    seat: Seat
    placements: list[Placement] = Field(min_length=10, max_length=10)
    tactic: CardId | None = None

    @model_validator(mode="after")
    def _distinct_numbers(self) -> Lineup:
        numbers = [p.jersey for p in self.placements if p.jersey is not None]
        if len(set(numbers)) != len(numbers):
            raise ValueError("two jersey markers cannot carry the same number in one match")
        return self


class Correction(Body):
    """Set one tracked number by hand, with the reason recorded beside it."""

    seat: Seat | None = None
    field: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64,
                                            pattern=r"^[a-z_]+(\.[A-Za-z0-9_]+)*$")]
    value: Annotated[int, Field(ge=-99, le=999)]
    reason: Annotated[str, StringConstraints(strip_whitespace=True, min_length=3, max_length=200)]


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
