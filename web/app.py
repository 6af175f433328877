"""The app factory: ``create_app(table)`` builds the table's web page around a running table."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from importlib import import_module, resources
from typing import Any

import asyncio
import logging
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.routing import BaseRoute, Match, NoMatchFound
from starlette.types import Receive, Scope, Send

from web import errors
from web.actions import field_path, message, problems
from web.interface import Table
from web.limits import MAX_BODY_BYTES, BodyLimit, HostCheck, TableNames
from web.live import Broadcast
from web.routers import api, docs, live, pages
from web.security import Guard, OwnerCodes, SeatClaims, SessionStore

log = logging.getLogger(__name__)

LATER: dict[str, tuple[str, ...]] = {
    "web.routers.actions": ("/api/session", "/api/actions/", "/api/lineup/", "/api/choices/"),
    "web.routers.seasons": ("/api/seasons", "/api/games"),
    "web.routers.seat": ("/seat/", "/api/seat/"),
    "web.routers.sim": ("/api/sim/",),
}
"""The routers the page does not need to be shown, each with the paths it answers under: the changes a person makes
(``POST /api/session`` unlocks; ``GET /api/session`` is another router's), seasons and past games, a seat's own phone
page and the virtual table.  Building a route's checks costs about a millisecond; these are imported and included
on the first request to one of their paths (or when /openapi.json is asked for), so the table's page answers that
much sooner after power-on.  Their first request takes that time instead."""


class _Later(BaseRoute):
    """The last route: a request to a path of a router not loaded yet loads it, then is routed again as if it had
    always been there.  It takes itself away once every router is in."""

    def __init__(self, app: FastAPI) -> None:
        self.owner = app
        self.waiting = dict(LATER)

    def _router_for(self, scope: Scope) -> str | None:
        path, root = scope["path"], scope.get("root_path", "")
        path = path[len(root):] if root and path.startswith(root) else path
        # A prefix ending in "/" needs something after it: "/seat/" alone is no seat's page.
        return next((name for name, prefixes in self.waiting.items()
                     if any(path.startswith(p) and (len(path) > len(p) or not p.endswith("/")) for p in prefixes)),
                    None)

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] == "http" and self._router_for(scope) is not None:
            return Match.FULL, {}
        return Match.NONE, {}

    def url_path_for(self, name: str, /, **path_params: Any) -> Any:
        raise NoMatchFound(name, path_params)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        name = self._router_for(scope)
        if name is not None:
            self.load([name])
        await self.owner.router.app(scope, receive, send)

    def load(self, names: Iterable[str]) -> None:
        """Include these routers (each once, in the order :data:`LATER` lists them) where this route stands, so
        the app's routes end in the same order as if they had been included with the others."""
        wanted = set(names)
        routes = self.owner.router.routes
        for name in [n for n in self.waiting if n in wanted]:
            del self.waiting[name]
            at = routes.index(self)
            del routes[at]
            before = len(routes)
            self.owner.include_router(import_module(name).router)
            added = routes[before:]
            del routes[before:]
            routes[at:at] = [*added, self] if self.waiting else added


def load_routes(app: FastAPI) -> FastAPI:
    """Include every router of the app now, those loaded on first use too (the interface description lists them
    all; tests reading every route)."""
    later = next((r for r in app.router.routes if isinstance(r, _Later)), None)
    if later is not None:
        later.load(list(later.waiting))
    return app


async def _invalid(_: Request, exc: Exception) -> JSONResponse:
    """422 naming each bad field, plus one sentence a person can read."""
    assert isinstance(exc, RequestValidationError)
    detail = [{"loc": list(p.get("loc", ())), "field": field_path(tuple(p.get("loc", ()))), "msg": message(p),
               "type": p.get("type")} for p in exc.errors()]
    return JSONResponse({"detail": detail, "message": f"Please correct: {problems(exc.errors())}."}, status_code=422)


async def _forbidden(_: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"detail": str(exc)}, status_code=403)


async def _not_found(_: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"detail": str(exc)}, status_code=404)


async def _cannot_save(_: Request, exc: Exception) -> JSONResponse:
    """The table could not write (a full or read-only card): 503 with its sentence; nothing changed."""
    assert isinstance(exc, OSError)
    sentence = exc.args[0] if exc.errno is None and exc.args and isinstance(exc.args[0], str) else errors.INTERNAL
    log.warning("a page request could not be carried out: %s", exc)
    return JSONResponse({"detail": sentence}, status_code=503)


async def _internal(_: Request, exc: Exception) -> JSONResponse:
    """Anything else: a sentence for the person, the traceback for the journal (uvicorn logs it)."""
    return JSONResponse({"detail": errors.INTERNAL}, status_code=500)


def create_app(table: Table, *, sessions: SessionStore | None = None, owner_codes: OwnerCodes | None = None,
               names: TableNames | None = None, max_body: int = MAX_BODY_BYTES,
               seat_claims: SeatClaims | None = None) -> FastAPI:
    """Build the web app for a running table.

    ``sessions`` keeps unlocked browsers across restarts (in memory when omitted); ``owner_codes`` are the one-time
    codes the table shows on its screen; ``names``: answer only to these host names (every name when omitted, as
    tests under made-up names need; ``touchline run`` always passes the table's).  Bodies over ``max_body`` bytes
    are refused unread.  ``seat_claims``: the seat pages waiting for a tap of their seat's card, which the table
    grants (the table's own ``seat_claims`` when omitted, if it has them).
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.loop = asyncio.get_running_loop()
        try:
            yield
        finally:
            # Open live streams end here, so the server stops without waiting for every browser to leave.
            app.state.live.close()

    # docs_url/redoc_url off: FastAPI's own pages load their scripts from a CDN; web.routers.docs serves ours.
    app = FastAPI(title="Touchline", version="0.1.0", lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="The table's live state and the actions the page can take (changes need the PIN).")
    app.state.table = table
    # A seat's own page holds its seat in the game being played only (the table's ``game_id``).
    app.state.guard = Guard(lambda: table.pin, sessions=sessions, owner_codes=owner_codes,
                            game=lambda: getattr(table, "game_id", None))
    app.state.seat_claims = seat_claims or getattr(table, "seat_claims", None) or SeatClaims()
    app.state.live = Broadcast(table.snapshot, lambda: table.version, game=lambda: getattr(table, "game_id", None))
    table.watch(app.state.live.changed)
    app.state.loop = None
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(errors.Forbidden, _forbidden)
    app.add_exception_handler(errors.NotFound, _not_found)
    app.add_exception_handler(OSError, _cannot_save)
    app.add_exception_handler(Exception, _internal)
    # Outermost first: a request for another name, then one too large or too slow, is refused before any route,
    # so before the PIN is checked and before its body is read.
    app.add_middleware(BodyLimit, max_bytes=max_body)
    if names is not None:
        app.add_middleware(HostCheck, names=names)
    for module in (pages, api, live, docs):
        app.include_router(module.router)
    app.router.routes.append(_Later(app))
    describe = app.openapi

    def openapi() -> dict[str, Any]:
        """The interface description, the routes of the routers not loaded yet too (FastAPI keeps it once built)."""
        load_routes(app)
        return describe()

    app.openapi = openapi  # type: ignore[method-assign]
    static = resources.files("web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.mount(docs.ASSETS, StaticFiles(directory=docs.assets_folder()), name="docs-assets")
    return app


def close_live(app: FastAPI) -> None:
    """End every open live stream now (from any thread); call it before stopping the server.

    uvicorn waits for open responses before it runs the lifespan's shutdown, so without this an open page would
    hold a graceful stop until uvicorn's ``timeout_graceful_shutdown`` cuts it off.
    """
    loop = app.state.loop
    if loop is not None and not loop.is_closed():
        loop.call_soon_threadsafe(app.state.live.close)
    else:
        app.state.live.close()
