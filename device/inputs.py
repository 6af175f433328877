"""What a tap and a press mean: table inputs plus what the engine awaits, turned into events or a message.

The meaning of an input follows the stage of the week and the kind of card, the way the game does.  The
engine says what it waits for (``state.awaiting``); this module decides what a card on seat 2's pad or a
press of seat 2's button means *now*, rolls the dice when a press asks for a roll, and keeps the little
that lives between two inputs: a hire waiting for its confirming press, the Sponsor contract kind being
stepped through, the few seconds in which a second press rerolls for 1 Fanbase.

Nothing here changes the game: it returns events for the runtime to offer the engine, and messages for
the seats' screens.  The clock and the dice are injected so tests drive both.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from device.screens import Message
from drivers.dice import D6, D10, Die, Dice

UNKNOWN_CARD = "Unknown card — enrol it on the page"
NOT_NOW = "Not now"
NOTHING_TO_ROLL = "Nothing to roll now"
NOTHING_TO_UNDO = "Nothing to undo"
UNDONE = "Undone"
CANCELLED = "Cancelled"
NO_GAME = "No game yet — start one on the page"
PRESS_TO_CONFIRM = "Press: confirm · Lift: cancel"
PRESS_STEPS_HOLD_SIGNS = "Press: next kind · Hold: sign"
PRESS_STEPS_HOLD_ROLLS = "Press: next Stat · Hold: roll"
PRESS_TO_REROLL = "Press again to reroll (1 Fanbase)"
WAITING_FOR = "Waiting for {who}"
LINEUP_ON_PAGE = "Set your lineup on the page"
TAP_CARD = "Tap your {kinds} card"
PRESS_TO_ROLL = "Press to roll the {die}"
YOUR_TURN = "Your turn: tap a card, press to roll potential, hold to pass"

REROLL_SECONDS = 4.0
"""How long after a roll a second press spends 1 Fanbase to reroll it."""

KIND_WORDS = {
    "board_meeting": "Board meeting",
    "opponent": "Opponent",
    "player": "Player",
    "youngster": "Youngster",
    "veteran": "Veteran",
    "staff": "Staff",
    "sponsor": "Sponsor",
    "director": "Director",
    "objective": "Objective",
    "tactic": "Tactic",
}
CONTRACT_WORDS = {"megaphone": "Megaphone", "adboard": "Adboard", "shirt": "Shirt"}
STAT_WORDS = {"budget": "Budget", "fanbase": "Fanbase", "operation": "Operation", "fitness": "Fitness"}


# --- table inputs -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tap:
    """A card recognised on a pad; ``card`` is None when its tag is not enrolled."""

    pad: str
    seat: int | None
    uid: str
    card: str | None


@dataclass(frozen=True, slots=True)
class Lift:
    """The card on a pad went away."""

    pad: str
    seat: int | None
    uid: str


@dataclass(frozen=True, slots=True)
class Press:
    """A button pressed briefly; ``seat`` is None for a shared control."""

    button: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class Hold:
    """A button held past its hold time; ``seat`` is None for a shared control."""

    button: str
    seat: int | None


TableInput = Tap | Lift | Press | Hold


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an input means: events to offer the engine (in order), messages per seat, or an undo."""

    events: tuple[dict[str, Any], ...] = ()
    messages: Mapping[int | None, Message] = field(default_factory=dict)
    undo: bool = False
    """Drop the last event of the log (the runtime says what was undone)."""


class Game(Protocol):
    """What the interpreter needs to know about the game right now (the runtime wraps engine state)."""

    @property
    def awaiting(self) -> tuple[Mapping[str, Any], ...]:
        """What the engine waits for now."""

    def kind(self, card: str) -> str | None:
        """The kind of a card of the deck, or None when the deck has no such card."""

    def name(self, card: str) -> str:
        """The card's printed name."""

    def cost(self, card: str) -> int | None:
        """What hiring the card costs in €, when it has a cost."""

    def owns(self, seat: int, card: str) -> bool:
        """Whether the club at ``seat`` has this card."""

    def fanbase(self, seat: int) -> int:
        """The Fanbase resource the club at ``seat`` holds."""


# --- pending choices between two inputs ----------------------------------------------------------------------------


@dataclass(slots=True)
class _Pending:
    """A choice started by a tap or press and finished by a press or hold (or cancelled by a lift)."""

    kind: str  # "confirm", "contract", "potential"
    event: dict[str, Any]
    options: tuple[str, ...] = ()
    index: int = 0
    pad: str | None = None
    prompt: str = ""


@dataclass(slots=True)
class _LastRoll:
    """A seat's last roll, which a second press may reroll for 1 Fanbase within the window."""

    at: float
    entry: Mapping[str, Any]


def _die(entry: Mapping[str, Any], dice_by_name: Mapping[str, Die]) -> Die:
    """The die an awaited roll names (d6 unless the entry says otherwise)."""
    name = str(entry.get("die", "d6"))
    if name in dice_by_name:
        return dice_by_name[name]
    if name.startswith("d") and name[1:].isdigit():
        return Die(name, tuple(range(1, int(name[1:]) + 1)))
    raise ValueError(f"The engine asked for a roll of an unknown die {name!r}: add it to the board profile's dice.")


def _kinds_text(kinds: Sequence[str]) -> str:
    """Card kinds in words, e.g. ``Board meeting`` or ``Player or Staff``."""
    return " or ".join(KIND_WORDS.get(k, k) for k in kinds) or "a"


class Interpreter:
    """Turns table inputs into events or messages, given what the engine awaits."""

    def __init__(
        self,
        dice: Dice,
        *,
        clock: Callable[[], float] = time.monotonic,
        reroll_seconds: float = REROLL_SECONDS,
        dice_by_name: Mapping[str, Die] | None = None,
    ) -> None:
        self.dice = dice
        self.clock = clock
        self.reroll_seconds = reroll_seconds
        self.dice_by_name: dict[str, Die] = {"d6": D6, "d10": D10, **(dice_by_name or {})}
        self._pending: dict[int, _Pending] = {}
        self._last_roll: dict[int, _LastRoll] = {}

    # -- public ----------------------------------------------------------------------------------------------

    def handle(self, table_input: TableInput, game: Game | None) -> Outcome:
        """What ``table_input`` means now: events for the engine, messages for the screens, or an undo."""
        if isinstance(table_input, Hold) and table_input.seat is None:
            self.reset()
            return Outcome(undo=True)
        if isinstance(table_input, Tap) and table_input.card is None:
            return self._say(table_input.seat, UNKNOWN_CARD, f"Tag {table_input.uid}")
        if game is None:
            return self._say(table_input.seat, NO_GAME)
        if isinstance(table_input, Tap):
            return self._tap(table_input, game)
        if isinstance(table_input, Lift):
            return self._lift(table_input)
        if isinstance(table_input, Press):
            return self._press(table_input, game)
        return self._hold(table_input, game)

    def automatic(self, game: Game) -> tuple[dict[str, Any], ...]:
        """Rolls the table makes by itself now: Opponent dice for teams nobody played, and tie rerolls."""
        events: list[dict[str, Any]] = []
        for entry in game.awaiting:
            if entry.get("need") != "roll":
                continue
            if entry.get("seat") is None or entry.get("auto"):
                events.append(self._roll_event(entry))
        return tuple(events)

    def reset(self) -> None:
        """Forget pending choices and reroll windows (after an undo or a new game)."""
        self._pending.clear()
        self._last_roll.clear()

    def prompt(self, seat: int, game: Game | None) -> Message | None:
        """What the seat is asked to do now, when nothing else is on its screen."""
        if game is None:
            return None
        pending = self._pending.get(seat)
        if pending is not None:
            return Message(pending.prompt, (self._pending_hint(pending),))
        entry = self._awaited(game, seat)
        if entry is None:
            waiting = [e for e in game.awaiting if e.get("seat") not in (None, seat)]
            if waiting:
                return Message(WAITING_FOR.format(who=f"Seat {waiting[0]['seat']}"))
            return None
        return Message(*self._ask(entry))

    # -- taps ------------------------------------------------------------------------------------------------

    def _tap(self, tap: Tap, game: Game) -> Outcome:
        card = tap.card or ""
        kind = game.kind(card)
        if kind is None:
            return self._say(tap.seat, UNKNOWN_CARD, card)
        seats = [tap.seat] if tap.seat is not None else self._seats_waiting_for_card(game, kind)
        for seat in seats:
            for entry in game.awaiting:
                if entry.get("seat") != seat:
                    continue
                need = entry.get("need")
                if need == "card" and kind in entry.get("kinds", ()):
                    self._pending.pop(seat, None)
                    event = {"type": entry.get("event", "card"), "seat": seat, "card": card}
                    if "purpose" in entry:
                        event["purpose"] = entry["purpose"]
                    return Outcome(events=(event,))
                if need == "action":
                    return self._propose(seat, tap.pad, card, kind, entry, game)
        # Nothing awaits this card here: let the engine say why in its own words.
        seat = tap.seat if tap.seat is not None else (seats[0] if seats else None)
        return Outcome(events=({"type": "tap", "seat": seat, "card": card, "kind": kind},))

    def _seats_waiting_for_card(self, game: Game, kind: str) -> list[int]:
        """Seats that await a card of ``kind`` (a shared pad, e.g. the Opponent slot, serves them in order)."""
        return [
            int(e["seat"])
            for e in game.awaiting
            if e.get("seat") is not None and e.get("need") == "card" and kind in e.get("kinds", ())
        ]

    def _propose(self, seat: int, pad: str, card: str, kind: str, entry: Mapping[str, Any], game: Game) -> Outcome:
        """A card tapped on the seat whose turn it is: hire, sell, hire staff or contract a sponsor."""
        name = game.name(card)
        cost = game.cost(card)
        cost_text = f" for €{cost}" if cost is not None else ""
        if kind in ("player", "youngster", "veteran"):
            if game.owns(seat, card):
                pending = _Pending("confirm", {"type": "sell", "seat": seat, "card": card}, pad=pad, prompt=f"Sell {name}?")
            else:
                pending = _Pending(
                    "confirm", {"type": "hire", "seat": seat, "card": card}, pad=pad, prompt=f"Hire {name}{cost_text}?"
                )
        elif kind == "staff":
            pending = _Pending(
                "confirm", {"type": "hire_staff", "seat": seat, "card": card}, pad=pad, prompt=f"Hire {name}{cost_text}?"
            )
        elif kind == "sponsor":
            options = tuple(entry.get("contracts", ("megaphone", "adboard", "shirt")))
            if not options:
                return Outcome(events=({"type": "contract", "seat": seat, "card": card, "contract": "megaphone"},))
            pending = _Pending(
                "contract", {"type": "contract", "seat": seat, "card": card}, options=options, pad=pad, prompt=name
            )
        else:
            return Outcome(events=({"type": "tap", "seat": seat, "card": card, "kind": kind},))
        self._pending[seat] = pending
        return Outcome(messages={seat: self._pending_message(pending)})

    def _lift(self, lift: Lift) -> Outcome:
        if lift.seat is None:
            return Outcome()
        pending = self._pending.get(lift.seat)
        if pending is not None and pending.pad == lift.pad:
            del self._pending[lift.seat]
            return self._say(lift.seat, CANCELLED, pending.prompt)
        return Outcome()

    # -- presses and holds ---------------------------------------------------------------------------------

    def _press(self, press: Press, game: Game) -> Outcome:
        seat = press.seat
        if seat is None:
            return Outcome()
        pending = self._pending.get(seat)
        if pending is not None:
            if pending.kind == "confirm":
                del self._pending[seat]
                return Outcome(events=(pending.event,))
            pending.index = (pending.index + 1) % len(pending.options)
            return Outcome(messages={seat: self._pending_message(pending)})
        last = self._last_roll.get(seat)
        if last is not None and self.clock() - last.at <= self.reroll_seconds:
            if game.fanbase(seat) < 1:
                del self._last_roll[seat]
                return self._say(seat, "No Fanbase left", "The roll stands")
            value = self.dice.roll(_die(last.entry, self.dice_by_name))
            self._last_roll[seat] = _LastRoll(self.clock(), last.entry)
            return Outcome(events=({"type": "reroll", "seat": seat, "value": value},))
        entry = self._awaited(game, seat)
        if entry is not None and entry.get("need") == "roll":
            event = self._roll_event(entry)
            if entry.get("rerollable"):
                self._last_roll[seat] = _LastRoll(self.clock(), entry)
            else:
                self._last_roll.pop(seat, None)
            return Outcome(events=(event,))
        if entry is not None and entry.get("need") == "action":
            stats = tuple(entry.get("potential", ("fanbase", "operation", "fitness")))
            if stats:
                pending = _Pending(
                    "potential", {"type": "potential", "seat": seat}, options=stats, prompt="Club potential"
                )
                self._pending[seat] = pending
                return Outcome(messages={seat: self._pending_message(pending)})
        return self._say(seat, NOTHING_TO_ROLL, *(m.headline for m in [self.prompt(seat, game)] if m))

    def _hold(self, hold: Hold, game: Game) -> Outcome:
        seat = hold.seat
        assert seat is not None  # a shared hold is an undo, handled before
        pending = self._pending.pop(seat, None)
        if pending is not None:
            if pending.kind == "confirm":
                return Outcome(events=(pending.event,))
            choice = pending.options[pending.index]
            if pending.kind == "contract":
                return Outcome(events=({**pending.event, "contract": choice},))
            die = D6
            value = self.dice.roll(die)
            return Outcome(events=({**pending.event, "stat": choice, "value": value},))
        entry = self._awaited(game, seat)
        if entry is not None and entry.get("need") == "action":
            return Outcome(events=({"type": "pass", "seat": seat},))
        return Outcome(events=({"type": "pass", "seat": seat},))

    # -- helpers ---------------------------------------------------------------------------------------------

    def _roll_event(self, entry: Mapping[str, Any]) -> dict[str, Any]:
        """Roll the die an awaited roll names and build its event."""
        die = _die(entry, self.dice_by_name)
        event: dict[str, Any] = {"type": "roll", "seat": entry.get("seat"), "die": die.name, "value": self.dice.roll(die)}
        for key in ("purpose", "team"):
            if key in entry:
                event[key] = entry[key]
        return event

    @staticmethod
    def _awaited(game: Game, seat: int) -> Mapping[str, Any] | None:
        """The first thing the engine awaits from ``seat``."""
        return next((e for e in game.awaiting if e.get("seat") == seat), None)

    @staticmethod
    def _ask(entry: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
        """What to ask a seat for, given what the engine awaits from it."""
        need = entry.get("need")
        if need == "card":
            return TAP_CARD.format(kinds=_kinds_text(entry.get("kinds", ()))), ()
        if need == "roll":
            return "Press to roll", (str(entry.get("purpose", "")).replace("_", " ").capitalize(),)
        if need == "lineup":
            return LINEUP_ON_PAGE, ()
        if need == "action":
            return "Your turn", ("Tap a card · Press: potential", "Hold: pass")
        return str(entry.get("text", need or "")), ()

    def _pending_message(self, pending: _Pending) -> Message:
        if pending.kind == "confirm":
            return Message(pending.prompt, (PRESS_TO_CONFIRM,))
        choice = pending.options[pending.index]
        words = CONTRACT_WORDS if pending.kind == "contract" else STAT_WORDS
        return Message(f"{pending.prompt}: {words.get(choice, choice)}", (self._pending_hint(pending),))

    @staticmethod
    def _pending_hint(pending: _Pending) -> str:
        return {"confirm": PRESS_TO_CONFIRM, "contract": PRESS_STEPS_HOLD_SIGNS}.get(pending.kind, PRESS_STEPS_HOLD_ROLLS)

    @staticmethod
    def _say(seat: int | None, headline: str, *detail: str) -> Outcome:
        return Outcome(messages={seat: Message(headline, tuple(d for d in detail if d))})
