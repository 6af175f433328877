"""Server push: every change at the table goes to every open page as a Server-Sent Event."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import anyio
from fastapi import APIRouter, Request
from fastapi.sse import EventSourceResponse, ServerSentEvent

from web.deps import TableDep

router = APIRouter(prefix="/api", tags=["live"])

#: How long a browser waits before reconnecting after the stream broke (milliseconds).
RETRY_MS = 1000


class _LastEncoded:
    """The JSON of the last snapshot sent: a table that hands every page the same object is encoded once, not once
    per page (with 100 pages open that is most of the work of an update)."""

    def __init__(self) -> None:
        self.item: object = None
        self.text = ""

    def encode(self, item: dict[str, object]) -> str:
        if item is not self.item:
            self.item, self.text = item, json.dumps(item, separators=(",", ":"))
        return self.text


_last = _LastEncoded()


@router.get("/live", response_class=EventSourceResponse, summary="A stream of snapshots (text/event-stream)")
async def live(request: Request, table: TableDep) -> AsyncIterator[ServerSentEvent]:
    """Send the current snapshot, then a new one each time anything changes; ends when the app stops."""
    closing: asyncio.Event = request.app.state.closing
    updates = table.subscribe()
    try:
        first = True
        while not closing.is_set():
            item = None
            # Wait for the next update or the app stopping, whichever comes first, so shutdown never hangs on us.
            async with anyio.create_task_group() as group:
                async def _stop() -> None:
                    await closing.wait()
                    group.cancel_scope.cancel()

                group.start_soon(_stop)
                item = await anext(updates, None)
                group.cancel_scope.cancel()
            if item is None:
                return
            yield ServerSentEvent(raw_data=_last.encode(item), event="snapshot",
                                  retry=RETRY_MS if first else None)
            first = False
    finally:
        aclose = getattr(updates, "aclose", None)
        if aclose is not None:
            await aclose()
