"""Referee rules (003 l.60–98): before each club's match the table rolls a d6 (which referee) and a d12 (which tags
he watches) against the Referee table, and the cell's effects fall on the club's assigned footballers with those tags.

The table is data (``referee.toml`` in the deck folder): the tags and their names (003 l.82, l.98), the three tags
each d12 face names, and for each of the six referees what each d12 face does, as effects of the ops below.  The
leaflet's icons are lost from its text, so each cell is a reading written in engine/RULES.md ("Referee"), and an
owner corrects a cell by editing the data.

When: after a club's lineup (and its effects after the reveal) the seat rolls the d6, then the d12; each may be
rerolled for 1 Fanbase as usual (003 l.64).  The kick-off, the club's match abilities and its Tactic card wait for
both.  Effects "before the match" happen once both are kept; then come the club's own effects before the match and
the cards sitting out shed a token (`finish_before_match`), so that the call covers them (Meticulous ignores a
tagged footballer's "before the match" roll).  A game of revision 1–2 resolves the club's own effects before the
match at the lineup, before the dice.  "This match" effects last until the End of the round, "after the match"
ones come after the result and before the Match consequence roll.  The referee sees the assigned footballers only:
those in the lineup.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, NamedTuple

from engine import errors as E
from engine import host
from engine.cards import Effect, OpSpec, Param, PlayerCard, PlayerSide
from engine.loader import CARD_FILES, FIELD_PROBLEM, DataError, Fields
from engine.rules.context import field, replace_held, seat_of, side_of, with_res
from engine.rules.effects import Ctx, ask_table
from engine.rules.league import move_team
from engine.rules.matchday import finish_before_match, footballers_by_id, resolve_zones
from engine.rules.suspension_and_injury import suspend
from engine.state import Pending, State, evolve, evolve1
from engine.tx import Tx

NAME: Final = "referee"
FILE: Final = "referee.toml"
REFEREES: Final = 6  # the d6
FACES: Final = 12  # the d12

# -- what the table says ----------------------------------------------------------------------------------------

ROLL_REFEREE: Final = "Seat {seat}: roll the d6 for your referee."
ROLL_TAGS: Final = "Seat {seat}: roll the d12 for the tags the referee watches."
CALLED: Final = "Seat {seat}'s referee is {referee} (d6 {d6}), watching {tags} (d12 {d12}): {text}"
NOBODY: Final = "Seat {seat}: no assigned footballer has {tags}: the referee's call changes nothing."
FOUL_DIE: Final = "Seat {seat}: roll the d6 for {name} ({tags}): on {at_least}+ the Opponent scores."
FOUL_GOAL: Final = "Seat {seat} rolled {value} for {name}: the referee gives the Opponent a goal ({goals}–{conceded})."
FOUL_NONE: Final = "Seat {seat} rolled {value} for {name}: no goal."
SCORE_AGAIN: Final = "{name} scored and scores again under this referee ({goals}–{conceded})."
NO_KEEPERS: Final = ("{names} ignore the Opponent's Goalkeepers this match (the Opponent cards here print no "
                     "Goalkeeper, so nothing changes).")
NO_EXPERIENCE: Final = "{name} fills no experience space this match (the referee)."
CHOOSE: Final = ("Seat {seat}: the referee puts {tokens} Suspension token(s) on one of {names} ({tags}): the club "
                 "chooses which.")
CHOOSE_SHORT: Final = "Referee suspends"
CHOOSE_HINT: Final = "Tap one of them"
NOT_CHOOSING: Final = "Seat {seat}: the referee waits for no choice of a footballer to suspend now."
NOT_FITTING: Final = "{name} is not an assigned footballer showing {tags}: the referee suspends one of {names}."
#: The event a club's choice of the footballer the referee suspends makes, and its need in ``awaiting``.
SUSPEND_EVENT: Final = "referee_suspend"
#: The first revision of the readings (engine/RULES.md, "Revisions") in which the game waits for that choice.
CHOICE_REVISION: Final = 2

# -- the data ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cell:
    """What one referee does on some d12 faces: its words and its effects."""

    faces: tuple[int, ...]
    text: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Referee:
    """One referee (a d6 face): its name and its cells, covering the d12's faces once each."""

    name: str
    cells: tuple[Cell, ...]

    def cell(self, face: int) -> Cell:
        """The cell of a d12 face."""
        return next(c for c in self.cells if face in c.faces)


@dataclass(frozen=True, slots=True)
class RefereeTable:
    """``referee.toml``: the tags (code -> name), the tags each d12 face names, the six referees in d6 order."""

    tags: Mapping[str, str]
    groups: tuple[tuple[str, ...], ...]
    referees: tuple[Referee, ...]


def _read(fields: Fields, cards: Mapping[str, Any]) -> RefereeTable:
    tags_f = fields.table("tags")
    tags = {code: tags_f.str(code) for code in tags_f.data}
    for code in tags:
        if not (len(code) == 3 and code.isalpha() and code.isupper()):
            tags_f.fail(code, "a tag is three capital letters, such as NBL")
    groups_raw = fields.list("groups", expected=f"a list of {FACES} lists of tags, one for each face of the d12")
    if len(groups_raw) != FACES:
        fields.wrong("groups", f"{FACES} lists of tags, one for each face of the d12", f"{len(groups_raw)} lists")
    groups = []
    for i, group in enumerate(groups_raw, start=1):
        if not isinstance(group, list) or not group or any(t not in tags for t in group):
            unknown = [t for t in group if t not in tags] if isinstance(group, list) else group
            fields.wrong(f"groups[{i}]", f"tags from [tags] ({', '.join(sorted(tags))})", unknown or group)
        groups.append(tuple(group))
    referees = []
    items = fields.list("referee", expected=f"{REFEREES} [[referee]] tables, one for each face of the d6")
    if len(items) != REFEREES:
        fields.wrong("referee", f"{REFEREES} [[referee]] tables, one for each face of the d6", f"{len(items)} tables")
    for i, item in enumerate(items, start=1):
        ref = Fields(fields.where, item, f"referee[{i}]")
        name = ref.str("name")
        cells = []
        seen: list[int] = []
        for j, raw in enumerate(ref.list("cells", expected="a list of cells { faces, text, effects }"), start=1):
            cell = Fields(fields.where, raw, f"referee[{i}].cells[{j}]")
            faces = cell.ints("faces", 1, FACES)
            cells.append(Cell(faces, cell.str("text"), cell.effects("effects")))
            cell.done()
            seen.extend(faces)
        if sorted(seen) != list(range(1, FACES + 1)):
            ref.wrong("cells", f"cells covering each d12 face 1–{FACES} once", sorted(seen))
        ref.done()
        referees.append(Referee(name, tuple(cells)))
    fields.done()
    for card in cards.values():  # every tag printed on a footballer must be one the table knows
        if isinstance(card, PlayerCard):
            for side in (card.untrained, card.trained):
                unknown = [t for t in side.tags if t not in tags]
                if unknown:
                    raise DataError(FIELD_PROBLEM.format(
                        where=f"{CARD_FILES[card.kind]}, card {card.id}", field="tags",
                        problem=f'unknown tag "{unknown[0]}": the tags are those of {FILE} ({", ".join(sorted(tags))})'))
    return RefereeTable(tags, tuple(groups), tuple(referees))


def table_of(profile: Any) -> RefereeTable:
    """The deck's Referee table."""
    return profile.module_data[NAME][FILE]  # type: ignore[no-any-return]


# -- the state --------------------------------------------------------------------------------------------------


class Calls(NamedTuple):
    """Each club's referee this round: (seat, d6, d12), a 0 while that die is not kept yet."""

    calls: tuple[tuple[int, int, int], ...] = ()
    scored: tuple[tuple[int, tuple[str, ...]], ...] = ()  # (seat, the cards that scored this match)

    def of(self, seat: int) -> tuple[int, int]:
        """The seat's d6 and d12 (0 while not rolled)."""
        for s, d6, d12 in self.calls:
            if s == seat:
                return d6, d12
        return 0, 0


def _calls(state: State) -> Calls:
    return state.slice(NAME)  # type: ignore[no-any-return]


def _put(tx: Tx, seat: int, d6: int, d12: int) -> None:
    mine = _calls(tx.state)
    rest = [c for c in mine.calls if c[0] != seat]
    rest.append((seat, d6, d12))
    tx.put_slice(NAME, evolve1(mine, "calls", tuple(sorted(rest))))


def called(profile: Any, state: State, seat: int) -> tuple[Referee, Cell, tuple[str, ...]] | None:
    """The referee of the seat's match, the cell his d12 names and its tags; None until both dice are kept."""
    mine = _calls(state)
    if not mine.calls:
        return None
    return _seat(profile, mine, seat)[0]


def _face_change(tx: Tx, seat: int) -> tuple[str, tuple[str, ...]] | None:
    """How the seat's referee changes its tagged footballers' faces: ("tagged_ignore" or "tagged_free", the tags), or
    None (no referee called, or his cell changes no face)."""
    mine = _calls(tx.state)
    if not mine.calls:
        return None
    return _seat(tx.profile, mine, seat)[1]


Call = tuple[Referee, Cell, tuple[str, ...]]
FaceChange = tuple[str, tuple[str, ...]]


def _seat(profile: Any, mine: Calls, seat: int) -> tuple[Call | None, FaceChange | None, frozenset[str]]:
    """The seat's call (referee, cell, tags), how it changes faces and the ops of its cell (None, None and none
    until both dice are kept); kept for the seat while the calls (and deck) stay the same: asked for every
    footballer's face and each lasting cell."""
    kept = _SEATS.get(seat)
    if kept is not None and kept[0] is mine and kept[1] is profile:
        return kept[2]
    out: tuple[Call | None, FaceChange | None, frozenset[str]] = _NO_CALL
    d6, d12 = mine.of(seat)
    if d6 and d12:
        table = table_of(profile)
        key = (id(table), d6, d12)
        found = _CALLED.get(key)
        if found is None or found[0] is not table:
            referee = table.referees[d6 - 1]
            cell = referee.cell(d12)
            tags = table.groups[d12 - 1]
            ops = frozenset(e.op for e in cell.effects)
            op = next((o for o in ("tagged_ignore", "tagged_free") if o in ops), None)
            found = _CALLED[key] = (table, ((referee, cell, tags), (op, tags) if op is not None else None, ops))
        out = found[1]
    _SEATS[seat] = (mine, profile, out)
    return out


_NO_CALL: Final[tuple[None, None, frozenset[str]]] = (None, None, frozenset())
#: A call read from a table once: (the table, ((referee, cell, tags), face change, ops)) by (table, d6, d12); tables
#: never change.
_CALLED: dict[tuple[int, int, int], tuple[RefereeTable, tuple[Call, FaceChange | None, frozenset[str]]]] = {}
#: Each seat's latest answer of `_seat`, kept with the calls (and deck) it was read from.
_SEATS: dict[int, tuple[Calls, Any, tuple[Call | None, FaceChange | None, frozenset[str]]]] = {}


def _tagged(tx: Tx, seat: int, tags: tuple[str, ...]) -> list[Any]:
    """The club's assigned footballers (in the lineup) whose face shows one of the tags, in lineup order."""
    club = tx.club(seat)
    out = []
    wanted = set(tags)
    cards = tx.profile.cards
    by_id = footballers_by_id(club.players)
    for p in club.lineup or ():
        card_id = p.card
        if card_id is None:
            continue
        held = by_id.get(card_id) or club.held(card_id)
        if held is not None:
            card = cards[held.id]  # `_printed` without its call
            if not wanted.isdisjoint(card.trained.tags if held.trained else card.untrained.tags):
                out.append(held)
    return out


def _printed(tx: Tx, held: Any) -> PlayerSide:
    card: PlayerCard = tx.profile.cards[held.id]  # type: ignore[assignment]
    return card.trained if held.trained else card.untrained


# -- the rolls --------------------------------------------------------------------------------------------------


def _before_match(tx: Tx, seat: int) -> None:
    _put(tx, seat, 0, 0)
    tx.put_pending(tx.state.pending + (Pending("roll", seat, "referee", "d6", True),))
    if not tx.quiet:
        tx.say("await_roll", seat, ROLL_REFEREE.format(seat=seat), die="d6", purpose="referee")


def _referee_roll(tx: Tx, pending: Pending, value: int) -> None:
    seat = pending.seat
    assert seat is not None
    _put(tx, seat, value, 0)
    tx.put_pending((Pending("roll", seat, "referee_tags", "d12", True),) + tx.state.pending)
    if not tx.quiet:
        tx.say("await_roll", seat, ROLL_TAGS.format(seat=seat), die="d12", purpose="referee_tags")


def _tags_roll(tx: Tx, pending: Pending, value: int) -> None:
    seat = pending.seat
    assert seat is not None
    _call(tx, seat, value)
    finish_before_match(tx, seat)  # the club's own effects before the match and step 4, under the call


def _call(tx: Tx, seat: int, value: int) -> None:
    """The d12 kept: the call announced and its cell's effects before the match applied."""
    d6, _ = _calls(tx.state).of(seat)
    _put(tx, seat, d6, value)
    found, _, ops = _seat(tx.profile, _calls(tx.state), seat)
    assert found is not None
    if tx.quiet and ops.isdisjoint(BEFORE):
        return  # a replay: nothing to say, and the cell does nothing before the match
    referee, cell, tags = found
    words = "/".join(tags)
    if not tx.quiet:
        tx.say("referee", seat, CALLED.format(seat=seat, referee=referee.name, d6=d6, tags=words, d12=value, text=cell.text),
               referee=referee.name, d6=d6, d12=value, tags=list(tags), effects=[e.to_dict() for e in cell.effects])
    if not _tagged(tx, seat, tags):
        if not tx.quiet:
            tx.say("no_effect", seat, NOBODY.format(seat=seat, tags=words))
        return
    for effect in cell.effects:
        if effect.op in BEFORE:
            BEFORE[effect.op](tx, seat, tags, effect)


def _foul_roll(tx: Tx, pending: Pending, value: int) -> None:
    seat = pending.seat
    assert seat is not None
    at_least = int(pending.count or 6)
    name = tx.name(pending.ref)
    if value >= at_least:
        club = tx.club(seat)
        _rescore(tx, seat, 0, 1)
        club = tx.club(seat)
        tx.say("referee_goal", seat, FOUL_GOAL.format(seat=seat, value=value, name=name, goals=club.goals,
                                                       conceded=club.conceded), card=pending.ref, roll=value)
    else:
        tx.say("no_effect", seat, FOUL_NONE.format(seat=seat, value=value, name=name), card=pending.ref, roll=value)


def _rescore(tx: Tx, seat: int, scored: int, conceded: int) -> None:
    """Goals after the result: the result, the League points and the Opponent team's points follow them."""
    club = tx.club(seat)
    board = tx.board(None)
    points = board.points_by_result
    their = {"win": "loss", "loss": "win", "draw": "draw"}
    goals, against = club.goals + scored, club.conceded + conceded
    result = "win" if goals > against else "draw" if goals == against else "loss"
    old = club.result or result
    team = tx.profile.cards[club.opponents[tx.state.week - 1]].team  # type: ignore[attr-defined]
    if result != old:
        move_team(tx, team, points[their[result]] - points[their[old]])
    tx.put(evolve(club, goals=goals, conceded=against, result=result, points=club.points + points[result] - points[old]))


# -- the cells' ops ---------------------------------------------------------------------------------------------


def _strength(tx: Tx, seat: int, tags: tuple[str, ...], effect: Effect) -> None:
    amount = int(effect["amount"])
    club = tx.club(seat)
    for held in _tagged(tx, seat, tags):
        club = replace_held(club, evolve(held, strength_temp=held.strength_temp + amount))
        if not tx.quiet:
            tx.say("strength", seat, f"{tx.name(held.id)} gets a {amount:+d} Strength token this match (the referee).",
                   card=held.id, amount=amount)
    tx.put(club)


def _suspend(tx: Tx, seat: int, tags: tuple[str, ...], effect: Effect) -> None:
    players = {h.id for h in tx.club(seat).players}
    fit = [h for h in _tagged(tx, seat, tags) if h.id in players]
    tokens = int(effect.get("tokens", 1))
    if len(fit) <= 1:
        if fit:
            tx.put(suspend(tx, tx.club(seat), fit[0], tokens, "the referee"))
        return
    cards = tuple(h.id for h in fit)
    names = ", ".join(tx.name(c) for c in cards)
    if tx.state.game.revision < CHOICE_REVISION:
        # a game begun before the choice was the club's to tap: the table settles it by hand, as it was recorded
        ask_table(tx, Ctx(seat=seat, label="Referee"), f"put {tokens} Suspension token(s) on one of {names} "
                  "(the club chooses)", effect=effect.to_dict())
        return
    # "a Player card": one of them, the club's choice (engine/RULES.md, Referee); the game waits for it
    text = CHOOSE.format(seat=seat, tokens=tokens, names=names, tags="/".join(tags))
    short = [tx.name(c).split()[-1] for c in cards]  # the names a seat's screen has room for
    about = " or ".join(short if len(set(short)) == len(short) else [tx.name(c) for c in cards])
    info = (("text", text), ("short", CHOOSE_SHORT), ("about", about), ("hint", CHOOSE_HINT), ("cards", cards),
            ("tokens", tokens), ("tags", tags), ("tap", {"type": SUSPEND_EVENT, "seat": seat}))
    tx.put_pending(tx.state.pending + (Pending(SUSPEND_EVENT, seat, count=tokens, info=info),))
    if not tx.quiet:
        tx.say(SUSPEND_EVENT, seat, text, cards=list(cards), tokens=tokens)


def _on_suspend(tx: Tx) -> None:
    """``referee_suspend``: the footballer the club chooses for the referee's Suspension token(s) among those fitting."""
    ev = tx.event
    seat = seat_of(ev)
    card = field(ev, "card", str, "the id of the footballer the referee suspends")
    need = next((p for p in tx.state.pending if p.need == SUSPEND_EVENT and p.seat == seat), None)
    if need is None:
        raise E.NotAllowed(NOT_CHOOSING.format(seat=seat))
    info = dict(need.info)
    cards = tuple(info["cards"])
    if card not in cards:
        name = tx.name(card) if card in tx.profile.cards else card
        raise E.NotAllowed(NOT_FITTING.format(name=name, names=", ".join(tx.name(c) for c in cards),
                                              tags="/".join(info["tags"])))
    club = tx.club(seat)
    held = club.held(card)
    assert held is not None
    tx.put(suspend(tx, club, held, need.count, "the referee"))
    tx.put_pending(tuple(p for p in tx.state.pending if p is not need))


def _awaited(state: State) -> list[Pending]:
    return [p for p in state.pending if p.need == SUSPEND_EVENT]


def _candidates(profile: Any, state: State, need: Mapping[str, Any]) -> list[dict[str, Any]]:
    if need.get("need") != SUSPEND_EVENT:
        return []
    return [{"type": SUSPEND_EVENT, "seat": need["seat"], "card": c} for c in need.get("cards", ())]


def _asks(profile: Any, state: State) -> list[dict[str, Any]]:
    """The page's one step for each club the referee waits for: one option per footballer that fits."""
    asks = []
    for p in _awaited(state):
        info = dict(p.info)
        names = {c: profile.cards[c].name for c in info["cards"]}
        club = state.club(p.seat)
        asks.append({"seat": p.seat, "need": SUSPEND_EVENT,
                     "title": f"Seat {p.seat} ({club.name}): who does the referee suspend?",
                     "hint": str(info["text"]),
                     "options": [{"label": f"Suspend {names[c]} ({p.count} token(s))",
                                  "event": {"type": SUSPEND_EVENT, "seat": p.seat, "card": c}} for c in info["cards"]]})
    return asks


def _foul_dice(tx: Tx, seat: int, tags: tuple[str, ...], effect: Effect) -> None:
    at_least = int(effect.get("at_least", 6))
    rolls = []
    for held in _tagged(tx, seat, tags):
        rolls.append(Pending("roll", seat, "referee_foul", "d6", True, count=at_least, ref=held.id))
        tx.say("await_roll", seat, FOUL_DIE.format(seat=seat, name=tx.name(held.id), tags="/".join(tags),
                                                   at_least=at_least), die="d6", purpose="referee_foul", card=held.id)
    tx.put_pending(tuple(rolls) + tx.state.pending)


def _scorers(tx: Tx, seat: int, tags: tuple[str, ...]) -> list[Any]:
    """The assigned footballers with the tags who scored this match."""
    return [h for h in _tagged(tx, seat, tags) if h.id in _scored_cards(tx, seat)]


def _scored_cards(tx: Tx, seat: int) -> set[str]:
    return set(dict(_calls(tx.state).scored).get(seat, ()))


def _resolver(tx: Tx, seat: int) -> Any:
    """The match as the base rules resolve it, keeping who scored when the referee's call depends on it."""
    mine = _calls(tx.state)
    if not mine.calls or _seat(tx.profile, mine, seat)[2].isdisjoint(("tagged_scored_gain", "tagged_score_again")):
        return None
    club = tx.club(seat)
    opponent = tx.profile.cards[club.opponents[tx.state.week - 1]]
    zones, scorers = resolve_zones(tx, club, opponent)  # type: ignore[arg-type]
    mine = _calls(tx.state)
    scored = tuple(c for c in mine.scored if c[0] != seat) + ((seat, tuple(sorted(k for k, v in scorers.items() if v))),)
    tx.put_slice(NAME, evolve(mine, scored=scored))
    return zones, scorers


def _scored_gain(tx: Tx, seat: int, tags: tuple[str, ...], effect: Effect) -> None:
    for held in _scorers(tx, seat, tags):
        amount = int(effect["amount"])
        resource = str(effect["resource"])
        tx.put(with_res(tx.club(seat), resource, amount))
        tx.say("gain", seat, f"{tx.name(held.id)} scored: Seat {seat} gains {amount} {resource.capitalize()} (the referee).",
               resource=resource, amount=amount, card=held.id)


def _score_again(tx: Tx, seat: int, tags: tuple[str, ...], effect: Effect) -> None:
    for held in _scorers(tx, seat, tags):
        _rescore(tx, seat, 1, 0)
        club = tx.club(seat)
        tx.say("score", seat, SCORE_AGAIN.format(name=tx.name(held.id), goals=club.goals, conceded=club.conceded),
               card=held.id, side="us")


def _keepers(tx: Tx, seat: int, tags: tuple[str, ...], effect: Effect) -> None:
    if not tx.quiet:
        names = ", ".join(tx.name(h.id) for h in _tagged(tx, seat, tags))
        tx.say("no_effect", seat, NO_KEEPERS.format(names=names))


def _nothing_now(tx: Tx, seat: int, tags: tuple[str, ...], effect: Effect) -> None:
    """A cell that lasts the match: read by the hooks below while the referee is called."""


#: Ops applied once both dice are kept (before the match), and after the match.
BEFORE: Final = {"tagged_strength": _strength, "ignore_goalkeepers": _keepers}
AFTER: Final = {"tagged_suspend": _suspend, "tagged_foul_dice": _foul_dice, "tagged_scored_gain": _scored_gain,
                "tagged_score_again": _score_again}
LASTING: Final = ("tagged_ignore", "tagged_free", "extra_tactic", "injury_as_suspension", "tagged_no_experience")


def _after_match(tx: Tx, seat: int) -> None:
    mine = _calls(tx.state)
    if not mine.calls:
        return
    found, _, ops = _seat(tx.profile, mine, seat)
    if found is None or ops.isdisjoint(AFTER) or not _tagged(tx, seat, found[2]):
        return  # no referee called, his cell does nothing after the match, or no footballer has its tags
    for effect in found[1].effects:
        if effect.op in AFTER:
            AFTER[effect.op](tx, seat, found[2], effect)


def _lasting(state: State, profile: Any, seat: int, op: str) -> tuple[str, ...] | None:
    """The tags of the seat's referee cell when it holds ``op`` (a cell lasting the match), else None."""
    mine = _calls(state)
    if not mine.calls:
        return None
    found, _, ops = _seat(profile, mine, seat)
    if found is None or op not in ops:
        return None
    return found[2]


def _footballer(tx: Tx, club: Any, held: Any, side: PlayerSide) -> PlayerSide:
    if club is None or not side.tags or not side.abilities:
        return side  # the common case first: nothing to look up
    mine = tx.state.slice(NAME)  # `_face_change` without its call and `_calls`' (asked for each footballer's face)
    if not mine.calls:
        return side
    changes = _seat(tx.profile, mine, club.seat)[1]
    if changes is None:
        return side
    op, tags = changes
    if set(tags).isdisjoint(side.tags):
        return side
    held_id = held.id
    if all(p.card != held_id for p in club.lineup or ()):
        return side
    key = (id(side), op)
    kept = _FACES.get(key)
    if kept is None or kept[0] is not side:
        if op == "tagged_ignore":  # "Ignore the effects of Player cards with these tags"
            changed = replace(side, abilities=())
        else:
            match = ("before_match", "during_match", "after_match")
            changed = replace(side, abilities=tuple(replace(a, cost=()) if a.timing in match else a for a in side.abilities))
        kept = _FACES[key] = (side, changed)
    return kept[1]


#: A face as a referee's cell changes it, by (the printed face, the op): (the printed face, the changed one).
_FACES: dict[tuple[int, str], tuple[PlayerSide, PlayerSide]] = {}


def _tactics(tx: Tx, club: Any, count: int) -> int:
    tags = _lasting(tx.state, tx.profile, club.seat, "extra_tactic")
    if tags is not None and _tagged(tx, club.seat, tags):
        effect = next(e for e in called(tx.profile, tx.state, club.seat)[1].effects if e.op == "extra_tactic")  # type: ignore[index]
        return count + int(effect.get("count", 1))
    return count


def _consequence(tx: Tx, seat: int, result: str, face: int, effects: tuple[Effect, ...]) -> tuple[Effect, ...]:
    tags = _lasting(tx.state, tx.profile, seat, "injury_as_suspension")
    if tags is None or not _tagged(tx, seat, tags):
        return effects
    # "place a [Suspension token] instead of an [Injury token] when resolving Match Consequences"
    return tuple(Effect.of("suspend", e.when, target=str(e.get("target", "roll_d10")), tokens=int(e.get("weeks", 1)),
                           **({"jersey": e["jersey"]} if "jersey" in e.params else {}))
                 if e.op == "injure" else e for e in effects)


def _experience(tx: Tx, seat: int, held: Any, fills: bool) -> bool:
    if not fills:
        return fills
    mine = tx.state.slice(NAME)  # `_lasting` without its call and `_calls`' (asked for every footballer who played)
    if not mine.calls:
        return fills
    found, _, ops = _seat(tx.profile, mine, seat)
    if found is None or "tagged_no_experience" not in ops:
        return fills
    tags = found[2]
    card = tx.profile.cards[held.id]
    if card.kind == "youngster" and set(_printed(tx, held).tags) & set(tags):
        tx.say("no_effect", seat, NO_EXPERIENCE.format(name=card.name), card=held.id)
        return False
    return fills


def _end_of_round(tx: Tx) -> None:
    if _calls(tx.state).calls or _calls(tx.state).scored:
        tx.put_slice(NAME, Calls())


def _view(profile: Any, state: State, viewer: Any) -> list[tuple[str, Any]]:
    out = {}
    for seat, d6, d12 in _calls(state).calls:
        item: dict[str, Any] = {"d6": d6 or None, "d12": d12 or None}
        found = called(profile, state, seat)
        if found is not None:
            referee, cell, tags = found
            item.update(referee=referee.name, tags=list(tags), text=cell.text)
        out[str(seat)] = item
    asks = _asks(profile, state)
    if asks:
        out["asks"] = asks
    return [(NAME, out)]


def _setup_check(tx: Tx) -> None:
    """Nothing to refuse: 003 l.62's "when playing Matches against other players, do not use the Referee rules" is
    the module's ``excludes``."""


def _as_table_op(tx: Tx, club: Any, ctx: Ctx, effect: Effect) -> None:
    """A Referee op written on a card instead of in the Referee table: the table resolves it by hand."""
    ask_table(tx, ctx, str(effect.op).replace("_", " "), effect=effect.to_dict())


def _op(doc: str, **params: Param) -> tuple[OpSpec, Any]:
    from types import MappingProxyType

    return OpSpec(doc=doc, params=MappingProxyType(params)), _as_table_op


def _int(doc: str, low: int, high: int, default: int | None = None, nonzero: bool = False) -> Param:
    return Param(type="int", doc=doc, low=low, high=high, required=default is None, default=default, nonzero=nonzero)


OPS: Final = {
    "tagged_suspend": _op("After the match: Suspension tokens on one assigned footballer with the tags (the club "
                          "chooses among several).", tokens=_int("how many Suspension tokens", 1, 3, 1)),
    "tagged_foul_dice": _op("After the match: a d6 for each assigned footballer with the tags; at or above "
                            "`at_least` the Opponent scores.", at_least=_int("the lowest face that gives a goal", 1, 6, 6)),
    "tagged_ignore": _op("This match: the abilities of assigned footballers with the tags are off."),
    "tagged_strength": _op("Before the match: a temporary Strength token on each assigned footballer with the tags.",
                           amount=_int("Strength change", -3, 3, nonzero=True)),
    "tagged_free": _op("This match: the match abilities of assigned footballers with the tags cost nothing."),
    "tagged_scored_gain": _op("After the match: for each assigned footballer with the tags who scored, gain resources.",
                              resource=Param(type="choice", doc="which resource",
                                             choices=("budget", "fanbase", "operation", "fitness")),
                              amount=_int("how many", 1, 10)),
    "tagged_score_again": _op("After the match: each assigned footballer with the tags who scored scores again."),
    "tagged_no_experience": _op("This match: Youngsters with the tags fill no experience space."),
    "injury_as_suspension": _op("This match, when an assigned footballer has the tags: the Match consequence's Injury "
                                "tokens are Suspension tokens instead."),
    "extra_tactic": _op("This match, when an assigned footballer has the tags: play more Tactic cards.",
                        count=_int("extra Tactic cards", 1, 2, 1)),
    "ignore_goalkeepers": _op("This match: footballers with the tags ignore the Opponent's Goalkeepers."),
}


REFEREE = host.register(host.Module(
    name=NAME,
    title="Referee",
    doc="Before each match the table rolls a d6 and a d12 against the Referee table; the referee's call falls on "
        "the assigned footballers with the tags it names (003 l.60–98).",
    hooks={"before_match": _before_match, "after_match": _after_match, "footballer": _footballer,
           "tactics_allowed": _tactics, "consequence": _consequence, "experience": _experience,
           "end_of_round": _end_of_round, "view": _view, "setup_check": _setup_check, "match_resolver": _resolver,
           "candidates": _candidates},
    events={SUSPEND_EVENT: host.EventSpec("seat, card: the footballer the club chooses for the referee's Suspension "
                                          "token(s) when several fit (003 l.69, Unjust)", _on_suspend)},
    rolls={"referee": _referee_roll, "referee_tags": _tags_roll, "referee_foul": _foul_roll},
    ops=OPS,
    data=(host.DataFile(FILE, _read, doc="the tags, the d12's tag groups and the six referees' cells"),),
    state=host.Slice(initial=lambda game: Calls(), decode=lambda d: Calls(tuple(tuple(c) for c in d["calls"]),
                                                                          tuple((s, tuple(c)) for s, c in d["scored"]))),
    excludes=("club_matches",),  # 003 l.62: "when playing Matches against other players, do not use the Referee rules"
))
