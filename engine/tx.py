"""One event being applied (`Tx`): the profile, the game's compiled rules, the state as it changes, what is said.

Every handler, phase and hook of a pack or module works on a `Tx`; it raises an `engine.errors.EngineError` to
refuse the event (the reducer then keeps the state it started from), and changes the state only through ``put``,
``put_slice`` and assignments to ``tx.state``.  Nothing here knows a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine import errors as E
from engine.cards import Board, Profile
from engine.host import Rules
from engine.state import Club, State

Announcement = dict[str, Any]
_CLUBS = State._fields.index("clubs")
_MODULES = State._fields.index("modules")
_EVENTS = State._fields.index("events")
_PENDING = State._fields.index("pending")
_new = tuple.__new__


class Tx:
    """One event being applied: the profile, the rules, the state as it evolves, and the announcements so far.

    ``quiet`` transactions (replaying a log) say nothing: `say` drops the announcement, so replays do not pay for
    sentences nobody reads.
    """

    __slots__ = ("profile", "rules", "state", "anns", "event", "quiet", "count")

    def __init__(self, profile: Profile, rules: Rules, state: State, event: Mapping[str, Any], quiet: bool = False) -> None:
        # `engine.reducer` makes the Tx of each event field by field the same way: a new field goes there too
        self.profile = profile
        self.rules = rules
        self.state = state
        self.anns: list[Announcement] = []
        self.event = event
        self.quiet = quiet
        #: the state's event count once this event is applied: each copy of the state made here takes it at once,
        #: so the reducer rarely copies the state again only to count the event (no rule reads the count meanwhile)
        self.count = state.events + 1

    def say(self, kind: str, seat: int | None, text: str, **fields: Any) -> None:
        """Add an announcement (structured fields plus one plain sentence)."""
        if not self.quiet:
            self.anns.append({"kind": kind, "seat": seat, "text": text, **fields})

    def club(self, seat: int) -> Club:
        """The club at a seat (UnknownSeat when there is none)."""
        clubs = self.state.clubs
        try:  # `State.club`'s common case without its call (asked ~3 times an event): seat n is mostly the n-th
            club = clubs[seat - 1]
            if club[0] == seat:  # its seat
                return club
        except (TypeError, IndexError):
            pass
        club = self.state.club(seat)
        if club is None:
            raise E.UnknownSeat(E.UNKNOWN_SEAT.format(seat=seat))
        return club

    def put(self, club: Club, pending: tuple[Any, ...] | None = None) -> Club:
        """Store a changed club in the state and return it (with ``pending``: what the game now awaits too, in the
        same copy of the state)."""
        seat = club.seat
        state = self.state
        clubs = state.clubs
        try:  # clubs lie in seat order, one a seat: seat n is mostly the n-th
            i = seat - 1
            found = clubs[i][0] == seat
        except (TypeError, IndexError):
            found = False
        if not found:
            i = 0
            for c in clubs:
                if c.seat == seat:
                    break
                i += 1
            else:
                if pending is not None:
                    self.put_pending(pending)
                return club  # no club at that seat: nothing to store
        values = [*state]
        changed = [*clubs]
        changed[i] = club
        values[_CLUBS] = tuple(changed)
        values[_EVENTS] = self.count
        if pending is not None:
            values[_PENDING] = pending
        self.state = _new(State, values)
        return club

    def update(self, seat: int, fn: Callable[[Club], Club]) -> Club:
        """Apply a function to a club and store the result."""
        return self.put(fn(self.club(seat)))

    def slice(self, module: str) -> Any:
        """A module's slice of the state."""
        return self.state.slice(module)

    def put_pending(self, pending: tuple[Any, ...], club: Club | None = None) -> None:
        """Store what the game now awaits (the state's ``pending``), counting the event in the same copy (with
        ``club``: a changed club too, as `put` does)."""
        if club is not None:
            self.put(club, pending)
            return
        values = [*self.state]
        values[_PENDING] = pending
        values[_EVENTS] = self.count
        self.state = _new(State, values)

    def put_slice(self, module: str, value: Any) -> None:
        """Store a module's changed slice."""
        state = self.state
        slices = [*state.modules]
        i = self.rules.slice_at.get(module)
        if i is not None and i < len(slices) and slices[i][0] == module:  # at its place (as the game event chose)
            slices[i] = (module, value)
        else:  # a state holding its slices otherwise: each of that name
            i = 0
            for key, _ in slices:
                if key == module:
                    slices[i] = (key, value)
                i += 1
        values = [*state]
        values[_MODULES] = tuple(slices)
        values[_EVENTS] = self.count
        self.state = _new(State, values)

    def board(self, seat: int | None = None) -> Board:
        """The board tables a seat plays with (None: the shared League table's), as the game's modules make them."""
        printed = self.profile.board
        boards = self.rules.boards
        if boards is None:  # no module of this game changes a board
            return printed
        found = boards.get(seat)  # the answer kept while the slices stay the same (`engine.host`)
        if found is not None and found[0] is printed:
            slices = self.state.modules
            if found[1] is slices:
                return found[2]  # type: ignore[no-any-return]
            # another slice moved: the answer holds while the slices of the modules filling the hook, read at their
            # places, are equal to those it was kept for (`engine.host._kept` checks their names once)
            key = []
            try:
                for i in self.rules.board_at:
                    key.append(slices[i])
            except IndexError:
                pass
            if key == found[3]:
                boards[seat] = (printed, slices, found[2], key)
                return found[2]  # type: ignore[no-any-return]
        return self.rules.board(self.profile, self.state, seat, printed)  # type: ignore[attr-defined,no-any-return]

    def card(self, card_id: Any, *kinds: str) -> Any:
        """A card of the profile, checked to be of one of the kinds."""
        if not isinstance(card_id, str):
            raise E.BadEvent(E.BAD_FIELD.format(type=self.event.get("type"), field="card", why="a card id is a text"))
        card = self.profile.cards.get(card_id)
        if card is None:
            raise E.UnknownCard(E.UNKNOWN_CARD.format(card=card_id, profile=self.profile.name))
        if kinds and card.kind not in kinds:
            raise E.NotAllowed(E.WRONG_KIND.format(name=card.name, kind=kind_word(card.kind),
                                                   wanted=" or ".join(kind_word(k) for k in kinds)))
        return card

    def name(self, card_id: str) -> str:
        """A card's printed name (its id when unknown)."""
        card = self.profile.cards.get(card_id)
        return card.name if card is not None else card_id

    def kind_name(self, card_id: str, seat: int | None = None) -> str:
        """A card's printed name, or an Infrastructure kind's on the seat's board (the id when neither)."""
        card = self.profile.cards.get(card_id)
        if card is not None:
            return card.name
        kind = self.board(seat).kinds_by_id.get(card_id)  # the first kind of that id, found at once
        return kind.name if kind is not None else card_id

    def token_name(self, card_id: str, seat: int | None = None) -> str:
        """A card's name, or for an Infrastructure token (named by its kind) "The <kind's name> token"."""
        if card_id in self.profile.cards:
            return self.profile.cards[card_id].name
        return f"The {self.kind_name(card_id, seat)} token"

    def stage_name(self) -> str:
        """The current stage in words, e.g. "Tuesday"."""
        return self.rules.stage_name(self.state.stage)


def kind_word(kind: str) -> str:
    """A card kind in words, e.g. "Board meeting"."""
    return kind.replace("_", " ").capitalize()
