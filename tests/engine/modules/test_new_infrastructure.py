"""New Stadium Infrastructure tokens (003 l.277–287, "003" below).

l.281: "During Setup, add all new Stadium Infrastructure tokens to the supply. Any player may build them the same as
any other regular Stadium Infrastructure token on an empty space of their Stadium board (except for the Stands #3
and #4, and Adband #3 spaces)."  l.283: "Production is a new keyword on most of the new Stadium Infrastructure
tokens. On Monday, during Production, resolve their effects."  l.285: "These new Stadium Infrastructure tokens
include: Youth Academy, Analytic Center, Kids Fan Zone, Hall of Fame, and Tunnel."
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine
from engine import errors as E
from engine.legal import auto_lineup, setup_events
from engine.loader import DEMO_FOLDER, DataError, clear_cache
from engine.modules import new_infrastructure as N
from engine.state import Held, State

from tests.engine.helpers import at_stage, club, demo, refused, run, set_club

GAME = {"type": "game", "modules": ["new_infrastructure"]}
IMPROVEMENTS = ("lighting", "merchandise", "training_camp", "training_ground")


def _tuesday(game: dict[str, Any] = GAME, extra: tuple[dict[str, Any], ...] = (), **changes: Any) -> tuple[Any, State]:
    profile = demo()
    state = at_stage(profile, run(profile, [*setup_events(profile, [1, 2], game=game), *extra]), "tuesday")
    return profile, set_club(state, 1, **{"res": (20, 0, 0, 0), **changes})


def test_the_five_new_tokens_are_in_the_supply_of_a_game_that_chooses_them_only() -> None:
    """l.281, l.285."""
    assert [k.name for k in N.kinds_of(demo())] == ["Youth Academy", "Analytic Center", "Kids Fan Zone", "Hall of Fame", "Tunnel"]
    profile, state = _tuesday({"type": "game", "modules": []})
    assert refused(profile, state, {"type": "build", "seat": 1, "kind": "youth_academy"}, E.NotAllowed).startswith(
        'There is no Stadium Infrastructure "youth_academy"')
    profile, state = _tuesday()
    step = engine.apply(profile, state, {"type": "build", "seat": 1, "kind": "youth_academy"})
    assert club(step.state, 1).infrastructure == ("youth_academy",) and club(step.state, 1).res[0] == 20 - 4
    assert step.announcements[0]["text"] == "Seat 1 builds Youth Academy for 4 €."
    build = {b["kind"]: b for b in engine.view(profile, state)["clubs"][0]["stadium"]["build"]}
    assert build["tunnel"]["space"] == "improvement" and build["tunnel"]["why_not"] is None


def test_a_new_token_takes_an_empty_improvement_space_never_a_stands_or_adboard_space() -> None:
    """l.281: "on an empty space of their Stadium board (except for the Stands #3 and #4, and Adband #3 spaces)":
    with the four improvements built, no new token fits; the Stands and the adboard keep their spaces."""
    profile, state = _tuesday(infrastructure=IMPROVEMENTS)
    assert refused(profile, state, {"type": "build", "seat": 1, "kind": "tunnel"}, E.NotAllowed) == \
        E.INFRA_NO_SPACE.format(seat=1, name="Tunnel", spaces=4, space="improvement")
    assert club(run(profile, [{"type": "build", "seat": 1, "kind": "stands"}], state), 1).infrastructure[-1] == "stands"
    # a new token built first takes a space a regular improvement would have used
    profile, state = _tuesday(infrastructure=("youth_academy", "tunnel", "lighting", "merchandise"))
    assert refused(profile, state, {"type": "build", "seat": 1, "kind": "training_camp"}, E.NotAllowed) == \
        E.INFRA_NO_SPACE.format(seat=1, name="Club training camp", spaces=4, space="improvement")


def test_a_unique_setup_card_that_adds_a_space_makes_room_for_one_more() -> None:
    """003 l.207 with l.281: the number of spaces is the club's own."""
    game = {"type": "game", "modules": ["new_infrastructure", "unique_setup"]}
    places = ({"type": "unique_setup", "seat": 1, "green": "us_4", "red": "us_1"},
              {"type": "unique_setup", "seat": 2, "green": "us_2", "red": "us_3"})
    profile, state = _tuesday(game, places, infrastructure=IMPROVEMENTS)
    assert club(run(profile, [{"type": "build", "seat": 1, "kind": "tunnel"}], state), 1).infrastructure[-1] == "tunnel"
    spaces = {c["seat"]: c["stadium"]["spaces"]["improvement"]["spaces"] for c in engine.view(profile, state)["clubs"]}
    assert spaces == {1: 5, 2: 4}


def test_production_happens_on_monday_with_the_clubs_production() -> None:
    """l.283: "On Monday, during Production, resolve their effects" (the demo's Youth Academy: 1 Fitness for each
    Youngster; Analytic Center: 1 Operation)."""
    profile, state = _tuesday()
    youngsters = sum(1 for h in club(state, 1).players if profile.cards[h.id].kind == "youngster")
    assert youngsters >= 1
    plain = at_stage(profile, state, "monday")
    built = set_club(state, 1, infrastructure=("youth_academy", "analytic_center"))
    steps = []
    while built.stage != "monday":
        options = engine.legal_events(profile, built)
        step = engine.apply(profile, built, next((e for e in options if e["type"] in ("pass", "keep", "kickoff")), options[0]))
        steps.extend(step.announcements)
        built = step.state
    assert club(built, 1).res[3] - club(plain, 1).res[3] == youngsters
    assert club(built, 1).res[2] - club(plain, 1).res[2] == 1
    said = [a["text"] for a in steps if a["kind"] == "token_production"]
    assert said == ["Seat 1's Youth Academy — Production: gain 1 Fitness for each Youngster you have.",
                    "Seat 1's Analytic Center — Production: gain 1 Operation."]
    production = next(i for i, a in enumerate(steps) if a["kind"] == "production" and a["seat"] == 1)
    assert production < next(i for i, a in enumerate(steps) if a["kind"] == "token_production")


def test_the_tunnel_weakens_the_opponents_attacking_forwards_before_the_match() -> None:
    """The demo's Tunnel has no Production (l.283: "most of the new ... tokens"): before the match, -1 Strength."""
    profile, state = _tuesday(infrastructure=("tunnel",))
    state = at_stage(profile, state, "matchday")
    state = run(profile, [auto_lineup(profile, club(state, 1))], state)
    assert ("fwd", "attack", -1) in club(state, 1).opp_mods


def test_the_new_tokens_score_their_vp_at_the_end() -> None:
    profile, state = _tuesday(infrastructure=("hall_of_fame", "tunnel"))
    row = next(r for r in engine.final_scores(profile, state) if r["seat"] == 1)
    assert row["infrastructure"] == 3 + 1


def _deck(tmp_path: Path, text: str) -> Any:
    (tmp_path / "profile.toml").write_text('name = "Infrastructure test"\ninherit = "demo"\n')
    (tmp_path / "new_infrastructure.toml").write_text(text)
    clear_cache()
    return engine.load_profile(tmp_path)


KIND = '[[infrastructure]]\nid = "gym"\nname = "Gym"\ncost = 3\nvp = 1\n'


@pytest.mark.parametrize("text, message", [
    (KIND + 'space = "stands"\n', 'new_infrastructure.toml, token gym, field "space": a new token is built on an empty improvement space'),
    (KIND + "stands = 1\n", 'new_infrastructure.toml, token gym, field "stands": a new token is built on an empty improvement space'),
    (KIND.replace('"gym"', '"lighting"'), 'new_infrastructure.toml, token lighting, field "id": id "lighting" is a Stadium Infrastructure kind of board.toml already'),
    (KIND + 'abilities = [{ timing = "production", effects = [{ op = "gain", resource = "gold", amount = 1 }] }]\n',
     'new_infrastructure.toml, token gym, field "abilities[1].effects[1].resource": expected one of "budget"'),
    (KIND + "colour = 1\n", 'new_infrastructure.toml, token gym, field "colour": unknown field'),
    (KIND.replace('id = "gym"\n', ''), 'new_infrastructure.toml, field "infrastructure[1].id": missing'),
    (KIND.replace("cost = 3", "cost = 30"), 'new_infrastructure.toml, token gym, field "cost": expected a whole number'),
])
def test_bad_new_infrastructure_data_is_refused_on_load_naming_the_file_the_token_and_the_field(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(DataError) as info:
        _deck(tmp_path, text)
    assert str(info.value).startswith(message)


def test_an_owners_token_file_is_read_as_the_boards_own(tmp_path: Path) -> None:
    profile = _deck(tmp_path, (DEMO_FOLDER / "new_infrastructure.toml").read_text() + KIND)
    assert [k.id for k in N.kinds_of(profile)][-1] == "gym"
