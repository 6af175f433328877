"""Board tables a seat plays with that the printed boards fix and the rule modules change (Unique Setup cards, the
new Stadium Infrastructure): the Stadium board's spaces, the Fanbase each Stands takes, what a Stat marker does past
the top of its track or below 1, and the Production keyword.  The rulebook's values are the defaults; a board
profile may state others."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine
from engine import errors as E
from engine.loader import DEMO_FOLDER, DataError, clear_cache
from engine.state import State

from engine import host
from engine.rules.context import move_stat
from engine.tx import Tx

from tests.engine.helpers import at_stage, club, demo, refused, run, set_club, started, tuesday
from tests.engine.test_match_and_round import BASIC, lineup, matchday


def _deck(tmp_path: Path, board_edit: Any) -> engine.Profile:
    """A deck inheriting the demo's cards, with the demo's board.toml changed by ``board_edit(text) -> text``."""
    (tmp_path / "profile.toml").write_text('name = "Board test"\ninherit = "demo"\n')
    (tmp_path / "board.toml").write_text(board_edit((DEMO_FOLDER / "board.toml").read_text()))
    clear_cache()
    return engine.load_profile(tmp_path)


def _rules(extra: str) -> Any:
    return lambda text: text.replace("[rules]\n", "[rules]\n" + extra + "\n", 1)


def test_the_rulebooks_board_has_seven_spaces_one_fanbase_per_stands_and_the_rulebooks_stat_steps() -> None:
    """000 l.556–565: seven tokens, one of each kind but two Stands; l.633: "up to 1 [Fanbase] on each of the Stands";
    l.225: past 6 "gain the indicated Resource marker", below 1 "lose the indicated Resource marker (If you don't
    have any, lose 1 € instead ...)"."""
    board = demo().board
    assert dict(board.infrastructure_spaces) == {"improvement": 4, "stands": 2, "adboard": 1}
    assert [k.space for k in board.infrastructure if k.id == "stands"] == ["stands"]
    assert board.stands_capacity == (1, 1) and board.printed_stands() == 2
    assert (board.stat_past_top.own, board.stat_past_top.budget, board.stat_past_top.vp) == (1, 0, 0)
    assert (board.stat_below_bottom.own, board.stat_below_bottom.instead) == (1, 1)


def test_a_full_kind_of_space_refuses_another_token_of_it(tmp_path: Path) -> None:
    """A board with three improvement spaces holds three of the four improvements (a Unique Setup card may cover one)."""
    profile = _deck(tmp_path, _rules("infrastructure_spaces = { improvement = 3 }"))
    _, state = tuesday(seats=(1,), profile=profile)
    state = set_club(state, 1, res=(20, 0, 0, 0), infrastructure=("lighting", "merchandise", "training_camp"))
    text = refused(profile, state, {"type": "build", "seat": 1, "kind": "training_ground"}, E.NotAllowed)
    assert text == E.INFRA_NO_SPACE.format(seat=1, name="Training ground", spaces=3, space="improvement")
    # the Stands have spaces of their own
    state = run(profile, [{"type": "build", "seat": 1, "kind": "stands"}], state)
    assert club(state, 1).infrastructure[-1] == "stands"
    view = engine.view(profile, state)["clubs"][0]["stadium"]
    assert view["spaces"]["improvement"] == {"spaces": 3, "built": 3}
    assert {b["kind"]: b["why_not"] for b in view["build"]}["training_ground"] == text


def test_a_stands_that_takes_two_fanbase_lets_the_lineup_place_three(tmp_path: Path) -> None:
    """The Fanbase a lineup may place is what the printed Stands take together (here #1: 1 and #2: 2)."""
    profile = _deck(tmp_path, _rules("stands_capacity = [1, 2]"))
    _, state = matchday(seats=(1,), profile=profile)
    state = set_club(state, 1, res=(0, 5, 0, 5))
    assert refused(profile, state, lineup(1, BASIC, 4), E.NotAllowed) == E.STANDS_LIMIT.format(seat=1, stands=3, count=4)
    assert club(run(profile, [lineup(1, BASIC, 3)], state), 1).stands == 3


def _move(profile: engine.Profile, state: State, stat: str, steps: int) -> tuple[Any, dict[str, Any]]:
    """Seat 1's Stat marker moved as any effect moves it, and what the engine said."""
    tx = Tx(profile, host.rules_for(state.game), state, {})
    moved = move_stat(tx, club(state, 1), stat, steps)
    return moved, tx.anns[-1]


def test_a_board_may_say_what_a_step_past_the_top_and_below_one_does(tmp_path: Path) -> None:
    """Past the top: 2 of the Stat's resource and a VP token per step; below 1: 2 of it per step, 1 € for each missing."""
    edit = lambda text: text.replace(  # noqa: E731
        "[stats.production]", "[stats.past_top]\nown = 2\nvp = 1\n\n[stats.below_bottom]\nown = 2\ninstead = 1\n\n[stats.production]")
    profile = _deck(tmp_path, edit)
    state = set_club(started(profile, seats=(1,)), 1, stats=(2, 6, 1, 2), res=(5, 0, 1, 0), vp_tokens=0)
    moved, said = _move(profile, state, "fanbase", 2)
    assert moved.stats[1] == 6 and moved.res[1] == 4 and moved.vp_tokens == 2
    assert said["gained"] == {"fanbase": 4, "vp": 2}
    assert said["text"] == ("Seat 1's Fanbase Stat moves from 6 to 6 and the club gains 4 Fanbase and 2 VP token(s) "
                            "for the steps past the top.")
    # one step below 1 loses 2 Operation; the club has 1, so the second costs 1 €
    moved, said = _move(profile, state, "operation", -1)
    assert moved.stats[2] == 1 and moved.res[2] == 0 and moved.res[0] == 4
    assert said["lost"] == {"operation": 1, "budget": 1}


def test_production_abilities_apply_on_monday_by_themselves(tmp_path: Path) -> None:
    """003 l.283: "Production is a new keyword ... On Monday, during Production, resolve their effects"; the ability
    applies whatever ``optional`` says, like an immediate bonus."""
    edit = lambda text: text.replace(  # noqa: E731
        'id = "training_ground"', 'id = "training_ground"\nabilities = [{ timing = "production", effects = '
        '[{ op = "gain", resource = "operation", amount = 2 }] }]'
    ).replace('abilities = [{ timing = "immediate", effects = [{ op = "stat", stat = "fitness", steps = 1 }], '
              'text = "Fitness level +1." }]\n', "", 1)
    profile = _deck(tmp_path, edit)
    kind = profile.board.infrastructure_kind("training_ground")
    assert [a.timing for a in kind.abilities] == ["production"] and kind.abilities[0].optional
    state = at_stage(profile, started(profile, seats=(1,)), "tuesday")
    without = at_stage(profile, state, "monday")
    built = at_stage(profile, set_club(state, 1, infrastructure=("training_ground",)), "monday")
    assert club(built, 1).res[2] == club(without, 1).res[2] + 2


@pytest.mark.parametrize("extra, message", [
    ("stands_capacity = [1]", 'board.toml, field "rules.stands_capacity": expected a list of 2 whole numbers 0–9, got [1]'),
    ("infrastructure_spaces = { garden = 2 }", 'board.toml, field "rules.infrastructure_spaces.garden": unknown field; the fields here are: adboard, improvement, stands'),
])
def test_bad_board_tables_are_refused_on_load_naming_the_field(tmp_path: Path, extra: str, message: str) -> None:
    with pytest.raises(DataError) as info:
        _deck(tmp_path, _rules(extra))
    assert str(info.value) == message
