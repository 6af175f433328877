"""The table's actions: everything the page (and a scenario's ``page`` step) can ask the table to do, typed once.

The page's JSON bodies, the scenarios' ``page`` steps and the running table all use these models: a body is
validated here (a bad field gets a sentence that names it), the table receives the typed action through
``web.interface.Table.submit`` and turns it into engine events in one place (``web.setup`` for a new game,
:meth:`EventAction.event` for the rest).  The engine still decides whether an action is legal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal

import engine
from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

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

    model_config = ConfigDict(extra="forbid", frozen=True)


class ClubSetup(Body):
    """One club at a new game: seat and name, then the cards it got at setup (any left out: see ``NewGame.deal``)."""

    seat: Seat
    name: Name
    players: Name | None = Field(default=None, description="who plays this club, as a score keeper like BG Stats should "
                                                            "name them (e.g. \"Anna and Ben\"); the club's name is not theirs")
    directors: list[CardId] = Field(default_factory=list, max_length=3, description="the Directors kept after the draft")
    veteran: CardId | None = None
    youngster: CardId | None = None
    opponents: list[CardId] = Field(default_factory=list, max_length=12, description="Opponent cards dealt, in order")
    objective: CardId | None = None
    tactic: CardId | None = None


class NewGame(Body):
    """A new game: the clubs at the table, who starts, and the optional modules chosen."""

    type: Literal["new_game"] = "new_game"
    clubs: list[ClubSetup] = Field(min_length=1, max_length=4)
    first_seat: Seat | None = None
    modules: list[Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,32}$")]] | None = Field(
        default=None, max_length=16, description="the rule modules chosen (engine.modules() lists them); left out: "
                                                 "the table file's [game] modules")
    options: dict[Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,32}$")], int] | None = Field(
        default=None, description="the game's options, e.g. weeks, division (the engine checks them); left out: the "
                                  "table file's [game] options")
    deal: bool = Field(default=True, description="true: the table deals the cards a club leaves out; false: each seat "
                                                 "taps them on its pad when the table asks for them")

    @model_validator(mode="after")
    def _seats_differ(self) -> NewGame:
        seats = [c.seat for c in self.clubs]
        if len(set(seats)) != len(seats):
            raise ValueError("two clubs cannot sit at the same seat")
        if self.first_seat is not None and self.first_seat not in seats:
            raise ValueError(f"the first player must be one of the seats playing ({', '.join(map(str, seats))})")
        return self


class EventAction(Body):
    """An action that is one engine event, as it is."""

    def event(self) -> dict[str, Any]:
        """The engine event: this action as plain JSON."""
        return self.model_dump(mode="json")


class Placement(Body):
    """One jersey marker on the pitch: zone, number (None: a blank marker), the card playing (if any), side."""

    zone: Zone
    jersey: Annotated[int, Field(ge=1, le=99)] | None = None  # left out: a blank marker (a scenario's TOML has no null)
    card: CardId | None = None
    style: Style | None = Field(default=None, description="the side shown; omitted: as a numbered marker shows, or as its card shows")


class Lineup(EventAction):
    """A club's lineup for Matchday: ten jersey markers in the nine zones, and Fanbase on the Stands."""

    type: Literal["lineup"] = "lineup"
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


class Kickoff(EventAction):
    """Play a club's match (the same as tapping its Opponent card)."""

    type: Literal["kickoff"] = "kickoff"
    seat: Seat


class TacticPlayed(EventAction):
    """The Tactic card a club plays this match."""

    type: Literal["tactic_played"] = "tactic_played"
    seat: Seat
    card: CardId


class Adjust(EventAction):
    """Change one tracked number by hand, with the reason recorded beside it (an event like any other)."""

    type: Literal["adjust"] = "adjust"
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


TYPED_EVENTS = ("lineup", "kickoff", "tactic_played", "adjust")
"""The engine events the page sends with a model of their own (checked field by field before the engine)."""


class Event(EventAction):
    """Any other event the rules know (see the ``type`` list): the page's Play steps, or playing from the page alone."""

    model_config = ConfigDict(extra="allow", frozen=True)

    type: Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,32}$")]
    seat: Seat | None = None

    @field_validator("type")
    @classmethod
    def _known(cls, kind: str) -> str:
        known = engine.event_types()
        if kind not in known:
            raise ValueError(f"unknown event type {kind!r}; the rules know " + ", ".join(sorted(known)))
        return kind

    def event(self) -> dict[str, Any]:
        """The event as it came, without the fields left empty."""
        return self.model_dump(mode="json", exclude_none=True)


class Undo(Body):
    """Drop the last event of the game (the same as holding the shared undo button)."""

    type: Literal["undo"] = "undo"


class EnrolStart(Body):
    """Wait for a card on any pad: the next tap is held for enrolment instead of played."""

    type: Literal["enrol_start"] = "enrol_start"


class EnrolCancel(Body):
    """Stop waiting for a card to enrol."""

    type: Literal["enrol_cancel"] = "enrol_cancel"


class Enrol(Body):
    """Bind the tag last tapped to a card of the deck."""

    type: Literal["enrol"] = "enrol"
    uid: Annotated[str, StringConstraints(strip_whitespace=True, min_length=4, max_length=40,
                                          pattern=r"^[0-9A-Fa-f]{2}(-[0-9A-Fa-f]{2})+$")]
    card: CardId


TABLE_ONLY = ("new_game", "undo", "enrol_start", "enrol_cancel", "enrol")
"""Actions that are not engine events: the table carries them out itself."""


def _kind(value: Any) -> str:
    """Which model reads a body: its ``type`` when that has a model of its own, else the generic ``Event``."""
    kind = value.get("type") if isinstance(value, Mapping) else getattr(value, "type", None)
    return kind if kind in TYPED_EVENTS or kind in TABLE_ONLY else "event"


EventActions = Lineup | Kickoff | TacticPlayed | Adjust | Event
"""An action that is one engine event."""

TableAction = NewGame | Undo | EnrolStart | EnrolCancel | Enrol | EventActions
"""Every action the table takes from the page or a scenario."""

_EVENT_TAGS = (Annotated[Lineup, Tag("lineup")] | Annotated[Kickoff, Tag("kickoff")]
               | Annotated[TacticPlayed, Tag("tactic_played")] | Annotated[Adjust, Tag("adjust")]
               | Annotated[Event, Tag("event")])
EventBody = Annotated[_EVENT_TAGS, Discriminator(_kind)]
"""A request body that is any engine event, read by the model of its ``type``."""
_ACTION = TypeAdapter[TableAction](Annotated[
    Annotated[NewGame, Tag("new_game")] | Annotated[Undo, Tag("undo")] | Annotated[EnrolStart, Tag("enrol_start")]
    | Annotated[EnrolCancel, Tag("enrol_cancel")] | Annotated[Enrol, Tag("enrol")] | _EVENT_TAGS,
    Discriminator(_kind),
])
_TAGS = frozenset((*TYPED_EVENTS, *TABLE_ONLY, "event"))


def parse_action(data: Mapping[str, Any]) -> TableAction:
    """The typed action for a plain ``{"type": ..., ...}`` mapping; ``ActionError`` names each bad field."""
    try:
        return _ACTION.validate_python(dict(data))
    except ValidationError as exc:
        raise ActionError(problems(exc.errors())) from exc


def field_path(loc: Sequence[int | str]) -> str:
    """Where a validation problem is, as a person reads it: ``players.3.zone`` (no "body", no union tag)."""
    return ".".join(str(p) for p in loc if p not in ("body", "query", "path", "[key]") and p not in _TAGS) or "body"


def problems(errors: Iterable[Mapping[str, Any]]) -> str:
    """One sentence naming each bad field (``players.3.zone: Input should be ...; seat: Field required``)."""
    return "; ".join(f"{field_path(tuple(p.get('loc', ())))}: {message(p)}" for p in errors)


def message(problem: Mapping[str, Any]) -> str:
    """A validation problem's words, without pydantic's "Value error, " prefix."""
    return str(problem.get("msg", "invalid")).removeprefix("Value error, ")


class ActionError(ValueError):
    """An action that does not have the fields its kind needs (the sentence names each one)."""
