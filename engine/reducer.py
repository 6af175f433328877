"""The reducer: ``apply(profile, state, event) -> Step``, the log folded with `replay`, and `why_not` for a page.

The first event of a game may name its pack, modules and options (``game``); a log without it is the base game.
Every other event goes to the handler the game's rules declare for its type; after it the game moves on by itself
(`engine.flow.advance`).  An event the rules refuse raises an `engine.errors.EngineError` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, NamedTuple

from engine import errors as E
from engine import host
from engine.cards import Profile
from engine.flow import advance
from engine.state import Game, State, evolve, evolve1
from engine.tx import Announcement, Tx

_bare = object.__new__
#: The event that names a game's pack, modules and options (only as the first event of a log).
GAME_EVENT = "game"
GAME_DOC = ('pack ("eleven"), modules: [module names], options: {weeks, division, ...}, revision: the revision of '
            "the readings it is played under: what this game is (only as the first event; without it a log is the "
            "base game, and without a revision the game plays by the first)")
#: The revision of the engine's readings a new game is begun under (engine/RULES.md, "Revisions"): a reading that
#: would replay an older log differently is given to a new revision only, so a game always ends under the readings
#: it began with.
REVISION: Final = 3


class Step(NamedTuple):
    """The state after an event and what the engine says happened."""

    state: State
    announcements: tuple[Announcement, ...]


def apply(profile: Profile, state: State, event: Mapping[str, Any], *, quiet: bool = False) -> Step:
    """Apply one event; an illegal event raises an `engine.errors.EngineError` and changes nothing.

    ``quiet`` skips the announcements (a replay does not read them); the state is the same either way.
    """
    tx = _applied(profile, state, event, quiet)
    return Step(tx.state, tuple(tx.anns))


def _applied(profile: Profile, state: State, event: Mapping[str, Any], quiet: bool) -> Tx:
    """The transaction of one event once applied (its ``state`` the new state), or the refusal raised."""
    if type(event) is not dict and not isinstance(event, Mapping):  # the exact check first: ABC checks are slow
        raise E.BadEvent(E.BAD_FIELD.format(type="?", field="event", why="an event is a mapping with a \"type\""))
    kind = event.get("type")
    last = host.last_rules
    rules = last[1] if last and last[0] is state.game else host.rules_for(state.game)  # mostly the last event's game
    if kind == GAME_EVENT:
        tx = Tx(profile, rules, state, event, quiet)
        _on_game(tx)
        tx.state = evolve(tx.state, events=state.events + 1)
        return tx
    spec = rules.events.get(kind) if kind.__class__ is str or isinstance(kind, str) else None  # the exact check first
    if spec is None:
        raise E.BadEvent(E.BAD_EVENT_TYPE.format(type=kind, known=", ".join((GAME_EVENT, *rules.events))))
    if state.stage == "over" and kind != "adjust":
        raise E.WrongStage(E.GAME_OVER)
    # Tx(profile, rules, state, event, quiet) made field by field as `Tx.__init__` does: a class call costs more
    # than the fields (one a replayed event)
    tx = _bare(Tx)
    tx.profile = profile
    tx.rules = rules
    tx.state = state
    tx.anns = []
    tx.event = event
    tx.quiet = quiet
    tx.count = state.events + 1
    spec.handler(tx)
    state = tx.state
    if not state.pending:  # else the game awaits something: `advance` would stop at once
        advance(tx)
        state = tx.state
    if state.events != tx.count:  # not counted yet by a change of this event
        tx.state = evolve1(state, "events", tx.count)
    return tx


def replay(profile: Profile, events: Iterable[Mapping[str, Any]]) -> State:
    """Fold events from the initial state; the same events always give the same state."""
    state = State()
    for event in events:
        state = _applied(profile, state, event, True).state
    return state


def why_not(profile: Profile, state: State, event: Mapping[str, Any]) -> str | None:
    """Why the rules would refuse this event now, as the sentence a player reads; None when they accept it.

    The answer is found by trying the event (nothing changes: states are immutable), so it is the rules' own.
    """
    try:
        _applied(profile, state, event, True)
    except E.EngineError as refusal:
        return sentence(refusal)
    return None


def sentence(refusal: E.EngineError) -> str:
    """A refusal's sentence as a player reads it."""
    # the sentence itself: an unknown card's error is a KeyError, whose str() would put it in quotes
    return refusal.args[0] if refusal.args and isinstance(refusal.args[0], str) else str(refusal)


def _on_game(tx: Tx) -> None:
    """The game's pack, modules and options, checked against what is registered and what the deck holds."""
    state = tx.state
    if state.events or state.clubs or state.stage != "setup":
        raise E.NotAllowed(E.GAME_FIRST)
    game = check_game(tx.event, tx.profile)
    pack = host.pack(game.pack)
    assert pack is not None
    chosen = [m for m in (host.module(n) for n in game.modules) if m is not None]
    slices = tuple((m.name, _prepared(m, tx.profile, game)) for m in chosen if m.state is not None)
    tx.state = evolve(state, game=game, modules=slices)
    titles = ", ".join(m.title for m in chosen)
    words = f"A game of {pack.title}" + (f" with {titles}" if titles else "") + "."
    tx.say(GAME_EVENT, None, words, pack=game.pack, modules=list(game.modules), options=dict(game.options),
           revision=game.revision)


def check_game(event: Mapping[str, Any], profile: Profile | None = None) -> Game:
    """The `Game` a ``game`` event names, or an `engine.errors.EngineError` with the sentence refusing it.

    Checks the pack, that every module is known and named once, what each module needs and excludes, each option
    against the pack's and the chosen modules' declarations, and (with a profile) that the deck holds every data
    file a chosen module requires, and its revision (one this engine knows; 1 when the event names none).  A table
    file's default game is checked here too, before any deck is loaded.
    """
    revision = event.get("revision", 1)
    if type(revision) is not int or revision < 1:
        raise E.BadEvent(E.BAD_FIELD.format(type=GAME_EVENT, field="revision",
                                            why=f"a whole number from 1 to {REVISION}, not {revision!r}"))
    if revision > REVISION:
        raise E.NotAllowed(E.NEWER_REVISION.format(revision=revision, known=REVISION))
    pack_name = event.get("pack", "eleven")
    if not isinstance(pack_name, str) or host.pack(pack_name) is None:
        raise E.NotAllowed(E.UNKNOWN_PACK.format(pack=pack_name, known="eleven"))
    names = event.get("modules") or []
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        raise E.BadEvent(E.BAD_FIELD.format(type=GAME_EVENT, field="modules", why="a list of module names"))
    known = ", ".join(m.name for m in host.modules()) or "none yet"
    chosen: list[host.Module] = []
    for name in names:
        found = host.module(name)
        if found is None:
            raise E.NotAllowed(E.UNKNOWN_MODULE.format(module=name, known=known))
        if found in chosen:
            raise E.BadEvent(E.MODULE_TWICE.format(module=name))
        chosen.append(found)
    for m in chosen:
        for other in m.requires:
            if other not in names:
                raise E.NotAllowed(E.MODULE_NEEDS.format(title=m.title, other=_title(other)))
        for other in m.excludes:
            if other in names:
                raise E.NotAllowed(E.MODULE_EXCLUDES.format(title=m.title, other=_title(other)))
        if profile is not None:
            for data in m.data:
                if data.required and data.name not in profile.module_data.get(m.name, {}):
                    raise E.NotAllowed(E.MODULE_DATA_MISSING.format(profile=profile.name, file=data.name, title=m.title))
    pack = host.pack(pack_name)
    assert pack is not None
    given = event.get("options") or {}
    if not isinstance(given, Mapping):
        raise E.BadEvent(E.BAD_FIELD.format(type=GAME_EVENT, field="options", why="a table of option names and values"))
    declared = {**pack.options, **{k: o for m in chosen for k, o in m.options.items()}}
    options: dict[str, Any] = {}
    for key, value in given.items():
        option = declared.get(key)
        if option is None:
            raise E.NotAllowed(E.UNKNOWN_OPTION.format(option=key, known=", ".join(sorted(declared)) or "none"))
        try:
            options[key] = option.check(value) if profile is None or not callable(option.choices) \
                else _offered(option, profile, option.check(value))
        except ValueError as err:
            raise E.BadEvent(E.BAD_OPTION.format(option=key, why=err)) from None
    return Game(pack_name, tuple(names), tuple(sorted(options.items())), revision)


def _offered(option: host.Option, profile: Profile, value: Any) -> Any:
    """A value the deck decides the choices of (a Division its Opponent cards are printed with) must be one of them."""
    offered = option.offered(profile)
    if value not in offered:
        raise ValueError(f"the deck {profile.name} offers {', '.join(map(str, offered)) or 'none'}, not {value!r}")
    return value


def _prepared(m: host.Module, profile: Profile, game: Game) -> Any:
    """A module's slice as the game begins, with what it takes from the deck."""
    assert m.state is not None
    value = m.state.initial(game)
    return value if m.state.prepare is None else m.state.prepare(profile, game, value)


def _title(name: str) -> str:
    found = host.module(name)
    return found.title if found is not None else name
