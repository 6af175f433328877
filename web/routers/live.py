"""Server push: every change at the table goes to every open page as a Server-Sent Event."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from fastapi import APIRouter, Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from web.deps import ViewerDep
from web.live import STREAM, Broadcast, Viewer

router = APIRouter(prefix="/api", tags=["live"])

#: How long a browser waits before reconnecting after the stream broke (milliseconds).
RETRY_MS = 1000
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
RETRY = f"retry: {RETRY_MS}\n".encode()


class LiveResponse(Response):
    """The live stream of one page: the viewer's encoded snapshots as they come, until the page leaves or the app
    stops.

    Kept lean on purpose, since a shop may have hundreds open.  Where the server hands the connection over
    (``web.live.STREAM``), a change writes the bytes every page of the viewer shares straight to it and the page's
    task only waits for it to leave; elsewhere the page's task sends each newest snapshot through ASGI.
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
        connect = scope.get("extensions", {}).get(STREAM)
        if connect is None:
            await self._through_asgi(receive, send)
            return
        gone = asyncio.Event()
        try:
            current = self.broadcast.encoded(self.viewer)
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            await send({"type": "http.response.body", "body": RETRY + current.event, "more_body": True})
        except OSError:
            return  # the page went away while we wrote to it: nothing to tell anyone
        page = self.broadcast.attach(self.viewer, connect(), current.version)
        watcher = asyncio.ensure_future(self._until_gone(receive, gone, page.end))
        try:
            await page.ended()
            if not gone.is_set():
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            pass
        finally:
            page.leave()
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher

    async def _through_asgi(self, receive: Receive, send: Send) -> None:
        """Each newest snapshot sent through ASGI by this page's own task."""
        updates = self.broadcast.subscribe(self.viewer)
        gone = asyncio.Event()
        watcher = asyncio.ensure_future(self._until_gone(receive, gone, updates.end))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            await send({"type": "http.response.body", "body": RETRY, "more_body": True})
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

    @staticmethod
    async def _until_gone(receive: Receive, gone: asyncio.Event, end: Callable[[], None]) -> None:
        """Wait for the page to leave, then end its stream now rather than at the next change."""
        while (await receive())["type"] != "http.disconnect":
            pass
        gone.set()
        end()


@router.get("/live", response_class=LiveResponse, status_code=200, summary="A stream of snapshots (text/event-stream)",
            responses={200: {"content": {"text/event-stream": {}},
                             "description": "`event: snapshot` with the snapshot's JSON as `data`, at once and then "
                                            "after each change; `?seat=N` (with the PIN) shows that club's secrets"}})
async def live(request: Request, viewer: ViewerDep) -> LiveResponse:
    """Send the current snapshot, then a new one each time anything changes; ends when the app stops."""
    return LiveResponse(request.app.state.live, viewer)
