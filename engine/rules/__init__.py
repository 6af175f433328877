"""The base game of *Eleven* as a pack: its events, phases, rolls, effect ops and condition tests, by rulebook section.

Each file is a section of the rulebook (``../shared/rules/000_1f57cca4583529f7.txt``): `setup`, `monday`,
`actions` (Tuesday to Thursday), `matchday`, `league`, `end_of_round`, `final_scoring`, with the additional rules
in `suspension_and_injury`, the cards' `abilities` and `effects`, `dice`, and the table's corrections in `adjust`.
The pack names no module; the game's modules fill the hooks its rules call (`engine.host.HOOKS`).
"""

from __future__ import annotations

from typing import Any

from engine import host
from engine.cards import CONDITION_TESTS, EFFECT_OPS
from engine.events import EVENT_TYPES
from engine.rules import actions, adjust, dice, end_of_round, final_scoring, league, matchday, monday, setup
from engine.rules.abilities import pass_window, use_moment_card
from engine.rules.context import event_targets
from engine.rules.effects import OPS, TESTS, resolve_effect_roll
from engine.state import STAGE_NAMES, Pending
from engine.tx import Tx

HANDLERS = {
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
    "board_meeting": monday.on_board_meeting,
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
    "lineup": matchday.on_lineup,
    "tactic_played": matchday.on_tactic_played,
    "kickoff": matchday.on_kickoff,
    "suspensions": end_of_round.on_suspensions,
    "objective_result": final_scoring.on_objective_result,
    "adjust": adjust.on_adjust,
}
assert set(HANDLERS) == set(EVENT_TYPES)


def _effect_roll(tx: Tx, pending: Pending, value: int) -> None:
    assert pending.seat is not None
    resolve_effect_roll(tx, pending.seat, pending.ref, value, event_targets(tx.event))


def _whole(low: int, high: int, what: str) -> Any:
    """An option's check: a whole number in a range (a sentence naming the option otherwise)."""
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"{what} is a whole number from {low} to {high}, not {value!r}")
        return value

    return check


_DAY = {"use_card": actions.use_action, "pass_": actions.pass_turn}

#: The base game: "eleven".
ELEVEN = host.register(host.Module(
    name="eleven",
    title="Eleven",
    doc="Eleven: Football Manager Board Game, the base rulebook.",
    events={name: host.EventSpec(EVENT_TYPES[name], handler) for name, handler in HANDLERS.items()},
    phases=(
        host.Phase("setup", STAGE_NAMES["setup"], over=setup.setup_over, awaiting=setup.setup_awaiting),
        host.Phase("monday", STAGE_NAMES["monday"], begin=monday.begin_monday, over=monday.monday_over,
                   awaiting=monday.monday_awaiting, use_card=use_moment_card),
        *(host.Phase(day, STAGE_NAMES[day], begin=actions.begin_day, step=actions.next_turn, over=actions.day_over,
                     awaiting=actions.day_awaiting, **_DAY) for day in actions.TURN_DAYS),
        host.Phase("matchday", STAGE_NAMES["matchday"], begin=matchday.begin_matchday, over=matchday.matchday_over,
                   awaiting=matchday.matchday_awaiting, use_card=matchday.use_match_card),
        host.Phase("results", STAGE_NAMES["results"], begin=league.begin_results),
        host.Phase("end_of_round", STAGE_NAMES["end_of_round"], begin=end_of_round.begin_end_of_round,
                   end=end_of_round.end_end_of_round, use_card=use_moment_card, pass_=pass_window,
                   windows_closed=end_of_round.close_round),
        host.Phase("final_scoring", STAGE_NAMES["final_scoring"], begin=final_scoring.begin_final_scoring,
                   end=final_scoring.end_final_scoring, use_card=use_moment_card, pass_=pass_window,
                   windows_closed=final_scoring.score_objectives),
        host.Phase("over", STAGE_NAMES["over"], over=lambda tx: False),
    ),
    rolls={
        "board_meeting": monday.board_meeting_roll,
        "potential": actions.potential_roll,
        "match_consequence": matchday.consequence_roll,
        "injury": matchday.injury_or_suspension_roll,
        "suspension": matchday.injury_or_suspension_roll,
        "effect": _effect_roll,
        "opponent_die": league.opponent_die,
    },
    ops={**{name: (EFFECT_OPS[name], apply) for name, apply in OPS.items()}, "hire": (EFFECT_OPS["hire"], actions.hire_op)},
    tests={name: (CONDITION_TESTS[name], check) for name, check in TESTS.items()},
    options={
        "weeks": host.Option("the game's length in weeks (default: as many as the Opponent cards dealt to each club)",
                             _whole(1, 20, "The number of weeks"), choices=tuple(range(1, 21)), title="Weeks"),
    },
    first_phase="setup",
    week=("monday", "tuesday", "wednesday", "thursday", "matchday", "results", "end_of_round"),
    finale=("final_scoring", "over"),
    stage_names=STAGE_NAMES,
), is_pack=True)
