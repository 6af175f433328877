"""Market transfer cards against the leaflet (../shared/rules/003_aec5c853de079e9f.txt, "l." below), worked by hand
from the demo's printed numbers (engine/data/demo/market.toml, board.toml: a sale pays 5 €, 3 € make 1 VP).

l.233: "During Setup, take all Transfer cards and place them in ascending order according to the number in their
corner. Then, take a random number of cards and place them at the bottom of this deck."
l.235: "During the game, when a player Sells a Player card, they receive an appropriate bonus according to the
Transfer card. Then they place the top Transfer card at the bottom of the deck."
l.237: "Selling Goalkeepers does not provide any bonuses. Some Players can play in different Sections—when Selling
them, you may gain any corresponding bonus."

The demo's cards: 1 Defenders +2 €, Forwards -1 €; 2 Midfielders +2 €, Defenders +1 €; 3 Forwards +3 €, Midfielders
+1 €; 4 Youngsters +1 € and 1 VP token, Defenders +1 €; 5 Veterans +2 €, Midfielders +1 €, Forwards +1 €;
6 Forwards +1 €, Youngsters 1 VP token.
"""

from __future__ import annotations

from typing import Any

import engine
from engine import errors as E
from engine.legal import setup_events
from engine.state import Held, State

from tests.engine.helpers import at_stage, club, demo, refused, run, set_club

GAME = {"type": "game", "modules": ["market"], "revision": engine.REVISION}


def _tuesday(top: str, seats: tuple[int, ...] = (1, 2), revision: int = engine.REVISION, **changes: Any) -> State:
    """Seat 1's turn on the first Tuesday, the deck cut so that ``top`` lies on top; seat 1 holds what it is given."""
    profile = demo()
    game = {**GAME, "revision": revision}
    state = run(profile, [*setup_events(profile, list(seats), game=game), {"type": "market_top", "card": top}])
    state = at_stage(profile, state, "tuesday")
    assert state.turn == 1
    return set_club(state, 1, **{"res": (0, 0, 0, 0), "vp_tokens": 0, **changes})


def _sell(state: State, card: str, seat: int = 1, **extra: Any) -> tuple[State, list[dict[str, Any]]]:
    step = engine.apply(demo(), state, {"type": "sell", "seat": seat, "card": card, **extra})
    return step.state, list(step.announcements)


def _market(said: list[dict[str, Any]]) -> dict[str, Any]:
    return next(a for a in said if a["kind"] == "market")


def _top(state: State) -> str:
    return engine.view(demo(), state)["modules"]["market"]["top"]


def test_the_deck_is_laid_in_ascending_order_and_the_cut_card_is_on_top() -> None:
    """l.233: cut at card 4, the deck reads 4, 5, 6, 1, 2, 3 from the top."""
    state = _tuesday("tr_4")
    assert [c["number"] for c in engine.view(demo(), state)["modules"]["market"]["deck"]] == [4, 5, 6, 1, 2, 3]


def test_a_youngster_sold_under_academy_boom_gains_one_euro_and_one_vp_token() -> None:
    """l.235 with card 4: a trained Youngster (Enzo Ricci, Midfielder/Forward) takes "Youngsters: +1 € and 1 VP
    token"; the Defenders' +1 € does not fit him. 5 + 1 = 6 €, 0 + 1 VP token; card 5 comes on top."""
    state = _tuesday("tr_4", players=(Held("yg_07", trained=True),))
    state, said = _sell(state, "yg_07")
    assert club(state, 1).res[0] == 6 and club(state, 1).vp_tokens == 1
    assert _market(said)["bonus"] == 1 and _market(said)["next_number"] == 5
    assert _top(state) == "tr_5"


def test_a_veteran_of_two_sections_takes_the_veterans_bonus_or_the_one_he_names() -> None:
    """l.237 "you may gain any corresponding bonus", card 5: Jorge Salas (Veteran, Midfielder/Forward) fits all three
    bonuses. Unnamed: the one worth most, Veterans +2 € (7 €); named 3 (Forwards +1 €): 6 €."""
    state = _tuesday("tr_5", players=(Held("vet_05", trained=True),))
    best, _ = _sell(state, "vet_05")
    assert club(best, 1).res[0] == 7
    named, said = _sell(state, "vet_05", transfer_bonus=3)
    assert club(named, 1).res[0] == 6 and _market(said)["bonus"] == 3


def test_equal_bonuses_take_the_first_printed() -> None:
    """Card 5 for Callum Reid (Player, Midfielder/Forward): Midfielders +1 € and Forwards +1 € are equal: 6 €, and
    the first printed of those that fit (bonus 2) is announced."""
    state, said = _sell(_tuesday("tr_5", players=(Held("pl_13", trained=True),)), "pl_13")
    assert club(state, 1).res[0] == 6 and _market(said)["bonus"] == 2


def test_the_last_card_goes_under_and_card_one_comes_round_with_no_bonus_for_a_defender() -> None:
    """l.235 "Then they place the top Transfer card at the bottom": card 6 (the highest) is on top; a Defender
    (Owen Pryce) fits neither Forwards nor Youngsters, so 5 € and no token; then card 1 lies on top."""
    state, said = _sell(_tuesday("tr_6", players=(Held("pl_04", trained=True),)), "pl_04")
    assert club(state, 1).res[0] == 5 and club(state, 1).vp_tokens == 0
    assert _market(said)["bonus"] == 0 and _top(state) == "tr_1"


def test_each_sale_of_the_week_moves_the_deck_on_by_one_card() -> None:
    """Seat 1 sells a Forward under card 3 (+3 €: 8 €), then Seat 2 sells a Defender under card 4 (+1 €: 6 €)."""
    state = _tuesday("tr_3", players=(Held("pl_23", trained=True),))
    state = set_club(state, 2, res=(0, 0, 0, 0), players=(Held("pl_04", trained=True),))
    state, _ = _sell(state, "pl_23")
    assert club(state, 1).res[0] == 8
    assert state.turn == 2  # nothing more to do: Seat 1's turn ended with the sale
    state, said = _sell(state, "pl_04", seat=2)
    assert club(state, 2).res[0] == 6 and _market(said)["transfer_card"] == "tr_4"
    assert _top(state) == "tr_5"


def test_an_injured_youngster_sells_for_half_and_the_bonus_comes_whole() -> None:
    """000 l.474 "If you are selling the Injured or Suspended Player, you gain half (rounded down) VP's and €", then
    card 4's bonus on top (engine/RULES.md): 5 // 2 + 1 = 3 €, 3 // 2 + 1 = 2 VP tokens."""
    state = _tuesday("tr_4", players=(Held("yg_03", trained=True, injury=1, vp=3),))
    state, _ = _sell(state, "yg_03")
    assert club(state, 1).res[0] == 3 and club(state, 1).vp_tokens == 2


def test_a_refused_sale_leaves_the_deck_where_it_was() -> None:
    """An untrained footballer cannot be sold (000 l.468 "sell trained players"): refused, and card 3 stays on top."""
    state = _tuesday("tr_3", players=(Held("pl_23", trained=False), Held("pl_04", trained=True)))
    refused(demo(), state, {"type": "sell", "seat": 1, "card": "pl_23"}, E.NotAllowed)
    why = refused(demo(), state, {"type": "sell", "seat": 1, "card": "pl_04", "transfer_bonus": 1}, E.NotAllowed)
    assert "none of its bonuses fits him" in why  # card 3: Forwards +3 €, Midfielders +1 €; Owen Pryce defends
    assert _top(state) == "tr_3"


def test_a_bonus_number_the_card_does_not_print_is_refused() -> None:
    state = _tuesday("tr_3", players=(Held("pl_23", trained=True),))
    for number in (0, 3, -1):
        why = refused(demo(), state, {"type": "sell", "seat": 1, "card": "pl_23", "transfer_bonus": number}, E.NotAllowed)
        assert "1. Forwards: +3 €" in why


def test_a_footballer_of_two_sections_need_not_take_a_falling_price_of_one_of_them() -> None:
    """l.237 "you may gain any corresponding bonus": card 1 lowers the Forwards' price (-1 €) and prints nothing for
    Midfielders; Callum Reid (Midfielder/Forward) sold as a Midfielder fetches the usual 5 €, so a sale that names
    no bonus is not made to take the fall (engine/RULES.md "Market transfer cards"). A pure Forward (Ivan Petrov)
    corresponds to the Forwards only and takes it: 4 €."""
    state = _tuesday("tr_1", players=(Held("pl_13", trained=True), Held("pl_23", trained=True)))
    two, said = _sell(state, "pl_13")
    assert club(two, 1).res[0] == 5 and _market(said)["bonus"] == 0
    one, _ = _sell(state, "pl_23")
    assert club(one, 1).res[0] == 4
    assert "sold as one of the Midfielders, for whom the card prints no bonus" in _market(said)["text"]
    taken, _ = _sell(state, "pl_13", transfer_bonus=2)  # he may still name the Forwards' bonus
    assert club(taken, 1).res[0] == 4
    named, _ = _sell(state, "pl_13", transfer_bonus=0)
    assert club(named, 1).res[0] == 5 and _top(named) == "tr_2"
    refused(demo(), state, {"type": "sell", "seat": 1, "card": "pl_23", "transfer_bonus": 0}, E.NotAllowed,
            "2. Forwards: -1 €")  # a pure Forward has no section without a bonus
    # the Play page offers both prices for Callum Reid, none for Ivan Petrov (one price only)
    asks = engine.view(demo(), state)["modules"]["market"]["asks"]
    assert [o["event"].get("transfer_bonus") for o in asks[0]["options"]] == [2, 0]
    assert all(engine.why_not(demo(), state, o["event"]) is None for o in asks[0]["options"])


def test_a_game_of_an_earlier_revision_keeps_taking_the_fitting_bonus() -> None:
    """engine/RULES.md "Revisions": a game begun under revision 2 replays as it was played: 4 € for Callum Reid."""
    state = _tuesday("tr_1", revision=2, players=(Held("pl_13", trained=True),))
    two, said = _sell(state, "pl_13")
    assert club(two, 1).res[0] == 4 and _market(said)["bonus"] == 2
    refused(demo(), state, {"type": "sell", "seat": 1, "card": "pl_13", "transfer_bonus": 0}, E.NotAllowed)
