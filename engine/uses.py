"""What a club may do with a card now, and which of its own cards each use asks it to choose.

A card put on a seat's pad may mean its action or match ability, a hire, a Sponsor contract or a sale.  `card_uses`
lists those uses for a seat and a card, and `use` answers for one: whether the rules take it now (else their
sentence) and the cards its effects ask the club to choose ("a footballer of your choice"), each with the club's
cards that fit.  Every answer is found by trying the event (nothing changes: states are immutable): the handler
that takes it uses the ability the rules pick and says which choices its effects ask for (its announcement's
``choices``).  The table's taps and screens show these answers and decide none of them again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import host
from engine.cards import CONTRACTS, Profile
from engine.errors import EngineError
from engine.reducer import apply, sentence
from engine.rules.effects import choosable
from engine.state import State
from engine.tx import Tx

__all__ = ["Choice", "Use", "card_uses", "use"]

#: The hire each kind of card not yet the club's makes (a Transfer area row, or the Youngster deck).
HIRES = {"player": "hire_player", "veteran": "hire_player", "youngster": "hire_youngster", "staff": "hire_staff"}
FOOTBALLERS = ("player", "veteran", "youngster")


@dataclass(frozen=True, slots=True)
class Choice:
    """A card the club chooses for an effect: what it is (``chosen_player``, ``chosen_youngster``, ``chosen_staff``,
    ``chosen_card``) and the club's own cards that fit, in the order the club holds them."""

    what: str
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Use:
    """One use of a card tried now: the event (without ``targets``), the rules' sentence when they refuse it, and
    what its effects ask the club to choose, in the order the event's ``targets`` name the cards."""

    event: Mapping[str, Any]
    why_not: str | None
    choices: tuple[Choice, ...] = ()


def use(profile: Profile, state: State, event: Mapping[str, Any]) -> Use:
    """``event`` (a card's use: ``use_card``, a hire, ``sponsor``...) tried now, without the cards it names as
    ``targets``: the rules' refusal, or the choices its effects ask the club for."""
    bare = {k: v for k, v in event.items() if k != "targets"}
    try:
        step = apply(profile, state, bare)
    except EngineError as refusal:
        return Use(bare, sentence(refusal))
    seat = bare.get("seat")
    club = state.club(seat) if isinstance(seat, int) else None
    asked = next((a["choices"] for a in step.announcements if a.get("seat") == seat and "choices" in a), ())
    if club is None or not asked:
        return Use(bare, None)
    tx = Tx(profile, host.rules_for(state.game), state, bare, quiet=True)
    return Use(bare, None, tuple(Choice(what, tuple(choosable(tx, club, what))) for what in asked))


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
