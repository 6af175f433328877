"""Division (003 l.15, l.136, l.387) checked against the leaflet: which Opponent cards a game's clubs are dealt, with
the module alone and with the modules that speak of the Division (Matches between clubs, Betting)."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import errors as E
from engine.legal import setup_events

from tests.engine.helpers import demo, refused, run

# The demo deck prints four cards for each of its eight teams in each of Divisions 1, 2 and 3 (and Kingsbridge a
# fifth in Division 2): 32 cards a Division, so four clubs of eight weeks take the whole Division 1 deck.


def _game(modules: list[str], **options: int) -> dict:
    return {"type": "game", "modules": modules, "options": options, "revision": engine.REVISION}


def _dealt(seats: list[int], game: dict) -> dict[int, tuple[str, ...]]:
    profile = demo()
    state = run(profile, setup_events(profile, seats, game=game))
    return {c.seat: tuple(x for x in c.opponents if x) for c in state.clubs}


def test_four_clubs_in_division_1_share_its_deck_each_card_dealt_once() -> None:
    # 003 l.136: "you only face Opponents from 1 deck (i.e. Division 3 when playing in the 3rd Division)": four clubs of
    # eight weeks need 32 cards, and Division 1 prints 32 (8 teams × 4), each dealt to one club only
    profile = demo()
    dealt = _dealt([1, 2, 3, 4], _game(["division"], division=1, weeks=8))
    cards = [c for seat in dealt.values() for c in seat]
    assert len(cards) == 32 and len(set(cards)) == 32
    assert {profile.cards[c].division for c in cards} == {1}
    teams = Counter(profile.cards[c].team for c in cards)
    assert set(teams.values()) == {4}  # each team's four Division 1 cards, one to each club


@pytest.mark.parametrize("seats, regular", [([1, 2, 3, 4], 3), ([1, 2, 3], 4), ([1, 2], 5)])
def test_with_matches_between_clubs_fewer_cards_are_dealt_all_of_the_division(seats: list[int], regular: int) -> None:
    # 003 l.134: "prepare fewer Opponent cards so that you have a number of cards equal to the number of Matches
    # against Regular Opponents" — in six weeks: four clubs play 3 of them (l.124–132), three clubs 4 (l.114–122),
    # two clubs 5 (l.104–112); l.136: "you only face Opponents from 1 deck (i.e. Division 3 when playing in the 3rd
    # Division)"
    profile = demo()
    dealt = _dealt(seats, _game(["club_matches", "division"], division=2, weeks=6))
    for seat, cards in dealt.items():
        assert len(cards) == regular, seat
        assert {profile.cards[c].division for c in cards} == {2}


def test_a_card_a_club_was_dealt_is_not_dealt_to_another() -> None:
    # one deck (l.136): a card lies in one club's stack only
    profile = demo()
    events = setup_events(profile, [1, 2], game=_game(["division"], division=3))
    at = [i for i, e in enumerate(events) if e["type"] == "opponents"]
    state = run(profile, events[:at[1]])
    first = events[at[0]]["cards"][0]
    second = events[at[1]]
    twice = {**second, "cards": [c for c in second["cards"] if profile.cards[c].team != profile.cards[first].team]
             + [first]}
    refused(profile, state, twice, E.EngineError)


def test_the_division_is_one_the_game_names_and_the_view_says_it() -> None:
    # 003 l.15: "especially when playing in higher divisions": the game says which
    profile = demo()
    state = run(profile, setup_events(profile, [1], game=_game(["division"], division=1)))
    assert engine.view(profile, state)["game"]["options"]["division"] == 1
