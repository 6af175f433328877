"""New Objective cards (003 l.355–361): five more Objective cards shuffled into the Objective deck, "some of these
cards refer to Green, Blue, or Red Opponents".

The cards are data in ``objectives.toml`` with ``module = "new_objectives"``, so a game deals them only when it
plays this module (the host leaves a module's cards out of the other games' decks).  Their conditions use the test
this module adds, ``opponents``: how many of the club's matches this game were against Opponents whose team rolls
a given die (``opp_green``, ``opp_blue``, ``opp_red``: the Opponent die a team uses on the League table, 000 l.721)
with a given result.  To know it, the module keeps each club's match results: once every match of a week is over
(after Matchday, before the League results) it records the Opponent card, the result and the goals of each club.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from engine import host
from engine.cards import Condition, OpSpec, Param
from engine.rules.effects import Ctx
from engine.rules.league import week_opponent
from engine.state import Club, State, evolve
from engine.tx import Tx

NAME: Final = "new_objectives"
PHASE: Final = "match_record"
DICE: Final = ("opp_green", "opp_blue", "opp_red")
#: The first revision of the readings (engine/RULES.md, "Revisions") in which a week's match is recorded against the
#: Opponent card the club played that week (none for a match between clubs); before, against the week's card of its
#: stack, which Matches between clubs (dealt fewer cards) shift.
PLAYED_REVISION: Final = 3
#: What a match's result must be for ``opponents`` to count it.
RESULTS: Final = MappingProxyType({"win": ("win",), "draw": ("draw",), "loss": ("loss",), "unbeaten": ("win", "draw"),
                                   "not_won": ("draw", "loss"), "any": ("win", "draw", "loss")})


class Match(NamedTuple):
    """One club's match: the week, the Opponent card ("" for a match against another club), the result and the
    goals."""

    seat: int
    week: int
    card: str
    result: str
    goals: int
    conceded: int


class Record(NamedTuple):
    """The module's slice: every match played so far, week by week."""

    matches: tuple[Match, ...] = ()


def _week(state: State, week: int, phases: tuple[str, ...]) -> tuple[str, ...]:
    kept = _WEEK
    if kept and kept[0] is phases:  # the same week as last asked (at the end of every phase): the same answer
        return kept[1]  # type: ignore[no-any-return]
    i = phases.index("matchday") + 1
    out = phases[:i] + (PHASE,) + phases[i:]
    kept[:] = (phases, out)
    return out


_WEEK: list[Any] = []  # (the week's phases last asked about, with this module's phase)


def _record(tx: Tx) -> None:
    """Every match of the week is over (goals given after the result included): each club's is kept."""
    mine: Record = tx.slice(NAME)
    week = tx.state.week
    if tx.state.game.revision < PLAYED_REVISION:  # a game begun before: recorded as it was
        played = tuple(Match(c.seat, week, c.opponents[week - 1], c.result, c.goals, c.conceded)
                       for c in tx.state.clubs if c.result is not None and week <= len(c.opponents))
    else:  # the card the club played this week; a match against another club is against no Opponent card
        played = tuple(Match(c.seat, week, week_opponent(tx.state, c, week) or "", c.result, c.goals, c.conceded)
                       for c in tx.state.clubs if c.result is not None)
    tx.put_slice(NAME, evolve(mine, matches=mine.matches + played))


def matches(profile: Any, state: State, seat: int, die: str = "any") -> list[Match]:
    """The club's matches so far against Opponents whose team rolls ``die`` (``any``: every match, those against
    other clubs included)."""
    mine: Record = state.slice(NAME)
    board = host.rules_for(state.game).board(profile, state, None, profile.board)  # type: ignore[attr-defined]
    return [m for m in mine.matches if m.seat == seat
            and (die == "any" or (m.card and board.team(profile.cards[m.card].team).die == die))]


def _opponents(tx: Tx, club: Club, cond: Condition, ctx: Ctx) -> bool:
    """``opponents``: the count of the club's matches against Opponents of a die, with a result (and at least
    ``scored`` goals), lies between ``at_least`` (default 1 when neither bound is given) and ``at_most``."""
    results = RESULTS[str(cond.get("result", "win"))]
    scored = int(cond.get("scored", 0))  # type: ignore[arg-type]
    count = sum(1 for m in matches(tx.profile, tx.state, club.seat, str(cond.get("die", "any")))
                if m.result in results and m.goals >= scored)
    low = cond.get("at_least")
    high = cond.get("at_most")
    if low is None and high is None:
        low = 1
    return (low is None or count >= int(low)) and (high is None or count <= int(high))  # type: ignore[arg-type]


def _int(doc: str, low: int, high: int) -> Param:
    return Param(type="int", doc=doc, low=low, high=high, required=False)


OPPONENTS: Final = OpSpec(
    doc="How many of the club's matches this game were against Opponents whose team rolls this die, with this result "
        "(New Objective cards module): at least `at_least` (1 when no bound is given) and at most `at_most`.",
    params=MappingProxyType({
        "die": Param(type="choice", doc="the Opponent team's die (any: every Opponent)", choices=(*DICE, "any"),
                     required=False, default="any"),
        "result": Param(type="choice", doc="the match's result (unbeaten: a win or a draw; not_won: a draw or a loss)",
                        choices=tuple(RESULTS), required=False, default="win"),
        "scored": _int("goals the club scored in that match, at least", 0, 9),
        "at_least": _int("matches, at least", 0, 20),
        "at_most": _int("matches, at most", 0, 20),
    }),
)


def _view(profile: Any, state: State, viewer: Any) -> list[tuple[str, Any]]:
    """Each club's results against Opponents of each die, as the Objectives count them (the results are public)."""
    board = host.rules_for(state.game).board(profile, state, None, profile.board)  # type: ignore[attr-defined]
    out: dict[str, Any] = {}
    for club in state.clubs:
        tally: dict[str, dict[str, int]] = {}
        for m in matches(profile, state, club.seat):
            if not m.card:
                continue  # a match against another club: no Opponent's colour
            die = board.team(profile.cards[m.card].team).die
            row = tally.setdefault(die, {"win": 0, "draw": 0, "loss": 0})
            row[m.result] += 1
        out[str(club.seat)] = tally
    return [(NAME, {"by_die": out})]


def _decode(d: Mapping[str, Any]) -> Record:
    return Record(tuple(Match(**m) for m in d["matches"]))


NEW_OBJECTIVES = host.register(host.Module(
    name=NAME,
    title="New Objective cards",
    doc="Five more Objective cards in the Objective deck, some about Green, Blue or Red Opponents (003 l.355–361); "
        "the table keeps each club's results against every Opponent to check them.",
    phases=(host.Phase(PHASE, "the week's match record", begin=_record),),
    hooks={"week_phases": _week, "view": _view},
    tests={"opponents": (OPPONENTS, _opponents)},
    state=host.Slice(initial=lambda game: Record(), decode=_decode),
))
