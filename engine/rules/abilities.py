"""Abilities of cards and tokens (rulebook, Use an action on a card or a token; l.617 on footballers' abilities).

Which abilities a club's cards carry, which of them the club *may* use now (`offered`: "additional actions, you
may use before/during/after the match"), and the moments outside the turns where the engine waits for a club to
use them or pass (``abilities`` windows at the End of the round and the Final scoring).  What a card makes
mandatory happens by itself (`engine.rules.effects.apply_abilities`).
"""

from __future__ import annotations

from typing import Any

from engine import errors as E
from engine.cards import Ability, PlayerCard
from engine.rules.context import describe_quad, event_roll, event_targets, pay, quad_of, replace_held, side_of, unavailable
from engine.rules.effects import Ctx, apply_abilities, apply_effects, applying_at, choices_of
from engine.state import Club, Pending, State, evolve, evolve1
from engine.tx import Tx

#: Stages whose moment lets a club use its optional abilities of the same timing (not exhausting the card).
MOMENT_STAGES = ("monday", "end_of_round", "final_scoring")
MATCH_TIMINGS = ("after_reveal", "before_match", "during_match", "after_match")
#: The first revision (engine/RULES.md, "Revisions") in which a club's rolls before the match (the Referee's dice,
#: its cards' own) come before its match abilities and its Tactic card, as they come before its kick-off.
ROLLS_FIRST_REVISION = 3


def roll_first(state: State, seat: int) -> Pending | None:
    """What the engine awaits of the seat before anything else of its own (a roll before its match, a roll its turn's
    action left), or None."""
    for p in state.pending:
        if p.seat == seat:
            return p
    return None


def card_abilities(tx: Tx, club: Club) -> tuple[tuple[str, tuple[Ability, ...]], ...]:
    """Abilities of a club's Directors, Staff, Sponsors and Infrastructure (not footballers), by source id; a
    suspended card or token has none."""
    # the game's modules may change what a card offers; when none does, the printed abilities are the answer,
    # the same as long as the club's cards, tokens and modifiers are (each answer is kept for its seat)
    if "abilities" in tx.rules.filled:
        return _card_abilities(tx, club, tx.rules.abilities)  # type: ignore[attr-defined]
    # the key holds only what the answer depends on: Staff cards by id while available (not their exhaustion or
    # resources), of the running modifiers only the adboards whose bonus was taken
    board = tx.board(club.seat) if club.infrastructure else None
    found = _KEPT.get(club.seat)
    if found is not None and found[0] is tx.profile and found[1] is board:
        # the very parts the key was made from (an event that touches none of them keeps them as they were); the
        # running modifiers count only for a club with adboards
        parts = found[4]
        if (parts[0] is club.staff and (parts[1] is club.mods or not club.adboards) and parts[2] is club.directors
                and parts[3] is club.suspended and parts[4] is club.adboards and parts[5] is club.infrastructure
                and parts[6] == club.shirt):
            return found[3]  # type: ignore[no-any-return]
    staff = tuple([h.id for h in club.staff if not (h.injury > 0 or h.suspension > 0)]) if club.staff else ()
    bonus = tuple([a for a in club.adboards if club.mod(f"adboard_bonus:{a}")]) if club.adboards else ()
    key = (club.directors, club.suspended, staff, club.shirt, club.adboards, bonus, club.infrastructure)
    parts = (club.staff, club.mods, club.directors, club.suspended, club.adboards, club.infrastructure, club.shirt)
    if found is not None and found[0] is tx.profile and found[1] is board and found[2] == key:
        _KEPT[club.seat] = (*found[:4], parts)
        return found[3]  # type: ignore[no-any-return]
    out = _card_abilities(tx, club, None)
    _KEPT[club.seat] = (tx.profile, board, key, out, parts)
    return out


#: Each seat's latest answer: (profile, board, key, abilities, the club's parts the key was made from).
_KEPT: dict[int, tuple[Any, Any, tuple[Any, ...], tuple[tuple[str, tuple[Ability, ...]], ...], tuple[Any, ...]]] = {}


def _card_abilities(tx: Tx, club: Club, hook: Any) -> tuple[tuple[str, tuple[Ability, ...]], ...]:
    cards = tx.profile.cards
    suspended = club.suspended
    out = [(d, cards[d].abilities) for d in club.directors if not suspended or not club.suspension_on(d)]
    for h in club.staff:
        if not (h.injury > 0 or h.suspension > 0):  # `Held.unavailable` without the property's call
            out.append((h.id, cards[h.id].abilities))
    if club.shirt:
        out.append((club.shirt, cards[club.shirt].shirt))
    for a in club.adboards:
        if not club.mod(f"adboard_bonus:{a}"):  # the bonus was taken instead of the adboard's effects
            out.append((a, cards[a].adboard))
    if club.infrastructure:
        off = {k for k, _ in suspended}
        board = tx.board(club.seat)
        for kind in club.infrastructure:
            if kind in off:
                off.discard(kind)  # the suspended one of two tokens of a kind; the other still works
                continue
            out.append((kind, board.infrastructure_kind(kind).abilities))
    if hook is not None:
        return tuple((source, hook(tx, club, source, abilities)) for source, abilities in out)
    return tuple(out)


def card_actions(tx: Tx, club: Club, card_id: str) -> tuple[tuple[Ability, ...], str] | None:
    """The abilities a card or token of the club carries, and its kind of holder; None when the club lacks it."""
    cards = tx.profile.cards
    # a module may change what a card offers; when none does, the printed abilities are the answer (no call to
    # the hook that would hand them back unchanged: asked for every card action and free action looked for)
    hook = tx.rules.abilities if "abilities" in tx.rules.filled else None  # type: ignore[attr-defined]
    if card_id in club.directors:
        found = cards[card_id].abilities
        return (found if hook is None else hook(tx, club, card_id, found)), "director"
    held = club.held(card_id)
    if held is not None:
        card = cards[card_id]
        if isinstance(card, PlayerCard):
            return side_of(tx, held, club).abilities, "footballer"
        return (card.abilities if hook is None else hook(tx, club, card_id, card.abilities)), "staff"
    if card_id in club.infrastructure:
        found = tx.board(club.seat).infrastructure_kind(card_id).abilities
        return (found if hook is None else hook(tx, club, card_id, found)), "token"
    if card_id == club.shirt:
        found = cards[card_id].shirt
        return (found if hook is None else hook(tx, club, card_id, found)), "sponsor"
    if card_id in club.adboards:
        if club.mod(f"adboard_bonus:{card_id}"):
            return (), "sponsor"
        found = cards[card_id].adboard
        return (found if hook is None else hook(tx, club, card_id, found)), "sponsor"
    return None


def is_exhausted(club: Club, card_id: str) -> bool:
    """Whether a card or token of the club is exhausted (used this round)."""
    held = club.held(card_id)
    return held.exhausted if held is not None else card_id in club.exhausted


def exhaust(club: Club, card_id: str) -> Club:
    """Exhaust a card or token of the club."""
    held = club.held(card_id)
    if held is not None:
        return replace_held(club, evolve1(held, "exhausted", True))
    return evolve1(club, "exhausted", club.exhausted + (card_id,))


def _affordable(ability: Ability, purse: tuple[int, int, int, int]) -> bool:
    return all(c <= h for c, h in zip(quad_of(ability.cost_map), purse))


def offered(tx: Tx, club: Club) -> list[tuple[str, Ability]]:
    """The optional abilities ("you may") the club can use now with ``use_card``, outside the Tuesday–Thursday
    actions: Monday's on Monday, the match's on Matchday (after the lineup; after the match until the Match
    consequence roll), the End of the round's and the Final scoring's while the engine waits for the club there.
    Each card offers its first such ability the club can pay for (a footballer from the resources assigned to it)."""
    stage = tx.state.stage
    out: list[tuple[str, Ability]] = []
    phase = tx.rules.phases.get(stage)
    if phase is not None and phase.offers is not None:
        return list(phase.offers(tx, club))
    if stage == "matchday":
        if club.lineup is None or club.consequence_done:
            return out
        if club.result is None and tx.state.game.revision >= ROLLS_FIRST_REVISION and roll_first(tx.state, club.seat):
            return out  # its rolls before the match first
        timings: tuple[str, ...] = ("after_match",) if club.result is not None else MATCH_TIMINGS[:3]
        return match_offers(tx, club, timings)
    if stage not in MOMENT_STAGES:
        return out
    if stage != "monday" and not any(p.need == "abilities" and p.seat == club.seat for p in tx.state.pending):
        return out
    for card_id, abilities in card_abilities(tx, club):
        for ability in abilities:  # the card's first such ability, unless the card was used at this moment
            if ability.optional and ability.timing == stage and _affordable(ability, club.res):
                if f"{card_id}@{stage}" not in club.used:
                    out.append((card_id, ability))
                break
    return out


def match_offers(tx: Tx, club: Club, timings: tuple[str, ...]) -> list[tuple[str, Ability]]:
    """The optional match abilities of these timings the club may use now: its cards' (paid from its supply) and
    its playing footballers' (paid from the resources assigned to them), each card's first it can pay for."""
    out: list[tuple[str, Ability]] = []
    sources = [(card_id, abilities, club.res) for card_id, abilities in card_abilities(tx, club)]
    for p in club.lineup or ():
        held = club.held(p.card) if p.card else None
        if held is not None and not (held.injury > 0 or held.suspension > 0):  # `Held.unavailable`, no call
            sources.append((held.id, side_of(tx, held, club).abilities, held.assigned))
    for card_id, abilities, purse in sources:
        for ability in abilities:  # the card's first such ability, unless the card is exhausted
            if ability.optional and ability.timing in timings and _affordable(ability, purse):
                if not is_exhausted(club, card_id):
                    out.append((card_id, ability))
                break
    return out


def use_moment_card(tx: Tx, seat: int, card_id: str) -> None:
    """Use an optional Monday, End of the round or Final scoring ability of a card (once per moment)."""
    stage = tx.state.stage
    club = tx.club(seat)
    name = tx.name(card_id)
    if card_actions(tx, club, card_id) is None:
        raise E.NotAllowed(E.CARD_NOT_OWNED.format(seat=seat, name=name))
    if unavailable(club, card_id):
        raise E.NotAllowed(E.CARD_UNAVAILABLE.format(name=name))
    if stage != "monday" and not any(p.need == "abilities" and p.seat == seat for p in tx.state.pending):
        raise E.WrongStage(E.WRONG_STAGE.format(seat=seat, what="use a card", stage=tx.stage_name(), expected="and its abilities are used"))
    if f"{card_id}@{stage}" in club.used:
        raise E.NotAllowed(E.ABILITY_USED.format(name=name, moment=tx.stage_name()))
    found = dict(card_abilities(tx, club)).get(card_id, ())
    abilities = [a for a in found if a.optional and a.timing == stage]
    if not abilities:
        raise E.NotAllowed(E.NO_ABILITY_NOW.format(name=name, moment=tx.stage_name()))
    ability = abilities[0]
    cost = quad_of(ability.cost_map)
    club = pay(club, cost, f"use {name}")
    tx.put(evolve(club, used=club.used + (f"{card_id}@{stage}",)))
    tx.say("use_card", seat, f"Seat {seat} uses {name} (paying {describe_quad(cost)}).", card=card_id, free=False, cost=list(cost),
           choices=choices_of(ability.effects))
    apply_effects(tx, ability.effects, Ctx(seat=seat, source=card_id, label=name, targets=event_targets(tx.event), roll=event_roll(tx.event)))
    if stage != "monday" and not offered(tx, tx.club(seat)):
        close_window(tx, seat)


def open_windows(tx: Tx, timing: str) -> bool:
    """Apply a moment's mandatory abilities for every club; wait for the clubs that may use optional ones there."""
    for club in tx.state.clubs:
        # most clubs' cards have nothing at this moment
        for source, abilities in applying_at(card_abilities(tx, club)).get(timing, ()):
            apply_abilities(tx, abilities, timing, Ctx(seat=club.seat, source=source, label=tx.name(source)))
    opened = tuple(Pending("abilities", c.seat, timing) for c in tx.state.clubs)
    tx.state = evolve(tx.state, pending=tx.state.pending + opened)
    waiting = [c.seat for c in tx.state.clubs if offered(tx, c)]
    tx.state = evolve(tx.state, pending=tuple(p for p in tx.state.pending if p.need != "abilities" or p.seat in waiting))
    for seat in waiting:
        tx.say("abilities", seat, f"Seat {seat} may use its cards' abilities at {tx.stage_name()}, or pass.", timing=timing)
    return bool(waiting)


def close_window(tx: Tx, seat: int) -> None:
    """The club is done with its optional abilities at this moment; the last one to finish lets the moment go on."""
    tx.state = evolve(tx.state, pending=tuple(p for p in tx.state.pending if not (p.need == "abilities" and p.seat == seat)))
    if any(p.need == "abilities" for p in tx.state.pending):
        return
    closed = tx.rules.phase(tx.state.stage).windows_closed
    if closed is not None:
        closed(tx)


def pass_window(tx: Tx, seat: int) -> None:
    """``pass`` while the engine waits for the club's abilities: it uses no more of them here."""
    tx.club(seat)
    if not any(p.need == "abilities" and p.seat == seat for p in tx.state.pending):
        raise E.WrongStage(E.WRONG_STAGE.format(seat=seat, what="pass", stage=tx.stage_name(), expected="and nothing is asked of it"))
    tx.say("pass", seat, f"Seat {seat} uses no more abilities at {tx.stage_name()}.")
    close_window(tx, seat)
