"""The running table: drivers' readings → what they mean → the engine → the log → the screens and the page.

Two layers:

* :class:`Session` is the game at the table, synchronous, behind one lock: it maps readings to table
  inputs (pad → seat, tag → card), asks :mod:`device.inputs` what they mean, offers the events to the
  engine, writes each accepted event to the store (committed before anything is shown), and keeps what
  each screen says.  Tests and ``touchline replay`` drive it directly.
* :class:`RunningTable` wraps a session for the web app (``web.interface.Table``): the drivers' threads
  hand readings to one asyncio loop, which applies them one at a time, redraws the displays and wakes
  the page's subscribers.  :func:`run_table` builds everything from the table file and serves the page.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import signal
import socket
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Protocol

import engine
from device import screens
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
from device.screens import Message, SeatScreen
from device.table_file import TableConfig
from drivers.base import ButtonReading, HealthReading, TagReading
from drivers.dice import Dice, Die
from engine.cards import STATS
from engine.errors import EngineError
from engine.views import TABLE as TABLE_VIEWER

log = logging.getLogger(__name__)

RECENT = 30
"""How many announcements the page's snapshot keeps."""
ENROL_WAITING = "Tap the card to enrol"
ENROL_TAPPED = "Tag read: pick its card on the page"
ENROLLED = "Enrolled"
ENROL_NO_TAG = "No card has been tapped for enrolment: start enrolment, then tap a card on any pad."
ENROL_NOT_WAITING = 'The table is not waiting for a card to enrol: press "Enrol a card" first.'
UNKNOWN_DECK_CARD = 'There is no card "{card}" in the deck: pick one from the deck list.'
NO_GAME_YET = "There is no game yet: start one on the page."


_PICK_WORDS = {"chosen_player": "footballer", "chosen_youngster": "Youngster", "chosen_staff": "Staff card",
               "chosen_card": "card"}
"""An effect's chosen target → what the seat is asked to tap (``device.inputs.PICK_KINDS``)."""
_MATCH_TIMINGS = ("before_match", "during_match", "after_match")


class _GameView:
    """What :class:`device.inputs.Interpreter` needs to know about the game, read from engine state."""

    def __init__(self, profile: Any, state: Any) -> None:
        self.profile = profile
        self.state = state
        self.awaiting = tuple(state.awaiting)

    def kind(self, card: str) -> str | None:
        """The card's kind, or None when the deck has no such card."""
        found = self.profile.cards.get(card)
        return found.kind if found is not None else None

    def name(self, card: str) -> str:
        """The card's printed name (its id when unknown)."""
        found = self.profile.cards.get(card)
        return found.name if found is not None else card

    def cost(self, card: str) -> int | None:
        """What hiring the card costs, when it has a cost."""
        found = self.profile.cards.get(card)
        # Footballers show their untrained side while they are for hire; Staff print one cost.
        side = getattr(found, "untrained", None)
        cost = getattr(side if side is not None else found, "cost", None)
        return cost if isinstance(cost, int) else None

    def owns(self, seat: int, card: str) -> bool:
        """Whether the seat's club holds the card."""
        club = self.state.club(seat)
        return club is not None and club.held(card) is not None

    def fanbase(self, seat: int) -> int:
        """The Fanbase markers the seat's club holds."""
        club = self.state.club(seat)
        return club.res[1] if club is not None else 0

    def picks(self, event: Mapping[str, Any]) -> tuple[str, ...]:
        """The cards the club chooses for the effects an event's card brings (a hire, a contract, a card's action or
        match ability), one word each."""
        card = self.profile.cards.get(str(event.get("card", "")))
        if card is None:
            return ()
        kind = event.get("type")
        if kind == "hire_staff":
            abilities = [a for a in getattr(card, "abilities", ()) if a.timing == "immediate"]
        elif kind == "sponsor" and hasattr(card, "contract"):
            abilities = [a for a in card.contract(str(event.get("contract"))) if a.timing == "immediate"]
        elif kind == "use_card":
            abilities = self._usable(card, event.get("seat"))[:1]  # the engine uses the first that may be used now
        else:
            return ()
        return tuple(_PICK_WORDS[str(effect.get(key))] for ability in abilities for effect in ability.effects
                     for key in ("target", "to") if effect.get(key) in _PICK_WORDS)

    def _usable(self, card: Any, seat: Any) -> list[Any]:
        """A card's abilities a ``use_card`` may use now, in the engine's order: Tuesday-Thursday its actions;
        on Matchday its match abilities (after the result only those for after the match), a footballer's from the
        side it shows."""
        abilities = tuple(getattr(card, "abilities", ()))
        if self.state.stage != "matchday":
            return [a for a in abilities if a.timing == "action"]
        club = self.state.club(seat) if isinstance(seat, int) else None
        held = club.held(card.id) if club is not None else None
        side = getattr(card, "trained" if held is not None and held.trained else "untrained", None)
        if side is not None:
            abilities = tuple(side.abilities)
        after = club is not None and club.result is not None
        return [a for a in abilities if a.timing in _MATCH_TIMINGS and (a.timing == "after_match") == after]

    def contracts(self, seat: int) -> tuple[str, ...]:
        """The Sponsor contract kinds the seat's club may still take (a megaphone always)."""
        club = self.state.club(seat)
        board = self.profile.board
        slots = dict(board.sponsor_slots)
        adboards = slots.get("adboard", 0) + sum(board.infrastructure_kind(k).adboard_slots for k in club.infrastructure)
        kinds = ["megaphone"]
        if len(club.adboards) < adboards:
            kinds.append("adboard")
        if club.shirt is None and slots.get("shirt", 0) > 0:
            kinds.append("shirt")
        return tuple(kinds)

    def opponent(self, seat: int) -> str | None:
        """The Opponent card the seat's club plays this week."""
        club = self.state.club(seat)
        week = self.state.week
        if club is None or not 1 <= week <= len(club.opponents):
            return None
        return str(club.opponents[week - 1])


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
        self.version = 0
        self._saved_choices = "{}"
        self.tag_text: Callable[[str], str | None] | None = None
        """Reads the card id written on the tag lying on a pad (set from the hardware), for unknown tags."""
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
        if self.game is None:
            self.state = None
            self.history = []
        else:
            self._refold(self.store.events(self.game))
            self._mark_finished(record.status)
        self.messages.clear()
        self.everyone = self.shared = None
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

    def _refold(self, events: Iterable[Mapping[str, Any]]) -> None:
        """Fold the log into the state, noting each week's numbers on the way (the page's charts)."""
        state = engine.initial_state(self.profile)
        self.history = []
        for event in events:
            state = engine.apply(self.profile, state, event).state
            self._record_week(state)
        self.state = state

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
        # The final scoring's event marks the game finished in the same transaction (kept, ready to export).
        self.store.append(self.game, dict(event), ends_game=step.state.stage == "over")
        self.state = step.state
        self._record_week(step.state)
        for announcement in step.announcements:
            self.recent.append({**announcement, "week": step.state.week})
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
                    self.store.enroll(reading.uid, written, deck=self.deck)
                    card = written
            self.input(Tap(reading.reader, seat, reading.uid, card))
            return
        seat = self.button_seat.get(reading.button)
        self.input(Press(reading.button, seat) if reading.kind == "press" else Hold(reading.button, seat))

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
        if events:
            self._carry_out(Outcome(events=events), None)

    def _carry_out(self, outcome: Outcome, seat: int | None) -> bool:
        """Show the outcome's messages and apply its events (and what follows by itself); False when refused."""
        for target, message in outcome.messages.items():
            self._say(target, message.headline, *message.detail)
        if outcome.undo:
            with contextlib.suppress(ValueError):  # nothing to undo: the screens already say so
                self.undo()
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
            except EngineError as refusal:
                shown = screens.refusal_message(refusal.args[0] if refusal.args else str(refusal))
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

    def _view(self) -> _GameView | None:
        return None if self.state is None else _GameView(self.profile, self.state)

    # -- page actions --------------------------------------------------------------------------------

    @_locked
    def page(self, action: Mapping[str, Any]) -> dict[str, Any]:
        """Apply one page action; raise ValueError with a sentence when refused (nothing changes)."""
        kind = action.get("type")
        handler = {
            "new_game": self._new_game,
            "undo": lambda a: self.undo(),
            "enrol_start": self._enrol_start,
            "enrol_cancel": self._enrol_cancel,
            "enrol": self._enrol,
        }.get(str(kind))
        if handler is not None:
            result = handler(action)
            self._changed()
            return result or {}
        if self.state is None:
            raise ValueError(NO_GAME_YET)
        events = self._page_events(action)
        # Check the whole action against the rules before writing any of it, so a refusal changes nothing.
        state = self.state
        for event in events:
            state = engine.apply(self.profile, state, event).state
        announcements: tuple[dict[str, Any], ...] = ()
        for event in events:
            step = self._commit(event)
            self._show(step, event)
            announcements += step
        self._carry_out(Outcome(events=self._automatic(announcements)), None)
        return {"announcements": list(announcements)}

    def _page_events(self, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The engine events a page action stands for."""
        kind = action.get("type")
        if kind == "lineup":
            event: dict[str, Any] = {
                "type": "lineup",
                "seat": action.get("seat"),
                "players": [
                    {"zone": p.get("zone"), "jersey": p.get("number", p.get("jersey")), "card": p.get("card"), "style": p.get("style")}
                    for p in action.get("placements", action.get("players", ()))
                ],
                "stands": int(action.get("stands", 0) or 0),
            }
            if action.get("assign"):
                event["assign"] = action["assign"]
            events = [event]
            if action.get("tactic"):
                events.append({"type": "tactic_played", "seat": action.get("seat"), "card": action["tactic"]})
            return events
        if kind == "correction":
            seat = action.get("seat")
            what = str(action.get("field", ""))
            delta = int(action.get("value", 0)) - self._current(seat, what)
            return [{"type": "adjust", "seat": seat, "what": what, "delta": delta, "reason": str(action.get("reason", "correction"))}]
        return [dict(action)]

    def _current(self, seat: Any, what: str) -> int:
        """The tracked number a correction sets, as it is now (so the event can carry the change)."""
        club = self.state.club(seat) if isinstance(seat, int) else None
        if club is None:
            raise ValueError(f"There is no club at Seat {seat}.")
        if what in STATS:
            return int(club.res[STATS.index(what)])
        if what.startswith("stat:") and what[5:] in STATS:
            return int(club.stats[STATS.index(what[5:])])
        value = getattr(club, what, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise ValueError(f'A correction can set a resource, "stat:<name>", vp_tokens, points or office, not "{what}".')

    def _automatic(self, announcements: Iterable[Mapping[str, Any]]) -> tuple[dict[str, Any], ...]:
        """What the table does by itself now: dice nobody rolls by hand, and starting week 1 once setup is done."""
        view = self._view()
        if view is None:
            return ()
        if any(e.get("need") == "first_player" for e in view.awaiting):
            first = int(self.store.setting(f"game:{self.game}:first_player") or min(c.seat for c in self.state.clubs))
            return ({"type": "first_player", "seat": first},)
        return self.interpreter.automatic(view, tuple(announcements))

    def _new_game(self, action: Mapping[str, Any]) -> dict[str, Any]:
        # The page may send the engine's setup events itself (it deals what the form left out).
        events = [dict(e) for e in action["events"]] if action.get("events") else setup_events(action, self.profile)
        state = engine.initial_state(self.profile)
        for event in events:  # checked in full before anything is written, so a refused setup changes nothing
            state = engine.apply(self.profile, state, event).state
        seats = {int(c["seat"]): str(c.get("name", "")) for c in action.get("clubs", ())}
        if self.game is not None and self.store.game(self.game).status == "playing":
            self.store.finish(self.game, status="abandoned")  # a finished game stays finished
        self.game = self.store.new_game(seats=seats, profile_source=str(self.config.deck or "demo")).id
        first = action.get("first_seat") or action.get("first_player") or min(seats, default=1)
        self.store.set_setting(f"game:{self.game}:first_player", str(first))
        for event in events:
            self.store.append(self.game, event)
        self.state = state
        self.history = []
        self.interpreter.reset()
        self.messages.clear()
        self.kinds.clear()
        self.everyone = self.shared = None
        self._carry_out(Outcome(events=self._automatic(())), None)
        return {"game": self.game}

    @_locked
    def undo(self) -> dict[str, Any]:
        """Drop the last event of the log and refold; every screen says what was undone."""
        if self.game is None or not self.store.events(self.game):
            self._say(None, NOTHING_TO_UNDO)
            raise ValueError(NOTHING_TO_UNDO)
        dropped = self.store.undo(self.game)  # reopens a finished game: without its last event it may not be over
        self._refold(self.store.events(self.game))
        self._mark_finished("playing")  # still over (a correction after the final scoring was undone)
        self.interpreter.reset()
        self.messages.clear()
        self._say(None, UNDONE, describe(dropped, self.profile))
        self._changed()
        return {"undone": dropped}

    def _enrol_start(self, action: Mapping[str, Any]) -> dict[str, Any]:
        self.enrolment = {"state": "waiting"}
        self._say(None, ENROL_WAITING)
        return {}

    def _enrol_cancel(self, action: Mapping[str, Any]) -> dict[str, Any]:
        self.enrolment = None
        self.everyone = None
        return {}

    def _enrol(self, action: Mapping[str, Any]) -> dict[str, Any]:
        if self.enrolment is None:
            raise ValueError(ENROL_NOT_WAITING)
        uid = str(action.get("uid") or self.enrolment.get("uid") or "")
        if not uid or self.enrolment.get("uid") not in (None, uid) or self.enrolment.get("state") != "tapped":
            raise ValueError(ENROL_NO_TAG)
        card = str(action.get("card", ""))
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
        for announcement in announcements:
            by_seat.setdefault(announcement.get("seat"), []).append(announcement)
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
        self.everyone = None

    def _say(self, seat: int | None, headline: str, *detail: str) -> None:
        """Put a message on one seat's screen, or (seat None) on every screen until the next news."""
        message = Message(headline, tuple(d for d in detail if d))
        if seat is None:
            self.everyone = message
            self.messages.clear()
        else:
            self.messages[seat] = message
            self.kinds.pop(seat, None)
            self.everyone = None

    def _choices_key(self) -> str:
        return f"game:{self.game}:choices"

    def _save_choices(self) -> None:
        """Keep the choices under way in the log's settings, so a restart takes them up again."""
        if self.game is None:
            return
        text = json.dumps(self.interpreter.choices(), sort_keys=True)
        if text != self._saved_choices:
            self.store.set_setting(self._choices_key(), text)
            self._saved_choices = text

    def _changed(self) -> None:
        self._save_choices()
        self.version += 1
        for screen_id, screen in self.screens().items():
            if self._last_screens.get(screen_id) != screen:
                self._last_screens[screen_id] = screen
                self.screen_versions[screen_id] = self.screen_versions.get(screen_id, 0) + 1

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
            message = self.everyone or self.shared or _shared_message(view)
            return SeatScreen(screens.where_line(view), "", message.headline, message.detail)
        message = self.everyone or self.messages.get(seat)
        prompt = self.interpreter.prompt(seat, self._view())
        if message is None:
            message = prompt
        elif prompt is not None and prompt.headline != message.headline:
            if "refusal" in self.kinds.get(seat, set()):
                # Why it was refused comes first; what the seat can do instead, after.
                message = Message(message.headline, (*message.detail, prompt.headline))
            else:
                # The result stays large; what the seat is asked to do next goes right under it.
                message = Message(message.headline, (prompt.headline, *message.detail))
        return screens.compose(view, seat, message)

    @_locked
    def screens(self) -> dict[str, SeatScreen]:
        """What every screen of the table says now, by screen id."""
        view = self.view()
        return {screen_id: self.screen(screen_id, view) for screen_id in self.screen_seat}

    @_locked
    def snapshot(self) -> dict[str, Any]:
        """Everything the page shows: the game view, recent announcements, each screen's text."""
        # The page is open to anyone at the table: it gets the table's view, with Objectives and face-down
        # Opponent cards hidden, and secret announcements without the cards they name.
        return {
            "game": None if self.state is None else engine.view(self.profile, self.state, TABLE_VIEWER),
            "game_id": self.game,
            "awaiting": list(self.state.awaiting) if self.state is not None else [],
            "log": [_public(a) for a in self.recent],
            "history": list(self.history),
            "screens": {
                sid: {"seat": self.screen_seat.get(sid), "version": self.screen_versions.get(sid, 0), "lines": screen.lines()}
                for sid, screen in self._last_screens.items()
            },
            "enrolment": dict(self.enrolment) if self.enrolment is not None else None,
            "version": self.version,
        }


def _public(announcement: Mapping[str, Any]) -> Mapping[str, Any]:
    """An announcement as everyone may see it: a secret one keeps its sentence but not the cards it names."""
    if not announcement.get("secret"):
        return announcement
    return {k: v for k, v in announcement.items() if k not in ("card", "cards")}


def setup_events(action: Mapping[str, Any], profile: Any) -> list[dict[str, Any]]:
    """The engine's setup events for the page's new game: clubs, and whatever cards the page already names.

    What the page leaves out (Directors, starting footballers, Opponents, Objective, Tactic) is tapped on
    each seat's pad afterwards, as the table asks for it.
    """
    events: list[dict[str, Any]] = []
    clubs = sorted(action.get("clubs", ()), key=lambda c: int(c.get("seat", 0)))
    if not clubs:
        raise ValueError("A new game needs at least one club.")
    for club in clubs:
        events.append({"type": "club", "seat": int(club["seat"]), "name": str(club.get("name") or f"Club {club['seat']}")})
    for club in clubs:
        seat = int(club["seat"])
        directors = club.get("directors") or ([club["director"]] if club.get("director") else [])
        if len(directors) == profile.board.setup.directors_kept:
            events.append({"type": "directors", "seat": seat, "cards": list(directors)})
        if club.get("veteran") and club.get("youngster"):
            events.append({"type": "starting_players", "seat": seat, "veteran": club["veteran"], "youngster": club["youngster"]})
        if club.get("opponents"):
            events.append({"type": "opponents", "seat": seat, "cards": list(club["opponents"])})
        objectives = club.get("objectives") or ([club["objective"]] if club.get("objective") else [])
        # (the page's form names one kept Objective; a list means the first is kept)
        if objectives:
            events.append({"type": "objective", "seat": seat, "card": objectives[0]})
        if club.get("tactic"):
            events.append({"type": "tactic", "seat": seat, "card": club["tactic"]})
    return events


def deck_key(config: TableConfig) -> str:
    """The name enrolments are kept under: the owner's deck folder, or "demo" for the shipped deck."""
    return str(config.deck) if config.deck else "demo"


def _shared_message(view: Mapping[str, Any] | None) -> Message:
    """The shared screen when there is no news: the top of the League table."""
    if view is None:
        return Message("Touchline", (screens.NO_GAME_DETAIL,))
    rows = [f"{r['position']}. {r['name']} {r['points']}" for r in view.get("league", ())[:4]]
    return Message("League table", tuple(rows))


def describe(event: Mapping[str, Any] | None, profile: Any) -> str:
    """An event in a few words, for the screen that says what was undone."""
    if not event:
        return ""
    words = str(event.get("type", "event")).replace("_", " ")
    seat = event.get("seat")
    card = event.get("card")
    parts = [words.capitalize()]
    if card:
        found = profile.cards.get(card)
        parts.append(found.name if found is not None else str(card))
    if "value" in event:
        parts.append(str(event["value"]))
    if seat:
        parts.append(f"(Seat {seat})")
    return " ".join(parts)


# --- the running table: threads → one asyncio loop → session → displays and page ------------------------------


class Hardware(Protocol):
    """The table's drivers as the runtime uses them (real from the table file, or simulated)."""

    sim: Any
    """The simulated hardware facade (``web.interface.SimulatedHardware``), or None on a real table."""

    def start(self, emit: Callable[[Any], None]) -> None:
        """Start the readers' and buttons' threads; they call ``emit(reading)`` from their threads."""

    def stop(self) -> None:
        """Stop the threads and release the hardware."""

    def show(self, screen_id: str, screen: SeatScreen) -> None:
        """Draw what a screen says on its display."""

    def lights(self, lit: Iterable[int]) -> None:
        """Light the buttons of these seats, the others off."""


DEFAULT_READER_RST = 25
"""The reset GPIO of a reader whose table file names none (the wiring the README shows)."""


class TableHardware:
    """The drivers a table file describes: readers (SPI or on a hub), buttons, screens, on one backend."""

    sim: Any = None

    def __init__(self, config: TableConfig, *, backend: str, clock: Callable[[], float] | None = None,
                 threaded: bool = True, rig: Any = None, displays: Any = None) -> None:
        from drivers.displays import Display

        self.config = config
        self.backend = backend
        self.clock = clock
        self.threaded = threaded
        self.rig = rig
        self._emit: Callable[[Any], None] | None = None
        self.readers: dict[str, Any] = {}
        self.hubs: dict[str, Any] = {}
        self.scanner: Any = None
        self.buttons: Any = None
        self.displays: dict[str, Display] = {}
        for s in config.screens():
            options: dict[str, Any] = {"backend": backend, "on_health": self._health, "simulation": displays}
            if s.interface == "spi":
                options.update(bus=s.spi_bus or 0, spi_device=s.spi_device or 0, dc_pin=s.dc_pin or 24,
                               rst_pin=s.rst_pin or DEFAULT_READER_RST)
            else:
                options.update(bus=s.i2c_bus, address=s.address, mux_address=s.mux_address, mux_channel=s.mux_channel)
            display = Display(s.id, kind=s.kind, interface=s.interface, **options)  # type: ignore[arg-type]
            display.open()  # a panel that does not answer is reported and retried, never fatal
            self.displays[s.id] = display

    def _health(self, reading: Any) -> None:
        # Before start() the display driver's own log line is all there is to say.
        if self._emit is not None:
            self._emit(reading)

    def start(self, emit: Callable[[Any], None]) -> None:
        """Open the readers and buttons and start their threads; readings go to ``emit`` from those threads."""
        from drivers.buttons import Buttons
        from drivers.hub import open_hub
        from drivers.rfid import Scanner, open_reader

        self._emit = emit
        spi = [p for p in self.config.pads() if p.hub is None]
        for pad in spi:
            extra = {"rig": self.rig} if self.rig is not None else {}
            self.readers[pad.id] = open_reader(pad.id, int(pad.bus or 0), int(pad.device or 0),
                                               pad.rst_pin or DEFAULT_READER_RST, self.backend, **extra)
        self.scanner = Scanner(list(self.readers.values()), emit)
        if self.threaded:
            self.scanner.start()
        for hub in self.config.hubs:
            names = {int(p.reader or 0): p.id for p in self.config.pads() if p.hub == hub.name}
            self.hubs[hub.name] = open_hub(emit, serial_number=hub.serial, port=hub.port, name=hub.name, readers=hub.readers,
                                           on_health=emit, reader_names=names, baudrate=hub.baud, backend=self.backend)
            if self.threaded:
                self.hubs[hub.name].start()
        options: dict[str, Any] = {"backend": self.backend, "threaded": self.threaded}
        if self.clock is not None:
            options["clock"] = self.clock
        self.buttons = Buttons(emit, **options)
        for button in self.config.buttons():
            self.buttons.add(button.id, button.gpio, hold_time=button.hold_seconds, led_pin=button.led_gpio)

    def stop(self) -> None:
        """Stop the threads and release every device."""
        if self.scanner is not None:
            self.scanner.stop()
        for reader in self.readers.values():
            reader.close()
        for hub in self.hubs.values():
            hub.close()
        if self.buttons is not None:
            self.buttons.close()
        for display in self.displays.values():
            display.close()
        self.readers, self.hubs, self.scanner, self.buttons = {}, {}, None, None

    def card_id_on(self, pad: str) -> str | None:
        """The card id written on the MIFARE Classic tag lying on a pad (by ``touchline enroll``), or None."""
        from drivers.errors import DriverError

        reader = self.readers.get(pad)
        if reader is None:
            return None
        try:
            return str(reader.read_card_id()[1])
        except (DriverError, OSError, ValueError):  # not a Classic card, no id written, or the card left
            return None

    def write_card_id(self, pad: str, card_id: str) -> None:
        """Write a card id onto the MIFARE Classic tag lying on a pad (ValueError/OSError when it cannot)."""
        reader = self.readers.get(pad)
        if reader is None:
            raise NotImplementedError(f"Pad {pad} is read through a hub, which cannot write tags.")
        reader.write_card_id(card_id)

    def lights(self, lit: Iterable[int]) -> None:
        """Light the buttons of the seats the table waits for (a press, a hold or a tap), the others off."""
        if self.buttons is None:
            return
        wanted = set(lit)
        for button in self.config.buttons():
            if button.led_gpio is None or button.seat is None:
                continue
            on = button.seat in wanted
            if self.buttons.led_is_lit(button.id) != on:
                self.buttons.set_led(button.id, "on" if on else "off")

    def show(self, screen_id: str, screen: SeatScreen) -> None:
        """Draw what a screen says on its display (rendered with the bundled font, sent through luma)."""
        display = self.displays.get(screen_id)
        if display is not None:
            display.show(screens.render(screen))


TICK_SECONDS = 0.25
"""How often reroll windows are checked for expiry."""


class RunningTable:
    """The table as the web app sees it (``web.interface.Table``): one loop applies every input in turn."""

    def __init__(self, session: Session, hardware: Hardware, *, pin: str) -> None:
        self.session = session
        self.hardware = hardware
        self.pin = pin
        self._queue: asyncio.Queue[Any] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock: asyncio.Lock | None = None
        self._changed: asyncio.Condition | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self._shown: dict[str, SeatScreen] = {}
        self._drawing = threading.Lock()
        self._drawn: dict[str, int] = {}
        """How many frames each display has been sent: the page fetches a frame again when it grows."""
        self.processed = 0
        """Readings handled so far (tests and the simulated table wait on it)."""

    @property
    def sim(self) -> Any:
        """The simulated hardware, or None on a real table."""
        return self.hardware.sim

    @property
    def profile(self) -> Any:
        """The deck and board profile the table plays with."""
        return self.session.profile

    # -- life cycle -----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the drivers' threads and the loop's tasks; draw every screen once."""
        self._loop = asyncio.get_running_loop()
        self._queue = asyncio.Queue()
        self._lock = asyncio.Lock()
        self._changed = asyncio.Condition()
        self.redraw()
        self.hardware.start(self._emit)
        self._tasks = [asyncio.create_task(self._consume()), asyncio.create_task(self._tick())]

    async def stop(self) -> None:
        """Stop the tasks and the drivers."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        await asyncio.to_thread(self.hardware.stop)

    def _emit(self, reading: Any) -> None:
        """Called from a driver's thread: hand the reading to the loop."""
        if self._loop is not None and self._queue is not None:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, reading)

    async def _consume(self) -> None:
        assert self._queue is not None and self._lock is not None
        while True:
            reading = await self._queue.get()
            try:
                if isinstance(reading, HealthReading):
                    (log.info if reading.online else log.warning)("%s: %s", reading.device, reading.detail)
                else:
                    async with self._lock:
                        # SQLite's synced commit blocks; keep it off the loop.
                        await asyncio.to_thread(self.session.reading, reading)
                    await self._after_change()
            except Exception:  # one bad reading must not stop the table
                log.exception("reading %r could not be handled", reading)
            finally:
                self.processed += 1
                self._queue.task_done()

    async def _tick(self) -> None:
        assert self._lock is not None
        while True:
            await asyncio.sleep(TICK_SECONDS)
            if not self.session.waiting_on_time():
                continue  # idle: nothing to do, not even a thread hop
            version = self.session.version
            async with self._lock:
                await asyncio.to_thread(self.session.tick)
            if self.session.version != version:
                await self._after_change()

    async def idle(self) -> None:
        """Wait until every reading handed in so far has been handled."""
        if self._queue is not None:
            await self._queue.join()

    async def _after_change(self) -> None:
        await asyncio.to_thread(self.redraw)
        assert self._changed is not None
        async with self._changed:
            self._changed.notify_all()

    def redraw(self) -> None:
        """Draw the screens whose text changed (one redraw at a time: two changes may finish together)."""
        with self._drawing:
            for screen_id, screen in self.session.screens().items():
                if self._shown.get(screen_id) != screen:
                    self.hardware.show(screen_id, screen)
                    self._shown[screen_id] = screen
                    self._drawn[screen_id] = self._drawn.get(screen_id, 0) + 1
            self.hardware.lights(self.session.waiting_seats())

    # -- web.interface.Table -------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """Everything the page shows, JSON-safe (a screen's version counts the frames its display was sent)."""
        snapshot = self.session.snapshot()
        for screen_id, screen in snapshot["screens"].items():
            screen["version"] = self._drawn.get(screen_id, 0)
        return {**snapshot, "simulation": self.sim is not None}

    async def subscribe(self) -> AsyncIterator[dict[str, Any]]:
        """Yield the snapshot now and again each time anything changes at the table."""
        assert self._changed is not None
        version = self.session.version
        yield self.snapshot()
        while True:
            async with self._changed:
                await self._changed.wait_for(lambda: self.session.version != version)
            version = self.session.version
            yield self.snapshot()

    async def submit(self, action: dict[str, Any]) -> dict[str, Any]:
        """Apply one page action; ValueError with a sentence when refused (nothing changes)."""
        assert self._lock is not None
        async with self._lock:
            result = await asyncio.to_thread(self.session.page, action)
        await self._after_change()
        return result

    def deck(self) -> list[dict[str, Any]]:
        """Every card of the loaded deck: id, name and kind."""
        enrolled = self.session.enrolled_cards()
        return [
            {"id": card.id, "name": card.name, "kind": card.kind, "enrolled": card.id in enrolled}
            for card in self.session.profile.cards.values()
        ]


# --- running it ------------------------------------------------------------------------------------------------

READY_TIMEOUT = 10.0
"""Seconds to wait for the web server to listen before giving up."""
PORT_UNAVAILABLE = (
    "The page cannot listen on {host}:{port} ({reason}). Another program may use that port: stop it, or start "
    "the table with --port and another number."
)
STARTED = "Touchline is running: the page is on http://{host}:{port}/ (PIN {pin})."


def build_hardware(config: TableConfig, *, sim: bool) -> Hardware:
    """The table's drivers: simulated ones (``--sim``, or a table file with backend = "sim"), else real ones."""
    from device.sim import SimHardware

    if sim or config.backend == "sim":
        return SimHardware(config)
    return TableHardware(config, backend="real")


def build_table(config: TableConfig, *, sim: bool, db_path: Path, dice: Dice | None = None) -> RunningTable:
    """The running table for a table file: store, dice, drivers and the game session, resumed from the log."""
    from device.store import open_store
    from drivers.dice import SystemDice

    store = open_store(db_path)
    hardware = build_hardware(config, sim=sim)
    session = Session(config, store, dice or SystemDice())
    session.tag_text = getattr(hardware, "card_id_on", None)
    if hardware.sim is not None:
        hardware.sim.attach(session)
    return RunningTable(session, hardware, pin=store.table_pin())


class _Notifier:
    """systemd's sd_notify (READY=1 and the watchdog); does nothing when not run by systemd."""

    def __init__(self) -> None:
        import sdnotify

        self._notifier = sdnotify.SystemdNotifier()
        usec = int(os.environ.get("WATCHDOG_USEC", "0") or 0)
        self.watchdog_seconds = usec / 1_000_000 / 2 if usec else 0.0

    def notify(self, message: str) -> None:
        self._notifier.notify(message)


async def serve(table: RunningTable, *, host: str, port: int) -> int:
    """Start the table, serve the page with uvicorn in this loop, tell systemd when ready; return the exit code."""
    import uvicorn

    from web.app import create_app

    notifier = _Notifier()
    try:
        listening = _listen(host, port)
    except OSError as exc:
        log.error(PORT_UNAVAILABLE.format(host=host, port=port, reason=exc.strerror or exc))
        return 2
    try:
        await table.start()
    except BaseException:
        listening.close()
        await table.stop()
        raise
    server = _make_server(uvicorn.Config(create_app(table), host=host, port=port, log_level="warning", lifespan="on"))
    serving = asyncio.create_task(server.serve(sockets=[listening]))
    deadline = time.monotonic() + READY_TIMEOUT
    while not server.started and not serving.done() and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    if not server.started:
        server.should_exit = True
        with contextlib.suppress(BaseException):
            await serving
        await table.stop()
        log.error("the web server did not start on %s:%d", host, port)
        return 1
    notifier.notify("READY=1")
    notifier.notify(f"STATUS=Serving on http://{host}:{port}/")
    log.warning(STARTED.format(host=host, port=port, pin=table.pin))
    watchdog = asyncio.create_task(_watchdog(notifier)) if notifier.watchdog_seconds else None
    try:
        await serving
    finally:
        notifier.notify("STOPPING=1")
        if watchdog is not None:
            watchdog.cancel()
        await table.stop()
    return 0


def _server_class() -> type:
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn's server, except that SIGTERM ends ``serve()`` without killing the process afterwards.

        uvicorn re-raises the signal once it has shut down; the table still has to stop its drivers and
        close its log, and systemd should see a clean exit.
        """

        def handle_exit(self, sig: int, frame: Any) -> None:
            if self.should_exit and sig == signal.SIGINT:
                self.force_exit = True
            else:
                self.should_exit = True

    return Server


def _make_server(config: Any) -> Any:
    """A uvicorn server that leaves the process alive after a SIGTERM (see ``_server_class``)."""
    return _server_class()(config)


def _listen(host: str, port: int) -> socket.socket:
    """Bind the page's listening socket ourselves, so a busy port is a clear message rather than uvicorn's exit."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


async def _watchdog(notifier: _Notifier) -> None:
    """Tell systemd the loop is alive, twice per watchdog period (a hung loop stops telling it)."""
    while True:
        notifier.notify("WATCHDOG=1")
        await asyncio.sleep(notifier.watchdog_seconds)


def run_table(config: TableConfig, *, sim: bool, host: str, port: int, db_path: Path) -> int:
    """Run the table until stopped: drivers, game, screens and the web page; return the process exit code."""
    from drivers.errors import DriverError

    try:
        table = build_table(config, sim=sim, db_path=db_path)
    except DriverError as exc:
        log.error("%s", exc)
        return 1
    try:
        return asyncio.run(serve(table, host=host, port=port))
    except KeyboardInterrupt:
        return 0
    except DriverError as exc:  # the hardware the table file names is not there, or cannot be opened
        log.error("%s", exc)
        return 1
    finally:
        table.session.store.close()
