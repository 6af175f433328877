"""Transferring Players (003 l.13–58, "003" below).

l.25: "you may decide to Sell them as usual and gain a number of [€] equal to their Strength plus 2, or you may Sell
them to any other player."  l.27–30: "1. Choose a card and announce how much you are willing to Sell it for. 2.
Starting with the next player in turn order and continuing clockwise, each player may make an offer or pass. [...] 3.
The bidding ends once all players except one pass. The player who made the highest offer gains the Player card with
its tokens [...]. If all players pass and no offer was made, you Sell this Player normally, but you only gain [€]
equal to their Strength. 4. Finally, gain 1 [€] from the supply."  l.32: "If you are playing with Transfer cards
(Gamefound Exclusive), apply their effects as normal."  l.45: "you may make an offer and Hire a Player from another
player for an amount of [€] you both agree upon. If the owner declines, you may make another offer for the same or
other Player. If 3 of your offers have been declined, you must Hire a Player from the Transfer Area or pass."
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import errors as E
from engine.legal import setup_events
from engine.modules import transfers as T
from engine.state import Held, State

from tests.engine.helpers import at_stage, club, demo, refused, run, set_club

GAME = {"type": "game", "modules": ["transfers"]}
# pl_02 Jonas Brekke: Strength 2 untrained; pl_04 Owen Pryce: Strength 3 untrained (players.toml)


def _tuesday(modules: tuple[str, ...] = ("transfers",), seats: tuple[int, ...] = (1, 2, 3, 4),
             extra: tuple[dict[str, Any], ...] = (), revision: int = 1) -> tuple[Any, State]:
    """Seat 1's turn on the first Tuesday; every club has 10 € and seat 1 holds only what a test gives it."""
    profile = demo()
    game = {"type": "game", "modules": list(modules), "revision": revision}
    state = run(profile, [*setup_events(profile, list(seats), game=game), *extra])
    state = at_stage(profile, state, "tuesday")
    assert state.turn == 1
    for seat in seats:
        state = set_club(state, seat, res=(10, 0, 0, 0))
    return profile, state


def _strength(profile: Any, state: State, seat: int, card: str) -> int:
    rules = engine.host.rules_for(state.game)
    tx = engine.tx.Tx(profile, rules, state, {}, quiet=True)
    held = club(state, seat).held(card)
    assert held is not None
    return T.strength(tx, club(state, seat), held)


def _apply(profile: Any, state: State, *events: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    said: list[dict[str, Any]] = []
    for event in events:
        step = engine.apply(profile, state, event)
        state = step.state
        said.extend(step.announcements)
    return state, said


# --- selling to the supply --------------------------------------------------------------------------------------


def test_a_footballer_sold_to_the_supply_brings_his_strength_plus_two() -> None:
    """l.25: Strength + 2 € instead of the board's 5 €, his VP tokens as usual."""
    profile, state = _tuesday()
    state = set_club(state, 1, players=(Held("pl_04", trained=True, vp=1, strength_perm=1),))
    strength = _strength(profile, state, 1, "pl_04")
    assert strength == profile.cards["pl_04"].trained.strength + 1  # his Strength token counts
    state, said = _apply(profile, state, {"type": "sell", "seat": 1, "card": "pl_04"})
    assert club(state, 1).res[0] == 10 + strength + 2
    assert club(state, 1).vp_tokens == 1
    sale = next(a for a in said if a["kind"] == "sell")
    assert sale["budget"] == strength + 2


def test_an_injured_footballer_sold_to_the_supply_brings_half() -> None:
    """000 l.474: an injured or suspended footballer sold brings half (rounded down); l.25 changes the price only."""
    profile, state = _tuesday()
    state = set_club(state, 1, players=(Held("pl_04", trained=True, injury=2),))
    strength = _strength(profile, state, 1, "pl_04")
    state, _ = _apply(profile, state, {"type": "sell", "seat": 1, "card": "pl_04"})
    assert club(state, 1).res[0] == 10 + (strength + 2) // 2


def test_without_the_module_the_board_price_is_kept() -> None:
    profile, state = _tuesday(modules=())
    state = set_club(state, 1, players=(Held("pl_04", trained=True),))
    state, _ = _apply(profile, state, {"type": "sell", "seat": 1, "card": "pl_04"})
    assert club(state, 1).res[0] == 10 + profile.board.sell_price


# --- the auction ------------------------------------------------------------------------------------------------


def test_an_auction_goes_clockwise_from_the_next_club_and_the_last_bidder_takes_the_card_with_its_tokens() -> None:
    """l.27–30: several clubs raise, then all but one pass; he pays the seller, who also gains 1 € from the supply."""
    profile, state = _tuesday()
    held = Held("pl_04", trained=True, vp=2, injury=1, strength_perm=1, experience=1)
    state = set_club(state, 1, players=(held,))
    state, said = _apply(profile, state, {"type": "auction", "seat": 1, "card": "pl_04", "ask": 4})
    assert said[0]["text"] == T.OPENED.format(seat=1, name="Owen Pryce", ask=4, first=2)
    assert state.awaiting[0]["seat"] == 2 and state.awaiting[0]["need"] == "bid" and state.awaiting[0]["next"] == 4
    assert not any(a["need"] == "action" for a in state.awaiting)  # the seller's turn waits for the auction
    # a press bids the asking price, then one step over the highest bid; a bid may be any amount over it
    state, _ = _apply(profile, state, {"type": "bid", "seat": 2})
    assert T._mine(state).auction.high == 4 and state.awaiting[0]["seat"] == 3
    state, _ = _apply(profile, state, {"type": "bid", "seat": 3})
    assert T._mine(state).auction.high == 5
    state, _ = _apply(profile, state, {"type": "bid", "seat": 4, "amount": 7})
    assert state.awaiting[0]["seat"] == 2 and state.awaiting[0]["next"] == 8  # back to the first bidder
    state, _ = _apply(profile, state, {"type": "bid_pass", "seat": 2})
    state, _ = _apply(profile, state, {"type": "bid", "seat": 3})  # 8
    assert state.awaiting[0]["seat"] == 4  # seat 2 passed for good: it is skipped
    state, said = _apply(profile, state, {"type": "bid_pass", "seat": 4})
    sold = next(a for a in said if a["kind"] == "auction_sold")
    assert sold["text"] == T.SOLD_TO.format(buyer=3, name="Owen Pryce", seller=1, amount=8, bonus=1)
    assert club(state, 1).players == () and club(state, 1).res[0] == 10 + 8 + 1
    assert club(state, 3).res[0] == 10 - 8
    assert club(state, 3).held("pl_04") == held  # every token travels with him (l.29, l.37)
    assert club(state, 1).vp_tokens == 0  # his VP tokens stayed on the card
    assert T._mine(state).auction is None and "pl_04" not in state.discarded
    assert state.turn == 2  # the seller's action was the sale: the turn moves on


def test_when_every_club_passes_the_footballer_is_sold_for_his_strength_and_the_seller_gains_one() -> None:
    """l.29: "If all players pass and no offer was made, you Sell this Player normally, but you only gain [€] equal
    to their Strength"; l.30: then 1 € from the supply."""
    profile, state = _tuesday()
    state = set_club(state, 1, players=(Held("pl_04", trained=True, vp=1),))
    strength = _strength(profile, state, 1, "pl_04")
    state, _ = _apply(profile, state, {"type": "auction", "seat": 1, "card": "pl_04"})
    assert T._mine(state).auction.ask == strength + 2  # asking what the supply would pay, unless the seller says
    state, said = _apply(profile, state, *({"type": "bid_pass", "seat": s} for s in (2, 3, 4)))
    unsold = next(a for a in said if a["kind"] == "auction_unsold")
    assert unsold["budget"] == strength and unsold["bonus"] == 1
    assert club(state, 1).res[0] == 10 + strength + 1 and club(state, 1).vp_tokens == 1
    assert "pl_04" in state.discarded and all(not c.held("pl_04") for c in state.clubs)


def test_an_untrained_footballer_may_be_auctioned() -> None:
    """l.41: "If you are Selling an Untrained Player, you may reveal [...] what's on their Trained side": he may be
    sold to another club; he keeps his untrained side up."""
    profile, state = _tuesday()
    state = set_club(state, 1, players=(Held("pl_02"),))
    assert refused(profile, state, {"type": "sell", "seat": 1, "card": "pl_02"}, E.NotAllowed) == \
        E.SELL_UNTRAINED.format(name="Jonas Brekke")
    state, _ = _apply(profile, state, {"type": "auction", "seat": 1, "card": "pl_02", "ask": 1},
                      {"type": "bid", "seat": 2}, {"type": "bid_pass", "seat": 3}, {"type": "bid_pass", "seat": 4})
    assert club(state, 2).held("pl_02") == Held("pl_02")


def test_bids_are_refused_out_of_turn_too_low_or_beyond_the_clubs_money() -> None:
    profile, state = _tuesday()
    state = set_club(state, 1, players=(Held("pl_04", trained=True),))
    state, _ = _apply(profile, state, {"type": "auction", "seat": 1, "card": "pl_04", "ask": 3},
                      {"type": "bid", "seat": 2, "amount": 5})
    assert refused(profile, state, {"type": "bid", "seat": 4}, E.NotYourTurn) == \
        T.NOT_YOUR_BID.format(seat=4, what="bid", turn=3, name="Owen Pryce")
    assert refused(profile, state, {"type": "bid", "seat": 3, "amount": 5}, E.NotAllowed) == \
        T.BID_LOW.format(seat=3, amount=5, high=5, name="Owen Pryce")
    assert refused(profile, state, {"type": "bid", "seat": 3, "amount": 11}, E.NotEnoughResources) == \
        T.BID_SHORT_OF.format(seat=3, amount=11, budget=10)
    # the turn's other events wait too: nobody opens another auction or makes an offer meanwhile
    assert refused(profile, state, {"type": "pass", "seat": 3}, E.NotYourTurn)
    assert refused(profile, state, {"type": "offer", "seat": 1, "card": "pl_04", "amount": 1}, E.NotAllowed)


def test_an_auction_is_the_sellers_action_on_its_turn() -> None:
    profile, state = _tuesday()
    state = set_club(state, 1, players=(Held("pl_04", trained=True),))
    state = set_club(state, 2, players=(Held("pl_02", trained=True),))
    assert refused(profile, state, {"type": "auction", "seat": 2, "card": "pl_02"}, E.NotYourTurn)
    assert refused(profile, state, {"type": "auction", "seat": 1, "card": "pl_02"}, E.NotAllowed) == \
        E.CARD_NOT_OWNED.format(seat=1, name="Jonas Brekke")
    assert refused(profile, state, {"type": "auction", "seat": 1, "card": "st_01"}, E.NotAllowed)
    assert refused(profile, state, {"type": "bid", "seat": 2}, E.NotAllowed) == T.NO_AUCTION.format(seat=2, what="bid")


def test_with_two_clubs_one_bid_ends_the_auction() -> None:
    """l.29: "The bidding ends once all players except one pass": with one other club, its bid wins at once."""
    profile, state = _tuesday(seats=(1, 2))
    state = set_club(state, 1, players=(Held("pl_04", trained=True),))
    state, said = _apply(profile, state, {"type": "auction", "seat": 1, "card": "pl_04", "ask": 6},
                         {"type": "bid", "seat": 2})
    assert any(a["kind"] == "auction_sold" and a["amount"] == 6 for a in said)
    assert club(state, 2).held("pl_04") is not None


def test_with_the_market_the_top_transfer_card_gives_its_bonus_to_the_seller_of_an_auction() -> None:
    """l.32 and l.36–38: "When Selling this Player, when that Transfer card is active, gain 1 additional [€]"."""
    profile, state = _tuesday(modules=("transfers", "market"), extra=({"type": "market_top", "card": "tr_1"},))
    state = set_club(state, 1, players=(Held("pl_04", trained=True),))  # a Defender: tr_1 gives Defenders +2 €
    state, said = _apply(profile, state, {"type": "auction", "seat": 1, "card": "pl_04", "ask": 5},
                         {"type": "bid", "seat": 2}, *({"type": "bid_pass", "seat": s} for s in (3, 4)))
    assert club(state, 1).res[0] == 10 + 5 + 1 + 2
    market = next(a for a in said if a["kind"] == "market")
    assert market["budget"] == 2 and engine.view(profile, state)["modules"]["market"]["top"] == "tr_2"


# --- offers -----------------------------------------------------------------------------------------------------


def test_an_accepted_offer_moves_the_footballer_with_his_tokens_and_is_the_buyers_hire() -> None:
    """l.45: "make an offer and Hire a Player from another player for an amount of [€] you both agree upon"."""
    profile, state = _tuesday()
    held = Held("pl_04", trained=True, suspension=1, vp=1)
    state = set_club(state, 3, players=(held,))
    state, said = _apply(profile, state, {"type": "offer", "seat": 1, "card": "pl_04", "amount": 6})
    assert said[0]["text"] == T.OFFER.format(buyer=1, owner=3, amount=6, name="Owen Pryce")
    assert state.awaiting[0]["seat"] == 3 and state.awaiting[0]["need"] == "offer_answer"
    assert state.awaiting[0]["press"] == {"type": "accept_offer", "seat": 3}
    assert refused(profile, state, {"type": "accept_offer", "seat": 2}, E.NotAllowed) == T.NO_OFFER.format(seat=2)
    # while the offer waits, the offering club takes no other action (no hire from the Transfer area meanwhile)
    assert refused(profile, state, {"type": "hire_staff", "seat": 1, "card": "st_02"}, E.NotAllowed) == \
        E.ALREADY_ACTED.format(seat=1, day="Tuesday")
    state, said = _apply(profile, state, {"type": "accept_offer", "seat": 3})
    assert club(state, 1).held("pl_04") == held and club(state, 3).players == ()
    assert club(state, 1).res[0] == 4 and club(state, 3).res[0] == 16
    assert state.turn == 2  # the hire was seat 1's action


def test_three_declined_offers_leave_the_transfer_area_or_a_pass() -> None:
    """l.45: "If the owner declines, you may make another offer for the same or other Player. If 3 of your offers
    have been declined, you must Hire a Player from the Transfer Area or pass"."""
    profile, state = _tuesday()
    state = set_club(state, 2, players=(Held("pl_02", trained=True),))
    state = set_club(state, 4, players=(Held("pl_04", trained=True),))
    for n, (card, owner) in enumerate((("pl_02", 2), ("pl_04", 4), ("pl_02", 2)), start=1):
        state, said = _apply(profile, state, {"type": "offer", "seat": 1, "card": card, "amount": n},
                             {"type": "decline_offer", "seat": owner})
        assert said[-1]["count"] == n and state.turn == 1 and not club(state, 1).acted  # still seat 1's turn to act
    assert said[-1]["text"] == T.DECLINED_LAST.format(owner=2, buyer=1, name="Jonas Brekke", most=3)
    assert refused(profile, state, {"type": "offer", "seat": 1, "card": "pl_04", "amount": 9}, E.NotAllowed) == \
        T.TOO_MANY_DECLINED.format(seat=1, most=3, day="Tuesday")
    state, _ = _apply(profile, state, {"type": "pass", "seat": 1})
    assert state.turn == 2


def _declined_three_times(revision: int) -> tuple[Any, State]:
    profile, state = _tuesday(seats=(1, 2), revision=revision)
    state = set_club(state, 2, players=(Held("pl_02", trained=True),))
    for amount in (1, 2, 3):
        state, _ = _apply(profile, state, {"type": "offer", "seat": 1, "card": "pl_02", "amount": amount},
                          {"type": "decline_offer", "seat": 2})
    return profile, state


def test_after_three_declined_offers_the_club_hires_from_the_transfer_area_or_passes() -> None:
    """l.45: "If 3 of your offers have been declined, you must Hire a Player from the Transfer Area or pass": a
    Staff card, a building or another action is refused with that sentence; a hire from the Transfer area is its
    action."""
    profile, state = _declined_three_times(engine.REVISION)
    must = T.TOO_MANY_DECLINED.format(seat=1, most=3, day="Tuesday")
    staff = next(c.id for c in profile.cards_of("staff") if c.cost <= 10 and c.profession != "First trainer")
    assert refused(profile, state, {"type": "hire_staff", "seat": 1, "card": staff}, E.NotAllowed) == must
    assert refused(profile, state, {"type": "office", "seat": 1}, E.NotAllowed) == must
    player = next(c for c in profile.cards_of("player") if c.untrained.cost <= 10
                  and all(c.id != h.id for cl in state.clubs for h in cl.players))
    hired, _ = _apply(profile, state, {"type": "hire_player", "seat": 1, "card": player.id})
    assert club(hired, 1).held(player.id) is not None and hired.turn == 2
    passed, _ = _apply(profile, state, {"type": "pass", "seat": 1})
    assert passed.turn == 2


def test_a_game_begun_before_lets_the_club_take_another_action_after_three_declined_offers() -> None:
    # revisions 1–2 (engine/RULES.md "Revisions"): the game replays as it was played
    profile, state = _declined_three_times(2)
    staff = next(c.id for c in profile.cards_of("staff") if c.cost <= 10 and c.profession != "First trainer")
    hired, _ = _apply(profile, state, {"type": "hire_staff", "seat": 1, "card": staff})
    assert any(h.id == staff for h in club(hired, 1).staff)


def test_offers_are_refused_for_own_or_unowned_cards_and_beyond_the_clubs_money() -> None:
    profile, state = _tuesday()
    state = set_club(state, 1, players=(Held("pl_02", trained=True),))
    state = set_club(state, 2, players=(Held("pl_04", trained=True),))
    assert refused(profile, state, {"type": "offer", "seat": 1, "card": "pl_02", "amount": 1}, E.NotAllowed) == \
        T.OWN_CARD.format(seat=1, name="Jonas Brekke")
    assert refused(profile, state, {"type": "offer", "seat": 1, "card": "pl_05", "amount": 1}, E.NotAllowed).endswith(
        "no club has him; hire him from the Transfer area.")
    assert refused(profile, state, {"type": "offer", "seat": 1, "card": "pl_04", "amount": 11}, E.NotEnoughResources)
    assert refused(profile, state, {"type": "offer", "seat": 1, "card": "pl_04", "amount": -1}, E.BadEvent)
    assert refused(profile, state, {"type": "offer", "seat": 3, "card": "pl_04", "amount": 1}, E.NotYourTurn)


def test_with_the_market_the_previous_owner_gains_the_transfer_cards_bonus() -> None:
    """l.49–52: "When Hiring this Player with an active Transfer card, its previous owner gains 1 [€] from the
    supply"."""
    profile, state = _tuesday(modules=("transfers", "market"), extra=({"type": "market_top", "card": "tr_1"},))
    state = set_club(state, 2, players=(Held("pl_04", trained=True),))
    state, _ = _apply(profile, state, {"type": "offer", "seat": 1, "card": "pl_04", "amount": 3},
                      {"type": "accept_offer", "seat": 2})
    assert club(state, 2).res[0] == 10 + 3 + 2 and club(state, 1).res[0] == 7


# --- the view and the log ---------------------------------------------------------------------------------------


def test_the_view_shows_the_auction_and_the_page_offers_bids_and_passes() -> None:
    profile, state = _tuesday()
    state = set_club(state, 1, players=(Held("pl_04", trained=True),))
    view = engine.view(profile, state)["modules"]["transfers"]
    assert view["auction"] is None and {o["event"]["type"] for o in view["asks"][0]["options"]} == {"auction", "offer"}
    state, _ = _apply(profile, state, {"type": "auction", "seat": 1, "card": "pl_04", "ask": 3},
                      {"type": "bid", "seat": 2, "amount": 6})
    view = engine.view(profile, state)["modules"]["transfers"]
    assert view["auction"] == {"seller": 1, "card": "pl_04", "name": "Owen Pryce", "ask": 3, "high": 6, "high_seat": 2,
                               "turn": 3, "passed": [], "next": 7}
    ask = view["asks"][0]
    assert ask["seat"] == 3 and [o["event"]["type"] for o in ask["options"]] == ["bid", "bid", "bid_pass"]
    assert ask["options"][0]["event"] == {"type": "bid", "seat": 3, "amount": 7}


def test_a_game_with_an_auction_replays_to_the_same_state_and_round_trips() -> None:
    profile, state = _tuesday()
    state = set_club(state, 1, players=(Held("pl_04", trained=True),))
    state, _ = _apply(profile, state, {"type": "auction", "seat": 1, "card": "pl_04"}, {"type": "bid", "seat": 2})
    assert State.from_dict(state.to_dict()) == state


@pytest.mark.parametrize("text, why", [("supply_plus = 11", "supply_plus"), ("bid_step = 0", "bid_step"),
                                       ("other = 1", "other")])
def test_a_wrong_number_in_transfers_toml_is_named(tmp_path: Any, text: str, why: str) -> None:
    import shutil

    from engine.loader import DEMO_FOLDER, DataError, clear_cache

    folder = tmp_path / "deck"
    shutil.copytree(DEMO_FOLDER, folder)
    (folder / T.FILE).write_text(text + "\n")
    clear_cache()
    with pytest.raises(DataError) as info:
        engine.load_profile(folder)
    assert T.FILE in str(info.value) and why in str(info.value)
