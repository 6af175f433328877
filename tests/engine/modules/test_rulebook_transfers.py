"""Transferring Players (003 l.13–58) checked against the leaflet by hand-computed cases.

Every number below is worked out from the rule line quoted and the demo deck's printed cards (players.toml,
youngsters.toml): pl_04 Owen Pryce, Strength 3 untrained, 4 trained; pl_02 Jonas Brekke, Strength 2 untrained;
yg_01 Toni Toncini, Strength 1 untrained (the Youngsters' shared side), 2 trained.  Every club starts a case with
10 € (see ``_tuesday``), and Seat 1 has the turn on the first Tuesday.
"""

from __future__ import annotations

from typing import Any

import engine
from engine import errors as E
from engine.modules import transfers as T
from engine.state import Held, State

from tests.engine.helpers import club, refused, set_club
from tests.engine.modules.test_transfers import _apply, _tuesday


def _auction(profile: Any, state: State, card: str, ask: int, *steps: tuple[str, int, int | None]) -> tuple[State, list[dict[str, Any]]]:
    """Seat 1 auctions ``card``; then each step is ("bid", seat, amount) or ("pass", seat, None)."""
    events: list[dict[str, Any]] = [{"type": "auction", "seat": 1, "card": card, "ask": ask}]
    for kind, seat, amount in steps:
        event: dict[str, Any] = {"type": "bid" if kind == "bid" else "bid_pass", "seat": seat}
        if amount is not None:
            event["amount"] = amount
        events.append(event)
    return _apply(profile, state, *events)


def _money(state: State) -> list[int]:
    return [club(state, seat).res[0] for seat in sorted(c.seat for c in state.clubs)]


# --- l.25: selling to the supply --------------------------------------------------------------------------------


def test_a_trained_youngster_sold_to_the_supply_brings_his_strength_plus_two_and_goes_under_the_youngster_deck() -> None:
    """l.25: "Sell them as usual and gain a number of [€] equal to their Strength plus 2"; l.40: "When Selling
    Youngsters, follow the same procedure"; 000 l.180: a discarded Youngster goes under the Youngster deck."""
    profile, state = _tuesday()
    state = set_club(state, 1, players=(Held("yg_01", trained=True, vp=1),))
    state, said = _apply(profile, state, {"type": "sell", "seat": 1, "card": "yg_01"})
    # trained Strength 2, plus 2: 4 € (not the board's price), and his 1 VP token
    assert _money(state) == [14, 10, 10, 10] and club(state, 1).vp_tokens == 1
    assert "yg_01" not in state.discarded and all(c.held("yg_01") is None for c in state.clubs)
    assert state.turn == 2


# --- l.27–30: the auction ----------------------------------------------------------------------------------------


def test_the_last_club_to_speak_may_still_bid_after_the_others_passed_and_takes_him_at_once() -> None:
    """l.28: "Starting with the next player in turn order and continuing clockwise, each player may make an offer
    or pass"; l.29: "The bidding ends once all players except one pass": Seats 2 and 3 pass, Seat 4 bids the ask
    and nobody is left to outbid it."""
    profile, state = _tuesday()
    state = set_club(state, 1, players=(Held("pl_04", trained=True, vp=2, injury=1),))
    state, said = _auction(profile, state, "pl_04", 5, ("pass", 2, None), ("pass", 3, None))
    assert state.awaiting[0]["seat"] == 4 and state.awaiting[0]["next"] == 5
    state, said = _apply(profile, state, {"type": "bid", "seat": 4})
    # Seat 4 pays 5 €; Seat 1 gains 5 € and 1 € from the supply (l.30); the VP and Injury tokens travel (l.29)
    assert _money(state) == [16, 10, 10, 5]
    assert club(state, 4).held("pl_04") == Held("pl_04", trained=True, vp=2, injury=1)
    assert club(state, 1).vp_tokens == 0 and "pl_04" not in state.discarded
    assert [a["kind"] for a in said][0] == "auction_sold"


def test_three_clubs_outbid_each_other_until_one_passes() -> None:
    """l.29: "The player who made the highest offer gains the Player card": Seat 2 bids 3, Seat 3 bids 4, Seat 2 bids
    6, Seat 3 passes: Seat 2 pays 6."""
    profile, state = _tuesday(seats=(1, 2, 3))
    state = set_club(state, 1, players=(Held("pl_04", trained=True),))
    state, said = _auction(profile, state, "pl_04", 3, ("bid", 2, 3), ("bid", 3, 4), ("bid", 2, 6), ("pass", 3, None))
    assert _money(state) == [10 + 6 + 1, 10 - 6, 10]
    assert club(state, 2).held("pl_04") is not None and club(state, 1).players == ()
    sold = next(a for a in said if a["kind"] == "auction_sold")
    assert sold["text"] == "Seat 2 buys Owen Pryce from Seat 1 for 6 € with every token on him; Seat 1 gains 6 € and 1 € from the supply."


def test_an_equal_bid_is_no_higher_offer_and_a_club_without_money_can_only_pass() -> None:
    """l.29: "the highest offer": a bid equal to the highest is refused; l.28: "Players may bid however much [€]
    they like" is bounded by what the club has: a club with 0 € passes."""
    profile, state = _tuesday()
    state = set_club(state, 1, players=(Held("pl_04", trained=True),))
    state = set_club(state, 3, res=(0, 0, 0, 0))
    state, _ = _auction(profile, state, "pl_04", 2, ("bid", 2, 4))
    assert refused(profile, state, {"type": "bid", "seat": 3, "amount": 4}, E.NotAllowed) == \
        "Seat 3 cannot bid 4 €: the highest bid for Owen Pryce is 4 €; bid more."
    assert refused(profile, state, {"type": "bid", "seat": 3}, E.NotEnoughResources) == "Seat 3 cannot bid 5 €: the club has 0 €."
    # the page says the same before the press: its bid is marked as not possible
    asks = engine.view(profile, state)["modules"]["transfers"]["asks"][0]
    assert asks["options"][0]["why_not"] == "Seat 3 cannot bid 5 €: the club has 0 €."
    state, _ = _apply(profile, state, {"type": "bid_pass", "seat": 3}, {"type": "bid_pass", "seat": 4})
    assert _money(state) == [15, 6, 0, 10] and club(state, 2).held("pl_04") is not None


def test_a_bid_under_the_asking_price_still_counts() -> None:
    """l.27: the seller announces how much he is willing to sell for; l.28: "Players may bid however much [€] they
    like" (RULES.md: the ask is where a press starts, a bid is any amount over the highest)."""
    profile, state = _tuesday(seats=(1, 2))
    state = set_club(state, 1, players=(Held("pl_04", trained=True),))
    state, _ = _auction(profile, state, "pl_04", 7, ("bid", 2, 2))
    assert _money(state) == [13, 8] and club(state, 2).held("pl_04") is not None


def test_nobody_bidding_for_an_injured_footballer_sells_him_for_half_his_strength_and_half_his_vp() -> None:
    """l.29: "you Sell this Player normally, but you only gain [€] equal to their Strength"; 000 l.474: an Injured
    or Suspended Player sold brings half (rounded down) VP and €; l.30: then 1 € from the supply."""
    profile, state = _tuesday()
    state = set_club(state, 1, players=(Held("pl_04", trained=True, vp=3, injury=1),))
    state, said = _auction(profile, state, "pl_04", 6, ("pass", 2, None), ("pass", 3, None), ("pass", 4, None))
    # Strength 4 halved: 2 €, 3 VP tokens halved: 1, and the 1 € from the supply
    assert _money(state) == [13, 10, 10, 10] and club(state, 1).vp_tokens == 1
    unsold = next(a for a in said if a["kind"] == "auction_unsold")
    assert unsold["text"] == ("Nobody bids for Owen Pryce: Seat 1 sells him for his Strength, 2 € and 1 VP token(s) (half, "
                              "as he is injured or suspended), and gains 1 € from the supply.")
    assert "pl_04" in state.discarded and state.turn == 2


def test_nobody_bidding_for_an_untrained_footballer_sells_him_for_his_untrained_strength() -> None:
    """l.41: an Untrained Player may be put up for sale; l.29: nobody bidding, he brings his Strength: pl_04 shows
    his untrained side, Strength 3."""
    profile, state = _tuesday(seats=(1, 2))
    state = set_club(state, 1, players=(Held("pl_04"),))
    state, _ = _auction(profile, state, "pl_04", 1, ("pass", 2, None))
    assert _money(state) == [14, 10]


def test_a_youngster_nobody_bids_for_goes_under_the_youngster_deck() -> None:
    """l.40: "When Selling Youngsters, follow the same procedure"; 000 l.180: a discarded Youngster goes to the
    bottom of the Youngster deck, not to a discard pile.  yg_01 untrained: Strength 1."""
    profile, state = _tuesday(seats=(1, 2))
    state = set_club(state, 1, players=(Held("yg_01"),))
    state, _ = _auction(profile, state, "yg_01", 3, ("pass", 2, None))
    assert _money(state) == [12, 10]
    assert "yg_01" not in state.discarded and all(c.held("yg_01") is None for c in state.clubs)


def test_a_club_with_no_footballer_has_nothing_to_auction() -> None:
    """l.27: "Choose a card": a club without footballers is offered no auction, and one named is refused."""
    profile, state = _tuesday()
    state = set_club(state, 1, players=())
    asks = engine.view(profile, state)["modules"]["transfers"]["asks"]
    assert asks and not [o for o in asks[0]["options"] if o["group"] == "auction"]
    assert refused(profile, state, {"type": "auction", "seat": 1, "card": "vet_02"}, E.NotAllowed) == \
        E.CARD_NOT_OWNED.format(seat=1, name=profile.cards["vet_02"].name)


def test_the_bidder_is_asked_by_the_footballers_name() -> None:
    """What the table waits for names the footballer as printed, never a card id."""
    profile, state = _tuesday()
    state = set_club(state, 1, players=(Held("pl_04", trained=True),))
    state, _ = _auction(profile, state, "pl_04", 5)
    assert state.awaiting[0]["text"] == "Seat 2: bid for Owen Pryce (press: 5 €) or pass (hold)."


# --- l.45: hiring from another club ------------------------------------------------------------------------------


def test_an_offer_of_nothing_accepted_hands_the_footballer_over_free() -> None:
    """l.45: "an amount of [€] you both agree upon": 0 € is an amount both may agree upon."""
    profile, state = _tuesday()
    state = set_club(state, 2, players=(Held("pl_02", trained=True),))
    state, said = _apply(profile, state, {"type": "offer", "seat": 1, "card": "pl_02", "amount": 0})
    assert state.awaiting[0]["text"] == "Seat 2: Seat 1 offers 0 € for Jonas Brekke: accept (press) or decline (hold)."
    assert state.awaiting[0]["hint"] == "Hold: decline · for Jonas Brekke"
    state, said = _apply(profile, state, {"type": "accept_offer", "seat": 2})
    assert _money(state) == [10, 10, 10, 10]
    assert club(state, 1).held("pl_02") == Held("pl_02", trained=True) and club(state, 2).players == ()
    assert state.turn == 2


def test_declined_offers_count_again_from_the_next_day() -> None:
    """l.45: "If 3 of your offers have been declined, you must Hire a Player from the Transfer Area or pass": the
    three are those of one action (RULES.md: counted per club and day); on Wednesday Seat 1 may offer again."""
    profile, state = _tuesday(seats=(1, 2))
    state = set_club(state, 2, players=(Held("pl_02", trained=True),))
    for amount in (1, 2, 3):
        state, _ = _apply(profile, state, {"type": "offer", "seat": 1, "card": "pl_02", "amount": amount},
                          {"type": "decline_offer", "seat": 2})
    offer = {"type": "offer", "seat": 1, "card": "pl_02", "amount": 4}
    assert refused(profile, state, offer, E.NotAllowed) == \
        "Seat 1 has had 3 offers declined this Tuesday: it hires from the Transfer area or passes."
    state, _ = _apply(profile, state, {"type": "pass", "seat": 1}, {"type": "pass", "seat": 2})
    assert state.stage == "wednesday" and state.turn == 1
    state, _ = _apply(profile, state, offer, {"type": "accept_offer", "seat": 2})
    assert _money(state) == [6, 14] and club(state, 1).held("pl_02") is not None


def test_a_declined_offer_changes_nothing_but_the_count() -> None:
    """l.45: "If the owner declines, you may make another offer for the same or other Player"."""
    profile, state = _tuesday(seats=(1, 2))
    state = set_club(state, 2, players=(Held("pl_02", trained=True, vp=1),))
    before = state
    state, said = _apply(profile, state, {"type": "offer", "seat": 1, "card": "pl_02", "amount": 5},
                         {"type": "decline_offer", "seat": 2})
    assert said[-1]["text"] == "Seat 2 declines Seat 1's offer for Jonas Brekke (1 of 3 declined)."
    assert [c.players for c in state.clubs] == [c.players for c in before.clubs] and _money(state) == [10, 10]
    assert state.turn == 1 and not club(state, 1).acted


def test_a_club_may_bid_every_euro_it_has_but_not_one_more() -> None:
    """l.28: "Players may bid however much [€] they like", up to what the club has: Seat 2 has 7 €; 8 is refused,
    7 wins when Seat 3 passes (Seat 1 gains 7 + 1)."""
    profile, state = _tuesday(seats=(1, 2, 3))
    state = set_club(state, 1, players=(Held("pl_04", trained=True),))
    state = set_club(state, 2, res=(7, 0, 0, 0))
    state, _ = _auction(profile, state, "pl_04", 6)
    assert refused(profile, state, {"type": "bid", "seat": 2, "amount": 8}, E.NotEnoughResources) == \
        "Seat 2 cannot bid 8 €: the club has 7 €."
    state, _ = _apply(profile, state, {"type": "bid", "seat": 2, "amount": 7}, {"type": "bid_pass", "seat": 3})
    assert _money(state) == [18, 0, 10] and club(state, 2).held("pl_04") is not None
