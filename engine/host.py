"""The module host: a game is a pack (its base rules) plus the rule modules chosen for it and its options.

A pack (today ``eleven``) and each module are `Module` values that *declare* what they bring; nothing in a pack's
rules names a module.  The first event of a game (``{"type": "game", "pack": ..., "modules": [...], "options":
{...}}``) names them; `rules_for` compiles that choice once into a `Rules` object the reducer hands every handler
(as ``tx.rules``):

- ``events``: event types and their handlers (``handler(tx)``, raising an `engine.errors.EngineError` to refuse);
- ``phases``: stages of the game (``begin``, ``step``, ``over``, ``end``, what they await, what ``use_card`` and
  ``pass`` mean there); the week's order of phases comes from the ``week_phases`` hook;
- ``hooks``: functions filling the named extension points of `HOOKS` that the base rules call (sale price,
  before and after a match, the match resolver, the week's phases, the board a seat plays on, parts of the final
  score, the face a footballer shows, ...);
- ``rolls``: what a die roll is for (``purpose`` -> ``resolve(tx, pending, value)``);
- ``ops`` and ``tests``: effect ops and condition tests it adds to the data vocabulary (validated on load);
- ``data``: its data files in the deck folder, read and validated by the loader (errors name file, card, field);
- ``state``: its slice of the game state (JSON-safe, immutable), created when the game begins;
- ``options``: the options of the game event it understands (the pack: ``weeks``, ``division``).

boardgame.io's game configuration (moves, phases with ``onBegin``/``endIf``/``next``, plugins) is the model.
This module imports nothing of the engine's, so every other part may import it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

__all__ = [
    "DataFile",
    "EventSpec",
    "HOOKS",
    "Hook",
    "Module",
    "Option",
    "Phase",
    "Rules",
    "Slice",
    "module",
    "modules",
    "pack",
    "register",
    "rules_for",
    "unregister",
]

Fn = Callable[..., Any]
EMPTY: Final[Mapping[str, Any]] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class EventSpec:
    """An event type: one line of documentation (its fields) and the handler that applies it to a transaction.

    ``seat_page``: a club's secret choice (a bet, an arrangement, which Objective it keeps), sent by that seat from
    its own page; the seat's page offers the club's needs it answers and takes no other event.
    """

    doc: str
    handler: Fn  # handler(tx) -> None; raises an EngineError to refuse the event
    seat_page: bool = False


@dataclass(frozen=True, slots=True)
class Phase:
    """A stage of the game (``state.stage``): what happens when it begins, while it lasts and when it ends.

    ``over(tx)`` defaults to "nothing is pending"; the host never ends a phase while anything is pending or a
    module is ``busy``.  ``step(tx)`` moves on inside the phase (the next seat's turn) and says whether it did.
    ``awaiting(state)`` lists the needs of the phase beyond the pending rolls and choices (public words only: a
    secret belongs in a module's view).  ``use_card(tx, seat, card)`` and ``pass_(tx, seat)`` say what the
    ``use_card`` and ``pass`` events do in this phase (None: refused as belonging to another moment), and
    ``offers(tx, club)`` which optional abilities a club may use here (the page's ``may_use``).
    """

    name: str
    title: str  # for sentences: "Monday", "the League results"
    begin: Fn | None = None  # begin(tx)
    step: Fn | None = None  # step(tx) -> bool
    over: Fn | None = None  # over(tx) -> bool
    end: Fn | None = None  # end(tx)
    awaiting: Fn | None = None  # awaiting(state) -> list[dict]
    use_card: Fn | None = None  # use_card(tx, seat, card_id)
    pass_: Fn | None = None  # pass_(tx, seat)
    windows_closed: Fn | None = None  # windows_closed(tx): every club is done with its optional abilities here
    offers: Fn | None = None  # offers(tx, club) -> [(card_id, Ability)]: the optional abilities it may use now
    turn_actions: tuple[str, ...] = ()  # the base actions taken in turns here as on Tuesday ("hire", "sell")


@dataclass(frozen=True, slots=True)
class Option:
    """An option of the game event: what it means, and ``check(value) -> value`` raising ValueError with a sentence.

    ``choices`` are the values a form offers (a tuple, or ``choices(profile)`` when the deck decides them, e.g. the
    Divisions its Opponent cards are printed with); ``title`` names the option for people.
    """

    doc: str
    check: Fn
    default: Any = None
    choices: tuple[Any, ...] | Fn = ()
    title: str = ""

    def offered(self, profile: Any) -> list[Any]:
        """The values a form offers for this option with this deck."""
        found = self.choices(profile) if callable(self.choices) else self.choices
        return list(found)


@dataclass(frozen=True, slots=True)
class DataFile:
    """A data file of a module in the deck folder.

    ``read(fields, cards)`` gets the parsed file as `engine.loader.Fields` (whose ``fail``/``wrong`` raise a
    ``DataError`` naming the file, the card and the field) and the deck's cards, and returns the module's data
    (immutable).  ``check(data, board)``, when given, then checks it against the deck's board profile (raising a
    ``DataError`` the same way).  A module whose ``required`` file is missing cannot be chosen for a game.
    ``teams(data)`` names the Opponent teams the file brings (a League table extension), so Opponent cards of the
    deck may play for them.
    """

    name: str
    read: Fn
    required: bool = True
    doc: str = ""
    check: Fn | None = None
    teams: Fn | None = None  # teams(data) -> team ids the file adds to the deck (Opponent cards may name them)


@dataclass(frozen=True, slots=True)
class Slice:
    """A module's part of the game state: ``initial(game)`` when the game begins, ``decode(json)`` for `State.from_dict`;
    ``prepare(profile, game, slice)`` (optional) copies in what the module reads from the deck (a schedule), so the
    hooks that see only the state have it.

    A slice is immutable and JSON-safe (named tuples, tuples, str, int, bool, None); `engine.state.evolve` changes it.
    """

    initial: Fn
    decode: Fn
    prepare: Fn | None = None  # prepare(profile, game, slice) -> slice: what it takes from the deck as the game begins


@dataclass(frozen=True, slots=True)
class Hook:
    """A named extension point the base rules call; ``kind`` says how the fillers of several modules combine.

    - ``pipeline``: ``f(*args, value) -> value``; the caller gives the base value, each module may change it;
    - ``each``: every filler is called in turn (``f(*args)``), nothing is returned;
    - ``first``: the first filler that returns something other than None decides; else None;
    - ``collect``: the fillers' lists are joined (``f(*args) -> list``);
    - ``any``: True when a filler returns True.
    """

    kind: str
    doc: str


#: Every hook the base rules call, by name.  A module fills some of them in ``Module.hooks``.
HOOKS: Final[Mapping[str, Hook]] = MappingProxyType({
    "week_phases": Hook("pipeline", "(state, week, phases: tuple[str, ...]) -> phases: the stages of a week, in order "
                                    "(insert a phase between Thursday and Matchday, or after a week's End of the round)"),
    "board": Hook("pipeline", "(profile, state, seat | None, board) -> Board: the board tables a seat plays with "
                              "(None: the shared League table's); it may read the game's options and its own "
                              "module's slice, nothing else of the state (each answer is kept until the slice of a "
                              "module filling the hook changes)"),
    "footballer": Hook("pipeline", "(tx, club, held, side: PlayerSide) -> PlayerSide: the face a footballer shows "
                                   "(number, symbol, sections, Strength, abilities); it may take abilities away or "
                                   "change their cost, never make one mandatory that the printed side lacks (a "
                                   "moment of the match reads only the faces whose printed side has one then)"),
    "opponents_needed": Hook("pipeline", "(state, weeks: int, count: int) -> int: Opponent cards each club is dealt"),
    "deck": Hook("pipeline", "(profile, game, kind: str, cards: tuple) -> cards: the cards of a kind this game deals "
                             "from (the Division's Opponent cards)"),
    "not_dealt": Hook("first", "(profile, game, card) -> sentence | None: why this game never deals the card"),
    "week_opponent": Hook("pipeline", "(state, club, week: int, card: str | None) -> str | None: the Opponent card the "
                                      "club plays that week (None: no Opponent card, a module plays its match)"),
    "opponent_decks": Hook("pipeline", "(game, weeks: int, decks: tuple[tuple[int, int | None], ...]) -> decks: the "
                                       "decks a club's Opponent cards are dealt as, in the order played: (cards, Division "
                                       "or None); one card per team within a deck (the Epic League's lower then higher)"),
    "objectives_kept": Hook("pipeline", "(game, count: int) -> int: the Objective cards each club keeps at setup"),
    "objective_kept": Hook("first", "(tx, seat, card) -> True | None: a module keeps another Objective card of a "
                                    "club that already has one (the Epic League's second Objective)"),
    "setup_check": Hook("each", "(tx): before week 1 begins, refuse a setup the module cannot play with"),
    "turn_check": Hook("each", "(tx, seat, what): the action of a club's turn (the event's type; ``what`` in words), "
                               "refused when a module allows the club no such action now (after three offers "
                               "declined: a hire from the Transfer area or a pass)"),
    "club_check": Hook("each", "(tx, seat): a club about to join the game, refused when the module cannot play with one "
                               "more club (a deck short of the cards each club draws)"),
    "tokens_gained": Hook("pipeline", "(tx, club, held, kind: 'injury' | 'suspension', count: int) -> count: the Injury "
                                      "or Suspension tokens a card gains (the Epic League's Tough token ignores one)"),
    "sale_price": Hook("pipeline", "(tx, club, held, price: tuple[int, int]) -> (€, VP tokens) a sold footballer brings"),
    "sold": Hook("each", "(tx, seat, card_id): after a footballer was sold"),
    "hired": Hook("each", "(tx, seat, card_id, row): after a card was hired from a row"),
    "before_match": Hook("each", "(tx, seat): after the club's lineup, with the effects before the match"),
    "match_resolver": Hook("first", "(tx, seat) -> MatchResult | None: resolve the club's match instead of its "
                                    "Opponent card"),
    "after_match": Hook("each", "(tx, seat): after the result, before the Match consequence roll"),
    "experience": Hook("pipeline", "(tx, seat, held, fills: bool) -> bool: whether a footballer who played fills "
                                   "his experience spaces this match"),
    "consequence": Hook("pipeline", "(tx, seat, result, face, effects) -> effects of the Match consequence roll"),
    "tactics_allowed": Hook("pipeline", "(tx, club, count: int) -> Tactic cards the club may play this match"),
    "abilities": Hook("pipeline", "(tx, club, card_id, abilities) -> the abilities a card offers or applies now"),
    "end_of_round": Hook("each", "(tx): at the End of the round, after the round's abilities, before Maintenance"),
    "final_scoring": Hook("each", "(tx): at the Final scoring, before the Objectives"),
    "score_parts": Hook("collect", "(profile, state, club) -> [(part, VP)]: parts of the final score"),
    "busy": Hook("any", "(state) -> bool: the module holds the game (an open auction): no phase or turn ends"),
    "setup_busy": Hook("any", "(state) -> bool: the module holds the setup (waiting for the table's word): asked "
                              "only while the stage is the setup"),
    "awaiting": Hook("collect", "(state) -> [need]: what the module waits for outside its own phases"),
    "view": Hook("collect", "(profile, state, viewer) -> [(name, value)]: the module's part of a viewer's view "
                            "(secrets only for the viewers that may see them)"),
    "card_uses": Hook("collect", "(state, seat, card, kind: str, owned: bool) -> [event]: more uses a card offers a "
                                 "club beyond its action, hire, sale and contracts (a footballer's auction)"),
    "candidates": Hook("collect", "(profile, state, need) -> [event]: events worth trying for a need (legal events)"),
    "markers_placed": Hook("first", "(tx, club) -> True | None: check the jersey markers placed so far of the event's "
                                    "``players`` (raising the refusal) where the module takes them its own way (a "
                                    "match between clubs: the declared formation's counts, one Goalkeeper, a second "
                                    "half's markers); None: they are checked as a lineup's"),
    "secret_cards": Hook("collect", "(state, viewer) -> [card id]: the cards in a club's hand the module keeps secret "
                                    "from this viewer now (a second Objective, one discarded face down)"),
})


@dataclass(frozen=True)
class Module:
    """A pack or a rule module: what it declares (see the module's description for each part)."""

    name: str
    title: str
    doc: str = ""
    events: Mapping[str, EventSpec] = field(default_factory=lambda: EMPTY)
    phases: tuple[Phase, ...] = ()
    hooks: Mapping[str, Fn] = field(default_factory=lambda: EMPTY)
    rolls: Mapping[str, Fn] = field(default_factory=lambda: EMPTY)
    ops: Mapping[str, tuple[Any, Fn]] = field(default_factory=lambda: EMPTY)  # op -> (engine.cards.OpSpec, apply(tx, club, ctx, effect))
    tests: Mapping[str, tuple[Any, Fn]] = field(default_factory=lambda: EMPTY)  # test -> (OpSpec, check(tx, club, condition, ctx) -> bool | None)
    data: tuple[DataFile, ...] = ()
    state: Slice | None = None
    options: Mapping[str, Option] = field(default_factory=lambda: EMPTY)
    requires: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    first_phase: str = ""  # a pack: the stage a game starts in (its setup)
    week: tuple[str, ...] = ()  # a pack: the stages of a week, in order (the ``week_phases`` hook may change them)
    finale: tuple[str, ...] = ()  # a pack: the stages after the last week, in order (the last one never ends)
    stage_names: Mapping[str, str] = field(default_factory=lambda: EMPTY)

    def __post_init__(self) -> None:
        unknown = sorted(set(self.hooks) - set(HOOKS))
        if unknown:
            raise ValueError(f"module {self.name}: no hook named {', '.join(unknown)}; hooks are {', '.join(HOOKS)}")


_PACKS: dict[str, Module] = {}
_MODULES: dict[str, Module] = {}
_generation = [0]


def register(item: Module, *, is_pack: bool = False) -> Module:
    """Make a pack or a module available to games (the shipped ones register themselves when `engine` is imported)."""
    (_PACKS if is_pack else _MODULES)[item.name] = item
    rules_for.cache_clear()  # type: ignore[attr-defined]
    _generation[0] += 1
    return item


def unregister(name: str) -> None:
    """Take a module away again (a test's own module, once the test is done)."""
    _MODULES.pop(name, None)
    rules_for.cache_clear()  # type: ignore[attr-defined]
    _generation[0] += 1


def generation() -> int:
    """A number that changes whenever a pack or module is registered (the loader's cache key includes it)."""
    return _generation[0]


def vocabulary() -> tuple[dict[str, Any], dict[str, Any]]:
    """The effect ops and condition tests every registered pack and module adds to the data files' vocabulary."""
    ops: dict[str, Any] = {}
    tests: dict[str, Any] = {}
    for part in (*_PACKS.values(), *_MODULES.values()):
        ops.update({name: spec for name, (spec, _) in part.ops.items()})
        tests.update({name: spec for name, (spec, _) in part.tests.items()})
    return ops, tests


def pack(name: str) -> Module | None:
    """A registered pack by name."""
    return _PACKS.get(name)


def module(name: str) -> Module | None:
    """A registered module by name."""
    return _MODULES.get(name)


def modules() -> tuple[Module, ...]:
    """Every registered module, by name."""
    return tuple(_MODULES[k] for k in sorted(_MODULES))


class Rules:
    """One game's rules compiled from its pack and modules: handlers, phases, rolls, ops, tests and one callable per hook.

    Each hook is an attribute (``rules.sale_price(tx, club, held, price)``); with no module filling it, a pipeline
    hands the value back, ``each`` does nothing, ``first`` gives None, ``collect`` an empty list, ``any`` False.
    """

    def __init__(self, pack_: Module, chosen: tuple[Module, ...]) -> None:
        self.pack = pack_
        self.modules = chosen
        parts = (pack_, *chosen)
        self.events: dict[str, EventSpec] = {}
        self.phases: dict[str, Phase] = {}
        self.rolls: dict[str, Fn] = {}
        self.ops: dict[str, Fn] = {}
        self.tests: dict[str, Fn] = {}
        self.stage_names: dict[str, str] = {}
        for part in parts:
            for table, items in ((self.events, part.events), (self.phases, {p.name: p for p in part.phases}),
                                 (self.rolls, part.rolls)):
                clash = sorted(set(items) & set(table))
                if clash:
                    raise ValueError(f"module {part.name} declares {', '.join(clash)} again")
                table.update(items)  # type: ignore[attr-defined]
            self.ops.update({name: apply for name, (_, apply) in part.ops.items()})
            self.tests.update({name: check for name, (_, check) in part.tests.items()})
            self.stage_names.update(part.stage_names)
            self.stage_names.update({p.name: p.title for p in part.phases})
        names = {m.name for m in chosen}
        #: where each module's slice lies in the game's slices (`State.modules`, in the order the game event chose)
        self.slice_at = {name: i for i, name in enumerate(m.name for m in chosen if m.state is not None)}
        #: the hooks some part of this game fills (a rule may skip asking one nobody fills)
        self.filled = frozenset(name for name in HOOKS if any(name in part.hooks for part in parts))
        #: the ``busy`` hook's fillers, asked one by one after every event (`engine.flow.advance`)
        self.holds = tuple(part.hooks["busy"] for part in parts if "busy" in part.hooks)
        #: during the setup, the ``setup_busy`` hook's fillers too (after every event of the game the setup's
        #: modules would say "not now": not asked)
        self.setup_holds = self.holds + tuple(part.hooks["setup_busy"] for part in parts if "setup_busy" in part.hooks)
        #: whether some part of this game changes the face a footballer shows (the ``footballer`` hook)
        self.faces = "footballer" in self.filled
        own = {"deck": (lambda profile, game, kind, cards: _module_cards(names, cards)),
               "not_dealt": _not_dealt(names)}
        for name, hook in HOOKS.items():
            fillers = tuple(part.hooks[name] for part in parts if name in part.hooks)
            if name in own:  # the host's own part: a card of a rule module is dealt only in games that play it
                fillers = (own[name], *fillers)
            setattr(self, name, _combine(hook.kind, fillers))
        #: the boards the ``board`` hook answered, by seat: (printed board, the slices, answer, the slices of the
        #: modules filling the hook); None when no part of this game fills the hook (every seat plays with the
        #: printed board)
        self.boards: dict[int | None, tuple[Any, Any, Any, Any]] | None = None
        if any("board" in part.hooks for part in parts):
            self.boards = {}
            own = tuple(m.name for m in chosen if "board" in m.hooks and m.state is not None)
            #: where the slices the kept boards depend on lie (`engine.tx.Tx.board` reads them there without a call
            #: or a search)
            self.board_at = tuple(self.slice_at[name] for name in own)
            self.board = _kept(self.board, self.boards, own, self.board_at)  # type: ignore[attr-defined,has-type]

    def phase(self, stage: str) -> Phase:
        """The phase of a stage (KeyError naming it when no part of this game declares it)."""
        return self.phases[stage]

    def stage_name(self, stage: str) -> str:
        """A stage in words, e.g. "Monday"."""
        return self.stage_names.get(stage, stage.replace("_", " "))


#: Why a game does not deal a card that belongs to a module it does not play (a card's ``module`` field).
CARD_OF_MODULE: Final = "{name} belongs to the {title} module, which this game does not play: it is not dealt."


def _module_cards(chosen: set[str], cards: tuple[Any, ...]) -> tuple[Any, ...]:
    """The cards of the base game and of the modules chosen (a card names its module in ``module``)."""
    if not any(getattr(c, "module", "") for c in cards):
        return cards
    return tuple(c for c in cards if not getattr(c, "module", "") or c.module in chosen)


def _not_dealt(chosen: set[str]) -> Fn:
    """The host's part of the ``not_dealt`` hook: a card of a rule module this game does not play."""

    def card_not_played(profile: Any, game: Any, card: Any) -> str | None:
        name = getattr(card, "module", "")
        if not name or name in chosen:
            return None
        found = _MODULES.get(name)
        return CARD_OF_MODULE.format(name=card.name, title=found.title if found is not None else name)

    return card_not_played


def _combine(kind: str, fillers: tuple[Fn, ...]) -> Fn:
    """One callable for a hook from its fillers, as the hook's kind says they combine."""
    if kind == "pipeline":
        if not fillers:
            return lambda *args: args[-1]
        if len(fillers) == 1:
            return fillers[0]

        if len(fillers) == 2:
            first, second = fillers  # two fillers (a seat's board: new tokens and its own cards) called often

            def pipeline2(*args: Any) -> Any:
                head = args[:-1]
                return second(*head, first(*args))

            return pipeline2

        def pipeline(*args: Any) -> Any:
            value = args[-1]
            head = args[:-1]
            for f in fillers:
                value = f(*head, value)
            return value

        return pipeline
    if kind in ("each", "first") and len(fillers) == 1:
        return fillers[0]  # one filler: the same answer without a call around it (an ``each`` hook's is unread)
    if kind == "each":
        def each(*args: Any) -> None:
            for f in fillers:
                f(*args)

        return each
    if kind == "first":
        def first(*args: Any) -> Any:
            for f in fillers:
                found = f(*args)
                if found is not None:
                    return found
            return None

        return first
    if kind == "collect":
        def collect(*args: Any) -> list[Any]:
            out: list[Any] = []
            for f in fillers:
                out.extend(f(*args))
            return out

        return collect
    if kind == "any":
        if not fillers:
            return lambda *args: False
        if len(fillers) == 1:
            only = fillers[0]
            return lambda *args: bool(only(*args))
        if len(fillers) == 2:
            one, other = fillers  # asked after every event (may the game move on?): no loop for two fillers
            return lambda *args: bool(one(*args) or other(*args))

        def any_(*args: Any) -> bool:
            # asked after every event (may the game move on?): a plain loop, no generator
            for f in fillers:
                if f(*args):
                    return True
            return False

        return any_
    raise ValueError(f"no hook kind {kind!r}")


def _kept(board_hook: Fn, kept: dict[int | None, tuple[Any, Any, Any, Any]], own: tuple[str, ...],
          at: tuple[int, ...]) -> Fn:
    """The ``board`` hook, each answer kept (in ``kept``, by seat: the latest) for the board it was given, the seat
    and the slices of the modules filling the hook (``own``, lying at ``at`` in the game's slices): every rule that
    reads a table asks it, and the answer only changes when one of those slices does (a club placing its Unique
    Setup cards), not when another module's slice moves (a referee called, a bet placed)."""

    def board(profile: Any, state: Any, seat: int | None, printed: Any) -> Any:
        slices = state.modules
        found = kept.get(seat)
        if found is not None and found[1] is slices and found[0] is printed:
            return found[2]
        key = own_slices(slices, own, at)
        if found is not None and found[0] is printed and key == found[3]:  # immutable: equal slices, same board
            kept[seat] = (printed, slices, found[2], key)
            return found[2]
        out = board_hook(profile, state, seat, printed)
        kept[seat] = (printed, slices, out, key)
        return out

    return board


def own_slices(slices: tuple[tuple[str, Any], ...], own: tuple[str, ...], at: tuple[int, ...]) -> list[Any]:
    """The (name, slice) pairs of the modules ``own`` in a state's slices: at their places ``at`` (the order the
    game's first event gave them), or looked for by name when a state holds them otherwise."""
    key = []
    try:
        for i in at:
            key.append(slices[i])
    except IndexError:
        pass
    for (name, _), wanted in zip(key, own):
        if name != wanted:
            break
    else:
        if len(key) == len(own):
            return key
    return [pair for pair in slices if pair[0] in own]


_compiled: dict[tuple[str, tuple[str, ...]], Rules] = {}


def rules_for(game: Any) -> Rules:
    """The compiled rules of a game (anything with ``pack`` and ``modules``), built once per choice of modules."""
    last = last_rules
    if last and last[0] is game:  # the same game as the last event's (a log is folded event after event)
        return last[1]  # type: ignore[no-any-return]
    key = (game.pack, game.modules)
    found = _compiled.get(key)
    if found is None:
        chosen_pack = _PACKS.get(game.pack)
        if chosen_pack is None:
            raise KeyError(f"no pack {game.pack!r}")
        missing = [m for m in game.modules if m not in _MODULES]
        if missing:
            raise KeyError(f"no module {missing[0]!r}")
        found = _compiled[key] = Rules(chosen_pack, tuple(_MODULES[m] for m in game.modules))
    last_rules[:] = (game, found)  # kept with the game, so its id cannot be another's
    return found


#: (the game last asked for, its rules): the reducer reads it before calling `rules_for` (one call less an event)
last_rules: list[Any] = []


def _clear() -> None:
    _compiled.clear()
    last_rules.clear()


rules_for.cache_clear = _clear  # type: ignore[attr-defined]
