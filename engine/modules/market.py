"""Market transfer cards (003 l.229–237): a deck of Transfer cards changes the price of the footballers a club sells.

The cards are data (``market.toml`` in the deck folder): each has the number printed in its corner and its bonuses,
each for a type of footballer (a section, a kind of card, or both) in € and VP tokens.  At setup the deck is laid
in ascending order and a random number of cards goes to the bottom (003 l.233): the table says which card ended on
top (``market_top``); the engine never draws it.  When a club sells a footballer it gains one bonus of the top card
that fits him, then the top card goes to the bottom (l.235).  Goalkeepers bring none, and a footballer of several
sections may take any bonus that fits him (l.237): the sale names the one it takes (``transfer_bonus``), or gets the
one worth most at the final scoring.  The readings are written in engine/RULES.md ("Market transfer cards").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from engine import errors as E
from engine import host
from engine.cards import FOOTBALLER_KINDS, SECTIONS, PlayerCard
from engine.loader import Fields
from engine.rules.context import field, side_of
from engine.state import Held, State, evolve
from engine.tx import Tx

NAME: Final = "market"
FILE: Final = "market.toml"
PREFIX: Final = "tr_"

# -- what the table says ----------------------------------------------------------------------------------------

NEED_TOP: Final = "Say which Transfer card lies on top of the Market deck (on the Play page)."
TOP_SET: Final = "The Market deck lies in ascending order from Transfer card {number}, {name}, on top."
UNKNOWN: Final = 'There is no Transfer card "{card}" in this deck. Transfer cards: {known}.'
SETUP_ONLY: Final = "The Market deck is laid at the setup: its top card is told before week 1 begins."
NO_BONUS_HERE: Final = "{name} takes no bonus {number} of {card}: {why}"
GOALKEEPER: Final = "{name} is a Goalkeeper, and selling a Goalkeeper brings no Transfer card bonus."
BONUS_WORDS: Final = "the bonuses of {card} that fit him: {fits}"
NONE_FIT: Final = "none of its bonuses fits him"
SOLD_BONUS: Final = "Market: {card} gives Seat {seat} {words} for {name}; {next} comes on top."
SOLD_NONE: Final = "Market: {card} gives no bonus for {name} ({why}); {next} comes on top."
WHY_KEEPER: Final = "a Goalkeeper"
WHY_NO_FIT: Final = "no bonus for his type"
WHY_UNPRINTED: Final = "sold as one of the {section}, for whom the card prints no bonus"
BONUS_DOC: Final = ("the number (1, 2, ...) of the top Transfer card's bonus a sold footballer takes; 0: none, for a "
                    "footballer of a section the card prints no bonus for")
#: From this revision a footballer of a section the top card prints no bonus for may sell at the usual price instead
#: of taking a bonus that lowers it (l.237 "you may gain any corresponding bonus"; engine/RULES.md, "Revisions").
UNPRINTED_REVISION: Final = 3

# -- the data ---------------------------------------------------------------------------------------------------

SECTION_WORDS: Final = {"def": "Defenders", "mid": "Midfielders", "fwd": "Forwards"}
KIND_WORDS: Final = {"player": "Players", "youngster": "Youngsters", "veteran": "Veterans"}


@dataclass(frozen=True, slots=True)
class Bonus:
    """One price change printed on a Transfer card: for which footballers (a section, a kind, or both) and what."""

    section: str | None
    kind: str | None
    budget: int
    vp: int

    def fits(self, sections: tuple[str, ...], kind: str) -> bool:
        """Whether a footballer of these sections and this kind of card gets this bonus."""
        return (self.section is None or self.section in sections) and (self.kind is None or self.kind == kind)

    def who(self) -> str:
        """Whom the bonus is for, e.g. "Youngster Forwards"."""
        if self.section and self.kind:
            return f"{KIND_WORDS[self.kind][:-1]} {SECTION_WORDS[self.section]}"
        return SECTION_WORDS[self.section] if self.section else KIND_WORDS[str(self.kind)]

    def gives(self) -> str:
        """What it gives, e.g. "+2 € and 1 VP token"."""
        parts = [f"{self.budget:+d} €"] if self.budget else []
        if self.vp:
            parts.append(f"{self.vp} VP token(s)")
        return " and ".join(parts)

    def words(self) -> str:
        """The bonus as printed, e.g. "Forwards: +2 €"."""
        return f"{self.who()}: {self.gives()}"


@dataclass(frozen=True, slots=True)
class TransferCard:
    """A Transfer card: its id, the number in its corner, its name and its bonuses."""

    id: str
    number: int
    name: str
    bonuses: tuple[Bonus, ...]
    text: str = ""

    @property
    def title(self) -> str:
        """"Transfer card 3 (Strikers wanted)"."""
        return f"Transfer card {self.number} ({self.name})"


@dataclass(frozen=True, slots=True)
class MarketDeck:
    """``market.toml``: the Transfer cards in ascending order of their numbers, and the cards printed as Goalkeepers."""

    cards: tuple[TransferCard, ...]
    goalkeepers: frozenset[str]

    def card(self, card_id: str) -> TransferCard | None:
        """A Transfer card by id."""
        return next((c for c in self.cards if c.id == card_id), None)

    def after(self, card_id: str) -> TransferCard:
        """The card under this one (the deck is a cycle: the top card goes to the bottom)."""
        i = next(i for i, c in enumerate(self.cards) if c.id == card_id)
        return self.cards[(i + 1) % len(self.cards)]

    def order(self, top: str) -> tuple[TransferCard, ...]:
        """The deck from its top card down."""
        i = next(i for i, c in enumerate(self.cards) if c.id == top)
        return self.cards[i:] + self.cards[:i]


def _bonus(fields: Fields) -> Bonus:
    section = fields.str("section", None, SECTIONS)
    kind = fields.str("kind", None, FOOTBALLER_KINDS)
    if section is None and kind is None:
        fields.fail("section", 'missing; a bonus names the footballers it is for: a section ("def", "mid", "fwd"), '
                               'a kind ("player", "youngster", "veteran"), or both')
    bonus = Bonus(section, kind, fields.int("budget", -5, 5, 0), fields.int("vp", 0, 3, 0))
    if not bonus.budget and not bonus.vp:
        fields.fail("budget", "a bonus changes the price: give budget (€, -5 to 5) or vp (VP tokens, 0–3)")
    fields.done()
    return bonus


def _read(fields: Fields, cards: Mapping[str, Any]) -> MarketDeck:
    """Read and check ``market.toml`` (errors name the file, the card and the field)."""
    keepers = fields.list("goalkeepers", [], "a list of footballer card ids")
    for i, card_id in enumerate(keepers, start=1):
        if not isinstance(card_id, str) or not isinstance(cards.get(card_id), PlayerCard):
            fields.wrong(f"goalkeepers[{i}]", "the id of a footballer card of this deck", card_id)
    out: list[TransferCard] = []
    for card, card_id in fields.cards(PREFIX, FILE, cards, "[[card]] tables: id, number, name, bonuses"):
        number = card.int("number", 1, 99)
        if any(c.number == number for c in out):
            card.wrong("number", "a number no other Transfer card has (the deck is laid in their order)", number)
        raw = card.list("bonuses", expected="a list of bonuses { section = ..., budget = ... }")
        if not raw:
            card.wrong("bonuses", "at least one bonus", raw)
        bonuses = tuple(_bonus(Fields(card.where, b, f"bonuses[{j}]")) for j, b in enumerate(raw, start=1))
        out.append(TransferCard(card_id, number, card.str("name"), bonuses, card.str("text", "")))
        card.done()
    if len(out) < 2:
        fields.wrong("card", "at least two Transfer cards (the Market mini-expansion has six)", f"{len(out)}")
    fields.done()
    return MarketDeck(tuple(sorted(out, key=lambda c: c.number)), frozenset(keepers))


def deck_of(profile: Any) -> MarketDeck:
    """The deck's Transfer cards."""
    return profile.module_data[NAME][FILE]  # type: ignore[no-any-return]


# -- the state --------------------------------------------------------------------------------------------------


class Market(NamedTuple):
    """The Market deck: the card on top ("" until the table says), and the bonus the sale being made takes."""

    top: str = ""
    sale: tuple[Any, ...] = ()  # (footballer, bonus number; 0: none[, why none]) while a sale is being made


def _mine(state: State) -> Market:
    return state.slice(NAME)  # type: ignore[no-any-return]


def _decode(data: Any) -> Market:
    return Market(top=data["top"], sale=tuple(data.get("sale") or ()))  # type: ignore[arg-type]


# -- setup: the top card ----------------------------------------------------------------------------------------


def _on_top(tx: Tx) -> None:
    """``market_top``: the Transfer card that lies on top once the deck is laid and cut (a random choice, told)."""
    if tx.state.stage != "setup":
        raise E.WrongStage(SETUP_ONLY)
    deck = deck_of(tx.profile)
    card_id = field(tx.event, "card", str, "the id of the Transfer card on top")
    card = deck.card(card_id)
    if card is None:
        raise E.NotAllowed(UNKNOWN.format(card=card_id, known=", ".join(f"{c.id} ({c.number})" for c in deck.cards)))
    tx.put_slice(NAME, evolve(_mine(tx.state), top=card.id))
    tx.say("market_top", None, TOP_SET.format(number=card.number, name=card.name), transfer_card=card.id,
           number=card.number)


def _setup_busy(state: State) -> bool:
    # the setup is not over until the table has told the top card (the First player may be named before)
    return state.stage == "setup" and not _mine(state).top


def _awaiting(state: State) -> list[dict[str, Any]]:
    if state.stage == "setup" and not _mine(state).top and state.clubs:
        return [{"seat": None, "need": "market_top", "text": NEED_TOP, "page": True}]
    return []


# -- selling ----------------------------------------------------------------------------------------------------


def unprinted(card: TransferCard, sections: tuple[str, ...], kind: str) -> str | None:
    """The first of a footballer's sections that no bonus of the card fits (he corresponds to the usual price as one
    of them), or None."""
    return next((s for s in sections if not any(b.fits((s,), kind) for b in card.bonuses)), None)


def _choice(tx: Tx, club: Any, held: Held) -> tuple[TransferCard, int, str]:
    """The top card, the number of the bonus this sale takes (0: none) and why none."""
    deck = deck_of(tx.profile)
    card = deck.card(_mine(tx.state).top) or deck.cards[0]
    player = tx.profile.cards[held.id]
    wanted = field(tx.event, "transfer_bonus", int, BONUS_DOC, default=None)
    if held.id in deck.goalkeepers:
        if wanted is not None:
            raise E.NotAllowed(GOALKEEPER.format(name=player.name))
        return card, 0, WHY_KEEPER
    side = side_of(tx, held, club)
    fits = [(n, b) for n, b in enumerate(card.bonuses, start=1) if b.fits(side.sections, player.kind)]
    # l.237 "you may gain any corresponding bonus": as one of his sections the card prints nothing for, a footballer
    # of several sections sells at the usual price (a game of an earlier revision makes him take a fitting bonus)
    plain = unprinted(card, side.sections, player.kind) if fits and tx.state.game.revision >= UNPRINTED_REVISION else None
    plain_why = WHY_UNPRINTED.format(section=SECTION_WORDS[plain]) if plain else ""
    if wanted is not None:
        if wanted == 0 and plain:
            return card, 0, plain_why
        if not any(n == wanted for n, _ in fits):
            why = BONUS_WORDS.format(card=card.title, fits=", ".join(f"{n}. {b.words()}" for n, b in fits)) if fits else NONE_FIT
            raise E.NotAllowed(NO_BONUS_HERE.format(name=player.name, number=wanted, card=card.title, why=why))
        return card, wanted, ""
    if not fits:
        return card, 0, WHY_NO_FIT
    per_vp = tx.board(club.seat).budget_per_vp
    # without a word from the club, the bonus worth most at the final scoring (VP, and 1 VP per budget_per_vp €);
    # the usual price when every bonus that fits him lowers it and he may sell without one
    best = max(fits, key=lambda nb: (nb[1].vp * per_vp + nb[1].budget, -nb[0]))
    if plain and best[1].vp * per_vp + best[1].budget < 0:
        return card, 0, plain_why
    return card, best[0], ""


def _sale_price(tx: Tx, club: Any, held: Held, price: tuple[int, int]) -> tuple[int, int]:
    card, number, why = _choice(tx, club, held)
    tx.put_slice(NAME, evolve(_mine(tx.state), sale=(held.id, number, why) if why else (held.id, number)))
    if not number:
        return price
    bonus = card.bonuses[number - 1]
    return max(0, price[0] + bonus.budget), price[1] + bonus.vp


def _sold(tx: Tx, seat: int, card_id: str) -> None:
    mine = _mine(tx.state)
    deck = deck_of(tx.profile)
    card = deck.card(mine.top) or deck.cards[0]
    after = deck.after(card.id)
    name = tx.name(card_id)
    number = mine.sale[1] if mine.sale and mine.sale[0] == card_id else 0
    tx.put_slice(NAME, evolve(mine, top=after.id, sale=()))
    if number:
        bonus = card.bonuses[number - 1]
        text = SOLD_BONUS.format(card=card.title, seat=seat, words=f"{bonus.gives()} ({bonus.who()})", name=name,
                                 next=after.title)
        tx.say("market", seat, text, transfer_card=card.id, bonus=number, budget=bonus.budget, vp=bonus.vp, sold=card_id,
               top=after.id, next=after.title, next_number=after.number)
    else:
        told = mine.sale[2] if len(mine.sale) > 2 and mine.sale[0] == card_id else ""
        why = told or (WHY_KEEPER if card_id in deck.goalkeepers else WHY_NO_FIT)
        tx.say("market", seat, SOLD_NONE.format(card=card.title, name=name, why=why, next=after.title), transfer_card=card.id,
               bonus=0, budget=0, vp=0, sold=card_id, top=after.id, next=after.title, next_number=after.number)


# -- the page ---------------------------------------------------------------------------------------------------


def _card_view(card: TransferCard) -> dict[str, Any]:
    return {"id": card.id, "number": card.number, "name": card.name, "text": card.text,
            "bonuses": [{"number": n, "section": b.section, "kind": b.kind, "budget": b.budget, "vp": b.vp,
                         "words": b.words()} for n, b in enumerate(card.bonuses, start=1)]}


def _sale_asks(profile: Any, state: State) -> list[dict[str, Any]]:
    """For the club whose turn it is: each sale of a footballer that more than one bonus of the top card fits, one
    option per bonus (a tap sells him with the bonus worth most)."""
    seat = state.turn
    club = state.club(seat) if seat else None
    mine = _mine(state)
    if club is None or club.acted or not mine.top or any(p.seat == seat for p in state.pending):
        return []
    deck = deck_of(profile)
    card = deck.card(mine.top)
    assert card is not None
    rules = host.rules_for(state.game)
    tx = Tx(profile, rules, state, {}, quiet=True)
    options = []
    for held in club.players:
        if not held.trained or held.id in deck.goalkeepers:
            continue
        player = profile.cards[held.id]
        sections = side_of(tx, held, club).sections
        fits = [(n, b) for n, b in enumerate(card.bonuses, start=1) if b.fits(sections, player.kind)]
        plain = unprinted(card, sections, player.kind) if fits and state.game.revision >= UNPRINTED_REVISION else None
        if len({(b.budget, b.vp) for _, b in fits} | ({(0, 0)} if plain else set())) < 2:
            continue  # one price only: a tap on the pad sells him for it
        options.extend({"label": f"Sell {player.name} taking {b.words()}",
                        "event": {"type": "sell", "seat": seat, "card": held.id, "transfer_bonus": n}} for n, b in fits)
        if plain:
            options.append({"label": f"Sell {player.name} taking no bonus (as one of the {SECTION_WORDS[plain]})",
                            "event": {"type": "sell", "seat": seat, "card": held.id, "transfer_bonus": 0}})
    if not options:
        return []
    return [{"seat": seat, "need": "market_sale", "title": f"Seat {seat}: sell with a bonus of {card.title}",
             "hint": "This footballer fits several bonuses of the top Transfer card: the club chooses which it takes "
                     "(a tap on the pad takes the one worth most).", "options": options}]


def _view(profile: Any, state: State, viewer: Any) -> list[tuple[str, Any]]:
    deck = deck_of(profile)
    mine = _mine(state)
    order = deck.order(mine.top) if mine.top else deck.cards
    asks: list[dict[str, Any]] = []
    if state.stage == "setup" and not mine.top:
        asks.append({"seat": None, "need": "market_top", "title": "The Market deck: which Transfer card is on top?",
                     "hint": "Lay the Transfer cards in ascending order, move a random number of them to the bottom, "
                             "and say which card is now on top.",
                     "options": [{"label": f"{c.number}. {c.name}", "event": {"type": "market_top", "card": c.id}}
                                 for c in deck.cards]})
    elif state.stage in ("tuesday", "wednesday", "thursday"):
        asks.extend(_sale_asks(profile, state))
    if mine.top:
        items = [f"On top: {order[0].title}: " + "; ".join(b.words() for b in order[0].bonuses),
                 "Then: " + ", ".join(str(c.number) for c in order[1:])]
    else:
        items = ["The table has not said yet which Transfer card lies on top."]
    panel = {"title": "Market: the Transfer card on top gives a bonus to the next footballer sold", "items": items}
    return [(NAME, {"top": mine.top or None, "deck": [_card_view(c) for c in order],
                    "goalkeepers": sorted(deck.goalkeepers), "asks": asks, "panel": panel})]


def _candidates(profile: Any, state: State, need: dict[str, Any]) -> list[dict[str, Any]]:
    if need.get("need") == "market_top":
        return [{"type": "market_top", "card": c.id} for c in deck_of(profile).cards]
    return []


MARKET = host.register(host.Module(
    name=NAME,
    title="Market transfer cards",
    doc="A deck of six Transfer cards changes the price of each footballer sold: the top card gives its bonus, then "
        "goes to the bottom (003 l.229–237).",
    events={"market_top": host.EventSpec("card: the Transfer card on top of the Market deck once it is laid "
                                         "(setup)", _on_top)},
    hooks={"sale_price": _sale_price, "sold": _sold, "setup_busy": _setup_busy, "awaiting": _awaiting, "view": _view,
           "candidates": _candidates},
    data=(host.DataFile(FILE, _read, doc="the Transfer cards: number, name, bonuses; the Goalkeepers"),),
    state=host.Slice(initial=lambda game: Market(), decode=_decode),
))
