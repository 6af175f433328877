"""Tuesday–Thursday actions: hire, sell, Staff, Sponsors, Infrastructure, Office, Club potential, card actions."""

from __future__ import annotations

from typing import Any, Callable

from engine import errors as E
from engine.cards import CONTRACTS, STATS, Ability, PlayerCard
from engine.rules import flow
from engine.rules.common import (
    Tx,
    describe_quad,
    event_roll,
    event_targets,
    field,
    move_stat,
    owner_of,
    pay,
    quad_add,
    quad_of,
    replace_held,
    seat_of,
    set_mod,
    side_of,
    stage_name,
    unavailable,
    card_marker,
    flip_markers,
    with_res,
)
from engine.rules.effects import Ctx, apply_abilities, apply_effects
from engine.state import Club, Held, Pending, RES_INDEX, evolve

ROW_KINDS = {"players": "player", "youngster": "youngster", "staff": "staff"}


def _turn_check(tx: Tx, seat: int, what: str, *, free: bool = False) -> Club:
    """The club may act now: it is a turn day, its turn, nothing is awaited from it, and it has not acted yet."""
    s = tx.state
    if s.stage not in flow.TURN_DAYS:
        raise E.WrongStage(E.WRONG_STAGE.format(seat=seat, what=what, stage=stage_name(s), expected="and actions are taken Tuesday to Thursday"))
    club = tx.club(seat)
    if s.turn != seat:
        raise E.NotYourTurn(E.NOT_YOUR_TURN.format(seat=seat, what=what, turn=s.turn, day=stage_name(s)))
    waiting = next((p for p in s.pending if p.seat == seat), None)
    if waiting is not None:
        raise E.NotAllowed(E.FINISH_ROLL_FIRST.format(seat=seat, what=waiting.purpose.replace('_', ' ') or waiting.need))
    if not free and club.acted:
        raise E.NotAllowed(E.ALREADY_ACTED.format(seat=seat, day=stage_name(s)))
    return club


def _done(tx: Tx, seat: int) -> None:
    tx.put(evolve(tx.club(seat), acted=True))
    flow.advance(tx)


def _discounts(club: Club, row: str) -> int:
    return club.mod(f"discount:{row}:round") + club.mod(f"discount:{row}:permanent")


def hire_from_row(tx: Tx, seat: int, row: str, card_id: Any, *, discount: int = 0) -> None:
    """Take a card from a Transfer area row (or the Youngster deck) and pay its cost less any discounts."""
    kind = ROW_KINDS.get(row)
    if kind is None:
        raise E.NotAllowed(E.HIRE_SPONSOR_ROW.format(row=row))
    card = tx.card(card_id, kind)
    owner = owner_of(tx.state, card.id)
    if owner is not None:
        raise E.NotAllowed(E.CARD_TAKEN.format(name=card.name, seat=owner.seat))
    if card.id in tx.state.discarded:
        raise E.NotAllowed(E.CARD_DISCARDED.format(name=card.name))
    club = tx.club(seat)
    if kind == "youngster" and all(owner_of(tx.state, y.id) for y in tx.profile.cards_of("youngster")):
        raise E.NotAllowed(E.YOUNGSTER_DECK_EMPTY)
    printed = card.untrained.cost if isinstance(card, PlayerCard) else card.cost
    cost = max(0, printed - discount - _discounts(club, row))
    club = pay(club, quad_of({"budget": cost}), f"hire {card.name}")
    if isinstance(card, PlayerCard):
        club = tx.put(flip_markers(evolve(club, players=club.players + (Held(card.id),)), card_marker(tx.profile, card.id)))
        tx.say("hire", seat, f"Seat {seat} hires {card.name} for {cost} €.", card=card.id, cost=cost, row=row)
        apply_abilities(tx, card.untrained.abilities, "immediate", Ctx(seat=seat, source=card.id, label=card.name))
    else:
        club = tx.put(evolve(club, staff=club.staff + (Held(card.id),)))
        tx.say("hire", seat, f"Seat {seat} hires {card.name} ({card.profession}) for {cost} €.", card=card.id, cost=cost, row=row)
        ctx = Ctx(seat=seat, source=card.id, label=card.name, targets=event_targets(tx.event))
        apply_effects(tx, card.bonus, ctx)
        apply_abilities(tx, card.abilities, "immediate", ctx)


def _hire_action(row: str, doc: str, card_words: str) -> Callable[[Tx], None]:
    def handler(tx: Tx) -> None:
        seat = seat_of(tx.event)
        _turn_check(tx, seat, "hire")
        hire_from_row(tx, seat, row, field(tx.event, "card", str, card_words))
        _done(tx, seat)

    handler.__doc__ = doc
    return handler


on_hire_player = _hire_action("players", "Hire a footballer from the three rightmost Player cards (the table says which).", "the id of the Player card taken")
on_hire_youngster = _hire_action("youngster", "Hire the top Youngster of the deck (the table says which card it was).", "the id of the Youngster card drawn")
on_hire_staff = _hire_action("staff", "Hire a Staff card from the three rightmost: cost, immediate bonus.", "the id of the Staff card taken")


def on_sell(tx: Tx) -> None:
    """Sell a trained footballer: the sell price in € plus its VP tokens, halved (rounded down) when unavailable."""
    ev = tx.event
    seat = seat_of(ev)
    club = _turn_check(tx, seat, "sell")
    card = tx.card(field(ev, "card", str, "the id of the footballer sold"), "player", "youngster", "veteran")
    held = club.held(card.id)
    if held is None:
        raise E.NotAllowed(E.CARD_NOT_OWNED.format(seat=seat, name=card.name))
    if not held.trained:
        raise E.NotAllowed(E.SELL_UNTRAINED.format(name=card.name))
    money, vp = tx.profile.board.sell_price, held.vp
    if held.unavailable:
        money, vp = money // 2, vp // 2
    club = evolve(club, players=tuple(h for h in club.players if h.id != card.id), vp_tokens=club.vp_tokens + vp)
    tx.put(with_res(club, "budget", money))
    if card.kind != "youngster":
        # "Discard a chosen Player card": it never comes back; a Youngster goes under the Youngster deck instead
        tx.state = evolve(tx.state, discarded=tx.state.discarded + (card.id,))
    why = " (half, as the player is injured or suspended)" if held.unavailable else ""
    tx.say("sell", seat, f"Seat {seat} sells {card.name} for {money} € and {vp} VP token(s){why}.", card=card.id, budget=money, vp=vp)
    _done(tx, seat)


def sponsor_slots(tx: Tx, club: Club, contract: str) -> int:
    """How many sponsors of a contract type the club may hold (adboards grow with the additional adboard)."""
    slots = dict(tx.profile.board.sponsor_slots).get(contract, 10**6)
    if contract == "adboard":
        slots += sum(tx.profile.board.infrastructure_kind(k).adboard_slots for k in club.infrastructure)
    return slots


def on_sponsor(tx: Tx) -> None:
    """Contract a Sponsor as megaphone (discarded), adboard or shirt; all effects of that contract are resolved."""
    ev = tx.event
    seat = seat_of(ev)
    club = _turn_check(tx, seat, "contract a sponsor")
    card = tx.card(field(ev, "card", str, "the id of the Sponsor card taken"), "sponsor")
    contract = field(ev, "contract", str, '"megaphone", "adboard" or "shirt"')
    if contract not in CONTRACTS:
        raise E.BadEvent(E.BAD_FIELD.format(type="sponsor", field="contract", why='"megaphone", "adboard" or "shirt"'))
    owner = owner_of(tx.state, card.id)
    if owner is not None or any(card.id in c.megaphones for c in tx.state.clubs):
        raise E.NotAllowed(E.CARD_TAKEN.format(name=card.name, seat=(owner or club).seat))
    held = {"adboard": len(club.adboards), "shirt": int(club.shirt is not None)}.get(contract, 0)
    if contract != "megaphone" and held >= sponsor_slots(tx, club, contract):
        raise E.NotAllowed(E.SPONSOR_FULL.format(seat=seat, count=held, contract=contract))
    take_bonus = bool(field(ev, "bonus", bool, "true to take the adboard bonus instead of the adboard effects", default=False))
    if contract == "megaphone":
        club = evolve(club, megaphones=club.megaphones + (card.id,))
    elif contract == "adboard":
        club = evolve(club, adboards=club.adboards + (card.id,))
        if take_bonus:
            club = set_mod(club, f"adboard_bonus:{card.id}", 1)
    else:
        club = evolve(club, shirt=card.id)
    tx.put(club)
    tx.say("sponsor", seat, f"Seat {seat} contracts {card.name} as {'an' if contract == 'adboard' else 'a'} {contract} sponsor.", card=card.id, contract=contract)
    ctx = Ctx(seat=seat, source=card.id, label=card.name, targets=event_targets(ev))
    abilities: tuple[Ability, ...] = card.contract(contract)
    if contract == "adboard" and take_bonus:
        abilities = card.bonus
    elif contract == "shirt":
        abilities = abilities + card.bonus
    for ability in abilities:
        if ability.timing == "immediate":
            tx.put(pay(tx.club(seat), quad_of(ability.cost_map), f"contract {card.name}"))
            apply_effects(tx, ability.effects, ctx)
    _done(tx, seat)


def on_build(tx: Tx) -> None:
    """Build a Stadium Infrastructure token: its cost, one of each kind (Stands: as many as the data allows)."""
    ev = tx.event
    seat = seat_of(ev)
    club = _turn_check(tx, seat, "build")
    kind_id = field(ev, "kind", str, "the id of the Infrastructure kind")
    kinds = {k.id: k for k in tx.profile.board.infrastructure}
    kind = kinds.get(kind_id)
    if kind is None:
        raise E.NotAllowed(E.UNKNOWN_INFRA.format(kind=kind_id, known=", ".join(kinds)))
    have = club.infrastructure.count(kind.id)
    if have >= kind.copies:
        raise E.NotAllowed(E.INFRA_LIMIT.format(seat=seat, count=have, name=kind.name, copies=kind.copies))
    club = pay(club, quad_of({"budget": kind.cost}), f"build {kind.name}")
    tx.put(evolve(club, infrastructure=club.infrastructure + (kind.id,)))
    tx.say("build", seat, f"Seat {seat} builds {kind.name} for {kind.cost} €.", infrastructure=kind.id, cost=kind.cost)
    apply_abilities(tx, kind.abilities, "immediate", Ctx(seat=seat, source=kind.id, label=kind.name))
    _done(tx, seat)


def on_office(tx: Tx) -> None:
    """Move the Office marker one space up, paying the cost printed next to that space."""
    seat = seat_of(tx.event)
    club = _turn_check(tx, seat, "move on the Office track")
    track = tx.profile.board.office
    if club.office >= len(track):
        raise E.NotAllowed(E.OFFICE_TOP.format(seat=seat))
    space = track[club.office]
    club = pay(club, quad_of({"budget": space.cost}), "move on the Office track")
    tx.put(evolve(club, office=club.office + 1))
    tx.say("office", seat, f"Seat {seat} moves to space {club.office + 1} of the Office track for {space.cost} €.", space=club.office + 1, cost=space.cost)
    _done(tx, seat)


def on_potential(tx: Tx) -> None:
    """Increase the Club potential: pick a Stat (not the forbidden one), then a d6 higher than its level raises it."""
    ev = tx.event
    seat = seat_of(ev)
    club = _turn_check(tx, seat, "increase the Club potential")
    stat = field(ev, "stat", str, "which Stat: " + ", ".join(STATS))
    if stat not in STATS:
        raise E.BadEvent(E.BAD_FIELD.format(type="potential", field="stat", why="one of " + ", ".join(STATS)))
    board = tx.profile.board
    if stat == board.potential_forbidden:
        raise E.NotAllowed(E.POTENTIAL_FORBIDDEN.format(stat=stat.capitalize()))
    level = club.stats[RES_INDEX[stat]]
    if level >= board.stat_max:
        raise E.NotAllowed(E.POTENTIAL_TOP.format(seat=seat, stat=stat.capitalize(), level=level))
    tx.put(evolve(club, acted=True))
    tx.state = evolve(tx.state, pending=tx.state.pending + (Pending("roll", seat, "potential", "d6", True, ref=stat),))
    tx.say("potential", seat, f"Seat {seat} tries to raise its {stat.capitalize()} Stat (level {level}): roll the d6, more than {level} succeeds.", stat=stat, level=level)


def potential_roll(tx: Tx, seat: int, stat: str, value: int) -> None:
    """Resolve a Club potential roll."""
    club = tx.club(seat)
    level = club.stats[RES_INDEX[stat]]
    if value > level:
        tx.say("potential_result", seat, f"Seat {seat} rolled {value}, more than {level}: {stat.capitalize()} rises.", stat=stat, roll=value, success=True)
        tx.put(move_stat(tx, club, stat, 1))
    else:
        tx.say("potential_result", seat, f"Seat {seat} rolled {value}, not more than {level}: nothing happens.", stat=stat, roll=value, success=False)


def card_actions(tx: Tx, club: Club, card_id: str) -> tuple[tuple[Ability, ...], str] | None:
    """The abilities a card or token of the club carries, and its kind of holder; None when the club lacks it."""
    cards = tx.profile.cards
    if card_id in club.directors:
        return cards[card_id].abilities, "director"
    held = club.held(card_id)
    if held is not None:
        card = cards[card_id]
        if isinstance(card, PlayerCard):
            return side_of(tx.profile, held).abilities, "footballer"
        return card.abilities, "staff"
    if card_id in club.infrastructure:
        return tx.profile.board.infrastructure_kind(card_id).abilities, "token"
    if card_id == club.shirt:
        return cards[card_id].shirt, "sponsor"
    if card_id in club.adboards:
        return (() if club.mod(f"adboard_bonus:{card_id}") else cards[card_id].adboard), "sponsor"
    return None


def _is_exhausted(club: Club, card_id: str) -> bool:
    held = club.held(card_id)
    return held.exhausted if held is not None else card_id in club.exhausted


def _exhaust(club: Club, card_id: str) -> Club:
    held = club.held(card_id)
    if held is not None:
        return replace_held(club, evolve(held, exhausted=True))
    return evolve(club, exhausted=club.exhausted + (card_id,))


def can_take_free_action(tx: Tx, club: Club) -> bool:
    """Whether a free action is still possible: not used yet, payable, and some card action is ready."""
    if club.free_used:
        return False
    cost = quad_of(dict(tx.profile.board.free_action_cost))
    if club.mod("free_actions:round") <= 0 and any(c > h for c, h in zip(cost, club.res)):
        return False
    ids = list(club.directors) + [h.id for h in club.staff + club.players] + list(club.infrastructure)
    for card_id in ids:
        found = card_actions(tx, club, card_id)
        if found and not _is_exhausted(club, card_id) and not unavailable(club, card_id):
            if any(a.timing == "action" for a in found[0]):
                return True
    return False


def on_use_card(tx: Tx) -> None:
    """Use a card's or token's action (once per round, exhausts it); on Tue–Thu optionally as the free action."""
    ev = tx.event
    seat = seat_of(ev)
    card_id = field(ev, "card", str, "the id of the card or token whose action is used")
    if tx.state.stage == "matchday":
        from engine.rules.match import use_match_card

        use_match_card(tx, seat, card_id)
        return
    if tx.state.stage in MOMENT_STAGES:
        use_moment_card(tx, seat, card_id)
        return
    club = tx.club(seat)
    free = field(ev, "free", bool, "true when this is the free action", default=club.acted)
    club = _turn_check(tx, seat, "use a card", free=free)
    found = card_actions(tx, club, card_id)
    name = tx.name(card_id)
    if found is None:
        raise E.NotAllowed(E.CARD_NOT_OWNED.format(seat=seat, name=name))
    actions = [a for a in found[0] if a.timing == "action"]
    if not actions:
        raise E.NotAllowed(E.CARD_HAS_NO_ACTION.format(name=name))
    if unavailable(club, card_id):
        raise E.NotAllowed(E.CARD_UNAVAILABLE.format(name=name))
    if _is_exhausted(club, card_id):
        raise E.NotAllowed(E.CARD_EXHAUSTED.format(name=name))
    ability = actions[0]
    cost = quad_of(ability.cost_map)
    if free:
        if club.free_used:
            raise E.NotAllowed(E.NO_FREE_ACTION.format(seat=seat, day=stage_name(tx.state)))
        if club.mod("free_actions:round") > 0:
            club = set_mod(club, "free_actions:round", -1)
        else:
            cost = quad_add(cost, quad_of(dict(tx.profile.board.free_action_cost)))
    club = pay(club, cost, f"use {name}")
    club = _exhaust(club, card_id)
    if free:
        club = evolve(club, free_used=club.free_used + 1)
    tx.put(club)
    label = "as its free action " if free else ""
    tx.say("use_card", seat, f"Seat {seat} uses {name} {label}(paying {describe_quad(cost)}).", card=card_id, free=free, cost=list(cost))
    apply_effects(tx, ability.effects, Ctx(seat=seat, source=card_id, label=name, targets=event_targets(ev), roll=event_roll(ev)))
    if free:
        flow.advance(tx)
    else:
        _done(tx, seat)


#: Stages whose moment lets a club use its optional abilities of the same timing (not exhausting the card).
MOMENT_STAGES = ("monday", "end_of_round", "final_scoring")


def offered(tx: Tx, club: Club) -> list[tuple[str, Ability]]:
    """The optional abilities ("you may") the club can use now with ``use_card``, outside the Tuesday–Thursday
    actions: Monday's on Monday, the match's on Matchday (after the lineup; after the match until the Match
    consequence roll), the End of the round's and the Final scoring's while the engine waits for the club there.
    Each card offers its first such ability the club can pay for (a footballer from the resources assigned to it)."""
    stage = tx.state.stage
    out: list[tuple[str, Ability]] = []
    if stage == "matchday":
        if club.lineup is None or club.consequence_done:
            return out
        timings: tuple[str, ...] = ("after_match",) if club.result is not None else ("before_match", "during_match")
        sources = [(card_id, abilities, club.res) for card_id, abilities in flow.card_abilities(tx, club)]
        for p in club.lineup:
            held = club.held(p.card) if p.card else None
            if held is not None and not held.unavailable:
                sources.append((held.id, side_of(tx.profile, held).abilities, held.assigned))
        for card_id, abilities, purse in sources:
            if _is_exhausted(club, card_id):
                continue
            ability = next((a for a in abilities if a.optional and a.timing in timings
                            and all(c <= h for c, h in zip(quad_of(a.cost_map), purse))), None)
            if ability is not None:
                out.append((card_id, ability))
        return out
    if stage not in MOMENT_STAGES:
        return out
    if stage != "monday" and not any(p.need == "abilities" and p.seat == club.seat for p in tx.state.pending):
        return out
    for card_id, abilities in flow.card_abilities(tx, club):
        if f"{card_id}@{stage}" in club.used:
            continue
        ability = next((a for a in abilities if a.optional and a.timing == stage
                        and all(c <= h for c, h in zip(quad_of(a.cost_map), club.res))), None)
        if ability is not None:
            out.append((card_id, ability))
    return out


def use_moment_card(tx: Tx, seat: int, card_id: str) -> None:
    """Use an optional Monday, End of the round or Final scoring ability of a card (once per moment)."""
    stage = tx.state.stage
    club = tx.club(seat)
    name = tx.name(card_id) if card_id in tx.profile.cards else card_id
    if card_actions(tx, club, card_id) is None:
        raise E.NotAllowed(E.CARD_NOT_OWNED.format(seat=seat, name=name))
    if unavailable(club, card_id):
        raise E.NotAllowed(E.CARD_UNAVAILABLE.format(name=name))
    if stage != "monday" and not any(p.need == "abilities" and p.seat == seat for p in tx.state.pending):
        raise E.WrongStage(E.WRONG_STAGE.format(seat=seat, what="use a card", stage=stage_name(tx.state), expected="and its abilities are used"))
    if f"{card_id}@{stage}" in club.used:
        raise E.NotAllowed(E.ABILITY_USED.format(name=name, moment=stage_name(tx.state)))
    found = dict(flow.card_abilities(tx, club)).get(card_id, ())
    abilities = [a for a in found if a.optional and a.timing == stage]
    if not abilities:
        raise E.NotAllowed(E.NO_ABILITY_NOW.format(name=name, moment=stage_name(tx.state)))
    ability = abilities[0]
    cost = quad_of(ability.cost_map)
    club = pay(club, cost, f"use {name}")
    tx.put(evolve(club, used=club.used + (f"{card_id}@{stage}",)))
    tx.say("use_card", seat, f"Seat {seat} uses {name} (paying {describe_quad(cost)}).", card=card_id, free=False, cost=list(cost))
    apply_effects(tx, ability.effects, Ctx(seat=seat, source=card_id, label=name, targets=event_targets(tx.event), roll=event_roll(tx.event)))
    if stage != "monday" and not offered(tx, tx.club(seat)):
        flow.close_window(tx, seat)
    flow.advance(tx)


def on_pass(tx: Tx) -> None:
    """End the club's turn (without an action, or after it when a free action is left unused); at the End of the
    round or the Final scoring, use no more of the club's optional abilities there."""
    seat = seat_of(tx.event)
    if any(p.need == "abilities" and p.seat == seat for p in tx.state.pending):
        tx.club(seat)
        tx.say("pass", seat, f"Seat {seat} uses no more abilities at {stage_name(tx.state)}.")
        flow.close_window(tx, seat)
        flow.advance(tx)
        return
    _turn_check(tx, seat, "pass", free=True)
    tx.say("pass", seat, f"Seat {seat} passes.")
    flow.end_turn(tx, seat)
    flow.advance(tx)
