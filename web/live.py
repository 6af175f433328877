"""A broadcaster of snapshots to every open page, safe to publish from any thread."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any


class _Mailbox:
    """One subscriber's slot: only the newest snapshot is kept, so a slow browser never piles up memory."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.latest: dict[str, Any] | None = None
        self.ready = asyncio.Event()

    def put(self, snapshot: dict[str, Any]) -> None:
        self.latest = snapshot
        self.ready.set()


class Hub:
    """Hands each subscriber the current snapshot, then every newer one (``Table.subscribe`` made easy)."""

    def __init__(self, snapshot: Callable[[], dict[str, Any]]) -> None:
        """``snapshot()`` is called once per publish, never once per subscriber."""
        self._snapshot = snapshot
        self._boxes: set[_Mailbox] = set()
        self._lock = threading.Lock()

    @property
    def subscribers(self) -> int:
        """How many pages are listening now."""
        return len(self._boxes)

    def publish(self) -> None:
        """Send the table's snapshot to every subscriber; callable from the loop or from a worker thread."""
        current = self._snapshot()
        with self._lock:
            boxes = list(self._boxes)
        for box in boxes:
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is box.loop:
                box.put(current)
            elif not box.loop.is_closed():
                box.loop.call_soon_threadsafe(box.put, current)

    async def subscribe(self) -> AsyncIterator[dict[str, Any]]:
        """Yield the current snapshot, then each published one (skipping any superseded while we were busy)."""
        box = _Mailbox(asyncio.get_running_loop())
        with self._lock:
            self._boxes.add(box)
        try:
            box.put(self._snapshot())
            while True:
                await box.ready.wait()
                box.ready.clear()
                latest, box.latest = box.latest, None
                if latest is not None:
                    yield latest
        finally:
            with self._lock:
                self._boxes.discard(box)
