"""New Objective cards (003 l.355–361): five cards shuffled into the Objective deck, some about Green, Blue or Red
Opponents; dealt only in games that play the module; checked from each club's record of results per Opponent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine
from engine import errors as E
from engine import host
from engine.cards import Condition
from engine.legal import deck, setup_events
from engine.loader import DataError
from engine.modules import new_objectives as N
from engine.rules.effects import Ctx, condition_holds
from engine.rules.final_scoring import score_objectives
from engine.state import Game, State, evolve
from engine.tx import Tx

from tests.engine.helpers import advance_until, club, demo, refused, run, set_club

GAME = {"type": "game", "modules": ["new_objectives"], "options": {"weeks": 8}}
NAMES = ("Green Them Down", "Out of the Blue", "Get Red'dy", "Hat Trick", "Well-oiled Machine")  # 003 l.359


def _new_cards() -> list[Any]:
    return [c for c in demo().cards_of("objective") if c.module == N.NAME]


def test_the_five_cards_are_in_the_objective_deck_only_of_games_that_play_the_module() -> None:
    # 003 l.357: "During Setup, shuffle these cards into the Objective deck."
    profile = demo()
    assert tuple(c.name for c in _new_cards()) == NAMES
    base = {c.id for c in deck(profile, Game(), "objective")}
    played = {c.id for c in deck(profile, Game(modules=(N.NAME,)), "objective")}
    assert played - base == {c.id for c in _new_cards()} and base < played


def test_a_new_objective_card_is_refused_in_a_game_without_the_module() -> None:
    profile = demo()
    card = _new_cards()[0]
    events = setup_events(profile, [1, 2])
    at = next(i for i, e in enumerate(events) if e["type"] == "objective")
    state = run(profile, events[:at])
    assert refused(profile, state, {**events[at], "card": card.id}, E.NotAllowed) == \
        host.CARD_OF_MODULE.format(name=card.name, title="New Objective cards")
    with_module = setup_events(profile, [1, 2], game=GAME)
    at = next(i for i, e in enumerate(with_module) if e["type"] == "objective")
    state = run(profile, with_module[:at] + [{**with_module[at], "card": card.id}])
    assert club(state, 1).objective == card.id


def _record(*matches: tuple[int, str, str, int]) -> State:
    """A game of the module at its Final scoring whose seat 1 played these matches: (week, Opponent card, result, goals)."""
    profile = demo()
    state = run(profile, setup_events(profile, [1, 2], game=GAME))
    record = tuple(N.Match(1, week, card, result, goals, 0) for week, card, result, goals in matches)
    return evolve(state, stage="final_scoring", modules=tuple((k, N.Record(record) if k == N.NAME else v)
                                                                for k, v in state.modules))


def _holds(state: State, **params: Any) -> bool | None:
    tx = Tx(demo(), host.rules_for(state.game), state, {})
    cond = Condition(test="opponents", args=tuple(sorted(params.items())))
    return condition_holds(tx, club(state, 1), cond, Ctx(seat=1))


def _card_of(die: str, n: int = 0) -> str:
    """An Opponent card whose team rolls ``die`` (the ``n``-th such team)."""
    profile = demo()
    teams = [t.id for t in profile.board.teams if t.die == die]
    return next(c.id for c in profile.cards_of("opponent") if c.team == teams[n])


def test_the_opponents_test_counts_matches_by_the_die_of_the_opponents_team() -> None:
    green, green2, blue, red = _card_of("opp_green"), _card_of("opp_green", 1), _card_of("opp_blue"), _card_of("opp_red")
    state = _record((1, green, "win", 2), (2, green2, "draw", 1), (3, blue, "win", 3), (4, red, "loss", 0))
    assert _holds(state, die="opp_green", result="win", at_least=1) is True
    assert _holds(state, die="opp_green", result="win", at_least=2) is False
    assert _holds(state, die="opp_green", result="unbeaten", at_least=2) is True
    assert _holds(state, die="opp_green", result="not_won", at_most=0) is False
    assert _holds(state, die="opp_red", result="loss", at_most=0) is False
    assert _holds(state, die="opp_blue", result="win", scored=3) is True
    assert _holds(state, die="opp_blue", result="win", scored=4) is False
    assert _holds(state, die="any", result="loss", at_most=1) is True
    assert _holds(state, result="any", at_least=4) is True


@pytest.mark.parametrize("name, matches, result", [
    ("Green Them Down", [("opp_green", 0, "win"), ("opp_green", 1, "win")], "perfect"),
    ("Green Them Down", [("opp_green", 0, "win"), ("opp_green", 1, "win"), ("opp_green", 2, "draw")], "fulfilled"),
    ("Green Them Down", [("opp_green", 0, "win"), ("opp_blue", 0, "win")], "missed"),
    ("Out of the Blue", [("opp_blue", 0, "win"), ("opp_blue", 1, "win"), ("opp_blue", 2, "win")], "perfect"),
    ("Get Red'dy", [("opp_red", 0, "win"), ("opp_red", 1, "loss")], "fulfilled"),
    ("Get Red'dy", [("opp_red", 0, "draw"), ("opp_red", 1, "draw")], "missed"),
    ("Hat Trick", [("opp_green", 0, "win"), ("opp_blue", 0, "win"), ("opp_red", 0, "win")], "fulfilled"),
    ("Well-oiled Machine", [("opp_green", 0, "loss"), ("opp_blue", 0, "loss"), ("opp_red", 0, "loss")], "missed"),
    ("Well-oiled Machine", [("opp_green", 0, "loss"), ("opp_blue", 0, "win")], "perfect"),
])
def test_each_new_objective_is_scored_by_the_table_from_the_record(name: str, matches: list[tuple[str, int, str]],
                                                                   result: str) -> None:
    profile = demo()
    card = next(c for c in _new_cards() if c.name == name)
    state = _record(*((week, _card_of(die, n), res, 1) for week, (die, n, res) in enumerate(matches, start=1)))
    state = set_club(state, 1, objective=card.id, objective_result=None)
    state = set_club(state, 2, objective_result="missed")
    tx = Tx(profile, host.rules_for(state.game), state, {})
    score_objectives(tx)
    assert club(tx.state, 1).objective_result == result  # no word from the table is needed
    assert not [p for p in tx.state.pending if p.need == "objective_result"]


def test_hat_tricks_perfect_needs_three_goals_in_a_win_against_a_red_opponent() -> None:
    profile = demo()
    card = next(c for c in _new_cards() if c.name == "Hat Trick")
    for goals, result in ((3, "perfect"), (2, "fulfilled")):
        state = _record((1, _card_of("opp_green"), "win", 1), (2, _card_of("opp_blue"), "win", 1),
                        (3, _card_of("opp_red"), "win", goals))
        state = set_club(set_club(state, 1, objective=card.id, objective_result=None), 2, objective_result="missed")
        tx = Tx(profile, host.rules_for(state.game), state, {})
        score_objectives(tx)
        assert club(tx.state, 1).objective_result == result


def test_every_match_of_the_game_is_recorded_once_the_weeks_matches_are_over() -> None:
    profile = demo()
    state = run(profile, setup_events(profile, [1, 2], game={**GAME, "options": {"weeks": 2}}))
    state = advance_until(profile, state, lambda s: s.stage == "over")
    matches = state.slice(N.NAME).matches
    assert [(m.seat, m.week) for m in matches] == [(1, 1), (2, 1), (1, 2), (2, 2)]
    for m in matches:
        assert m.card == club(state, m.seat).opponents[m.week - 1] and m.result in ("win", "draw", "loss")
    shown = engine.view(profile, state, "table")["modules"][N.NAME]["by_die"]
    assert sum(n for row in shown["1"].values() for n in row.values()) == 2


def _deck(tmp_path: Path, card: str) -> Path:
    folder = tmp_path / "deck"
    folder.mkdir()
    (folder / "profile.toml").write_text('name = "Mine"\ninherit = "demo"\n')
    shipped = (Path(engine.__file__).parent / "data" / "demo" / "objectives.toml").read_text()
    (folder / "objectives.toml").write_text(shipped + card)
    return folder


def test_a_card_naming_an_unknown_module_or_die_is_refused_on_load(tmp_path: Path) -> None:
    card = '\n[[card]]\nid = "obj_99"\nmodule = "colour"\nname = "X"\ngoal = [{ test = "budget", at_least = 1 }]\nperfect = []\n'
    with pytest.raises(DataError) as info:
        engine.load_profile(_deck(tmp_path, card))
    assert str(info.value).startswith('objectives.toml, card obj_99, field "module": expected the name of a rule module (')
    (tmp_path / "deck").rename(tmp_path / "old")
    card = ('\n[[card]]\nid = "obj_99"\nmodule = "new_objectives"\nname = "X"\n'
            'goal = [{ test = "opponents", die = "opp_purple" }]\nperfect = []\n')
    with pytest.raises(DataError) as info:
        engine.load_profile(_deck(tmp_path, card))
    assert str(info.value).startswith('objectives.toml, card obj_99, field "goal[1].die": expected one of "opp_green"')
