"""The referee's Suspension token when several of a club's footballers fit (003 l.69, Unjust: "Place a [Suspension
token] on a Player card with any of these tags"): the seat's screen says which footballers to tap, a footballer
that does not fit is refused in the engine's words, and the one tapped on the club's pad is suspended."""

from __future__ import annotations

from pathlib import Path

import engine
from device import screens
from device.game_view import GameView
from device.inputs import Interpreter, Press, Tap
from device.screens import compose, layout, render
from drivers.dice import ScriptedDice
from engine.modules import referee as R
from engine.state import State

from tests.engine.helpers import club, demo
from tests.engine.modules.test_referee import _unjust_with_several

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _choosing() -> tuple[State, list[str]]:
    """Seat 1 after its match under Unjust, its other rolls made: the referee waits for its choice."""
    profile = demo()
    state, fits = _unjust_with_several()
    while (first := next(n for n in state.awaiting if n["seat"] == 1))["need"] != R.SUSPEND_EVENT:
        event = {"type": "roll", "seat": 1, "value": 1} if first["need"] == "roll" else {"type": "keep", "seat": 1}
        state = engine.apply(profile, state, event).state
    return state, fits


def _tap(interpreter: Interpreter, state: State, card: str):  # type: ignore[no-untyped-def]
    return interpreter.handle(Tap("seat1.tap", 1, f"uid-{card}", card), GameView(demo(), state))


def test_the_seat_taps_the_footballer_the_referee_suspends() -> None:
    profile = demo()
    state, fits = _choosing()
    surnames = " or ".join(profile.cards[c].name.split()[-1] for c in fits)
    interpreter = Interpreter(ScriptedDice([]), clock=lambda: 0.0)
    prompt = interpreter.prompt(1, GameView(profile, state))
    assert prompt == screens.Message(R.CHOOSE_SHORT, (surnames, R.CHOOSE_HINT))
    shown = [p.text for p in layout(compose(engine.view(profile, state), 1, prompt))]
    assert R.CHOOSE_SHORT in shown and surnames in shown and R.CHOOSE_HINT in shown
    ARTIFACTS.mkdir(exist_ok=True)
    render(compose(engine.view(profile, state), 1, prompt)).save(ARTIFACTS / "screen-referee-suspend.png")

    # the button answers nothing here: it says again which footballers to tap
    pressed = interpreter.handle(Press("seat1.roll", 1), GameView(profile, state))
    assert not pressed.events and pressed.messages[1] == prompt

    # a footballer of the club who does not show the tags: refused with the engine's reason, nothing is sent
    other = next(h.id for h in club(state, 1).players if h.id not in fits)
    outcome = _tap(interpreter, state, other)
    assert outcome.refused and not outcome.events
    assert outcome.messages[1].headline == screens.REFUSED[R.SUSPEND_EVENT]
    why = engine.why_not(profile, state, {"type": R.SUSPEND_EVENT, "seat": 1, "card": other})
    assert why is not None and profile.cards[other].name in why and why in outcome.messages[1].detail

    # a footballer who fits: the tap sends the club's choice, and he gets the token
    outcome = _tap(interpreter, state, fits[1])
    assert outcome.events == ({"type": R.SUSPEND_EVENT, "seat": 1, "card": fits[1]},)
    after = engine.apply(profile, state, outcome.events[0]).state
    assert club(after, 1).held(fits[1]).suspension == 1  # type: ignore[union-attr]
    assert club(after, 1).held(fits[0]).suspension == 0  # type: ignore[union-attr]
    assert interpreter.prompt(1, GameView(profile, after)) != prompt
