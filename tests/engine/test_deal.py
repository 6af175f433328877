"""What the table deals and rolls, as the engine works it out: a club's Opponent cards from the table's shuffle,
and every face of the die a roll asks for."""

from __future__ import annotations

import random

import pytest

import engine
from engine import errors as E
from engine.legal import deal_opponents, faces, setup_events

from tests.engine.helpers import at_stage, demo, run, set_club


def _shuffled(seed: int) -> list[str]:
    ids = [c.id for c in demo().cards_of("opponent")]
    random.Random(seed).shuffle(ids)
    return ids


@pytest.mark.parametrize("seed", range(5))
def test_a_random_deal_takes_one_card_per_team_in_the_tables_shuffle_as_many_as_the_weeks(seed: int) -> None:
    profile = demo()
    shuffled = _shuffled(seed)
    dealt = deal_opponents(profile, {"modules": [], "options": {"weeks": 6}}, shuffled)
    teams = [profile.cards[c].team for c in dealt]
    assert len(dealt) == 6 and len(set(teams)) == 6
    # the first card of each team in the shuffle, in the shuffle's order
    first: dict[str, str] = {}
    for card in shuffled:
        first.setdefault(profile.cards[card].team, card)
    assert dealt == [c for c in shuffled if first[profile.cards[c].team] == c][:6]


def test_a_deal_skips_the_cards_other_clubs_hold_and_keeps_to_the_division() -> None:
    profile = demo()
    shuffled = _shuffled(1)
    game = {"modules": ["division"], "options": {"division": 2}}
    first = deal_opponents(profile, game, shuffled)
    second = deal_opponents(profile, game, shuffled, taken=first)
    assert not set(first) & set(second)
    assert all(2 in (profile.cards[c].divisions or (profile.cards[c].division,)) for c in first + second)
    assert len(first) == profile.board.setup.opponents_per_club
    # what the engine deals is a setup the engine takes
    events = setup_events(profile, [1, 2], game={"type": "game", **game})
    events = [{**e, "cards": first if e["seat"] == 1 else second} if e["type"] == "opponents" else e for e in events]
    assert run(profile, events).stage == "monday"


def test_a_deal_for_a_game_the_engine_refuses_says_why() -> None:
    with pytest.raises(E.EngineError) as info:
        deal_opponents(demo(), {"modules": ["umpires"]}, _shuffled(0))
    assert str(info.value).startswith('There is no module "umpires".')


def test_a_roll_offers_every_face_of_its_die() -> None:
    assert (faces("d6"), faces("d10"), faces("d12"), faces("opp_red")) == (6, 10, 12, 6)
    profile = demo()
    state = at_stage(profile, run(profile, setup_events(profile, [1, 2], game={"type": "game", "modules": ["referee"]})),
                     "matchday")
    state = set_club(state, 1, res=(5, 0, 5, 5))
    lineup = engine.legal_events(profile, state)[0]
    state = run(profile, [lineup, {"type": "roll", "seat": 1, "value": 3}], state)
    assert state.awaiting[0]["die"] == "d12"
    values = sorted(e["value"] for e in engine.legal_events(profile, state) if e["type"] == "roll")
    assert values == list(range(1, 13))
