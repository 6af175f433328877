"""Serving the table: build it from the table file, start its drivers, serve the page with uvicorn, stop cleanly."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import time
from pathlib import Path
from typing import Any

import engine
from device.connections import ConnectionLimits, server_options
from device.errors import DeckError
from device.hardware import Hardware, TableHardware
from device.page_access import StoredSessions, button_state
from device.running import RunningTable
from device.session import Session
from device.sim import SimHardware
from device.table_file import TableConfig
from drivers.dice import Dice

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


def build_table(config: TableConfig, *, sim: bool, db_path: Path, dice: Dice | None = None) -> RunningTable:
    """The running table for a table file: store, dice, drivers and the game session, resumed from the log."""
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
    hardware = build_hardware(config, sim=sim)
    session = Session(config, store, dice or SystemDice(), profile=profile)
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


async def serve(table: RunningTable, *, host: str, port: int) -> int:
    """Start the table, serve the page with uvicorn in this loop, tell systemd when ready; return the exit code."""
    import uvicorn

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
    server = _make_server(uvicorn.Config(make_app(table, host), host=host, port=port, log_level="warning", lifespan="on",
                                         # uvicorn's lines go through our handler, which collapses repeats
                                         log_config=None, access_log=False, **server_options(ConnectionLimits())))
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
    watchdog = asyncio.create_task(_watchdog(notifier, table.hardware)) if notifier.watchdog_seconds else None
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
