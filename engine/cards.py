"""The deck and board profile as frozen data: card kinds, board tables and the effect vocabulary.

Everything printed on *Eleven*'s cards and boards is described here as plain, immutable values.  The loader
(`engine.loader`) builds these objects from TOML files and validates them against the vocabularies below
(`EFFECT_OPS`, `CONDITION_TESTS`, `TIMINGS`, ...); the rules apply them.  Nothing in this module does I/O.

Card effects are `Effect` values: an ``op`` naming what happens plus named parameters, optionally guarded by
`Condition` values (all must hold).  An effect that cannot be automated is ``Effect(op="text", ...)``: the engine
announces its text and asks the table to resolve it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, Union

# ---------------------------------------------------------------------------------------------------------------
# Words shared by cards, boards and the rules.

#: The four Stats; each Stat track produces the resource of the same name.
STATS: Final = ("budget", "fanbase", "operation", "fitness")
#: Resources a club holds as markers (the same four words as the Stats).
RESOURCES: Final = STATS
#: Sections of a pitch, from one's own goal outwards.
SECTIONS: Final = ("def", "mid", "fwd")
#: Sides of a pitch as seen from one's own goal.
SIDES: Final = ("left", "centre", "right")
#: The nine zones, named ``<section>_<side>``.
ZONES: Final = tuple(f"{section}_{side}" for section in SECTIONS for side in SIDES)
#: A footballer's symbol: an attacker (ball) or a defender (shield).
STYLES: Final = ("attack", "defence")
#: Match results, seen from the club.
RESULTS: Final = ("win", "draw", "loss")
#: Sponsor contract types: megaphone (discarded), adboard (under the Stadium board), shirt (one only).
CONTRACTS: Final = ("megaphone", "adboard", "shirt")
#: Rows of the Transfer area (and the Youngster deck, which has no display).
ROWS: Final = ("players", "staff", "sponsors", "youngster")
#: The rows a card can be hired from (the Sponsors row is contracted from, with a `sponsor` action).
HIRE_ROWS: Final = ("players", "staff", "youngster")
#: Card kinds and the id prefix each kind's ids must start with.
KIND_PREFIXES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "director": "dir_",
        "board_meeting": "bm_",
        "opponent": "opp_",
        "player": "pl_",
        "youngster": "yg_",
        "veteran": "vet_",
        "staff": "st_",
        "sponsor": "sp_",
        "objective": "obj_",
        "tactic": "tac_",
    }
)
CARD_KINDS: Final = tuple(KIND_PREFIXES)
#: Kinds that are double-sided footballer cards.
FOOTBALLER_KINDS: Final = ("player", "youngster", "veteran")

#: When an `Ability` happens.
TIMINGS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "immediate": "once, when the card is hired, contracted, built or revealed",
        "action": "a Tuesday-Thursday action of the card (once per round; exhausts the card); cost paid from the supply",
        "production": "every Monday, during Production (the Production keyword: it always applies, like an immediate bonus)",
        "monday": "every Monday, after Production",
        "after_reveal": "Matchday, after the Opponent is revealed, before the effects before the match (footballers: only "
                        "when the card plays; cost from assigned resources)",
        "before_match": "Matchday, before the match (footballers: only when the card plays; cost from assigned resources)",
        "during_match": "Matchday, during the match (footballers: only when the card plays; cost from assigned resources)",
        "after_match": "Matchday, after the result (footballers: only when the card plays; cost from assigned resources)",
        "end_of_round": "every End of the round, before Maintenance",
        "passive": "always in force while the card is in play (e.g. prevents injuries, widens reach)",
        "final_scoring": "once, at the end of the game",
    }
)

Scalar = Union[str, int, bool]


# ---------------------------------------------------------------------------------------------------------------
# The vocabulary of effects and conditions.


def whole_numbers(low: int, high: int) -> str:
    """Words for a range of whole numbers, as error messages and DATA.md say it."""
    return f"a whole number from {low} to {high}" if low < 0 else f"a whole number {low}–{high}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Param:
    """One named parameter of an effect op or condition test: its type and allowed values."""

    type: str  # "int", "choice", "text" or "card"
    doc: str
    required: bool = True
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    nonzero: bool = False
    default: Scalar | None = None

    def describe(self) -> str:
        """Say in words what values are allowed (used in error messages and DATA.md)."""
        if self.type == "int":
            return whole_numbers(self.low or 0, self.high or 0) + (", not 0" if self.nonzero else "")
        if self.type == "choice":
            return "one of " + ", ".join(f'"{c}"' for c in self.choices)
        if self.type == "card":
            return "the id of a card in this profile"
        return "a non-empty text"


@dataclass(frozen=True, slots=True, kw_only=True)
class OpSpec:
    """What an effect op (or condition test) does and which parameters it takes."""

    doc: str
    params: Mapping[str, Param] = field(default_factory=lambda: MappingProxyType({}))


def _spec(doc: str, **params: Param) -> OpSpec:
    return OpSpec(doc=doc, params=MappingProxyType(params))


def _int(doc: str, low: int, high: int, *, required: bool = True, nonzero: bool = False, default: int | None = None) -> Param:
    return Param(type="int", doc=doc, low=low, high=high, required=required, nonzero=nonzero, default=default)


def _choice(doc: str, choices: tuple[str, ...], *, required: bool = True, default: str | None = None) -> Param:
    return Param(type="choice", doc=doc, choices=tuple(choices), required=required, default=default)


def _text(doc: str, *, required: bool = True) -> Param:
    return Param(type="text", doc=doc, required=required)


_RESOURCE = _choice("which resource", RESOURCES)
_PER = (
    "fanbase_on_stands",
    "goals_scored",
    "goals_conceded",
    "trained_players",
    "youngsters",
    "infrastructure",
)
_LASTING = ("action", "round", "permanent")
_FOOTBALLER_TARGETS = ("roll_d10", "jersey", "this_card", "chosen_player")

#: Every effect op with its parameters.  "this_card" means the card that carries the effect; "chosen_..." means
#: the club picks (the engine asks); "roll_d10" means the engine asks for a d10 and the jersey number rolled is hit
#: (nothing happens when the club has no card with that number).
EFFECT_OPS: Final[Mapping[str, OpSpec]] = MappingProxyType(
    {
        "gain": _spec(
            "Gain resource markers from the supply.",
            resource=_RESOURCE,
            amount=_int("how many (times `per`, when given)", 1, 10),
            per=_choice("multiply the amount by this count", _PER, required=False),
        ),
        "lose": _spec(
            "Return resource markers to the supply (never below 0; a shortfall is simply not paid).",
            resource=_RESOURCE,
            amount=_int("how many", 1, 10),
        ),
        "stat": _spec(
            "Move a Stat marker; past 6 gains the resource instead, below 1 loses it (or 1 €, or nothing).",
            stat=_choice("which Stat track", STATS),
            steps=_int("spaces to move (+ right, - left)", -3, 3, nonzero=True),
        ),
        "vp": _spec(
            "Gain VP tokens.",
            amount=_int("how many VP tokens", 1, 5),
            to=_choice("where the tokens go", ("club", "this_card", "chosen_player"), required=False, default="club"),
        ),
        "injure": _spec(
            "Put an Injury token (showing `weeks`) on a footballer card.",
            target=_choice("who is injured", _FOOTBALLER_TARGETS),
            jersey=_int("jersey number (only with target = \"jersey\")", 1, 99, required=False),
            weeks=_int("weeks on the Injury token", 1, 3, required=False, default=1),
        ),
        "suspend": _spec(
            "Put Suspension tokens on a footballer, Staff card or other card (\"chosen_card\" may name a Director or an Infrastructure kind).",
            target=_choice(
                "what is suspended", _FOOTBALLER_TARGETS + ("chosen_staff", "chosen_card")
            ),
            jersey=_int("jersey number (only with target = \"jersey\")", 1, 99, required=False),
            tokens=_int("how many Suspension tokens (weeks)", 1, 3, required=False, default=1),
        ),
        "heal": _spec(
            "Remove the Injury token from a footballer card.",
            target=_choice("who is healed", ("this_card", "chosen_player")),
        ),
        "unsuspend": _spec(
            "Remove Suspension tokens from a card.",
            target=_choice("which card", ("this_card", "chosen_player", "chosen_staff", "chosen_card")),
            tokens=_int("how many tokens", 1, 3, required=False, default=1),
        ),
        "prevent_injury": _spec(
            "Ignore the next injuries that would hit this club.",
            count=_int("how many injuries are ignored", 1, 3, required=False, default=1),
            lasting=_choice("how long the protection lasts", ("round", "permanent"), required=False, default="round"),
        ),
        "train": _spec(
            "Flip a footballer card to its trained side (no effect when already trained).",
            target=_choice("who is trained", ("this_card", "chosen_player", "chosen_youngster")),
        ),
        "strength": _spec(
            "Put a Strength token (+/-) on footballers; temporary ones go after the match.",
            amount=_int("Strength change", -3, 3, nonzero=True),
            lasting=_choice("token side", ("temporary", "permanent"), required=False, default="temporary"),
            target=_choice("who gets it", ("this_card", "chosen_player", "section", "all")),
            section=_choice("which section (only with target = \"section\")", SECTIONS, required=False),
        ),
        "opponent_strength": _spec(
            "Change the Strength of the Opponent card's footballers for this match (never below 0).",
            amount=_int("Strength change", -3, 3, nonzero=True),
            section=_choice("which of the Opponent's sections", SECTIONS + ("all",), required=False, default="all"),
            style=_choice("which footballers", STYLES + ("any",), required=False, default="any"),
        ),
        "score": _spec(
            "Move a Score marker before the match (cannot be prevented); \"opponent\" is an own goal.",
            side=_choice("whose Score marker moves", ("us", "opponent")),
            goals=_int("how many goals", 1, 3, required=False, default=1),
        ),
        "reach": _spec(
            "Take cards from further left in a Transfer area row.",
            row=_choice("which row", ("players", "staff", "sponsors")),
            extra=_int("extra spaces reachable beyond the three rightmost", 1, 2),
            lasting=_choice("for the hire in this effect, this round, or while in play", _LASTING),
        ),
        "discount": _spec(
            "Pay less € when hiring from a row (never below 0).",
            row=_choice("which row", ROWS),
            amount=_int("€ off", 1, 3),
            lasting=_choice("for the hire in this effect, this round, or while in play", _LASTING),
        ),
        "hire": _spec(
            "Hire from a row now, paying its cost (after any reach/discount effects listed before it).",
            # a Sponsor is contracted (`sponsor`, with its contract kind), never hired
            row=_choice("which row", HIRE_ROWS),
        ),
        "reroll_free": _spec(
            "Reroll own dice without spending fanbase (never the Opponent dice).",
            count=_int("how many free rerolls", 1, 3, required=False, default=1),
            purpose=_choice(
                "which rolls",
                ("any", "board_meeting", "match_consequence", "potential", "effect"),
                required=False,
                default="any",
            ),
            lasting=_choice("how long they are available", ("round", "permanent"), required=False, default="round"),
        ),
        "free_action": _spec(
            "Take extra free actions without paying 2 operation.",
            count=_int("how many", 1, 2, required=False, default=1),
        ),
        "text": _spec(
            "Cannot be automated: the engine announces the text and the table records what it did.",
            text=_text("what the card says, as one plain sentence"),
        ),
    }
)

#: Every condition test with its parameters.  Conditions guard effects (``when``) and make up Objectives.
CONDITION_TESTS: Final[Mapping[str, OpSpec]] = MappingProxyType(
    {
        "result": _spec("The match result is this.", **{"is": _choice("win, draw or loss", RESULTS)}),
        "roll": _spec(
            "Roll a die (the engine asks for it) and compare.",
            die=_choice("which die", ("d6", "d10")),
            at_least=_int("lowest result that passes", 1, 10, required=False),
            at_most=_int("highest result that passes", 1, 10, required=False),
        ),
        "scored": _spec("The club scored at least this many goals in the match.", at_least=_int("goals", 0, 9)),
        "conceded": _spec("The club conceded at most this many goals in the match.", at_most=_int("goals", 0, 9)),
        "played": _spec("This footballer card played in the match."),
        "fanbase_on_stands": _spec("At least this many fanbase markers on the Stands.", at_least=_int("markers", 1, 9)),
        "staff": _spec(
            "The club has at least this many Staff of a profession.",
            profession=_text("a profession printed on Staff cards"),
            at_least=_int("cards", 1, 9),
        ),
        "staff_set": _spec(
            "The club has at least this many Staff cards of a set (colour).",
            set=_text("a set colour from the board's staff sets"),
            at_least=_int("cards", 1, 9),
        ),
        "stat": _spec("A Stat marker is at least at this level.", stat=_choice("which Stat", STATS), at_least=_int("level", 1, 6)),
        "sponsors": _spec(
            "The club holds at least this many Sponsors of a contract type (megaphones count when contracted).",
            contract=_choice("which contract", CONTRACTS + ("any",)),
            at_least=_int("sponsors", 1, 9),
        ),
        "league_position": _spec("The club's League position is this or better.", at_most=_int("position", 1, 12)),
        "infrastructure": _spec(
            "The club has built at least this many Stadium Infrastructure tokens (of one kind, if given).",
            kind=_text("an infrastructure id from the board (any kind when left out)", required=False),
            at_least=_int("tokens", 1, 7),
        ),
        "office": _spec("The Office marker is at least on this space.", at_least=_int("space", 1, 9)),
        "budget": _spec("The club holds at least this many €.", at_least=_int("€", 1, 99)),
        "trained_players": _spec("At least this many trained footballer cards.", at_least=_int("cards", 1, 15)),
        "players": _spec("At least this many footballer cards.", at_least=_int("cards", 1, 20)),
        "vp_tokens": _spec("At least this many VP tokens gained.", at_least=_int("tokens", 1, 30)),
        "has_card": _spec("The club has this card.", card=Param(type="card", doc="a card id")),
        "text": _spec("Cannot be checked automatically: the table confirms.", text=_text("the condition in words")),
    }
)


def _args(params: Mapping[str, Scalar]) -> tuple[tuple[str, Scalar], ...]:
    return tuple(sorted(params.items()))


class _Named:
    """Parameter lookup shared by `Condition` and `Effect` (both keep their parameters as sorted pairs)."""

    __slots__ = ()
    args: tuple[tuple[str, Scalar], ...]

    @property
    def params(self) -> dict[str, Scalar]:
        """The parameters as a new dict."""
        return dict(self.args)

    def get(self, name: str, default: Scalar | None = None) -> Scalar | None:
        """One parameter, or the default when absent."""
        return dict(self.args).get(name, default)

    def __getitem__(self, name: str) -> Scalar:
        return dict(self.args)[name]


@dataclass(frozen=True, slots=True, kw_only=True)
class Condition(_Named):
    """A test the engine checks (or asks the table about, for ``test="text"``)."""

    test: str
    args: tuple[tuple[str, Scalar], ...] = ()

    @classmethod
    def of(cls, test: str, **params: Scalar) -> Condition:
        """Build a condition from keyword parameters."""
        return cls(test=test, args=_args(params))

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (the same shape as in the data files)."""
        return {"test": self.test, **dict(self.args)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Effect(_Named):
    """One thing that happens: an op from `EFFECT_OPS` with its parameters, applied only when all of ``when`` hold."""

    op: str
    args: tuple[tuple[str, Scalar], ...] = ()
    when: tuple[Condition, ...] = ()

    @classmethod
    def of(cls, op: str, when: tuple[Condition, ...] = (), **params: Scalar) -> Effect:
        """Build an effect from keyword parameters (defaults from `EFFECT_OPS` are filled in)."""
        spec = EFFECT_OPS.get(op)
        full: dict[str, Scalar] = {}
        if spec is not None:
            full = {k: p.default for k, p in spec.params.items() if p.default is not None}
        full.update(params)
        return cls(op=op, args=_args(full), when=tuple(when))

    @property
    def automated(self) -> bool:
        """False when the table must resolve it (a ``text`` effect or a ``text`` condition)."""
        return self.op != "text" and all(c.test != "text" for c in self.when)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (the same shape as in the data files)."""
        out: dict[str, Any] = {"op": self.op, **dict(self.args)}
        if self.when:
            out["when"] = [c.to_dict() for c in self.when]
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Ability:
    """Something a card does at a moment (`TIMINGS`), for a cost in resources, as a list of effects."""

    timing: str
    effects: tuple[Effect, ...]
    cost: tuple[tuple[str, int], ...] = ()  # (resource, amount) pairs, resource in RESOURCES
    optional: bool = True  # False: a mandatory (often negative) effect that must be resolved
    text: str = ""  # the card's own words for it, shown on screens

    @property
    def cost_map(self) -> dict[str, int]:
        """The cost as {resource: amount}."""
        return dict(self.cost)


# ---------------------------------------------------------------------------------------------------------------
# Cards.


@dataclass(frozen=True, slots=True, kw_only=True)
class Card:
    """What every card has: an id (prefixed by kind), its kind, its name and its (flavour) text; a card that belongs
    to a rule module (``module``) is dealt only in games that choose it."""

    id: str
    kind: str
    name: str
    text: str = ""
    module: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Director(Card):
    """A Director: for each d6 result (1–6) the decision colour it votes for, Stat changes at setup, abilities."""

    votes: tuple[str, str, str, str, str, str]
    stat_changes: tuple[tuple[str, int], ...] = ()  # (stat, steps), applied after all three are revealed
    abilities: tuple[Ability, ...] = ()

    def vote(self, roll: int) -> str:
        """The colour this Director votes for on a d6 result."""
        return self.votes[roll - 1]


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """One decision on a Board meeting card: its colour, its title and the effects when it wins the vote."""

    colour: str
    title: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardMeeting(Card):
    """A Board meeting card: two or three decisions, each a different colour."""

    decisions: tuple[Decision, ...]

    def decision(self, colour: str) -> Decision | None:
        """The decision of that colour, or None when the card has none."""
        return next((d for d in self.decisions if d.colour == colour), None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Footballer:
    """An opponent's footballer in one zone: attacker or defender, and Strength."""

    style: str
    strength: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Opponent(Card):
    """An Opponent card: its team (emblem), division, and the footballers in each of its nine zones.

    Zones are named as printed on the card from the Opponent's own side (its Defenders in ``def_*``); which club
    zone faces which Opponent zone is the board's ``pitch.facing`` table.
    """

    team: str
    division: int  # the Division printed first (a card printed "2/1" is Division 2 and 1)
    zones: tuple[tuple[str, tuple[Footballer, ...]], ...]  # all nine zones, in ZONES order
    divisions: tuple[int, ...] = ()  # every Division whose deck the card belongs to, the printed one first
    #: each zone's attackers' and defenders' Strengths, strongest first and never below 0: what a club's match is
    #: compared with while no effect changes the Opponent's Strength (worked out once, as the deck loads)
    lines: Mapping[str, tuple[tuple[int, ...], tuple[int, ...]]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", MappingProxyType({
            zone: (tuple(sorted((max(0, f.strength) for f in footballers if f.style == "attack"), reverse=True)),
                   tuple(sorted((max(0, f.strength) for f in footballers if f.style == "defence"), reverse=True)))
            for zone, footballers in self.zones}))

    def zone(self, name: str) -> tuple[Footballer, ...]:
        """The footballers in one zone (empty when nobody stands there)."""
        return dict(self.zones)[name]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerSide:
    """One side (untrained or trained) of a footballer card."""

    cost: int
    style: str
    sections: tuple[str, ...]
    strength: int
    jersey: int
    abilities: tuple[Ability, ...] = ()
    experience: tuple[str, ...] = ()  # one entry per experience space: "played" or "scored"
    name: str = ""  # a side's own name, when it differs from the card's (the untrained side of a Youngster)
    tags: tuple[str, ...] = ()  # the three-letter tags printed on the side (003 l.82, l.98: NBL, STR, ...)
    goalkeeper: Goalkeeper | None = None  # a Goalkeeper's gloves and luck (003 l.160, l.167), None for the others
    #: the moments at which one of its abilities is mandatory (``optional = false``), worked out once
    mandatory: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mandatory", frozenset(a.timing for a in self.abilities if not a.optional))


@dataclass(frozen=True, slots=True)
class Goalkeeper:
    """What a Goalkeeper card prints: the shots its gloves block in each half of a match between clubs (003 l.160)
    and its luck, taken from the other club's die when a match between clubs ends level (l.167)."""

    gloves: int
    luck: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerCard(Card):
    """A footballer card (kind player, youngster or veteran): both sides."""

    untrained: PlayerSide
    trained: PlayerSide

    def side(self, trained: bool) -> PlayerSide:
        """The side facing up."""
        return self.trained if trained else self.untrained


@dataclass(frozen=True, slots=True, kw_only=True)
class Staff(Card):
    """A Staff card: cost, profession, set colour, immediate bonus, and abilities (usually one action)."""

    cost: int
    profession: str
    set: str
    bonus: tuple[Effect, ...] = ()
    abilities: tuple[Ability, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Sponsor(Card):
    """A Sponsor card: what each contract type gives, and the additional bonus (shirt: also; adboard: instead)."""

    megaphone: tuple[Ability, ...]
    adboard: tuple[Ability, ...]
    shirt: tuple[Ability, ...]
    bonus: tuple[Ability, ...] = ()

    def contract(self, kind: str) -> tuple[Ability, ...]:
        """The abilities of one contract type."""
        return {"megaphone": self.megaphone, "adboard": self.adboard, "shirt": self.shirt}[kind]


@dataclass(frozen=True, slots=True, kw_only=True)
class Objective(Card):
    """An Objective card: all of ``goal`` fulfils it; ``goal`` and all of ``perfect`` fulfil it perfectly."""

    goal: tuple[Condition, ...]
    perfect: tuple[Condition, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Tactic(Card):
    """A Tactic card: its effects when played during a match (it returns to the club afterwards)."""

    effects: tuple[Effect, ...]


AnyCard = Union[Director, BoardMeeting, Opponent, PlayerCard, Staff, Sponsor, Objective, Tactic]

#: The class of each card kind.
CARD_CLASSES: Final[Mapping[str, type[Card]]] = MappingProxyType(
    {
        "director": Director,
        "board_meeting": BoardMeeting,
        "opponent": Opponent,
        "player": PlayerCard,
        "youngster": PlayerCard,
        "veteran": PlayerCard,
        "staff": Staff,
        "sponsor": Sponsor,
        "objective": Objective,
        "tactic": Tactic,
    }
)


# ---------------------------------------------------------------------------------------------------------------
# Board tables.


@dataclass(frozen=True, slots=True, kw_only=True)
class OpponentTeam:
    """One of the Opponent teams on the League table, and which Opponent die moves it when nobody plays it."""

    id: str
    name: str
    die: str


@dataclass(frozen=True, slots=True, kw_only=True)
class OfficeSpace:
    """A space of the Office track: the € to move onto it and its VP (the final score adds all spaces reached)."""

    cost: int
    vp: int


@dataclass(frozen=True, slots=True, kw_only=True)
class InfrastructureKind:
    """A Stadium Infrastructure token kind: cost, VP each, copies a club may build, what it adds and does."""

    id: str
    name: str
    cost: int
    vp: int
    copies: int = 1
    stands: int = 0  # Stands it adds (fanbase may sit there during a match)
    adboard_slots: int = 0  # adboard Sponsor slots it adds
    abilities: tuple[Ability, ...] = ()
    space: str = "improvement"  # the kind of Stadium board space it is built on (improvement, stands, adboard)


@dataclass(frozen=True, slots=True, kw_only=True)
class StatStep:
    """What one step of a Stat marker past the top of its track (or below 1) does.

    Past the top: gain ``own`` of the Stat's resource, ``budget`` € and ``vp`` VP tokens per step.  Below 1: lose
    ``own`` of the Stat's resource per step, and for each one the club lacks lose ``instead`` € (nothing when it
    lacks those too); lose ``budget`` € more per step.  The rulebook's: gain 1; lose 1, or 1 € (000 l.225).
    """

    own: int = 1
    budget: int = 0
    vp: int = 0
    instead: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Pitch:
    """Placement limits and which club zone faces which Opponent-card zone."""

    wing_capacity: int  # jersey markers per wing zone
    centre_capacity: int  # jersey markers per central zone
    section_max: tuple[tuple[str, int], ...]  # (section, most jerseys there)
    facing: tuple[tuple[str, str], ...]  # (club zone, Opponent-card zone), all nine
    jerseys: tuple[int, ...]  # numbered jersey markers
    blank_jerseys: int  # unnumbered jersey markers
    on_pitch: int  # jerseys every match needs
    start_sections: tuple[tuple[str, int], ...]  # starting formation, e.g. def 4, mid 4, fwd 2
    start_styles: tuple[tuple[str, int], ...]  # attack 5, defence 5
    #: ``facing`` as a mapping (worked out once, as the board loads)
    faced: Mapping[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "faced", MappingProxyType(dict(self.facing)))

    def faces(self, club_zone: str) -> str:
        """The Opponent-card zone a club zone is compared with."""
        return self.faced[club_zone]

    def capacity(self, zone: str) -> int:
        """How many jersey markers a zone holds."""
        return self.centre_capacity if zone.endswith("_centre") else self.wing_capacity


@dataclass(frozen=True, slots=True, kw_only=True)
class Setup:
    """Numbers of the setup and the length of the game."""

    directors_dealt: int
    directors_kept: int
    objectives_dealt: int
    objectives_kept: int
    opponents_per_club: int  # the game's length in weeks
    first_trainers: tuple[str, ...]  # Staff card ids dealt one per club
    display_size: int  # face-up cards per Transfer area row
    reach: int  # how many of the rightmost cards may be taken
    max_clubs: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Board:
    """The printed boards' tables (the board profile)."""

    stat_start: int
    stat_max: int
    production: tuple[tuple[str, tuple[int, ...]], ...]  # stat -> resources produced at level 1..stat_max
    potential_forbidden: str  # the Stat that Club potential may not raise
    maintenance: tuple[tuple[str, tuple[int, ...]], ...]  # players/staff/infrastructure -> € due by count (0, 1, ...)
    office: tuple[OfficeSpace, ...]
    match_consequences: tuple[tuple[str, tuple[tuple[Effect, ...], ...]], ...]  # result -> d6 face 1..6 -> effects
    opponent_dice: tuple[tuple[str, tuple[int, ...]], ...]  # die id -> six faces as League moves
    teams: tuple[OpponentTeam, ...]
    league_points: tuple[tuple[str, int], ...]  # win 3, draw 1, loss 0
    league_vp: tuple[int, ...]  # VP for position 1, 2, ...
    league_vp_beyond: int  # VP for every position after the table
    infrastructure: tuple[InfrastructureKind, ...]
    staff_sets: tuple[tuple[str, tuple[int, ...]], ...]  # set colour -> VP for 1, 2, ... cards (more: no more VP)
    board_stands: int  # Stands printed on the Stadium board
    sponsor_slots: tuple[tuple[str, int], ...]  # adboard 2, shirt 1 (megaphone is unlimited)
    objective_vp: int
    objective_perfect_vp: int
    budget_per_vp: int  # € per VP at the end
    free_action_cost: tuple[tuple[str, int], ...]  # operation 2
    fanbase_kept: int  # markers kept at End of the round, per resource other than budget
    sell_price: int  # € for selling a footballer
    pitch: Pitch
    setup: Setup
    #: Fanbase each Stands printed on the Stadium board takes (#1, #2...); empty: 1 each of ``board_stands``
    stands_capacity: tuple[int, ...] = ()
    #: spaces of each kind on the Stadium board for Infrastructure tokens (improvement, stands, adboard)
    infrastructure_spaces: tuple[tuple[str, int], ...] = ()
    stat_past_top: StatStep = StatStep(own=1)  # a step of a Stat marker past the top of its track
    stat_below_bottom: StatStep = StatStep(own=1, instead=1)  # a step below 1
    #: the Opponent teams and the Infrastructure kinds by id (worked out once, as the board loads)
    teams_by_id: Mapping[str, OpponentTeam] = field(init=False, repr=False, compare=False)
    kinds_by_id: Mapping[str, InfrastructureKind] = field(init=False, repr=False, compare=False)
    #: the tables read by key, made once (not copied at each reading): League points by result, Production by
    #: Stat, Maintenance by track, the Match consequences by result, an Opponent die's moves by die
    points_by_result: Mapping[str, int] = field(init=False, repr=False, compare=False)
    production_by_stat: Mapping[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    maintenance_by_track: Mapping[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    consequences_by_result: Mapping[str, tuple[tuple[Effect, ...], ...]] = field(init=False, repr=False, compare=False)
    moves_by_die: Mapping[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        teams: dict[str, OpponentTeam] = {}
        for t in self.teams:
            teams.setdefault(t.id, t)  # the first of an id, as a search would find it
        kinds: dict[str, InfrastructureKind] = {}
        for k in self.infrastructure:
            kinds.setdefault(k.id, k)
        object.__setattr__(self, "teams_by_id", MappingProxyType(teams))
        object.__setattr__(self, "kinds_by_id", MappingProxyType(kinds))
        for name, table in (("points_by_result", self.league_points), ("production_by_stat", self.production),
                            ("maintenance_by_track", self.maintenance), ("consequences_by_result", self.match_consequences),
                            ("moves_by_die", self.opponent_dice)):
            object.__setattr__(self, name, MappingProxyType(dict(table)))  # the last of a key, as `dict` reads it

    def printed_stands(self) -> int:
        """Fanbase the Stands printed on the Stadium board take together (built Stands come on top)."""
        return sum(self.stands_capacity) if self.stands_capacity else self.board_stands

    def spaces(self, space: str) -> int:
        """How many Infrastructure tokens the Stadium board's spaces of a kind hold."""
        for name, count in self.infrastructure_spaces:
            if name == space:
                return count
        return sum(k.copies for k in self.infrastructure if k.space == space)

    def produce(self, stat: str, level: int) -> int:
        """Resources produced by a Stat track at a level."""
        return self.production_by_stat[stat][level - 1]

    def maintenance_due(self, track: str, count: int) -> int:
        """€ due on a Maintenance track for a count of Players, Staff or Infrastructure."""
        steps = self.maintenance_by_track[track]
        return steps[min(count, len(steps) - 1)]

    def office_vp(self, space: int) -> int:
        """VP for the Office marker on a space (cumulative; 0 below the track)."""
        return sum(s.vp for s in self.office[:space])

    def consequence(self, result: str, roll: int) -> tuple[Effect, ...]:
        """Effects of the Match consequence roll for a result and a d6."""
        return self.consequences_by_result[result][roll - 1]

    def opponent_move(self, die: str, face: int) -> int:
        """League spaces an Opponent die face moves its team (faces 1..6)."""
        return self.moves_by_die[die][face - 1]

    def team(self, team_id: str) -> OpponentTeam:
        """An Opponent team by id (StopIteration when the board has none of that id)."""
        found = self.teams_by_id.get(team_id)
        if found is None:
            raise StopIteration(team_id)
        return found

    def position_vp(self, position: int) -> int:
        """VP for a League position (1 is first)."""
        return self.league_vp[position - 1] if position <= len(self.league_vp) else self.league_vp_beyond

    def set_vp(self, colour: str, count: int) -> int:
        """VP for holding `count` Staff cards of a set."""
        table = dict(self.staff_sets)[colour]
        return 0 if count <= 0 else table[min(count, len(table)) - 1]

    def infrastructure_kind(self, kind: str) -> InfrastructureKind:
        """An infrastructure kind by id."""
        return self.kinds_by_id[kind]


# ---------------------------------------------------------------------------------------------------------------
# The whole profile.


@dataclass(frozen=True, slots=True, kw_only=True)
class Profile:
    """A deck plus a board profile: everything printed that the rules need."""

    name: str
    cards: Mapping[str, AnyCard]
    board: Board
    source: Path
    sample: bool
    description: str = ""
    #: each registered module's data read from the deck folder: module name -> file name -> the module's data
    module_data: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    #: the cards of each kind, in file order (sorted once: a deck is searched kind by kind while a game is played)
    by_kind: Mapping[str, tuple[AnyCard, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kinds: dict[str, list[AnyCard]] = {kind: [] for kind in KIND_PREFIXES}
        for card in self.cards.values():
            kinds.setdefault(card.kind, []).append(card)
        object.__setattr__(self, "by_kind", MappingProxyType({kind: tuple(cards) for kind, cards in kinds.items()}))

    def cards_of(self, kind: str) -> list[AnyCard]:
        """Every card of a kind, in file order (an unknown kind raises KeyError)."""
        if kind not in KIND_PREFIXES:
            raise KeyError(f'unknown card kind "{kind}"; kinds are: {", ".join(CARD_KINDS)}')
        return list(self.by_kind[kind])

    def card(self, card_id: str) -> AnyCard:
        """One card by id (KeyError naming the id when unknown)."""
        try:
            return self.cards[card_id]
        except KeyError:
            raise KeyError(f'no card "{card_id}" in profile {self.name}') from None
