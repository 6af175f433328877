"""The simulated table: the same drivers with their simulated backends, driven by card ids and button names.

:class:`SimHardware` is what ``touchline run --sim`` runs and what the page's virtual table drives
(``web.interface.SimulatedHardware``): gpiozero's ``MockFactory`` behind the buttons, luma's ``dummy``
displays, simulated readers.  :class:`SimulatedTable` puts it together with a game session on a manual
clock, so ``touchline replay`` and the end-to-end tests run a whole game deterministically and fast.
"""

from __future__ import annotations

import hashlib
import io
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from device import screens
from device.screens import SeatScreen
from device.table_file import TableConfig, default_sim_table, load_table
from drivers.base import ButtonReading, TagReading, format_uid
from drivers.dice import Die, SystemDice
from drivers.errors import DiceScriptExhausted

UNKNOWN_PAD = "There is no pad {pad!r} on this table; pads: {known}."
UNKNOWN_BUTTON = "There is no button {button!r} on this table; buttons: {known}."
UNKNOWN_SCREEN = "There is no screen {screen!r} on this table; screens: {known}."
PAD_EMPTY = "Pad {pad} is empty: nothing to lift."


class ManualClock:
    """A monotonic clock that moves only when told to (replays and tests never wait real time)."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        """The current time in seconds."""
        with self._lock:
            return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock forward."""
        with self._lock:
            self.now += seconds


class ForcedDice:
    """Dice whose next results are forced (scenarios, tests); once the forced ones are used, fair rolls."""

    def __init__(self, forced: Iterable[int] = (), fallback: Any | None = None, *, strict: bool = False) -> None:
        self._forced = list(forced)
        self.fallback = fallback or SystemDice()
        """Where results come from once the forced ones are used (unless strict)."""
        self.strict = strict
        """When True, a roll with no forced result left fails instead of rolling fairly (tests)."""
        self._lock = threading.Lock()
        self.rolled: list[tuple[str, int]] = []
        """Every roll made, in order, as (die, value): a replay prints them so a run can be repeated."""

    def force(self, values: Iterable[int]) -> None:
        """Force the next results (after any still waiting)."""
        with self._lock:
            self._forced.extend(values)

    @property
    def waiting(self) -> int:
        """How many forced results have not been rolled yet."""
        return len(self._forced)

    def roll(self, die: Die) -> int:
        """The next forced result (which must be a face of ``die``), else a fair roll."""
        with self._lock:
            if self._forced:
                value = self._forced.pop(0)
                if value not in die.faces:
                    raise ValueError(
                        f"The forced result {value} is not a face of the {die.name} (faces {list(die.faces)}): fix the dice list."
                    )
            elif self.strict:
                raise DiceScriptExhausted(
                    f"No forced result is left for this roll of the {die.name} (after {len(self.rolled)} roll(s)): force more dice."
                )
            else:
                value = self.fallback.roll(die)
            self.rolled.append((die.name, value))
            return value

    def roll_many(self, dice: Iterable[Die]) -> list[int]:
        """Roll several dice in order."""
        return [self.roll(die) for die in dice]


def simulated_uid(card_id: str) -> str:
    """A 7-byte NXP-style UID made from a card id, so the same card gets the same tag in every replay."""
    digest = hashlib.sha256(card_id.encode()).digest()
    return format_uid(bytes([0x04]) + digest[:6])


class SimHardware:
    """The simulated pads, buttons and screens of a table, built from its table file."""

    def __init__(self, config: TableConfig, *, clock: Callable[[], float] | None = None, threaded: bool = True) -> None:
        from luma.core.device import dummy

        self.config = config
        self.clock = clock
        self.threaded = threaded
        self._emit: Callable[[Any], None] | None = None
        self._buttons: Any = None
        self._session: Any = None
        self.on_pad: dict[str, str] = {}
        """The tag lying on each pad now (pad id → UID)."""
        self.displays = {
            s.id: dummy(width=s.width, height=s.height, mode="1") for s in config.screens()
        }
        self._lock = threading.Lock()

    # -- Hardware (what the runtime uses) ---------------------------------------------------------------

    @property
    def sim(self) -> SimHardware:
        """This hardware is simulated: the facade is itself."""
        return self

    def attach(self, session: Any) -> None:
        """Know the game session, to find the tag enrolled for a card (and enrol fresh simulated tags)."""
        self._session = session

    def start(self, emit: Callable[[Any], None]) -> None:
        """Start the simulated buttons (gpiozero MockFactory) and hand every reading to ``emit``."""
        from drivers.buttons import Buttons

        self._emit = emit
        kwargs: dict[str, Any] = {"backend": "sim", "threaded": self.threaded}
        if self.clock is not None:
            kwargs["clock"] = self.clock
        self._buttons = Buttons(emit, **kwargs)
        for button in self.config.buttons():
            self._buttons.add(button.id, button.gpio, hold_time=button.hold_seconds, led_pin=button.led_gpio)

    def stop(self) -> None:
        """Release the simulated pins."""
        if self._buttons is not None:
            self._buttons.close()
            self._buttons = None

    def show(self, screen_id: str, screen: SeatScreen) -> None:
        """Draw a screen on its dummy display through luma's canvas."""
        device = self.displays.get(screen_id)
        if device is not None:
            screens.show(device, screen)

    # -- SimulatedHardware (what the page's virtual table drives) -------------------------------------

    def layout(self) -> dict[str, Any]:
        """Seats with their pads, buttons and screens, plus shared ones: ids and labels."""

        def label(item_id: str, seat: int | None, role: str) -> str:
            return f"Seat {seat} {role}" if seat is not None else f"Shared {role}"

        return {
            "seats": [
                {"seat": s.number, "label": s.label, "colour": s.colour} for s in self.config.seats
            ],
            "pads": [
                {"id": p.id, "seat": p.seat, "role": p.role, "label": label(p.id, p.seat, p.role),
                 "card": self._card_on(p.id)}
                for p in self.config.pads()
            ],
            "buttons": [
                {"id": b.id, "seat": b.seat, "role": b.role, "label": label(b.id, b.seat, b.role)}
                for b in self.config.buttons()
            ],
            "screens": [
                {"id": s.id, "seat": s.seat, "label": label(s.id, s.seat, "screen"), "width": s.width, "height": s.height}
                for s in self.config.screens()
            ],
        }

    def place(self, pad: str, card_id: str) -> None:
        """Put the card with this id on a pad: the tag enrolled for it, or a fresh simulated tag enrolled now."""
        self.place_tag(pad, self.tag_for(card_id))

    def place_tag(self, pad: str, uid: str) -> None:
        """Put a tag with this UID on a pad (an unknown tag stays unknown)."""
        self._pad(pad)
        if pad in self.on_pad:
            self.lift(pad)
        self.on_pad[pad] = uid
        self._send(TagReading("tap", pad, uid))

    def lift(self, pad: str) -> None:
        """Take whatever lies on a pad away."""
        self._pad(pad)
        uid = self.on_pad.pop(pad, None)
        if uid is not None:
            self._send(TagReading("lift", pad, uid))

    def press(self, button: str) -> None:
        """Press and release a button briefly (through gpiozero's MockPin)."""
        self._button(button).press()

    def hold(self, button: str) -> None:
        """Hold a button past its hold time, then release it (through gpiozero's MockPin)."""
        self._button(button).hold()

    def frame(self, screen: str) -> Any:
        """The PIL image the simulated display holds now."""
        if screen not in self.displays:
            raise LookupError(UNKNOWN_SCREEN.format(screen=screen, known=", ".join(self.displays)))
        return self.displays[screen].image

    def frame_png(self, screen: str) -> bytes:
        """The frame the simulated display holds now, as PNG bytes."""
        out = io.BytesIO()
        self.frame(screen).save(out, format="PNG")
        return out.getvalue()

    # -- helpers ----------------------------------------------------------------------------------------

    def tag_for(self, card_id: str) -> str:
        """The tag enrolled for a card, or a fresh simulated one, enrolled now so the table knows it."""
        store = self._session.store if self._session is not None else None
        if store is not None:
            for uid, card in store.enrolments(deck=self._session.deck).items():
                if card == card_id:
                    return uid
        uid = simulated_uid(card_id)
        if store is not None:
            store.enroll(uid, card_id, deck=self._session.deck)
        return uid

    def _card_on(self, pad: str) -> str | None:
        uid = self.on_pad.get(pad)
        if uid is None or self._session is None:
            return None
        return self._session.store.card_for(uid, deck=self._session.deck)

    def _send(self, reading: TagReading | ButtonReading) -> None:
        if self._emit is not None:
            self._emit(reading)

    def _pad(self, pad: str) -> None:
        known = [p.id for p in self.config.pads()]
        if pad not in known:
            raise LookupError(UNKNOWN_PAD.format(pad=pad, known=", ".join(known)))

    def _button(self, button: str) -> Any:
        known = [b.id for b in self.config.buttons()]
        if button not in known or self._buttons is None:
            raise LookupError(UNKNOWN_BUTTON.format(button=button, known=", ".join(known)))
        return self._buttons.simulated(button)


class SimulatedTable:
    """A game session on the simulated table with a manual clock: what replays and end-to-end tests drive."""

    def __init__(self, config: TableConfig, store: Any, *, dice: Iterable[int] = (), profile: Any = None,
                 strict_dice: bool = False) -> None:
        from device.runtime import Session

        self.clock = ManualClock()
        self.dice = ForcedDice(dice, strict=strict_dice)
        self.hardware = SimHardware(config, clock=self.clock, threaded=False)
        self.session = Session(config, store, self.dice, profile=profile, clock=self.clock)
        self.hardware.attach(self.session)
        self.hardware.start(self._reading)
        self._redraw()

    @classmethod
    @contextmanager
    def open(cls, db_path: Path, *, table: Path | None = None, dice: Iterable[int] = (), profile: Any = None,
             strict_dice: bool = False) -> Iterator[SimulatedTable]:
        """A simulated table over the log at ``db_path`` (the default simulated table unless a table file is given)."""
        from device.store import open_store

        config = load_table(table) if table is not None else default_sim_table()
        store = open_store(db_path)
        sim_table = cls(config, store, dice=dice, profile=profile, strict_dice=strict_dice)
        try:
            yield sim_table
        finally:
            sim_table.hardware.stop()
            store.close()

    def _reading(self, reading: Any) -> None:
        self.session.reading(reading)
        self._redraw()

    def _redraw(self) -> None:
        for screen_id, screen in self.session.screens().items():
            self.hardware.show(screen_id, screen)

    # -- what a person does -----------------------------------------------------------------------------

    def force_dice(self, values: Iterable[int]) -> None:
        """Force the next dice results."""
        self.dice.force(values)

    def place(self, pad: str, card_id: str) -> None:
        """Put a card on a pad."""
        self.hardware.place(pad, card_id)

    def place_tag(self, pad: str, uid: str) -> None:
        """Put a raw tag on a pad."""
        self.hardware.place_tag(pad, uid)

    def lift(self, pad: str) -> None:
        """Take the card off a pad."""
        self.hardware.lift(pad)

    def tap(self, pad: str, card_id: str) -> None:
        """Put a card on a pad and take it away again."""
        self.place(pad, card_id)
        self.lift(pad)

    def press(self, button: str) -> None:
        """Press a button briefly."""
        self.hardware.press(button)

    def hold(self, button: str) -> None:
        """Hold a button past its hold time."""
        self.hardware.hold(button)

    def wait(self, seconds: float) -> None:
        """Let time pass (reroll windows close)."""
        self.clock.advance(seconds)
        self.session.tick()
        self._redraw()

    def page(self, action: dict[str, Any]) -> dict[str, Any]:
        """Do something on the page; ValueError with the sentence when refused."""
        try:
            return self.session.page(action)
        finally:
            self._redraw()

    # -- what a person sees -----------------------------------------------------------------------------

    def screen_texts(self) -> dict[str, str]:
        """What every screen says now, by screen id."""
        return {sid: screen.text() for sid, screen in self.session.screens().items()}

    def screen(self, screen_id: str) -> SeatScreen:
        """What one screen says now."""
        return self.session.screen(screen_id)

    def view(self) -> Any:
        """The engine's view of the game (None before a game)."""
        return self.session.view()

    def final(self) -> dict[str, Any]:
        """The final state as JSON-safe data: game, state, view, screens and every roll made."""
        state = self.session.state
        return {
            "game": self.session.game,
            "events": len(self.session.store.events(self.session.game)) if self.session.game is not None else 0,
            "state": state.to_dict() if state is not None else None,
            "view": self.view(),
            "screens": {sid: text.splitlines() for sid, text in self.screen_texts().items()},
            "rolls": [{"die": die, "value": value} for die, value in self.dice.rolled],
        }
