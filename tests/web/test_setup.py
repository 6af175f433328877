"""The new-game form becomes the engine's setup events: what was chosen is kept, the rest is dealt without clashes."""

from __future__ import annotations

import engine
import pytest
from engine.legal import setup_events as table_deal

from web.actions import NewGame
from web.setup import setup_events

PROFILE = engine.load_profile()


def by_type(events: list[dict[str, object]], kind: str) -> dict[object, dict[str, object]]:
    return {e["seat"]: e for e in events if e["type"] == kind}


BASE_GAME = {"type": "game", "pack": "eleven", "modules": [], "options": {}, "revision": engine.REVISION}


def test_an_empty_form_gets_the_tables_own_deal_after_the_event_that_names_the_game() -> None:
    game = NewGame(clubs=[{"seat": 1, "name": "Club 1"}, {"seat": 2, "name": "Club 2"}])
    events = setup_events(PROFILE, game)
    assert events[0] == BASE_GAME
    assert events == table_deal(PROFILE, [1, 2], game=BASE_GAME)
    named, unnamed = engine.replay(PROFILE, events).game, engine.replay(PROFILE, events[1:]).game
    assert named[:3] == unnamed[:3] == ("eleven", (), ())  # the base game either way
    assert (named.revision, unnamed.revision) == (engine.REVISION, 1)  # a new game plays by the newest readings


def test_the_weeks_chosen_deal_as_many_opponent_cards_and_set_the_games_length() -> None:
    game = NewGame(clubs=[{"seat": 1, "name": "A"}, {"seat": 2, "name": "B"}], options={"weeks": 6})
    events = setup_events(PROFILE, game)
    assert events[0] == {**BASE_GAME, "options": {"weeks": 6}}
    assert all(len(e["cards"]) == 6 for e in by_type(events, "opponents").values())
    state = engine.replay(PROFILE, events)
    assert (state.weeks, state.game.option("weeks")) == (6, 6)


def test_a_module_the_engine_does_not_have_is_refused_with_a_sentence() -> None:
    game = NewGame(clubs=[{"seat": 1, "name": "A"}], modules=["referee_from_the_future"])
    with pytest.raises(engine.errors.EngineError) as info:
        engine.replay(PROFILE, setup_events(PROFILE, game))
    assert str(info.value).startswith('There is no module "referee_from_the_future".')


def test_cards_chosen_for_one_club_are_never_dealt_to_another() -> None:
    dealt = table_deal(PROFILE, [1, 2, 3, 4])
    first_deal = by_type(dealt, "directors")[1]["cards"]
    game = NewGame(clubs=[{"seat": 1, "name": "A"}, {"seat": 2, "name": "B"}, {"seat": 3, "name": "C"},
                          {"seat": 4, "name": "D", "directors": list(first_deal)}])
    events = setup_events(PROFILE, game)
    directors = [card for e in by_type(events, "directors").values() for card in e["cards"]]
    assert len(directors) == len(set(directors)) == 4 * PROFILE.board.setup.directors_kept
    assert by_type(events, "directors")[4]["cards"] == list(first_deal)
    state = engine.replay(PROFILE, events)
    assert state.stage == "monday"


@pytest.mark.parametrize("veteran", [c.id for c in PROFILE.cards_of("veteran")])
def test_the_starting_youngster_never_shares_the_veterans_number(veteran: str) -> None:
    game = NewGame(clubs=[{"seat": 1, "name": "A", "veteran": veteran}])
    start = by_type(setup_events(PROFILE, game), "starting_players")[1]
    assert PROFILE.cards[start["youngster"]].untrained.jersey != PROFILE.cards[veteran].untrained.jersey
    assert engine.replay(PROFILE, setup_events(PROFILE, game)).week == 1


def test_first_seat_and_names_come_from_the_form() -> None:
    game = NewGame(clubs=[{"seat": 2, "name": "Middleham"}, {"seat": 4, "name": "Downtown"}], first_seat=4)
    events = setup_events(PROFILE, game)
    assert [e["name"] for e in events if e["type"] == "club"] == ["Middleham", "Downtown"]
    assert events[-1] == {"type": "first_player", "seat": 4}


def test_without_the_deal_only_the_named_cards_are_set_up_and_the_seats_tap_the_rest() -> None:
    game = NewGame(clubs=[{"seat": 1, "name": "Reds", "objective": "obj_01", "opponents": ["opp_downtown_1"]},
                          {"seat": 3, "name": "Blues", "veteran": "vet_01", "youngster": "yg_02"}], deal=False)
    events = setup_events(PROFILE, game)
    assert events == [
        BASE_GAME, {"type": "club", "seat": 1, "name": "Reds"}, {"type": "club", "seat": 3, "name": "Blues"},
        {"type": "opponents", "seat": 1, "cards": ["opp_downtown_1"]}, {"type": "objective", "seat": 1, "card": "obj_01"},
        {"type": "starting_players", "seat": 3, "veteran": "vet_01", "youngster": "yg_02"},
    ]
    state = engine.replay(PROFILE, events)
    assert state.stage == "setup"  # the table now asks each seat to tap what its club still lacks
    waiting = {(e["seat"], tuple(e["kinds"])) for e in engine.view(PROFILE, state)["awaiting"]}
    assert waiting == {(1, ("director",)), (1, ("veteran", "youngster")), (1, ("tactic",)),
                       (3, ("director",)), (3, ("opponent",)), (3, ("objective",)), (3, ("tactic",))}


def test_a_form_field_that_is_wrong_is_named_in_one_sentence() -> None:
    from web.actions import ActionError, parse_action

    with pytest.raises(ActionError) as caught:
        parse_action({"type": "new_game", "clubs": [{"seat": 1, "name": "A", "objectives": ["obj_01"]}]})
    assert str(caught.value) == "clubs.0.objectives: Extra inputs are not permitted"
    with pytest.raises(ActionError) as caught:
        parse_action({"type": "lineup", "seat": 1, "players": [{"zone": "goal", "jersey": 2}] * 10})
    assert str(caught.value).startswith("players.0.zone: Input should be 'def_left'")
