"""Tuesday, Wednesday, Thursday (rulebook, Tue, Wed, Thu: player turns): one club at a time, clockwise from the
First player, takes one action (hire, sell, Staff, Sponsor, build, Office, Club potential, a card's action) plus
one free action (a card's action for 2 Operation), or passes."""

from __future__ import annotations

from typing import Any, Callable

from engine import errors as E
from engine.cards import CONTRACTS, STATS, Ability, Board, Effect, InfrastructureKind, PlayerCard
from engine.rules.abilities import card_actions, exhaust, roll_first
from engine.rules.context import (
    card_marker,
    describe_quad,
    event_roll,
    event_targets,
    field,
    flip_markers,
    holder_of,
    move_stat,
    pay,
    quad_add,
    quad_of,
    seat_of,
    set_mod,
    side_of,
    turn_order,
    with_res,
)
from engine.rules.effects import Ctx, apply_abilities, apply_effects, ask_table, choices_of, describe_effect
from engine.errors import EngineError
from engine.state import Club, Held, Pending, Quad, RES_INDEX, State, evolve, evolve1
from engine.tx import Tx

#: The three days of turns, in order.
TURN_DAYS = ("tuesday", "wednesday", "thursday")
ROW_KINDS = {"players": "player", "youngster": "youngster", "staff": "staff"}


def _turn_check(tx: Tx, seat: int, what: str, *, free: bool = False) -> Club:
    """The club may act now: it is a turn day, its turn, nothing is awaited from it, and it has not acted yet."""
    s = tx.state
    if s.stage not in TURN_DAYS:
        phase = tx.rules.phases.get(s.stage)
        if phase is None or what not in phase.turn_actions:
            raise E.WrongStage(E.WRONG_STAGE.format(seat=seat, what=what, stage=tx.stage_name(), expected="and actions are taken Tuesday to Thursday"))
    club = tx.club(seat)
    if s.turn != seat:
        raise E.NotYourTurn(E.NOT_YOUR_TURN.format(seat=seat, what=what, turn=s.turn, day=tx.stage_name()))
    waiting = roll_first(s, seat)
    if waiting is not None:
        raise E.NotAllowed(E.FINISH_ROLL_FIRST.format(seat=seat, what=waiting.purpose.replace('_', ' ') or waiting.need))
    if not free:
        if club.acted:
            raise E.NotAllowed(E.ALREADY_ACTED.format(seat=seat, day=tx.stage_name()))
        tx.rules.turn_check(tx, seat, what)  # type: ignore[attr-defined]
    return club


def _done(tx: Tx, seat: int) -> None:
    tx.put(evolve1(tx.club(seat), "acted", True))


def _discounts(club: Club, row: str) -> int:
    return club.mod(f"discount:{row}:round") + club.mod(f"discount:{row}:permanent")


#: `quad_of({"budget": n})` for the usual prices, made once
_BUDGET_ONLY: tuple[Quad, ...] = tuple(quad_of({"budget": n}) for n in range(16))


def hire_from_row(tx: Tx, seat: int, row: str, card_id: Any, *, discount: int = 0) -> None:
    """Take a card from a Transfer area row (or the Youngster deck) and pay its cost less any discounts."""
    kind = ROW_KINDS.get(row)
    if kind is None:
        raise E.NotAllowed(E.HIRE_SPONSOR_ROW.format(row=row))
    card = tx.card(card_id, kind)
    other = holder_of(tx.state.clubs, card.id, kind)
    if other is not None:
        raise E.NotAllowed(E.CARD_TAKEN.format(name=card.name, seat=other.seat))
    if card.id in tx.state.discarded:
        raise E.NotAllowed(E.CARD_DISCARDED.format(name=card.name))
    # an empty Youngster deck needs no check of its own: every Youngster card then belongs to a club, so the one
    # named is refused above as taken
    club = tx.club(seat)
    printed = card.untrained.cost if isinstance(card, PlayerCard) else card.cost
    cost = max(0, printed - discount - _discounts(club, row))
    club = pay(club, _BUDGET_ONLY[cost] if cost.__class__ is int and cost < 16 else quad_of({"budget": cost}), f"hire {card.name}")
    if isinstance(card, PlayerCard):
        club = tx.put(flip_markers(evolve1(club, "players", club.players + (Held(card.id),)), card_marker(tx.profile, card.id)))
        if not tx.quiet:
            tx.say("hire", seat, f"Seat {seat} hires {card.name} for {cost} €.", card=card.id, cost=cost, row=row)
        apply_abilities(tx, card.untrained.abilities, "immediate", Ctx(seat=seat, source=card.id, label=card.name))
    else:
        club = tx.put(evolve1(club, "staff", club.staff + (Held(card.id),)))
        if not tx.quiet:
            tx.say("hire", seat, f"Seat {seat} hires {card.name} ({card.profession}) for {cost} €.", card=card.id, cost=cost, row=row,
                   choices=choices_of([*card.bonus, *(e for a in card.abilities if a.timing == "immediate" and not a.cost for e in a.effects)]))
        ctx = Ctx(seat=seat, source=card.id, label=card.name, targets=event_targets(tx.event))
        apply_effects(tx, card.bonus, ctx)
        apply_abilities(tx, card.abilities, "immediate", ctx)
    tx.rules.hired(tx, seat, card.id, row)  # type: ignore[attr-defined]


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
    money, vp = tx.board(seat).sell_price, held.vp
    if held.unavailable:
        money, vp = money // 2, vp // 2
    money, vp = tx.rules.sale_price(tx, club, held, (money, vp))  # type: ignore[attr-defined]
    club = evolve(club, players=tuple(h for h in club.players if h.id != card.id), vp_tokens=club.vp_tokens + vp)
    tx.put(with_res(club, "budget", money))
    if card.kind != "youngster":
        # "Discard a chosen Player card": it never comes back; a Youngster goes under the Youngster deck instead
        tx.state = evolve(tx.state, discarded=tx.state.discarded + (card.id,))
    why = " (half, as the player is injured or suspended)" if held.unavailable else ""
    tx.say("sell", seat, f"Seat {seat} sells {card.name} for {money} € and {vp} VP token(s){why}.", card=card.id, budget=money, vp=vp)
    _done(tx, seat)
    tx.rules.sold(tx, seat, card.id)  # type: ignore[attr-defined]


def sponsor_slots(tx: Tx, club: Club, contract: str) -> int:
    """How many sponsors of a contract type the club may hold (adboards grow with the additional adboard)."""
    board = tx.board(club.seat)
    slots = dict(board.sponsor_slots).get(contract, 10**6)
    if contract == "adboard":
        slots += sum(board.infrastructure_kind(k).adboard_slots for k in club.infrastructure)
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
    clubs = tx.state.clubs
    other = holder_of(clubs, card.id, "sponsor")
    if other is not None:
        raise E.NotAllowed(E.CARD_TAKEN.format(name=card.name, seat=other.seat))
    for other in clubs:
        if card.id in other.megaphones:
            raise E.NotAllowed(E.CARD_TAKEN.format(name=card.name, seat=seat))
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
    abilities: tuple[Ability, ...] = card.contract(contract)
    if contract == "adboard" and take_bonus:
        abilities = card.bonus
    elif contract == "shirt":
        abilities = abilities + card.bonus
    if not tx.quiet:
        tx.say("sponsor", seat, f"Seat {seat} contracts {card.name} as {'an' if contract == 'adboard' else 'a'} {contract} sponsor.", card=card.id, contract=contract,
               choices=choices_of(e for a in abilities if a.timing == "immediate" for e in a.effects))
    ctx = Ctx(seat=seat, source=card.id, label=card.name, targets=event_targets(ev))
    for ability in abilities:
        if ability.timing == "immediate":
            if ability.cost:  # nothing to pay otherwise: the club stays as it is
                tx.put(pay(tx.club(seat), quad_of(ability.cost_map), f"contract {card.name}"))
            apply_effects(tx, ability.effects, ctx)
    _done(tx, seat)


def on_build(tx: Tx) -> None:
    """Build a Stadium Infrastructure token: its cost, one of each kind (Stands: as many as the data allows)."""
    ev = tx.event
    seat = seat_of(ev)
    club = _turn_check(tx, seat, "build")
    kind_id = field(ev, "kind", str, "the id of the Infrastructure kind")
    board = tx.board(seat)
    kind = board.kinds_by_id.get(kind_id)  # kinds have different ids (the loader checks)
    if kind is None:
        raise E.NotAllowed(E.UNKNOWN_INFRA.format(kind=kind_id, known=", ".join(board.kinds_by_id)))
    club = check_build(board, club, kind)
    tx.put(evolve1(club, "infrastructure", club.infrastructure + (kind.id,)))
    if not tx.quiet:
        tx.say("build", seat, f"Seat {seat} builds {kind.name} for {kind.cost} €.", infrastructure=kind.id, cost=kind.cost)
    apply_abilities(tx, kind.abilities, "immediate", Ctx(seat=seat, source=kind.id, label=kind.name))
    _done(tx, seat)


def check_build(board: Board, club: Club, kind: InfrastructureKind) -> Club:
    """The club may build a token of this kind (copies, an empty space of its kind on the Stadium board, its cost):
    the club having paid, or the refusal raised."""
    have = club.infrastructure.count(kind.id)
    if have >= kind.copies:
        raise E.NotAllowed(E.INFRA_LIMIT.format(seat=club.seat, count=have, name=kind.name, copies=kind.copies))
    spaces = board.spaces(kind.space)
    if sum(1 for k in club.infrastructure if board.infrastructure_kind(k).space == kind.space) >= spaces:
        raise E.NotAllowed(E.INFRA_NO_SPACE.format(seat=club.seat, name=kind.name, spaces=spaces, space=kind.space))
    return pay(club, quad_of({"budget": kind.cost}), f"build {kind.name}")


def build_refusal(board: Board, club: Club, kind: InfrastructureKind) -> str | None:
    """Why the club could not build a token of this kind now, leaving the turn aside (None when it could)."""
    try:
        check_build(board, club, kind)
    except EngineError as refusal:
        return str(refusal)
    return None


def on_office(tx: Tx) -> None:
    """Move the Office marker one space up, paying the cost printed next to that space."""
    seat = seat_of(tx.event)
    club = _turn_check(tx, seat, "move on the Office track")
    track = tx.board(seat).office
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
    board = tx.board(seat)
    if stat == board.potential_forbidden:
        raise E.NotAllowed(E.POTENTIAL_FORBIDDEN.format(stat=stat.capitalize()))
    level = club.stats[RES_INDEX[stat]]
    if level >= board.stat_max:
        raise E.NotAllowed(E.POTENTIAL_TOP.format(seat=seat, stat=stat.capitalize(), level=level))
    tx.put(evolve1(club, "acted", True), tx.state.pending + (Pending("roll", seat, "potential", "d6", True, ref=stat),))
    if not tx.quiet:
        tx.say("potential", seat, f"Seat {seat} tries to raise its {stat.capitalize()} Stat (level {level}): roll the d6, more than {level} succeeds.", stat=stat, level=level)


def potential_roll(tx: Tx, pending: Pending, value: int) -> None:
    """Resolve a Club potential roll (the roll purpose ``potential``): more than the Stat's level raises it."""
    seat, stat = pending.seat, pending.ref
    assert seat is not None
    club = tx.club(seat)
    level = club.stats[RES_INDEX[stat]]
    if value > level:
        if not tx.quiet:
            tx.say("potential_result", seat, f"Seat {seat} rolled {value}, more than {level}: {stat.capitalize()} rises.", stat=stat, roll=value, success=True)
        tx.put(move_stat(tx, club, stat, 1))
    else:
        if not tx.quiet:
            tx.say("potential_result", seat, f"Seat {seat} rolled {value}, not more than {level}: nothing happens.", stat=stat, roll=value, success=False)


def can_take_free_action(tx: Tx, club: Club) -> bool:
    """Whether a free action is still possible: not used yet, payable, and some card action is ready."""
    if club.free_used:
        return False
    cost = _free_action_cost(tx.board(club.seat))
    res = club.res
    if (cost[0] > res[0] or cost[1] > res[1] or cost[2] > res[2] or cost[3] > res[3]) and club.mod("free_actions:round") <= 0:
        return False
    # the cards that are ready first (cheap to tell), then whether one of them has an action
    for held in club.staff:
        # `Held.unavailable` read at once (no property call per card)
        if not held.exhausted and not (held.injury > 0 or held.suspension > 0) and _has_action(tx, club, held.id):
            return True
    for held in club.players:  # a footballer's action is on the face he shows (`card_actions` says the same)
        if not held.exhausted and not (held.injury > 0 or held.suspension > 0) and _acts(side_of(tx, held, club).abilities):
            return True
    for card_id in club.directors:
        if card_id not in club.exhausted and not club.suspension_on(card_id) and _has_action(tx, club, card_id):
            return True
    for card_id in club.infrastructure:
        if card_id not in club.exhausted and not club.suspension_on(card_id) and _has_action(tx, club, card_id):
            return True
    return False


def _has_action(tx: Tx, club: Club, card_id: str) -> bool:
    found = card_actions(tx, club, card_id)
    return found is not None and _acts(found[0])


def _acts(abilities: tuple[Ability, ...]) -> bool:
    for ability in abilities:
        if ability.timing == "action":
            return True
    return False


def _free_action_cost(board: Board) -> Quad:
    """What the free action costs on a board (kept per board: a seat's board stays the same object for long)."""
    kept = _FREE_COSTS.get(id(board))
    if kept is not None and kept[0] is board:
        return kept[1]
    cost = quad_of(dict(board.free_action_cost))
    if len(_FREE_COSTS) > 64:
        _FREE_COSTS.clear()
    _FREE_COSTS[id(board)] = (board, cost)
    return cost


_FREE_COSTS: dict[int, tuple[Board, Quad]] = {}  # by the board's id: (the board, its free action's cost)


def use_action(tx: Tx, seat: int, card_id: str) -> None:
    """Use a card's or token's action (once per round, exhausts it), optionally as the free action (Tue–Thu)."""
    ev = tx.event
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
    held = club.held(card_id)  # `unavailable` and `is_exhausted` with one lookup of the card
    if (held.injury > 0 or held.suspension > 0) if held is not None else club.suspension_on(card_id) > 0:
        raise E.NotAllowed(E.CARD_UNAVAILABLE.format(name=name))
    if held.exhausted if held is not None else card_id in club.exhausted:
        raise E.NotAllowed(E.CARD_EXHAUSTED.format(name=name))
    ability = actions[0]
    cost = quad_of(ability.cost_map)
    if free:
        if club.free_used:
            raise E.NotAllowed(E.NO_FREE_ACTION.format(seat=seat, day=tx.stage_name()))
        if club.mod("free_actions:round") > 0:
            club = set_mod(club, "free_actions:round", -1)
        else:
            cost = quad_add(cost, _free_action_cost(tx.board(seat)))
    club = pay(club, cost, f"use {name}")
    club = exhaust(club, card_id)
    if free:
        club = evolve1(club, "free_used", club.free_used + 1)
    else:
        club = evolve1(club, "acted", True)
    tx.put(club)
    label = "as its free action " if free else ""
    if not tx.quiet:
        tx.say("use_card", seat, f"Seat {seat} uses {name} {label}(paying {describe_quad(cost)}).", card=card_id, free=free, cost=list(cost),
               choices=choices_of(ability.effects))
    apply_effects(tx, ability.effects, Ctx(seat=seat, source=card_id, label=name, targets=event_targets(ev), roll=event_roll(ev)))


def pass_turn(tx: Tx, seat: int) -> None:
    """End the club's turn (without an action, or after it when a free action is left unused)."""
    _turn_check(tx, seat, "pass", free=True)
    tx.say("pass", seat, f"Seat {seat} passes.")
    tx.put(evolve(tx.club(seat), acted=True, free_used=1))


def refuse_turn_only(tx: Tx, seat: int, what: str) -> None:
    """``use_card`` or ``pass`` at a moment that has no use for it."""
    tx.club(seat)
    raise E.WrongStage(E.WRONG_STAGE.format(seat=seat, what=what, stage=tx.stage_name(), expected="and actions are taken Tuesday to Thursday"))


# ---------------------------------------------------------------------------------------------------------------
# The days of turns.


def begin_day(tx: Tx) -> None:
    """A day of turns: every club may act again; the First player's club plays first."""
    # a club fresh from Monday is kept as it is (the same object: what is kept for its cards stays valid)
    state = tx.state
    for c in state.clubs:
        if c.acted or c.free_used:
            clubs = tuple([c if not c.acted and not c.free_used else evolve(c, acted=False, free_used=0) for c in state.clubs])
            break
    else:
        clubs = state.clubs  # every club fresh from Monday: the same tuple
    first = turn_order(state)[0]
    day = state.stage
    tx.state = evolve(state, turn=first, clubs=clubs)
    if not tx.quiet:
        tx.say("day", None, f"{day.capitalize()}: Seat {first} plays first.", day=day, turn=first)


def next_turn(tx: Tx) -> bool:
    """The turn passes clockwise once the club has acted and has (or can take) no free action; after the last
    club the day is over (``turn`` 0)."""
    s = tx.state
    if not s.turn:
        return False
    club = tx.club(s.turn)  # its turn is over once it has acted and has (or can take) no free action
    if not club.acted or not (club.free_used > 0 or not can_take_free_action(tx, club)):
        return False
    order = turn_order(s)
    i = order.index(s.turn)
    if i + 1 < len(order):
        seat = order[i + 1]
        tx.state = evolve1(s, "turn", seat)
        if not tx.quiet:
            tx.say("turn", seat, f"Seat {seat}'s turn ({tx.stage_name()}).", turn=seat)
    else:
        tx.state = evolve1(s, "turn", 0)
    return True


def day_over(tx: Tx) -> bool:
    """A day of turns is over once the last club's turn has ended."""
    return tx.state.turn == 0


def day_awaiting(state: State) -> list[dict[str, Any]]:
    """The club whose turn it is: an action (or only a free action, once it has acted), unless a roll is awaited."""
    if not state.turn or any(p.seat == state.turn for p in state.pending):
        return []
    club = state.club(state.turn)
    return [{"seat": state.turn, "need": "action", "day": state.stage, "free_only": bool(club and club.acted)}]


def hire_op(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    """The effect op ``hire``: hire the chosen card from a row now, after the list's discounts."""
    chosen = ctx.take_target()
    if chosen is None:
        ask_table(tx, ctx, describe_effect(effect))
        return
    try:
        hire_from_row(tx, ctx.seat, str(effect["row"]), chosen, discount=ctx.discount)
    except EngineError as err:
        # the card's effect fails, not the event that triggered it (a roll must always be accepted)
        tx.say("no_effect", ctx.seat, f"{ctx.label}: the hire does not happen. {err}", source=ctx.source)
    ctx.discount = 0


def on_use_card(tx: Tx) -> None:
    """Use a card's or token's ability: what that means is the current phase's (an action Tuesday to Thursday, a
    match ability on Matchday, an optional Monday, End of the round or Final scoring ability)."""
    seat = seat_of(tx.event)
    card_id = field(tx.event, "card", str, "the id of the card or token whose action is used")
    phase = tx.rules.phases.get(tx.state.stage)
    if phase is None or phase.use_card is None:
        refuse_turn_only(tx, seat, "use a card")
        return
    phase.use_card(tx, seat, card_id)


def on_pass(tx: Tx) -> None:
    """Pass: end the turn (Tuesday to Thursday), or use no more abilities where the engine waits for them."""
    seat = seat_of(tx.event)
    phase = tx.rules.phases.get(tx.state.stage)
    if phase is None or phase.pass_ is None:
        refuse_turn_only(tx, seat, "pass")
        return
    phase.pass_(tx, seat)
