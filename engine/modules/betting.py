"""Betting (003 l.377–432): after Thursday's actions each club may bet on the week's results on the Bet board.

The Bet board is data (``betting.toml`` in the deck folder): its spaces, each a pattern of four results in the
leaflet's notation (``3/1/0/0``: League spaces moved, 3 a win, 1 a draw, 0 a loss, highest first), laid out in
rows as printed; a token lies on a space, on the border between two spaces side by side, or on the corner where
four spaces meet (003 l.389: "split your bet between 2 or 4 spaces").  What a success pays is data too (×4, ×3,
×2).  The leaflet's picture of the board is lost from its text, so the demo's layout is a reading an owner
corrects; engine/RULES.md ("Betting") writes down every reading this module makes.

- **Setup** (l.383): with fewer than four clubs the remaining Betting tokens lie on Opponent cards drawn at random
  from the game's deck (its Division's, with the Division module): the table draws them and says which
  (``betting_cards``); the engine never draws.
- **After Thursday** (l.389): a phase every club answers in, in any order: ``bet`` (a place and the € of its own
  it adds to the 1 € from the supply) or ``pass`` (no bet this week; a hold of the seat's button).  "Simultaneously":
  a bet is secret until every club has answered, then every bet is shown at once and the € of the clubs' own are
  taken from their supplies.
- **The End of the week** (l.413): the week's results of the clubs and of the teams with tokens give the winning
  space; a bet on it pays its multiple of every € on its token; the € on the tokens are discarded either way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field as data_field
from itertools import combinations_with_replacement
from typing import Any, Final, NamedTuple

from engine import errors as E
from engine import host
from engine.loader import Fields
from engine.rules.context import field, owner_of, seat_of, with_res
from engine.state import State, evolve
from engine.tx import Tx

NAME: Final = "betting"
FILE: Final = "betting.toml"
PHASE: Final = "betting"
#: The Bet board's notation for a result (003 l.391–395): the League spaces the club or team moved.
NUMBERS: Final = {"win": 3, "draw": 1, "loss": 0}
KINDS: Final = ("space", "border", "corner")  # a token on 1, 2 or 4 spaces
#: Betting tokens in the box: one for each of four clubs; with fewer clubs the rest lie on Opponent cards (l.383).
TOKENS: Final = 4
#: The first revision of the readings (engine/RULES.md, "Revisions") in which a bet's own € are at most what the club
#: still has when the bets are shown (a correction may have taken some after the bet was placed).
KEPT_REVISION: Final = 3

# -- what the table says ----------------------------------------------------------------------------------------

BEGIN: Final = ("Betting: each club may place its Betting token on the Bet board (the Play page) with 1 € from the "
                "supply and any € of its own, or hold its button to skip; bets stay secret until every club has "
                "answered.")
WAIT: Final = "Seat {seat}: bet on its own page (or the Play page), or hold the button to skip."
WAIT_SHORT: Final = "Bet on the page"
WAIT_HINT: Final = "Hold: no bet"
PLACED: Final = "Seat {seat} places its Betting token (secret until every club has answered)."
SKIPPED: Final = "Seat {seat} places no bet this week."
REVEALED: Final = "The bets: {bets}."
NO_BETS: Final = "Nobody bets this week."
ONE_BET: Final = "Seat {seat} {on_token} € on {label}"
SETTLED: Final = "Week {week}'s winning space is {space} ({results})."
WON: Final = "Seat {seat}'s bet on {label} wins: {on_token} € × {times} = {gain} €."
LOST: Final = "Seat {seat}'s bet on {label} loses its {on_token} €."
TOKEN_CARDS: Final = "The remaining Betting tokens lie on {names}: the bets count their teams' results too."
TOKEN_CARDS_NEED: Final = "The table: draw {count} Opponent card(s) at random for the remaining Betting tokens."

NOT_NOW: Final = "Seat {seat} cannot bet now: it is {stage}, and bets are placed after Thursday's actions."
ANSWERED: Final = "Seat {seat} has already answered this week's Betting."
NO_PLACE: Final = ('"{on}" is not a place on the Bet board: a token lies on a space, on the border between two '
                   "spaces side by side, or on the corner where four spaces meet (e.g. {example}).")
STAKE: Final = "the € of the club's own added to the 1 € from the supply, a whole number from 0"
SHORT: Final = "Seat {seat} cannot add {stake} € to its bet: the club has {budget} €."
CARDS_COUNT: Final = ("With {clubs} club(s) the remaining {count} Betting token(s) lie on {count} Opponent card(s), "
                      "not {given}.")
CARDS_LATE: Final = "The Betting tokens lie on Opponent cards at setup; the game has begun."
CARDS_TWICE: Final = "The remaining Betting tokens already lie on {names}."
CARD_SAME: Final = "Each remaining Betting token lies on a card of its own; {name} is named twice."
CARDS_FIRST: Final = "Deal every club its Opponent cards first: the Betting tokens lie on cards nobody was dealt."
CARDS_MISSING: Final = ("The game cannot start yet: with {clubs} club(s), {count} Betting token(s) must lie on "
                        "Opponent cards drawn at random (betting_cards).")


# -- the data ---------------------------------------------------------------------------------------------------


class Place(NamedTuple):
    """Where a token may lie: its kind (space, border, corner), the spaces it covers (board order), its words."""

    kind: str
    spaces: tuple[str, ...]
    label: str


@dataclass(frozen=True, slots=True)
class BetBoard:
    """``betting.toml``: the board's rows of spaces ("" for a gap), what a success pays per kind, and every place."""

    rows: tuple[tuple[str, ...], ...]
    pay: Mapping[str, int]
    places: tuple[Place, ...]
    by_spaces: Mapping[tuple[str, ...], Place] = data_field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        found: dict[tuple[str, ...], Place] = {}
        for p in self.places:
            found.setdefault(tuple(sorted(p.spaces)), p)
        object.__setattr__(self, "by_spaces", found)

    def place(self, spaces: tuple[str, ...]) -> Place | None:
        """The place covering exactly these spaces (in any order), or None."""
        return self.by_spaces.get(tuple(sorted(spaces)))


def patterns() -> list[str]:
    """Every pattern of the four tokens' results, highest first: the fifteen spaces of the Bet board."""
    values = sorted(NUMBERS.values(), reverse=True)
    return ["/".join(map(str, combo)) for combo in combinations_with_replacement(values, TOKENS)]


def pattern(results: list[int]) -> str:
    """The space matching a week's results: the results sorted highest first (003 l.403: "3/1/0/0")."""
    return "/".join(str(r) for r in sorted(results, reverse=True))


def _places(rows: tuple[tuple[str, ...], ...]) -> tuple[Place, ...]:
    """Spaces, then borders (two spaces side by side or one above the other), then corners (a 2×2 block)."""
    at = {(r, c): s for r, row in enumerate(rows) for c, s in enumerate(row) if s}
    out = [Place("space", (s,), s) for s in at.values()]
    for (r, c), s in at.items():
        for other in ((r, c + 1), (r + 1, c)):
            if other in at:
                out.append(Place("border", (s, at[other]), f"{s} | {at[other]}"))
    for (r, c), s in at.items():
        block = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
        if all(k in at for k in block):
            spaces = tuple(at[k] for k in block)
            out.append(Place("corner", spaces, " + ".join(spaces)))
    return tuple(out)


def _read(fields: Fields, cards: Mapping[str, Any]) -> BetBoard:
    known = patterns()
    raw = fields.list("rows", expected="a list of rows, each a list of spaces such as \"3/1/0/0\" (\"\" for a gap)")
    rows: list[tuple[str, ...]] = []
    seen: dict[str, str] = {}
    for r, row in enumerate(raw, start=1):
        if not isinstance(row, list) or not row or not all(isinstance(s, str) for s in row):
            fields.wrong(f"rows[{r}]", 'a list of spaces such as "3/1/0/0" ("" for a gap)', row)
        for c, space in enumerate(row, start=1):
            if not space:
                continue
            where = f"rows[{r}][{c}]"
            if space not in known:
                fields.wrong(where, f"a pattern of {TOKENS} results 3, 1 or 0, highest first (e.g. {known[len(known) // 2]})",
                             space)
            if space in seen:
                fields.fail(where, f'the space "{space}" is on the board already ({seen[space]})')
            seen[space] = where
        rows.append(tuple(row))
    missing = [p for p in known if p not in seen]
    if missing:
        fields.fail("rows", f'the Bet board has a space for every pattern of results; "{missing[0]}" is missing')
    pay_f = fields.table("pay")
    pay = {kind: pay_f.int(kind, 1, 10) for kind in KINDS}
    pay_f.done(KINDS)
    fields.done(("rows", "pay"))
    frozen = tuple(rows)
    return BetBoard(frozen, pay, _places(frozen))


def board_of(profile: Any) -> BetBoard:
    """The deck's Bet board."""
    return profile.module_data[NAME][FILE]  # type: ignore[no-any-return]


# -- the state --------------------------------------------------------------------------------------------------


class Bet(NamedTuple):
    """A club's bet this week: the spaces its token covers and the € of its own added to the supply's 1 €."""

    seat: int
    spaces: tuple[str, ...]
    stake: int


class Settled(NamedTuple):
    """The last week's settlement: the winning space, each result counted ("seat:N" or a card id, the number) and
    each bet's gain (seat, € gained; 0 when it lost)."""

    week: int
    space: str
    results: tuple[tuple[str, int], ...]
    gains: tuple[tuple[int, int], ...]
    bets: tuple[Bet, ...]


class Betting(NamedTuple):
    """The module's slice: the Opponent cards with tokens, this week's bets and answers, the teams' League points
    when the bets were placed, and the last settlement."""

    cards: tuple[str, ...] = ()
    bets: tuple[Bet, ...] = ()
    skipped: tuple[int, ...] = ()
    revealed: bool = False
    before: tuple[tuple[str, int], ...] = ()
    settled: Settled | None = None

    def answered(self, seat: int) -> bool:
        """Whether the club has bet or skipped this week."""
        return seat in self.skipped or any(b.seat == seat for b in self.bets)


def _decode(d: Mapping[str, Any]) -> Betting:
    def bet(b: Any) -> Bet:
        return Bet(int(b["seat"]), tuple(b["spaces"]), int(b["stake"]))

    s = d.get("settled")
    settled = None if s is None else Settled(int(s["week"]), str(s["space"]), tuple((k, v) for k, v in s["results"]),
                                            tuple((a, b) for a, b in s["gains"]), tuple(bet(b) for b in s["bets"]))
    return Betting(tuple(d["cards"]), tuple(bet(b) for b in d["bets"]), tuple(d["skipped"]), bool(d["revealed"]),
                   tuple((k, v) for k, v in d["before"]), settled)


def _mine(state: State) -> Betting:
    return state.slice(NAME)  # type: ignore[no-any-return]


def on_token(bet: Bet) -> int:
    """Every € on the token: 1 from the supply and the club's own (003 l.391)."""
    return 1 + bet.stake


# -- setup: the remaining tokens on Opponent cards ----------------------------------------------------------------


def tokens_left(state: State) -> int:
    """Betting tokens no club takes (003 l.383: one per club; the rest lie on Opponent cards)."""
    return max(0, TOKENS - len(state.clubs))


def on_betting_cards(tx: Tx) -> None:
    """The Opponent cards the table drew at random for the remaining Betting tokens (003 l.383)."""
    if tx.state.stage != "setup":
        raise E.WrongStage(CARDS_LATE)
    mine: Betting = tx.slice(NAME)
    if mine.cards:
        raise E.NotAllowed(CARDS_TWICE.format(names=_names(tx, mine.cards)))
    if not tx.state.clubs or any(not c.opponents for c in tx.state.clubs):
        raise E.NotAllowed(CARDS_FIRST)
    given = field(tx.event, "cards", list, "the ids of the Opponent cards the remaining Betting tokens lie on")
    count = tokens_left(tx.state)
    if len(given) != count:
        raise E.NotAllowed(CARDS_COUNT.format(clubs=len(tx.state.clubs), count=count, given=len(given)))
    cards = []
    for card_id in given:
        card = tx.card(card_id, "opponent")
        owner = owner_of(tx.state, card.id)
        if owner is not None:
            raise E.NotAllowed(E.CARD_TAKEN.format(name=card.name, seat=owner.seat))
        why = tx.rules.not_dealt(tx.profile, tx.state.game, card)  # type: ignore[attr-defined]
        if why is not None:  # "draw random Opponent cards from your Division"
            raise E.NotAllowed(why)
        if card.id in cards:
            raise E.NotAllowed(CARD_SAME.format(name=card.name))
        cards.append(card.id)
    tx.put_slice(NAME, evolve(mine, cards=tuple(cards)))
    tx.say("betting_cards", None, TOKEN_CARDS.format(names=_names(tx, cards)), cards=cards)


def _names(tx: Tx, cards: Any) -> str:
    return ", ".join(tx.name(c) for c in cards)


def _setup_check(tx: Tx) -> None:
    count = tokens_left(tx.state)
    if len(tx.slice(NAME).cards) != count:
        raise E.NotAllowed(CARDS_MISSING.format(clubs=len(tx.state.clubs), count=count))


def _awaiting(state: State) -> list[dict[str, Any]]:
    if state.stage != "setup" or not state.clubs or any(not c.opponents for c in state.clubs):
        return []
    count = tokens_left(state)
    if not count or _mine(state).cards:
        return []
    return [{"seat": None, "need": "betting_cards", "count": count, "text": TOKEN_CARDS_NEED.format(count=count)}]


# -- the Betting phase, after Thursday ----------------------------------------------------------------------------


def _week(state: State, week: int, phases: tuple[str, ...]) -> tuple[str, ...]:
    kept = _WEEK
    if kept and kept[0] is phases:  # the same week as last asked (at the end of every phase): the same answer
        return kept[1]  # type: ignore[no-any-return]
    i = phases.index("thursday") + 1
    out = phases[:i] + (PHASE,) + phases[i:]
    kept[:] = (phases, out)
    return out


_WEEK: list[Any] = []  # (the week's phases last asked about, with this module's phase)


def _begin(tx: Tx) -> None:
    before = tuple((t.id, t.points) for t in tx.state.teams)
    tx.put_slice(NAME, evolve(_mine(tx.state), bets=(), skipped=(), revealed=False, before=before))
    if not tx.quiet:
        tx.say("betting", None, BEGIN)


def _over(tx: Tx) -> bool:
    mine = _mine(tx.state)
    answered = {b.seat for b in mine.bets}  # `Betting.answered` for every club at once (asked after every event)
    answered.update(mine.skipped)
    for c in tx.state.clubs:
        if c.seat not in answered:
            return False
    return True


def _phase_awaiting(state: State) -> list[dict[str, Any]]:
    mine = _mine(state)
    return [{"seat": c.seat, "need": "bet", "text": WAIT.format(seat=c.seat), "short": WAIT_SHORT, "hint": WAIT_HINT}
            for c in state.clubs if not mine.answered(c.seat)]


def _spaces(tx: Tx, raw: Any) -> tuple[str, ...]:
    """The spaces an event's ``on`` names: a list of spaces, or one text with spaces joined by "|" or "+"."""
    if isinstance(raw, str):
        items = [s.strip() for s in raw.replace("+", "|").split("|")]
    elif isinstance(raw, list) and all(isinstance(s, str) for s in raw):
        items = [s.strip() for s in raw]
    else:
        raise E.BadEvent(E.BAD_FIELD.format(type="bet", field="on", why="a space such as \"3/1/0/0\", or the spaces "
                                                                        "of a border or a corner"))
    return tuple(items)


def on_bet(tx: Tx) -> None:
    """A club places its Betting token (003 l.389): a place on the Bet board and the € of its own on it."""
    seat = seat_of(tx.event)
    club = tx.club(seat)
    if tx.state.stage != PHASE:
        raise E.WrongStage(NOT_NOW.format(seat=seat, stage=tx.stage_name()))
    mine = _mine(tx.state)
    if mine.answered(seat):
        raise E.NotAllowed(ANSWERED.format(seat=seat))
    board = board_of(tx.profile)
    raw = field(tx.event, "on", (str, list), "the space, border or corner the token lies on")
    place = board.place(_spaces(tx, raw))
    if place is None:
        example = next(p.label for p in board.places if p.kind == "border")
        shown = raw if isinstance(raw, str) else " | ".join(map(str, raw))
        raise E.NotAllowed(NO_PLACE.format(on=shown, example=example))
    stake = field(tx.event, "stake", int, STAKE, default=0)
    if stake < 0:
        raise E.BadEvent(E.BAD_FIELD.format(type="bet", field="stake", why=STAKE))
    if stake > club.res[0]:
        raise E.NotEnoughResources(SHORT.format(seat=seat, stake=stake, budget=club.res[0]))
    tx.put_slice(NAME, evolve(mine, bets=mine.bets + (Bet(seat, place.spaces, stake),)))
    if not tx.quiet:
        tx.say("bet_placed", seat, PLACED.format(seat=seat))  # where and how much stay secret: no announcement says it


def _pass(tx: Tx, seat: int) -> None:
    """``pass`` in the Betting: the club places no bet this week."""
    tx.club(seat)
    mine = _mine(tx.state)
    if mine.answered(seat):
        raise E.NotAllowed(ANSWERED.format(seat=seat))
    tx.put_slice(NAME, evolve(mine, skipped=mine.skipped + (seat,)))
    if not tx.quiet:
        tx.say("bet_skipped", seat, SKIPPED.format(seat=seat))


def _label(profile: Any, bet: Bet) -> str:
    place = board_of(profile).place(bet.spaces)
    return place.label if place is not None else " | ".join(bet.spaces)


def _end(tx: Tx) -> None:
    """Every club has answered: the bets are shown at once, and the € of the clubs' own go onto their tokens."""
    mine = _mine(tx.state)
    bets = mine.bets
    if tx.state.game.revision >= KEPT_REVISION:  # the token holds the € of its own the club still has
        bets = tuple(b if b.stake <= tx.club(b.seat).res[0] else b._replace(stake=tx.club(b.seat).res[0]) for b in bets)
    for bet in bets:
        if bet.stake:
            tx.put(with_res(tx.club(bet.seat), "budget", -bet.stake))
    tx.put_slice(NAME, evolve(mine, bets=bets, revealed=True))
    if not tx.quiet:
        words = [ONE_BET.format(seat=b.seat, on_token=on_token(b), label=_label(tx.profile, b)) for b in bets]
        tx.say("bets", None, REVEALED.format(bets="; ".join(words)) if words else NO_BETS,
               bets=[_bet_dict(tx.profile, b) for b in bets])


def _bet_dict(profile: Any, bet: Bet) -> dict[str, Any]:
    place = board_of(profile).place(bet.spaces)
    return {"seat": bet.seat, "on": list(bet.spaces), "kind": place.kind if place else "", "label": _label(profile, bet),
            "stake": bet.stake, "on_token": on_token(bet)}


# -- the End of the week -----------------------------------------------------------------------------------------


def week_results(tx: Tx) -> list[tuple[str, int]]:
    """This week's result of every club and every team with a token, in the Bet board's notation.

    A club's is its match result.  A team's is the League spaces its marker moved since the bets were placed,
    read as its best result (3 or more: a win; 1 or 2: a draw; 0: a loss): the reverse of a club's result against
    it, its Opponent die's when nobody played it, a loss when it flipped back instead of rolling.
    """
    board = tx.board(None)
    points = board.points_by_result
    out: list[tuple[str, int]] = [(f"seat:{c.seat}", NUMBERS.get(c.result or "loss", 0)) for c in tx.state.clubs]
    mine = _mine(tx.state)
    before = dict(mine.before)
    for card_id in mine.cards:
        team = tx.profile.cards[card_id].team
        found = tx.state.team(team)
        moved = (found.points if found is not None else 0) - before.get(team, 0)
        result = "win" if moved >= points["win"] else "draw" if moved >= max(points["draw"], 1) else "loss"
        out.append((card_id, NUMBERS[result]))
    return out


def _settle(tx: Tx) -> None:
    """003 l.413–431: the winning space; a bet on it (its space, a border or a corner of it) pays ×4, ×3 or ×2 of
    every € on its token; the € on the tokens are discarded and the tokens go back."""
    mine = _mine(tx.state)
    if not mine.revealed:
        return
    board = board_of(tx.profile)
    results = week_results(tx)
    space = pattern([n for _, n in results])
    gains = []
    for bet in mine.bets:
        place = board.place(bet.spaces)
        label = _label(tx.profile, bet) if not tx.quiet else ""
        if place is not None and space in place.spaces:
            times = board.pay[place.kind]
            gain = on_token(bet) * times
            tx.put(with_res(tx.club(bet.seat), "budget", gain))
            if not tx.quiet:
                tx.say("bet_won", bet.seat, WON.format(seat=bet.seat, label=label, on_token=on_token(bet), times=times, gain=gain),
                       space=space, on=list(bet.spaces), gain=gain, on_token=on_token(bet), times=times, short=f"Bet won +€{gain}")
        else:
            gain = 0
            if not tx.quiet:
                tx.say("bet_lost", bet.seat, LOST.format(seat=bet.seat, label=label, on_token=on_token(bet)),
                       space=space, on=list(bet.spaces), on_token=on_token(bet), short="Bet lost")
        gains.append((bet.seat, gain))
    if not tx.quiet:
        words = ", ".join(f"{_who(tx, who)} {n}" for who, n in results)
        tx.say("bet_settled", None, SETTLED.format(week=tx.state.week, space=space, results=words), space=space,
               results={who: n for who, n in results})
    settled = Settled(tx.state.week, space, tuple(results), tuple(gains), mine.bets)
    tx.put_slice(NAME, evolve(mine, bets=(), skipped=(), revealed=False, settled=settled))


def _who(tx: Tx, who: str) -> str:
    if who.startswith("seat:"):
        return f"Seat {who[5:]}"
    return tx.board(None).team(tx.profile.cards[who].team).name


# -- what each viewer sees ---------------------------------------------------------------------------------------


def _view(profile: Any, state: State, viewer: Any) -> list[tuple[str, Any]]:
    board = board_of(profile)
    mine = _mine(state)
    bets = []
    for c in state.clubs:
        bet = next((b for b in mine.bets if b.seat == c.seat), None)
        if bet is None:  # the most € of its own the club may add now: what it has
            bets.append({"seat": c.seat, "answered": c.seat in mine.skipped, "placed": False, "stake_max": c.res[0]})
        elif mine.revealed or viewer == "all" or viewer == c.seat:
            bets.append({**_bet_dict(profile, bet), "answered": True, "placed": True})
        else:  # "simultaneously": the others see that a token was placed, not where nor how much
            bets.append({"seat": c.seat, "answered": True, "placed": True, "secret": True})
    settled = None
    if mine.settled is not None:
        s = mine.settled
        settled = {"week": s.week, "space": s.space,
                   "results": [_result_dict(profile, state, who, n) for who, n in s.results],
                   "bets": [{**_bet_dict(profile, b), "gain": dict(s.gains).get(b.seat, 0)} for b in s.bets]}
    tokens = [{"card": c, "name": profile.cards[c].name, "team": profile.cards[c].team} for c in mine.cards]
    out = {"rows": [list(r) for r in board.rows], "pay": dict(board.pay), "tokens_total": TOKENS,
           "places": [{"kind": p.kind, "on": list(p.spaces), "label": p.label, "times": board.pay[p.kind]} for p in board.places],
           "cards": tokens, "bets": bets, "revealed": mine.revealed, "settled": settled,
           "open": state.stage == PHASE}
    if state.stage == "setup" and not mine.cards:
        # the cards the remaining tokens may lie on: the game's deck, none a club was dealt
        rules = host.rules_for(state.game)
        free = [c for c in rules.deck(profile, state.game, "opponent", profile.cards_of("opponent"))  # type: ignore[attr-defined]
                if owner_of(state, c.id) is None]
        out["cards_needed"] = tokens_left(state)
        out["cards_open"] = [{"card": c.id, "name": c.name} for c in free]
    return [(NAME, out)]


def _result_dict(profile: Any, state: State, who: str, number: int) -> dict[str, Any]:
    if who.startswith("seat:"):
        seat = int(who[5:])
        club = state.club(seat)
        return {"seat": seat, "name": club.name if club is not None else f"Seat {seat}", "result": number}
    card = profile.cards[who]
    return {"card": who, "team": card.team, "name": profile.board.team(card.team).name, "result": number}


def _candidates(profile: Any, state: State, need: Mapping[str, Any]) -> list[dict[str, Any]]:
    if need["need"] == "bet":
        places = board_of(profile).places
        picks = [next(p for p in places if p.kind == kind) for kind in KINDS]
        seat = need["seat"]
        return [{"type": "bet", "seat": seat, "on": list(p.spaces), "stake": stake} for p in picks for stake in (0, 1)] + \
            [{"type": "pass", "seat": seat}]
    if need["need"] == "betting_cards":
        return [{"type": "betting_cards", "cards": deal_cards(profile, state, list(range(len(profile.cards))))}]
    return []


def deal_cards(profile: Any, state: State, order: list[int]) -> list[str]:
    """The Opponent cards the remaining Betting tokens go on, drawn in ``order`` (the table's shuffle: positions in
    the game's deck, each taken modulo what is left) from the cards of the game's deck nobody was dealt."""
    rules = host.rules_for(state.game)
    deck = [c.id for c in rules.deck(profile, state.game, "opponent", profile.cards_of("opponent"))  # type: ignore[attr-defined]
            if owner_of(state, c.id) is None]
    out = []
    for i in order:
        if len(out) == tokens_left(state) or not deck:
            break
        out.append(deck.pop(i % len(deck)))
    return out


BETTING = host.register(host.Module(
    name=NAME,
    title="Betting",
    doc="After Thursday each club may bet on the week's results of the clubs and the teams with Betting tokens on "
        "the Bet board; a right bet pays ×4, ×3 or ×2 at the End of the week (003 l.377–432).",
    events={
        "bet": host.EventSpec('seat, on: a space ("3/1/0/0") or the spaces of a border or corner, stake: € of the '
                              "club's own added to the supply's 1 € (default 0)", on_bet, seat_page=True),
        "betting_cards": host.EventSpec("cards: the Opponent cards drawn at random for the remaining Betting tokens "
                                        "(setup, fewer than four clubs)", on_betting_cards),
    },
    phases=(host.Phase(PHASE, "the Betting", begin=_begin, over=_over, end=_end, awaiting=_phase_awaiting, pass_=_pass),),
    hooks={"week_phases": _week, "end_of_round": _settle, "view": _view, "candidates": _candidates,
           "setup_check": _setup_check, "awaiting": _awaiting},
    data=(host.DataFile(FILE, _read, doc="the Bet board: its spaces in rows as printed, and what a success pays"),),
    state=host.Slice(initial=lambda game: Betting(), decode=_decode),
))
