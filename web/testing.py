"""A stand-in table for the web app's tests, benchmark and demos: a small game with simulated pads and screens.

It plays the part ``device/`` plays on a real table: it holds the game, turns page actions and simulated taps and
presses into changes, keeps the announcements, and pushes a snapshot to every open page after each change.
"""

from __future__ import annotations

import copy
import io
import random
import socket
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from PIL import Image, ImageDraw, ImageFont

from web.app import close_live, create_app
import engine
from web.actions import EventAction, NewGame, TableAction
from web.interface import SimulatedHardware
from web.setup import setup_events
from web.live import Hub

PIN = "2468"
SCREEN_SIZE = (128, 64)
LINE_CHARS = 21
NO_UNDO = "There is nothing to undo: no event has been recorded yet."
NO_GAME = "No game is running: start a new game first."
NO_TAP = "No card has been tapped for enrolment: start enrolment, then tap a card on any pad."
NOT_WAITING = "The table is not waiting for a card to enrol: press \"Enrol a card\" first."
NOTHING_TO_ROLL = "Nothing to roll now."
SPONSOR_ON_PAGE = "Sponsor: choose its contract on the Play page."
CARD_EVENTS = {"board_meeting": "board_meeting", "player": "hire_player", "youngster": "hire_youngster",
               "staff": "hire_staff", "tactic": "tactic_played"}


def wrap(text: str, width: int = LINE_CHARS) -> list[str]:
    """Split a sentence into screen lines of at most ``width`` characters."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word[:width])
    return lines


class StandInSim:
    """Simulated pads, buttons and screens: one tap pad, one button and one screen per seat."""

    def __init__(self, table: StandInTable) -> None:
        """Belongs to one stand-in table."""
        self._table = table
        self.on_pad: dict[str, str | None] = {}

    def layout(self) -> dict[str, Any]:
        """Seats with their pads, buttons and screens: ids and labels."""
        seats = self._table.seats()
        return {
            "seats": [{"seat": s, "label": f"Seat {s}"} for s in seats],
            "pads": [{"id": f"seat{s}", "seat": s, "label": f"Seat {s} pad", "card": self.on_pad.get(f"seat{s}")}
                     for s in seats],
            "buttons": [{"id": f"seat{s}", "seat": s, "label": f"Seat {s} button"} for s in seats],
            "screens": [{"id": f"seat{s}", "seat": s, "label": f"Seat {s} screen",
                         "width": SCREEN_SIZE[0], "height": SCREEN_SIZE[1]} for s in seats],
        }

    def place(self, pad: str, card_id: str) -> None:
        """Put a card on a pad."""
        self.on_pad[pad] = card_id
        self._table.tapped(int(pad.removeprefix("seat")), card_id)

    def lift(self, pad: str) -> None:
        """Take the card away."""
        self.on_pad[pad] = None
        self._table.changed()

    def press(self, button: str) -> None:
        """A short press: roll (or reroll) the die the seat is asked for, or pass the turn."""
        self._table.pressed(int(button.removeprefix("seat")), hold=False)

    def hold(self, button: str) -> None:
        """A long press: keep the result held for a reroll."""
        self._table.pressed(int(button.removeprefix("seat")), hold=True)

    def frame_png(self, screen: str) -> bytes:
        """The screen's lines drawn in white on black, 128x64, as PNG."""
        lines = self._table.screen_lines(int(screen.removeprefix("seat")))
        image = Image.new("1", SCREEN_SIZE, 0)
        draw = ImageDraw.Draw(image)
        font = ImageFont.load_default(size=10)
        for row, line in enumerate(lines[:5]):
            draw.text((1, row * 12), line, fill=1, font=font)
        out = io.BytesIO()
        image.save(out, format="PNG")
        return out.getvalue()


class StandInTable:
    """A table running the real engine on the demo deck, with its own dice, simulated hardware and live updates."""

    def __init__(self, pin: str = PIN, seed: int = 7, simulated: bool = True) -> None:
        """A table with no game yet; ``seed`` makes its dice repeatable."""
        self.pin = pin
        self.profile = engine.load_profile()
        self.state: engine.State | None = None
        self.events: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []
        self.history: list[dict[str, Any]] = []
        self.enrolment: dict[str, Any] | None = None
        self.enrolled: dict[str, str] = {}
        self.actions: list[dict[str, Any]] = []
        self._said: dict[int, str] = {}
        self._setup_len = 0
        self._versions: dict[int, int] = {}
        self._dice = random.Random(seed)
        self._lock = threading.RLock()
        self._sim = StandInSim(self) if simulated else None
        self.hub = Hub(self.snapshot)

    # -- the Table interface -----------------------------------------------------------------------------------

    @property
    def sim(self) -> SimulatedHardware | None:
        """The simulated hardware (None when made with ``simulated=False``)."""
        return self._sim

    def snapshot(self) -> dict[str, Any]:
        """Game view, log, chart history, screens and enrolment, JSON-safe."""
        with self._lock:
            return copy.deepcopy({
                "game": None if self.state is None else engine.view(self.profile, self.state),
                "log": self.log[-50:],
                "history": self.history,
                "screens": {f"seat{s}": {"seat": s, "version": self._versions.get(s, 0), "lines": self.screen_lines(s)}
                            for s in self.seats()},
                "enrolment": self.enrolment,
                "simulation": self._sim is not None,
            })

    def subscribe(self) -> AsyncIterator[dict[str, Any]]:
        """Every change, as a fresh snapshot."""
        return self.hub.subscribe()

    async def submit(self, typed: TableAction) -> dict[str, Any]:
        """Apply one page action; raise ValueError (or the engine's refusal) with a sentence when refused."""
        action = typed.event() if isinstance(typed, EventAction) else typed.model_dump(mode="json")
        if isinstance(typed, NewGame):
            action["events"] = setup_events(self.profile, typed)
        with self._lock:
            kind = action["type"]
            handler = getattr(self, f"_do_{kind}", None)
            result = handler(action) if handler is not None else self._play(dict(action))
            self.actions.append(action)
            self._refresh_screens()
        self.changed()
        return result

    def deck(self) -> list[dict[str, Any]]:
        """Every card of the demo deck: id, name and kind."""
        return [{"id": c.id, "name": c.name, "kind": c.kind} for c in self.profile.cards.values()]

    # -- the game ----------------------------------------------------------------------------------------------

    def seats(self) -> list[int]:
        """The seats playing (1 and 2 before a game)."""
        return [c.seat for c in self.state.clubs] if self.state is not None and self.state.clubs else [1, 2]

    def changed(self) -> None:
        """Push a new snapshot to every open page."""
        self.hub.publish()

    def _play(self, event: dict[str, Any]) -> dict[str, Any]:
        """Apply one engine event, then the Opponent dice the table rolls by itself; refusals change nothing."""
        if self.state is None:
            raise ValueError(NO_GAME)
        step = engine.apply(self.profile, self.state, event)
        self.state = step.state
        self.events.append(event)
        said = [self._note(a) for a in step.announcements]
        for _ in range(20):
            opponent = next((a for a in self.state.awaiting if a["need"] == "roll" and a["seat"] is None), None)
            if opponent is None:
                break
            roll = {"type": "roll", "seat": None, "team": opponent["team"], "value": self._dice.randint(1, 6)}
            step = engine.apply(self.profile, self.state, roll)
            self.state = step.state
            self.events.append(roll)
            said += [self._note(a) for a in step.announcements]
        self._record_week()
        return {"announcements": said}

    def _note(self, announcement: dict[str, Any]) -> dict[str, Any]:
        item = {**announcement, "week": self.state.week if self.state else 0}
        self.log.append(item)
        if announcement.get("seat") is not None:
            self._said[announcement["seat"]] = str(announcement.get("text", ""))
        return item

    def _record_week(self) -> None:
        if self.state is None or not self.state.week:
            return
        view = engine.view(self.profile, self.state)
        self.history = [h for h in self.history if h["week"] != self.state.week]
        self.history.append({"week": self.state.week, "clubs": {
            str(c["seat"]): {"points": c["league_points"], **c["resources"]} for c in view["clubs"]}})

    def _do_new_game(self, action: dict[str, Any]) -> dict[str, Any]:
        state = engine.initial_state(self.profile)
        announcements: list[dict[str, Any]] = []
        for event in action["events"]:  # all checked before anything changes
            step = engine.apply(self.profile, state, event)
            state = step.state
            announcements += step.announcements
        self.state, self.events, self.log, self.history, self._said = state, list(action["events"]), [], [], {}
        self._setup_len = len(self.events)
        for announcement in announcements:
            self._note(announcement)
        self._said = {}
        self._record_week()
        return {"clubs": len(state.clubs)}

    def _do_undo(self, _: dict[str, Any]) -> dict[str, Any]:
        # The setup is the game itself: undo stops at the first event played after it.
        if self.state is None or len(self.events) <= self._setup_len:
            raise ValueError(NO_UNDO)
        dropped = self.events.pop()
        self.state = engine.replay(self.profile, self.events)
        self.log.append({"kind": "undo", "seat": dropped.get("seat"), "text": f"Undone: {dropped['type']}.",
                         "week": self.state.week})
        self._said = {}
        self._record_week()
        return {"undone": dropped}

    def _do_enrol_start(self, _: dict[str, Any]) -> dict[str, Any]:
        self.enrolment = {"state": "waiting"}
        return {}

    def _do_enrol_cancel(self, _: dict[str, Any]) -> dict[str, Any]:
        self.enrolment = None
        return {}

    def _do_enrol(self, action: dict[str, Any]) -> dict[str, Any]:
        if self.enrolment is None:
            raise ValueError(NOT_WAITING)
        if self.enrolment.get("uid") != action["uid"]:
            raise ValueError(NO_TAP)
        if action["card"] not in self.profile.cards:
            raise ValueError(f"There is no card {action['card']!r} in the deck.")
        self.enrolled[action["uid"]] = action["card"]
        self.enrolment = None
        return {"uid": action["uid"], "card": action["card"]}

    # -- what the simulated hardware calls ---------------------------------------------------------------------

    def _awaited(self, seat: int) -> dict[str, Any] | None:
        if self.state is None:
            return None
        return next((a for a in self.state.awaiting if a.get("seat") == seat), None)

    def screen_lines(self, seat: int) -> list[str]:
        """What a seat's screen says now: enrolment, the last thing said to the seat, or what it is asked for."""
        if self.enrolment is not None:
            return ["Enrolment:", "tap a card on", "any pad now"]
        if self.state is None:
            return ["Touchline", "No game yet: open", "the page to start"]
        header = f"Seat {seat} · Week {self.state.week}"
        wait = self._awaited(seat)
        if seat in self._said and (wait is None or wait["need"] not in ("roll", "keep_or_reroll")):
            return [header, *wrap(self._said[seat])][:5]
        if wait is None:
            return [header, "Waiting for", "the others"]
        need = wait["need"]
        prompt = {"card": "Tap a " + " or ".join(k.replace("_", " ") for k in wait.get("kinds", ["card"])) + " card",
                  "roll": f"Press to roll the {wait.get('die', 'die')}",
                  "keep_or_reroll": f"Rolled {wait.get('value')}: press again to reroll, hold to keep",
                  "action": "Your turn: tap a card or hold to pass",
                  "lineup": "Set your lineup on the page", "kickoff": "Kick off on the page"}.get(need, need)
        return [header, *wrap(prompt)][:5]

    def _refresh_screens(self) -> None:
        for seat in self.seats():
            self._versions[seat] = self._versions.get(seat, 0) + 1

    def _hardware(self, seat: int, event: dict[str, Any] | None) -> None:
        """Play an event from a pad or button; a refusal goes to the seat's screen, as on the real table."""
        with self._lock:
            self._said.pop(seat, None)
            if event is None:
                self._said[seat] = NOTHING_TO_ROLL
            else:
                try:
                    self._play(event)
                except (ValueError, KeyError) as refusal:
                    self._said[seat] = str(refusal.args[0] if refusal.args else refusal)
            self._refresh_screens()
        self.changed()

    def tapped(self, seat: int, card_id: str) -> None:
        """A card lay down on a seat's pad."""
        if self.enrolment is not None:
            with self._lock:
                self.enrolment = {"state": "tapped", "uid": "04-A3-1F-%02X" % (len(self.enrolled) + 16),
                                  "pad": f"seat{seat}"}
                self._refresh_screens()
            self.changed()
            return
        card = self.profile.cards.get(card_id)
        kind = card.kind if card is not None else ""
        if kind == "sponsor":
            # The real table steps through the contract kinds on the button; this stand-in leaves that to the page.
            with self._lock:
                self._said[seat] = SPONSOR_ON_PAGE
                self._refresh_screens()
            self.changed()
            return
        self._hardware(seat, {"type": CARD_EVENTS.get(kind, kind or "tap"), "seat": seat, "card": card_id})

    def pressed(self, seat: int, hold: bool) -> None:
        """A seat's button was pressed (or held)."""
        wait = self._awaited(seat)
        need = wait["need"] if wait else None
        event: dict[str, Any] | None = None
        if need == "keep_or_reroll":
            event = {"type": "keep", "seat": seat} if hold else {
                "type": "reroll", "seat": seat, "value": self._roll(wait.get("die", "d6"))}
        elif need == "roll":
            event = {"type": "roll", "seat": seat, "value": self._roll(wait.get("die", "d6"))}
        elif need == "action":
            event = {"type": "pass", "seat": seat}  # as on the table, a hold ends the turn (a press here too)
        self._hardware(seat, event)

    def _roll(self, die: str) -> int:
        faces = int(die[1:]) if die.startswith("d") and die[1:].isdigit() else 6
        return self._dice.randint(1, faces)


class ServedApp:
    """The web app served by uvicorn on a free loopback port in a thread (for browser tests and benchmarks)."""

    def __init__(self, table: StandInTable, startup_seconds: float = 10.0, port: int | None = None) -> None:
        """Serve the app around ``table`` (on ``port``, else a free one); use as a context manager."""
        if port is None:
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = int(probe.getsockname()[1])
        self.port = port
        self.table = table
        self.url = f"http://127.0.0.1:{self.port}"
        self._startup = startup_seconds
        self.server = uvicorn.Server(uvicorn.Config(create_app(table), host="127.0.0.1", port=self.port,
                                                    log_level="warning", timeout_graceful_shutdown=2))
        self._thread = threading.Thread(target=self.server.run, name="touchline-web", daemon=True)

    def start(self) -> ServedApp:
        """Start serving; return once the server accepts connections."""
        self._thread.start()
        deadline = time.monotonic() + self._startup
        while not self.server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError(f"the web app did not start on {self.url}")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        """End the live streams, ask the server to stop and wait for it."""
        close_live(self.server.config.app)
        self.server.should_exit = True
        self._thread.join(timeout=10)

    def __enter__(self) -> ServedApp:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    """Serve the page around a stand-in table on loopback (``python -m web.testing --port 8001``)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m web.testing", description=main.__doc__)
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--pin", default=PIN)
    args = parser.parse_args(argv)
    print(f"stand-in table on http://127.0.0.1:{args.port}/ (PIN {args.pin})", flush=True)
    uvicorn.run(create_app(StandInTable(pin=args.pin)), host="127.0.0.1", port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
