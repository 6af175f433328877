"""Serving the table: build it from the table file, start its drivers, serve the page with uvicorn, stop cleanly."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import signal
import socket
import time
from pathlib import Path
from collections.abc import Callable
from typing import Any

import engine
from device.connections import ConnectionLimits, import_uvicorn, server_options
from device.errors import DeckError
from device.hardware import Hardware, TableHardware
from device.page_access import StoredSessions, button_state
from device.running import RunningTable
from device.session import Session
from device.sim import SimHardware
from device.table_file import TableConfig
from drivers.base import ManualClock
from drivers.dice import Dice
from drivers.memory import give_back, one_arena

log = logging.getLogger(__name__)

READY_TIMEOUT = 10.0
"""Seconds to wait for the web server to listen before giving up."""
PORT_UNAVAILABLE = (
    "The page cannot listen on {host}:{port} ({reason}). Another program may use that port: stop it, or start "
    "the table with --port and another number."
)
WATCHDOG_WITHHELD = "The watchdog is no longer told the table lives, so systemd restarts it."
STARTED = "Touchline is running: the page is on http://{host}:{port}/ (PIN {pin})."


def build_hardware(config: TableConfig, *, sim: bool) -> Hardware:
    """The table's drivers: simulated ones (``--sim``, or a table file with backend = "sim"), else real ones."""
    if sim or config.backend == "sim":
        return SimHardware(config)
    return TableHardware(config, backend="real")


def build_table(config: TableConfig, *, sim: bool, db_path: Path, dice: Dice | None = None,
                clock: ManualClock | None = None) -> RunningTable:
    """The running table for a table file: store, dice, drivers and the game session, resumed from the log.

    With a manual ``clock`` the table is simulated and stepped by hand: each simulated tap or press is read before
    it returns, and time passes only when the clock is moved on (tests).
    """
    from device.store import open_store
    from drivers.dice import SystemDice

    from engine.deal_check import check_deal
    from engine.loader import DataError

    store = open_store(db_path)
    try:
        # The deck first: a missing folder, a broken file or too few cards is a sentence before anything starts.
        profile = engine.load_profile(config.deck)
        problem = check_deal(profile, len(config.seats), str(config.deck or "shipped with Touchline"))
        if problem is not None:
            raise DeckError(problem)
    except DataError as exc:
        store.close()
        raise DeckError(str(exc)) from exc
    except DeckError:
        store.close()
        raise
    hardware = SimHardware(config, clock=clock, threaded=False) if clock is not None else build_hardware(config, sim=sim)
    options: dict[str, Any] = {"clock": clock} if clock is not None else {}
    session = Session(config, store, dice or SystemDice(), profile=profile, **options)
    session.tag_text = getattr(hardware, "card_id_on", None)
    session.pressed = button_state(hardware)
    if hardware.sim is not None:
        hardware.sim.attach(session)
    return RunningTable(session, hardware, pin=store.table_pin())


def make_app(table: RunningTable, host: str = "") -> Any:
    """The page's app for a running table, with everything a table on a shop's Wi-Fi needs: sessions kept in the
    log, the owner's code from the table's screen, and only the table's own names answered."""
    from web.app import create_app
    from web.limits import TableNames

    config = table.session.config
    return create_app(table, sessions=StoredSessions(table.session.store), owner_codes=table.session.owner_code,
                      names=TableNames((host, config.host, *config.names)))


class _Notifier:
    """systemd's sd_notify (READY=1 and the watchdog); does nothing when not run by systemd."""

    def __init__(self) -> None:
        import sdnotify

        self._notifier = sdnotify.SystemdNotifier()
        usec = int(os.environ.get("WATCHDOG_USEC", "0") or 0)
        self.watchdog_seconds = usec / 1_000_000 / 2 if usec else 0.0

    def notify(self, message: str) -> None:
        self._notifier.notify(message)


GRACE_SECONDS = 5.0
"""How long a stop waits for requests still running (a live page's stream ends at once)."""
STALLED_SECONDS = 0.5
"""How long a stop waits for a live page to take its last bytes before hanging up on it."""
LIVE_PATH = "/api/live"
PAGE_THREADS = 4
"""Threads the page's plain (not async) requests share.  anyio would start up to 40 when many phones ask at once,
each holding its stack and an allocator arena for good; none of those requests waits on anything slower than the
game log's commit, so four keep up, and any more requests wait their turn (they are all answered)."""
PAGE_THREADS_AFTER_SECONDS = 1.0
"""The limit is set this long after the page first answers, so that the start does not wait for anyio to load."""
QUIET_SECONDS = 2.0
"""How long the table is left quiet after a change before the memory that change's work freed is handed back."""


class Service:
    """The running table and its page, served by uvicorn on one event loop (``touchline run``).

    Stopped by SIGINT or SIGTERM (the first one ends every open live stream at once, so an open page never holds
    the stop up), or by :meth:`stop` from any thread.
    """

    def __init__(self, table: RunningTable, *, host: str, port: int) -> None:
        import_uvicorn()
        from uvicorn.config import Config

        self.table = table
        self.host, self.port = host, port
        self.app = make_app(table, host)
        config = Config(self.app, host=host, port=port, log_level="warning", lifespan="on",
                        timeout_graceful_shutdown=GRACE_SECONDS,
                        # uvicorn's lines go through our handler, which collapses repeats
                        log_config=None, access_log=False, **server_options(ConnectionLimits()))
        self.server = _server_class()(config, on_stop=self._end_live)
        self.page_threads: int | None = None
        """How many threads the page's plain requests share, once set (:data:`PAGE_THREADS`)."""
        self.given_back = 0
        """How many times memory freed by the table's work went back to the system (at ready, and after changes)."""
        self._quiet: asyncio.TimerHandle | None = None

    @property
    def started(self) -> bool:
        """Whether the page answers requests."""
        return bool(self.server.started)

    def _end_live(self) -> None:
        from web.app import close_live

        close_live(self.app)

    def stop(self) -> None:
        """Stop serving (from any thread): end the live streams, then let uvicorn shut down."""
        self._end_live()
        self.server.should_exit = True

    async def run(self) -> int:
        """Start the table, serve the page, tell systemd when ready; return the exit code once stopped."""
        notifier = _Notifier()
        try:
            listening = _listen(self.host, self.port)
        except OSError as exc:
            log.error(PORT_UNAVAILABLE.format(host=self.host, port=self.port, reason=exc.strerror or exc))
            return 2
        try:
            await self.table.start()
        except BaseException:
            listening.close()
            await self.table.stop()
            raise
        serving = asyncio.create_task(self.server.serve(sockets=[listening]))
        deadline = time.monotonic() + READY_TIMEOUT
        while not self.server.started and not serving.done() and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        if not self.server.started:
            self.server.should_exit = True
            with contextlib.suppress(BaseException):
                await serving
            await self.table.stop()
            log.error("the web server did not start on %s:%d", self.host, self.port)
            return 1
        _settle()
        self._give_back()
        self.table.watch(self._changed)
        asyncio.get_running_loop().call_later(PAGE_THREADS_AFTER_SECONDS, self._limit_page_threads)
        notifier.notify("READY=1")
        notifier.notify(f"STATUS=Serving on http://{self.host}:{self.port}/")
        log.warning(STARTED.format(host=self.host, port=self.port, pin=self.table.pin))
        watchdog = asyncio.create_task(_watchdog(notifier, self.table.hardware)) if notifier.watchdog_seconds else None
        try:
            await serving
        finally:
            notifier.notify("STOPPING=1")
            if watchdog is not None:
                watchdog.cancel()
            if self._quiet is not None:
                self._quiet.cancel()
            await self.table.stop()
        return 0

    def _limit_page_threads(self) -> None:
        """On the loop: let the page's plain requests share :data:`PAGE_THREADS` threads."""
        import anyio.to_thread

        anyio.to_thread.current_default_thread_limiter().total_tokens = PAGE_THREADS
        self.page_threads = PAGE_THREADS

    def _changed(self) -> None:
        """After a change (on the loop): once the table has been quiet for QUIET_SECONDS, hand back the memory the
        work freed (a new game, a replay, a burst of taps), which the C allocator would otherwise keep for good."""
        if self._quiet is not None:
            self._quiet.cancel()
        self._quiet = asyncio.get_running_loop().call_later(QUIET_SECONDS, self._give_back)

    def _give_back(self) -> None:
        self._quiet = None
        if give_back():
            self.given_back += 1


def _settle() -> None:
    """Once the page answers: keep everything the start made (modules, deck, routes, drivers) out of the garbage
    collector's sweeps for good, and turn the collector on (``touchline run`` starts with it at rest).

    A full sweep of all that would stall every live page for 100 ms and more now and then, and would find it all
    alive anyway.
    """
    gc.freeze()
    gc.enable()


async def serve(table: RunningTable, *, host: str, port: int) -> int:
    """Serve the table's page until stopped (see :class:`Service`); return the exit code."""
    return await Service(table, host=host, port=port).run()


def _server_class() -> type:
    import_uvicorn()
    from uvicorn.server import Server as UvicornServer

    class Server(UvicornServer):
        """uvicorn's server, except that a stop signal ends the live streams at once and does not kill the process.

        uvicorn waits for every open response before it shuts down, and a live page's never ends by itself: the
        first SIGINT or SIGTERM ends them (``on_stop``).  uvicorn re-raises the signal once it has shut down; the
        table still has to stop its drivers and close its log, and systemd should see a clean exit.
        """

        def __init__(self, config: Any, *, on_stop: Callable[[], None]) -> None:
            super().__init__(config)
            self._on_stop = on_stop

        def handle_exit(self, sig: int, frame: Any) -> None:
            if self.should_exit and sig == signal.SIGINT:
                self.force_exit = True
            else:
                self.should_exit = True
                self._on_stop()

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # The live streams have been told to end.  A phone that stopped reading cannot even take their last
            # bytes, and uvicorn would wait for it, then cancel it with a traceback: once the others have ended,
            # hang up on it (it will never read them anyway).
            for server in self.servers:
                server.close()
            deadline = time.monotonic() + STALLED_SECONDS
            while self._stalled() and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            for connection in self._stalled():
                connection.transport.abort()
            await super().shutdown(sockets)

        def _stalled(self) -> list[Any]:
            """Connections still sending a live stream."""
            return [c for c in self.server_state.connections
                    if getattr(c, "cycle", None) is not None and not c.cycle.response_complete
                    and c.cycle.scope.get("path") == LIVE_PATH]

    return Server


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


async def _watchdog(notifier: _Notifier, hardware: Hardware) -> None:
    """Tell systemd the table lives, twice per watchdog period: the loop turns and the scanner and hubs sweep.

    A hung loop, a dead or stuck scanner thread or hub thread stops the pings, and systemd restarts the table.
    """
    told = False  # said once per stall, not at every turn
    while True:
        stalled = hardware.stalled()
        if stalled is None:
            notifier.notify("WATCHDOG=1")
        elif not told:
            log.error("%s %s", stalled, WATCHDOG_WITHHELD)
        told = stalled is not None
        await asyncio.sleep(notifier.watchdog_seconds)


def run_table(config: TableConfig, *, sim: bool, host: str, port: int, db_path: Path) -> int:
    """Run the table until stopped: drivers, game, screens and the web page; return the process exit code."""
    from drivers.errors import DriverError

    one_arena()  # before the drivers' threads start
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
