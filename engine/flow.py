"""How a game moves from stage to stage: after every event, each phase that is over ends and the next begins.

The order is the pack's: its setup, then for each week the stages the ``week_phases`` hook gives (the pack's week
with whatever the game's modules insert), then its finale (the Final scoring, the end).  A phase never ends while
anything is pending or a module is ``busy``; inside a phase, ``step`` moves on (the next seat's turn).
"""

from __future__ import annotations

from engine.state import State
from engine.tx import Tx

_STAGE, _WEEK, _EVENTS = (State._fields.index(name) for name in ("stage", "week", "events"))
_new = tuple.__new__

#: A bound on the moves made after one event, so a broken phase or module cannot loop forever.
MAX_MOVES = 256


def week_plan(tx: Tx, week: int) -> tuple[str, ...]:
    """The stages of a week, in order."""
    return tx.rules.week_phases(tx.state, week, tx.rules.pack.week)  # type: ignore[attr-defined,no-any-return]


def next_stage(tx: Tx) -> tuple[str, int] | None:
    """The stage (and week) after the current one; None when the game has nowhere further to go."""
    pack = tx.rules.pack
    stage, week = tx.state.stage, tx.state.week
    if stage == pack.first_phase:
        return week_plan(tx, 1)[0], 1
    plan = week_plan(tx, week)
    if stage in plan:
        i = plan.index(stage)
        if i + 1 < len(plan):
            return plan[i + 1], week
        if week < tx.state.weeks:
            return week_plan(tx, week + 1)[0], week + 1
        return (pack.finale[0], week) if pack.finale else None
    if stage in pack.finale:
        i = pack.finale.index(stage)
        return (pack.finale[i + 1], week) if i + 1 < len(pack.finale) else None
    return None


def advance(tx: Tx) -> None:
    """Move on as far as the game can go by itself: the next turn, the end of a phase and the beginning of the next."""
    rules = tx.rules
    phases = rules.phases
    moves = 0
    while moves < MAX_MOVES:  # `for _ in range(MAX_MOVES)` without making a range and its iterator every event
        moves += 1
        state = tx.state
        if state.pending:
            return
        stage = state.stage
        # the ``busy`` hook's fillers (and ``setup_busy``'s during the setup), asked without the hook's own call
        for busy in (rules.setup_holds if stage == "setup" else rules.holds):
            if busy(state):
                return
        phase = phases.get(stage)
        if phase is None:
            return
        if phase.step is not None and phase.step(tx):
            continue
        if phase.over is not None and not phase.over(tx):
            return
        after = next_stage(tx)
        if after is None:
            return
        if phase.end is not None:
            phase.end(tx)
        stage, week = after
        # evolve(state, stage=..., week=..., events=...) without its call: the event counted in the same copy
        values = [*tx.state]
        values[_STAGE] = stage
        values[_WEEK] = week
        values[_EVENTS] = tx.count
        tx.state = _new(State, values)
        begin = phases[stage].begin  # `rules.phase(stage)` without its call
        if begin is not None:
            begin(tx)
