"""Server push: every change at the table goes to every open page as a Server-Sent Event."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

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
    # One waiter for the app stopping per page and one task per update (not a task group per update): with 100
    # pages open this halves the time an update takes to reach them all.
    stopping = asyncio.ensure_future(closing.wait())
    following: asyncio.Future[dict[str, Any] | None] | None = None
    try:
        first = True
        while not closing.is_set():
            following = asyncio.ensure_future(anext(updates, None))
            await asyncio.wait({following, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if not following.done():  # the app is stopping
                return
            item = following.result()
            if item is None:
                return
            yield ServerSentEvent(raw_data=_last.encode(item), event="snapshot",
                                  retry=RETRY_MS if first else None)
            first = False
    finally:
        # The page may have gone (our task is being cancelled): the clean-up must still finish, shielded, so the
        # table's subscription is closed only once nothing is waiting on it any more.
        with anyio.CancelScope(shield=True):
            stopping.cancel()
            if following is not None and not following.done():
                following.cancel()
                await asyncio.gather(following, return_exceptions=True)
            aclose = getattr(updates, "aclose", None)
            if aclose is not None:
                await aclose()
