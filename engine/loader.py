"""Load and validate a deck and board profile from TOML files (format: engine/DATA.md).

`load_profile()` reads the shipped demo (sample data); `load_profile(folder)` reads an owner's transcription.
Every problem raises `DataError` naming the file, the card and the field, and saying what was expected; a broken
folder never yields a half-loaded profile.  Parsed profiles are cached until one of their files changes, and
kept on disk between runs when `engine.profile_cache.folder` is set (the running table sets it).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, NoReturn

from engine import host, profile_cache
from engine.cards import (
    CARD_CLASSES,
    CARD_KINDS,
    CONDITION_TESTS,
    CONTRACTS,
    EFFECT_OPS,
    FOOTBALLER_KINDS,
    KIND_PREFIXES,
    RESOURCES,
    RESULTS,
    SECTIONS,
    STATS,
    STYLES,
    TIMINGS,
    ZONES,
    Ability,
    AnyCard,
    Board,
    BoardMeeting,
    Condition,
    Decision,
    Director,
    Effect,
    Footballer,
    Goalkeeper,
    InfrastructureKind,
    OfficeSpace,
    Opponent,
    OpponentTeam,
    OpSpec,
    Param,
    Pitch,
    PlayerSide,
    Profile,
    Scalar,
    Setup,
    Staff,
    StatStep,
    whole_numbers,
)

#: The folder of the shipped demo deck and default board profile.
DEMO_FOLDER: Final = Path(__file__).resolve().parent / "data" / "demo"
#: The file holding each card kind.
CARD_FILES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "director": "directors.toml",
        "board_meeting": "board_meetings.toml",
        "opponent": "opponents.toml",
        "player": "players.toml",
        "youngster": "youngsters.toml",
        "veteran": "veterans.toml",
        "staff": "staff.toml",
        "sponsor": "sponsors.toml",
        "objective": "objectives.toml",
        "tactic": "tactics.toml",
    }
)
BOARD_FILE: Final = "board.toml"
PROFILE_FILE: Final = "profile.toml"
ALL_FILES: Final = (PROFILE_FILE, BOARD_FILE, *CARD_FILES.values())

# Sentences an owner reads; tests import them.
NOT_A_FOLDER: Final = "{folder} is not a folder: point Touchline at the folder holding profile.toml and the card files."
MISSING_FILE: Final = (
    '{file}: file missing from {folder}; add it (see engine/DATA.md), or write inherit = "demo" in profile.toml '
    "to take the demo's."
)
BAD_TOML: Final = "{file}: not valid TOML ({detail}); fix the line and load again."
FIELD_PROBLEM: Final = '{where}, field "{field}": {problem}'
EXPECTED_GOT: Final = "expected {expected}, got {got}"
MISSING_FIELD: Final = "missing; expected {expected}"
UNKNOWN_FIELD: Final = "unknown field; the fields here are: {known}"
DUPLICATE_ID: Final = 'id "{id}" is used twice (also in {other}); every card needs its own id'
WRONG_PREFIX: Final = 'id "{id}" must start with "{prefix}" in {file}'
USED_TWICE: Final = 'id "{id}" is used twice; every card needs its own id'
UNKNOWN_CARD: Final = 'no card "{id}" in this profile'
PRODUCTION_COST: Final = (
    'a Production ability happens by itself on Monday, so it has no cost to pay first; write what it takes as an '
    'effect, e.g. { op = "lose", resource = "budget", amount = 1 }'
)
MANDATORY_COST: Final = (
    "a mandatory ability (optional = false) happens by itself, so it has no cost to pay first; "
    'write what it takes as an effect, e.g. { op = "lose", resource = "budget", amount = 1 }'
)


class DataError(ValueError):
    """A deck or board file is missing or wrong; the message names the file, the card and the field."""


# A module's data file reader gets its parsed file as `Fields` (see `engine.host.DataFile`).


_REQUIRED: Final = object()


class _Fields:
    """Typed reads from one TOML table, with errors naming file, card and field; `done()` rejects unknown fields."""

    def __init__(self, where: str, data: Any, path: str = "") -> None:
        self.where = where
        self.path = path
        if not isinstance(data, dict):
            self.fail_self("a table (key = value lines or { ... })", data)
        self.data: dict[str, Any] = data
        self.used: set[str] = set()

    def name(self, key: str) -> str:
        """The dotted name of a field inside this table."""
        return f"{self.path}.{key}" if self.path else key

    def fail(self, key: str, problem: str) -> NoReturn:
        """Raise a DataError about one field."""
        raise DataError(FIELD_PROBLEM.format(where=self.where, field=self.name(key), problem=problem))

    def fail_self(self, expected: str, got: Any) -> NoReturn:
        """Raise a DataError about this table itself."""
        raise DataError(
            FIELD_PROBLEM.format(
                where=self.where, field=self.path or "(top)", problem=EXPECTED_GOT.format(expected=expected, got=_show(got))
            )
        )

    def wrong(self, key: str, expected: str, got: Any) -> NoReturn:
        """Raise a DataError for a value of the wrong shape."""
        self.fail(key, EXPECTED_GOT.format(expected=expected, got=_show(got)))

    def raw(self, key: str, default: Any, expected: str) -> Any:
        """The raw value, the default, or an error when a required field is missing."""
        self.used.add(key)
        if key in self.data:
            return self.data[key]
        if default is _REQUIRED:
            self.fail(key, MISSING_FIELD.format(expected=expected))
        return default

    def int(self, key: str, low: int, high: int, default: Any = _REQUIRED) -> int:
        """A whole number in [low, high]."""
        expected = whole_numbers(low, high)
        value = self.raw(key, default, expected)
        if value is default and default is not _REQUIRED:
            return value  # type: ignore[no-any-return]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.wrong(key, expected, value)
        return value

    def str(self, key: str, default: Any = _REQUIRED, choices: Iterable[str] | None = None) -> str:
        """A non-empty text, or one of `choices`."""
        options = tuple(choices) if choices is not None else None
        expected = "one of " + ", ".join(f'"{c}"' for c in options) if options else "a non-empty text"
        value = self.raw(key, default, expected)
        if value is default and default is not _REQUIRED:
            return value  # type: ignore[no-any-return]
        if not isinstance(value, str) or not value.strip() or (options is not None and value not in options):
            self.wrong(key, expected, value)
        return value

    def bool(self, key: str, default: Any = _REQUIRED) -> bool:
        """true or false."""
        value = self.raw(key, default, "true or false")
        if not isinstance(value, bool):
            self.wrong(key, "true or false", value)
        return value

    def list(self, key: str, default: Any = _REQUIRED, expected: str = "a list [ ... ]") -> list[Any]:
        """A list; a single table is taken as a list of one."""
        value = self.raw(key, default, expected)
        if isinstance(value, dict):
            return [value]
        if not isinstance(value, list):
            self.wrong(key, expected, value)
        return value

    def table(self, key: str, default: Any = _REQUIRED) -> _Fields:
        """A nested table."""
        value = self.raw(key, default, "a table")
        return _Fields(self.where, value, self.name(key))

    def ints(self, key: str, low: int, high: int, length: int | None = None, default: Any = _REQUIRED) -> tuple[int, ...]:
        """A list of whole numbers (of an exact length, when given)."""
        count = f"{length} " if length else ""
        expected = f"a list of {count}" + whole_numbers(low, high).replace("a whole number", "whole numbers", 1)
        value = self.raw(key, default, expected)
        if (
            not isinstance(value, list)
            or not value
            or (length is not None and len(value) != length)
            or any(isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high for v in value)
        ):
            self.wrong(key, expected, value)
        return tuple(value)

    def amounts(self, key: str, names: Iterable[str], low: int, high: int, default: Any = _REQUIRED) -> tuple[tuple[str, int], ...]:
        """A table of {name: whole number}, names from a vocabulary."""
        known = tuple(names)
        sub = self.table(key, default if default is _REQUIRED else {})
        out = tuple((name, sub.int(name, low, high)) for name in known if name in sub.data)
        sub.done(known)
        return out

    def effects(self, key: str, default: Any = _REQUIRED) -> tuple[Effect, ...]:
        """A list of effects ``[{ op = ... }, ...]``, checked against every op the engine and its modules know."""
        return _effects(self, key, _Refs(), default)

    def cards(self, prefix: str, file: str, taken: Container[str], expected: str) -> Iterator[tuple[_Fields, str]]:
        """Each ``[[card]]`` table of a module's file and its id, checked: it starts with ``prefix`` and neither a card
        of the deck (``taken``) nor an earlier card of this file has it."""
        seen: set[str] = set()
        for i, item in enumerate(self.list("card", expected=expected), start=1):
            label = item.get("id", f"#{i}") if isinstance(item, dict) else f"#{i}"
            card = _Fields(f"{self.where}, card {label}", item)
            card_id = card.str("id")
            if not card_id.startswith(prefix) or len(card_id) == len(prefix):
                card.fail("id", WRONG_PREFIX.format(id=card_id, prefix=prefix, file=file))
            if card_id in taken or card_id in seen:
                card.fail("id", USED_TWICE.format(id=card_id))
            seen.add(card_id)
            yield card, card_id

    def done(self, known: Iterable[str] | None = None) -> None:
        """Reject any field that was not read."""
        allowed = set(known) if known is not None else self.used
        for key in self.data:
            if key not in allowed:
                self.fail(key, UNKNOWN_FIELD.format(known=", ".join(sorted(allowed)) or "(none)"))


#: Typed reads from a data file's table whose errors name the file, the card and the field (for modules' readers).
Fields = _Fields


def _show(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list" if len(repr(value)) > 40 else repr(value)
    return repr(value)


# ---------------------------------------------------------------------------------------------------------------
# Effects, conditions, abilities.


class _Refs:
    """References to check once every file is read: (where, field, kind of thing, value)."""

    def __init__(self) -> None:
        self.items: list[tuple[str, str, str, str]] = []

    def add(self, fields: _Fields, key: str, what: str, value: str) -> None:
        self.items.append((fields.where, fields.name(key), what, value))


def _params(fields: _Fields, spec: OpSpec, refs: _Refs, skip: str) -> tuple[tuple[str, Scalar], ...]:
    out: dict[str, Scalar] = {}
    for name, param in spec.params.items():
        value = _param(fields, name, param, refs)
        if value is not None:
            out[name] = value
    fields.done(set(spec.params) | {skip, "when"})
    return tuple(sorted(out.items()))


def _param(fields: _Fields, name: str, param: Param, refs: _Refs) -> Scalar | None:
    default: Any = param.default if not param.required else _REQUIRED
    if param.type == "int":
        value = fields.int(name, param.low or 0, param.high or 0, default)
        if param.nonzero and value == 0:
            fields.wrong(name, param.describe(), value)
        return value
    if param.type == "choice":
        return fields.str(name, default, param.choices)
    value = fields.str(name, default)
    if value is not None and param.type == "card":
        refs.add(fields, name, "card", value)
    return value


def _condition(fields: _Fields, refs: _Refs) -> Condition:
    tests = {**CONDITION_TESTS, **host.vocabulary()[1]}
    test = fields.str("test", choices=tests)
    args = _params(fields, tests[test], refs, "test")
    params = dict(args)
    if test == "roll" and "at_least" not in params and "at_most" not in params:
        fields.fail("at_least", MISSING_FIELD.format(expected="at_least or at_most (the result that passes)"))
    if test == "roll" and params["die"] == "d6" and any(int(params.get(k, 1)) > 6 for k in ("at_least", "at_most")):
        fields.wrong("at_least", "a d6 result 1–6", params.get("at_least", params.get("at_most")))
    for key, what in (("profession", "profession"), ("set", "staff set"), ("kind", "infrastructure")):
        if key in params and test != "text":
            refs.add(fields, key, what, str(params[key]))
    return Condition(test=test, args=args)


def _conditions(parent: _Fields, key: str, refs: _Refs, default: Any = ()) -> tuple[Condition, ...]:
    items = parent.list(key, default if default is _REQUIRED else [], "a condition { test = ... } or a list of them")
    if default is _REQUIRED and not items:
        parent.wrong(key, "at least one condition", items)
    return tuple(_condition(_Fields(parent.where, item, f"{parent.name(key)}[{i + 1}]"), refs) for i, item in enumerate(items))


_TARGET_NEEDS: Final = {("jersey", "jersey"), ("section", "section")}


def _effect(fields: _Fields, refs: _Refs) -> Effect:
    ops = {**EFFECT_OPS, **host.vocabulary()[0]}
    op = fields.str("op", choices=ops)
    when = _conditions(fields, "when", refs)
    args = _params(fields, ops[op], refs, "op")
    params = dict(args)
    for target, needed in _TARGET_NEEDS:
        if params.get("target") == target and needed not in params:
            fields.fail(needed, MISSING_FIELD.format(expected=f'{needed} (target is "{target}")'))
    return Effect(op=op, args=args, when=when)


def _effects(parent: _Fields, key: str, refs: _Refs, default: Any = _REQUIRED) -> tuple[Effect, ...]:
    items = parent.list(key, default, "a list of effects [ { op = ... }, ... ]")
    return tuple(_effect(_Fields(parent.where, item, f"{parent.name(key)}[{i + 1}]"), refs) for i, item in enumerate(items))


def _ability(fields: _Fields, refs: _Refs) -> Ability:
    ability = Ability(
        timing=fields.str("timing", choices=TIMINGS),
        cost=fields.amounts("cost", RESOURCES, 1, 9, default={}),
        effects=_effects(fields, "effects", refs),
        optional=fields.bool("optional", True),
        text=fields.str("text", ""),
    )
    if not ability.effects:
        fields.wrong("effects", "at least one effect", [])
    if ability.cost and not ability.optional:
        # nothing would ever pay it: costless abilities happen by themselves, costed ones wait for the club's choice
        fields.fail("cost", MANDATORY_COST)
    if ability.cost and ability.timing == "production":
        # Production happens by itself on Monday (000 l.288, 003 l.283): nothing would pay the cost first
        fields.fail("cost", PRODUCTION_COST)
    fields.done()
    return ability


def _abilities(parent: _Fields, key: str, refs: _Refs, default: Any = ()) -> tuple[Ability, ...]:
    items = parent.list(key, [] if default == () else default, "a list of abilities [ { timing = ..., effects = [...] } ]")
    return tuple(_ability(_Fields(parent.where, item, f"{parent.name(key)}[{i + 1}]"), refs) for i, item in enumerate(items))


# ---------------------------------------------------------------------------------------------------------------
# Cards.


TAG_WORDS: Final = 'a list of three-letter tags in capitals, such as ["NBL", "STR"]'


def _tags(fields: _Fields, default: Any) -> tuple[str, ...]:
    """Footballer tags (003 l.82, l.98): three capital letters each; which tags exist is the Referee data's to say."""
    value = fields.list("tags", default, TAG_WORDS)
    if not all(isinstance(t, str) and len(t) == 3 and t.isalpha() and t.isupper() for t in value) \
            or len(set(value)) != len(value):
        fields.wrong("tags", TAG_WORDS, value)
    return tuple(value)


def _footballer_side(card: _Fields, key: str, jersey: int | None, refs: _Refs, default: Any = _REQUIRED,
                     tags: tuple[str, ...] = ()) -> PlayerSide:
    side = card.table(key, default)
    sections_raw = side.raw("sections", _REQUIRED, "a list of sections: " + ", ".join(f'"{s}"' for s in SECTIONS))
    sections = (sections_raw,) if isinstance(sections_raw, str) else sections_raw
    if not isinstance(sections, list | tuple) or not sections or any(s not in SECTIONS for s in sections):
        side.wrong("sections", "a list of sections from " + ", ".join(f'"{s}"' for s in SECTIONS), sections_raw)
    experience = side.list("experience", [], 'a list of "played" / "scored"')
    if any(e not in ("played", "scored") for e in experience):
        side.wrong("experience", 'a list of "played" / "scored"', experience)
    result = PlayerSide(
        cost=side.int("cost", 0, 9),
        style=side.str("style", choices=STYLES),
        sections=tuple(dict.fromkeys(sections)),
        strength=side.int("strength", 0, 4),
        jersey=side.int("jersey", 1, 99) if jersey is None or "jersey" in side.data else jersey,
        abilities=_abilities(side, "abilities", refs),
        experience=tuple(experience),
        name=side.str("name", ""),
        tags=_tags(side, list(tags)) if "tags" in side.data else tags,
        goalkeeper=_goalkeeper(side),
    )
    side.done()
    return result


def _goalkeeper(side: _Fields) -> Goalkeeper | None:
    """``goalkeeper = { gloves = 2, luck = 1 }``: the side is a Goalkeeper's (003 l.160, l.167)."""
    if "goalkeeper" not in side.data:
        return None
    keeper = side.table("goalkeeper")
    found = Goalkeeper(gloves=keeper.int("gloves", 0, 5), luck=keeper.int("luck", 0, 5))
    keeper.done()
    return found


def _footballer(card: _Fields, refs: _Refs) -> dict[str, Any]:
    jersey = card.int("jersey", 1, 99, None)
    shared = card.defaults.get("untrained") if isinstance(card, _CardFields) else None
    if shared is not None:
        # Every Youngster's untrained side is the same: the file states it once; a card may still override fields.
        own = card.data.get("untrained", {})
        card.data = {**card.data, "untrained": {**shared, **own} if isinstance(own, dict) else own}
    tags = _tags(card, [])  # printed on the card: both sides, unless a side lists its own
    return {
        "untrained": _footballer_side(card, "untrained", jersey, refs, tags=tags),
        "trained": _footballer_side(card, "trained", jersey, refs, tags=tags),
    }


def _director(card: _Fields, refs: _Refs) -> dict[str, Any]:
    votes = card.list("votes", _REQUIRED, "six decision colours, one for each die face 1–6")
    if len(votes) != 6 or any(not isinstance(v, str) or not v.strip() for v in votes):
        card.wrong("votes", "six decision colours, one for each die face 1–6", votes)
    return {
        "votes": tuple(votes),
        "stat_changes": card.amounts("stats", STATS, -3, 3, default={}),
        "abilities": _abilities(card, "abilities", refs),
    }


def _board_meeting(card: _Fields, refs: _Refs) -> dict[str, Any]:
    items = card.list("decisions", _REQUIRED, "a list of 2–3 decisions")
    if not 2 <= len(items) <= 3:
        card.wrong("decisions", "2–3 decisions", f"{len(items)}")
    decisions = []
    for i, item in enumerate(items):
        sub = _Fields(card.where, item, f"decisions[{i + 1}]")
        decisions.append(Decision(colour=sub.str("colour"), title=sub.str("title"), effects=_effects(sub, "effects", refs)))
        sub.done()
    colours = [d.colour for d in decisions]
    if len(set(colours)) != len(colours):
        card.wrong("decisions", "decisions of different colours", colours)
    return {"decisions": tuple(decisions)}


def _zone(zones: _Fields, zone: str) -> tuple[Footballer, ...]:
    expected = 'a list of footballers such as ["A3", "D2"] (A = attacker, D = defender, then Strength 0–4)'
    items = zones.list(zone, [], expected)
    out = []
    for item in items:
        if not (isinstance(item, str) and len(item) == 2 and item[0] in "AD" and item[1] in "01234"):
            zones.wrong(zone, expected, item)
        out.append(Footballer(style="attack" if item[0] == "A" else "defence", strength=int(item[1])))
    return tuple(out)


def _divisions(card: _Fields) -> tuple[int, ...]:
    """``division = 2``, or the Divisions of a card printed for several decks (``division = [2, 1]`` for "2/1")."""
    value = card.raw("division", _REQUIRED, "a Division 1–9, or a list of them such as [2, 1]")
    if isinstance(value, list):
        if value and len(set(value)) == len(value) and all(
                isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 9 for v in value):
            return tuple(value)
        card.wrong("division", "a list of different Divisions 1–9, such as [2, 1]", value)
    return (card.int("division", 1, 9),)


def _opponent(card: _Fields, refs: _Refs) -> dict[str, Any]:
    team = card.str("team")
    refs.add(card, "team", "team", team)
    zones = card.table("zones")
    divisions = _divisions(card)
    result = {"team": team, "division": divisions[0], "divisions": divisions,
              "zones": tuple((z, _zone(zones, z)) for z in ZONES)}
    zones.done(ZONES)
    return result


def _staff(card: _Fields, refs: _Refs) -> dict[str, Any]:
    staff_set = card.str("set")
    refs.add(card, "set", "staff set", staff_set)
    return {
        "cost": card.int("cost", 0, 9),
        "profession": card.str("profession"),
        "set": staff_set,
        "bonus": _effects(card, "bonus", refs, []),
        "abilities": _abilities(card, "abilities", refs),
    }


def _sponsor(card: _Fields, refs: _Refs) -> dict[str, Any]:
    out: dict[str, Any] = {kind: _abilities(card, kind, refs, _REQUIRED) for kind in CONTRACTS}
    out["bonus"] = _abilities(card, "bonus", refs)
    return out


def _objective(card: _Fields, refs: _Refs) -> dict[str, Any]:
    return {"goal": _conditions(card, "goal", refs, _REQUIRED), "perfect": _conditions(card, "perfect", refs, _REQUIRED)}


def _tactic(card: _Fields, refs: _Refs) -> dict[str, Any]:
    return {"effects": _effects(card, "effects", refs)}


_CARD_READERS: Final[Mapping[str, Callable[[_Fields, _Refs], dict[str, Any]]]] = MappingProxyType(
    {
        "director": _director,
        "board_meeting": _board_meeting,
        "opponent": _opponent,
        "staff": _staff,
        "sponsor": _sponsor,
        "objective": _objective,
        "tactic": _tactic,
    }
)
class _CardFields(_Fields):
    """A card's table; `defaults` holds file-level tables cards may share (a Youngster's untrained side)."""

    def __init__(self, where: str, data: Any, defaults: dict[str, Any]) -> None:
        super().__init__(where, data)
        self.defaults = defaults


def _read_cards(kind: str, file: str, document: dict[str, Any], refs: _Refs) -> list[AnyCard]:
    top = _Fields(file, document)
    items = top.list("card", [], "[[card]] tables")
    shared: dict[str, Any] = {}
    if kind == "youngster" and "untrained" in document:
        shared["untrained"] = top.table("untrained").data
    top.done(("card", "untrained") if kind == "youngster" else ("card",))
    prefix = KIND_PREFIXES[kind]
    cards: list[AnyCard] = []
    for number, item in enumerate(items, start=1):
        label = item.get("id") if isinstance(item, dict) and isinstance(item.get("id"), str) else f"#{number}"
        fields = _CardFields(f"{file}, card {label}", item, shared)
        card_id = fields.str("id")
        if not card_id.startswith(prefix) or len(card_id) == len(prefix):
            fields.fail("id", WRONG_PREFIX.format(id=card_id, prefix=prefix, file=file))
        base = {"id": card_id, "kind": kind, "name": fields.str("name"), "text": fields.str("text", ""),
                "module": _card_module(fields)}
        if kind in FOOTBALLER_KINDS:
            specific = _footballer(fields, refs)
        else:
            specific = _CARD_READERS[kind](fields, refs)
        fields.done()
        cards.append(CARD_CLASSES[kind](**base, **specific))  # type: ignore[arg-type]
    return cards


def _card_module(fields: _Fields) -> str:
    """The rule module a card belongs to ("" for the base game's): one the engine has, so a typo is named."""
    name = fields.str("module", "")
    if name and host.module(name) is None:
        known = ", ".join(m.name for m in host.modules()) or "none"
        fields.wrong("module", f"the name of a rule module ({known})", name)
    return name


# ---------------------------------------------------------------------------------------------------------------
# The board.


def _board(document: dict[str, Any], refs: _Refs) -> Board:
    top = _Fields(BOARD_FILE, document)
    stats = top.table("stats")
    stat_max = stats.int("max", 3, 12)
    production = stats.table("production")
    produce = tuple((s, production.ints(s, 0, 20, stat_max)) for s in STATS)
    production.done(STATS)
    board_stats = {
        "stat_start": stats.int("start", 1, stat_max),
        "stat_max": stat_max,
        "production": produce,
        "potential_forbidden": stats.str("potential_forbidden", choices=STATS),
        "stat_past_top": stat_step(stats, "past_top", StatStep(own=1), below=False),
        "stat_below_bottom": stat_step(stats, "below_bottom", StatStep(own=1, instead=1), below=True),
    }
    stats.done()

    board_maintenance = maintenance_tracks(top, "maintenance", every=True)
    office = office_track(top, "office")
    board_consequences = consequence_table(top, "match_consequences", every=True, refs=refs)

    dice = top.table("opponent_dice")
    board_dice = tuple((die, dice.ints(die, 0, 3, 6)) for die in dice.data)
    if not board_dice:
        top.wrong("opponent_dice", "at least one die with six faces", {})

    teams = []
    for i, item in enumerate(top.list("team", _REQUIRED, "[[team]] tables: id, name, die")):
        team = _Fields(BOARD_FILE, item, f"team[{i + 1}]")
        die = team.str("die", choices=dict(board_dice))
        teams.append(OpponentTeam(id=team.str("id"), name=team.str("name"), die=die))
        team.done()
    ids = [t.id for t in teams]
    if len(set(ids)) != len(ids):
        top.wrong("team", "teams with different ids", ids)

    league = top.table("league")
    board_league = {
        "league_points": league.amounts("points", RESULTS, 0, 9),
        "league_vp": league.ints("vp", -9, 30),
        "league_vp_beyond": league.int("vp_beyond", -9, 30),
    }
    league.done()

    kinds = infrastructure_kinds(top, "infrastructure", refs)

    sets = top.table("staff_sets")
    board_sets = tuple((colour, sets.ints(colour, 0, 30)) for colour in sets.data)

    scoring = top.table("scoring")
    rules = top.table("rules")
    board_rules = {
        "objective_vp": scoring.int("objective_vp", 0, 10),
        "objective_perfect_vp": scoring.int("objective_perfect_vp", 0, 10),
        "budget_per_vp": scoring.int("budget_per_vp", 1, 10),
        "board_stands": rules.int("board_stands", 0, 6),
        "sponsor_slots": rules.amounts("sponsor_slots", ("adboard", "shirt"), 0, 9),
        "free_action_cost": rules.amounts("free_action_cost", RESOURCES, 1, 9),
        "fanbase_kept": rules.int("resources_kept", 0, 9),
        "sell_price": rules.int("sell_price", 0, 20),
    }
    printed = board_rules["board_stands"]
    capacity = rules.ints("stands_capacity", 0, 9, printed) if printed and "stands_capacity" in rules.data else ()
    board_rules["stands_capacity"] = capacity or (1,) * printed
    groups = sorted({k.space for k in kinds})
    given = dict(rules.amounts("infrastructure_spaces", groups, 0, 20, default={}))
    # a space kind the file does not count holds as many tokens as its kinds' copies (the rulebook's board)
    board_rules["infrastructure_spaces"] = tuple(
        (g, given.get(g, sum(k.copies for k in kinds if k.space == g))) for g in groups)
    scoring.done()
    rules.done()

    board = Board(
        **board_stats,
        maintenance=board_maintenance,
        office=office,
        match_consequences=board_consequences,
        opponent_dice=board_dice,
        teams=tuple(teams),
        **board_league,
        infrastructure=kinds,
        staff_sets=board_sets,
        **board_rules,
        pitch=_pitch(top.table("pitch")),
        setup=_setup(top.table("setup"), refs),
    )
    top.done()
    return board


MAINTENANCE_TRACKS: Final = ("players", "staff", "infrastructure")


def maintenance_tracks(parent: _Fields, key: str, *, every: bool) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """``[maintenance]``: € due at the End of the round for a count of 0, 1, 2, ... on each track (``every``: all
    three tracks required; else the tracks given)."""
    table = parent.table(key)
    out = tuple((t, table.ints(t, 0, 20)) for t in MAINTENANCE_TRACKS if every or t in table.data)
    table.done(MAINTENANCE_TRACKS)
    return out


def office_track(parent: _Fields, key: str) -> tuple[OfficeSpace, ...]:
    """``[[office]]``: each space's cost (€ to move onto it) and VP."""
    office = []
    for i, item in enumerate(parent.list(key, _REQUIRED, f"[[{key}]] spaces with cost and vp")):
        space = _Fields(parent.where, item, f"{parent.name(key)}[{i + 1}]")
        office.append(OfficeSpace(cost=space.int("cost", 0, 30), vp=space.int("vp", 0, 30)))
        space.done()
    if not office:
        parent.wrong(key, "at least one space with cost and vp", [])
    return tuple(office)


def consequence_table(parent: _Fields, key: str, *, every: bool, refs: _Refs | None = None) -> tuple[tuple[str, tuple[tuple[Effect, ...], ...]], ...]:
    """``[match_consequences]``: for each result, the effects of d6 faces 1..6 (``every``: all three results
    required; else the results given)."""
    consequences = parent.table(key)
    out = []
    for result in RESULTS:
        if not every and result not in consequences.data:
            continue
        faces = consequences.list(result, _REQUIRED, "six lists of effects, one per d6 face")
        if len(faces) != 6 or not all(isinstance(f, list) for f in faces):
            consequences.wrong(result, "six lists of effects (one per d6 face; [] for nothing)", faces)
        holder = _Fields(parent.where, {str(i + 1): f for i, f in enumerate(faces)}, consequences.name(result))
        out.append((result, tuple(_effects(holder, str(i + 1), refs or _Refs()) for i in range(6))))
    consequences.done(RESULTS)
    return tuple(out)


def infrastructure_kinds(parent: _Fields, key: str, refs: _Refs | None = None) -> tuple[InfrastructureKind, ...]:
    """``[[infrastructure]]``: Stadium Infrastructure token kinds (id, name, cost, vp, copies, stands, adboard_slots,
    abilities, space), with different ids."""
    kinds = []
    for i, item in enumerate(parent.list(key, _REQUIRED, f"[[{key}]] tables")):
        kind = _Fields(parent.where, item, f"{parent.name(key)}[{i + 1}]")
        ident = kind.str("id")
        # once its id is read, a problem names the token as a card's names the card
        kind = _Fields(f"{parent.where}, token {ident}", item)
        kind.used.add("id")
        kinds.append(
            InfrastructureKind(
                id=ident,
                name=kind.str("name"),
                cost=kind.int("cost", 0, 20),
                vp=kind.int("vp", 0, 20),
                copies=kind.int("copies", 1, 4, 1),
                stands=kind.int("stands", 0, 4, 0),
                adboard_slots=kind.int("adboard_slots", 0, 4, 0),
                abilities=_abilities(kind, "abilities", refs or _Refs()),
                space=_space(kind),
            )
        )
        kind.done()
    ids = [k.id for k in kinds]
    if len(set(ids)) != len(ids):
        parent.wrong(key, "kinds with different ids", ids)
    return tuple(kinds)


SPACE_WORDS: Final = "a kind of Stadium board space, e.g. \"improvement\", \"stands\" or \"adboard\""


def _space(kind: _Fields) -> str:
    """The space a kind is built on: as the file says, else Stands and adboards their own, the rest improvements."""
    default = "stands" if kind.data.get("stands") else "adboard" if kind.data.get("adboard_slots") else "improvement"
    value = kind.str("space", default)
    if not value.replace("_", "").isalpha() or not value.islower():
        kind.wrong("space", SPACE_WORDS, value)
    return value


def stat_step(stats: _Fields, key: str, default: StatStep, *, below: bool) -> StatStep:
    """What one step of a Stat marker past the top (``below``: under 1) does: ``{ own = 1, budget = 0, vp = 0 }``
    (below: ``{ own = 1, instead = 1, budget = 0 }``)."""
    if key not in stats.data:
        stats.used.add(key)
        return default
    table = stats.table(key)
    names = ("own", "instead", "budget") if below else ("own", "budget", "vp")
    step = StatStep(**{name: table.int(name, 0, 5, 0) for name in names})
    table.done(names)
    return step


def _pitch(pitch: _Fields) -> Pitch:
    facing = pitch.table("facing")
    pairs = tuple((zone, facing.str(zone, choices=ZONES)) for zone in ZONES)
    facing.done(ZONES)
    if len({b for _, b in pairs}) != len(ZONES):
        pitch.wrong("facing", "each Opponent zone faced by exactly one club zone", dict(pairs))
    result = Pitch(
        wing_capacity=pitch.int("wing_capacity", 0, 5),
        centre_capacity=pitch.int("centre_capacity", 0, 9),
        section_max=pitch.amounts("section_max", SECTIONS, 0, 10),
        facing=pairs,
        jerseys=pitch.ints("jerseys", 1, 99),
        blank_jerseys=pitch.int("blank_jerseys", 0, 9),
        on_pitch=pitch.int("on_pitch", 1, 15),
        start_sections=pitch.amounts("start_sections", SECTIONS, 0, 10),
        start_styles=pitch.amounts("start_styles", STYLES, 0, 10),
    )
    pitch.done()
    return result


def _setup(setup: _Fields, refs: _Refs) -> Setup:
    trainers = setup.list("first_trainers", _REQUIRED, "a list of Staff card ids")
    for trainer in trainers:
        if not isinstance(trainer, str):
            setup.wrong("first_trainers", "a list of Staff card ids", trainers)
        refs.add(setup, "first_trainers", "card", trainer)
    directors_dealt = setup.int("directors_dealt", 1, 9)
    objectives_dealt = setup.int("objectives_dealt", 1, 9)
    display_size = setup.int("display_size", 1, 9)
    max_clubs = setup.int("max_clubs", 1, 8)
    result = Setup(
        directors_dealt=directors_dealt,
        directors_kept=setup.int("directors_kept", 1, directors_dealt),
        objectives_dealt=objectives_dealt,
        objectives_kept=setup.int("objectives_kept", 1, objectives_dealt),
        opponents_per_club=setup.int("opponents_per_club", 1, 20),
        first_trainers=tuple(trainers),
        display_size=display_size,
        reach=setup.int("reach", 1, display_size),
        max_clubs=max_clubs,
    )
    if len(set(trainers)) < max_clubs:
        setup.wrong("first_trainers", f"{max_clubs} different Staff card ids (one for each of max_clubs clubs)", trainers)
    setup.done()
    return result


# ---------------------------------------------------------------------------------------------------------------
# Cross-checks once everything is read.


def _check(cards: dict[str, AnyCard], files: dict[str, str], board: Board, refs: _Refs,
           extra_teams: Iterable[str] = ()) -> None:
    staff = [c for c in cards.values() if isinstance(c, Staff)]
    known = {
        "card": set(cards),
        # the board's teams, and those a module's file adds (the Epic League's League table extension)
        "team": {t.id for t in board.teams} | set(extra_teams),
        "staff set": {colour for colour, _ in board.staff_sets},
        "profession": {s.profession for s in staff},
        "infrastructure": {k.id for k in board.infrastructure},
    }
    for where, field, what, value in refs.items:
        if value not in known[what]:
            problem = (
                UNKNOWN_CARD.format(id=value)
                if what == "card"
                else EXPECTED_GOT.format(expected=f"a {what} of this profile ({', '.join(sorted(known[what]))})", got=_show(value))
            )
            raise DataError(FIELD_PROBLEM.format(where=where, field=field, problem=problem))
    for trainer in board.setup.first_trainers:
        if cards[trainer].kind != "staff":
            raise DataError(
                FIELD_PROBLEM.format(
                    where=f"{BOARD_FILE}, setup", field="first_trainers",
                    problem=EXPECTED_GOT.format(expected="Staff card ids (st_...)", got=_show(trainer)),
                )
            )
    votes = {v for c in cards.values() if isinstance(c, Director) for v in c.votes}
    shown = {d.colour for c in cards.values() if isinstance(c, BoardMeeting) for d in c.decisions}
    for card in cards.values():
        if isinstance(card, Director) and shown and not set(card.votes) <= shown:
            raise DataError(
                FIELD_PROBLEM.format(
                    where=f"{files[card.id]}, card {card.id}",
                    field="votes",
                    problem=EXPECTED_GOT.format(
                        expected="colours shown on Board meeting cards (" + ", ".join(sorted(shown)) + ")",
                        got=_show(sorted(set(card.votes) - shown)),
                    ),
                )
            )
    on_table = {t.id for t in board.teams}
    teams_with_cards = {c.team for c in cards.values() if isinstance(c, Opponent) and c.team in on_table}
    if len(teams_with_cards) < board.setup.opponents_per_club:
        raise DataError(
            FIELD_PROBLEM.format(
                where=f"{BOARD_FILE}, setup",
                field="opponents_per_club",
                problem=EXPECTED_GOT.format(
                    expected=f"at most {len(teams_with_cards)} (each club's Opponent cards need different emblems, "
                    f"and only {len(teams_with_cards)} teams have cards)",
                    got=board.setup.opponents_per_club,
                ),
            )
        )
    for card in cards.values():
        if isinstance(card, BoardMeeting):
            for i, decision in enumerate(card.decisions):
                if votes and decision.colour not in votes:
                    raise DataError(
                        FIELD_PROBLEM.format(
                            where=f"{files[card.id]}, card {card.id}",
                            field=f"decisions[{i + 1}].colour",
                            problem=EXPECTED_GOT.format(
                                expected="a colour some Director votes for (" + ", ".join(sorted(votes)) + ")",
                                got=_show(decision.colour),
                            ),
                        )
                    )


# ---------------------------------------------------------------------------------------------------------------
# Files and the cache.


def _parse(path: Path, file: str) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(BAD_TOML.format(file=file, detail=exc)) from None
    except UnicodeDecodeError as exc:
        raise DataError(BAD_TOML.format(file=file, detail=f"not UTF-8 text: {exc.reason}")) from None


def _locate(folder: Path) -> tuple[dict[str, Path], dict[str, Any]]:
    """Each file's path (the demo's for those an inheriting folder leaves out) and profile.toml's contents."""
    if not folder.is_dir():
        raise DataError(NOT_A_FOLDER.format(folder=folder))
    own = folder / PROFILE_FILE
    if not own.is_file():
        raise DataError(MISSING_FILE.format(file=PROFILE_FILE, folder=folder))
    meta = _parse(own, PROFILE_FILE)
    inherit = meta.get("inherit")
    paths: dict[str, Path] = {}
    for file in ALL_FILES:
        candidate = folder / file
        if candidate.is_file():
            paths[file] = candidate
        elif inherit == "demo" and folder != DEMO_FOLDER:
            paths[file] = DEMO_FOLDER / file
        else:
            raise DataError(MISSING_FILE.format(file=file, folder=folder))
    for file in module_files():  # a module's file is optional: without it the module cannot be chosen
        candidate = folder / file
        if candidate.is_file():
            paths[file] = candidate
        elif inherit == "demo" and folder != DEMO_FOLDER and (DEMO_FOLDER / file).is_file():
            paths[file] = DEMO_FOLDER / file
    return paths, meta


def build_profile(documents: Mapping[str, Any], source: Path, *, inherited_sample: bool = False) -> Profile:
    """Validate parsed TOML documents (file name -> contents, every file of `ALL_FILES`) into a Profile."""
    for file in ALL_FILES:
        if file not in documents:
            raise DataError(MISSING_FILE.format(file=file, folder=source))
    meta = _Fields(PROFILE_FILE, documents[PROFILE_FILE])
    name = meta.str("name")
    sample = meta.bool("sample", False)
    description = meta.str("description", "")
    meta.str("inherit", None, ("demo",))
    meta.done()
    refs = _Refs()
    board = _board(documents[BOARD_FILE], refs)
    cards: dict[str, AnyCard] = {}
    files: dict[str, str] = {}
    for kind in CARD_KINDS:
        file = CARD_FILES[kind]
        for card in _read_cards(kind, file, documents[file], refs):
            if card.id in cards:
                raise DataError(
                    FIELD_PROBLEM.format(
                        where=f"{file}, card {card.id}", field="id", problem=DUPLICATE_ID.format(id=card.id, other=files[card.id])
                    )
                )
            cards[card.id] = card
            files[card.id] = file
    frozen = MappingProxyType(cards)
    module_data = _module_data(documents, frozen, board)
    _check(cards, files, board, refs, _module_teams(module_data))
    return Profile(
        name=name,
        cards=frozen,
        board=board,
        source=source,
        sample=sample or inherited_sample,
        description=description,
        module_data=module_data,
    )


def module_files() -> tuple[str, ...]:
    """The data files the registered modules read from a deck folder (each is optional for the deck)."""
    return tuple(data.name for m in host.modules() for data in m.data)


def _module_data(documents: Mapping[str, Any], cards: Mapping[str, AnyCard], board: Board) -> Mapping[str, Mapping[str, Any]]:
    """Each registered module's files found in the deck, read and validated by the module (file, card, field named),
    and checked against the board profile when the module asks to."""
    out: dict[str, Mapping[str, Any]] = {}
    for m in host.modules():
        read = {data.name: data.read(_Fields(data.name, documents[data.name]), cards) for data in m.data if data.name in documents}
        for data in m.data:
            if data.name in read and data.check is not None:
                data.check(read[data.name], board)
        if read:
            out[m.name] = MappingProxyType(read)
    return MappingProxyType(out)


def _module_teams(module_data: Mapping[str, Mapping[str, Any]]) -> set[str]:
    """The Opponent teams the modules' files found in the deck add to it (a League table extension)."""
    out: set[str] = set()
    for m in host.modules():
        for data in m.data:
            found = module_data.get(m.name, {}).get(data.name)
            if found is not None and data.teams is not None:
                out.update(data.teams(found))
    return out


def _build(folder: Path, paths: dict[str, Path], meta_doc: dict[str, Any]) -> Profile:
    documents = {file: meta_doc if file == PROFILE_FILE else _parse(path, file) for file, path in paths.items()}
    inherited = folder != DEMO_FOLDER and any(p.parent == DEMO_FOLDER for p in paths.values())
    return build_profile(documents, folder, inherited_sample=inherited and _demo_is_sample())


def _demo_is_sample() -> bool:
    return bool(_parse(DEMO_FOLDER / PROFILE_FILE, PROFILE_FILE).get("sample", False))


_cache: dict[tuple[Path, int], tuple[tuple[tuple[str, int, int], ...], Profile]] = {}


def _signature(paths: Iterable[Path]) -> tuple[tuple[str, int, int], ...]:
    out = []
    for path in paths:
        status = path.stat()
        out.append((str(path), status.st_mtime_ns, status.st_size))
    return tuple(out)


def clear_cache() -> None:
    """Forget every parsed profile, so the next load reads the files again."""
    _cache.clear()


def load_profile(folder: str | Path | None = None) -> Profile:
    """Load a deck and board profile: the shipped demo when `folder` is None, else an owner's folder."""
    where = DEMO_FOLDER if folder is None else Path(folder).expanduser().resolve()
    key = (where, host.generation())  # registering a module may add data files to read
    cached = _cache.get(key)
    if cached is not None:
        try:
            if _signature(Path(p) for p, _, _ in cached[0]) == cached[0]:
                return cached[1]
        except OSError:
            pass
    paths, meta = _locate(where)
    kept_as = profile_cache.fingerprint(where, paths, also=(DEMO_FOLDER / PROFILE_FILE,))
    profile = profile_cache.load(where, kept_as, Profile)
    if profile is None:
        profile = _build(where, paths, meta)
        profile_cache.keep(where, kept_as, profile)
    # The folder's own mtime changes when a file is added or removed, so an inherited file being replaced is seen.
    _cache[key] = (_signature([where, *paths.values()]), profile)
    return profile
