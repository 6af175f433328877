"""Live updates for many pages at little cost: each viewer's snapshot is built once per change, encoded once, and
the same bytes go to every page of that viewer (``Table.subscribe`` made easy).

A page that reads slowly is never queued up: it is handed the newest bytes when it is ready for more, so memory
does not grow with a stalled phone, and the work of a change does not grow with the number of pages beyond waking
each of them.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

Viewer = int | str
"""Who looks: ``"table"`` (everyone at the table), a seat number, or ``"all"`` (the owner)."""


class Encoded(NamedTuple):
    """One viewer's snapshot at one version, encoded once for every page that shows it."""

    version: int
    json: bytes
    event: bytes
    """The snapshot as one Server-Sent Event (``event: snapshot``)."""


class Broadcast:
    """The encoded snapshot of each viewer, rebuilt only when the table's version moved on.

    ``build(viewer)`` makes the viewer's snapshot (JSON-safe); ``version()`` says which change the table is at.
    Call :meth:`changed` on the loop after every change; pages iterate :meth:`subscribe`.
    """

    def __init__(self, build: Callable[[Viewer], Mapping[str, Any]], version: Callable[[], int]) -> None:
        self._build = build
        self._version = version
        self._encoded: dict[Viewer, Encoded] = {}
        self._open: set[Subscription] = set()
        self._closed = False

    @property
    def subscribers(self) -> int:
        """How many pages are listening now."""
        return len(self._open)

    def encoded(self, viewer: Viewer) -> Encoded:
        """The viewer's snapshot as JSON and as a live-stream event, and the version it shows; built at most once
        per change."""
        version = self._version()
        cached = self._encoded.get(viewer)
        if cached is not None and cached.version == version:
            return cached
        snapshot = self._build(viewer)
        body = json.dumps(snapshot, separators=(",", ":"), ensure_ascii=False).encode()
        built = Encoded(int(snapshot.get("version", version)), body, b"event: snapshot\ndata: " + body + b"\n\n")
        self._encoded[viewer] = built
        return built

    def changed(self) -> None:
        """Wake every page (on the loop that serves them): the next bytes they take are the new ones."""
        for subscription in self._open:
            subscription.wake()

    def close(self) -> None:
        """End every page's stream (the server is stopping); new ones end at once."""
        self._closed = True
        self.changed()

    def subscribe(self, viewer: Viewer) -> Subscription:
        """The viewer's snapshot now, then after each change the newest one, as Server-Sent Events (changes a page
        was too busy for are skipped, never queued)."""
        return Subscription(self, viewer)


class Subscription:
    """One page's place in a :class:`Broadcast`: an async iterator of the events it has not seen yet."""

    def __init__(self, broadcast: Broadcast, viewer: Viewer) -> None:
        self._broadcast = broadcast
        self._viewer = viewer
        self._ready = asyncio.Event()
        self._shown = -1
        self._ended = False
        broadcast._open.add(self)

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> bytes:
        while not (self._ended or self._broadcast._closed):
            current = self._broadcast.encoded(self._viewer)
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
