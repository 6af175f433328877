"""Server push: every change at the table goes to every open page as a Server-Sent Event."""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from web.deps import ViewerDep
from web.live import Broadcast, Subscription, Viewer

router = APIRouter(prefix="/api", tags=["live"])

#: How long a browser waits before reconnecting after the stream broke (milliseconds).
RETRY_MS = 1000
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


class LiveResponse(Response):
    """The live stream of one page: the viewer's encoded snapshots as they come, until the page leaves or the app
    stops.

    Kept lean on purpose, since a shop may have hundreds open: one task per page waits for it to leave, and a change
    costs each page only the hand-over of the bytes every page of its viewer shares.
    """

    media_type = "text/event-stream"

    def __init__(self, broadcast: Broadcast, viewer: Viewer) -> None:
        # Not Response.__init__: a stream has no body, so no Content-Length either.
        self.status_code = 200
        self.background = None
        self.init_headers(HEADERS)
        self.broadcast = broadcast
        self.viewer = viewer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        updates = self.broadcast.subscribe(self.viewer)
        gone = asyncio.Event()
        watcher = asyncio.ensure_future(self._until_gone(receive, gone, updates))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            await send({"type": "http.response.body", "body": f"retry: {RETRY_MS}\n".encode(), "more_body": True})
            async for event in updates:
                if gone.is_set():
                    break
                await send({"type": "http.response.body", "body": event, "more_body": True})
            if not gone.is_set():
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            pass  # the page went away while we wrote to it: nothing to tell anyone
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            await updates.aclose()

    async def _until_gone(self, receive: Receive, gone: asyncio.Event, updates: Subscription) -> None:
        """Wait for the page to leave, then wake its stream so it ends now rather than at the next change."""
        while (await receive())["type"] != "http.disconnect":
            pass
        gone.set()
        updates.end()


@router.get("/live", response_class=LiveResponse, status_code=200, summary="A stream of snapshots (text/event-stream)",
            responses={200: {"content": {"text/event-stream": {}},
                             "description": "`event: snapshot` with the snapshot's JSON as `data`, at once and then "
                                            "after each change; `?seat=N` (with the PIN) shows that club's secrets"}})
async def live(request: Request, viewer: ViewerDep) -> LiveResponse:
    """Send the current snapshot, then a new one each time anything changes; ends when the app stops."""
    return LiveResponse(request.app.state.live, viewer)
