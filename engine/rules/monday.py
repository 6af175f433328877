"""Monday (rulebook, Mon: Production, Board meeting): every club produces by its Stat levels, then each holds its
Board meeting: a card, a d6, and the decision most of its Directors vote for."""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

from engine import errors as E
from engine.cards import STATS, Ability, BoardMeeting
from engine.rules.abilities import card_abilities
from engine.rules.context import event_targets, field, holder_of, seat_of
from engine.rules.effects import Ctx, apply_abilities, apply_effects, applying, applying_any
from engine.state import Club, Pending, State, evolve, evolve1
from engine.tx import Tx


def _lasting(mods: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """The running modifiers that outlast the round (the same tuple when none ends: what is kept for the club's
    cards stays valid)."""
    if all(not name.endswith(":round") for name, _ in mods):
        return mods
    return tuple([m for m in mods if not m[0].endswith(":round")])


def begin_monday(tx: Tx) -> None:
    """Monday of a week: reset the week's markers, Production for every club, then the Board meetings."""
    week = tx.state.week
    clubs = tuple([_new_week(c) for c in tx.state.clubs])
    tx.state = evolve(tx.state, turn=0, clubs=clubs)
    if not tx.quiet:
        tx.say("week", None, f"Week {week} begins: Monday, Production and the Board meetings.", week=week, first_seat=tx.state.first_seat)
    for club in tx.state.clubs:
        table = tx.board(club.seat).production_by_stat
        gained = tuple([table[stat][level - 1] for stat, level in zip(STATS, club.stats)])  # as `Board.produce`
        club = tx.put(evolve1(club, "res", (club.res[0] + gained[0], club.res[1] + gained[1], club.res[2] + gained[2], club.res[3] + gained[3])))
        if not tx.quiet:
            words = ", ".join(f"{n} {STATS[i].capitalize()}" for i, n in enumerate(gained))
            tx.say("production", club.seat, f"Seat {club.seat} produces {words}.", gained=dict(zip(STATS, gained)))
        sources = card_abilities(tx, club)
        # the Production keyword (003 l.283): "On Monday, during Production, resolve their effects"
        for source, ability in _production(sources):
            name = tx.kind_name(source, club.seat)
            if not tx.quiet:
                said = ability.text or "Production."
                tx.say("token_production", club.seat, f"Seat {club.seat}'s {name} — {said}", infrastructure=source, name=name)
            apply_effects(tx, ability.effects, Ctx(seat=club.seat, source=source, label=name))
        if "monday" in applying_any(sources):  # else no card of the club applies anything on Monday
            for source, abilities in sources:
                if "monday" in applying(abilities)[0]:
                    apply_abilities(tx, abilities, "monday", Ctx(seat=club.seat, source=source, label=tx.name(source)))


def _production(sources: tuple[tuple[str, tuple[Ability, ...]], ...]) -> tuple[tuple[str, Ability], ...]:
    """The abilities with the Production keyword among a club's cards' (kept per answer of `card_abilities`, the
    same object while the club's cards are)."""
    found = _PRODUCTION.get(id(sources))
    if found is not None and found[0] is sources:
        return found[1]
    found = []
    for source, abilities in sources:  # loops, not a generator: asked for every club every week
        for a in abilities:
            if a.timing == "production":
                found.append((source, a))
    out = tuple(found)
    if len(_PRODUCTION) > 256:
        _PRODUCTION.clear()
    _PRODUCTION[id(sources)] = (sources, out)
    return out


_PRODUCTION: dict[int, tuple[Any, tuple[tuple[str, Ability], ...]]] = {}


#: What a new week puts back on every club: its turn, Board meeting, lineup and match (the running modifiers that
#: end with the round go too: `_lasting`).
NEW_WEEK: Final = {"acted": False, "free_used": 0, "board_card": None, "board_done": False, "lineup": None, "stands": 0,
                   "tactic_played": None, "goals": 0, "conceded": 0, "result": None, "consequence_done": False,
                   "opp_mods": ()}
_NEW_WEEK_AT = tuple((Club._fields.index(name), value) for name, value in NEW_WEEK.items())
_MODS = Club._fields.index("mods")


def _new_week(club: Club) -> Club:
    """The club as a new week begins (`evolve` with `NEW_WEEK`, its fields set by place: four clubs every week)."""
    values = [*club]
    for i, value in _NEW_WEEK_AT:
        values[i] = value
    values[_MODS] = _lasting(club.mods)
    return tuple.__new__(Club, values)  # type: ignore[no-any-return]


def monday_over(tx: Tx) -> bool:
    """Monday ends once every club's Board meeting is decided (and nothing else is awaited)."""
    return all(c.board_done for c in tx.state.clubs)


def monday_awaiting(state: State) -> list[dict[str, Any]]:
    """Each club without a Board meeting card yet."""
    return [{"seat": c.seat, "need": "card", "kinds": ["board_meeting"]} for c in state.clubs if c.board_card is None]


def on_board_meeting(tx: Tx) -> None:
    """A club's Board meeting card is revealed; the engine then awaits its d6."""
    ev = tx.event
    seat = seat_of(ev)
    if tx.state.stage != "monday":
        raise E.WrongStage(E.WRONG_STAGE.format(seat=seat, what="hold a Board meeting", stage=tx.stage_name(), expected="and Board meetings happen on Monday"))
    club = tx.club(seat)
    card: BoardMeeting = tx.card(field(ev, "card", str, "the id of the Board meeting card drawn"), "board_meeting")
    if club.board_card is not None:
        raise E.NotAllowed(E.ALREADY_BOARD_CARD.format(seat=seat, name=tx.name(club.board_card)))
    other = holder_of(tx.state.clubs, card.id, "board_meeting")
    if other is not None:
        raise E.NotAllowed(E.CARD_TAKEN.format(name=card.name, seat=other.seat))
    tx.put(evolve1(club, "board_card", card.id), tx.state.pending + (Pending("roll", seat, "board_meeting", "d6", True),))
    if not tx.quiet:
        tx.say("board_meeting_card", seat, f"Seat {seat}'s Board meeting: {card.name}. Roll the d6.", card=card.id)


def _tally(tx: Tx, club: Club, card: BoardMeeting, face: int) -> tuple[dict[str, str], list[str]]:
    """Each Director's vote on a face, and the decisions with the most votes among those the card shows (a vote
    for a colour the card does not show counts for no decision)."""
    # the same card, Directors and face always tally alike: each tally is kept (read-only) for the deck it came from
    key = (card.id, club.directors, face)
    kept = _TALLIES.get(key)
    if kept is not None and kept[0] is tx.profile:
        return kept[1]
    votes = {d: tx.profile.cards[d].vote(face) for d in club.directors}  # type: ignore[attr-defined]
    shown = [d.colour for d in card.decisions]
    tally = Counter(c for c in votes.values() if c in shown)
    top = max(tally.values(), default=0)
    # no valid vote at all: every decision ties at none
    leaders = [c for c in shown if tally[c] == top]
    if len(_TALLIES) > 4096:
        _TALLIES.clear()
    _TALLIES[key] = (tx.profile, (votes, leaders))
    return votes, leaders


#: Tallies by (Board meeting card, Directors, face): (the deck, (votes, leaders)).
_TALLIES: dict[tuple[str, tuple[str, ...], int], tuple[Any, tuple[dict[str, str], list[str]]]] = {}


def board_meeting_roll(tx: Tx, pending: Pending, value: int) -> None:
    """Each Director votes for the rolled result; the majority decision's effects apply; a tie is rerolled free."""
    seat = pending.seat
    assert seat is not None
    club = tx.club(seat)
    card: BoardMeeting = tx.profile.cards[club.board_card]  # type: ignore[index,assignment]
    votes, leaders = _tally(tx, club, card, value)
    if len(leaders) > 1 and not _always_tied(tx, club, card):
        tx.put_pending(tx.state.pending + (Pending("roll", seat, "board_meeting", "d6", True),))
        if not tx.quiet:
            tx.say(
                "board_meeting_tie", seat, f"Seat {seat} rolled {value}: the Directors' votes are tied ({', '.join(leaders)}). Reroll the d6 for free.",
                roll=value, votes=dict(votes), decision=None,
            )
        return
    # when no face of the die can break the tie, the first Director kept among those tied decides
    colour = leaders[0] if len(leaders) == 1 else next((votes[d] for d in club.directors if votes[d] in leaders), None)
    decision = card.decision(colour) if colour else None
    if not tx.quiet:
        title = decision.title if decision else "no decision"
        names = {d: tx.name(d) for d in club.directors}
        vote_words = ", ".join(f"{names[d]} votes {c}" for d, c in votes.items())
        won = f"the {colour} decision wins — {title}" if decision else "no decision gets a vote, so nothing happens"
        tx.say(
            "board_meeting", seat, f"Seat {seat} rolled {value} at the Board meeting ({vote_words}): {won}.",
            roll=value, votes=dict(votes), decision=colour if decision else None, title=title, card=card.id,
        )
    tx.put(evolve1(tx.club(seat), "board_done", True))
    if decision is not None:
        apply_effects(tx, decision.effects, Ctx(seat=seat, source=card.id, label=card.name, targets=event_targets(tx.event)))


def _always_tied(tx: Tx, club: Club, card: BoardMeeting) -> bool:
    """True when the club's Directors tie on every face of the d6, so rerolling could never end."""
    return all(len(_tally(tx, club, card, face)[1]) > 1 for face in range(1, 7))
