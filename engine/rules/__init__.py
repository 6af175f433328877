"""The reducer: one handler per event type; each handler works on a `Tx` and raises to refuse the event."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, NamedTuple

from engine import errors as E
from engine.cards import Profile
from engine.events import EVENT_TYPES
from engine.rules import actions, adjust, dice, flow, match, setup
from engine.rules.common import Announcement, Tx
from engine.state import State, evolve

HANDLERS: dict[str, Callable[[Tx], None]] = {
    "club": setup.on_club,
    "directors": setup.on_directors,
    "starting_players": setup.on_starting_players,
    "opponents": setup.on_opponents,
    "objective": setup.on_objective,
    "tactic": setup.on_tactic,
    "first_player": setup.on_first_player,
    "roll": dice.on_roll,
    "reroll": dice.on_reroll,
    "keep": dice.on_keep,
    "board_meeting": flow.on_board_meeting,
    "hire_player": actions.on_hire_player,
    "hire_youngster": actions.on_hire_youngster,
    "sell": actions.on_sell,
    "hire_staff": actions.on_hire_staff,
    "sponsor": actions.on_sponsor,
    "build": actions.on_build,
    "office": actions.on_office,
    "potential": actions.on_potential,
    "use_card": actions.on_use_card,
    "pass": actions.on_pass,
    "lineup": match.on_lineup,
    "tactic_played": match.on_tactic_played,
    "kickoff": match.on_kickoff,
    "suspensions": flow.on_suspensions,
    "objective_result": flow.on_objective_result,
    "adjust": adjust.on_adjust,
}
assert set(HANDLERS) == set(EVENT_TYPES)


class Step(NamedTuple):
    """The state after an event and what the engine says happened."""

    state: State
    announcements: tuple[Announcement, ...]


def apply(profile: Profile, state: State, event: Mapping[str, Any]) -> Step:
    """Apply one event; an illegal event raises an `engine.errors.EngineError` and changes nothing."""
    if type(event) is not dict and not isinstance(event, Mapping):  # the exact check first: ABC checks are slow
        raise E.BadEvent(E.BAD_FIELD.format(type="?", field="event", why="an event is a mapping with a \"type\""))
    kind = event.get("type")
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise E.BadEvent(E.BAD_EVENT_TYPE.format(type=kind, known=", ".join(EVENT_TYPES)))
    if state.stage == "over" and kind != "adjust":
        raise E.WrongStage(E.GAME_OVER)
    tx = Tx(profile, state, event)
    handler(tx)
    return Step(evolve(tx.state, events=state.events + 1), tuple(tx.anns))


def replay(profile: Profile, events: Iterable[Mapping[str, Any]]) -> State:
    """Fold events from the initial state; the same events always give the same state."""
    state = State()
    for event in events:
        state = apply(profile, state, event).state
    return state
