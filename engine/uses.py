"""What a club may do with a card now, and which cards each use (or a roll's result) asks it to choose.

A card put on a seat's pad may mean its action or match ability, a hire, a Sponsor contract or a sale.  `card_uses`
lists those uses for a seat and a card, and `use` answers for one event: whether the rules take it now (else their
sentence) and the cards its effects ask the club to choose ("a footballer of your choice", the card a ``hire``
effect takes), each with the cards that fit.  The same answer holds for a ``roll``, ``keep`` or ``reroll``: the
choices the Board meeting decision, the Match consequence or the card's die result it brings ask for.  Every answer
is found by trying the event (nothing changes: states are immutable) with the game's own rules, whose effect ops
are watched: each effect reached that takes one of the event's ``targets`` is a choice, in the order the targets
are taken.  The table's taps and screens show these answers and decide none of them again.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import host
from engine.cards import CONTRACTS, Effect, Profile
from engine.errors import EngineError
from engine.reducer import apply, sentence
from engine.rules.actions import ROW_KINDS, hire_from_row
from engine.rules.effects import Ctx, choices_of, choosable
from engine.state import Club, State
from engine.tx import Tx

__all__ = ["Choice", "Use", "card_uses", "use"]

#: The hire each kind of card not yet the club's makes (a Transfer area row, or the Youngster deck).
HIRES = {"player": "hire_player", "veteran": "hire_player", "youngster": "hire_youngster", "staff": "hire_staff"}
FOOTBALLERS = ("player", "veteran", "youngster")
#: The effect op that takes a card from a row of the Transfer area (or the Youngster deck): the event names the card.
HIRE_OP = "hire"


@dataclass(frozen=True, slots=True)
class Choice:
    """A card the club chooses for an effect: what it is (``chosen_player``, ``chosen_youngster``, ``chosen_staff``,
    ``chosen_card``; ``hire_player``, ``hire_youngster``, ``hire_staff`` for the card a ``hire`` effect takes) and
    the cards that fit, in the order the club holds them (the deck's order for a hire).  ``refused``: for a hire, the
    rules' sentence for each card of the row's kind it would not take (held by a club, discarded, too dear)."""

    what: str
    cards: tuple[str, ...]
    refused: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Use:
    """One use of a card (or a roll) tried now: the event (without ``targets``), the rules' sentence when they refuse
    it, and what its effects ask the club to choose, in the order the event's ``targets`` name the cards."""

    event: Mapping[str, Any]
    why_not: str | None
    choices: tuple[Choice, ...] = ()


def use(profile: Profile, state: State, event: Mapping[str, Any]) -> Use:
    """``event`` (a card's use: ``use_card``, a hire, ``sponsor``...; or a ``roll``, ``keep`` or ``reroll``) tried now,
    without the cards it names as ``targets``: the rules' refusal, or the choices its effects ask the club for."""
    bare = {k: v for k, v in event.items() if k != "targets"}
    try:
        apply(profile, state, bare)
    except EngineError as refusal:
        return Use(bare, sentence(refusal))
    return Use(bare, None, _asked(profile, state, bare))


def _asked(profile: Profile, state: State, event: Mapping[str, Any]) -> tuple[Choice, ...]:
    """The choices the effects ``event`` reaches ask for: its handler run again with the game's rules, each effect op
    watched; an effect reached with the event's targets at hand (an empty list, as the event names none) takes one
    when it chooses a card.  An effect a condition skips, or a roll still held for a reroll, asks for nothing."""
    rules = host.rules_for(state.game)
    spec = rules.events.get(str(event.get("type")))
    if spec is None:
        return ()
    asked: list[Choice] = []
    watched = copy.copy(rules)
    watched.ops = {name: _watch(op, rules, asked) for name, op in rules.ops.items()}
    try:
        spec.handler(Tx(profile, watched, state, event, quiet=True))
    except EngineError:  # taken by the reducer above: a handler asked alone refuses nothing it would take
        return ()
    return tuple(asked)


Op = Callable[[Tx, Club, Ctx, Effect], None]


def _watch(op: Op, rules: host.Rules, asked: list[Choice]) -> Op:
    """``op`` noting the choices of each effect it applies that takes the event's targets."""
    def watched(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
        if ctx.targets is not None:
            asked.extend(_choices(tx, rules, club, ctx, effect))
        op(tx, club, ctx, effect)

    return watched


def _choices(tx: Tx, rules: host.Rules, club: Club, ctx: Ctx, effect: Effect) -> list[Choice]:
    """What one effect asks the club to choose now, with the cards that fit."""
    if effect.op != HIRE_OP:
        return [Choice(what, tuple(choosable(tx, club, what))) for what in choices_of((effect,))]
    row = str(effect.get("row"))
    kind = ROW_KINDS.get(row)
    if kind is None:  # a row the hire cannot take from (the rules say so when it is applied)
        return []
    fits: list[str] = []
    refused: dict[str, str] = {}
    for card in tx.profile.cards_of(kind):
        trial = Tx(tx.profile, rules, tx.state, tx.event, quiet=True)
        try:  # the hire as the effect makes it: the list's discounts so far, the club as it is by then
            hire_from_row(trial, club.seat, row, card.id, discount=ctx.discount)
        except EngineError as refusal:
            refused[card.id] = sentence(refusal)
        else:
            fits.append(card.id)
    return [Choice(f"hire_{kind}", tuple(fits), refused)]


def card_uses(profile: Profile, state: State, seat: int, card: str) -> list[Use]:
    """Each use the card offers the seat's club, tried now (see `Use.why_not` for those the rules refuse): its
    action or ability, and for a footballer of the club its sale; a card not the club's hired, a Sponsor signed as
    each contract; then the uses the game's modules add (an auction)."""
    found = profile.cards.get(card)
    if found is None:
        return []
    club = state.club(seat)
    owned = club is not None and (club.held(card) is not None or card in club.directors)
    events: list[dict[str, Any]] = [{"type": "use_card", "seat": seat, "card": card}]
    if found.kind in FOOTBALLERS and owned:
        events.append({"type": "sell", "seat": seat, "card": card})
    elif found.kind in HIRES and not owned:
        events.append({"type": HIRES[found.kind], "seat": seat, "card": card})
    elif found.kind == "sponsor":
        events.extend({"type": "sponsor", "seat": seat, "card": card, "contract": c} for c in CONTRACTS)
    events.extend(host.rules_for(state.game).card_uses(state, seat, card, found.kind, owned))
    return [use(profile, state, e) for e in events]
