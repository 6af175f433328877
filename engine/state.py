"""The tracked state of a game: immutable, small, JSON-safe.

Everything is named tuples of plain values so that copying a state is cheap (`evolve` shares every untouched part)
and equal states compare equal.  Resources and Stats are 4-tuples in the order of `engine.cards.STATS` (budget,
fanbase, operation, fitness).  A game names its pack, modules and options (`Game`); each module keeps its own slice
of the state in ``State.modules``.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeVar

from engine import host
from engine.cards import STATS

Quad = tuple[int, int, int, int]
ZERO: Quad = (0, 0, 0, 0)
RES_INDEX = {name: i for i, name in enumerate(STATS)}

T = TypeVar("T")
_FIELDS: dict[type, dict[str, int]] = {}
_new = tuple.__new__


def evolve(obj: T, **changes: Any) -> T:
    """A copy of a state object with some fields changed (unknown field names raise ValueError).

    State objects are named tuples rather than dataclasses because folding a long event log makes many small
    copies; replacing fields in a list of the values is several times faster than ``_replace`` or
    ``dataclasses.replace``.
    """
    cls = obj.__class__
    try:
        index = _FIELDS[cls]
    except KeyError:  # the first copy of a class
        index = _fields(cls)
    values = [*obj]  # type: ignore[misc]
    try:
        for name in changes:
            values[index[name]] = changes[name]
    except KeyError as err:
        raise ValueError(f"{cls.__name__} has no field {err.args[0]!r}") from None
    return _new(cls, values)  # type: ignore[no-any-return]


def evolve1(obj: T, name: str, value: Any) -> T:
    """`evolve` with one field changed, for the changes made after every event (no keyword arguments to pack)."""
    cls = obj.__class__
    values = [*obj]  # type: ignore[misc]
    try:
        values[_FIELDS[cls][name]] = value
    except KeyError:  # the first copy of a class, or no such field
        if cls in _FIELDS or name not in _fields(cls):
            raise ValueError(f"{cls.__name__} has no field {name!r}") from None
        values[_FIELDS[cls][name]] = value
    return _new(cls, values)  # type: ignore[no-any-return]


def _fields(cls: type) -> dict[str, int]:
    """Each field's position in a named tuple class, kept for `evolve`."""
    index = _FIELDS[cls] = {name: i for i, name in enumerate(cls._fields)}  # type: ignore[attr-defined]
    return index


#: The stages of the base game in words (a game's modules add theirs: `stage_name`).
STAGE_NAMES = {
    "setup": "the setup",
    "monday": "Monday",
    "tuesday": "Tuesday",
    "wednesday": "Wednesday",
    "thursday": "Thursday",
    "matchday": "Matchday",
    "results": "the League results",
    "end_of_round": "the End of the round",
    "final_scoring": "the Final scoring",
    "over": "the end of the game",
}


class Game(NamedTuple):
    """What a game is: its pack, the modules chosen (in the order given), its options (name, value), sorted, and
    the revision of the engine's readings it is played under (engine/RULES.md, "Revisions")."""

    pack: str = "eleven"
    modules: tuple[str, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    revision: int = 1  # a log begun before revisions were named plays by the first

    def option(self, name: str, default: Any = None) -> Any:
        """An option's value (the default when the game did not set it)."""
        for key, value in self.options:
            if key == name:
                return value
        return default


class Held(NamedTuple):
    """A footballer or Staff card a club holds, with the tokens and markers lying on it."""

    id: str
    trained: bool = False
    exhausted: bool = False
    injury: int = 0  # weeks on the Injury token (0: not injured)
    suspension: int = 0  # Suspension tokens
    vp: int = 0  # VP tokens on the card
    strength_temp: int = 0
    strength_perm: int = 0
    experience: int = 0  # experience spaces filled
    assigned: Quad = ZERO  # resources placed on the card (discarded at the End of the round)

    @property
    def unavailable(self) -> bool:
        """True while injured or suspended: the card cannot play and its effects cannot be used."""
        return self.injury > 0 or self.suspension > 0


class Placed(NamedTuple):
    """One jersey marker in a lineup: its zone, number (None: blank), the card playing (None: Strength 1), style."""

    zone: str
    jersey: int | None
    card: str | None
    style: str


class Club(NamedTuple):
    """One club at a seat: its boards, cards, markers and how far it is in the current week."""

    seat: int
    name: str
    stats: Quad = (2, 2, 2, 2)
    res: Quad = ZERO
    vp_tokens: int = 0
    directors: tuple[str, ...] = ()
    players: tuple[Held, ...] = ()
    staff: tuple[Held, ...] = ()
    exhausted: tuple[str, ...] = ()  # exhausted Directors and Infrastructure tokens (cards exhaust on Held)
    infrastructure: tuple[str, ...] = ()
    shirt: str | None = None
    adboards: tuple[str, ...] = ()
    megaphones: tuple[str, ...] = ()
    office: int = 0
    objective: str | None = None
    objective_result: str | None = None  # "missed", "fulfilled" or "perfect" (told by the table at the end)
    tactics: tuple[str, ...] = ()
    opponents: tuple[str, ...] = ()  # Opponent cards dealt, in the order they are played
    points: int = 0  # League table
    # the current week
    acted: bool = False
    free_used: int = 0
    board_card: str | None = None
    board_done: bool = False
    lineup: tuple[Placed, ...] | None = None
    stands: int = 0  # Fanbase on the Stands this match
    tactic_played: str | None = None
    goals: int = 0
    conceded: int = 0
    result: str | None = None  # "win", "draw", "loss" once the match is resolved
    consequence_done: bool = False
    opp_mods: tuple[tuple[str, str, int], ...] = ()  # (section or "all", style or "any", Strength) this match
    mods: tuple[tuple[str, int], ...] = ()  # running modifiers, e.g. ("free_rerolls:round", 1)
    # Suspension tokens on Directors and Stadium Infrastructure tokens (by Director id, or by kind for one token)
    suspended: tuple[tuple[str, int], ...] = ()
    # the side ("attack"/"defence") each numbered jersey marker shows, once known: only a card flips it
    markers: tuple[tuple[int, str], ...] = ()
    # the sides numbered jersey markers were set up on, as far as they are known (the starting cards' markers, the
    # sides the table stated, and each marker fielded plain before any card flipped it): at most half of each
    markers_setup: tuple[tuple[int, str], ...] = ()
    # optional abilities used this round at a moment that does not exhaust the card ("<card>@<timing>")
    used: tuple[str, ...] = ()

    def held(self, card_id: str) -> Held | None:
        """The footballer or Staff card with that id, when the club has it."""
        for h in self.players:
            if h.id == card_id:
                return h
        for h in self.staff:
            if h.id == card_id:
                return h
        return None

    def suspension_on(self, card_id: str) -> int:
        """Suspension tokens on a Director or an Infrastructure token (footballers and Staff keep theirs on `Held`)."""
        for key, tokens in self.suspended:
            if key == card_id:
                return tokens
        return 0

    def marker_side(self, jersey: int) -> str | None:
        """The side a numbered jersey marker shows (or is assumed to show), or None while the engine has not seen it."""
        for number, side in self.markers:
            if number == jersey:
                return side
        return None

    def mod(self, name: str) -> int:
        """A running modifier's value (0 when absent)."""
        for key, value in self.mods:
            if key == name:
                return value
        return 0


class Team(NamedTuple):
    """An Opponent team's marker on the League table."""

    id: str
    points: int = 0
    inactive: bool = False


class Pending(NamedTuple):
    """Something the engine waits for before the game can go on (a roll, a choice)."""

    need: str  # "roll", "keep_or_reroll", "suspensions" or "abilities" (purpose: the moment's timing)
    seat: int | None
    purpose: str = ""  # board_meeting, potential, match_consequence, injury, opponent_die
    die: str = "d6"
    rerollable: bool = True
    value: int = 0  # the result being kept or rerolled
    team: str = ""  # the Opponent team of an Opponent die
    count: int = 0  # € missing (suspensions) or weeks (injury)
    ref: str = ""  # the Stat of a Club potential roll; the card of an Objective; the effect of an effect's roll
    info: tuple[tuple[str, Any], ...] = ()  # a module's public words for its need, shown in `State.awaiting`

    def as_awaiting(self) -> dict[str, Any]:
        """The public form used in `State.awaiting`."""
        out: dict[str, Any] = {"seat": self.seat, "need": self.need}
        if self.info:
            out.update(self.info)
            return out
        if self.need in ("roll", "keep_or_reroll"):
            out.update(die=self.die, purpose=self.purpose, rerollable=self.rerollable)
            if self.need == "keep_or_reroll":
                out["value"] = self.value
            if self.team:
                out["team"] = self.team
            if self.purpose == "potential":
                out["stat"] = self.ref
            elif self.purpose == "effect":
                source = self.ref.rpartition("#")[0]
                # a board table's row is no card: say which table instead
                out["card"] = None if source.startswith("@") else source
                if source.startswith("@"):
                    out["table"] = source[1:].split(":")[0]
        elif self.need == "abilities":
            out["timing"] = self.purpose
        elif self.need == "objective_result":
            out["card"] = self.ref or None
        else:
            out["count"] = self.count
        return out


class State(NamedTuple):
    """The whole tracked game: stage, week, whose turn, clubs, the Opponent teams and what is awaited."""

    stage: str = "setup"
    week: int = 0
    weeks: int = 0  # the game's length (Opponent cards dealt to each club)
    first_seat: int = 0  # holder of the Stage marker
    turn: int = 0  # whose turn it is on Tuesday-Thursday (0: nobody's)
    clubs: tuple[Club, ...] = ()
    teams: tuple[Team, ...] = ()
    pending: tuple[Pending, ...] = ()
    events: int = 0  # events applied so far
    discarded: tuple[str, ...] = ()  # footballer cards sold: on the discard pile, never hired again
    game: Game = Game()  # the pack, modules and options the game's first event named
    modules: tuple[tuple[str, Any], ...] = ()  # each chosen module's slice of the state, by module name

    def club(self, seat: int) -> Club | None:
        """The club at a seat, or None."""
        clubs = self.clubs
        try:  # clubs lie in seat order, one a seat: seat n is mostly the n-th
            c = clubs[seat - 1]
            if c[0] == seat:  # its seat
                return c
        except (TypeError, IndexError):
            pass
        for c in clubs:
            if c.seat == seat:
                return c
        return None

    def team(self, team_id: str) -> Team | None:
        """An Opponent team on the League table, or None."""
        for t in self.teams:
            if t.id == team_id:
                return t
        return None

    def slice(self, name: str) -> Any:
        """A module's slice of the state (None when the module is not in this game)."""
        for key, value in self.modules:
            if key == name:
                return value
        return None

    @property
    def awaiting(self) -> tuple[dict[str, Any], ...]:
        """What the engine waits for now, most urgent first: the pending rolls and choices, then the needs of the
        stage (a Board meeting card, a turn's action, a lineup...) and of the modules (see engine/RULES.md)."""
        rules = host.rules_for(self.game)
        out = [p.as_awaiting() for p in self.pending]
        phase = rules.phases.get(self.stage)
        if phase is not None and phase.awaiting is not None:
            needs = phase.awaiting(self)
            if needs and (rules.busy(self) or self.stage == "setup" and rules.setup_busy(self)):  # type: ignore[attr-defined]
                # a module holds the game (an open auction): the turn's action waits until it lets go
                needs = [n for n in needs if n.get("need") != "action"]
            out.extend(needs)
        out.extend(rules.awaiting(self))  # type: ignore[attr-defined]
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (lists and plain values only)."""
        return _encode(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        """Rebuild a state from `to_dict`'s output (a module's slice by the module's own ``decode``)."""
        game = Game(**{**data.get("game", {}), "modules": tuple(data.get("game", {}).get("modules", ())),
                       "options": tuple((k, v) for k, v in data.get("game", {}).get("options", ()))})
        slices = []
        for name, value in data.get("modules", ()):
            found = host.module(name)
            slices.append((name, found.state.decode(value) if found is not None and found.state else value))
        return State(
            stage=data["stage"],
            week=data["week"],
            weeks=data["weeks"],
            first_seat=data["first_seat"],
            turn=data["turn"],
            clubs=tuple(_club(c) for c in data["clubs"]),
            teams=tuple(Team(**t) for t in data["teams"]),
            pending=tuple(_pending(p) for p in data["pending"]),
            events=data["events"],
            discarded=tuple(data.get("discarded", ())),
            game=game,
            modules=tuple(slices),
        )


def _pending(d: dict[str, Any]) -> Pending:
    return Pending(**{**d, "info": tuple((k, v) for k, v in d.get("info", ()))})


def _encode(value: Any) -> Any:
    if hasattr(value, "_asdict"):
        return {name: _encode(v) for name, v in zip(value._fields, value)}
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def _quad(values: list[int]) -> Quad:
    a, b, c, d = values
    return (a, b, c, d)


def _held(d: dict[str, Any]) -> Held:
    return Held(**{**d, "assigned": _quad(d["assigned"])})


def _club(d: dict[str, Any]) -> Club:
    out = dict(d)
    out["stats"] = _quad(d["stats"])
    out["res"] = _quad(d["res"])
    out["players"] = tuple(_held(h) for h in d["players"])
    out["staff"] = tuple(_held(h) for h in d["staff"])
    out["lineup"] = None if d["lineup"] is None else tuple(Placed(**p) for p in d["lineup"])
    out["opp_mods"] = tuple((a, b, c) for a, b, c in d["opp_mods"])
    out["mods"] = tuple((a, b) for a, b in d["mods"])
    out["suspended"] = tuple((a, b) for a, b in d.get("suspended", ()))
    out["markers"] = tuple((a, b) for a, b in d.get("markers", ()))
    out["markers_setup"] = tuple((a, b) for a, b in d.get("markers_setup", ()))
    out["used"] = tuple(d.get("used", ()))
    for name in ("directors", "exhausted", "infrastructure", "adboards", "megaphones", "tactics", "opponents"):
        out[name] = tuple(d[name])
    return Club(**out)
