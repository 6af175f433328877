"""League matches between clubs (003 l.100–167): in the last weeks of the game the clubs play each other.

The schedules for 2, 3 and 4 clubs are data (``club_matches.toml``): a row per week of a six-week game, giving
each club's opponent (0: a regular Opponent card).  The matches take the last weeks of the game, so each club is
dealt fewer Opponent cards (l.134; the ``opponents_needed`` and ``week_opponent`` hooks).

A match between clubs is a phase of its own on Matchday ("club_match", before the regular matches of the clubs
that play an Opponent card that week), played pair by pair (l.140–167):

1. the Host (the first of the two in turn order) declares its formation for the first half (``formation``:
   Defenders-Midfielders-Forwards, e.g. "4-4-2"); then both arrange their jersey markers in secret on their seats'
   pages (``arrange``: the lineup, the Stands and the resources assigned, as for a normal match); once both have,
   the Visitor's formation and both arrangements are revealed and placed (paid, abilities after the reveal and
   before the match that happen by themselves, injured and suspended cards shedding a token);
2. beginning with the Host the clubs take turns with their abilities after the reveal, then with those before the
   match (``use_card`` or ``pass``; once one has passed, the other uses as many as it wants);
3. the first half: both use their abilities during the match in any order, then ``pass``; the five pairs of
   sections are compared from the Host's Central Defenders (engine/RULES.md gives the exact pairs); each club's
   Goalkeeper blocks as many of the other club's goals in the half as his gloves;
4. the Visitor declares its formation for the second half, both arrange again in secret (the same markers, other
   zones if they like), the Host's formation is revealed; the second half is played from the Visitor's Central
   Defenders, the Goalkeepers' gloves renewed and every card already used staying exhausted; no Tactic cards;
5. a draw is settled by a d6 each (``roll``, rerollable as usual) minus the other club's Goalkeeper's luck, again
   on a tie; then each club's result, Stands, experience, abilities after the match and Match consequence.

The readings chosen where the text leaves room are in engine/RULES.md, "Matches between clubs".
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final, NamedTuple

from engine import errors as E
from engine import host
from engine.cards import SECTIONS, ZONES, Profile
from engine.loader import Fields
from engine.rules.abilities import match_offers
from engine.rules.context import field, quad_of, seat_of, side_of, turn_order
from engine.rules.matchday import (
    SECTION_WORDS,
    apply_mandatory,
    check_lineup,
    conclude_match,
    place_lineup,
    strength_of,
    use_match_card,
    zone_words,
)
from engine.state import Club, Pending, Placed, State, evolve
from engine.tx import Tx

NAME: Final = "club_matches"
STAGE: Final = "club_match"
DATA_FILE: Final = "club_matches.toml"
#: The rows of the printed schedules: a six-week game (003 l.104–132).
SCHEDULE_WEEKS: Final = 6

# Sentences players read; tests import them.
HOSTS: Final = "Matchday: Seat {host} ({host_name}) hosts Seat {visitor} ({visitor_name})."
DECLARE: Final = "Seat {seat} plays the {half} in a {shape}: both clubs now arrange their jersey markers in secret."
ARRANGED: Final = "Seat {seat} has arranged its jersey markers for the {half} (secretly)."
REVEALED: Final = "The {half}: Seat {host} plays a {host_shape}, Seat {visitor} a {visitor_shape}."
TURNS: Final = "Seat {seat} begins: the clubs take turns with their abilities {moment}, or pass."
NOTHING_TO_USE: Final = "Seat {seat} has no ability to use {moment} and passes."
PASSES: Final = "Seat {seat} passes {moment}."
HALF_READY: Final = "Seat {seat} is ready for the {half}."
HALF_SCORE: Final = "{half}: Seat {host} {host_goals}–{visitor_goals} Seat {visitor}."
PAIR_SCORE: Final = "{pair}: Seat {a} scores {a_goals}, Seat {b} scores {b_goals}."
BLOCKED: Final = "{keeper} (Seat {seat}) blocks {count} shot(s) of Seat {other} in the {half}."
LEVEL: Final = "Seat {host} and Seat {visitor} are level at {goals}–{goals}: each rolls a d6 for the tie-break."
TIE_ROLL: Final = "Seat {seat} rolls {value} for the tie-break, minus {luck} for Seat {other}'s Goalkeeper: {score}."
TIE_AGAIN: Final = "The tie-break is level at {score}: both roll again."
TIE_WON: Final = "Seat {seat} wins the tie-break {score}–{other_score}."

NOT_NOW: Final = "Seat {seat} cannot {what} now: {why}."
NO_FIXTURE: Final = "Seat {seat} plays no other club this week"
NOT_DECLARER: Final = "Seat {declarer} declares the formation of the {half} first"
DECLARED: Final = "the formation of the {half} is declared already"
NOT_ARRANGING: Final = "the jersey markers are arranged once the formation is declared, before the {half}"
SHAPE_WORDS: Final = 'a formation is Defenders-Midfielders-Forwards, such as "4-4-2"'
BAD_SHAPE: Final = ("A formation is Defenders-Midfielders-Forwards adding up to {on_pitch}, with at most {caps}, "
                    "such as \"4-4-2\"; not {shape!r}.")
WRONG_SHAPE: Final = "Seat {seat} declared a {shape} for the {half}: it fields {want} {section}, not {got}."
NO_ROOM_LEFT: Final = ("Seat {seat} still has {names} to place, who play only among the {sections}, and {room} "
                       "place(s) are left there: take back a marker placed there.")
SAME_MARKERS: Final = ("In the second half Seat {seat} plays the jersey markers of the first ({markers}); only their "
                       "zones may change.")
ONE_KEEPER: Final = "Seat {seat} fields {count} Goalkeepers: one Goalkeeper plays a match between clubs."
NOT_YOUR_TURN: Final = "It is Seat {turn}'s turn to use an ability {moment} (or pass)."
ALREADY_PASSED: Final = "Seat {seat} has passed {moment}: it uses no more abilities there."
NOT_THIS_MOMENT: Final = "{name} has no ability Seat {seat} may use {moment}."
SHORT_GAME: Final = ("Seat {seat} cannot join: with {clubs} clubs each club plays {matches} week(s) against other clubs, "
                     "so a game of {weeks} week(s) leaves none for its Opponent cards; choose at least {need} weeks "
                     "or fewer clubs.")
#: From this revision a club is refused at joining when the game's weeks leave no week for Opponent cards; earlier
#: revisions refused the dealing of no Opponent cards instead, a step later in the setup.
SHORT_GAME_REVISION: Final = 3
NO_SCHEDULE: Final = "Matches between clubs are played by {known} clubs, not {clubs}."

MOMENTS: Final = {"after_reveal": "after the reveal", "before_match": "before the match",
                  "half": "during the half", "played": "after the match"}
HALVES: Final = {1: "first half", 2: "second half"}
#: The abilities each step of a match between clubs lets a club use.
STEP_TIMINGS: Final = {"after_reveal": ("after_reveal",), "before_match": ("before_match",),
                       "half": ("during_match",), "played": ("after_match",)}


# ---------------------------------------------------------------------------------------------------------------
# Data: the schedules.


class Schedule(NamedTuple):
    """``club_matches.toml``: for 2, 3 and 4 clubs, a row per week of a six-week game giving each Player's opponent
    (the Player's number, 0 for a regular Opponent card).  Player N is the club at the N-th seat, by seat number."""

    tables: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]

    def table(self, clubs: int) -> tuple[tuple[int, ...], ...] | None:
        """The schedule's rows for a number of clubs (None when it has none)."""
        return dict(self.tables).get(clubs)


def _read_schedule(fields: Fields, cards: Any) -> Schedule:
    schedule = fields.table("schedule")
    tables = []
    for key in sorted(schedule.data):
        if not key.isdigit() or not 2 <= int(key) <= 4:
            schedule.fail(key, "the schedules are for 2, 3 or 4 clubs: keys 2, 3 and 4")
        clubs = int(key)
        rows = schedule.list(key, expected=f"{SCHEDULE_WEEKS} rows of {clubs} numbers, one row per week")
        if len(rows) != SCHEDULE_WEEKS:
            schedule.wrong(key, f"{SCHEDULE_WEEKS} rows, one per week", rows)
        for week, row in enumerate(rows, start=1):
            where = f"{key}[{week}]"
            if not isinstance(row, list) or len(row) != clubs or any(
                    isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= clubs for v in row):
                schedule.wrong(where, f"{clubs} numbers 0–{clubs}: each Player's opponent that week (0: an Opponent card)", row)
            for player, other in enumerate(row, start=1):
                if other == player or (other and row[other - 1] != player):
                    schedule.fail(where, f"Player {player} plays Player {other}, so Player {other} must play Player "
                                         f"{player} that week, and nobody plays himself; got {row}")
        tables.append((clubs, tuple(tuple(r) for r in rows)))
    schedule.done()
    fields.done()
    if not tables:
        fields.fail("schedule", "missing; give the schedules for 2, 3 and 4 clubs")
    return Schedule(tuple(tables))


def _schedule(profile: Profile) -> Schedule:
    return profile.module_data[NAME][DATA_FILE]  # type: ignore[no-any-return]


def _week_row(state: State, week: int) -> dict[int, int]:
    """A week's opponents by seat ({} when no club plays another): the schedule's rows are the last weeks."""
    seats = sorted(c.seat for c in state.clubs)
    table = _mine(state).table(len(seats))
    row_index = week - (state.weeks - SCHEDULE_WEEKS) - 1 if state.weeks else -1
    if table is None or not 0 <= row_index < SCHEDULE_WEEKS:
        return {}
    row = table[row_index]
    return {seats[i]: seats[other - 1] for i, other in enumerate(row) if other}


def _matches_each(table: tuple[tuple[int, ...], ...]) -> int:
    """How many matches against other clubs each Player plays (the same for every Player in the printed tables)."""
    return max(sum(1 for row in table if row[p]) for p in range(len(table[0])))


# ---------------------------------------------------------------------------------------------------------------
# The slice.


class Arrangement(NamedTuple):
    """A club's jersey markers for a half, kept secret until both clubs have arranged: (zone, jersey, card, style)
    for each marker; the first half's also carries the Stands and the resources assigned to cards."""

    seat: int
    players: tuple[tuple[str, int | None, str | None, str], ...]
    stands: int = 0
    assign: tuple[tuple[str, tuple[int, int, int, int]], ...] = ()


class Pair(NamedTuple):
    """One zone pair of a half: the first club's zone against the zone of the other club facing it."""

    section: str  # the pair of sections it belongs to, e.g. "centre_defence", "left_wing"
    zone: str
    facing: str
    a_attack: tuple[int, ...]
    b_defence: tuple[int, ...]
    b_attack: tuple[int, ...]
    a_defence: tuple[int, ...]
    a_goals: int
    b_goals: int
    a_blocked: int = 0  # goals of the first club the other's Goalkeeper blocked here
    b_blocked: int = 0


class Half(NamedTuple):
    """A half played: the club whose zones come first, its zone pairs in order, and the goals each club scored."""

    number: int
    first: int
    second: int
    pairs: tuple[Pair, ...]
    scorers: tuple[tuple[str, int], ...] = ()


class Fixture(NamedTuple):
    """A match between two clubs this week and how far it has gone."""

    host: int
    visitor: int
    step: str = "formation"  # formation, arrange, after_reveal, before_match, half, tiebreak, played
    half: int = 1
    shape: tuple[int, ...] = ()  # the formation declared for this half (Defenders, Midfielders, Forwards)
    secret: tuple[Arrangement, ...] = ()
    shapes: tuple[tuple[int, str], ...] = ()  # each club's formation of the half, once revealed
    turn: int = 0
    passed: tuple[int, ...] = ()
    halves: tuple[Half, ...] = ()
    rolls: tuple[tuple[int, int], ...] = ()  # this round of the tie-break: (seat, die)
    tiebreaks: tuple[tuple[tuple[int, int, int], ...], ...] = ()  # rounds played: (seat, die, score)
    winner: int = 0

    @property
    def seats(self) -> tuple[int, int]:
        """Host and Visitor."""
        return self.host, self.visitor

    def other(self, seat: int) -> int:
        """The club this one plays."""
        return self.visitor if seat == self.host else self.host

    @property
    def declarer(self) -> int:
        """Who declares the formation first: the Host in the first half, the Visitor in the second (l.143, l.156)."""
        return self.host if self.half == 1 else self.visitor

    def arrangement(self, seat: int) -> Arrangement | None:
        """The seat's secret arrangement for this half, once made."""
        return next((a for a in self.secret if a.seat == seat), None)


class ClubMatches(NamedTuple):
    """The module's slice: the deck's schedules (copied as the game begins) and this week's matches between clubs."""

    schedule: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...] = ()
    fixtures: tuple[Fixture, ...] = ()
    shapes: tuple[str, ...] = ()  # the formations the board's pitch allows, the starting one first

    def table(self, clubs: int) -> tuple[tuple[int, ...], ...] | None:
        """The schedule's rows for a number of clubs (None when the deck has none)."""
        return dict(self.schedule).get(clubs)

    def of(self, seat: int) -> Fixture | None:
        """The match the club plays this week, if it plays another club."""
        return next((f for f in self.fixtures if seat in f.seats), None)


def _decode(data: dict[str, Any]) -> ClubMatches:
    """The slice from `State.to_dict`'s JSON (named tuples as dicts, tuples as lists)."""
    def rows(table: Any) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(r) for r in table)

    def arrangement(a: dict[str, Any]) -> Arrangement:
        return Arrangement(a["seat"], tuple((z, j, c, st) for z, j, c, st in a["players"]), a["stands"],
                           tuple((k, (q[0], q[1], q[2], q[3])) for k, q in a["assign"]))

    def half(h: dict[str, Any]) -> Half:
        pairs = tuple(Pair(**{k: tuple(v) if isinstance(v, list) else v for k, v in p.items()}) for p in h["pairs"])
        return Half(h["number"], h["first"], h["second"], pairs, tuple((k, n) for k, n in h["scorers"]))

    fixtures = tuple(Fixture(
        host=f["host"], visitor=f["visitor"], step=f["step"], half=f["half"], shape=tuple(f["shape"]),
        secret=tuple(arrangement(a) for a in f["secret"]), shapes=tuple((s, w) for s, w in f["shapes"]),
        turn=f["turn"], passed=tuple(f["passed"]), halves=tuple(half(h) for h in f["halves"]),
        rolls=tuple((s, v) for s, v in f["rolls"]),
        tiebreaks=tuple(tuple((s, d, sc) for s, d, sc in r) for r in f["tiebreaks"]), winner=f["winner"],
    ) for f in data["fixtures"])
    return ClubMatches(tuple((n, rows(t)) for n, t in data["schedule"]), fixtures, tuple(data.get("shapes", ())))


def _prepare(profile: Profile, game: Any, mine: ClubMatches) -> ClubMatches:
    """The deck's schedules and the pitch's formations, copied into the game as it begins (the hooks that count weeks
    and say what the table awaits see only the state)."""
    return evolve(mine, schedule=_schedule(profile).tables, shapes=formations(profile.board.pitch))


def formations(pitch: Any) -> tuple[str, ...]:
    """Every formation the pitch allows (Defenders-Midfielders-Forwards adding up to the jerseys on the pitch, none
    above its section's most), the starting formation first, then the more defensive ones first: what a seat's
    button steps through."""
    caps = [dict(pitch.section_max).get(s, 0) for s in SECTIONS]
    start = tuple(dict(pitch.start_sections).get(s, 0) for s in SECTIONS)
    found = [(d, m, pitch.on_pitch - d - m) for d in range(caps[0], -1, -1) for m in range(caps[1], -1, -1)
             if 0 <= pitch.on_pitch - d - m <= caps[2]]
    found.sort(key=lambda shape: (shape != start, -shape[0], -shape[1]))
    return tuple(_shape_text(shape) for shape in found)


def _mine(state: State) -> ClubMatches:
    return state.slice(NAME)  # type: ignore[no-any-return]


def _put(tx: Tx, fixture: Fixture) -> None:
    mine = _mine(tx.state)
    tx.put_slice(NAME, evolve(mine, fixtures=tuple(fixture if f.host == fixture.host else f for f in mine.fixtures)))


# ---------------------------------------------------------------------------------------------------------------
# Hooks: the schedule decides the Opponent cards dealt and played, and the week's phases.


def _opponents_needed(state: State, weeks: int, count: int) -> int:
    """l.134: "prepare fewer Opponent cards so that you have a number of cards equal to the number of Matches
    against Regular Opponents" (counted for the clubs that have joined so far)."""
    mine = _mine(state)
    table = mine.table(len(state.clubs)) if mine is not None else None
    return count if table is None else max(0, count - _matches_each(table))


def _week_opponent(state: State, club: Club, week: int, card: str | None) -> str | None:
    """The week's Opponent card: the club's stack is played in order in the weeks it meets no other club."""
    table = _mine(state).table(len(state.clubs))
    if table is None or not state.weeks:
        return card
    player = sorted(c.seat for c in state.clubs).index(club.seat)
    offset = state.weeks - SCHEDULE_WEEKS

    def plays_club(w: int) -> bool:
        row = w - offset - 1
        return 0 <= row < SCHEDULE_WEEKS and bool(table[row][player])

    if plays_club(week):
        return None
    regular = sum(1 for w in range(1, week + 1) if not plays_club(w))
    return club.opponents[regular - 1] if 1 <= regular <= len(club.opponents) else None


def _tactics(tx: Tx, club: Club, count: int) -> int:
    """l.150: "except for playing Tactic cards, which are not used in player versus player Matches"."""
    return 0 if _week_opponent(tx.state, club, tx.state.week, "?") is None else count


def _week_phases(state: State, week: int, phases: tuple[str, ...]) -> tuple[str, ...]:
    """A week with matches between clubs plays them before Matchday (dropped when every club plays a club)."""
    if not state.clubs or all(_week_opponent(state, c, week, "?") is not None for c in state.clubs):
        return phases
    i = phases.index("matchday")
    everyone = all(_week_opponent(state, c, week, "?") is None for c in state.clubs)
    return phases[:i] + (STAGE,) + phases[i + (1 if everyone else 0):]


def _club_check(tx: Tx, seat: int) -> None:
    """l.134: each club is dealt the Opponent cards of its weeks against regular Opponents; a game whose ``weeks``
    are all taken by matches between clubs would deal it none, so the club that makes it so is refused at joining."""
    weeks = tx.state.game.option("weeks")
    if not weeks or tx.state.game.revision < SHORT_GAME_REVISION:
        return
    clubs = len(tx.state.clubs) + 1
    table = _mine(tx.state).table(clubs)
    if table is not None and int(weeks) <= _matches_each(table):
        matches = _matches_each(table)
        raise E.NotAllowed(SHORT_GAME.format(seat=seat, clubs=clubs, matches=matches, weeks=weeks, need=matches + 1))


def _setup_check(tx: Tx) -> None:
    """Before week 1: the deck has a schedule for this many clubs (the Opponent cards were counted by it as dealt)."""
    clubs = len(tx.state.clubs)
    if _mine(tx.state).table(clubs) is None:
        known = " or ".join(str(k) for k, _ in _mine(tx.state).schedule)
        raise E.NotAllowed(NO_SCHEDULE.format(known=known, clubs=clubs))


# ---------------------------------------------------------------------------------------------------------------
# The phase.


def _begin(tx: Tx) -> None:
    """This week's pairs: the Host is the first of the two in turn order (l.142)."""
    order = turn_order(tx.state)
    row = _week_row(tx.state, tx.state.week)
    fixtures = []
    seen: set[int] = set()
    for seat in order:
        if seat in seen or seat not in row:
            continue
        other = row[seat]
        seen.update((seat, other))
        fixtures.append(Fixture(host=seat, visitor=other))
    tx.put_slice(NAME, evolve(_mine(tx.state), fixtures=tuple(fixtures)))
    tx.state = evolve(tx.state, turn=0)
    tx.say("day", None, "Matchday: the matches between clubs.", day="club_match")
    for f in fixtures:
        host_club, visitor_club = tx.club(f.host), tx.club(f.visitor)
        tx.say("fixture", f.host, HOSTS.format(host=f.host, host_name=host_club.name, visitor=f.visitor,
                                               visitor_name=visitor_club.name), host=f.host, visitor=f.visitor)


def _over(tx: Tx) -> bool:
    return all(f.step == "played" and all(tx.club(s).consequence_done for s in f.seats) for f in _mine(tx.state).fixtures)


def _awaiting(state: State) -> list[dict[str, Any]]:
    """Public needs: who declares, who still arranges (not what), whose turn it is, who is not ready yet."""
    out: list[dict[str, Any]] = []
    busy = {p.seat for p in state.pending}
    for f in _mine(state).fixtures:
        half = f.half
        if f.step == "formation":
            out.append({"seat": f.declarer, "need": "formation", "half": half, "shapes": list(_mine(state).shapes)})
        elif f.step == "arrange":
            out.extend({"seat": s, "need": "arrange", "half": half, "shape": _shape_text(f.shape) if s == f.declarer else None}
                       for s in f.seats if f.arrangement(s) is None)
        elif f.step in ("after_reveal", "before_match") and f.turn not in busy:
            out.append({"seat": f.turn, "need": "abilities", "timing": f.step})
        elif f.step == "half":
            out.extend({"seat": s, "need": "half", "half": half} for s in f.seats if s not in f.passed and s not in busy)
    return out


def _step(tx: Tx) -> bool:
    """Turns pass by themselves from a club with nothing it may use at that moment."""
    for f in _mine(tx.state).fixtures:
        if f.step in ("after_reveal", "before_match") and not tx.state.pending:
            if not _offers_now(tx, tx.club(f.turn), f):
                tx.say("pass", f.turn, NOTHING_TO_USE.format(seat=f.turn, moment=MOMENTS[f.step]))
                _pass(tx, f, f.turn)
                return True
    return False


def _offers_now(tx: Tx, club: Club, f: Fixture) -> list[Any]:
    timings = STEP_TIMINGS.get(f.step)
    if timings is None or club.lineup is None:
        return []
    if f.step == "played" and (club.result is None or club.consequence_done):
        return []
    if f.step in ("after_reveal", "before_match") and f.turn != club.seat:
        return []
    if f.step == "half" and club.seat in f.passed:
        return []
    return match_offers(tx, club, timings)


def _offers(tx: Tx, club: Club) -> list[Any]:
    f = _mine(tx.state).of(club.seat)
    return [] if f is None else _offers_now(tx, club, f)


def _fixture(tx: Tx, seat: int, what: str) -> Fixture:
    tx.club(seat)
    f = _mine(tx.state).of(seat)
    if f is None:
        raise E.NotAllowed(NOT_NOW.format(seat=seat, what=what, why=NO_FIXTURE.format(seat=seat)))
    return f


def _use_card(tx: Tx, seat: int, card_id: str) -> None:
    """An ability at the fixture's moment: in turn after the reveal and before the match, in any order in a half,
    after the match until the Match consequence roll."""
    f = _fixture(tx, seat, "use a card")
    timings = STEP_TIMINGS.get(f.step)
    if timings is None:
        raise E.NotAllowed(NOT_NOW.format(seat=seat, what="use a card", why=_step_words(f)))
    moment = MOMENTS[f.step]
    if f.step in ("after_reveal", "before_match") and seat != f.turn:
        raise E.NotAllowed(ALREADY_PASSED.format(seat=seat, moment=moment) if seat in f.passed
                           else NOT_YOUR_TURN.format(turn=f.turn, moment=moment))
    if f.step == "half" and seat in f.passed:
        raise E.NotAllowed(ALREADY_PASSED.format(seat=seat, moment=moment))
    use_match_card(tx, seat, card_id, timings)
    if f.step in ("after_reveal", "before_match"):
        other = f.other(seat)
        f = _fixture(tx, seat, "use a card")
        _put(tx, evolve(f, turn=seat if other in f.passed else other))


def _pass_event(tx: Tx, seat: int) -> None:
    """``pass``: no more abilities at this moment (after the reveal, before the match), or ready for the half."""
    f = _fixture(tx, seat, "pass")
    if f.step in ("after_reveal", "before_match"):
        if seat in f.passed:
            raise E.NotAllowed(ALREADY_PASSED.format(seat=seat, moment=MOMENTS[f.step]))
        if seat != f.turn:
            raise E.NotAllowed(NOT_YOUR_TURN.format(turn=f.turn, moment=MOMENTS[f.step]))
        tx.say("pass", seat, PASSES.format(seat=seat, moment=MOMENTS[f.step]))
        _pass(tx, f, seat)
        return
    if f.step == "half":
        if seat in f.passed:
            raise E.NotAllowed(ALREADY_PASSED.format(seat=seat, moment=MOMENTS["half"]))
        tx.say("pass", seat, HALF_READY.format(seat=seat, half=HALVES[f.half]))
        f = evolve(f, passed=f.passed + (seat,))
        _put(tx, f)
        if len(f.passed) == 2:
            _play_half(tx, f)
        return
    raise E.NotAllowed(NOT_NOW.format(seat=seat, what="pass", why=_step_words(f)))


def _pass(tx: Tx, f: Fixture, seat: int) -> None:
    """A club passes in the turns after the reveal or before the match; both passed: the next moment."""
    f = evolve(f, passed=f.passed + (seat,), turn=f.other(seat))
    if len(f.passed) < 2:
        _put(tx, f)
        return
    if f.step == "after_reveal":
        f = evolve(f, step="before_match", passed=(), turn=f.host)
        tx.say("turns", f.host, TURNS.format(seat=f.host, moment=MOMENTS["before_match"]), timing="before_match")
    else:
        f = evolve(f, step="half", passed=(), turn=0)
        tx.say("half", None, f"The {HALVES[f.half]} of Seat {f.host} against Seat {f.visitor}: use your abilities "
                             "during the match, then pass.", half=f.half, host=f.host, visitor=f.visitor)
    _put(tx, f)


def _step_words(f: Fixture) -> str:
    words = {
        "formation": NOT_DECLARER.format(declarer=f.declarer, half=HALVES[f.half]),
        "arrange": f"the clubs are arranging their jersey markers for the {HALVES[f.half]}",
        "tiebreak": "the tie-break dice are awaited",
        "played": "the match is over",
    }
    return words.get(f.step, f"it is the {f.step.replace('_', ' ')}")


# ---------------------------------------------------------------------------------------------------------------
# Formations and arrangements.


def _shape_text(shape: tuple[int, ...]) -> str:
    return "-".join(map(str, shape))


def _parse_shape(tx: Tx, value: Any) -> tuple[int, ...]:
    pitch = tx.board(None).pitch
    caps = dict(pitch.section_max)
    parts = value.split("-") if isinstance(value, str) else []
    ok = len(parts) == len(SECTIONS) and all(p.isdigit() for p in parts)
    shape = tuple(int(p) for p in parts) if ok else ()
    if not ok or sum(shape) != pitch.on_pitch or any(n > caps.get(s, 0) for s, n in zip(SECTIONS, shape)):
        caps_words = ", ".join(f"{caps.get(s, 0)} {w}" for s, w in zip(SECTIONS, ("Defenders", "Midfielders", "Forwards")))
        raise E.NotAllowed(BAD_SHAPE.format(on_pitch=pitch.on_pitch, caps=caps_words, shape=value))
    return shape


def _shape_of(players: tuple[tuple[str, int | None, str | None, str], ...]) -> tuple[int, ...]:
    counts = Counter(z.split("_")[0] for z, _, _, _ in players)
    return tuple(counts.get(s, 0) for s in SECTIONS)


def _on_formation(tx: Tx) -> None:
    """The declaring club's formation for the half, public (l.143, l.156)."""
    seat = seat_of(tx.event)
    f = _fixture(tx, seat, "declare a formation")
    half = HALVES[f.half]
    if f.step != "formation":
        raise E.NotAllowed(NOT_NOW.format(seat=seat, what="declare a formation", why=DECLARED.format(half=half)
                                          if f.step == "arrange" else _step_words(f)))
    if seat != f.declarer:
        raise E.NotAllowed(NOT_NOW.format(seat=seat, what="declare a formation", why=NOT_DECLARER.format(declarer=f.declarer, half=half)))
    shape = _parse_shape(tx, field(tx.event, "shape", str, SHAPE_WORDS))
    _put(tx, evolve(f, step="arrange", shape=shape, secret=()))
    tx.say("formation", seat, DECLARE.format(seat=seat, half=half, shape=_shape_text(shape)), half=f.half, shape=_shape_text(shape))


def _lineup_event(seat: int, a: Arrangement) -> dict[str, Any]:
    return {"type": "lineup", "seat": seat,
            "players": [{"zone": z, "jersey": j, "card": c, "style": s} for z, j, c, s in a.players],
            "stands": a.stands, "assign": {k: dict(zip(("budget", "fanbase", "operation", "fitness"), q)) for k, q in a.assign}}


def _on_arrange(tx: Tx) -> None:
    """A club's secret arrangement for the half (again until both have arranged); checked now, placed at the reveal."""
    ev = tx.event
    seat = seat_of(ev)
    f = _fixture(tx, seat, "arrange its jersey markers")
    if f.step != "arrange":
        raise E.NotAllowed(NOT_NOW.format(seat=seat, what="arrange its jersey markers",
                                          why=NOT_ARRANGING.format(half=HALVES[f.half]) if f.step == "formation" else _step_words(f)))
    players = field(ev, "players", list, "the ten jersey markers: zone, jersey, card, style")
    if f.half == 1:
        arrangement = _first_half(tx, seat, ev, players)
    else:
        arrangement = _second_half(tx, seat, players)
    _keeps_to_the_match(tx, seat, f, arrangement.players)
    f = evolve(f, secret=tuple(a for a in f.secret if a.seat != seat) + (arrangement,))
    _put(tx, f)
    tx.say("arranged", seat, ARRANGED.format(seat=seat, half=HALVES[f.half]), half=f.half)
    if all(f.arrangement(s) is not None for s in f.seats):
        _reveal(tx, f)


def _first_half(tx: Tx, seat: int, ev: Any, players: list[Any]) -> Arrangement:
    """The lineup as for a normal match, tried now (nothing kept) so a wrong one is refused in the base's words."""
    stands = field(ev, "stands", int, "Fanbase markers put on the Stands", default=0)
    assign = field(ev, "assign", dict, "{card id: {resource: amount}} placed on footballer cards for their actions", default={})
    trial = Tx(tx.profile, tx.rules, tx.state, {"type": "lineup", "seat": seat, "players": players, "stands": stands,
                                                "assign": assign}, quiet=True)
    place_lineup(trial, seat)
    placed = trial.club(seat).lineup or ()
    quads = []
    for card_id, res in assign.items():
        quads.append((str(card_id), quad_of({str(k): int(v) for k, v in res.items()})))
    return Arrangement(seat, tuple((p.zone, p.jersey, p.card, p.style) for p in placed), stands, tuple(sorted(quads)))


def _second_half(tx: Tx, seat: int, players: list[Any], *, partial: bool = False) -> Arrangement:
    """The first half's markers in zones of the club's choice (l.156): the same jersey, card and side for each (a
    card named without its marker or side stands on the marker it wore, showing the side it showed).
    ``partial``: the markers placed so far (a person placing them one by one), each one of the first half's not
    placed yet, every check but their count."""
    club = tx.club(seat)
    before = Counter((p.jersey, p.card, p.style) for p in club.lineup or ())
    pitch = tx.board(seat).pitch
    placed: list[tuple[str, int | None, str | None, str]] = []
    for e in players:
        if not isinstance(e, dict) or e.get("zone") not in ZONES:
            raise E.NotAllowed(E.LINEUP_ZONE.format(zone=e.get("zone") if isinstance(e, dict) else e, known=", ".join(ZONES)))
        jersey, card = e.get("jersey"), e.get("card")
        if jersey is None and card is not None:  # a card stands on the marker it wore in the first half
            jersey = next((j for (j, c, _) in before if c == card), None)
        style = e.get("style")
        if style is None:
            style = next((s for (j, c, s) in before if j == jersey and c == card), None)
        placed.append((e["zone"], jersey, card, style))
    got = Counter((j, c, s) for _, j, c, s in placed)
    if (got - before) if partial else (got != before):
        markers = ", ".join(sorted(f"#{j}" if j is not None else "blank" for j, _, _ in before.elements()))
        raise E.NotAllowed(SAME_MARKERS.format(seat=seat, markers=markers))
    per_zone = Counter(z for z, _, _, _ in placed)
    for zone, n in per_zone.items():
        if n > pitch.capacity(zone):
            raise E.NotAllowed(E.LINEUP_ZONE_FULL.format(zone=zone_words(zone, capital=True), cap=pitch.capacity(zone), count=n))
    per_section = Counter(z.split("_")[0] for z, _, _, _ in placed)
    for section, cap in pitch.section_max:
        if per_section[section] > cap:
            raise E.NotAllowed(E.LINEUP_SECTION_FULL.format(section=SECTION_WORDS.get(section, section), cap=cap,
                                                           count=per_section[section]))
    for _, _, card, _ in placed:
        held = club.held(card) if card else None
        if held is not None and card is not None:
            zone = next(z for z, _, c, _ in placed if c == card)
            side = side_of(tx, held, club)
            if zone.split("_")[0] not in side.sections:
                raise E.NotAllowed(E.LINEUP_CARD_SECTION.format(
                    name=tx.name(card), zone=zone_words(zone), sections=" or ".join(SECTION_WORDS.get(x, x) for x in side.sections)))
    return Arrangement(seat, tuple(placed))


def _markers_placed(tx: Tx, club: Club) -> bool | None:
    """The markers of an arrangement placed so far, checked as the arrangement checks them (every check but their
    count): the first half's as a lineup's, the second half's as the first half's markers in other zones, then both
    as a match between clubs asks (`_keeps_to_the_match`)."""
    f = _mine(tx.state).of(club.seat)
    if f is None or f.step != "arrange":
        return None
    if f.half == 1:
        players = tuple((p.zone, p.jersey, p.card, p.style) for p in check_lineup(tx, club, partial=True).lineup)
        left: tuple[tuple[int | None, str | None, str], ...] = ()
    else:
        players = _second_half(tx, club.seat, field(tx.event, "players", list, "the jersey markers placed so far"),
                               partial=True).players
        left = tuple((Counter((p.jersey, p.card, p.style) for p in club.lineup or ())
                      - Counter((j, c, s) for _, j, c, s in players)).elements())
    _keeps_to_the_match(tx, club.seat, f, players, left)
    return True


def _keeps_to_the_match(tx: Tx, seat: int, f: Fixture, players: tuple[tuple[str, int | None, str | None, str], ...],
                        left: tuple[tuple[int | None, str | None, str], ...] = ()) -> None:
    """What a match between clubs asks of an arrangement beyond a lineup's, checked alike on all its markers and on
    those placed so far, so the first marker that breaks it is the one named: the declaring club fields no more in a
    section than its formation gives it (l.143, l.156; with every marker down, a formation kept in each section is the
    formation itself), one Goalkeeper plays (l.160, l.167), and the markers still to place (``left``: a second half's,
    the first half's markers) can still find places their cards play in."""
    club = tx.club(seat)
    got = _shape_of(players)
    if seat == f.declarer:
        for section, want, count in zip(SECTIONS, f.shape, got):
            if count > want:
                raise E.NotAllowed(WRONG_SHAPE.format(seat=seat, shape=_shape_text(f.shape), half=HALVES[f.half],
                                                      want=want, section=SECTION_WORDS[section], got=count))
    keepers = [c for _, _, c, _ in players if c and _keeper(tx, club, c) is not None]
    if len(keepers) > 1:
        raise E.NotAllowed(ONE_KEEPER.format(seat=seat, count=len(keepers)))
    if left:
        _room_for(tx, club, f, got, left)


def _room_for(tx: Tx, club: Club, f: Fixture, got: tuple[int, ...], left: tuple[tuple[int | None, str | None, str], ...]) -> None:
    """The markers still to place fit the places left: for every group of sections, the cards that play only there
    are no more than the places left in it (the places of the formation declared, or of the pitch)."""
    pitch = tx.board(club.seat).pitch
    caps = dict(pitch.section_max)
    room = {}
    for i, section in enumerate(SECTIONS):
        most = min(caps.get(section, 0), sum(pitch.capacity(z) for z in ZONES if z.startswith(section + "_")))
        if club.seat == f.declarer:
            most = min(most, f.shape[i])
        room[section] = max(0, most - got[i])
    plays = []
    for _, card, _ in left:
        held = club.held(card) if card else None
        plays.append((card, frozenset(side_of(tx, held, club).sections) if held is not None else frozenset(SECTIONS)))
    groups = [frozenset(s for i, s in enumerate(SECTIONS) if mask >> i & 1) for mask in range(1, 2 ** len(SECTIONS))]
    for group in sorted(groups, key=len):
        only = [card for card, where in plays if where <= group]
        places = sum(room[s] for s in group)
        if len(only) > places:
            named = [tx.name(c) if c else "a plain marker" for c in only]
            names = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
            sections = " or ".join(SECTION_WORDS[s] for s in SECTIONS if s in group)
            raise E.NotAllowed(NO_ROOM_LEFT.format(seat=club.seat, names=names, sections=sections, room=places))


def _reveal(tx: Tx, f: Fixture) -> None:
    """Both have arranged: the other club's formation is revealed and both arrangements are placed, Host first."""
    shapes = tuple((s, _shape_text(_shape_of(f.arrangement(s).players))) for s in f.seats)  # type: ignore[union-attr]
    tx.say("reveal", None, REVEALED.format(half=HALVES[f.half].capitalize(), host=f.host, visitor=f.visitor,
                                           host_shape=dict(shapes)[f.host], visitor_shape=dict(shapes)[f.visitor]),
           half=f.half, shapes={str(s): w for s, w in shapes},
           lineups={str(a.seat): [{"zone": z, "jersey": j, "card": c, "style": st} for z, j, c, st in a.players] for a in f.secret})
    if f.half == 1:
        event = tx.event
        for seat in f.seats:
            tx.event = _lineup_event(seat, f.arrangement(seat))  # type: ignore[arg-type]
            place_lineup(tx, seat)
        tx.event = event
        f = evolve(_mine(tx.state).of(f.host), step="after_reveal", secret=(), shapes=shapes, turn=f.host, passed=())  # type: ignore[arg-type]
        tx.say("turns", f.host, TURNS.format(seat=f.host, moment=MOMENTS["after_reveal"]), timing="after_reveal")
    else:
        for seat in f.seats:
            a = f.arrangement(seat)
            assert a is not None
            tx.put(evolve(tx.club(seat), lineup=tuple(Placed(z, j, c, s) for z, j, c, s in a.players)))
        f = evolve(f, step="half", secret=(), shapes=shapes, passed=(), turn=0)
        tx.say("half", None, f"The {HALVES[2]} of Seat {f.host} against Seat {f.visitor}: use your abilities during "
                             "the match, then pass.", half=2, host=f.host, visitor=f.visitor)
    _put(tx, f)


# ---------------------------------------------------------------------------------------------------------------
# Playing a half.

#: The five pairs of sections of a half, in the order they are compared (l.152, l.162), each as the first club's
#: zones: its Central Defenders, Central Midfielders, Central Forwards, then its left and its right wing.
SECTION_PAIRS: Final = (
    ("centre_defence", ("def_centre",)),
    ("centre_midfield", ("mid_centre",)),
    ("centre_attack", ("fwd_centre",)),
    ("left_wing", ("def_left", "mid_left", "fwd_left")),
    ("right_wing", ("def_right", "mid_right", "fwd_right")),
)
SECTION_PAIR_WORDS: Final = {
    "centre_defence": "Central Defenders of Seat {a} against Central Forwards of Seat {b}",
    "centre_midfield": "Central Midfielders of Seat {a} against Central Midfielders of Seat {b}",
    "centre_attack": "Central Forwards of Seat {a} against Central Defenders of Seat {b}",
    "left_wing": "Left wing of Seat {a} against the right wing of Seat {b}",
    "right_wing": "Right wing of Seat {a} against the left wing of Seat {b}",
}


def _keeper(tx: Tx, club: Club, card_id: str) -> Any:
    held = club.held(card_id)
    return None if held is None else side_of(tx, held, club).goalkeeper


def _club_keeper(tx: Tx, club: Club) -> tuple[str, Any] | None:
    """The club's Goalkeeper in this match and what his card prints (None without one)."""
    for p in club.lineup or ():
        if p.card:
            keeper = _keeper(tx, club, p.card)
            if keeper is not None:
                return p.card, keeper
    return None


def _strengths(tx: Tx, club: Club, other: Club, zone: str, style: str) -> list[tuple[int, str | None]]:
    """The club's markers of a style in a zone, strongest first, with the other club's changes to them."""
    section = zone.split("_")[0]
    out = []
    for p in club.lineup or ():
        if p.zone != zone or p.style != style:
            continue
        strength = strength_of(tx, club, p)
        for sec, sty, amount in other.opp_mods:  # "the Opponent's forwards get -1 Strength": the other club's
            if sec in ("all", section) and sty in ("any", style):
                strength += amount
        out.append((max(0, strength), p.card))
    return sorted(out, key=lambda x: -x[0])


def _scored(attackers: list[tuple[int, str | None]], defenders: list[tuple[int, str | None]]) -> list[str | None]:
    """The attackers who score, in order (pairs strongest against strongest; a stronger attacker or one left over)."""
    d = [s for s, _ in defenders]
    return [card for i, (s, card) in enumerate(attackers) if i >= len(d) or s > d[i]]


def _play_half(tx: Tx, f: Fixture) -> None:
    """Both are ready: the half's zone pairs in order, the Goalkeepers blocking the first shots they can."""
    if f.half == 1:
        for seat in f.seats:
            apply_mandatory(tx, seat, "during_match")  # once a match, when it kicks off
    a_seat, b_seat = (f.host, f.visitor) if f.half == 1 else (f.visitor, f.host)
    a, b = tx.club(a_seat), tx.club(b_seat)
    pitch = tx.board(a_seat).pitch
    gloves = {}
    keepers = {}
    for club in (a, b):
        found = _club_keeper(tx, club)
        keepers[club.seat] = found
        gloves[club.seat] = found[1].gloves if found else 0  # renewed every half (l.160)
    pairs: list[Pair] = []
    scorers: Counter[str] = Counter()
    blocks = Counter()
    for section, zones in SECTION_PAIRS:
        for zone in zones:
            facing = pitch.faces(zone)
            a_att, b_def = _strengths(tx, a, b, zone, "attack"), _strengths(tx, b, a, facing, "defence")
            b_att, a_def = _strengths(tx, b, a, facing, "attack"), _strengths(tx, a, b, zone, "defence")
            goals = {}
            blocked = {}
            for shooter, shots in ((a_seat, _scored(a_att, b_def)), (b_seat, _scored(b_att, a_def))):
                keeper_of = b_seat if shooter == a_seat else a_seat
                stopped = min(gloves[keeper_of], len(shots))
                gloves[keeper_of] -= stopped
                blocks[keeper_of] += stopped
                blocked[shooter] = stopped
                goals[shooter] = len(shots) - stopped
                for card in shots[stopped:]:
                    if card:
                        scorers[card] += 1
            pairs.append(Pair(section, zone, facing, tuple(s for s, _ in a_att), tuple(s for s, _ in b_def),
                              tuple(s for s, _ in b_att), tuple(s for s, _ in a_def), goals[a_seat], goals[b_seat],
                              blocked[a_seat], blocked[b_seat]))
        section_pairs = [p for p in pairs if p.section == section]
        ga, gb = sum(p.a_goals for p in section_pairs), sum(p.b_goals for p in section_pairs)
        words = SECTION_PAIR_WORDS[section].format(a=a_seat, b=b_seat)
        tx.say("pair", None, PAIR_SCORE.format(pair=words, a=a_seat, b=b_seat, a_goals=ga, b_goals=gb),
               half=f.half, section=section, first=a_seat, second=b_seat,
               zones=[_pair_dict(p) for p in section_pairs], goals={str(a_seat): ga, str(b_seat): gb})
    for seat, count in blocks.items():
        if count and keepers[seat]:
            tx.say("blocked", seat, BLOCKED.format(keeper=tx.name(keepers[seat][0]), seat=seat, count=count,
                                                   other=f.other(seat), half=HALVES[f.half]), card=keepers[seat][0], count=count)
    half = Half(f.half, a_seat, b_seat, tuple(pairs), tuple(sorted(scorers.items())))
    f = evolve(f, halves=f.halves + (half,))
    totals = _half_goals(half)
    tx.say("half_result", None, HALF_SCORE.format(half=HALVES[f.half].capitalize(), host=f.host, visitor=f.visitor,
                                                  host_goals=totals[f.host], visitor_goals=totals[f.visitor]),
           half=f.half, goals={str(s): g for s, g in totals.items()})
    if f.half == 1:
        f = evolve(f, step="formation", half=2, shape=(), secret=(), passed=(), turn=0)
        _put(tx, f)
        tx.say("second_half", f.visitor, f"Seat {f.visitor} declares its formation for the second half.", half=2)
        return
    _put(tx, f)
    score = _match_goals(tx, f)
    if score[f.host] == score[f.visitor]:
        _tiebreak(tx, f, score[f.host])
        return
    _finish(tx, f, score, 0)


def _pair_dict(p: Pair) -> dict[str, Any]:
    return {"zone": p.zone, "facing": p.facing, "attack": list(p.a_attack), "their_defence": list(p.b_defence),
            "their_attack": list(p.b_attack), "defence": list(p.a_defence), "scored": p.a_goals, "conceded": p.b_goals,
            "blocked": p.a_blocked, "saved": p.b_blocked}


def _half_goals(half: Half) -> dict[int, int]:
    return {half.first: sum(p.a_goals for p in half.pairs), half.second: sum(p.b_goals for p in half.pairs)}


def _match_goals(tx: Tx, f: Fixture) -> dict[int, int]:
    """Goals of the whole match: both halves, plus each club's goals before the match and the goals it gave the
    other club ("the Opponent scores")."""
    out = {s: tx.club(s).goals + tx.club(f.other(s)).conceded for s in f.seats}
    for half in f.halves:
        for seat, goals in _half_goals(half).items():
            out[seat] += goals
    return out


def _tiebreak(tx: Tx, f: Fixture, goals: int) -> None:
    """l.167: each rolls a d6 minus the other's Goalkeeper's luck; rerolls as usual."""
    _put(tx, evolve(f, step="tiebreak", rolls=()))
    tx.say("level", None, LEVEL.format(host=f.host, visitor=f.visitor, goals=goals), host=f.host, visitor=f.visitor)
    _ask_rolls(tx, f)


def _ask_rolls(tx: Tx, f: Fixture) -> None:
    asks = tuple(Pending("roll", s, "club_tiebreak", "d6", True) for s in f.seats)
    tx.state = evolve(tx.state, pending=tx.state.pending + asks)


def _luck(tx: Tx, seat: int) -> int:
    found = _club_keeper(tx, tx.club(seat))
    return found[1].luck if found else 0


def _tie_roll(tx: Tx, pending: Pending, value: int) -> None:
    """A tie-break die (the roll purpose ``club_tiebreak``): once both are in, the higher score wins."""
    seat = pending.seat
    assert seat is not None
    f = _mine(tx.state).of(seat)
    assert f is not None
    other = f.other(seat)
    luck = _luck(tx, other)
    tx.say("tiebreak", seat, TIE_ROLL.format(seat=seat, value=value, luck=luck, other=other, score=value - luck),
           value=value, luck=luck, score=value - luck)
    f = evolve(f, rolls=f.rolls + ((seat, value),))
    if len(f.rolls) < 2:
        _put(tx, f)
        return
    scores = {s: v - _luck(tx, f.other(s)) for s, v in f.rolls}
    f = evolve(f, tiebreaks=f.tiebreaks + (tuple((s, v, scores[s]) for s, v in f.rolls),), rolls=())
    if scores[f.host] == scores[f.visitor]:
        _put(tx, f)
        tx.say("tiebreak_level", None, TIE_AGAIN.format(score=scores[f.host]), score=scores[f.host])
        _ask_rolls(tx, f)
        return
    winner = max(f.seats, key=lambda s: scores[s])
    tx.say("tiebreak_won", winner, TIE_WON.format(seat=winner, score=scores[winner], other_score=scores[f.other(winner)]),
           scores={str(s): n for s, n in scores.items()})
    _put(tx, f)
    _finish(tx, f, _match_goals(tx, f), winner)


def _finish(tx: Tx, f: Fixture, score: dict[int, int], winner: int) -> None:
    """Each club's result, Host first (l.166): League points, Stands, experience, abilities, Match consequence."""
    f = evolve(f, step="played", winner=winner, turn=0, passed=())
    _put(tx, f)
    scorers = {s: Counter() for s in f.seats}
    for half in f.halves:
        for card, n in half.scorers:
            seat = f.host if tx.club(f.host).held(card) is not None else f.visitor
            scorers[seat][card] += n
    for seat in f.seats:
        other = f.other(seat)
        if winner:
            result = "win" if winner == seat else "loss"
        else:
            result = "win" if score[seat] > score[other] else "loss"
        against = f"{tx.club(other).name} (Seat {other})" + (" after the tie-break" if winner else "")
        conclude_match(tx, seat, score[seat], score[other], result, scorers[seat], against, opponent_seat=other,
                       halves=[_half_dict(h, seat) for h in f.halves])


def _half_dict(half: Half, seat: int) -> dict[str, Any]:
    """A half seen from one of the two clubs."""
    first = half.first == seat
    pairs = []
    for p in half.pairs:
        if first:
            pairs.append({"section": p.section, **_pair_dict(p)})
        else:
            pairs.append({"section": p.section, "zone": p.facing, "facing": p.zone, "attack": list(p.b_attack),
                          "their_defence": list(p.a_defence), "their_attack": list(p.a_attack), "defence": list(p.b_defence),
                          "scored": p.b_goals, "conceded": p.a_goals, "blocked": p.b_blocked, "saved": p.a_blocked})
    goals = _half_goals(half)
    return {"half": half.number, "first": half.first, "goals": goals[seat], "conceded": goals[half.second if first else half.first],
            "pairs": pairs}


# ---------------------------------------------------------------------------------------------------------------
# The view: public steps and results; each club's arrangement only to itself until it is revealed.


def _view(profile: Profile, state: State, viewer: Any) -> list[tuple[str, Any]]:
    mine = _mine(state)
    out = []
    for f in mine.fixtures:
        item: dict[str, Any] = {
            "host": f.host, "visitor": f.visitor, "step": f.step, "half": f.half, "declarer": f.declarer,
            "shape": _shape_text(f.shape) if f.shape else None, "arranged": sorted(a.seat for a in f.secret),
            "shapes": {str(s): w for s, w in f.shapes}, "turn": f.turn or None, "passed": list(f.passed),
            "halves": [{"half": h.number, "first": h.first, "second": h.second,
                        "goals": {str(s): g for s, g in _half_goals(h).items()},
                        "sections": [{"section": section, "words": SECTION_PAIR_WORDS[section].format(a=h.first, b=h.second),
                                      "zones": [_pair_dict(p) for p in h.pairs if p.section == section]}
                                     for section, _ in SECTION_PAIRS]} for h in f.halves],
            "tiebreaks": [[{"seat": s, "die": d, "score": sc} for s, d, sc in r] for r in f.tiebreaks],
            "winner": f.winner or None,
            "secret": {},
        }
        for a in f.secret:
            if viewer == "all" or viewer == a.seat:
                item["secret"][str(a.seat)] = {
                    "players": [{"zone": z, "jersey": j, "card": c, "style": s} for z, j, c, s in a.players],
                    "stands": a.stands, "shape": _shape_text(_shape_of(a.players))}
        out.append(item)
    schedule = []
    if state.weeks:
        for week in range(1, state.weeks + 1):
            row = _week_row(state, week)
            pairs = sorted({tuple(sorted((s, o))) for s, o in row.items()})
            if pairs:
                schedule.append({"week": week, "pairs": [list(p) for p in pairs]})
    return [(NAME, {"fixtures": out, "schedule": schedule})]


def _candidates(profile: Profile, state: State, need: dict[str, Any]) -> list[dict[str, Any]]:
    """Events worth trying for the module's needs (the page's hints and the tests' random games)."""
    seat = need.get("seat")
    what = need.get("need")
    if what == "formation":
        return [{"type": "formation", "seat": seat, "shape": "4-4-2"}]
    if what == "arrange" and isinstance(seat, int):
        from engine.legal import auto_lineup

        club = state.club(seat)
        assert club is not None
        f = _mine(state).of(seat)
        if f is None:
            return []
        if f.half == 1:
            lineup = auto_lineup(profile, club)
            return [{"type": "arrange", "seat": seat, "players": lineup["players"], "stands": 0}]
        return [{"type": "arrange", "seat": seat,
                 "players": [{"zone": p.zone, "jersey": p.jersey, "card": p.card, "style": p.style} for p in club.lineup or ()]}]
    if what == "half":
        return [{"type": "pass", "seat": seat}]
    return []


CLUB_MATCHES = host.register(host.Module(
    name=NAME,
    title="League matches between clubs",
    doc="003 l.100: in the last weeks the clubs play each other, two halves with secret formations.",
    events={
        "formation": host.EventSpec('seat, shape ("4-4-2": Defenders-Midfielders-Forwards): the formation a club '
                                    "declares for a half of a match between clubs", _on_formation),
        "arrange": host.EventSpec("seat, players (zone, jersey, card, style; the first half also stands and assign): "
                                  "a club's secret arrangement of its jersey markers for a half", _on_arrange,
                                  seat_page=True),
    },
    phases=(host.Phase(STAGE, "Matchday (the matches between clubs)", begin=_begin, step=_step, over=_over,
                       awaiting=_awaiting, use_card=_use_card, pass_=_pass_event, offers=_offers),),
    hooks={"opponents_needed": _opponents_needed, "week_opponent": _week_opponent, "week_phases": _week_phases,
           "setup_check": _setup_check, "club_check": _club_check, "tactics_allowed": _tactics, "view": _view, "candidates": _candidates,
           "markers_placed": _markers_placed},
    rolls={"club_tiebreak": _tie_roll},
    data=(host.DataFile(DATA_FILE, _read_schedule, doc="the schedules of matches between 2, 3 and 4 clubs"),),
    state=host.Slice(initial=lambda game: ClubMatches(), decode=_decode, prepare=_prepare),
    excludes=("referee",),
))
