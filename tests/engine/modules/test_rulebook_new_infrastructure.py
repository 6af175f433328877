"""New Stadium Infrastructure against the leaflet (../shared/rules/003_aec5c853de079e9f.txt, "l." below), worked by
hand from the demo's printed numbers (engine/data/demo/new_infrastructure.toml and board.toml).

l.281: "During Setup, add all new Stadium Infrastructure tokens to the supply. Any player may build them the same as
any other regular Stadium Infrastructure token on an empty space of their Stadium board (except for the Stands #3
and #4, and Adband #3 spaces)."  l.283: "Production is a new keyword on most of the new Stadium Infrastructure
tokens. On Monday, during Production, resolve their effects."

The demo: four improvement spaces; Youth Academy 4 € (Production: 1 Fitness per Youngster), Analytic Center 4 €
(1 Operation), Kids Fan Zone 3 € (1 Fanbase), Hall of Fame 4 € (1 € with 3 or more VP tokens), Tunnel 3 €; Stat
level 2 produces 2 €, 2 Fanbase, 1 Operation, 3 Fitness.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine
from engine import errors as E
from engine.legal import setup_events
from engine.loader import DataError, clear_cache
from engine.state import Held, State, evolve

from tests.engine.helpers import at_stage, club, demo, refused, run, set_club

GAME = {"type": "game", "modules": ["new_infrastructure"]}


def _tuesday(modules: tuple[str, ...] = ("new_infrastructure",), extra: tuple[dict[str, Any], ...] = (), **changes: Any) -> State:
    profile = demo()
    events = setup_events(profile, [1, 2], game={"type": "game", "modules": list(modules)})
    state = at_stage(profile, run(profile, [*events, *extra]), "tuesday")
    assert state.turn == 1
    return set_club(state, 1, **{"res": (30, 0, 0, 0), **changes})


def _build(state: State, kind: str) -> State:
    return run(demo(), [{"type": "build", "seat": 1, "kind": kind}], state)


def _to_monday(state: State) -> tuple[State, list[dict[str, Any]]]:
    """Play the simplest events to the next Monday (every club's Production done): the state and what was said."""
    profile = demo()
    said: list[dict[str, Any]] = []
    week = state.week
    while state.week == week:
        options = engine.legal_events(profile, state)
        step = engine.apply(profile, state, next((e for e in options if e["type"] in ("pass", "keep", "kickoff")), options[0]))
        said.extend(step.announcements)
        state = step.state
    return state, said


def test_four_improvement_spaces_hold_two_regular_and_two_new_tokens_and_a_fifth_is_refused() -> None:
    """l.281 "on an empty space of their Stadium board": lighting and merchandise (3 € each), then Youth Academy and
    Analytic Center (4 € each): 30 - 14 = 16 €; the Kids Fan Zone finds no empty improvement space, and nothing is
    paid; the Additional stands (3 €) keeps its own space."""
    state = _build(_tuesday(infrastructure=("lighting", "merchandise")), "youth_academy")
    assert club(state, 1).res[0] == 26
    state = evolve_turn(set_club(state, 1, infrastructure=club(state, 1).infrastructure + ("analytic_center",),
                                 acted=False, res=(16, 0, 0, 0)))
    refused(demo(), state, {"type": "build", "seat": 1, "kind": "kids_fan_zone"}, E.NotAllowed,
            E.INFRA_NO_SPACE.format(seat=1, name="Kids Fan Zone", spaces=4, space="improvement"))
    state = _build(state, "stands")
    assert club(state, 1).infrastructure[-1] == "stands" and club(state, 1).res[0] == 13


def evolve_turn(state: State) -> State:
    """Seat 1's turn again (the test's shortcut past the other clubs' turns)."""
    return evolve(state, turn=1)


def test_a_new_token_is_built_once() -> None:
    """000 l.565 "You may build up to 7 different Stadium infrastructure": a second Kids Fan Zone is refused."""
    state = _tuesday(infrastructure=("kids_fan_zone",))
    refused(demo(), state, {"type": "build", "seat": 1, "kind": "kids_fan_zone"}, E.NotAllowed)


def test_a_new_token_costs_its_price_and_a_club_short_of_it_is_refused() -> None:
    """The Hall of Fame costs 4 €: with 3 € the build is refused and nothing changes."""
    state = _tuesday(res=(3, 0, 0, 0))
    refused(demo(), state, {"type": "build", "seat": 1, "kind": "hall_of_fame"}, E.NotEnoughResources)
    assert club(_build(set_club(state, 1, res=(4, 0, 0, 0)), "hall_of_fame"), 1).res[0] == 0


def test_a_covered_space_leaves_three_and_a_new_token_counts_among_them() -> None:
    """003 l.207 with l.281: us_4's red side covers one space: lighting, merchandise and a Tunnel fill the three."""
    places = ({"type": "unique_setup", "seat": 1, "green": "us_1", "red": "us_4"},
              {"type": "unique_setup", "seat": 2, "green": "us_2", "red": "us_3"})
    state = _tuesday(("new_infrastructure", "unique_setup"), places, infrastructure=("lighting", "merchandise"))
    state = _build(state, "tunnel")
    state = evolve_turn(set_club(state, 1, acted=False))
    refused(demo(), state, {"type": "build", "seat": 1, "kind": "youth_academy"}, E.NotAllowed,
            E.INFRA_NO_SPACE.format(seat=1, name="Youth Academy", spaces=3, space="improvement"))


def test_production_of_the_youth_academy_counts_the_youngsters_and_the_hall_of_fame_needs_three_vp_tokens() -> None:
    """l.283 "On Monday, during Production, resolve their effects". Seat 1 with two Youngsters, 3 VP tokens, Stat
    levels 2 and nothing in its supply: Monday gives 2 + 1 = 3 €, 2 Fanbase, 1 Operation and 3 + 2 = 5 Fitness."""
    two = (Held("yg_01"), Held("yg_02"))
    state = _tuesday(infrastructure=("youth_academy", "hall_of_fame"), players=two, vp_tokens=3, stats=(2, 2, 2, 2))
    state = at_stage(demo(), state, "matchday")
    state = at_stage(demo(), state, "results")
    state = set_club(state, 1, res=(0, 0, 0, 0), players=two, vp_tokens=3, stats=(2, 2, 2, 2))
    state, said = _to_monday(state)
    assert [a["due"] for a in said if a["kind"] == "maintenance" and a["seat"] == 1] == [0]
    assert club(state, 1).res == (3, 2, 1, 5)
    kinds = [a["kind"] for a in said if a.get("seat") == 1 and a["kind"] in ("production", "token_production", "board_meeting_card")]
    assert kinds[:3] == ["production", "token_production", "token_production"]


def test_the_hall_of_fame_gives_nothing_with_two_vp_tokens() -> None:
    state = _tuesday(infrastructure=("hall_of_fame",), vp_tokens=2, stats=(2, 2, 2, 2))
    state = at_stage(demo(), at_stage(demo(), state, "matchday"), "results")
    state, said = _to_monday(set_club(state, 1, res=(0, 0, 0, 0), vp_tokens=2, stats=(2, 2, 2, 2)))
    assert not any(a["kind"] == "gain" and a.get("seat") == 1 and a.get("resource") == "budget" for a in said)
    assert club(state, 1).res[0] == 2


def test_a_suspended_token_produces_nothing() -> None:
    """000 l.845: "You cannot use their actions or features until there are any Suspension tokens on them": a Kids
    Fan Zone with two Suspension tokens sheds one at Matchday (l.632) and gives no Fanbase the next Monday (2 from
    the Stat level only); with one token it would be free again by then."""
    state = _tuesday(infrastructure=("kids_fan_zone",), stats=(2, 2, 2, 2))
    state = run(demo(), [{"type": "adjust", "seat": 1, "what": "suspension", "delta": 2, "card": "kids_fan_zone",
                          "reason": "a card's effect"}], state)
    state = at_stage(demo(), at_stage(demo(), state, "matchday"), "results")
    state, said = _to_monday(set_club(state, 1, res=(0, 0, 0, 0), stats=(2, 2, 2, 2)))
    assert club(state, 1).suspension_on("kids_fan_zone")
    assert not any(a["kind"] == "token_production" and a["seat"] == 1 for a in said)
    assert club(state, 1).res[1] == 2


def test_a_new_token_counts_on_the_infrastructure_maintenance_track() -> None:
    """l.281 "the same as any other regular Stadium Infrastructure token": the demo's Infrastructure track asks
    0, 0, 0, 1 € by the tokens built; lighting and merchandise cost nothing, a Youth Academy with them makes three:
    1 € at the End of the round."""
    for built, due in ((("lighting", "merchandise"), 0), (("lighting", "merchandise", "youth_academy"), 1)):
        state = at_stage(demo(), _tuesday(infrastructure=built, players=(), staff=()), "results")
        _, said = _to_monday(set_club(state, 1, res=(5, 0, 0, 0)))
        maintenance = next(a for a in said if a["kind"] == "maintenance" and a["seat"] == 1)
        assert maintenance["due"] == due


def test_a_production_ability_with_a_cost_is_refused_on_load(tmp_path: Path) -> None:
    """l.283 "On Monday, during Production, resolve their effects": a Production ability always applies, so a cost
    on it would never be paid (the token would produce for free); the owner's file is refused naming the field."""
    (tmp_path / "profile.toml").write_text('name = "Production test"\ninherit = "demo"\n')
    (tmp_path / "new_infrastructure.toml").write_text(
        '[[infrastructure]]\nid = "gym"\nname = "Gym"\ncost = 3\nvp = 1\n'
        'abilities = [{ timing = "production", cost = { budget = 1 }, effects = [{ op = "gain", resource = "fanbase", amount = 2 }] }]\n')
    clear_cache()
    try:
        with pytest.raises(DataError) as info:
            engine.load_profile(tmp_path)
    finally:
        clear_cache()
    assert str(info.value).startswith('new_infrastructure.toml, token gym, field "abilities[1].cost": a Production ability '
                                      'happens by itself on Monday')
