"""Betting (003 l.377–432): the Bet board as data, the tokens on Opponent cards at setup, secret bets after
Thursday, the winning space at the End of the week and what each kind of bet pays."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import errors as E
from engine import host
from engine.legal import setup_events
from engine.loader import DataError
from engine.modules import betting as B
from engine.state import State, Team, evolve
from engine.tx import Tx

from tests.engine.helpers import advance_until, at_stage, club, demo, refused, run, set_club

GAME = {"type": "game", "modules": ["betting"], "options": {"weeks": 3}}
BOARD = B.board_of(demo())


@lru_cache(maxsize=4)
def _betting(seats: tuple[int, ...] = (1, 2, 3)) -> State:
    """A game at its first Betting, every club with 5 €."""
    profile = demo()
    state = at_stage(profile, run(profile, setup_events(profile, list(seats), game=GAME)), "betting")
    for seat in seats:
        state = set_club(state, seat, res=(5,) + club(state, seat).res[1:])
    return state


def _place(kind: str, space: str) -> list[str]:
    """The spaces of a place of that kind covering ``space``."""
    return list(next(p.spaces for p in BOARD.places if p.kind == kind and space in p.spaces))


# -- the board ------------------------------------------------------------------------------------------------


def test_the_bet_board_has_a_space_for_every_pattern_of_four_results_and_the_places_between_them() -> None:
    # 003 l.391–395: "3/3/3/3", "3/3/3/0", "3/1/1/0" are spaces; l.389: a token on a space or "split your bet between
    # 2 or 4 spaces"
    spaces = [p.spaces[0] for p in BOARD.places if p.kind == "space"]
    assert sorted(spaces) == sorted(B.patterns()) and len(spaces) == 15
    assert {"3/3/3/3", "3/3/3/0", "3/1/1/0"} <= set(spaces)
    # l.405–407 (the example): 3/1/0/0 has a border with 3/3/0/0 and is one of four spaces around a corner
    assert BOARD.place(("3/1/0/0", "3/3/0/0")) is not None
    assert any(p.kind == "corner" and "3/1/0/0" in p.spaces for p in BOARD.places)
    # spaces far apart share no border
    assert BOARD.place(("3/3/3/3", "0/0/0/0")) is None
    assert BOARD.pay == {"space": 4, "border": 3, "corner": 2}  # l.419–425


def test_the_winning_space_is_the_results_sorted_highest_first() -> None:
    # l.403: Thomas won, Ignacy drew, John lost, Port East lost: "the winning space is 3/1/0/0"
    assert B.pattern([3, 1, 0, 0]) == "3/1/0/0"
    assert B.pattern([0, 3, 0, 1]) == "3/1/0/0"
    assert B.pattern([1, 1, 1, 1]) == "1/1/1/1"


def _deck_with(tmp_path: Path, text: str) -> Path:
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "profile.toml").write_text('name = "Mine"\ninherit = "demo"\n')
    (deck / "betting.toml").write_text(text)
    return deck


SHIPPED = (Path(engine.__file__).parent / "data" / "demo" / "betting.toml").read_text()


@pytest.mark.parametrize("change, message", [
    (('"3/1/0/0"', '"3/0/1/0"'), 'betting.toml, field "rows[4][3]": expected a pattern of 4 results 3, 1 or 0, highest first'),
    (('"3/1/0/0"', '"3/1/1/0"'), 'betting.toml, field "rows[4][3]": the space "3/1/1/0" is on the board already (rows[4][2])'),
    (('"0/0/0/0"', '""'), 'betting.toml, field "rows": the Bet board has a space for every pattern of results; "0/0/0/0" is missing'),
    (("corner = 2", "corner = 0"), 'betting.toml, field "pay.corner": expected a whole number 1–10, got 0'),
    (("corner = 2", "corner = 2\nedge = 1"), 'betting.toml, field "pay.edge": unknown field'),
])
def test_a_wrong_bet_board_is_refused_on_load_naming_the_file_and_the_field(tmp_path: Path, change: tuple[str, str],
                                                                            message: str) -> None:
    with pytest.raises(DataError) as info:
        engine.load_profile(_deck_with(tmp_path, SHIPPED.replace(*change)))
    assert str(info.value).startswith(message)


def test_a_deck_without_a_bet_board_cannot_play_betting() -> None:
    bare = replace(demo(), module_data={k: v for k, v in demo().module_data.items() if k != "betting"})
    assert engine.game_problem(["betting"], {}, bare) == \
        E.MODULE_DATA_MISSING.format(profile=bare.name, file="betting.toml", title="Betting")
    assert engine.game_problem(["betting"], {}, demo()) is None


# -- setup: tokens on Opponent cards -----------------------------------------------------------------------------


def _before_tokens(seats: list[int], game: dict[str, Any] = GAME) -> tuple[list[dict[str, Any]], State, dict[str, Any]]:
    profile = demo()
    events = setup_events(profile, seats, game=game)
    cut = next(i for i, e in enumerate(events) if e["type"] == "betting_cards")
    return events, run(profile, events[:cut]), events[cut]


def test_with_fewer_than_four_clubs_the_remaining_tokens_lie_on_opponent_cards_the_table_draws() -> None:
    # 003 l.383: "If you are playing in a game with less than 4 players, draw random Opponent cards from your
    # Division and place a remaining Betting token on each of them."
    profile = demo()
    events, state, cards = _before_tokens([1, 2])
    assert {"seat": None, "need": "betting_cards", "count": 2, "text": B.TOKEN_CARDS_NEED.format(count=2)} in state.awaiting
    assert engine.why_not(profile, state, {"type": "first_player", "seat": 1}) == B.CARDS_MISSING.format(clubs=2, count=2)
    assert len(cards["cards"]) == 2
    assert refused(profile, state, {**cards, "cards": cards["cards"][:1]}, E.NotAllowed) == \
        B.CARDS_COUNT.format(clubs=2, count=2, given=1)
    dealt = club(state, 1).opponents[0]
    assert refused(profile, state, {**cards, "cards": [dealt, cards["cards"][0]]}, E.NotAllowed) == \
        E.CARD_TAKEN.format(name=profile.cards[dealt].name, seat=1)
    twice = [cards["cards"][0]] * 2
    assert refused(profile, state, {**cards, "cards": twice}, E.NotAllowed) == \
        B.CARD_SAME.format(name=profile.cards[twice[0]].name)
    done = run(profile, events)
    assert done.stage == "monday" and done.slice("betting").cards == tuple(cards["cards"])
    view = engine.view(profile, done, "table")["modules"]["betting"]
    assert [c["card"] for c in view["cards"]] == cards["cards"]


def test_the_tokens_lie_on_cards_of_the_division_played() -> None:
    # l.383 "from your Division": with the Division module a card of another Division is refused
    profile = demo()
    game = {"type": "game", "modules": ["division", "betting"], "options": {"division": 3, "weeks": 3}}
    _, state, cards = _before_tokens([1, 2, 3], game)
    assert len(cards["cards"]) == 1 and profile.cards[cards["cards"][0]].division == 3
    other = next(c for c in profile.cards_of("opponent") if 3 not in (c.divisions or (c.division,)))
    text = refused(profile, state, {**cards, "cards": [other.id]}, E.NotAllowed)
    assert text.startswith(f"{other.name} ({other.id}) is an Opponent of Division")


def test_with_four_clubs_every_token_is_a_clubs_and_no_card_is_drawn() -> None:
    profile = demo()
    events = setup_events(profile, [1, 2, 3, 4], game=GAME)
    assert "betting_cards" not in {e["type"] for e in events}
    assert run(profile, events).stage == "monday"


def test_the_tokens_are_drawn_once_every_club_has_its_opponent_cards() -> None:
    profile = demo()
    state = run(profile, [GAME, {"type": "club", "seat": 1}])
    assert refused(profile, state, {"type": "betting_cards", "cards": ["opp_riverside_1"] * 3}, E.NotAllowed) == B.CARDS_FIRST
    assert not [n for n in state.awaiting if n["need"] == "betting_cards"]


# -- the Betting, after Thursday ----------------------------------------------------------------------------------


def test_the_betting_comes_after_thursday_and_every_club_answers_in_any_order() -> None:
    # l.389: "After resolving Thursday actions, each player may simultaneously place their Betting token"
    profile = demo()
    state = _betting()
    assert state.stage == "betting"
    assert [(n["seat"], n["need"]) for n in state.awaiting] == [(1, "bet"), (2, "bet"), (3, "bet")]
    assert engine.why_not(profile, state, {"type": "lineup", "seat": 1, "players": []}).startswith(
        "Seat 1 cannot set a lineup now: it is the Betting")
    state = run(profile, [{"type": "pass", "seat": 3}, {"type": "bet", "seat": 2, "on": "3/1/0/0", "stake": 1}], state)
    assert [n["seat"] for n in state.awaiting] == [1]
    assert refused(profile, state, {"type": "bet", "seat": 2, "on": "3/3/3/3"}, E.NotAllowed) == B.ANSWERED.format(seat=2)
    assert refused(profile, state, {"type": "pass", "seat": 3}, E.NotAllowed) == B.ANSWERED.format(seat=3)
    state = run(profile, [{"type": "bet", "seat": 1, "on": _place("corner", "3/1/0/0")}], state)
    assert state.stage == "matchday"


def test_a_bet_is_secret_until_every_club_has_answered_then_all_are_shown_and_the_stakes_paid() -> None:
    # "simultaneously": nobody sees another bet before placing their own; then the tokens lie on the board
    profile = demo()
    state = run(profile, [{"type": "bet", "seat": 1, "on": ["3/3/0/0", "3/1/0/0"], "stake": 2}], _betting())
    step = engine.apply(profile, state, {"type": "bet", "seat": 2, "on": "1/1/1/1", "stake": 0})
    assert [a["text"] for a in step.announcements] == [B.PLACED.format(seat=2)]
    assert "1/1/1/1" not in json.dumps(step.announcements)
    state = step.state
    own = engine.view(profile, state, 1)["modules"]["betting"]["bets"][0]
    assert own["label"] == "3/3/0/0 | 3/1/0/0" and own["on_token"] == 3 and own["kind"] == "border"
    for viewer in ("table", 2, 3):
        seen = engine.view(profile, state, viewer)["modules"]["betting"]["bets"][0]
        assert seen == {"seat": 1, "answered": True, "placed": True, "secret": True}
    assert club(state, 1).res[0] == 5  # the € of its own stay in its supply until every bet is shown
    step = engine.apply(profile, state, {"type": "pass", "seat": 3})
    shown = next(a for a in step.announcements if a["kind"] == "bets")
    assert shown["text"] == B.REVEALED.format(bets="Seat 1 3 € on 3/3/0/0 | 3/1/0/0; Seat 2 1 € on 1/1/1/1")
    assert club(step.state, 1).res[0] == 3 and club(step.state, 2).res[0] == 5
    assert engine.view(profile, step.state, "table")["modules"]["betting"]["bets"][0]["stake"] == 2


def test_a_bet_is_refused_off_the_board_beyond_the_clubs_money_or_at_another_moment() -> None:
    profile = demo()
    state = _betting()
    text = refused(profile, state, {"type": "bet", "seat": 1, "on": ["3/3/3/3", "0/0/0/0"]}, E.NotAllowed)
    assert text == B.NO_PLACE.format(on="3/3/3/3 | 0/0/0/0", example=next(p.label for p in BOARD.places if p.kind == "border"))
    assert refused(profile, state, {"type": "bet", "seat": 1, "on": "3/3/3/3", "stake": 6}, E.NotEnoughResources) == \
        B.SHORT.format(seat=1, stake=6, budget=5)
    refused(profile, state, {"type": "bet", "seat": 1, "on": "3/3/3/3", "stake": -1}, E.BadEvent)
    refused(profile, state, {"type": "bet", "seat": 1, "on": 7}, E.BadEvent)
    monday = run(profile, setup_events(profile, [1, 2, 3], game=GAME))
    assert refused(profile, monday, {"type": "bet", "seat": 1, "on": "3/3/3/3"}, E.WrongStage) == \
        B.NOT_NOW.format(seat=1, stage="Monday")


# -- the End of the week -----------------------------------------------------------------------------------------


def _settle(state: State) -> tuple[State, list[dict[str, Any]]]:
    """The End of the round's Betting, as the hook runs it."""
    profile = demo()
    tx = Tx(profile, host.rules_for(state.game), state, {})
    tx.rules.end_of_round(tx)  # type: ignore[attr-defined]
    return tx.state, tx.anns


def test_the_leaflets_example_pays_the_border_three_times_and_the_corner_twice() -> None:
    """003 l.397–409: three players and a token on a Port East card (here a Harbour Rovers card). Thomas beats Port
    East, Ignacy draws, John loses: 3/1/0/0. John's 3 € on a border of it gain 9 €, Ignacy's 2 € on a corner of it
    4 €, Thomas' bet on 3/3/0/0 loses."""
    profile = demo()
    thomas, ignacy, john = 1, 2, 3
    state = _betting()
    token = state.slice("betting").cards[0]
    team = profile.cards[token].team
    bets = [{"type": "bet", "seat": thomas, "on": "3/3/0/0", "stake": 1},
            {"type": "bet", "seat": ignacy, "on": _place("corner", "3/1/0/0"), "stake": 1},
            {"type": "bet", "seat": john, "on": ["3/1/0/0", "3/0/0/0"], "stake": 2}]
    state = run(profile, bets, state)
    money = {s: club(state, s).res[0] for s in (1, 2, 3)}
    # the week is played: Thomas beat that team (its marker did not move), Ignacy drew, John lost
    before = dict(state.slice("betting").before)
    state = evolve(state, teams=tuple(evolve(t, points=before[t.id]) for t in state.teams))
    for seat, result in ((thomas, "win"), (ignacy, "draw"), (john, "loss")):
        state = set_club(state, seat, result=result)
    state, said = _settle(state)
    settled = next(a for a in said if a["kind"] == "bet_settled")
    assert settled["space"] == "3/1/0/0" and settled["results"] == {"seat:1": 3, "seat:2": 1, "seat:3": 0, token: 0}
    assert club(state, john).res[0] == money[john] + 9
    assert club(state, ignacy).res[0] == money[ignacy] + 4
    assert club(state, thomas).res[0] == money[thomas]
    won = {a["seat"]: a for a in said if a["kind"] == "bet_won"}
    assert won[john]["text"] == B.WON.format(seat=john, label="3/1/0/0 | 3/0/0/0", on_token=3, times=3, gain=9)
    assert [a["text"] for a in said if a["kind"] == "bet_lost"] == [B.LOST.format(seat=thomas, label="3/3/0/0", on_token=2)]
    mine = state.slice("betting")
    assert mine.bets == () and mine.settled is not None and dict(mine.settled.gains) == {1: 0, 2: 4, 3: 9}
    shown = engine.view(profile, state, "table")["modules"]["betting"]["settled"]
    assert shown["space"] == "3/1/0/0" and {"team": team, "result": 0} .items() <= shown["results"][3].items()


def test_a_single_space_pays_four_times_and_a_team_nobody_played_counts_its_die() -> None:
    # l.419: "If you placed a Betting token on a single space and succeeded, gain 4 times the number of €"
    profile = demo()
    state = run(profile, [{"type": "bet", "seat": 1, "on": "3/3/1/0", "stake": 4}, {"type": "pass", "seat": 2},
                          {"type": "pass", "seat": 3}], _betting())
    token_team = profile.cards[state.slice("betting").cards[0]].team
    before = dict(state.slice("betting").before)
    # the team with the token rolled its die for a win: 3 League spaces
    state = evolve(state, teams=tuple(evolve(t, points=before[t.id] + (3 if t.id == token_team else 0)) for t in state.teams))
    for seat, result in ((1, "win"), (2, "draw"), (3, "loss")):
        state = set_club(state, seat, result=result)
    money = club(state, 1).res[0]
    state, said = _settle(state)
    assert next(a for a in said if a["kind"] == "bet_settled")["space"] == "3/3/1/0"
    assert club(state, 1).res[0] == money + 5 * 4


def test_a_team_with_a_token_counts_its_best_result_of_the_week() -> None:
    # a team two clubs played moves for both matches: a win and a loss (3 spaces) count as a win, two draws as a draw
    profile = demo()
    state = run(profile, [{"type": "pass", "seat": s} for s in (1, 2, 3)], _betting())
    token_team = profile.cards[state.slice("betting").cards[0]].team
    before = dict(state.slice("betting").before)
    for moved, counted in ((3, 3), (4, 3), (2, 1), (1, 1), (0, 0)):
        moved_state = evolve(state, teams=tuple(evolve(t, points=before[t.id] + (moved if t.id == token_team else 0))
                                                 for t in state.teams))
        tx = Tx(profile, host.rules_for(state.game), moved_state, {})
        assert dict(B.week_results(tx))[state.slice("betting").cards[0]] == counted


def test_a_whole_game_with_betting_replays_and_survives_json() -> None:
    profile = demo()
    log = setup_events(profile, [1, 2, 3], game=GAME)
    state = run(profile, log)
    bets = 0
    while state.stage != "over":
        options = engine.legal_events(profile, state)
        bet = next((e for e in options if e["type"] == "bet" and e.get("stake") == 1), None)
        event = bet or next((e for e in options if e["type"] in ("pass", "keep", "kickoff")), None) or options[0]
        if event["type"] == "roll":
            event = options[(state.events * 7) % len([e for e in options if e["type"] == "roll"])]
        state = engine.apply(profile, state, event).state
        log.append(event)
        bets += event["type"] == "bet"
    assert bets == 3 * 3  # every club bet every week
    assert state.slice("betting").settled is not None and state.slice("betting").settled.week == 3
    assert engine.replay(profile, log) == state
    assert State.from_dict(json.loads(json.dumps(state.to_dict()))) == state


def test_the_betting_phase_is_between_thursday_and_matchday_every_week() -> None:
    profile = demo()
    state = run(profile, setup_events(profile, [1, 2, 3, 4], game=GAME))
    rules = host.rules_for(state.game)
    week = rules.week_phases(state, 1, rules.pack.week)  # type: ignore[attr-defined]
    assert week[week.index("thursday") + 1] == "betting" and week[week.index("betting") + 1] == "matchday"
    assert advance_until(profile, state, lambda s: s.stage == "betting").week == 1
