"""The game at the table: readings → what they mean → the engine → the log → what each screen says.

:class:`Session` is synchronous and behind one lock: it maps readings to table inputs (pad → seat, tag → card),
asks :mod:`device.inputs` what they mean, offers the events to the engine, writes each accepted event to the store
(committed before anything is shown), and keeps what each screen says.  Tests and ``touchline replay`` drive it
directly; :class:`device.running.RunningTable` drives it for the page and the drivers' threads.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import engine
from device import screens
from device.errors import StoreError, StoreFull
from device.game_view import GameView
from device.game_log import UNDONE_LINE, Reader, file_in_weeks, undo_lines
from device.inputs import (
    NOTHING_TO_UNDO,
    UNDONE,
    Hold,
    Interpreter,
    Lift,
    Outcome,
    Press,
    Tap,
    TableInput,
)
from device.page_access import OWNER_CODE, OWNER_CODE_DETAIL, Chord, OwnerCode, spaced
from device.screens import Message, SeatScreen
from device.store import deck_key
from device.table_file import TableConfig
from drivers.base import ButtonReading, TagReading
from drivers.dice import Dice, Die
from engine.cards import STATS
from engine.errors import EngineError
from engine.reducer import sentence
from engine.views import TABLE as TABLE_VIEWER
from web.actions import Enrol, EnrolCancel, EnrolStart, EventAction, NewGame, TableAction, Undo
from web.security import SeatClaims
from web.setup import setup_events

RECENT = 30
"""How many announcements the page's snapshot keeps."""
ENROL_WAITING = "Tap the card to enrol"
ENROL_TAPPED = "Tag read: pick its card on the page"
ENROLLED = "Enrolled"
ENROL_NO_TAG = "No card has been tapped for enrolment: start enrolment, then tap a card on any pad."
ENROL_NOT_WAITING = 'The table is not waiting for a card to enrol: press "Enrol a card" first.'
UNKNOWN_DECK_CARD = 'There is no card "{card}" in the deck: pick one from the deck list.'
NO_GAME_YET = "There is no game yet: start one on the page."
PHONE_WAITING = "Tap a card"
PHONE_WAITING_DETAIL = ("of your club to unlock", "your phone's page")
SECRET_LINE = "(secret)"
"""What the page shows for a line of a seat's screen that names a card the viewer may not see."""
SEAT_PAGE_UNLOCKED = "Phone unlocked"
SEAT_PAGE_UNLOCKED_DETAIL = "It shows your club's own page"
CANNOT_SAVE = "Cannot save!"
CARD_FULL_DETAIL = ("The card is full:", "free space, then", "do it again")
READ_ONLY_DETAIL = ("The card is read-only:", "restart the table", "(see the page)")
LOG_DAMAGED = "Log was damaged"
LOG_DAMAGED_DETAIL = ("Some moves were lost:", "the page says which")
UNOPENED = "Cannot open game {game}"
UNOPENED_DETAIL = ("Update Touchline or", "start a new game")
UNOPENED_PROBLEM = ("Game {game} cannot be opened by this Touchline: its move {seq} ({type}) is refused: {why} Its log "
                    "is kept as it was: restart the table once it can read it (Touchline updated, or the deck it was "
                    "played with put back) to go on with it, or start a new game, which sets game {game} aside.")

log = logging.getLogger(__name__)


class _Unopened(Exception):
    """A kept game whose log the rules refuse to fold: the move (its number and type) and the sentence why."""

    def __init__(self, seq: int, kind: str, why: str) -> None:
        super().__init__(why)
        self.seq, self.kind, self.why = seq, kind, why


def _locked(method: Callable[..., Any]) -> Callable[..., Any]:
    """Run a Session method under the session's lock: driver threads, the loop and the page all reach it."""

    @functools.wraps(method)
    def wrapper(self: Session, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)

    return wrapper


class Session:
    """The game at the table: engine state, the log, what inputs mean and what each screen says."""

    def __init__(
        self,
        config: TableConfig,
        store: Any,
        dice: Dice,
        *,
        profile: Any | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._lock = threading.RLock()
        self.config = config
        self.store = store
        self.profile = profile if profile is not None else engine.load_profile(config.deck)
        self.deck = deck_key(config)
        setup = self.profile.board.setup
        self.interpreter = Interpreter(
            dice,
            clock=clock,
            # The engine takes which face came up (1..n) and reads the face's value from the board profile.
            dice_by_name={name: Die(name, tuple(range(1, len(faces) + 1))) for name, faces in self.profile.board.opponent_dice},
            setup_counts={("director",): setup.directors_kept, ("opponent",): setup.opponents_per_club},
        )
        self.clock = clock
        self.pad_seat = {pad.id: pad.seat for pad in config.pads()}
        self.button_seat = {button.id: button.seat for button in config.buttons()}
        self.screen_seat = {screen.id: screen.seat for screen in config.screens()}
        self.game: Any = None
        self.state: Any = None
        self.messages: dict[int | None, Message] = {}
        self.kinds: dict[int, set[Any]] = {}
        """The announcement kinds behind each seat's message."""
        self.shared: Message | None = None
        """The latest table-wide news (Opponent dice, a new day) for the shared screen."""
        self.everyone: Message | None = None
        """A message every screen shows until the next news (undo, enrolment)."""
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT)
        self.history: list[dict[str, Any]] = []
        """Each week's League points and resources per club, for the page's charts."""
        self.enrolment: dict[str, Any] | None = None
        """None, or the page's enrolment: ``{"state": "waiting"}`` then ``{"state": "tapped", "uid", "pad", "card"}``."""
        self.screen_versions: dict[str, int] = {}
        self._last_screens: dict[str, SeatScreen] = {}
        self._reader: tuple[Any, Reader] | None = None
        self.version = 0
        self._saved_choices = "{}"
        self.tag_text: Callable[[str], str | None] | None = None
        """Reads the card id written on the tag lying on a pad (set from the hardware), for unknown tags."""
        self.pressed: Callable[[str], bool] | None = None
        """Whether a button is down now (set from the hardware): undo and a roll button held together unlock."""
        self.owner_code = OwnerCode(clock)
        """The one-time code the shared screen shows for the owner (``web.security.OwnerCodes``)."""
        self.seat_claims = SeatClaims(clock)
        """Seat pages waiting for a tap of one of their seat's cards (``web.security.SeatClaims``)."""
        self.save_problem: str | None = None
        """Why the last write failed (a full or read-only card), until a write succeeds again."""
        self.unopened: tuple[int, str] | None = None
        """The kept game this Touchline could not open (its log refused by the rules) and why, until a new game."""
        self.resume()

    # -- the log ---------------------------------------------------------------------------------------

    @_locked
    def resume(self) -> None:
        """Rebuild the current game from the log (after a start, a crash or a pulled plug)."""
        record = self.store.current_game()
        if record is None:
            # No game in play: show the last one if it finished (its final scoring stays on the screens).
            finished = [g for g in self.store.games() if g.status == "finished"]
            record = finished[-1] if finished else None
        self.game = None if record is None else record.id
        self.recent.clear()
        self.unopened = None
        if self.game is None:
            self.state = None
            self.history = []
        else:
            said = self.store.said(self.game, limit=RECENT)
            try:
                lines = self._refold(self.store.records(self.game), keep_lines=not said)
            except _Unopened as refused:
                # A log this Touchline cannot fold (begun by a newer release, or with a deck since changed): it stays
                # in the store untouched, the table starts with no game and says why on every page.
                log.error("game %d cannot be opened: move %d (%s) is refused: %s", self.game, refused.seq,
                          refused.kind, refused.why)
                self.unopened = (self.game, UNOPENED_PROBLEM.format(game=self.game, seq=refused.seq,
                                                                    type=refused.kind, why=refused.why))
                self.game = self.state = None
                self.history = []
            else:
                if not said and lines:  # a game logged by a release that did not keep what was said
                    self.store.add_said(self.game, lines)
                    said = self.store.said(self.game, limit=RECENT)
                self.recent.extend(reversed(said))
                self._mark_finished(record.status)
        self.messages.clear()
        self.everyone = self.shared = None
        if getattr(self.store, "damage", None):
            self.shared = Message(LOG_DAMAGED, LOG_DAMAGED_DETAIL)
        elif self.unopened is not None:
            self.shared = Message(UNOPENED.format(game=self.unopened[0]), UNOPENED_DETAIL)
        self.interpreter.reset()
        saved = self.store.setting(self._choices_key()) if self.game is not None else None
        if saved:
            with contextlib.suppress(ValueError, KeyError, TypeError):  # an unreadable note only loses the choices
                self.interpreter.restore(json.loads(saved))
        self._saved_choices = saved or "{}"
        self._changed()

    def _mark_finished(self, status: str) -> None:
        """Keep the log's status in step with the engine: finished when over (also for logs of older releases)."""
        if self.game is None or self.state is None:
            return
        if self.state.stage == "over" and status == "playing":
            self.store.finish(self.game)

    def _refold(self, records: Iterable[Any], *, keep_lines: bool = False) -> list[tuple[int, dict[str, Any]]]:
        """Fold the log into the state, noting each week's numbers on the way (the page's charts); with
        ``keep_lines``, return what each event said as ``(seq, log line)``."""
        state = engine.initial_state(self.profile)
        self.history = []
        lines: list[tuple[int, dict[str, Any]]] = []
        for record in records:
            week = state.week
            try:
                step = engine.apply(self.profile, state, record.event)
            except EngineError as refusal:
                event = record.event if isinstance(record.event, Mapping) else {}
                raise _Unopened(record.seq, str(event.get("type", "?")), sentence(refusal)) from refusal
            state = step.state
            self._record_week(state)
            if keep_lines:
                lines += [(record.seq, line) for line in file_in_weeks(step.announcements, week)]
        self.state = state
        return lines

    def _record_week(self, state: Any) -> None:
        """Keep the week's latest League points and resources per club, for the page's charts."""
        if not state.week:
            return
        clubs = {str(c.seat): {"points": c.points, **dict(zip(STATS, c.res))} for c in state.clubs}
        if self.history and self.history[-1]["week"] == state.week:
            self.history[-1]["clubs"] = clubs
        else:
            self.history.append({"week": state.week, "clubs": clubs})

    def _commit(self, event: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
        """Apply one event; write it to the log (committed) before the new state is kept. Raises EngineError."""
        step = engine.apply(self.profile, self.state, event)
        said = file_in_weeks(step.announcements, self.state.week)
        # The final scoring's event marks the game finished in the same transaction (kept, ready to export).
        self.store.append(self.game, dict(event), ends_game=step.state.stage == "over", said=said)
        self.save_problem = None
        self.state = step.state
        self._record_week(step.state)
        self.recent.extend(said)
        return tuple(step.announcements)

    # -- readings and inputs ---------------------------------------------------------------------------

    @_locked
    def reading(self, reading: TagReading | ButtonReading) -> None:
        """Handle one reading from a driver: a tag on or off a pad, a button pressed or held."""
        if isinstance(reading, TagReading):
            seat = self.pad_seat.get(reading.reader)
            if reading.kind == "lift":
                self.input(Lift(reading.reader, seat, reading.uid))
                return
            if self.enrolment is not None:
                # The page waits for a card to enrol: this tap is held for it instead of played.
                known = self.store.card_for(reading.uid, deck=self.deck)
                self.enrolment = {"state": "tapped", "uid": reading.uid, "pad": reading.reader, "card": known}
                self._say(seat, ENROL_TAPPED, reading.uid, self._card_name(known) if known else "")
                self._changed()
                return
            card = self.store.card_for(reading.uid, deck=self.deck)
            if card is None and self.tag_text is not None:
                # A tag enrolled on another table carries its card's id; this table learns it.
                written = self.tag_text(reading.reader)
                if written in self.profile.cards:
                    with contextlib.suppress(StoreError):  # not kept on a full card: it is read again next time
                        self.store.enroll(reading.uid, written, deck=self.deck)
                    card = written
            if seat is not None and card is not None and self._holds(seat, card) and self.seat_claims.tapped(seat):
                # A phone waits for this seat's own page: a card of the club on its own pad unlocks it, unplayed.
                self._say(seat, SEAT_PAGE_UNLOCKED, SEAT_PAGE_UNLOCKED_DETAIL, self.page_address(seat))
                self._changed()
                return
            self.input(Tap(reading.reader, seat, reading.uid, card))
            return
        verdict = self._chord().claims(reading) if self.pressed is not None else None
        if verdict is not None:
            if verdict == "code":
                self._show_owner_code()
            return
        seat = self.button_seat.get(reading.button)
        self.input(Press(reading.button, seat) if reading.kind == "press" else Hold(reading.button, seat))

    def _holds(self, seat: int, card: str) -> bool:
        """Whether ``card`` is one of the club's own at ``seat``: a Director, Staff, Player or its Objective."""
        club = self.state.club(seat) if self.state is not None else None
        if club is None:
            return False
        return (card in club.directors or card == club.objective or any(h.id == card for h in club.players)
                or any(h.id == card for h in club.staff))

    @_locked
    def input(self, table_input: TableInput) -> None:
        """What a table input means now, applied: events to the engine and log, messages to the screens."""
        outcome = self.interpreter.handle(table_input, self._view())
        applied = self._carry_out(outcome, getattr(table_input, "seat", None))
        if outcome.again and applied:
            self._carry_out(self.interpreter.handle(table_input, self._view()), getattr(table_input, "seat", None))

    def waiting_on_time(self) -> bool:
        """Whether a held roll waits for its reroll window to close (only then does time matter)."""
        return self.state is not None and any(p.need == "keep_or_reroll" for p in self.state.pending)

    @_locked
    def tick(self) -> None:
        """Let time pass: close reroll windows that ran out (their rolls are kept)."""
        if not self.waiting_on_time():
            return
        events = self.interpreter.expired(self._view())
        asked = self.interpreter.asked()  # a kept result waiting for the card its decision is for
        if events or asked:
            self._carry_out(Outcome(events=events, messages=asked), None)

    def _carry_out(self, outcome: Outcome, seat: int | None) -> bool:
        """Show the outcome's messages and apply its events (and what follows by itself); False when refused."""
        for target, message in outcome.messages.items():
            self._say(target, message.headline, *message.detail)
            if outcome.refused and target is not None:
                self.kinds[target] = {"refusal"}
        if outcome.undo:
            try:
                self.undo()
            except StoreError as failure:
                self._cannot_save(failure)
            except ValueError:  # nothing to undo: the screens already say so
                pass
            return True
        applied = True
        pending = list(outcome.events)
        while pending:
            event = pending.pop(0)
            if self.state is None:
                self._say(seat, NO_GAME_YET)
                break
            try:
                announcements = self._commit(event)
            except StoreError as failure:  # nothing was recorded: the screens say so instead of asking again
                self._cannot_save(failure)
                applied = False
                break
            except EngineError as refusal:
                shown = screens.refusal_message(refusal.args[0] if refusal.args else str(refusal), event)
                target = event.get("seat", seat)
                self._say(target, shown.headline, *shown.detail)
                if target is not None:
                    self.kinds[target] = {"refusal"}
                applied = False
                break
            self._show(announcements, event)
            pending.extend(self._automatic(announcements))
        self._changed()
        return applied

    def _view(self) -> GameView | None:
        return None if self.state is None else GameView(self.profile, self.state)

    # -- page actions --------------------------------------------------------------------------------

    @_locked
    def page(self, action: TableAction) -> dict[str, Any]:
        """Apply one page action; raise ValueError with a sentence when refused (nothing changes).

        A card that cannot be written raises StoreError (an OSError) with its sentence; the screens say so too.
        """
        try:
            return self._page(action)
        except StoreError as failure:
            self._cannot_save(failure)
            raise

    def _page(self, action: TableAction) -> dict[str, Any]:
        if isinstance(action, EventAction):
            return self._event(action.event())
        if isinstance(action, NewGame):
            result = self._new_game(action)
        elif isinstance(action, Undo):
            result = self.undo()
        elif isinstance(action, EnrolStart):
            result = self._enrol_start()
        elif isinstance(action, EnrolCancel):
            result = self._enrol_cancel()
        else:
            result = self._enrol(action)
        self._changed()
        return result

    def _event(self, event: dict[str, Any]) -> dict[str, Any]:
        """Apply one engine event from the page, then what the table does by itself after it."""
        if self.state is None:
            raise ValueError(NO_GAME_YET)
        announcements = self._commit(event)  # a refusal raises before anything is written
        self._show(announcements, event)
        self._carry_out(Outcome(events=self._automatic(announcements)), None)
        return {"announcements": list(announcements)}

    def _automatic(self, announcements: Iterable[Mapping[str, Any]]) -> tuple[dict[str, Any], ...]:
        """What the table does by itself now: dice nobody rolls by hand, and starting week 1 once setup is done."""
        view = self._view()
        if view is None:
            return ()
        # the First player is named once nothing else is awaited (a module may still wait for the table at setup)
        if view.awaiting and all(e.get("need") == "first_player" for e in view.awaiting):
            first = int(self.store.setting(f"game:{self.game}:first_player") or min(c.seat for c in self.state.clubs))
            return ({"type": "first_player", "seat": first},)
        events = self.interpreter.automatic(view, tuple(announcements))
        for seat, message in self.interpreter.asked().items():  # a tie's new roll waiting for its decision's card
            self._say(seat, message.headline, *message.detail)
        return events

    def _new_game(self, action: NewGame) -> dict[str, Any]:
        events = setup_events(self.profile, action, self.config.modules, dict(self.config.options))
        state = engine.initial_state(self.profile)
        said: list[list[dict[str, Any]]] = []
        for event in events:  # checked in full before anything is written, so a refused setup changes nothing
            step = engine.apply(self.profile, state, event)
            said.append(file_in_weeks(step.announcements, state.week))
            state = step.state
        # The log keeps who played each seat, as the seats named them (the clubs' names are in the setup events).
        players = {club.seat: club.players for club in action.clubs if club.players}
        first = action.first_seat or min(club.seat for club in action.clubs)
        # One transaction: the old game abandoned (a finished one stays finished), the new one and its whole setup.
        self.game = self.store.start_game(
            events, seats=players, profile_source=str(self.config.deck or "demo"),
            settings={"game:{game}:first_player": str(first)}, said=said,
            abandon=self.game if self.game is not None else self.unopened[0] if self.unopened is not None else None).id
        self.unopened = None
        self.state = state
        self.recent.clear()
        self.recent.extend(line for lines in said for line in lines)
        self.history = []
        self._record_week(state)  # the charts start from the first week's numbers as soon as it begins
        self.interpreter.reset()
        self.messages.clear()
        self.kinds.clear()
        self.everyone = self.shared = None
        self._carry_out(Outcome(events=self._automatic(())), None)
        return {"game": self.game}

    @_locked
    def set_aside(self, message: Message) -> None:
        """End the game in play without a result (kept in the log as abandoned): no game runs, every screen says
        ``message`` (``touchline demo`` hands the table to a person so)."""
        if self.game is not None and self.store.game(self.game).status == "playing":
            self.store.finish(self.game, status="abandoned")
        self.game = self.state = None
        self.history = []
        self.recent.clear()
        self.interpreter.reset()
        self.messages.clear()
        self.kinds.clear()
        self.shared = None
        self.everyone = message
        self._changed()

    @_locked
    def undo(self) -> dict[str, Any]:
        """Drop the last event of the log and refold; every screen says what was undone."""
        if self.game is None or not self.store.events(self.game):
            self._say(None, NOTHING_TO_UNDO)
            raise ValueError(NOTHING_TO_UNDO)
        last = self.store.events(self.game)[-1]
        told: list[dict[str, Any]] = []

        def say_undone(undone: list[dict[str, Any]]) -> list[dict[str, Any]]:
            # Written with the undo itself, which marks the lines it takes back undone.
            told.extend(undo_lines(undone, last))
            return told

        dropped = self.store.undo(self.game, said=say_undone)  # reopens a finished game: it may not be over now
        self._refold(self.store.records(self.game))
        self._mark_finished("playing")  # still over (a correction after the final scoring was undone)
        self.interpreter.reset(self._view())
        self.messages.clear()
        taken_back = {i for line in told for i in line.get("undoes", ())}
        for line in self.recent:
            if line.get("id") in taken_back:
                line["undone"] = True
        self.recent.extend(told)
        # Every screen says what was taken back, as everyone at the table may read it: never a secret card.
        what = self.reader().text(str(told[0]["text"])) if told else ""
        self._say(None, UNDONE, what.removeprefix(UNDONE_LINE.format(what="")))
        self._changed()
        return {"undone": dropped}

    def _enrol_start(self) -> dict[str, Any]:
        self.enrolment = {"state": "waiting"}
        self._say(None, ENROL_WAITING)
        return {}

    def _enrol_cancel(self) -> dict[str, Any]:
        self.enrolment = None
        self.everyone = None
        return {}

    def _enrol(self, action: Enrol) -> dict[str, Any]:
        if self.enrolment is None:
            raise ValueError(ENROL_NOT_WAITING)
        uid, card = action.uid, action.card
        if self.enrolment.get("uid") != uid or self.enrolment.get("state") != "tapped":
            raise ValueError(ENROL_NO_TAG)
        if card not in self.profile.cards:
            raise ValueError(UNKNOWN_DECK_CARD.format(card=card))
        self.store.enroll(uid, card, deck=self.deck)  # TagAlreadyEnrolled (a ValueError) names the card the tag already means
        self.enrolment = None
        self._say(None, ENROLLED, f"{uid} = {self._card_name(card)}")
        return {"uid": uid, "card": card}

    def _card_name(self, card: str | None) -> str:
        found = self.profile.cards.get(card) if card else None
        return found.name if found is not None else str(card or "")

    # -- screens --------------------------------------------------------------------------------------

    def _show(self, announcements: Iterable[Mapping[str, Any]], event: Mapping[str, Any]) -> None:
        """Each seat's screen shows what the step did to it; table-wide news goes to the shared screen."""
        by_seat: dict[int | None, list[Mapping[str, Any]]] = {}
        everyone: list[Mapping[str, Any]] = []
        for announcement in announcements:
            by_seat.setdefault(announcement.get("seat"), []).append(announcement)
            if announcement.get("screens") == "all":
                everyone.append(announcement)
        for seat, items in by_seat.items():
            message = screens.message_for(items, self._card_name)
            if seat is None:
                # The shared screen keeps the previous news under the latest (e.g. every Opponent die).
                earlier = (self.shared.headline, *self.shared.detail) if self.shared is not None else ()
                self.shared = Message(message.headline, tuple(dict.fromkeys((*message.detail, *earlier)))[:4])
            else:
                kinds = {a.get("kind") for a in items}
                old = self.messages.get(seat)
                if "production" in kinds and old is not None and self.kinds.get(seat, set()) & {"maintenance", "suspension"}:
                    # A new week starts right after the End of the round: keep what the club paid in view.
                    message = Message(message.headline, (*message.detail, old.headline))
                self.messages[seat] = message
                self.kinds[seat] = kinds
        # a step every seat follows (an auction's bid: the card, the highest bid, whose turn) goes on every screen
        self.everyone = screens.message_for(everyone, self._card_name) if everyone else None

    def _say(self, seat: int | None, headline: str, *detail: str) -> None:
        """Put a message on one seat's screen, or (seat None) on every screen until the next news."""
        message = Message(headline, tuple(d for d in detail if d))
        if seat is None:
            self.everyone = message
            self.messages.clear()
        else:
            if self.everyone is not None:  # the other screens keep what every screen showed (an auction's bid)
                self.shared = self.everyone
                for other in self.screen_seat.values():
                    if other is not None and other != seat:
                        self.messages[other] = self.everyone
            self.messages[seat] = message
            self.kinds.pop(seat, None)
            self.everyone = None

    def _cannot_save(self, failure: StoreError) -> None:
        """A write failed: every screen says the game cannot be saved and what to do; the page gets the sentence."""
        self.save_problem = str(failure)
        self._say(None, CANNOT_SAVE, *(CARD_FULL_DETAIL if isinstance(failure, StoreFull) else READ_ONLY_DETAIL))
        self._changed()

    def _chord(self) -> Chord:
        buttons = self.config.buttons()
        return Chord([b.id for b in buttons if b.role == "undo"], [b.id for b in buttons if b.role == "roll"],
                     self.pressed or (lambda _: False))

    def _show_owner_code(self) -> None:
        """Undo and a roll button held together: a one-time code for the page on the shared screen."""
        message = Message(OWNER_CODE, (spaced(self.owner_code.issue()), *OWNER_CODE_DETAIL))
        if self.config.shared_screen is not None:
            self.everyone = None
            self.shared = message
        else:  # no shared screen: the screen of the seat whose roll button is held
            pressed = self.pressed or (lambda _: False)
            seat = next((b.seat for b in self.config.buttons() if b.role == "roll" and pressed(b.id)), None)
            self._say(seat, message.headline, *message.detail)
        self._changed()

    def _choices_key(self) -> str:
        return f"game:{self.game}:choices"

    def _save_choices(self) -> None:
        """Keep the choices under way in the log's settings, so a restart takes them up again."""
        if self.game is None:
            return
        text = json.dumps(self.interpreter.choices(), sort_keys=True)
        if text != self._saved_choices:
            try:
                self.store.set_setting(self._choices_key(), text)
            except StoreError:  # a full card: kept in memory, written with the next change that fits
                return
            self._saved_choices = text

    def _changed(self) -> None:
        self._save_choices()
        self.version += 1
        for screen_id, screen in self.screens().items():
            if self._last_screens.get(screen_id) != screen:
                self._last_screens[screen_id] = screen
                self.screen_versions[screen_id] = self.screen_versions.get(screen_id, 0) + 1

    @_locked
    def refresh(self) -> None:
        """Take in a change the page made outside the game (a phone waiting for a seat's tap): the screens again."""
        self._changed()

    @_locked
    def waiting_seats(self) -> set[int]:
        """Seats the table waits for now (their button lights up)."""
        if self.state is None:
            return set()
        return {int(e["seat"]) for e in self.state.awaiting if e.get("seat") is not None}

    def enrolled_cards(self) -> set[str]:
        """Cards of the deck that have a tag enrolled."""
        return set(self.store.enrolments(deck=self.deck).values())

    def view(self) -> dict[str, Any] | None:
        """The engine's read-only view of the game, or None before the first game."""
        return None if self.state is None else engine.view(self.profile, self.state)

    @_locked
    def screen(self, screen_id: str, view: Mapping[str, Any] | None = None) -> SeatScreen:
        """What the screen with this id says now (``view``: the game view, when the caller has it already)."""
        seat = self.screen_seat.get(screen_id)
        if view is None:
            view = self.view()
        if seat is None:
            message = self.everyone or screens.shared_message(view, self.shared)
            # seat 0, no seat: what the seats not asked wait for (an auction: the card, whose turn)
            watch = self.interpreter.prompt(0, self._view())
            if watch is not None and watch.headline == message.headline:  # an auction's step: whose turn as well
                message = Message(message.headline, tuple(dict.fromkeys((*message.detail, *watch.detail))))
            return self._named(SeatScreen(screens.where_line(view), "", message.headline, message.detail))
        if self.seat_claims.waiting(seat):
            # A phone waits for this seat's own page: the next tap of one of the club's cards unlocks it.
            return self._named(screens.compose(view, seat, Message(PHONE_WAITING, PHONE_WAITING_DETAIL)))
        message = self.everyone or self.messages.get(seat)
        prompt = self.interpreter.prompt(seat, self._view())
        held_roll = bool(self.kinds.get(seat, set()) & {"roll", "reroll"}) and any(
            e.get("seat") == seat and e.get("need") == "keep_or_reroll" for e in self.state.awaiting)
        if message is None:
            message = prompt
        elif prompt is not None and (prompt.headline == message.headline or held_roll):
            # The roll just made, and what the seat may do with it: the roll stays large, the prompt's lines below
            # (the card it is for, what keeping it gives, how to reroll).
            message = Message(message.headline, tuple(dict.fromkeys((*message.detail, *prompt.detail))))
        elif prompt is not None and prompt.headline != message.headline:
            if "refusal" in self.kinds.get(seat, set()):
                # Why it was refused comes first; what the seat can do instead, after.
                lines = (*message.detail, prompt.headline)
            else:
                # The result stays large; what the seat is asked to do next goes right under it.
                lines = (prompt.headline, *message.detail)
            message = Message(message.headline, tuple(dict.fromkeys(lines)))
        return self._named(screens.compose(view, seat, message, address=self.page_address(seat)))

    def page_address(self, seat: int) -> str:
        """Where a phone opens this seat's own page, short enough for a screen's line: the table's first name in
        the table file, else the machine's own name on the local network (and the port when not 80)."""
        host = self.config.names[0] if self.config.names else f"{socket.gethostname()}.local"
        port = "" if self.config.port == 80 else f":{self.config.port}"
        return f"{host}{port}/seat/{seat}"

    def _named(self, screen: SeatScreen) -> SeatScreen:
        """``screen`` with clubs, cards and dice by their names: the engine's sentences name seats and ids."""
        reader = self.reader()
        return SeatScreen(screen.where, screen.numbers, reader.text(screen.headline),
                          tuple(reader.text(line) for line in screen.detail))

    @_locked
    def screens(self) -> dict[str, SeatScreen]:
        """What every screen of the table says now, by screen id."""
        view = self.view()
        return {screen_id: self.screen(screen_id, view) for screen_id in self.screen_seat}

    def reader(self) -> Reader:
        """Tells the game's log lines with its clubs', cards' and dice's names."""
        clubs = {club.seat: club.name for club in self.state.clubs} if self.state is not None else {}
        if self._reader is None or self._reader[0] is not self.profile or self._reader[1].clubs != clubs:
            self._reader = (self.profile, Reader(self.profile, clubs))  # made again only when the game changes
        return self._reader[1]

    @_locked
    def said(self, viewer: int | str = TABLE_VIEWER, *, before: int | None = None, limit: int = 50) -> dict[str, Any]:
        """A page of the game's whole log as ``viewer`` may read it, newest first: ``lines``, and ``more`` when older
        lines are left (ask again with ``before`` set to the oldest line's id)."""
        if self.game is None:
            return {"lines": [], "more": False}
        lines = self.store.said(self.game, before=before, limit=limit + 1)
        reader = self.reader()
        return {"lines": [reader.line(line, viewer) for line in lines[:limit]], "more": len(lines) > limit}

    def _need(self, need: Mapping[str, Any]) -> Mapping[str, Any]:
        """What the engine waits for, as the page says it: a roll whose result the table holds until a card is tapped
        says so (the engine still waits for the roll, which is sent with that card)."""
        held = self.interpreter.held(need)
        return need if held is None else {**need, "text": held}

    @_locked
    def snapshot(self, viewer: int | str = TABLE_VIEWER) -> dict[str, Any]:
        """Everything the page shows a viewer: the game view, recent announcements, each screen's text."""
        reader = self.reader()
        # A seat's screen faces that seat only; on the page, a line of it naming a card the viewer may not see (an
        # Objective tapped at the Winter Break) is left out.
        secret = engine.secret_cards(self.state, viewer) if self.state is not None else frozenset()
        words = tuple(w for c in secret for w in (c, self._card_name(c)))
        # The engine's view says what the viewer may see: at the table (the default) no Objective and no face-down
        # Opponent card, and secret announcements without the cards they name; a seat sees its own as well.
        game = None if self.state is None else engine.view(self.profile, self.state, viewer)
        if game is not None:
            game["awaiting"] = [reader.need(self._need(need)) for need in game["awaiting"]]
        return {
            "game": game,
            "game_id": self.game,
            "awaiting": [reader.need(self._need(need)) for need in self.state.awaiting] if self.state is not None else [],
            "log": [reader.line(line, viewer) for line in self.recent],
            "history": list(self.history),
            "screens": {
                sid: {"seat": self.screen_seat.get(sid), "version": self.screen_versions.get(sid, 0),
                      "lines": [SECRET_LINE if any(w in line for w in words) else line
                                for line in self.owner_code.hide(screen.lines())]}
                for sid, screen in self._last_screens.items()
            },
            "enrolment": dict(self.enrolment) if self.enrolment is not None else None,
            "problem": self.save_problem or getattr(self.store, "damage", None) or (self.unopened or (0, None))[1],
            "version": self.version,
            # what a new game plays unless the page chooses otherwise: the table file's [game]
            "new_game": {"modules": list(self.config.modules), "options": dict(self.config.options)},
        }
