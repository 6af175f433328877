"""Market transfer cards (003 l.229–237, "003" below; the Transferring Players text's examples l.36–38, l.50–52).

l.233: "During Setup, take all Transfer cards and place them in ascending order according to the number in their
corner. Then, take a random number of cards and place them at the bottom of this deck."  l.235: "when a player
Sells a Player card, they receive an appropriate bonus according to the Transfer card. Then they place the top
Transfer card at the bottom of the deck."  l.237: "Selling Goalkeepers does not provide any bonuses. Some Players can
play in different Sections—when Selling them, you may gain any corresponding bonus."
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import errors as E
from engine.legal import setup_events
from engine.loader import DEMO_FOLDER, DataError, clear_cache
from engine.modules import market as M
from engine.state import Held, State

from tests.engine.helpers import at_stage, club, demo, refused, run, set_club

GAME = {"type": "game", "modules": ["market"]}
SELL = demo().board.sell_price  # 000 l.472: "Gain 5 €"


def _setup(profile: Any, seats: tuple[int, ...] = (1, 2)) -> State:
    return run(profile, setup_events(profile, list(seats), game=GAME))


def _tuesday(profile: Any = None, top: str = "tr_3", **club_changes: Any) -> tuple[Any, State]:
    """Seat 1's turn on the first Tuesday, the Market deck cut at ``top``, seat 1 holding nothing but what it is given."""
    profile = profile or demo()
    state = run(profile, [{"type": "market_top", "card": top}], _setup(profile))
    state = at_stage(profile, state, "tuesday")
    assert state.turn == 1
    return profile, set_club(state, 1, **{"res": (0, 0, 0, 0), **club_changes})


def _sold(profile: Any, state: State, card: str, **extra: Any) -> tuple[State, list[dict[str, Any]]]:
    step = engine.apply(profile, state, {"type": "sell", "seat": 1, "card": card, **extra})
    return step.state, list(step.announcements)


# --- the setup ---------------------------------------------------------------------------------------------------


def test_the_setup_waits_for_the_table_to_say_which_transfer_card_is_on_top() -> None:
    """l.233: the cards in ascending order, then a random number to the bottom; the table says the card on top."""
    profile = demo()
    state = _setup(profile)
    assert state.stage == "setup" and state.first_seat == 1  # the First player is named, the Market deck is not laid
    assert state.awaiting == ({"seat": None, "need": "market_top", "text": M.NEED_TOP, "page": True},)
    assert refused(profile, state, {"type": "market_top", "card": "tr_9"}, E.NotAllowed).startswith(
        'There is no Transfer card "tr_9" in this deck. Transfer cards: tr_1 (1), tr_2 (2)')
    step = engine.apply(profile, state, {"type": "market_top", "card": "tr_5"})
    assert step.state.stage == "monday" and step.state.week == 1
    assert step.announcements[0]["text"] == M.TOP_SET.format(number=5, name="Experience counts")
    deck = engine.view(profile, step.state)["modules"]["market"]["deck"]
    assert [c["number"] for c in deck] == [5, 6, 1, 2, 3, 4]  # ascending, cut so that 5 is on top
    assert refused(profile, step.state, {"type": "market_top", "card": "tr_1"}, E.WrongStage) == M.SETUP_ONLY


def test_a_transfer_card_told_before_the_first_player_lets_week_one_begin_at_once() -> None:
    profile = demo()
    events = setup_events(profile, [1, 2], game=GAME)
    state = run(profile, [*events[:-1], {"type": "market_top", "card": "tr_2"}, events[-1]])
    assert state.stage == "monday"


# --- a sale ------------------------------------------------------------------------------------------------------


def test_a_sale_takes_the_top_cards_bonus_and_the_top_card_goes_to_the_bottom() -> None:
    """l.235; l.38: "When Selling this Player, when that Transfer card is active, gain 1 additional [€]"."""
    profile, state = _tuesday(top="tr_3", players=(Held("pl_23", trained=True),))  # a Forward; tr_3: Forwards +3 €
    state, said = _sold(profile, state, "pl_23")
    assert club(state, 1).res[0] == SELL + 3
    assert state.slice("market").top == "tr_4"
    market = next(a for a in said if a["kind"] == "market")
    assert market["text"] == ("Market: Transfer card 3 (Strikers wanted) gives Seat 1 +3 € (Forwards) for Ivan Petrov; "
                              "Transfer card 4 (Academy boom) comes on top.")
    assert next(a for a in said if a["kind"] == "sell")["budget"] == SELL + 3
    assert [c["number"] for c in engine.view(profile, state)["modules"]["market"]["deck"]] == [4, 5, 6, 1, 2, 3]


def test_a_sale_no_bonus_fits_still_moves_the_top_card_to_the_bottom() -> None:
    profile, state = _tuesday(top="tr_3", players=(Held("pl_01", trained=True),))  # a Defender; tr_3 has no Defenders
    state, said = _sold(profile, state, "pl_01")
    assert club(state, 1).res[0] == SELL and state.slice("market").top == "tr_4"
    assert next(a for a in said if a["kind"] == "market")["bonus"] == 0


def test_the_last_card_goes_under_and_the_first_comes_round_again() -> None:
    profile, state = _tuesday(top="tr_6", players=(Held("pl_23", trained=True),))
    state, _ = _sold(profile, state, "pl_23")
    assert club(state, 1).res[0] == SELL + 1 and state.slice("market").top == "tr_1"


def test_a_footballer_of_several_sections_may_take_any_bonus_that_fits_him() -> None:
    """l.237: "Some Players can play in different Sections—when Selling them, you may gain any corresponding bonus".
    pl_13 plays mid and fwd; tr_3 gives Forwards +3 € and Midfielders +1 €."""
    profile, state = _tuesday(top="tr_3", players=(Held("pl_13", trained=True),))
    best, _ = _sold(profile, state, "pl_13")
    assert club(best, 1).res[0] == SELL + 3  # without a word from the club: the bonus worth most
    chosen, said = _sold(profile, state, "pl_13", transfer_bonus=2)
    assert club(chosen, 1).res[0] == SELL + 1 and chosen.slice("market").top == "tr_4"
    assert "+1 € (Midfielders)" in next(a for a in said if a["kind"] == "market")["text"]
    # the Play page offers each bonus that fits him, as the sale events the engine takes
    asks = engine.view(profile, state)["modules"]["market"]["asks"]
    assert [o["event"] for o in asks[0]["options"]] == [
        {"type": "sell", "seat": 1, "card": "pl_13", "transfer_bonus": 1},
        {"type": "sell", "seat": 1, "card": "pl_13", "transfer_bonus": 2}]
    assert all(engine.why_not(profile, state, o["event"]) is None for o in asks[0]["options"])


def test_a_bonus_that_does_not_fit_the_footballer_is_refused_naming_those_that_do() -> None:
    profile, state = _tuesday(top="tr_3", players=(Held("pl_23", trained=True), Held("pl_01", trained=True)))
    text = refused(profile, state, {"type": "sell", "seat": 1, "card": "pl_23", "transfer_bonus": 2}, E.NotAllowed)
    assert text == M.NO_BONUS_HERE.format(name="Ivan Petrov", number=2, card="Transfer card 3 (Strikers wanted)",
                                          why=M.BONUS_WORDS.format(card="Transfer card 3 (Strikers wanted)",
                                                                   fits="1. Forwards: +3 €"))
    assert refused(profile, state, {"type": "sell", "seat": 1, "card": "pl_01", "transfer_bonus": 1}, E.NotAllowed).endswith(M.NONE_FIT)
    assert "transfer_bonus" in refused(profile, state, {"type": "sell", "seat": 1, "card": "pl_23", "transfer_bonus": "1"}, E.BadEvent)


def test_a_youngster_takes_the_bonus_worth_most_at_the_final_scoring() -> None:
    """tr_4 gives Youngsters +1 € and a VP token, Defenders +1 €: a Defender Youngster gets the first (a VP token is
    worth budget_per_vp € at the end)."""
    profile, state = _tuesday(top="tr_4", players=(Held("yg_01", trained=True),))
    state, _ = _sold(profile, state, "yg_01")
    assert club(state, 1).res[0] == SELL + 1 and club(state, 1).vp_tokens == 1


def test_an_injured_footballer_sells_for_half_and_the_bonus_comes_on_top() -> None:
    """000 l.474: "If you are selling the Injured or Suspended Player, you gain half (rounded down) VP's and €"; the
    Transfer card's bonus is the market's, not the sale's price, so it is not halved."""
    profile, state = _tuesday(top="tr_3", players=(Held("pl_23", trained=True, injury=1),))
    state, _ = _sold(profile, state, "pl_23")
    assert club(state, 1).res[0] == SELL // 2 + 3


def test_a_falling_price_never_pays_below_nothing() -> None:
    """tr_1: Forwards -1 €."""
    profile, state = _tuesday(top="tr_1", players=(Held("pl_23", trained=True, suspension=1),))
    state, _ = _sold(profile, state, "pl_23")
    assert club(state, 1).res[0] == SELL // 2 - 1


def _deck(tmp_path: Path, text: str) -> Any:
    (tmp_path / "profile.toml").write_text('name = "Market test"\ninherit = "demo"\n')
    (tmp_path / "market.toml").write_text(text)
    clear_cache()
    return engine.load_profile(tmp_path)


def test_selling_a_goalkeeper_brings_no_bonus(tmp_path: Path) -> None:
    """l.237: "Selling Goalkeepers does not provide any bonuses"; the deck says which cards are Goalkeepers."""
    text = (DEMO_FOLDER / "market.toml").read_text().replace("goalkeepers = []", 'goalkeepers = ["pl_23"]')
    profile, state = _tuesday(_deck(tmp_path, text), top="tr_3", players=(Held("pl_23", trained=True),))
    assert refused(profile, state, {"type": "sell", "seat": 1, "card": "pl_23", "transfer_bonus": 1}, E.NotAllowed) == \
        M.GOALKEEPER.format(name="Ivan Petrov")
    state, said = _sold(profile, state, "pl_23")
    assert club(state, 1).res[0] == SELL and state.slice("market").top == "tr_4"
    assert "(a Goalkeeper)" in next(a for a in said if a["kind"] == "market")["text"]


# --- the data ----------------------------------------------------------------------------------------------------


def test_the_demo_deck_has_six_transfer_cards_in_ascending_order() -> None:
    """l.231: "The Market mini-expansion adds 6 new Transfer cards"."""
    deck = M.deck_of(demo())
    assert [c.number for c in deck.cards] == [1, 2, 3, 4, 5, 6] and not deck.goalkeepers


CARD = '[[card]]\nid = "tr_1"\nnumber = 1\nname = "A"\nbonuses = [{ section = "def", budget = 1 }]\n'
TWO = CARD + '[[card]]\nid = "tr_2"\nnumber = 2\nname = "B"\nbonuses = [{ section = "mid", budget = 1 }]\n'


@pytest.mark.parametrize("text, message", [
    (TWO.replace('section = "mid"', 'section = "keeper"'),
     'market.toml, card tr_2, field "bonuses[1].section": expected one of "def", "mid", "fwd", got "keeper"'),
    (TWO.replace('{ section = "mid", budget = 1 }', '{ budget = 1 }'),
     'market.toml, card tr_2, field "bonuses[1].section": missing; a bonus names the footballers it is for'),
    (TWO.replace("number = 2", "number = 1"),
     'market.toml, card tr_2, field "number": expected a number no other Transfer card has'),
    (TWO.replace('id = "tr_2"', 'id = "pl_01"'), 'market.toml, card pl_01, field "id": id "pl_01" must start with "tr_"'),
    (TWO.replace('budget = 1 }]\n[[card]]', 'budget = 1, price = 2 }]\n[[card]]'),
     'market.toml, card tr_1, field "bonuses[1].price": unknown field'),
    ('goalkeepers = ["pl_99"]\n' + TWO, 'market.toml, field "goalkeepers[1]": expected the id of a footballer card of this deck, got "pl_99"'),
    (CARD, 'market.toml, field "card": expected at least two Transfer cards'),
])
def test_bad_market_data_is_refused_on_load_naming_the_file_the_card_and_the_field(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(DataError) as info:
        _deck(tmp_path, text)
    assert str(info.value).startswith(message)


def test_a_market_game_replays_and_survives_json() -> None:
    profile, state = _tuesday(top="tr_3", players=(Held("pl_13", trained=True),))
    state, _ = _sold(profile, state, "pl_13", transfer_bonus=2)
    again = State.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state and isinstance(again.slice("market"), M.Market)
