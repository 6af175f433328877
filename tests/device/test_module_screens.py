"""What a seat's screen says when the Market transfer cards, the Unique Setup cards and the new Stadium
Infrastructure tokens act: the engine's announcements of a real game, as the seat's 128×64 frame lays them out."""

from __future__ import annotations

from pathlib import Path

import engine
from device import screens
from device.game_view import GameView
from device.inputs import Interpreter
from device.screens import compose, layout, render
from drivers.dice import ScriptedDice
from engine.legal import setup_events
from engine.state import Held

from tests.engine.helpers import at_stage, demo, run, set_club

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _name(card: str) -> str:
    """A card's name as the table's screens say it (its id when the deck has no such card)."""
    found = demo().cards.get(card)
    return found.name if found is not None else card


def _shown(seat: int, announcements: list[dict], view: dict) -> list[str]:
    return [p.text for p in layout(compose(view, seat, screens.message_for(announcements, _name)))]


def test_a_sale_shows_the_transfer_card_bonus_and_the_next_card_on_top() -> None:
    profile = demo()
    events = setup_events(profile, [1, 2], game={"type": "game", "modules": ["market"]})
    state = at_stage(profile, run(profile, [*events, {"type": "market_top", "card": "tr_3"}]), "tuesday")
    state = set_club(state, 1, players=(Held("pl_23", trained=True),), res=(0, 0, 0, 0))
    step = engine.apply(profile, state, {"type": "sell", "seat": 1, "card": "pl_23"})
    view = engine.view(profile, step.state)
    message = screens.message_for([a for a in step.announcements if a["seat"] in (1, None)], _name)
    assert message.headline == "Sold Ivan Petrov"
    assert message.detail[:2] == ("+€8 +0VP", "Market +€3, next: 4")
    shown = _shown(1, [a for a in step.announcements if a["seat"] in (1, None)], view)
    assert "Market +€3, next: 4" in shown
    ARTIFACTS.mkdir(exist_ok=True)
    render(compose(view, 1, message)).save(ARTIFACTS / "screen-market-sale.png")


def test_unique_setup_cards_and_a_tokens_production_are_named_on_the_seats_screen() -> None:
    profile = demo()
    events = setup_events(profile, [1], game={"type": "game", "modules": ["unique_setup", "new_infrastructure"]})
    step = engine.apply(profile, run(profile, events), {"type": "unique_setup", "seat": 1, "green": "us_1", "red": "us_8"})
    placed = screens.message_for([a for a in step.announcements if a["kind"] == "unique_setup"])
    assert placed == screens.Message("Unique Setup cards", ("Family stand · Boardroom politics",))
    state = set_club(at_stage(profile, step.state, "tuesday"), 1, infrastructure=("analytic_center",))
    monday = []
    while state.stage != "monday" or state.week == 1:
        options = engine.legal_events(profile, state)
        step = engine.apply(profile, state, next((e for e in options if e["type"] in ("pass", "keep", "kickoff")), options[0]))
        monday.extend(step.announcements)
        state = step.state
        if state.week == 2:
            break
    produced = [a for a in monday if a.get("seat") == 1 and a["kind"] in ("production", "token_production", "gain")]
    message = screens.message_for(produced)
    assert message.headline == "Production" and "Analytic Center" in message.detail


def test_a_seat_owing_its_unique_setup_cards_is_sent_to_the_play_page_on_its_screen() -> None:
    # 003 l.187–219: each club places two Unique Setup cards at setup, one green side up and one red. The table cannot
    # see which side is up, so the seat's screen says where to do it instead of a sentence cut at the panel's edge.
    profile = demo()
    state = run(profile, setup_events(profile, [1, 2], game={"type": "game", "modules": ["unique_setup"]}))
    interpreter = Interpreter(ScriptedDice([]), clock=lambda: 0.0)
    for seat in (1, 2):
        prompt = interpreter.prompt(seat, GameView(profile, state))
        assert prompt == screens.Message("Unique Setup cards", ("Place on Play page",))
        shown = [p.text for p in layout(compose(engine.view(profile, state), seat, prompt))]
        assert "Unique Setup cards" in shown and "Place on Play page" in shown
    ARTIFACTS.mkdir(exist_ok=True)
    render(compose(engine.view(profile, state), 1, prompt)).save(ARTIFACTS / "screen-unique-setup-owed.png")
    # Once seat 1 has placed its cards, only seat 2 is still asked.
    placed = engine.apply(profile, state, {"type": "unique_setup", "seat": 1, "green": "us_1", "red": "us_8"}).state
    assert interpreter.prompt(1, GameView(profile, placed)) != prompt
    assert interpreter.prompt(2, GameView(profile, placed)) == prompt
