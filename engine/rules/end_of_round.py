"""The End of the round (rulebook, End of the round; Maintenance): the round's abilities, resources on cards
discarded and cards unexhausted, Score markers back to 0, then (unless it was the last week) Maintenance is paid,
resources beyond one of each are discarded, and the Stage marker passes to the next club."""

from __future__ import annotations

from engine import errors as E
from engine.rules.abilities import open_windows
from engine.rules.context import field, replace_held, seat_of, turn_order
from engine.rules.suspension_and_injury import gained
from engine.state import ZERO, Club, Held, Pending, evolve, evolve1
from engine.tx import Tx


def begin_end_of_round(tx: Tx) -> None:
    """The End of the round's abilities (the optional ones wait for their clubs), then the round closes."""
    if not open_windows(tx, "end_of_round"):
        close_round(tx)


def close_round(tx: Tx) -> None:
    """Steps 1–2 (and 3 and 5 unless the game ends): discard resources on cards, unexhaust, reset the Score
    markers; then each club pays Maintenance and keeps at most one of each resource but €."""
    clubs = tuple([_closed(c) for c in tx.state.clubs])
    tx.state = evolve1(tx.state, "clubs", clubs)
    if not tx.quiet:
        tx.say("end_of_round", None, f"End of week {tx.state.week}: cards unexhausted, Score markers back to 0.", week=tx.state.week)
    tx.rules.end_of_round(tx)  # type: ignore[attr-defined]
    if tx.state.week >= tx.state.weeks:
        return  # "If there are no more Opponent cards on your boards, proceed to the end of the game"
    pending = list(tx.state.pending)
    for club in tx.state.clubs:
        board = tx.board(club.seat)
        due = maintenance_due(tx, club)
        res = club.res
        paid = min(due, res[0])
        budget = res[0] - paid  # `with_res(club, "budget", -paid)`, in the copy that keeps the rest below
        budget = budget if budget > 0 else 0
        if due > paid:
            pending.append(Pending("suspensions", club.seat, count=due - paid))
        kept = board.fanbase_kept
        club = tx.put(evolve1(club, "res", (budget, min(res[1], kept), min(res[2], kept), min(res[3], kept))))
        if not tx.quiet:
            text = f"Seat {club.seat} pays {paid} € Maintenance"
            if due > paid:
                text += f" and is {due - paid} € short: choose a Staff or Player card for 2 Suspension tokens per missing €"
            tx.say("maintenance", club.seat, text + ".", due=due, paid=paid, missing=due - paid)
    tx.state = evolve(tx.state, pending=tuple(pending))


_PLAYERS, _STAFF = Club._fields.index("players"), Club._fields.index("staff")
_CLOSED = tuple((Club._fields.index(name), value) for name, value in (("exhausted", ()), ("goals", 0), ("conceded", 0), ("used", ())))


def _closed(club: Club) -> Club:
    """The club as the round closes: its cards cleaned, nothing exhausted, no goals, no abilities used (`evolve`
    with those fields, set by place: four clubs every week)."""
    values = [*club]
    values[_PLAYERS] = _clean(club.players)
    values[_STAFF] = _clean(club.staff)
    for i, value in _CLOSED:
        values[i] = value
    return tuple.__new__(Club, values)  # type: ignore[no-any-return]


def _clean(held: tuple[Held, ...]) -> tuple[Held, ...]:
    """Cards unexhausted, the resources on them discarded, their temporary Strength gone."""
    for h in held:  # `all(...)` without a generator
        if h.exhausted or h.strength_temp or h.assigned != ZERO:
            break
    else:
        return held  # the same tuple: what is kept for the club's cards stays valid
    return tuple([h if not h.exhausted and not h.strength_temp and h.assigned == ZERO
                  else evolve(h, exhausted=False, assigned=ZERO, strength_temp=0) for h in held])


def end_end_of_round(tx: Tx) -> None:
    """Step 6: the Stage marker passes to the next club (not after the last week)."""
    if tx.state.week >= tx.state.weeks:
        return
    order = turn_order(tx.state)
    nxt = order[1 % len(order)]
    tx.state = evolve(tx.state, first_seat=nxt)
    if not tx.quiet:
        tx.say("stage_marker", nxt, f"Seat {nxt} takes the Stage marker.", first_seat=nxt)


def maintenance_due(tx: Tx, club: Club) -> int:
    """€ due on the three Maintenance tracks (footballers, Staff, Infrastructure)."""
    board = tx.board(club.seat)
    return (
        board.maintenance_due("players", len(club.players))
        + board.maintenance_due("staff", len(club.staff))
        + board.maintenance_due("infrastructure", len(club.infrastructure))
    )


def on_suspensions(tx: Tx) -> None:
    """The club names a Staff or Player card for each missing € of Maintenance: two Suspension tokens each."""
    ev = tx.event
    seat = seat_of(ev)
    need = next((p for p in tx.state.pending if p.need == "suspensions" and p.seat == seat), None)
    if need is None:
        raise E.NotAllowed(E.NOT_WAITING_ROLL.format(who=f"Seat {seat}").replace("roll", "choice of Suspensions"))
    cards = field(ev, "cards", list, "one Staff or Player card id for each missing €")
    club = tx.club(seat)
    if len(cards) != need.count or any(not isinstance(c, str) or club.held(c) is None for c in cards):
        raise E.NotAllowed(E.SUSPENSION_CHOICE.format(seat=seat, count=need.count))
    for card_id in cards:
        held = club.held(card_id)
        assert held is not None
        tokens = gained(tx, club, held, "suspension", 2, "unpaid Maintenance")
        if not tokens:
            continue
        club = replace_held(club, evolve(held, suspension=held.suspension + tokens))
        tx.say("suspension", seat, f"{tx.name(card_id)} gets {tokens} Suspension token{'s' if tokens > 1 else ''} for unpaid "
               "Maintenance.", card=card_id, tokens=tokens)
    tx.put(club)
    tx.state = evolve(tx.state, pending=tuple(p for p in tx.state.pending if p is not need))
