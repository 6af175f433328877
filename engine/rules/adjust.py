"""The table's corrections: any tracked number changed by hand, with a reason (also how ``text`` effects are
recorded once the table has resolved them)."""

from __future__ import annotations


from engine import errors as E
from engine.cards import STATS
from engine.rules.context import field, replace_held, suspend_other, with_res
from engine.rules.league import move_team
from engine.state import evolve
from engine.tx import Tx

CLUB_FIELDS = ("vp_tokens", "points", "goals", "conceded", "office")
CARD_FIELDS = ("injury", "suspension", "vp", "strength_temp", "strength_perm", "trained", "exhausted")
ADJUSTABLE = STATS + tuple(f"stat:{s}" for s in STATS) + CLUB_FIELDS + CARD_FIELDS + ("team_points",)


def on_adjust(tx: Tx) -> None:
    """Change one tracked number by a delta (never below what the rules allow) and say why."""
    ev = tx.event
    what = field(ev, "what", str, "what to change: " + ", ".join(ADJUSTABLE))
    delta = field(ev, "delta", int, "how much to add (negative to remove)")
    reason = field(ev, "reason", str, "why, in a few words", default="correction")
    if what not in ADJUSTABLE:
        raise E.NotAllowed(E.ADJUST_UNKNOWN.format(what=what, known=", ".join(ADJUSTABLE)))
    if what == "team_points":
        team_id = field(ev, "team", str, "the Opponent team's id")
        team = tx.state.team(team_id)
        if team is None:
            raise E.NotAllowed(E.UNKNOWN_TEAM.format(team=team_id))
        _floor(team.points + delta, 0, "League points", team.points, None)
        move_team(tx, team_id, delta)
        tx.say("adjust", None, f"{tx.board(None).team(team_id).name}: League points {delta:+d} ({reason}).", what=what, delta=delta, reason=reason, team=team_id)
        return
    seat = field(ev, "seat", int, "the seat number")
    club = tx.club(seat)
    if what in STATS:
        have = club.res[STATS.index(what)]
        _floor(have + delta, 0, what.capitalize(), have, seat)
        club = with_res(club, what, delta)
    elif what.startswith("stat:"):
        i = STATS.index(what[5:])
        level = club.stats[i] + delta
        _floor(level, 1, f"{what[5:].capitalize()} Stat level", club.stats[i], seat)
        if level > tx.board(seat).stat_max:
            raise E.NotAllowed(E.STAT_ABOVE_TOP.format(stat=what[5:].capitalize(), top=tx.board(seat).stat_max))
        stats = list(club.stats)
        stats[i] = level
        club = evolve(club, stats=(stats[0], stats[1], stats[2], stats[3]))
    elif what in CLUB_FIELDS:
        have = getattr(club, what)
        _floor(have + delta, 0, what.replace("_", " "), have, seat)
        if what == "office" and have + delta > len(tx.board(seat).office):
            raise E.NotAllowed(E.OFFICE_TOP.format(seat=seat))
        club = evolve(club, **{what: have + delta})
    else:
        card_id = field(ev, "card", str, "the id of the card whose tokens change")
        held = club.held(card_id)
        if held is None and what == "suspension" and (card_id in club.directors or card_id in club.infrastructure):
            # a Director or an Infrastructure token (named by its kind) can carry Suspension tokens too
            have = club.suspension_on(card_id)
            _floor(have + delta, 0, "suspension", have, seat)
            tx.put(suspend_other(club, card_id, delta))
            name = tx.kind_name(card_id, seat)
            tx.say("adjust", seat, f"Seat {seat}: suspension on {name} {delta:+d} ({reason}).", what=what, delta=delta, reason=reason, card=card_id)
            return
        if held is None:
            raise E.NotAllowed(E.CARD_NOT_OWNED.format(seat=seat, name=tx.name(card_id)))
        if what in ("trained", "exhausted"):
            club = replace_held(club, evolve(held, **{what: delta > 0}))
        else:
            have = getattr(held, what)
            if not what.startswith("strength"):
                _floor(have + delta, 0, what.replace("_", " "), have, seat)
            club = replace_held(club, evolve(held, **{what: have + delta}))
    tx.put(club)
    on = f" on {tx.name(ev['card'])}" if what in CARD_FIELDS else ""
    tx.say("adjust", seat, f"Seat {seat}: {what.replace('_', ' ')}{on} {delta:+d} ({reason}).", what=what, delta=delta, reason=reason, card=ev.get("card"))


def _floor(value: int, low: int, what: str, have: int, seat: int | None) -> None:
    if value < low:
        raise E.NotAllowed(E.ADJUST_BELOW.format(seat=seat, low=low, what=what, have=have))
