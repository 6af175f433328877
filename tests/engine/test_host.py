"""The module host, proven with two small modules of the tests' own (not shipped):

- *Predictions*: each week, after Thursday, every club secretly predicts its match result in a phase of its own
  (several seats answer in one exchange); the other seats and the table do not see a prediction until the match is
  played; a right one pays € from a data file, earns a bonus d6 (a roll purpose of the module: a 6 gives a VP token)
  and a VP at the end (a part of the final score); an option doubles the pay.
- *Fair price* (003 l.21: "Sell them as usual and gain a number of [€] equal to their Strength plus 2"): the sale
  price hook.

Each declares its events, data file, slice of state, phase and hooks exactly as a shipped module would.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator, NamedTuple

import pytest

import engine
from engine import errors as E
from engine import host
from engine.cards import RESULTS
from engine.loader import DataError, Fields
from engine.rules.context import field, seat_of, side_of
from engine.state import Game, Pending, State, evolve
from engine.tx import Tx

from engine.legal import setup_events
from engine.state import Held

from tests.engine.helpers import at_stage, club, refused, run, set_club

# --- Predictions -------------------------------------------------------------------------------------------------


class Predictions(NamedTuple):
    """The module's slice: each seat's prediction this week (seat, result), and right predictions per seat."""

    guesses: tuple[tuple[int, str], ...] = ()
    right: tuple[tuple[int, int], ...] = ()

    def guess(self, seat: int) -> str | None:
        return dict(self.guesses).get(seat)


NEED_WORDS = "Predict your result secretly"
PREDICT_DOC = "seat, result (win/draw/loss): the club's secret prediction of its match"


def _read_payout(fields: Fields, cards: Any) -> dict[str, int]:
    payout = fields.table("payout")
    out = {result: payout.int(result, 0, 9) for result in RESULTS}
    payout.done(RESULTS)
    fields.done()
    return out


def _slice(tx: Tx) -> Predictions:
    return tx.slice("predictions")  # type: ignore[no-any-return]


def _on_predict(tx: Tx) -> None:
    seat = seat_of(tx.event)
    tx.club(seat)
    if tx.state.stage != "predictions":
        raise E.WrongStage(E.WRONG_STAGE.format(seat=seat, what="predict", stage=tx.stage_name(), expected="and predictions come after Thursday"))
    result = field(tx.event, "result", str, "win, draw or loss")
    if result not in RESULTS:
        raise E.BadEvent(E.BAD_FIELD.format(type="predict", field="result", why="win, draw or loss"))
    mine = _slice(tx)
    if mine.guess(seat) is not None:
        raise E.NotAllowed(f"Seat {seat} has already predicted.")
    tx.put_slice("predictions", evolve(mine, guesses=mine.guesses + ((seat, result),)))
    tx.say("predicted", seat, f"Seat {seat} predicts its result (secretly).")  # the result itself is no announcement


def _begin(tx: Tx) -> None:
    tx.put_slice("predictions", evolve(_slice(tx), guesses=()))
    tx.say("predictions", None, "Predictions: every club predicts its match secretly.")


def _over(tx: Tx) -> bool:
    return all(_slice(tx).guess(c.seat) is not None for c in tx.state.clubs)


def _awaiting(state: State) -> list[dict[str, Any]]:
    mine: Predictions = state.slice("predictions")
    return [{"seat": c.seat, "need": "predict", "what": NEED_WORDS} for c in state.clubs if mine.guess(c.seat) is None]


def _week(state: State, week: int, phases: tuple[str, ...]) -> tuple[str, ...]:
    i = phases.index("thursday") + 1
    return phases[:i] + ("predictions",) + phases[i:]


def _after_match(tx: Tx, seat: int) -> None:
    mine = _slice(tx)
    club_ = tx.club(seat)
    if mine.guess(seat) != club_.result:
        return
    pay = tx.profile.module_data["predictions"]["predictions.toml"][club_.result] * int(tx.state.game.option("stake", 1))
    tx.put(club_._replace(res=(club_.res[0] + pay,) + club_.res[1:]))
    right = dict(mine.right)
    right[seat] = right.get(seat, 0) + 1
    tx.put_slice("predictions", evolve(mine, right=tuple(sorted(right.items()))))
    tx.state = evolve(tx.state, pending=tx.state.pending + (Pending("roll", seat, "prediction_bonus", "d6", True),))
    tx.say("prediction_right", seat, f"Seat {seat} predicted right and gains {pay} €: roll the d6 for a bonus.", pay=pay)


def _bonus(tx: Tx, pending: Pending, value: int) -> None:
    if value == 6:
        c = tx.club(pending.seat)  # type: ignore[arg-type]
        tx.put(c._replace(vp_tokens=c.vp_tokens + 1))


def _score(profile: Any, state: State, club_: Any) -> list[tuple[str, int]]:
    return [("predictions", dict(state.slice("predictions").right).get(club_.seat, 0))]


def _view(profile: Any, state: State, viewer: Any) -> list[tuple[str, Any]]:
    mine: Predictions = state.slice("predictions")
    played = {c.seat for c in state.clubs if c.result is not None}
    shown = {str(s): g for s, g in mine.guesses if viewer == "all" or viewer == s or s in played}
    return [("predictions", {"guesses": shown, "right": {str(s): n for s, n in mine.right}})]


def _candidates(profile: Any, state: State, need: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"type": "predict", "seat": need["seat"], "result": r} for r in RESULTS] if need["need"] == "predict" else []


def _stake(value: Any) -> int:
    if value not in (1, 2):
        raise ValueError("the stake is 1 or 2")
    return int(value)


PREDICTIONS = host.Module(
    name="predictions",
    title="Predictions",
    doc="A test module: predict your own result each week, secretly.",
    events={"predict": host.EventSpec(PREDICT_DOC, _on_predict)},
    phases=(host.Phase("predictions", "the Predictions", begin=_begin, over=_over, awaiting=_awaiting),),
    hooks={"week_phases": _week, "after_match": _after_match, "score_parts": _score, "view": _view,
           "candidates": _candidates},
    rolls={"prediction_bonus": _bonus},
    data=(host.DataFile("predictions.toml", _read_payout),),
    state=host.Slice(initial=lambda game: Predictions(),
                     decode=lambda d: Predictions(tuple((s, g) for s, g in d["guesses"]), tuple((s, n) for s, n in d["right"]))),
    options={"stake": host.Option("1 or 2: the pay of a right prediction is multiplied by it", _stake, 1)},
)

# --- Fair price --------------------------------------------------------------------------------------------------


def _fair(tx: Tx, club_: Any, held: Any, price: tuple[int, int]) -> tuple[int, int]:
    return side_of(tx, held, club_).strength + 2, price[1]


FAIR_PRICE = host.Module(name="fair_price", title="Fair price", hooks={"sale_price": _fair}, excludes=("predictions",))


@pytest.fixture
def modules(tmp_path: Path) -> Iterator[Any]:
    """The two modules registered, and a deck inheriting the demo with the Predictions payout table."""
    host.register(PREDICTIONS)
    host.register(FAIR_PRICE)
    (tmp_path / "profile.toml").write_text('name = "Test deck"\ninherit = "demo"\n')
    (tmp_path / "predictions.toml").write_text("[payout]\nwin = 1\ndraw = 2\nloss = 3\n")
    try:
        yield engine.load_profile(tmp_path)
    finally:
        host.unregister("predictions")
        host.unregister("fair_price")


GAME = {"type": "game", "pack": "eleven", "modules": ["predictions"], "options": {"stake": 2, "weeks": 8}}


def _started(profile: Any, seats: tuple[int, ...] = (1, 2)) -> State:
    return run(profile, [GAME, *setup_events(profile, list(seats))])


def test_a_log_without_the_game_event_is_the_base_game_and_the_event_names_the_modules(modules: Any) -> None:
    profile = modules
    base = run(profile, setup_events(profile, [1, 2]))
    assert base.game == Game() and base.modules == ()
    state = _started(profile)
    assert state.game == Game("eleven", ("predictions",), (("stake", 2), ("weeks", 8)))
    assert state.slice("predictions") == Predictions()
    assert engine.view(profile, state)["game"] == {"pack": "eleven", "modules": ["predictions"], "titles": ["Predictions"],
                                                   "options": {"stake": 2, "weeks": 8}, "revision": 1,
                                                   "text": "Eleven with Predictions; Stake 2, Weeks 8."}
    assert "predict" in engine.event_types(state) and "predict" not in engine.event_types(base)
    assert {m["name"] for m in engine.modules()} >= {"predictions", "fair_price"}


def test_the_game_event_is_checked_against_the_modules_the_options_and_the_deck(modules: Any) -> None:
    profile = modules
    empty = engine.initial_state(profile)
    text = refused(profile, empty, {**GAME, "modules": ["umpires"]}, E.NotAllowed)
    assert text.startswith('There is no module "umpires". Modules: ') and "predictions" in text
    assert refused(profile, empty, {**GAME, "modules": ["predictions", "fair_price"]}, E.NotAllowed) == \
        E.MODULE_EXCLUDES.format(title="Fair price", other="Predictions")
    assert refused(profile, empty, {**GAME, "options": {"stake": 3}}, E.BadEvent) == \
        E.BAD_OPTION.format(option="stake", why="the stake is 1 or 2")
    assert refused(profile, empty, {**GAME, "options": {"tempo": 1}}, E.NotAllowed).startswith('This game has no option "tempo"')
    assert refused(profile, empty, {**GAME, "options": {"weeks": 0}}, E.BadEvent) == \
        E.BAD_OPTION.format(option="weeks", why="The number of weeks is a whole number from 1 to 20, not 0")
    assert refused(profile, run(profile, [{"type": "club", "seat": 1}]), GAME, E.NotAllowed) == E.GAME_FIRST
    demo = engine.load_profile()  # the demo deck has no predictions.toml
    assert refused(demo, empty, GAME, E.NotAllowed) == \
        E.MODULE_DATA_MISSING.format(profile=demo.name, file="predictions.toml", title="Predictions")


def test_a_modules_bad_data_file_is_refused_on_load_naming_the_file_and_the_field(modules: Any, tmp_path: Path) -> None:
    deck = tmp_path / "bad"
    deck.mkdir()
    (deck / "profile.toml").write_text('name = "Bad"\ninherit = "demo"\n')
    (deck / "predictions.toml").write_text("[payout]\nwin = 1\ndraw = 12\nloss = 3\n")
    with pytest.raises(DataError) as info:
        engine.load_profile(deck)
    assert str(info.value) == 'predictions.toml, field "payout.draw": expected a whole number 0–9, got 12'
    (deck / "predictions.toml").write_text("[payout]\nwin = 1\ndraw = 2\nloss = 3\nexact = 5\n")
    with pytest.raises(DataError, match='predictions.toml, field "payout.exact": unknown field'):
        engine.load_profile(deck)


def test_the_weeks_option_sets_how_many_opponent_cards_each_club_is_dealt(modules: Any) -> None:
    profile = modules
    events = [{"type": "game", "options": {"weeks": 6}}, *setup_events(profile, [1, 2])]
    dealt = next(e for e in events if e["type"] == "opponents")
    text = refused(profile, run(profile, events[: events.index(dealt)]), dealt, E.NotAllowed)
    assert text == E.SETUP_OPPONENT_WEEKS.format(seat=1, count=len(dealt["cards"]), weeks=6, needed=6)
    short = [{**e, "cards": e["cards"][:6]} if e["type"] == "opponents" else e for e in events]
    assert run(profile, short).weeks == 6


def test_a_modules_phase_comes_between_thursday_and_matchday_and_every_seat_answers_in_it(modules: Any) -> None:
    profile = modules
    state = at_stage(profile, _started(profile), "predictions")
    assert state.awaiting == ({"seat": 1, "need": "predict", "what": NEED_WORDS}, {"seat": 2, "need": "predict", "what": NEED_WORDS})
    assert engine.why_not(profile, state, {"type": "lineup", "seat": 1, "players": []}) == E.WRONG_STAGE.format(
        seat=1, what="set a lineup", stage="the Predictions", expected="and this happens on Matchday")
    # seat 2 may answer first: the exchange waits for every seat, in any order
    state = run(profile, [{"type": "predict", "seat": 2, "result": "loss"}], state)
    assert state.stage == "predictions" and [n["seat"] for n in state.awaiting] == [1]
    assert engine.why_not(profile, state, {"type": "predict", "seat": 2, "result": "win"}) == "Seat 2 has already predicted."
    state = run(profile, [{"type": "predict", "seat": 1, "result": "win"}], state)
    assert state.stage == "matchday"


def test_a_prediction_is_secret_until_the_match_and_a_right_one_pays_rolls_and_scores(modules: Any) -> None:
    profile = modules
    state = at_stage(profile, _started(profile), "predictions")
    step = engine.apply(profile, state, {"type": "predict", "seat": 1, "result": "win"})
    assert all("win" not in json.dumps(a) for a in step.announcements)
    state = run(profile, [{"type": "predict", "seat": 2, "result": "draw"}], step.state)
    assert engine.view(profile, state, 1)["modules"]["predictions"]["guesses"] == {"1": "win"}
    assert engine.view(profile, state, "table")["modules"]["predictions"]["guesses"] == {}
    assert engine.view(profile, state)["modules"]["predictions"]["guesses"] == {"1": "win", "2": "draw"}
    # seat 1 plays and wins: nine goals before the match make the result certain
    state = set_club(state, 1, goals=9)
    lineup = engine.legal_events(profile, state)[0]
    assert lineup["type"] == "lineup" and lineup["seat"] == 1
    state = run(profile, [lineup, {"type": "kickoff", "seat": 1}], state)
    assert club(state, 1).result == "win"
    assert engine.view(profile, state, "table")["modules"]["predictions"]["guesses"] == {"1": "win"}
    assert club(state, 1).res[0] >= 1 * 2  # the stake doubles the win's 1 €
    assert any(n.get("purpose") == "prediction_bonus" and n["seat"] == 1 for n in state.awaiting)
    vp = club(state, 1).vp_tokens
    bonus = state
    while any(p.purpose == "prediction_bonus" for p in bonus.pending):  # the rolls before it first, then the bonus: a 6
        need = bonus.awaiting[0]
        event = {"type": "keep", "seat": 1} if need["need"] == "keep_or_reroll" else {"type": "roll", "seat": 1, "value": 6}
        bonus = run(profile, [event], bonus)
    assert club(bonus, 1).vp_tokens == vp + 1
    rows = {r["seat"]: r for r in engine.final_scores(profile, bonus)}
    assert rows[1]["predictions"] == 1 and rows[2]["predictions"] == 0
    assert rows[1]["total"] == sum(v for k, v in rows[1].items() if k in (
        "league", "vp_tokens", "staff_sets", "infrastructure", "objective", "office", "budget", "predictions"))


def test_a_game_with_modules_replays_to_the_same_state_and_survives_json(modules: Any) -> None:
    profile = modules
    log = [GAME, *setup_events(profile, [1, 2])]
    state = run(profile, log)
    while state.week < 2:
        options = engine.legal_events(profile, state)
        rolls = [e for e in options if e["type"] == "roll"]
        # pass and keep where the game allows; vary the dice so that a tie is not rolled again forever
        event = next((e for e in options if e["type"] in ("pass", "keep")), None) or (
            rolls[len(log) % len(rolls)] if rolls else options[-1])
        state = engine.apply(profile, state, event).state
        log.append(event)
    assert state.slice("predictions").guesses  # the week went through the module's phase
    assert engine.replay(profile, log) == state
    assert State.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    assert isinstance(State.from_dict(state.to_dict()).slice("predictions"), Predictions)


def test_the_sale_price_hook_prices_a_sold_footballer_at_his_strength_plus_two(modules: Any) -> None:
    profile = modules
    events = [{"type": "game", "modules": ["fair_price"]}, *setup_events(profile, [1])]
    state = at_stage(profile, run(profile, events), "tuesday")
    card = profile.cards["pl_04"]
    state = set_club(state, 1, players=club(state, 1).players + (Held("pl_04", trained=True),), res=(0, 0, 0, 0))
    step = engine.apply(profile, state, {"type": "sell", "seat": 1, "card": "pl_04"})
    assert club(step.state, 1).res[0] == card.trained.strength + 2


def test_the_base_rules_name_no_module() -> None:
    """The pack calls hooks by name; nothing in engine/rules asks which modules a game has."""
    rules = Path(engine.__file__).parent / "rules"
    source = "".join(p.read_text() for p in rules.glob("*.py"))
    assert "game.modules" not in source and "host.module(" not in source and "module_data" not in source
