"""Unique Setup cards (003 l.187–219): each club plays with two cards that change its own board tables.

"Before the game, each player draws 2 random Unique Setup cards and places them so that they cover the corresponding
parts of their boards ... One card must be played with its positive (green) side faceup and the other with its
negative (red) side faceup. During the game, you must apply the effects of these cards" (l.191).  The eight cards
are data (``unique_setup.toml``); each side says what it changes: the Fanbase a printed Stands takes (l.195), the
Maintenance tracks (l.199), the Match consequence table (l.203), the number of spaces for Stadium Infrastructure
tokens (l.207), what a Stat marker does past the top of its track or below 1 (l.211), effects after a match by its
result (l.215), the Office track (l.219).  The leaflet shows the cards only as pictures, so the demo's are invented
samples and an owner transcribes their own.

The table says which two cards a club drew and which lies green side up (``unique_setup``): the draw is never the
engine's.  From then on every rule that reads a board table reads the club's own (the ``board`` hook); effects by
result apply after the match, before the Match consequence roll.  The readings are in engine/RULES.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, NamedTuple

from engine import errors as E
from engine import host
from engine.cards import RESULTS, Board, Effect, OfficeSpace, StatStep
from engine.loader import (
    MAINTENANCE_TRACKS,
    Fields,
    consequence_table,
    maintenance_tracks,
    office_track,
    stat_step,
)
from engine.rules.context import field, seat_of
from engine.rules.effects import Ctx, apply_effects, describe_effect
from engine.state import State, evolve
from engine.tx import Tx

NAME: Final = "unique_setup"
FILE: Final = "unique_setup.toml"
PREFIX: Final = "us_"
SIDES: Final = ("green", "red")
#: What a side may change, in the order the changes apply.
CHANGES: Final = ("stands", "maintenance", "match_consequences", "infrastructure_spaces", "past_top", "below_bottom",
                  "after_result", "office")

# -- what the table says ----------------------------------------------------------------------------------------

NEED: Final = "Seat {seat}: place two Unique Setup cards, one green side up and one red (on the Play page)."
NEED_SHORT: Final = "Unique Setup cards"
"""What a seat's screen says while its club owes its Unique Setup cards (the table cannot see which side is up)."""
NEED_HINT: Final = "Place on Play page"
PLACED: Final = "Seat {seat} plays {green} green side up ({green_text}) and {red} red side up ({red_text})."
SETUP_ONLY: Final = "Unique Setup cards are placed at the setup, before week 1 begins."
SHORT_DECK: Final = ("The deck {profile} has {cards} Unique Setup cards and each club draws two: {clubs} clubs need {need}. "
                     "Add cards to unique_setup.toml, or play with fewer clubs or without Unique Setup cards.")
#: The first revision of the readings (engine/RULES.md, "Revisions") refusing a club the deck has no two cards for.
SHORT_DECK_REVISION: Final = 3
ALREADY: Final = "Seat {seat} has placed its Unique Setup cards already ({green} green, {red} red)."
SAME_CARD: Final = "Seat {seat} plays two different Unique Setup cards: one green side up, the other red."
TAKEN: Final = "{name} lies on Seat {seat}'s boards already: each club draws its own two cards."
UNKNOWN: Final = 'There is no Unique Setup card "{card}" in this deck. Unique Setup cards: {known}.'
NO_STANDS: Final = "{name} changes Stands #{number}, and this board prints {printed} Stands."
ROLL_WORDS: Final = ("effects after a match cannot wait for a die here; write a roll as a row of the Match "
                     "consequence table instead")

# -- the data ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a Unique Setup card: its words and what it changes on the club's boards (None/(): nothing)."""

    text: str
    stands: tuple[tuple[int, int], ...] = ()  # (printed Stands number, Fanbase it takes)
    maintenance: tuple[tuple[str, tuple[int, ...]], ...] = ()  # tracks replaced
    match_consequences: tuple[tuple[str, tuple[tuple[Effect, ...], ...]], ...] = ()  # results' rows replaced
    infrastructure_spaces: int = 0  # improvement spaces added (or covered, when negative)
    past_top: StatStep | None = None
    below_bottom: StatStep | None = None
    after_result: tuple[tuple[str, tuple[Effect, ...]], ...] = ()  # effects after a match of each result
    office: tuple[OfficeSpace, ...] = ()  # the Office track replaced

    def board(self, board: Board) -> Board:
        """The board tables with this side's changes laid over them."""
        changes: dict[str, Any] = {}
        if self.stands:
            capacity = list(board.stands_capacity or (1,) * board.board_stands)
            for number, fanbase in self.stands:
                if number <= len(capacity):
                    capacity[number - 1] = fanbase
            changes["stands_capacity"] = tuple(capacity)
        if self.maintenance:
            changes["maintenance"] = tuple({**dict(board.maintenance), **dict(self.maintenance)}.items())
        if self.match_consequences:
            changes["match_consequences"] = tuple({**dict(board.match_consequences), **dict(self.match_consequences)}.items())
        if self.infrastructure_spaces:
            spaces = dict(board.infrastructure_spaces)
            spaces["improvement"] = max(0, board.spaces("improvement") + self.infrastructure_spaces)
            changes["infrastructure_spaces"] = tuple(spaces.items())
        if self.past_top is not None:
            changes["stat_past_top"] = self.past_top
        if self.below_bottom is not None:
            changes["stat_below_bottom"] = self.below_bottom
        if self.office:
            changes["office"] = self.office
        return replace(board, **changes) if changes else board

    def changes(self) -> list[str]:
        """What the side changes, in words (for the page)."""
        out = [f"Stands #{n} takes {f} Fanbase" for n, f in self.stands]
        out += [f"Maintenance, {track}: " + ", ".join(map(str, steps)) + " €" for track, steps in self.maintenance]
        for result, faces in self.match_consequences:
            rows = "; ".join(f"{i}: " + (", ".join(describe_effect(e) for e in face) or "nothing")
                             for i, face in enumerate(faces, start=1))
            out.append(f"Match consequences after a {result}: {rows}")
        if self.infrastructure_spaces:
            n = self.infrastructure_spaces
            out.append(f"{n:+d} space{'s' if abs(n) != 1 else ''} for Stadium Infrastructure tokens")
        if self.past_top is not None:
            out.append("Each step of a Stat past the top: " + _step_words(self.past_top, below=False))
        if self.below_bottom is not None:
            out.append("Each step of a Stat below 1: " + _step_words(self.below_bottom, below=True))
        out += [f"After a {result}: " + ", ".join(describe_effect(e) for e in effects) for result, effects in self.after_result]
        if self.office:
            out.append("Office track: " + ", ".join(f"{s.cost} € / {s.vp} VP" for s in self.office))
        return out


def _step_words(step: StatStep, *, below: bool) -> str:
    if below:
        words = [f"lose {step.own} of its resource"] if step.own else []
        if step.own and step.instead:
            words[0] += f" ({step.instead} € for each one missing)"
        if step.budget:
            words.append(f"lose {step.budget} €")
    else:
        words = [f"gain {step.own} of its resource"] if step.own else []
        if step.budget:
            words.append(f"gain {step.budget} €")
        if step.vp:
            words.append(f"gain {step.vp} VP token(s)")
    return ", ".join(words) or "nothing"


@dataclass(frozen=True, slots=True)
class UniqueCard:
    """A Unique Setup card: its id, name, and its green (positive) and red (negative) sides."""

    id: str
    name: str
    green: Side
    red: Side

    def side(self, colour: str) -> Side:
        """One side of the card."""
        return self.green if colour == "green" else self.red


def _effect_lists(parent: Fields, key: str) -> tuple[tuple[str, tuple[Effect, ...]], ...]:
    table = parent.table(key)
    out = []
    for result in RESULTS:
        if result in table.data:
            effects = table.effects(result)
            if any(c.test == "roll" for e in effects for c in e.when):
                table.fail(result, ROLL_WORDS)
            out.append((result, effects))
    table.done(RESULTS)
    if not out:
        parent.wrong(key, "effects for win, draw or loss", {})
    return tuple(out)


def _side(card: Fields, colour: str) -> Side:
    side = card.table(colour)
    values: dict[str, Any] = {"text": side.str("text")}
    if "stands" in side.data:
        stands = side.table("stands")
        pairs = []
        for key in stands.data:
            if not key.isdigit() or not 1 <= int(key) <= 9:
                stands.fail(key, 'a printed Stands by its number, e.g. { 2 = 2 } for "Stands #2 takes 2 Fanbase"')
            pairs.append((int(key), stands.int(key, 0, 9)))
        if not pairs:
            side.wrong("stands", 'a Stands number and the Fanbase it takes, e.g. { 2 = 2 }', {})
        values["stands"] = tuple(sorted(pairs))
    if "maintenance" in side.data:
        values["maintenance"] = maintenance_tracks(side, "maintenance", every=False)
        if not values["maintenance"]:
            side.wrong("maintenance", "tracks to replace: " + ", ".join(MAINTENANCE_TRACKS), {})
    if "match_consequences" in side.data:
        values["match_consequences"] = consequence_table(side, "match_consequences", every=False)
        if not values["match_consequences"]:
            side.wrong("match_consequences", "six lists of effects for win, draw or loss", {})
    if "infrastructure_spaces" in side.data:
        values["infrastructure_spaces"] = side.int("infrastructure_spaces", -3, 3)
        if not values["infrastructure_spaces"]:
            side.wrong("infrastructure_spaces", "spaces added (1 to 3) or covered (-1 to -3)", 0)
    if "past_top" in side.data:
        values["past_top"] = stat_step(side, "past_top", StatStep(), below=False)
    if "below_bottom" in side.data:
        values["below_bottom"] = stat_step(side, "below_bottom", StatStep(), below=True)
    if "after_result" in side.data:
        values["after_result"] = _effect_lists(side, "after_result")
    if "office" in side.data:
        values["office"] = office_track(side, "office")
    side.done(("text", *CHANGES))
    if len(values) == 1:
        side.fail("text", "a side changes a part of the club's boards: " + ", ".join(CHANGES))
    return Side(**values)


def _read(fields: Fields, cards: Mapping[str, Any]) -> tuple[UniqueCard, ...]:
    """Read and check ``unique_setup.toml`` (errors name the file, the card and the field)."""
    out: list[UniqueCard] = []
    for card, card_id in fields.cards(PREFIX, FILE, cards, "[[card]] tables: id, name, green, red"):
        out.append(UniqueCard(card_id, card.str("name"), _side(card, "green"), _side(card, "red")))
        card.done()
    if len(out) < 2:
        fields.wrong("card", "at least two Unique Setup cards (each club plays two; the leaflet has eight)", f"{len(out)}")
    fields.done()
    return tuple(out)


def cards_of(profile: Any) -> tuple[UniqueCard, ...]:
    """The deck's Unique Setup cards."""
    return profile.module_data[NAME][FILE]  # type: ignore[no-any-return]


def _card(profile: Any, card_id: str) -> UniqueCard | None:
    cards = cards_of(profile)
    kept = _BY_ID.get(id(cards))
    if kept is None or kept[0] is not cards:  # the deck's cards by id, made once (asked after every match)
        by_id: dict[str, UniqueCard] = {}
        for c in cards:
            by_id.setdefault(c.id, c)
        kept = _BY_ID[id(cards)] = (cards, by_id)
    return kept[1].get(card_id)


_BY_ID: dict[int, tuple[tuple[UniqueCard, ...], dict[str, UniqueCard]]] = {}  # by the id of a deck's cards


# -- the state --------------------------------------------------------------------------------------------------


class Placed(NamedTuple):
    """The cards each club plays: (seat, the card green side up, the card red side up)."""

    cards: tuple[tuple[int, str, str], ...] = ()

    def of(self, seat: int) -> tuple[str, str] | None:
        """The seat's (green, red) cards, or None before it placed them."""
        for s, green, red in self.cards:
            if s == seat:
                return green, red
        return None


def _mine(state: State) -> Placed:
    return state.slice(NAME)  # type: ignore[no-any-return]


def _decode(data: Any) -> Placed:
    return Placed(tuple((s, g, r) for s, g, r in data["cards"]))


# -- the setup --------------------------------------------------------------------------------------------------


def _club_check(tx: Tx, seat: int) -> None:
    """Each club draws two cards (003 l.191): a club joining when the deck holds no two more is refused, rather than
    the setup waiting for cards nobody can draw."""
    clubs = len(tx.state.clubs) + 1
    have = len(cards_of(tx.profile))
    if have < 2 * clubs and tx.state.game.revision >= SHORT_DECK_REVISION:
        raise E.NotAllowed(SHORT_DECK.format(profile=tx.profile.name, cards=have, clubs=clubs, need=2 * clubs))


def _on_place(tx: Tx) -> None:
    """``unique_setup``: the two cards a club drew, the one played green side up and the one red side up."""
    seat = seat_of(tx.event)
    if tx.state.stage != "setup":
        raise E.WrongStage(SETUP_ONLY)
    tx.club(seat)
    mine = _mine(tx.state)
    found = mine.of(seat)
    if found is not None:
        raise E.NotAllowed(ALREADY.format(seat=seat, green=_name(tx, found[0]), red=_name(tx, found[1])))
    chosen = []
    for colour in SIDES:
        card_id = field(tx.event, colour, str, f"the id of the Unique Setup card played {colour} side up")
        card = _card(tx.profile, card_id)
        if card is None:
            known = ", ".join(f"{c.id} ({c.name})" for c in cards_of(tx.profile))
            raise E.NotAllowed(UNKNOWN.format(card=card_id, known=known))
        holder = next((s for s, g, r in mine.cards if card.id in (g, r)), None)
        if holder is not None:
            raise E.NotAllowed(TAKEN.format(name=card.name, seat=holder))
        chosen.append(card)
    green, red = chosen
    if green.id == red.id:
        raise E.NotAllowed(SAME_CARD.format(seat=seat))
    printed = len(tx.profile.board.stands_capacity or (1,) * tx.profile.board.board_stands)
    for card, side in ((green, green.green), (red, red.red)):
        for number, _ in side.stands:
            if number > printed:
                raise E.NotAllowed(NO_STANDS.format(name=card.name, number=number, printed=printed))
    tx.put_slice(NAME, evolve(mine, cards=mine.cards + ((seat, green.id, red.id),)))
    tx.say("unique_setup", seat, PLACED.format(seat=seat, green=green.name, green_text=green.green.text.rstrip("."),
                                               red=red.name, red_text=red.red.text.rstrip(".")), green=green.id, red=red.id,
           names=[green.name, red.name])


def _name(tx: Tx, card_id: str) -> str:
    card = _card(tx.profile, card_id)
    return card.name if card is not None else card_id


def _setup_busy(state: State) -> bool:
    # the setup is not over until every club has placed its cards (the First player may be named before)
    if state.stage != "setup":
        return False
    mine = _mine(state)
    return any(mine.of(c.seat) is None for c in state.clubs)


def _awaiting(state: State) -> list[dict[str, Any]]:
    if state.stage != "setup":
        return []
    mine = _mine(state)
    return [{"seat": c.seat, "need": "unique_setup", "text": NEED.format(seat=c.seat), "short": NEED_SHORT,
             "hint": NEED_HINT, "page": True}
            for c in state.clubs if mine.of(c.seat) is None]


# -- the seat's board -------------------------------------------------------------------------------------------

_boards: dict[tuple[int, str, str], tuple[Board, Board]] = {}


def seat_board(profile: Any, green: str, red: str, board: Board) -> Board:
    """The board tables of a club playing these two cards (the green side's changes, then the red's)."""
    key = (id(board), green, red)
    found = _boards.get(key)
    if found is not None and found[0] is board:
        return found[1]
    out = board
    for card_id, colour in ((green, "green"), (red, "red")):
        card = _card(profile, card_id)
        if card is not None:
            out = card.side(colour).board(out)
    if len(_boards) > 256:
        _boards.clear()
    _boards[key] = (board, out)
    return out


def _board(profile: Any, state: State, seat: int | None, board: Board) -> Board:
    # the host keeps each answer until a slice changes; seat_board keeps each club's tables for its two cards
    cards = _mine(state).of(seat) if seat is not None else None
    return board if cards is None else seat_board(profile, cards[0], cards[1], board)


def _after_match(tx: Tx, seat: int) -> None:
    """l.215: "This card gives additional effects depending on your Match result"."""
    found = _mine(tx.state).of(seat)
    result = tx.club(seat).result
    if found is None or result is None:
        return
    for card_id, colour in zip(found, SIDES):
        card = _card(tx.profile, card_id)
        if card is None:
            continue
        effects = dict(card.side(colour).after_result).get(result, ())
        if effects:
            apply_effects(tx, effects, Ctx(seat=seat, label=f"{card.name} ({colour})"))


# -- the page ---------------------------------------------------------------------------------------------------


def _side_view(card: UniqueCard, colour: str) -> dict[str, Any]:
    side = card.side(colour)
    return {"id": card.id, "name": card.name, "side": colour, "text": side.text, "changes": side.changes()}


def _view(profile: Any, state: State, viewer: Any) -> list[tuple[str, Any]]:
    mine = _mine(state)
    deck = cards_of(profile)
    placed = {str(s): {"green": _side_view(_card(profile, g), "green"), "red": _side_view(_card(profile, r), "red")}  # type: ignore[arg-type]
              for s, g, r in mine.cards if _card(profile, g) and _card(profile, r)}
    asks = []
    if state.stage == "setup":
        taken = {c for _, g, r in mine.cards for c in (g, r)}
        free = [{"value": c.id, "label": c.name} for c in deck if c.id not in taken]
        for club in state.clubs:
            if mine.of(club.seat) is None:
                asks.append({
                    "seat": club.seat, "need": "unique_setup",
                    "title": f"Seat {club.seat} ({club.name}): its Unique Setup cards",
                    "hint": "Draw 2 Unique Setup cards: place one green side up, the other red side up.",
                    "options": [{"label": "Place these", "event": {"type": "unique_setup", "seat": club.seat},
                                 "fields": [{"name": "green", "label": "Green side up", "choices": free},
                                            {"name": "red", "label": "Red side up", "choices": free[1:] + free[:1]}]}]})
    clubs = {seat: [{"title": "Unique Setup cards", "items": [
        f"{side['name']} ({side['side']}): " + ("; ".join(side["changes"]) or side["text"]) for side in (sides["green"], sides["red"])]}]
        for seat, sides in placed.items()}
    return [(NAME, {"placed": placed, "clubs": clubs, "cards": [{"id": c.id, "name": c.name, "green": _side_view(c, "green"),
                                                 "red": _side_view(c, "red")} for c in deck], "asks": asks})]


def _candidates(profile: Any, state: State, need: dict[str, Any]) -> list[dict[str, Any]]:
    if need.get("need") != "unique_setup":
        return []
    mine = _mine(state)
    taken = {c for _, g, r in mine.cards for c in (g, r)}
    free = [c.id for c in cards_of(profile) if c.id not in taken]
    seat = need["seat"]
    # a few draws: the next two cards of the deck either way up, and two further apart
    pairs = [(free[i], free[j]) for i, j in ((0, 1), (1, 0), (0, len(free) - 1)) if len(free) > max(i, j) and i != j]
    return [{"type": "unique_setup", "seat": seat, "green": g, "red": r} for g, r in pairs]


UNIQUE_SETUP = host.register(host.Module(
    name=NAME,
    title="Unique Setup cards",
    doc="Each club plays two cards, one green side up and one red, that change its own board tables (003 l.187–219).",
    events={"unique_setup": host.EventSpec("seat, green, red: the Unique Setup cards the club plays green side up "
                                           "and red side up (setup)", _on_place)},
    hooks={"board": _board, "after_match": _after_match, "setup_busy": _setup_busy, "awaiting": _awaiting, "view": _view,
           "candidates": _candidates, "club_check": _club_check},
    data=(host.DataFile(FILE, _read, doc="the eight cards: each side's words and what it changes on the boards"),),
    state=host.Slice(initial=lambda game: Placed(), decode=_decode),
))
