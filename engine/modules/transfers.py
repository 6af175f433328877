"""Transferring Players (003 l.13–58): footballers sold to the supply at Strength + 2 or to another club by an open
auction, and hired from another club by an offer its owner accepts or declines.

- **Selling** (l.23–33): ``sell`` (a tap on the pad) sells to the supply for the footballer's Strength + 2 €
  instead of the board's price (halved when injured or suspended, as a sale always is).  ``auction`` opens an open
  auction: the seller names its asking price (l.27), then from the next club clockwise (l.28) each club bids
  (``bid``: more than the highest bid, at most what it has; without an amount the asking price, then one step over
  the highest) or passes for good (``bid_pass``).  Once every club but the highest bidder has passed, he pays the
  seller and takes the card with every token on it (l.29, l.37); when every club passes without a bid the footballer
  is sold to the supply for his Strength alone (l.29).  Either way the seller then gains 1 € from the supply (l.30).
- **Hiring** (l.45): ``offer`` (seat, card, amount) offers € for a footballer of another club; its owner answers
  ``accept_offer`` (the € change hands, the card moves with its tokens, the hire is the club's action) or
  ``decline_offer``.  After three offers declined the club hires from the Transfer area or passes (l.45).
- **Transfer cards** (l.32, l.49): with the Market module the top Transfer card's bonus goes to the club that lets
  the footballer go, whoever takes him, and the card goes to the bottom, as on every sale.

While an auction or an offer is open the module holds the game (``busy``): no turn and no day ends.  The numbers
printed in the leaflet are the defaults of ``transfers.toml`` (engine/DATA.md); the readings are written in
engine/RULES.md ("Transferring Players").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from engine import errors as E
from engine import host
from engine.loader import Fields
from engine.rules.actions import TURN_DAYS, _turn_check
from engine.rules.context import card_marker, field, flip_markers, seat_of, side_of, with_res
from engine.state import Club, Held, State, evolve
from engine.tx import Tx

NAME: Final = "transfers"
FILE: Final = "transfers.toml"
FOOTBALLERS: Final = ("player", "youngster", "veteran")

# -- what the table says ----------------------------------------------------------------------------------------

OPENED: Final = "Seat {seat} puts {name} up for auction, asking {ask} €: Seat {first} bids first."
BID: Final = "Seat {seat} bids {amount} € for {name}: Seat {next} to bid."
PASSED: Final = "Seat {seat} passes on {name}: Seat {next} to bid."
SOLD_TO: Final = ("Seat {buyer} buys {name} from Seat {seller} for {amount} € with every token on him; Seat {seller} "
                  "gains {amount} € and {bonus} € from the supply.")
SOLD_SHORT: Final = "Sold €{amount} Seat {buyer}"
NO_BID: Final = ("Nobody bids for {name}: Seat {seller} sells him for his Strength, {money} € and {vp} VP token(s){why}, "
                 "and gains {bonus} € from the supply.")
NO_BID_SHORT: Final = "No bid: {name}"
HALF: Final = " (half, as he is injured or suspended)"
SUPPLY_PRICE: Final = "Transferring Players: Seat {seat} sells {name} for his Strength {strength} + {plus}."

OFFER: Final = "Seat {buyer} offers Seat {owner} {amount} € for {name}."
OFFER_SHORT: Final = "Offer €{amount}: {name}"
ACCEPTED: Final = "Seat {owner} accepts: Seat {buyer} hires {name} for {amount} € with every token on him."
ACCEPTED_SHORT: Final = "Hired {name} €{amount}"
DECLINED: Final = "Seat {owner} declines Seat {buyer}'s offer for {name} ({count} of {most} declined)."
DECLINED_LAST: Final = ("Seat {owner} declines Seat {buyer}'s offer for {name}: that is {most} declined, so Seat {buyer} "
                        "hires from the Transfer area or passes.")
DECLINED_SHORT: Final = "Declined ({count}/{most})"

WAIT_BID: Final = "Seat {seat}: bid for {name} (press: {next} €) or pass (hold)."
# An auction on every seat's screen, a line each at the same rows whatever the step: the highest bid (large), the
# card, and whose turn it is; the bidder's own screen has what a press and a hold do instead of the last line, so a
# new bid redraws only the few words it changes.
BID_PROMPT: Final = "Press €{next} · Hold pass"
BID_HIGH: Final = "€{high} Seat {seat}"
BID_ASK: Final = "Ask €{ask}"
WAIT_ANSWER: Final = "Seat {owner}: Seat {buyer} offers {amount} € for {name}: accept (press) or decline (hold)."
ANSWER_PROMPT: Final = "Press: accept €{amount}"
ANSWER_HINT: Final = "Hold: decline · for {name}"

NOT_A_FOOTBALLER: Final = "{name} is not a footballer: only Player, Youngster and Veteran cards change clubs."
AUCTION_OPEN: Final = "The auction for {name} is still open: Seat {seat} bids or passes first."
OFFER_OPEN: Final = "Seat {owner} has not answered the offer for {name} yet."
NO_AUCTION: Final = "No auction is open: Seat {seat} cannot {what}."
NOT_YOUR_BID: Final = "Seat {seat} cannot {what}: it is Seat {turn}'s turn to bid for {name}."
BID_LOW: Final = "Seat {seat} cannot bid {amount} €: the highest bid for {name} is {high} €; bid more."
BID_ZERO: Final = "Seat {seat} cannot bid {amount} €: a bid is at least 1 €."
BID_SHORT_OF: Final = "Seat {seat} cannot bid {amount} €: the club has {budget} €."
ALONE: Final = "Seat {seat} cannot auction {name}: no other club is at the table to bid."
OWN_CARD: Final = "Seat {seat} cannot make an offer for {name}: the club has him already."
NOBODY_HAS: Final = "Seat {seat} cannot make an offer for {name}: no club has him; hire him from the Transfer area."
OFFER_SHORT_OF: Final = "Seat {seat} cannot offer {amount} €: the club has {budget} €."
OFFER_NEGATIVE: Final = "an amount of € from 0"
TOO_MANY_DECLINED: Final = ("Seat {seat} has had {most} offers declined this {day}: it hires from the Transfer area "
                            "or passes.")
NO_OFFER: Final = "No offer awaits Seat {seat}'s answer."
#: The actions left to a club whose offers were declined three times this day (l.45: "you must Hire a Player from
#: the Transfer Area or pass"; a pass is always allowed); from revision 3 of the readings (engine/RULES.md).
AFTER_DECLINES: Final = ("hire_player", "hire_youngster", "offer")
AFTER_DECLINES_REVISION: Final = 3
ASK_DOC: Final = "the € the seller asks (default: Strength + 2)"
AMOUNT_DOC: Final = "the € bid (default: the asking price, then one step over the highest bid)"

# -- the data: the leaflet's numbers ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Prices:
    """``transfers.toml``: the numbers of the Transferring Players rules (the leaflet's by default)."""

    supply_plus: int = 2  # l.25: sold to the supply for Strength + 2
    no_bid_plus: int = 0  # l.29: nobody bids, sold for his Strength
    seller_bonus: int = 1  # l.30: "Finally, gain 1 € from the supply"
    declined_most: int = 3  # l.45: three offers declined
    bid_step: int = 1  # what one press of a bidder's button adds to the highest bid


def _read(fields: Fields, cards: Mapping[str, Any]) -> Prices:
    """Read and check ``transfers.toml`` (every number has the leaflet's default)."""
    base = Prices()
    prices = Prices(
        supply_plus=fields.int("supply_plus", 0, 10, base.supply_plus),
        no_bid_plus=fields.int("no_bid_plus", 0, 10, base.no_bid_plus),
        seller_bonus=fields.int("seller_bonus", 0, 10, base.seller_bonus),
        declined_most=fields.int("declined_most", 1, 10, base.declined_most),
        bid_step=fields.int("bid_step", 1, 10, base.bid_step),
    )
    fields.done()
    return prices


def prices_of(profile: Any) -> Prices:
    """The deck's numbers (the leaflet's when it has no ``transfers.toml``)."""
    found = profile.module_data.get(NAME, {}).get(FILE)
    return found if found is not None else Prices()


# -- the state --------------------------------------------------------------------------------------------------


class Auction(NamedTuple):
    """An open auction: the seller, the footballer, the asking price, the highest bid and its club (0: none yet),
    whose turn it is to bid and the clubs that passed."""

    seller: int
    card: str
    ask: int
    high: int = 0
    high_seat: int = 0
    turn: int = 0
    passed: tuple[int, ...] = ()
    step: int = 1  # what a press of a bidder's button adds to the highest bid (``transfers.toml``)
    name: str = ""  # the footballer's printed name, for what the table waits for


class Offer(NamedTuple):
    """An offer waiting for its answer: who offers, to whom, for which footballer, how much."""

    buyer: int
    owner: int
    card: str
    amount: int
    name: str = ""  # the footballer's printed name, for what the table waits for


class Transfers(NamedTuple):
    """The module's slice: the open auction or offer, the offers declined per club and day, the last outcome."""

    auction: Auction | None = None
    offer: Offer | None = None
    declined: tuple[tuple[int, str, int], ...] = ()  # (seat, day key, offers declined)
    last: tuple[tuple[str, Any], ...] = ()  # what the last auction or offer came to, for the page


def _decode(data: Mapping[str, Any]) -> Transfers:
    a, o = data.get("auction"), data.get("offer")
    auction = None if a is None else Auction(a["seller"], a["card"], a["ask"], a["high"], a["high_seat"], a["turn"],
                                             tuple(a["passed"]), a.get("step", 1), a.get("name", ""))
    offer = None if o is None else Offer(o["buyer"], o["owner"], o["card"], o["amount"], o.get("name", ""))
    return Transfers(auction, offer, tuple((s, d, n) for s, d, n in data.get("declined", ())),
                     tuple((k, v) for k, v in data.get("last", ())))


def _mine(state: State) -> Transfers:
    return state.slice(NAME)  # type: ignore[no-any-return]


def _put(tx: Tx, **changes: Any) -> Transfers:
    mine = evolve(_mine(tx.state), **changes)
    tx.put_slice(NAME, mine)
    return mine


def _day(state: State) -> str:
    return f"{state.week}:{state.stage}"


def declined(state: State, seat: int) -> int:
    """Offers of the club declined this day (the Epic League's Transfer Window counts as one day)."""
    day = _day(state)
    return next((n for s, d, n in _mine(state).declined if s == seat and d == day), 0)


# -- the footballer's worth -------------------------------------------------------------------------------------


def strength(tx: Tx, club: Club, held: Held) -> int:
    """The footballer's Strength now: the side he shows (as the game's modules change it) with his Strength tokens."""
    return max(0, side_of(tx, held, club).strength + held.strength_perm + held.strength_temp)


def _sale_price(tx: Tx, club: Club, held: Held, price: tuple[int, int]) -> tuple[int, int]:
    """l.25: a footballer sold to the supply brings his Strength + 2 instead of the board's price (halved the same
    way when he is injured or suspended); the other modules' changes to the price are kept."""
    if tx.event.get("type") != "sell":
        return price  # an auction's sale: its price is worked out below
    board_price = tx.board(club.seat).sell_price
    plus = prices_of(tx.profile).supply_plus
    worth = strength(tx, club, held) + plus
    if held.unavailable:
        board_price, worth = board_price // 2, worth // 2
    tx.say("transfers_price", club.seat, SUPPLY_PRICE.format(seat=club.seat, name=tx.name(held.id),
                                                              strength=strength(tx, club, held), plus=plus),
           card=held.id, strength=strength(tx, club, held), plus=plus)
    return max(0, price[0] - board_price + worth), price[1]


# -- moving a footballer from one club to another ----------------------------------------------------------------


def _footballer(tx: Tx, card_id: Any) -> Any:
    card = tx.card(card_id)
    if card.kind not in FOOTBALLERS:
        raise E.NotAllowed(NOT_A_FOOTBALLER.format(name=card.name))
    return card


def _transfer(tx: Tx, card_id: str, seller: int, buyer: int, amount: int, bonus: int) -> tuple[int, int]:
    """The footballer moves from seller to buyer with every token on him (l.29, l.37); the buyer pays ``amount``
    to the seller, who also gains ``bonus`` € from the supply and the top Transfer card's bonus (Market).
    Returns the € and VP tokens the Transfer card gave the seller."""
    giving = tx.club(seller)
    held = giving.held(card_id)
    assert held is not None
    extra, vp = tx.rules.sale_price(tx, giving, held, (0, 0))  # type: ignore[attr-defined]
    giving = evolve(giving, players=tuple(h for h in giving.players if h.id != card_id), vp_tokens=giving.vp_tokens + vp)
    tx.put(with_res(giving, "budget", amount + bonus + extra))
    taking = with_res(tx.club(buyer), "budget", -amount)
    taking = evolve(taking, players=taking.players + (held,))
    tx.put(flip_markers(taking, card_marker(tx.profile, card_id, held.trained)))
    return extra, vp


# -- selling by auction -----------------------------------------------------------------------------------------


def _bidders(state: State, seller: int) -> list[int]:
    """The clubs that may bid, from the next club clockwise after the seller (l.28)."""
    seats = sorted(c.seat for c in state.clubs)
    i = seats.index(seller)
    return [s for s in seats[i + 1:] + seats[:i]]


def _next_bidder(state: State, auction: Auction, after: int) -> int:
    """The next club clockwise after ``after`` that has not passed (0: none)."""
    order = _bidders(state, auction.seller)
    i = order.index(after) if after in order else -1
    for seat in order[i + 1:] + order[:i + 1]:
        if seat not in auction.passed:
            return seat
    return 0


def _open_auction(tx: Tx) -> None:
    """``auction``: the club whose turn it is puts one of its footballers up for auction (its action, l.27)."""
    seat = seat_of(tx.event)
    club = _turn_check(tx, seat, "sell")
    _nothing_open(tx)
    card = _footballer(tx, field(tx.event, "card", str, "the id of the footballer auctioned"))
    held = club.held(card.id)
    if held is None:
        raise E.NotAllowed(E.CARD_NOT_OWNED.format(seat=seat, name=card.name))
    order = _bidders(tx.state, seat)
    if not order:
        raise E.NotAllowed(ALONE.format(seat=seat, name=card.name))
    prices = prices_of(tx.profile)
    ask = field(tx.event, "ask", int, ASK_DOC, default=strength(tx, club, held) + prices.supply_plus)
    if ask < 0:
        raise E.BadEvent(E.BAD_FIELD.format(type="auction", field="ask", why=ASK_DOC))
    tx.put(evolve(club, acted=True))
    _put(tx, auction=Auction(seat, card.id, ask, turn=order[0], step=prices.bid_step, name=card.name))
    tx.say("auction", None, OPENED.format(seat=seat, name=card.name, ask=ask, first=order[0]), seller=seat,
           card=card.id, ask=ask, turn=order[0], short=status(_mine(tx.state).auction),
           detail=card.id, screens="all")


def _nothing_open(tx: Tx) -> None:
    mine = _mine(tx.state)
    if mine.auction is not None:
        raise E.NotAllowed(AUCTION_OPEN.format(name=tx.name(mine.auction.card), seat=mine.auction.turn))
    if mine.offer is not None:
        raise E.NotAllowed(OFFER_OPEN.format(name=tx.name(mine.offer.card), owner=mine.offer.owner))


def _bidder(tx: Tx, what: str) -> tuple[int, Auction]:
    seat = seat_of(tx.event)
    tx.club(seat)
    auction = _mine(tx.state).auction
    if auction is None:
        raise E.NotAllowed(NO_AUCTION.format(seat=seat, what=what))
    if seat != auction.turn:
        raise E.NotYourTurn(NOT_YOUR_BID.format(seat=seat, what=what, turn=auction.turn, name=tx.name(auction.card)))
    return seat, auction


def status(auction: Auction) -> str:
    """Where the auction stands, the large line of every seat's screen: the highest bid and its club, or the ask."""
    if auction.high:
        return BID_HIGH.format(high=auction.high, seat=auction.high_seat)
    return BID_ASK.format(ask=auction.ask)


def next_bid(auction: Auction) -> int:
    """What a press of the bidder's button bids: the asking price first, then one step over the highest bid."""
    return max(auction.ask, 1) if not auction.high else auction.high + auction.step


def _on_bid(tx: Tx) -> None:
    """``bid``: the club whose turn it is bids (any amount over the highest bid, l.28)."""
    seat, auction = _bidder(tx, "bid")
    amount = field(tx.event, "amount", int, AMOUNT_DOC, default=next_bid(auction))
    name = tx.name(auction.card)
    if amount < 1:
        raise E.NotAllowed(BID_ZERO.format(seat=seat, amount=amount))
    if amount <= auction.high:
        raise E.NotAllowed(BID_LOW.format(seat=seat, amount=amount, high=auction.high, name=name))
    budget = tx.club(seat).res[0]
    if amount > budget:
        raise E.NotEnoughResources(BID_SHORT_OF.format(seat=seat, amount=amount, budget=budget))
    auction = evolve(auction, high=amount, high_seat=seat)
    following = _next_bidder(tx.state, auction, seat)
    if following in (0, seat):
        _put(tx, auction=auction)
        _sold(tx, auction)
        return
    _put(tx, auction=evolve(auction, turn=following))
    tx.say("bid", None, BID.format(seat=seat, amount=amount, name=name, next=following), card=auction.card,
           amount=amount, bidder=seat, turn=following, short=status(auction),
           detail=auction.card, screens="all")


def _on_bid_pass(tx: Tx) -> None:
    """``bid_pass``: the club whose turn it is passes; it bids no more in this auction (l.29)."""
    seat, auction = _bidder(tx, "pass")
    auction = evolve(auction, passed=auction.passed + (seat,))
    name = tx.name(auction.card)
    following = _next_bidder(tx.state, auction, seat)
    if following == 0:
        _put(tx, auction=auction)
        _no_bid(tx, auction)
        return
    if following == auction.high_seat:
        _put(tx, auction=auction)
        _sold(tx, auction)
        return
    _put(tx, auction=evolve(auction, turn=following))
    tx.say("bid_pass", None, PASSED.format(seat=seat, name=name, next=following), card=auction.card, bidder=seat,
           turn=following, high=auction.high, short=status(auction), detail=auction.card, screens="all")


def _sold(tx: Tx, auction: Auction) -> None:
    """Every other club passed: the highest bidder pays and takes the card with its tokens; the seller gains 1 €."""
    bonus = prices_of(tx.profile).seller_bonus
    extra, vp = _transfer(tx, auction.card, auction.seller, auction.high_seat, auction.high, bonus)
    name = tx.name(auction.card)
    _put(tx, auction=None, last=(("kind", "auction"), ("card", auction.card), ("seller", auction.seller),
                                 ("buyer", auction.high_seat), ("amount", auction.high)))
    tx.say("auction_sold", None, SOLD_TO.format(buyer=auction.high_seat, name=name, seller=auction.seller,
                                                amount=auction.high, bonus=bonus),
           card=auction.card, seller=auction.seller, buyer=auction.high_seat, amount=auction.high, bonus=bonus,
           transfer_bonus=extra, transfer_vp=vp, short=SOLD_SHORT.format(amount=auction.high, buyer=auction.high_seat),
           detail=auction.card, screens="all")
    tx.rules.sold(tx, auction.seller, auction.card)  # type: ignore[attr-defined]


def _no_bid(tx: Tx, auction: Auction) -> None:
    """l.29: every club passed without a bid: sold to the supply for his Strength (halved when unavailable), his VP
    tokens to the seller as in any sale, then the seller's 1 € from the supply."""
    prices = prices_of(tx.profile)
    seller = tx.club(auction.seller)
    held = seller.held(auction.card)
    assert held is not None
    money, vp = strength(tx, seller, held) + prices.no_bid_plus, held.vp
    if held.unavailable:
        money, vp = money // 2, vp // 2
    money, vp = tx.rules.sale_price(tx, seller, held, (money, vp))  # type: ignore[attr-defined]
    seller = evolve(seller, players=tuple(h for h in seller.players if h.id != held.id), vp_tokens=seller.vp_tokens + vp)
    tx.put(with_res(seller, "budget", money + prices.seller_bonus))
    if tx.profile.cards[held.id].kind != "youngster":  # as any sale: a Youngster goes under the Youngster deck
        tx.state = evolve(tx.state, discarded=tx.state.discarded + (held.id,))
    name = tx.name(held.id)
    _put(tx, auction=None, last=(("kind", "auction"), ("card", held.id), ("seller", auction.seller), ("buyer", 0),
                                 ("amount", money)))
    tx.say("auction_unsold", None, NO_BID.format(name=name, seller=auction.seller, money=money, vp=vp,
                                                 why=HALF if held.unavailable else "", bonus=prices.seller_bonus),
           card=held.id, seller=auction.seller, budget=money, vp=vp, bonus=prices.seller_bonus,
           short=NO_BID_SHORT.format(name=name), detail=f"Seat {auction.seller} +€{money + prices.seller_bonus}",
           screens="all")
    tx.rules.sold(tx, auction.seller, held.id)  # type: ignore[attr-defined]


# -- hiring by offers ---------------------------------------------------------------------------------------------


def _on_offer(tx: Tx) -> None:
    """``offer``: the club whose turn it is offers € for a footballer of another club (l.45)."""
    seat = seat_of(tx.event)
    club = _turn_check(tx, seat, "hire")
    _nothing_open(tx)
    card = _footballer(tx, field(tx.event, "card", str, "the id of the footballer wanted"))
    if club.held(card.id) is not None:
        raise E.NotAllowed(OWN_CARD.format(seat=seat, name=card.name))
    owner = next((c for c in tx.state.clubs if c.held(card.id) is not None), None)
    if owner is None:
        raise E.NotAllowed(NOBODY_HAS.format(seat=seat, name=card.name))
    most = prices_of(tx.profile).declined_most
    if declined(tx.state, seat) >= most:
        raise E.NotAllowed(TOO_MANY_DECLINED.format(seat=seat, most=most, day=_day_words(tx)))
    amount = field(tx.event, "amount", int, OFFER_NEGATIVE)
    if amount < 0:
        raise E.BadEvent(E.BAD_FIELD.format(type="offer", field="amount", why=OFFER_NEGATIVE))
    if amount > club.res[0]:
        raise E.NotEnoughResources(OFFER_SHORT_OF.format(seat=seat, amount=amount, budget=club.res[0]))
    # the offer is the club's action while it waits: no hire from the Transfer area meanwhile (a decline gives it back)
    tx.put(evolve(club, acted=True))
    _put(tx, offer=Offer(seat, owner.seat, card.id, amount, card.name))
    tx.say("offer", None, OFFER.format(buyer=seat, owner=owner.seat, amount=amount, name=card.name), card=card.id,
           buyer=seat, owner=owner.seat, amount=amount, short=OFFER_SHORT.format(amount=amount, name=card.name),
           detail=f"Seat {seat} → Seat {owner.seat}")


def _turn(tx: Tx, seat: int, what: str) -> None:
    """A club whose offers were declined three times this day hires from the Transfer area or passes (l.45)."""
    if tx.state.game.revision < AFTER_DECLINES_REVISION or tx.event.get("type") in AFTER_DECLINES:
        return  # (an offer is refused by its own check, with the same words)
    most = prices_of(tx.profile).declined_most
    if declined(tx.state, seat) >= most:
        raise E.NotAllowed(TOO_MANY_DECLINED.format(seat=seat, most=most, day=_day_words(tx)))


def _day_words(tx: Tx) -> str:
    return tx.stage_name() if tx.state.stage in TURN_DAYS else f"{tx.stage_name()}'s Transfer Window"


def _answering(tx: Tx) -> tuple[int, Offer]:
    seat = seat_of(tx.event)
    tx.club(seat)
    offer = _mine(tx.state).offer
    if offer is None or offer.owner != seat:
        raise E.NotAllowed(NO_OFFER.format(seat=seat))
    return seat, offer


def _on_accept(tx: Tx) -> None:
    """``accept_offer``: the owner agrees; the € change hands, the card moves with its tokens (the buyer's hire)."""
    seat, offer = _answering(tx)
    budget = tx.club(offer.buyer).res[0]
    if offer.amount > budget:  # the buyer spent it since (it cannot, while the offer holds the game; a guard)
        raise E.NotEnoughResources(OFFER_SHORT_OF.format(seat=offer.buyer, amount=offer.amount, budget=budget))
    extra, vp = _transfer(tx, offer.card, seat, offer.buyer, offer.amount, 0)
    name = tx.name(offer.card)
    _put(tx, offer=None, last=(("kind", "offer"), ("card", offer.card), ("seller", seat), ("buyer", offer.buyer),
                               ("amount", offer.amount)))
    tx.say("offer_accepted", None, ACCEPTED.format(owner=seat, buyer=offer.buyer, name=name, amount=offer.amount),
           card=offer.card, buyer=offer.buyer, owner=seat, amount=offer.amount, transfer_bonus=extra, transfer_vp=vp,
           short=ACCEPTED_SHORT.format(name=name, amount=offer.amount), detail=f"Seat {seat} → Seat {offer.buyer}")
    tx.rules.sold(tx, seat, offer.card)  # type: ignore[attr-defined]


def _on_decline(tx: Tx) -> None:
    """``decline_offer``: the owner keeps his footballer; the offer counts towards the buyer's three (l.45)."""
    seat, offer = _answering(tx)
    tx.put(evolve(tx.club(offer.buyer), acted=False))
    count = declined(tx.state, offer.buyer) + 1
    day = _day(tx.state)
    mine = _mine(tx.state)
    kept = tuple(d for d in mine.declined if d[1] == day and d[0] != offer.buyer)
    most = prices_of(tx.profile).declined_most
    name = tx.name(offer.card)
    _put(tx, offer=None, declined=kept + ((offer.buyer, day, count),),
         last=(("kind", "declined"), ("card", offer.card), ("seller", seat), ("buyer", offer.buyer),
               ("amount", offer.amount)))
    text = (DECLINED_LAST if count >= most else DECLINED).format(owner=seat, buyer=offer.buyer, name=name, count=count,
                                                                 most=most)
    tx.say("offer_declined", None, text, card=offer.card, buyer=offer.buyer, owner=seat, amount=offer.amount,
           count=count, most=most, short=DECLINED_SHORT.format(count=count, most=most), detail=name)


# -- what the table waits for, and the page -----------------------------------------------------------------------


def _busy(state: State) -> bool:
    mine = _mine(state)
    return mine.auction is not None or mine.offer is not None


def _names(profile: Any, card: str) -> str:
    found = profile.cards.get(card)
    return found.name if found is not None else card


def _awaiting(state: State) -> list[dict[str, Any]]:
    mine = _mine(state)
    auction, offer = mine.auction, mine.offer
    if auction is not None:
        nxt = next_bid(auction)
        return [{"seat": auction.turn, "need": "bid", "card": auction.card, "seller": auction.seller, "ask": auction.ask,
                 "high": auction.high, "high_seat": auction.high_seat or None, "next": nxt,
                 "text": WAIT_BID.format(seat=auction.turn, name=auction.name or auction.card, next=nxt),
                 "short": status(auction), "about": auction.card, "hint": BID_PROMPT.format(next=nxt),
                 "watch": status(auction),
                 "press": {"type": "bid", "seat": auction.turn}, "hold": {"type": "bid_pass", "seat": auction.turn}}]
    if offer is not None:
        return [{"seat": offer.owner, "need": "offer_answer", "card": offer.card, "buyer": offer.buyer,
                 "amount": offer.amount,
                 "text": WAIT_ANSWER.format(owner=offer.owner, buyer=offer.buyer, amount=offer.amount,
                                           name=offer.name or offer.card),
                 "short": ANSWER_PROMPT.format(amount=offer.amount), "hint": ANSWER_HINT.format(name=offer.name or offer.card),
                 "press": {"type": "accept_offer", "seat": offer.owner},
                 "hold": {"type": "decline_offer", "seat": offer.owner}}]
    return []


def _club_name(state: State, seat: int) -> str:
    club = state.club(seat)
    return club.name if club is not None else f"Seat {seat}"


def _turn_asks(profile: Any, state: State) -> list[dict[str, Any]]:
    """For the club whose turn it is (before its action): an auction of one of its footballers, or an offer for a
    footballer of another club."""
    seat = state.turn
    club = state.club(seat) if seat else None
    if club is None or club.acted or any(p.seat == seat for p in state.pending):
        return []
    rules = host.rules_for(state.game)
    phase = rules.phases.get(state.stage)
    if state.stage not in TURN_DAYS and (phase is None or "sell" not in phase.turn_actions):
        return []
    tx = Tx(profile, rules, state, {}, quiet=True)
    prices = prices_of(profile)
    who = f"Seat {seat} ({club.name})"
    options: list[dict[str, Any]] = []
    if len(state.clubs) > 1:
        for held in club.players:
            ask = strength(tx, club, held) + prices.supply_plus
            options.append({"label": f"Auction {_names(profile, held.id)} (asking {ask} €)", "group": "auction",
                            "event": {"type": "auction", "seat": seat, "card": held.id, "ask": ask}})
    others = [(c, h) for c in state.clubs if c.seat != seat for h in c.players]
    if others:
        most = prices.declined_most
        why = TOO_MANY_DECLINED.format(seat=seat, most=most, day="day") if declined(state, seat) >= most else None
        offer: dict[str, Any] = {
            "label": "Make the offer", "group": "offer", "event": {"type": "offer", "seat": seat},
            "fields": [{"name": "card", "label": "For which footballer",
                        "choices": [{"value": h.id, "label": f"{_names(profile, h.id)} ({c.name})"} for c, h in others]},
                       {"name": "amount", "label": "€ offered", "number": True,
                        "choices": [{"value": str(n), "label": f"{n} €"} for n in range(club.res[0] + 1)]}]}
        if why:
            offer["why_not"] = why
        options.append(offer)
    if not options:
        return []
    return [{"seat": seat, "need": "transfers", "title": f"{who}: sell to another club, or hire from one",
             "hint": "An auction goes clockwise from the next club: each bids more or passes for good; the last "
                     "bidder pays and takes the footballer with his tokens (nobody bids: sold for his Strength). An "
                     "offer goes to the footballer's club, which accepts or declines.",
             "options": options}]


def _open_asks(profile: Any, state: State) -> list[dict[str, Any]]:
    """The bidder's turn in an auction, or the owner's answer to an offer."""
    mine = _mine(state)
    if mine.auction is not None:
        a = mine.auction
        seat = a.turn
        club = state.club(seat)
        budget = club.res[0] if club is not None else 0
        nxt = next_bid(a)
        name = _names(profile, a.card)
        high = f"the highest bid is {a.high} € ({_club_name(state, a.high_seat)})" if a.high else \
            f"no bid yet; the seller asks {a.ask} €"
        options: list[dict[str, Any]] = [
            {"label": f"Bid {nxt} €", "event": {"type": "bid", "seat": seat, "amount": nxt}, "group": "bid"},
            {"label": "Bid another amount", "event": {"type": "bid", "seat": seat}, "group": "bid",
             "fields": [{"name": "amount", "label": "€ bid", "number": True,
                         "choices": [{"value": str(n), "label": f"{n} €"} for n in range(a.high + 1, budget + 1)]}]},
            {"label": "Pass (no more bids)", "event": {"type": "bid_pass", "seat": seat}, "group": "pass"}]
        if nxt > budget:
            options[0]["why_not"] = BID_SHORT_OF.format(seat=seat, amount=nxt, budget=budget)
        return [{"seat": seat, "need": "bid", "title": f"Seat {seat} ({_club_name(state, seat)}): bid for {name}",
                 "hint": f"Seat {a.seller} ({_club_name(state, a.seller)}) auctions {name}: {high}.",
                 "options": options}]
    if mine.offer is not None:
        o = mine.offer
        name = _names(profile, o.card)
        return [{"seat": o.owner, "need": "offer_answer",
                 "title": f"Seat {o.owner} ({_club_name(state, o.owner)}): {_club_name(state, o.buyer)} offers "
                          f"{o.amount} € for {name}",
                 "hint": "Accept: the € are yours and he leaves with every token on him. Decline: he stays.",
                 "options": [{"label": "Accept the offer", "event": {"type": "accept_offer", "seat": o.owner}},
                             {"label": "Decline", "event": {"type": "decline_offer", "seat": o.owner},
                              "group": "pass"}]}]
    return []


def _view(profile: Any, state: State, viewer: Any) -> list[tuple[str, Any]]:
    mine = _mine(state)
    auction = None
    if mine.auction is not None:
        a = mine.auction
        auction = {"seller": a.seller, "card": a.card, "name": _names(profile, a.card), "ask": a.ask,
                   "high": a.high or None, "high_seat": a.high_seat or None, "turn": a.turn, "passed": list(a.passed),
                   "next": next_bid(a)}
    offer = None
    if mine.offer is not None:
        o = mine.offer
        offer = {"buyer": o.buyer, "owner": o.owner, "card": o.card, "name": _names(profile, o.card), "amount": o.amount}
    day = _day(state)
    counts = {str(s): n for s, d, n in mine.declined if d == day}
    last = dict(mine.last)
    if last.get("card"):
        last["name"] = _names(profile, str(last["card"]))
    items = []
    if auction is not None:
        high = f"{auction['high']} € by Seat {auction['high_seat']}" if auction["high"] else "no bid yet"
        items.append(f"Auction: {auction['name']} (Seat {auction['seller']}, asking {auction['ask']} €): {high}; "
                     f"Seat {auction['turn']} to bid")
    if offer is not None:
        items.append(f"Offer: Seat {offer['buyer']} offers {offer['amount']} € to Seat {offer['owner']} for {offer['name']}")
    asks = _open_asks(profile, state) or _turn_asks(profile, state)
    return [(NAME, {"auction": auction, "offer": offer, "declined": counts, "declined_most": prices_of(profile).declined_most,
                    "last": last or None, "asks": asks,
                    "panel": {"title": "Transferring Players: auctions and offers between clubs",
                              "items": items or ["No auction or offer is open."]}})]


def _card_uses(state: State, seat: int, card: str, kind: str, owned: bool) -> list[dict[str, Any]]:
    """A footballer of the club may also be sold to another club, by an auction (003 l.23-27)."""
    return [{"type": "auction", "seat": seat, "card": card}] if owned and kind in FOOTBALLERS else []


def _candidates(profile: Any, state: State, need: Mapping[str, Any]) -> list[dict[str, Any]]:
    seat = need.get("seat")
    if need.get("need") == "bid":
        return [{"type": "bid", "seat": seat}, {"type": "bid_pass", "seat": seat}]
    if need.get("need") == "offer_answer":
        return [{"type": "accept_offer", "seat": seat}, {"type": "decline_offer", "seat": seat}]
    return []


TRANSFERS = host.register(host.Module(
    name=NAME,
    title="Transferring Players",
    doc="Footballers sold to the supply at Strength + 2 or to another club by an open auction, and hired from another "
        "club by an offer its owner accepts or declines (003 l.13–58).",
    events={
        "auction": host.EventSpec("seat, card, ask (€, default Strength + 2): the club whose turn it is auctions one of "
                                  "its footballers (its action)", _open_auction),
        "bid": host.EventSpec("seat, amount (default: the asking price, then one step over the highest bid): the club "
                              "whose turn it is to bid raises", _on_bid, seat_page=True),
        "bid_pass": host.EventSpec("seat: the club whose turn it is to bid passes, and bids no more in this auction",
                                   _on_bid_pass, seat_page=True),
        "offer": host.EventSpec("seat, card, amount: the club whose turn it is offers € for another club's footballer",
                                _on_offer, seat_page=True),
        "accept_offer": host.EventSpec("seat: the footballer's club accepts the offer made for him", _on_accept,
                                       seat_page=True),
        "decline_offer": host.EventSpec("seat: the footballer's club declines the offer made for him", _on_decline,
                                        seat_page=True),
    },
    hooks={"sale_price": _sale_price, "busy": _busy, "awaiting": _awaiting, "view": _view, "candidates": _candidates,
           "card_uses": _card_uses, "turn_check": _turn},
    data=(host.DataFile(FILE, _read, required=False,
                        doc="the leaflet's numbers: Strength + 2 to the supply, the seller's 1 €, three offers "
                            "declined, the € a press bids over the highest"),),
    state=host.Slice(initial=lambda game: Transfers(), decode=_decode),
))
