"""Small pieces every rule of the base game uses: event fields, resources, paying, Stat moves, cards a club holds.

Named after nothing in the rulebook because every section uses them; the rules themselves live in the files named
after the rulebook's sections (`setup`, `monday`, `actions`, `matchday`, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter
from typing import Any, Final

from engine import errors as E
from engine.cards import STATS, PlayerCard, PlayerSide, Profile, StatStep
from engine.state import Club, Held, Quad, RES_INDEX, State, evolve, evolve1
from engine.tx import Tx


_RES = Club._fields.index("res")
_PLAYERS = Club._fields.index("players")
_STAFF = Club._fields.index("staff")
_MODS = Club._fields.index("mods")
_new = tuple.__new__


def field(ev: Mapping[str, Any], name: str, kind: type | tuple[type, ...], doc: str, *, default: Any = ...) -> Any:
    """A required (or defaulted) field of an event, type-checked (bools are not ints)."""
    value = ev.get(name)
    if value.__class__ is kind:  # the common case: exactly the type asked for
        return value
    if value is None:
        if default is not ...:
            return default
        raise E.BadEvent(E.MISSING_FIELD.format(type=ev.get("type"), field=name, doc=doc))
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise E.BadEvent(E.BAD_FIELD.format(type=ev.get("type"), field=name, why=doc))
    if not isinstance(value, kinds):
        raise E.BadEvent(E.BAD_FIELD.format(type=ev.get("type"), field=name, why=doc))
    return value


def event_roll(ev: Mapping[str, Any]) -> int | None:
    """A die result carried by the event for a card's roll (None when it carries none)."""
    roll = ev.get("roll")
    if roll is None or roll.__class__ is int:  # the common cases without `field`'s call
        return roll  # type: ignore[no-any-return]
    return field(ev, "roll", int, "a die result, a whole number", default=None)


def event_targets(ev: Mapping[str, Any]) -> list[str]:
    """The cards the event chooses for effects that say "of your choice", in order."""
    targets = ev.get("targets")
    if not targets:  # most events choose nothing
        return []
    if isinstance(targets, list):
        for t in targets:
            if not isinstance(t, str):
                break
        else:
            return list(targets)
    raise E.BadEvent(E.BAD_FIELD.format(type=ev.get("type"), field="targets", why="a list of card ids"))


def seat_of(ev: Mapping[str, Any]) -> int:
    """The event's seat number."""
    seat = ev.get("seat")
    if seat.__class__ is int:  # the common case without `field`'s call
        return seat  # type: ignore[no-any-return]
    return field(ev, "seat", int, "the seat number, 1 to 4")


def with_res(club: Club, resource: str, delta: int) -> Club:
    """Add (or remove, never below 0) markers of one resource."""
    i = RES_INDEX[resource]
    res = [*club.res]
    value = res[i] + delta
    res[i] = value if value > 0 else 0
    values = [*club]  # evolve1(club, "res", ...) without its call: a club's resources change on most events
    values[_RES] = (res[0], res[1], res[2], res[3])
    return _new(Club, values)  # type: ignore[no-any-return]


def quad_add(a: Quad, b: Quad, sign: int = 1) -> Quad:
    """Element-wise a + sign*b."""
    return (a[0] + sign * b[0], a[1] + sign * b[1], a[2] + sign * b[2], a[3] + sign * b[3])


def quad_of(cost: Mapping[str, int]) -> Quad:
    """A {resource: amount} mapping as a 4-tuple."""
    out = [0, 0, 0, 0]
    for name, amount in cost.items():
        out[RES_INDEX[name]] += amount
    return (out[0], out[1], out[2], out[3])


def describe_quad(q: Quad) -> str:
    """Resources in words, e.g. "3 Budget and 1 Fitness" ("nothing" when empty)."""
    parts = [f"{n} {STATS[i].capitalize()}" for i, n in enumerate(q) if n]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def pay(club: Club, cost: Quad, what: str) -> Club:
    """Pay a cost from the club's supply, or raise NotEnoughResources naming what is missing."""
    res = club.res
    if cost[0] > res[0] or cost[1] > res[1] or cost[2] > res[2] or cost[3] > res[3]:
        raise E.NotEnoughResources(
            E.NOT_ENOUGH.format(seat=club.seat, what=what, cost=describe_quad(cost), have=describe_quad(club.res))
        )
    values = [*club]  # evolve1(club, "res", quad_add(res, cost, -1)) without their calls
    values[_RES] = (res[0] - cost[0], res[1] - cost[1], res[2] - cost[2], res[3] - cost[3])
    return _new(Club, values)  # type: ignore[no-any-return]


def move_stat(tx: Tx, club: Club, stat: str, steps: int) -> Club:
    """Move a Stat marker; each step past the top and below 1 does what the seat's board says (the rulebook's:
    gain the resource; lose it, or 1 €, or nothing)."""
    board = tx.board(club.seat)
    i = RES_INDEX[stat]
    level = club.stats[i]
    target = level + steps
    new_level = min(max(target, 1), board.stat_max)
    stats = [*club.stats]
    stats[i] = new_level
    club = evolve1(club, "stats", (stats[0], stats[1], stats[2], stats[3]))
    over = target - board.stat_max if target > board.stat_max else 0
    under = 1 - target if target < 1 else 0
    fields: dict[str, Any] = {}
    if over:
        club, fields = _past_top(club, stat, over, board.stat_past_top)
    if under:
        club, fields = _below_bottom(club, stat, under, board.stat_below_bottom)
    if tx.quiet:
        return club
    text = f"Seat {club.seat}'s {stat.capitalize()} Stat moves from {level} to {new_level}"
    if over:
        text += " and the club gains " + _amounts(fields["gained"], stat) + " for the steps past the top"
    if under:
        if board.stat_below_bottom == StatStep(own=1, instead=1):
            text += f" and the club loses {under} {stat.capitalize()} (or €) for the steps below 1"
        else:
            text += " and the club loses " + (_amounts(fields["lost"], stat) or "nothing") + " for the steps below 1"
    tx.say("stat", club.seat, text + ".", stat=stat, before=level, after=new_level, over=over, under=under, **fields)
    return club


def _amounts(amounts: Mapping[str, int], stat: str) -> str:
    """Resources and VP tokens in words, e.g. "1 Fitness and 1 Budget" ("nothing" when empty)."""
    words = [f"{n} {'VP token(s)' if what == 'vp' else what.capitalize()}" for what, n in amounts.items() if n]
    return " and ".join(words) or "nothing"


def _past_top(club: Club, stat: str, over: int, step: StatStep) -> tuple[Club, dict[str, Any]]:
    """Each step past the top gains the board's amounts: the Stat's own resource, €, VP tokens."""
    gained: dict[str, int] = {}
    for what, n in ((stat, step.own), ("budget", step.budget)):
        if n:
            club = with_res(club, what, n * over)
            gained[what] = gained.get(what, 0) + n * over
    if step.vp:
        club = evolve(club, vp_tokens=club.vp_tokens + step.vp * over)
        gained["vp"] = step.vp * over
    return club, {"gained": gained}


def _below_bottom(club: Club, stat: str, under: int, step: StatStep) -> tuple[Club, dict[str, Any]]:
    """Each step below 1 loses the Stat's own resource (for each one missing, ``instead`` €), and € besides."""
    i = RES_INDEX[stat]
    lost: dict[str, int] = {}

    def lose(what: str, n: int) -> None:
        nonlocal club
        n = min(n, club.res[RES_INDEX[what]])
        if n:
            club = with_res(club, what, -n)
            lost[what] = lost.get(what, 0) + n

    for _ in range(under):
        for _ in range(step.own):
            if club.res[i] > 0:
                lose(stat, 1)
            else:
                lose("budget", step.instead)
        lose("budget", step.budget)
    return club, {"lost": lost}


def side_of(tx: Tx, held: Held, club: Club | None = None) -> PlayerSide:
    """The face a footballer card a club holds shows now: its up side, as the game's modules change it."""
    card: PlayerCard = tx.profile.cards[held.id]  # type: ignore[assignment]
    side = card.trained if held.trained else card.untrained
    rules = tx.rules
    if not rules.faces:  # no module changes a footballer's face
        return side
    return rules.footballer(tx, club, held, side)  # type: ignore[attr-defined,no-any-return]


def replace_held(club: Club, held: Held) -> Club:
    """Store a changed footballer or Staff card on the club."""
    card_id = held.id
    i = _PLAYERS
    cards = club.players
    for h in cards:
        if h.id == card_id:
            break
    else:
        i = _STAFF
        cards = club.staff
    changed = [*cards]
    k = 0
    for h in cards:  # every card with that id, as a comprehension would, without its call
        if h.id == card_id:
            changed[k] = held
        k += 1
    values = [*club]  # evolve1(club, "players" or "staff", ...) without its call
    values[i] = tuple(changed)
    return _new(Club, values)  # type: ignore[no-any-return]


def owner_of(state: State, card_id: str) -> Club | None:
    """The club holding a card anywhere on its boards (footballer, Staff, Director, Sponsor, Objective...)."""
    clubs = state.clubs
    kept = _OWNERS[0]
    if kept[0] is clubs:
        owners = kept[1]
        if owners.__class__ is dict:
            if card_id.__class__ is str:
                return owners.get(card_id)  # type: ignore[no-any-return]
        elif owners >= 2:  # asked a third time about the same clubs (a deck searched card by card): index them once
            owners = _owners(clubs)
            _OWNERS[0] = (clubs, owners)
            if card_id.__class__ is str:
                return owners.get(card_id)
        else:
            _OWNERS[0] = (clubs, owners + 1)
    else:
        _OWNERS[0] = (clubs, 1)
    for c in clubs:
        for h in c.players:  # `Club.held` without its call (the checks below have no order to keep)
            if h.id == card_id:
                return c
        for h in c.staff:
            if h.id == card_id:
                return c
        if (
            card_id in c.directors
            or card_id in c.opponents
            or card_id in c.tactics
            or card_id in c.adboards
            or card_id == c.shirt
            or card_id == c.objective
            or card_id == c.board_card
        ):
            return c
    return None


#: Where a club keeps a card of each kind that is neither a footballer nor a Staff card (those are `Held`): the
#: fields to look in (a Sponsor contracted on a megaphone is discarded: the Sponsor rules look in `megaphones` apart).
_KEPT_IN: Final = {"director": ("directors",), "opponent": ("opponents",), "tactic": ("tactics",),
                   "objective": ("objective",), "board_meeting": ("board_card",), "sponsor": ("adboards", "shirt")}
_FOOTBALLER_KINDS: Final = frozenset({"player", "veteran", "youngster"})


def holder_of(clubs: tuple[Club, ...], card_id: str, kind: str) -> Club | None:
    """`owner_of` looked for only where a card of ``kind`` can lie: among the clubs' footballers (a Player,
    Veteran or Youngster), among their Staff, or in the fields a club keeps that kind in."""
    if kind == "staff" or kind in _FOOTBALLER_KINDS:
        for c in clubs:
            for h in (c.staff if kind == "staff" else c.players):
                if h.id == card_id:
                    return c
        return None
    fields = _KEPT_IN[kind]
    for c in clubs:
        for where in fields:
            kept = getattr(c, where)
            if kept == card_id or (kept.__class__ is tuple and card_id in kept):
                return c
    return None


#: The clubs `owner_of` was last asked about, with how many times it was, or once asked thrice every card they hold
#: by id.
_OWNERS: list[tuple[Any, int | dict[Any, Club]]] = [((), 0)]


def _owners(clubs: tuple[Club, ...]) -> dict[Any, Club]:
    """Each card the clubs hold anywhere on their boards, with the first club (in seat order) holding it."""
    out: dict[Any, Club] = {}
    add = out.setdefault
    for c in clubs:
        for h in c.players:
            add(h.id, c)
        for h in c.staff:
            add(h.id, c)
        for group in (c.directors, c.opponents, c.tactics, c.adboards):
            for card_id in group:
                add(card_id, c)
        add(c.shirt, c)
        add(c.objective, c)
        add(c.board_card, c)
    return out


_SEAT = attrgetter("seat")


def turn_order(state: State) -> list[int]:
    """Seats in playing order this week, from the First player clockwise (rising seat numbers)."""
    seats = sorted(map(_SEAT, state.clubs))
    if state.first_seat in seats:
        k = seats.index(state.first_seat)
        seats = seats[k:] + seats[:k]
    return seats


def unavailable(club: Club, card_id: str) -> bool:
    """True while a card or token of the club carries Injury or Suspension tokens (its actions and features are off)."""
    held = club.held(card_id)
    if held is not None:
        return held.injury > 0 or held.suspension > 0  # `Held.unavailable` without the property's call
    return club.suspension_on(card_id) > 0


def suspend_other(club: Club, card_id: str, delta: int) -> Club:
    """Add (or remove) Suspension tokens on a Director or an Infrastructure token of the club."""
    tokens = max(0, club.suspension_on(card_id) + delta)
    rest = tuple(s for s in club.suspended if s[0] != card_id)
    return evolve(club, suspended=rest + ((card_id, tokens),) if tokens else rest)


def flip_markers(club: Club, sides: dict[int, str]) -> Club:
    """Record the side numbered jersey markers now show (a card hired or played flips its number's marker)."""
    if not sides:
        return club
    kept = tuple([m for m in club.markers if m[0] not in sides])
    return evolve1(club, "markers", tuple(sorted(kept + tuple(sides.items()))))


def card_marker(profile: Profile, card_id: str, trained: bool = False) -> dict[int, str]:
    """The marker side a footballer card shows for its number ({} when its number has no printed marker)."""
    side = profile.cards[card_id].side(trained)  # type: ignore[attr-defined]
    return {side.jersey: side.style} if side.jersey in profile.board.pitch.jerseys else {}


def set_mod(club: Club, name: str, delta: int) -> Club:
    """Add to a running modifier (removed when it reaches 0)."""
    value: int | None = None
    kept: list[tuple[str, int]] = []
    for m in club.mods:  # `Club.mod` and the others kept in one pass, without calls
        if m[0] != name:
            kept.append(m)
        elif value is None:
            value = m[1]
    value = delta if value is None else value + delta
    if value:
        kept.append((name, value))
    values = [*club]  # evolve(club, mods=...) without its call
    values[_MODS] = tuple(kept)
    return _new(Club, values)  # type: ignore[no-any-return]
