"""The running table for the page: the drivers' threads hand readings to one asyncio loop, which applies them one at
a time to the session, redraws the displays and wakes the page's subscribers (``web.interface.Table``)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable
from typing import Any

from device.hardware import Hardware
from device.screens import Message, Pager
from device.session import Session
from drivers.base import HealthReading
from engine.errors import EngineError
from engine.views import TABLE as TABLE_VIEWER
from web.actions import TableAction
from web.live import Viewer

log = logging.getLogger(__name__)

TICK_SECONDS = 0.25
"""How often reroll windows are checked for expiry, and long messages for their next page."""


class RunningTable:
    """The table as the web app sees it (``web.interface.Table``): one loop applies every input in turn."""

    def __init__(self, session: Session, hardware: Hardware, *, pin: str) -> None:
        self.session = session
        self.hardware = hardware
        self.pin = pin
        self._queue: asyncio.Queue[Any] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock: asyncio.Lock | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self.pager = Pager(session.clock)
        """Which page of a long message each screen shows, turned on the session's clock."""
        self._watchers: list[Callable[[], None]] = []
        self._drawn: dict[str, int] = {}
        """How many frames each display has been sent: the page fetches a frame again when it grows."""
        self._frames = 0
        """Frames drawn on every display together."""
        self._told = -1
        """The session's version the page was last told of."""
        self.processed = 0
        """Readings handled so far (tests and the simulated table wait on it)."""
        self.intercept: Callable[[Any], bool] | None = None
        """Sees each reading a driver hands in first; when it returns True the reading is not played (``touchline
        demo`` stops on the first tap or press a person makes)."""
        self.demo: Any = None
        """The demo's state while ``touchline demo`` runs (the page shows it), else None."""
        session.seat_claims.listener = self._phone_waits

    @property
    def sim(self) -> Any:
        """The simulated hardware, or None on a real table."""
        return self.hardware.sim

    @property
    def profile(self) -> Any:
        """The deck and board profile the table plays with."""
        return self.session.profile

    def game_state(self) -> Any:
        """The engine's state of the game in play (None before the first game)."""
        return self.session.state

    @functools.cached_property
    def seasons(self) -> Any:
        """The seasons kept in the table's log, as the page reads and changes them (``web.interface.Seasons``)."""
        from device.seasons import SeasonBook

        return SeasonBook(self.session.store)

    @property
    def game_id(self) -> int | None:
        """The number of the game in the log the table shows, or None before the first."""
        return self.session.game

    @property
    def seat_claims(self) -> Any:
        """Seat pages waiting for a tap of one of their seat's cards (``web.security.SeatClaims``)."""
        return self.session.seat_claims

    @property
    def version(self) -> int:
        """Grows with every change of the game and every frame drawn or being drawn (a snapshot carries the version
        it shows): a snapshot is never older than the screens it names, whichever thread asks between a change and
        its redraw."""
        return self.session.version + self._frames

    # -- life cycle -----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the drivers' threads and the loop's tasks; draw every screen once."""
        self._loop = asyncio.get_running_loop()
        self._queue = asyncio.Queue()
        self._lock = asyncio.Lock()
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

    @property
    def running(self) -> bool:
        """Whether the table has started (its loop takes readings)."""
        return self._queue is not None

    def _emit(self, reading: Any) -> None:
        """Called from a driver's thread: hand the reading to the loop."""
        if self.intercept is not None and not isinstance(reading, HealthReading) and self.intercept(reading):
            return
        if self._loop is not None and self._queue is not None and not self._loop.is_closed():
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
            if self.session.waiting_on_time():
                version = self.session.version
                async with self._lock:
                    await asyncio.to_thread(self.session.tick)
                if self.session.version != version:
                    await self._after_change()
                    continue
            if self.session.seat_claims.ran_out():
                await asyncio.to_thread(self.session.refresh)  # the seat's screen no longer asks for a tap
                await self._after_change()
                continue
            if self.pager.due():
                # Only a page turns: the displays change, the game and the page's snapshot do not.
                await asyncio.to_thread(self.redraw)

    def _phone_waits(self, seat: int) -> None:
        """A seat's page waits for a tap (called from the page's thread): its screen asks for one now."""
        self.session.refresh()
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self._after_change()))

    def feed(self, reading: Any) -> None:
        """Hand a reading in from the loop itself, as a driver would (``touchline demo`` plays its steps so)."""
        assert self._queue is not None, "the table has not started"
        self._queue.put_nowait(reading)

    async def set_aside(self, message: Message) -> None:
        """End the game in play without a result (kept in the log as abandoned) and show ``message`` on every screen."""
        assert self._lock is not None
        async with self._lock:
            await asyncio.to_thread(self.session.set_aside, message)
        await self._after_change()

    async def idle(self) -> None:
        """Wait until every reading handed in so far has been handled."""
        if self._queue is not None:
            await self._queue.join()

    async def _after_change(self) -> None:
        """Tell the page as soon as the new frames are counted, while the screens are drawn: a snapshot built from
        here on shows the change and the frames drawn for it (a frame read meanwhile waits for them)."""
        loop = asyncio.get_running_loop()
        counted: asyncio.Future[int] = loop.create_future()

        def planned(frames: int) -> None:
            loop.call_soon_threadsafe(lambda: counted.done() or counted.set_result(frames))

        drawing = asyncio.ensure_future(asyncio.to_thread(self.redraw, planned))
        try:
            await asyncio.wait((counted, drawing), return_when=asyncio.FIRST_COMPLETED)
            if counted.done() and (counted.result() or self.session.version != self._told):
                # Otherwise nothing the page shows has changed (a refusal said on no screen).
                self._told = self.session.version
                for changed in self._watchers:
                    changed()
        finally:
            await drawing

    def redraw(self, planned: Callable[[int], None] | None = None) -> int:
        """Draw the screens whose text or page changed (one redraw at a time: two changes may finish together);
        returns how many were drawn.

        ``planned(frames)`` is called once the new frames are counted in the screens' versions, before they are
        drawn; the displays' ``drawing`` lock is held until they are, so a frame read meanwhile waits for them.
        """
        with self.hardware.drawing:
            frames = self.pager.changed(self.session.screens())
            for screen_id in frames:
                self._drawn[screen_id] = self._drawn.get(screen_id, 0) + 1
            self._frames += len(frames)
            if planned is not None:
                planned(len(frames))
            for screen_id, (screen, page) in frames.items():
                self.hardware.show(screen_id, screen, page)
            self.hardware.lights(self.session.waiting_seats())
        return len(frames)

    # -- web.interface.Table -------------------------------------------------------------------------

    def snapshot(self, viewer: Viewer = TABLE_VIEWER) -> dict[str, Any]:
        """Everything the page shows a viewer, JSON-safe (a screen's version counts the frames its display was sent)."""
        version = self.version
        snapshot = self.session.snapshot(viewer)
        for screen_id, screen in snapshot["screens"].items():
            screen["version"] = self._drawn.get(screen_id, 0)
            # A long message turns its pages without a change of the game: the virtual table fetches frames meanwhile.
            screen["page"], screen["pages"] = self.pager.shown(screen_id)
        # The seats' colours from the table file: the page draws each club in its seat's colour (charts, TV).
        seats = [{"seat": s.number, "colour": s.colour} for s in self.session.config.seats]
        demo = self.demo.as_dict() if self.demo is not None else None
        return {**snapshot, "seats": seats, "demo": demo, "simulation": self.sim is not None, "version": version}

    def said(self, viewer: Viewer = TABLE_VIEWER, *, before: int | None = None, limit: int = 50) -> dict[str, Any]:
        """A page of the game's whole log as the viewer may read it, newest first (``lines``, ``more``)."""
        return self.session.said(viewer, before=before, limit=limit)

    def watch(self, changed: Callable[[], None]) -> None:
        """Call ``changed()`` on the loop after every change at the table (the page's live updates)."""
        self._watchers.append(changed)

    async def submit(self, action: TableAction) -> dict[str, Any]:
        """Apply one page action; ValueError with a sentence when refused (nothing changes)."""
        assert self._lock is not None
        try:
            async with self._lock:
                return await asyncio.to_thread(self.session.page, action)
        except (ValueError, EngineError) as refusal:
            # The engine words a refusal with seat numbers and ids; the page names clubs and cards.
            sentence = refusal.args[0] if refusal.args and isinstance(refusal.args[0], str) else str(refusal)
            raise ValueError(self.session.reader().text(sentence)) from refusal
        finally:
            await self._after_change()  # a refusal changes nothing, but may say why on the screens

    def deck(self) -> list[dict[str, Any]]:
        """Every card of the loaded deck: id, name and kind (an Opponent card also its team and Divisions)."""
        enrolled = self.session.enrolled_cards()
        return [
            {"id": card.id, "name": card.name, "kind": card.kind, "enrolled": card.id in enrolled,
             **({"team": card.team, "divisions": list(card.divisions)} if card.kind == "opponent" else {})}
            for card in self.session.profile.cards.values()
        ]
