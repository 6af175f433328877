"""Live updates for many pages at little cost: each viewer's snapshot is built once per change, encoded once, and
the same bytes go to every page of that viewer (``Table.subscribe`` made easy).

A page that reads slowly is never queued up: it is handed the newest bytes when it is ready for more, so memory
does not grow with a stalled phone.

Where the server offers it (``touchline run`` does: ``device.connections``), a page's connection is handed over
through the ASGI extension :data:`STREAM` once its stream has begun, and a change writes the shared bytes straight to
every page's connection (:class:`Page`): no task of a page wakes up and nothing is framed again for it, so a change
costs each open page one write.  Elsewhere (a test client, another server) each page iterates a
:class:`Subscription` and sends through ASGI.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, NamedTuple, Protocol

log = logging.getLogger(__name__)

Viewer = int | str
"""Who looks: ``"table"`` (everyone at the table), a seat number, or ``"all"`` (the owner)."""

STREAM = "touchline.live_stream"
"""The ASGI extension a server offers for a page's response: ``scope["extensions"][STREAM]()`` hands over the
page's connection (a :class:`Connection`), once the response's head and first bytes went through ASGI."""


class Connection(Protocol):
    """A live page's connection, written to directly (the server's side of :data:`STREAM`)."""

    chunked: bool
    """Whether the response is framed in HTTP/1.1 chunks (else its body runs until the connection closes)."""

    def writable(self) -> bool:
        """Whether the page takes more bytes now: False while what it was sent is still waiting to go out (it reads
        slowly), and for good once it left."""

    def write(self, data: bytes) -> None:
        """Write bytes of the response's body, framed already."""

    def when_writable(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (on the loop) each time the page has taken what was waiting for it."""


class Encoded(NamedTuple):
    """One viewer's snapshot at one version, encoded once for every page that shows it."""

    version: int
    json: bytes
    event: bytes
    """The snapshot as one Server-Sent Event (``event: snapshot``)."""
    chunk: bytes
    """The event as one HTTP/1.1 chunk, for a connection written to directly."""


def _chunk(data: bytes) -> bytes:
    return b"%x\r\n%b\r\n" % (len(data), data)


class Broadcast:
    """The encoded snapshot of each viewer, rebuilt only when the table's version moved on.

    ``build(viewer)`` makes the viewer's snapshot (JSON-safe); ``version()`` says which change the table is at.
    Call :meth:`changed` on the loop after every change; pages iterate :meth:`subscribe`, or :meth:`attach` their
    connection.
    """

    def __init__(self, build: Callable[[Viewer], Mapping[str, Any]], version: Callable[[], int],
                 game: Callable[[], Any] = lambda: None) -> None:
        self._build = build
        self._version = version
        self._game = game
        self._game_now = game()
        """The game the open seats' pages were opened in: a seat's page holds its seat in that game only."""
        self._encoded: dict[Viewer, Encoded] = {}
        self._open: set[Subscription] = set()
        self._pages: dict[Viewer, set[Page]] = {}
        self._closed = False

    @property
    def subscribers(self) -> int:
        """How many pages are listening now."""
        return len(self._open) + sum(len(pages) for pages in self._pages.values())

    @property
    def closed(self) -> bool:
        """Whether the server is stopping (every stream ends)."""
        return self._closed

    def encoded(self, viewer: Viewer) -> Encoded:
        """The viewer's snapshot as JSON and as a live-stream event, and the version it shows; built at most once
        per change."""
        self._new_game_ends_seats()
        version = self._version()
        cached = self._encoded.get(viewer)
        if cached is not None and cached.version == version:
            return cached
        snapshot = self._build(viewer)
        body = json.dumps(snapshot, separators=(",", ":"), ensure_ascii=False).encode()
        event = b"event: snapshot\ndata: " + body + b"\n\n"
        built = Encoded(int(snapshot.get("version", version)), body, event, _chunk(event))
        self._encoded[viewer] = built
        return built

    def _new_game_ends_seats(self) -> None:
        """When another game began, end every seat's page opened in the last one before it is sent anything of the
        new game (the page asks again, and its seat session, held in the last game, opens nothing now)."""
        game = self._game()
        if game == self._game_now:
            return
        self._game_now = game
        for viewer, pages in self._pages.items():
            if isinstance(viewer, int):
                for page in pages:
                    page.end()
        for subscription in self._open:
            if isinstance(subscription._viewer, int):
                subscription.end()

    def changed(self) -> None:
        """Send the new snapshot to every page (on the loop that serves them): written at once to the pages whose
        connection was handed over, the others woken to take the newest bytes."""
        self._new_game_ends_seats()
        for viewer, pages in self._pages.items():
            if not pages:
                continue
            try:
                current = self.encoded(viewer)
            except Exception:  # one viewer's broken snapshot must not keep the change from the others
                log.exception("the live snapshot for %r could not be built", viewer)
                continue
            for page in pages:
                page.offer(current)
        for subscription in self._open:
            subscription.wake()

    def close(self) -> None:
        """End every page's stream (the server is stopping); new ones end at once."""
        self._closed = True
        for pages in self._pages.values():
            for page in pages:
                page.end()
        self.changed()

    def subscribe(self, viewer: Viewer) -> Subscription:
        """The viewer's snapshot now, then after each change the newest one, as Server-Sent Events (changes a page
        was too busy for are skipped, never queued)."""
        return Subscription(self, viewer)

    def attach(self, viewer: Viewer, connection: Connection, shown: int) -> Page:
        """Write the viewer's snapshots to ``connection`` from now on; it has been sent version ``shown`` already
        (a newer one goes out at once).  Wait on the page's :meth:`Page.ended`, then :meth:`Page.leave`."""
        page = Page(self, viewer, connection, shown)
        self._pages.setdefault(viewer, set()).add(page)
        if self._closed:
            page.end()
        else:
            page.catch_up()
        return page


class Page:
    """One page whose connection the broadcast writes to directly (see :meth:`Broadcast.attach`)."""

    __slots__ = ("_broadcast", "_viewer", "_connection", "_shown", "_over", "_waiter")  # one per open page

    def __init__(self, broadcast: Broadcast, viewer: Viewer, connection: Connection, shown: int) -> None:
        self._broadcast = broadcast
        self._viewer = viewer
        self._connection = connection
        self._shown = shown
        self._over = False
        self._waiter: asyncio.Future[None] | None = None
        connection.when_writable(self.catch_up)

    def offer(self, current: Encoded) -> None:
        """Write ``current`` unless the page has it already; a page still taking earlier bytes is skipped and gets
        the newest once it has taken them (:meth:`catch_up`), so a slow page never queues snapshots up."""
        if current.version == self._shown or self._over or not self._connection.writable():
            return
        self._connection.write(current.chunk if self._connection.chunked else current.event)
        self._shown = current.version

    def catch_up(self) -> None:
        """Write the newest snapshot if the page has not had it (it took what was waiting)."""
        if self._over:
            return
        try:
            self.offer(self._broadcast.encoded(self._viewer))
        except Exception:
            log.exception("the live snapshot for %r could not be built", self._viewer)

    def end(self) -> None:
        """End the page's stream (it left, or the server stops): nothing more is written to it."""
        self._over = True
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def ended(self) -> Awaitable[None]:
        """Wait until the stream ends (``await page.ended()``, on the loop that serves the page)."""
        if self._waiter is None or self._waiter.cancelled():
            self._waiter = asyncio.get_running_loop().create_future()
            if self._over:
                self._waiter.set_result(None)
        return self._waiter

    def leave(self) -> None:
        """Leave the broadcast."""
        self.end()
        pages = self._broadcast._pages.get(self._viewer)
        if pages is not None:
            pages.discard(self)
            if not pages:
                del self._broadcast._pages[self._viewer]


class Subscription:
    """One page's place in a :class:`Broadcast`: an async iterator of the events it has not seen yet."""

    def __init__(self, broadcast: Broadcast, viewer: Viewer) -> None:
        self._broadcast = broadcast
        self._viewer = viewer
        self._ready = asyncio.Event()
        self._shown = -1
        self._ended = False
        broadcast._open.add(self)

    @property
    def shown(self) -> int:
        """The version of the snapshot handed out last (-1 before the first)."""
        return self._shown

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> bytes:
        while not (self._ended or self._broadcast._closed):
            current = self._broadcast.encoded(self._viewer)
            if self._ended:  # a new game ended this seat's page just now
                break
            if current.version != self._shown:
                self._shown = current.version
                return current.event
            await self._ready.wait()
            self._ready.clear()
        await self.aclose()
        raise StopAsyncIteration

    def wake(self) -> None:
        """Look again for a newer snapshot."""
        self._ready.set()

    def end(self) -> None:
        """End this page's stream now (it left)."""
        self._ended = True
        self._ready.set()

    async def aclose(self) -> None:
        """Leave the broadcast."""
        self._ended = True
        self._broadcast._open.discard(self)
