"""A club's own card tapped before the kick-off, on the simulated table over the real engine: the seat's screen asks
for the footballer a match ability is for only when the engine would use it now, and otherwise says at once why
not, in the engine's words; the cards a tap may answer with are those the engine says fit."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

import engine
from device import inputs, screens
from device.replay import parse, run_step
from device.sim import SimulatedTable
from engine import errors as EE

SCENARIOS = Path(__file__).parents[2] / "scenarios"
REFERENCE = Path(__file__).with_name("reference")
VETERAN = "vet_01"
"""Seat 1's starting Veteran: trained, "Before the match, give another footballer +1 Strength this match"."""
YOUNGSTER = "yg_02"
"""Seat 1's starting Youngster."""


def _events(table: SimulatedTable) -> int:
    return len(table.session.store.events(table.session.game))


def _named(table: SimulatedTable, text: str) -> str:
    """A sentence of the engine as the screens say it: clubs by name, not seat."""
    clubs = {club.seat: club.name for club in table.session.state.clubs}
    return re.sub(r"\bSeat (\d+)\b", lambda m: clubs[int(m.group(1))], text)


@pytest.fixture
def matchday(tmp_path: Path) -> Iterator[SimulatedTable]:
    """Four clubs on Week 1's Matchday before any lineup (full-week.toml), Seat 1's Veteran trained."""
    scenario = parse(SCENARIOS / "full-week.toml")
    with SimulatedTable.open(tmp_path / "matchday.db", dice=scenario.dice) as table:
        for step in scenario.steps:
            if step.kind == "page" and step.target == "lineup":
                break
            run_step(table, step)
        assert table.view()["stage"] == "matchday"
        table.page({"type": "adjust", "seat": 1, "what": "trained", "card": VETERAN, "delta": 1, "reason": "test"})
        yield table


def _line_up(table: SimulatedTable, *cards: str) -> None:
    """Seat 1's lineup from the page, the engine placing the markers around ``cards`` fielded (Fitness given)."""
    table.page({"type": "adjust", "seat": 1, "what": "fitness", "delta": 2, "reason": "test: Fitness to field cards"})
    state = table.session.state
    lineup = engine.fill_lineup(table.session.profile, state, 1)
    fielded = {p["card"] for p in lineup["players"] if p["card"]}
    if not cards:  # plain markers only: each card's place taken by its own numbered marker
        lineup["players"] = [{**p, "card": None} for p in lineup["players"]]
    assert fielded >= set(cards), lineup
    table.page(lineup)
    assert any(e.get("need") == "kickoff" and e.get("seat") == 1 for e in table.session.state.awaiting)


def test_a_match_ability_for_a_footballer_asks_for_one_of_the_clubs_footballers(matchday: SimulatedTable) -> None:
    profile = matchday.session.profile
    _line_up(matchday, VETERAN)
    before = _events(matchday)
    matchday.tap("seat1.tap", VETERAN)
    said = matchday.screen("seat1.screen")
    assert said.headline == inputs.TAP_PICK.format(what="footballer")
    assert inputs.PICK_FOR.format(name=profile.cards[VETERAN].name) in said.detail
    frame = matchday.hardware.frame("seat1.screen").convert("L")
    expected = Image.open(REFERENCE / "pick_footballer.png").convert("1").convert("L")
    assert ImageChops.difference(frame, expected).getbbox() is None, "seat1.screen differs from pick_footballer.png"
    matchday.tap("seat1.tap", "pl_05")  # a footballer of no club: not one the engine takes, still waiting
    assert matchday.screen("seat1.screen").headline == inputs.NOT_A_PICK.format(what="footballer")
    assert _events(matchday) == before
    matchday.tap("seat1.tap", YOUNGSTER)
    assert _events(matchday) == before + 1
    youngster = next(p for c in matchday.view()["clubs"] if c["seat"] == 1 for p in c["players"] if p["id"] == YOUNGSTER)
    assert youngster["strength_tokens"]["temporary"] == 1
    said = matchday.screen("seat1.screen").text()
    assert f"Used {profile.cards[VETERAN].name}" in said and f"{profile.cards[YOUNGSTER].name}: Strength +1" in said


def test_a_card_whose_ability_cannot_be_used_now_says_why_at_the_tap(matchday: SimulatedTable) -> None:
    """The Veteran sits out (plain markers only): the engine will not use his ability, so the screen never asks for
    a footballer; it says why in the engine's sentence, and nothing is sent."""
    profile = matchday.session.profile
    _line_up(matchday)
    before = _events(matchday)
    matchday.tap("seat1.tap", VETERAN)
    said = matchday.screen("seat1.screen")
    why = EE.NOT_PLAYING.format(name=profile.cards[VETERAN].name)
    expected = screens.refusal_message(why, {"type": "use_card"})
    assert said.headline == expected.headline == screens.REFUSED["use_card"]
    assert said.detail[0] == _named(matchday, why)
    assert inputs.TAP_PICK.format(what="footballer") not in said.text()
    assert matchday.session.interpreter.choices() == {}
    assert _events(matchday) == before

