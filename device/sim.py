"""The simulated table: the same drivers with their simulated backends, driven by card ids and button names.

:class:`SimHardware` is what ``touchline run --sim`` runs and what the page's virtual table drives
(``web.interface.SimulatedHardware``): gpiozero's ``MockFactory`` behind the buttons, luma's real panel
code over simulated SSD1306 panels, simulated MFRC522 readers and serial hub.  :class:`SimulatedTable` puts it together with a game session on a manual
clock, so ``touchline replay`` and the end-to-end tests run a whole game deterministically and fast.
"""

from __future__ import annotations

import hashlib
import io
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from device import screens
from device.hardware import TableHardware
from device.screens import SeatScreen
from device.session import Session
from device.table_file import TableConfig, default_sim_table, load_table
from drivers.base import ButtonReading, ManualClock, TagReading, format_uid
from drivers.dice import Die, SystemDice
from drivers.errors import DiceScriptExhausted
from web.actions import TableAction, parse_action

UNKNOWN_PAD = "There is no pad {pad!r} on this table; pads: {known}."
UNKNOWN_BUTTON = "There is no button {button!r} on this table; buttons: {known}."
UNKNOWN_SCREEN = "There is no screen {screen!r} on this table; screens: {known}."
SETTLE_SECONDS = 2.0
"""The longest a simulated card is left on (or off) a pad waiting for the scanner to notice."""


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


class SimHardware(TableHardware):
    """The simulated pads, buttons and screens of a table, built from its table file on the drivers' sim backends.

    Readers are simulated MFRC522 chips behind a fake ``spidev`` (a card put on a pad is a simulated card on
    its chip, found by the drivers' scanner), buttons are gpiozero ``MockFactory`` pins, screens are
    simulated SSD1306 panels behind a simulated TCA9548A.  Threaded (``touchline run --sim``) the scanner
    and button threads run as on a Pi; unthreaded (replays and tests) each action is handled before it returns.
    """

    def __init__(self, config: TableConfig, *, clock: Callable[[], float] | None = None, threaded: bool = True) -> None:
        from drivers.displays import SimulatedI2C
        from drivers.rfid import SimRig

        # A rig and an I2C world of its own, so two simulated tables in one process never share a chip.
        super().__init__(config, backend="sim", clock=clock, threaded=threaded, rig=SimRig(), displays=SimulatedI2C())
        self._session: Any = None
        self.on_pad: dict[str, str] = {}
        """The tag lying on each pad now (pad id → UID)."""
        self.cards: dict[str, Any] = {}
        """Every simulated card put down so far, by UID."""
        self._hands = threading.RLock()
        """One hand on the pads at a time: a pad holds one card, however many page requests come at once."""

    @property
    def sim(self) -> SimHardware:
        """This hardware is simulated: the facade is itself."""
        return self

    def attach(self, session: Any) -> None:
        """Know the game session, to find the tag enrolled for a card (and enrol fresh simulated tags)."""
        self._session = session

    # -- SimulatedHardware (what the page's virtual table drives) -------------------------------------

    def layout(self) -> dict[str, Any]:
        """Seats with their pads, buttons and screens, plus shared ones: ids and labels."""

        def label(seat: int | None, role: str) -> str:
            return f"Seat {seat} {role}" if seat is not None else f"Shared {role}"

        return {
            "seats": [{"seat": s.number, "label": s.label, "colour": s.colour} for s in self.config.seats],
            "pads": [
                {"id": p.id, "seat": p.seat, "role": p.role, "label": label(p.seat, p.role), "card": self._card_on(p.id)}
                for p in self.config.pads()
            ],
            "buttons": [{"id": b.id, "seat": b.seat, "role": b.role, "label": label(b.seat, b.role)} for b in self.config.buttons()],
            "screens": [
                {"id": s.id, "seat": s.seat, "label": label(s.seat, "screen"), "width": s.width, "height": s.height}
                for s in self.config.screens()
            ],
        }

    def place(self, pad: str, card_id: str) -> None:
        """Put the card with this id on a pad: the tag enrolled for it, or a fresh simulated tag enrolled now."""
        self.place_tag(pad, self.tag_for(card_id))

    def place_tag(self, pad: str, uid: str) -> None:
        """Put a tag with this UID on a pad (an unknown tag stays unknown)."""
        with self._hands:
            self._place_tag(pad, uid)

    def _place_tag(self, pad: str, uid: str) -> None:
        from drivers.rfid import sim_card

        config = self._pad(pad)
        if pad in self.on_pad:
            self.lift(pad)
        self.on_pad[pad] = uid
        if pad in self.readers:
            # The same tag is the same card every time: what was written on it stays written.
            card = self.cards.setdefault(uid, sim_card(uid))
            self.readers[pad].sim.place(card)
            self._settle(pad, uid)
        elif config.hub in self.hubs and self.threaded:
            self.hubs[config.hub].simulator.place(int(config.reader or 0), uid)
        else:
            # A hub pad on the unthreaded table: the simulated hub talks over a pty in its own thread.
            self._send(TagReading("tap", pad, uid))

    def lift(self, pad: str) -> None:
        """Take whatever lies on a pad away."""
        with self._hands:
            self._lift(pad)

    def _lift(self, pad: str) -> None:
        config = self._pad(pad)
        uid = self.on_pad.pop(pad, None)
        if uid is None:
            return
        if pad in self.readers:
            self.readers[pad].sim.lift()
            self._settle(pad, None)
        elif config.hub in self.hubs and self.threaded:
            self.hubs[config.hub].simulator.lift(int(config.reader or 0))
        else:
            self._send(TagReading("lift", pad, uid))

    def press(self, button: str) -> None:
        """Press and release a button briefly (through gpiozero's MockPin)."""
        self._button(button).press()

    def hold(self, button: str) -> None:
        """Hold a button past its hold time, then release it (through gpiozero's MockPin)."""
        self._button(button).hold()

    def frame(self, screen: str) -> Any:
        """The PIL image the simulated panel lights now (or once the frames being drawn are drawn)."""
        if screen not in self.displays:
            raise LookupError(UNKNOWN_SCREEN.format(screen=screen, known=", ".join(self.displays)))
        with self.drawing:  # a frame the page was told of may be being drawn: read it once it is
            return self.displays[screen].frame()

    def frame_png(self, screen: str) -> bytes:
        """The frame the simulated display holds now, as PNG bytes."""
        out = io.BytesIO()
        self.frame(screen).save(out, format="PNG")
        return out.getvalue()

    # -- helpers ----------------------------------------------------------------------------------------

    def _settle(self, pad: str, uid: str | None) -> None:
        """Leave the card there (or the pad empty) until the scanner has seen it, as a hand does.

        Unthreaded, the readers are swept here; threaded, the scanner's own thread sees it within a few sweeps.
        """
        from drivers.rfid.scanner import LIFT_AFTER

        scanner = self.scanner  # kept: the table may be stopped from another thread while the hand waits
        if scanner is None:
            return
        if not self.threaded:
            for _ in range(LIFT_AFTER + 1):
                scanner.sweep()
            return
        deadline = time.monotonic() + SETTLE_SECONDS
        while scanner.present.get(pad) != uid and time.monotonic() < deadline:
            time.sleep(0.005)

    def tag_for(self, card_id: str) -> str:
        """The tag enrolled for a card, or a fresh simulated one, enrolled now so the table knows it."""
        session = self._session
        if session is not None:
            for uid, card in session.store.enrolments(deck=session.deck).items():
                if card == card_id:
                    return str(uid)
        uid = simulated_uid(card_id)
        if session is not None:
            session.store.enroll(uid, card_id, deck=session.deck)
        return uid

    def _card_on(self, pad: str) -> str | None:
        uid = self.on_pad.get(pad)
        if uid is None or self._session is None:
            return None
        return self._session.store.card_for(uid, deck=self._session.deck)  # type: ignore[no-any-return]

    def _send(self, reading: TagReading | ButtonReading) -> None:
        if self._emit is not None:
            self._emit(reading)

    def _pad(self, pad: str) -> Any:
        for config in self.config.pads():
            if config.id == pad:
                return config
        raise LookupError(UNKNOWN_PAD.format(pad=pad, known=", ".join(p.id for p in self.config.pads())))

    def _button(self, button: str) -> Any:
        known = [b.id for b in self.config.buttons()]
        if button not in known or self.buttons is None:
            raise LookupError(UNKNOWN_BUTTON.format(button=button, known=", ".join(known)))
        return self.buttons.simulated(button)


class SimulatedTable:
    """A game session on the simulated table with a manual clock: what replays and end-to-end tests drive."""

    def __init__(self, config: TableConfig, store: Any, *, dice: Iterable[int] = (), profile: Any = None,
                 strict_dice: bool = False) -> None:
        self.clock = ManualClock()
        self.dice = ForcedDice(dice, strict=strict_dice)
        self.hardware = SimHardware(config, clock=self.clock, threaded=False)
        self.session = Session(config, store, self.dice, profile=profile, clock=self.clock)
        self.hardware.attach(self.session)
        self.session.tag_text = self.hardware.card_id_on
        self.pager = screens.Pager(self.clock)
        """Which page of a long message each screen shows: ``wait()`` turns them."""
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
        for screen_id, (screen, page) in self.pager.changed(self.session.screens()).items():
            self.hardware.show(screen_id, screen, page)
        self.hardware.lights(self.session.waiting_seats())

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
        """Let time pass (reroll windows close, long messages turn their pages)."""
        self.clock.advance(seconds)
        self.session.tick()
        self._redraw()

    def page(self, action: TableAction | Mapping[str, Any]) -> dict[str, Any]:
        """Do something on the page (a typed action, or its JSON as the page sends it); ValueError with the sentence
        when refused or when a field is wrong (``web.actions.ActionError``)."""
        typed = parse_action(action) if isinstance(action, Mapping) else action
        try:
            return self.session.page(typed)
        finally:
            self._redraw()

    # -- what a person sees -----------------------------------------------------------------------------

    def screen_texts(self) -> dict[str, str]:
        """What every screen says now, by screen id."""
        return {sid: screen.text() for sid, screen in self.session.screens().items()}

    def screen(self, screen_id: str) -> SeatScreen:
        """What one screen says now."""
        return self.session.screen(screen_id)

    def lit(self, button: str) -> bool:
        """Whether a button's LED is lit now."""
        return bool(self.hardware.buttons.led_is_lit(button))

    def view(self) -> Any:
        """The engine's view of the game (None before a game)."""
        return self.session.view()

    def final(self) -> dict[str, Any]:
        """The final state as JSON-safe data: game, state, view, screens and every roll made."""
        state = self.session.state
        game = self.session.game
        return {
            "game": game,
            "status": self.session.store.game(game).status if game is not None else None,
            "events": len(self.session.store.events(self.session.game)) if self.session.game is not None else 0,
            "state": state.to_dict() if state is not None else None,
            "view": self.view(),
            "screens": {sid: text.splitlines() for sid, text in self.screen_texts().items()},
            "rolls": [{"die": die, "value": value} for die, value in self.dice.rolled],
        }
