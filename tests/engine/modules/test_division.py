"""Division (003 l.15, l.136, l.307): a game played in a Division deals its clubs that Division's Opponent cards."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine import errors as E
from engine.legal import setup_events
from engine.loader import DataError
from engine.modules.division import NOT_IN_DIVISION

from tests.engine.helpers import demo, refused, run


def _game(division: int | None = None) -> dict:
    options = {} if division is None else {"division": division}
    return {"type": "game", "modules": ["division"], "options": options}


@pytest.mark.parametrize("division", [1, 2, 3])
def test_a_game_in_a_division_deals_every_club_opponents_of_that_division_only(division: int) -> None:
    # 003 l.136: "you only face Opponents from 1 deck (i.e. Division 3 when playing in the 3rd Division)"
    profile = demo()
    state = run(profile, setup_events(profile, [1, 2, 3, 4], game=_game(division)))
    for club in state.clubs:
        assert len(club.opponents) == 8
        assert {profile.cards[c].division for c in club.opponents} == {division}
        assert len({profile.cards[c].team for c in club.opponents}) == 8  # one card per team, as in the base game
    assert engine.view(profile, state)["game"]["text"] == f"Eleven with Division; Division {division}."


def test_the_division_defaults_to_the_third_where_a_club_starts() -> None:
    profile = demo()
    state = run(profile, setup_events(profile, [1, 2], game=_game()))
    assert {profile.cards[c].division for c in state.clubs[0].opponents} == {3}


def test_an_opponent_card_of_another_division_is_refused_with_both_divisions_named() -> None:
    profile = demo()
    events = setup_events(profile, [1], game=_game(3))
    at = next(i for i, e in enumerate(events) if e["type"] == "opponents")
    before = run(profile, events[:at])
    wrong = {**events[at], "cards": ["opp_harbour_1", *events[at]["cards"][1:]]}  # Harbour Rovers' Division 1 card
    assert refused(profile, before, wrong, E.NotAllowed) == NOT_IN_DIVISION.format(
        name="Harbour Rovers", card="opp_harbour_1", printed=1, division=3)


def test_without_the_module_the_whole_deck_is_dealt_as_in_the_base_game() -> None:
    profile = demo()
    state = run(profile, setup_events(profile, [1]))
    assert len({profile.cards[c].division for c in state.clubs[0].opponents}) > 1


def test_the_division_offered_are_those_the_deck_prints_and_another_is_refused() -> None:
    profile = demo()
    module = next(m for m in engine.modules(profile) if m["name"] == "division")
    assert module["options"]["division"]["choices"] == [3, 2, 1] and module["options"]["division"]["default"] == 3
    assert engine.game_problem(["division"], {"division": 4}, profile) == E.BAD_OPTION.format(
        option="division", why=f"the deck {profile.name} offers 3, 2, 1, not 4")
    assert engine.game_problem(["division"], {"division": 4}) is None  # without a deck, any Division 1–9
    assert engine.game_problem(["division"], {"division": 0}) == E.BAD_OPTION.format(
        option="division", why="the Division is a whole number from 1 to 9, not 0")
    assert engine.game_problem([], {"division": 2}).startswith('This game has no option "division"')


def test_a_card_printed_for_two_divisions_is_dealt_in_both(tmp_path: Path) -> None:
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "profile.toml").write_text('name = "Two-deck card"\ninherit = "demo"\n')
    text = (Path(engine.__file__).parent / "data" / "demo" / "opponents.toml").read_text()
    (deck / "opponents.toml").write_text(text.replace("division = 1\n", "division = [2, 1]\n", 1))  # the first Division 1 card
    profile = engine.load_profile(deck)
    card = profile.cards[next(c.id for c in profile.cards_of("opponent") if c.divisions == (2, 1))]
    for division in (1, 2):
        events = setup_events(profile, [1], game=_game(division))
        at = next(i for i, e in enumerate(events) if e["type"] == "opponents")
        mine = [c for c in events[at]["cards"] if profile.cards[c].team != card.team][:7] + [card.id]
        assert engine.why_not(profile, run(profile, events[:at]), {**events[at], "cards": mine}) is None
    (deck / "opponents.toml").write_text(text.replace("division = 1\n", "division = [1, 1]\n", 1))
    with pytest.raises(DataError, match=r'opponents.toml, card opp_\w+, field "division": expected a list of different'):
        engine.load_profile(deck)
