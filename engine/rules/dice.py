"""Dice (rulebook, Fanbase: "When rolling a die, you may spend 1 fanbase to reroll it (except rolling the Opponent
dice that cannot be rerolled)").  A roll arrives as an event; a club that could pay for a reroll (1 Fanbase, or a
free reroll from a card) is asked to keep or reroll before the result takes effect.  What a roll is for is its
``purpose``, resolved by the game's rules (``tx.rules.rolls``): the pack's and each module's own."""

from __future__ import annotations

from engine import errors as E
from engine.rules.context import event_targets, field, set_mod, with_res
from engine.state import Club, Pending
from engine.tx import Tx


def faces(tx: Tx, die: str) -> int:
    """Number of faces of a die ("d6", "d10", or an Opponent die from the board)."""
    if die == "d6":
        return 6
    if die == "d10":
        return 10
    if die.startswith("d") and die[1:].isdigit():
        return int(die[1:])
    return len(tx.profile.board.moves_by_die.get(die, (0,) * 6))  # the board's table read by die, made once


def free_reroll_keys(purpose: str) -> tuple[str, ...]:
    """The club's running modifiers that may pay a free reroll of a roll with this purpose, most fleeting first.

    A card's free reroll for one kind of roll (``purpose``) is spent before one that fits any roll, so the wider
    one is kept for later; a modifier named ``free_rerolls:<lasting>`` fits any roll.
    """
    keys = _KEYS.get(purpose)
    if keys is None:
        keys = _KEYS[purpose] = (
            f"free_rerolls:{purpose}:round", "free_rerolls:round",
            f"free_rerolls:{purpose}:permanent", "free_rerolls:permanent",
        )
    return keys


_KEYS: dict[str, tuple[str, ...]] = {}  # by purpose (a game has a handful)


def _free_reroll(club: Club, purpose: str) -> str | None:
    mods = club.mods
    if not mods:  # no running modifier at all: nothing to look up
        return None
    for name, _ in mods:  # one pass first: most clubs hold no free reroll, and `Club.mod` would be asked four times
        if name.startswith("free_rerolls:"):
            break
    else:
        return None
    for key in free_reroll_keys(purpose):
        if club.mod(key) > 0:
            return key
    return None


def _value(tx: Tx, die: str) -> int:
    value = tx.event.get("value")
    if value.__class__ is not int:  # the common case without `field`'s call; else its check and its refusal
        value = field(tx.event, "value", int, "the number the die shows")
    top = 6 if die == "d6" else faces(tx, die)  # the d6 without a call (most rolls)
    if not 1 <= value <= top:
        raise E.NotAllowed(E.ROLL_RANGE.format(die=die, faces=top, value=value))
    return value


def _as(pending: Pending, need: str, value: int) -> Pending:
    """The awaited roll with another need and value (one copy: a roll is held or rerolled thousands of times a game)."""
    values = [*pending]
    values[_NEED] = need
    values[_VALUE] = value
    return _new(Pending, values)  # type: ignore[no-any-return]


_NEED, _VALUE = Pending._fields.index("need"), Pending._fields.index("value")
_new = tuple.__new__


def _hold_or_resolve(tx: Tx, pending: Pending, value: int, at: int | None = None, club: Club | None = None,
                     unsaved: bool = False) -> None:
    """Hold the result for the club to keep or reroll when it could pay for a reroll; else it takes effect now.

    ``at``: the place of the roll in the awaited tuple when the roll lies there once (it is then held in its place,
    or taken out, by slicing); None: every copy of ``pending`` is taken out and the held one goes where the first
    roll equal to it was.  ``club``: the club at ``pending.seat`` as it is now, when the caller has it at hand;
    ``unsaved``: that club is not stored yet (it is, with the awaited rolls, in one copy of the state)."""
    seat = pending.seat
    awaited = tx.state.pending
    changed = club if unsaved else None
    if seat is not None and pending.rerollable:
        if club is None:
            club = tx.club(seat)
        if club.res[1] > 0 or _free_reroll(club, pending.purpose) is not None:  # it could pay for a reroll
            held = _as(pending, "keep_or_reroll", value)
            if at is None:
                rest = tuple([p for p in awaited if p is not pending])
                index = awaited.index(pending)
                tx.put_pending((*rest[:index], held, *rest[index:]), changed)
            else:
                tx.put_pending(awaited[:at] + (held,) + awaited[at + 1:], changed)
            if not tx.quiet:
                price = "use a free reroll" if _free_reroll(club, pending.purpose) else "spend 1 Fanbase"
                tx.say("roll", seat, f"Seat {seat} rolled {value} on the {pending.die}: keep it, or {price} to reroll.", die=pending.die, value=value, purpose=pending.purpose, held=True)
            return
    if at is None:
        tx.put_pending(tuple([p for p in awaited if p is not pending]), changed)
    else:  # the first awaited (most rolls) without a slice and a join more
        tx.put_pending(awaited[1:] if at == 0 else awaited[:at] + awaited[at + 1:], changed)
    if not tx.quiet:
        who = f"Seat {seat}" if seat is not None else "The table"
        tx.say("roll", seat, f"{who} rolled {value} on the {pending.die}.", die=pending.die, value=value, purpose=pending.purpose, held=False, team=pending.team or None)
    # `_resolve` without its call (most rolls come here)
    if tx.event.get("targets"):
        event_targets(tx.event)
    tx.rules.rolls[pending.purpose](tx, pending, value)


def _resolve(tx: Tx, pending: Pending, value: int) -> None:
    """What the roll was for: the game's resolver for its purpose (the club names choices with the roll's targets)."""
    if tx.event.get("targets"):  # most rolls choose nothing (`event_targets` would hand back [])
        event_targets(tx.event)  # a malformed choice is refused before anything happens
    tx.rules.rolls[pending.purpose](tx, pending, value)


def on_roll(tx: Tx) -> None:
    """A die was rolled for what the engine awaits (the seat's roll, or an Opponent die named by its team)."""
    ev = tx.event
    seat = ev.get("seat")
    if seat is not None and seat.__class__ is not int and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise E.BadEvent(E.BAD_FIELD.format(type="roll", field="seat", why="a seat number, or null for an Opponent die"))
    team = ev.get("team")
    awaited = tx.state.pending
    pending = None
    at = 0
    for p in awaited:  # the first roll awaited of the seat (of the team named)
        if p.need == "roll" and p.seat == seat and (team is None or p.team == team):
            pending = p
            break
        at += 1
    club = tx.club(seat) if seat is not None else None
    if pending is None:
        held = any(p.need == "keep_or_reroll" and p.seat == seat for p in awaited)
        who = f"Seat {seat}" if seat is not None else "the Opponent dice" + (f" of {team}" if team else "")
        if held:
            raise E.NotAllowed(E.KEEP_OR_REROLL_FIRST.format(seat=seat))
        raise E.NotAllowed(E.NOT_WAITING_ROLL.format(who=who))
    # no roll equal to it comes before the first one found, so it is held in its own place
    _hold_or_resolve(tx, pending, _value(tx, pending.die), at if awaited.count(pending) == 1 else None, club)


def _held(tx: Tx) -> tuple[int, Pending, int, Club]:
    """The seat, its result held for a choice to keep or reroll, the place of that result in the awaited tuple, and
    the club at the seat."""
    seat = tx.event.get("seat")
    if seat.__class__ is not int:  # the common case without `field`'s call; else its check and its refusal
        seat = field(tx.event, "seat", int, "the seat number")
    club = tx.club(seat)
    at = 0
    for p in tx.state.pending:
        if p.need == "keep_or_reroll" and p.seat == seat:
            return seat, p, at, club
        at += 1
    raise E.NotAllowed(E.NOT_WAITING_ROLL.format(who=f"Seat {seat}").replace("roll", "choice to keep or reroll"))


def on_reroll(tx: Tx) -> None:
    """Reroll the held result: a free reroll from a card if the club has one, else 1 Fanbase."""
    seat, pending, at, club = _held(tx)
    value = _value(tx, pending.die)
    key = _free_reroll(club, pending.purpose)
    if key is not None:
        club, paid = set_mod(club, key, -1), "a free reroll"
    elif club.res[1] > 0:
        club, paid = with_res(club, "fanbase", -1), "1 Fanbase"
    else:
        raise E.NotEnoughResources(E.NO_FANBASE_REROLL.format(seat=seat))
    if not tx.quiet:
        tx.say("reroll", seat, f"Seat {seat} spends {paid} to reroll the {pending.die} ({pending.value} before).", before=pending.value, value=value)
    as_roll = _as(pending, "roll", 0)
    awaited = tx.state.pending
    if awaited.count(pending) == 1 and as_roll not in awaited[:at]:
        # the roll takes the held result's place: held again there, or taken out, the club paying in the same copy
        # of the state
        _hold_or_resolve(tx, as_roll, value, at, club, unsaved=True)
        return
    tx.put(club, tuple(as_roll if p is pending else p for p in awaited))
    _hold_or_resolve(tx, as_roll, value)


def on_keep(tx: Tx) -> None:
    """Keep the held result: it takes effect now."""
    seat, pending, at, _ = _held(tx)
    awaited = tx.state.pending
    if awaited.count(pending) == 1:
        tx.put_pending(awaited[:at] + awaited[at + 1:])
    else:
        tx.put_pending(tuple(p for p in awaited if p is not pending))
    if not tx.quiet:
        tx.say("keep", seat, f"Seat {seat} keeps the {pending.value}.", value=pending.value, purpose=pending.purpose)
    _resolve(tx, pending, pending.value)
