"""Dependencies shared by the routers; tests override them with ``app.dependency_overrides``.

Each is ``async def`` although none awaits: FastAPI runs a plain ``def`` dependency in a worker thread, and a shop's
hundred pages opening their live stream at once would each take one.
"""

from __future__ import annotations

from typing import Annotated

import engine
from engine.views import TABLE as TABLE_VIEWER
from fastapi import Depends, Query, Request

from web import errors
from web.interface import SimulatedHardware, Table
from web.security import CSRF_FIELD, CSRF_HEADER, Guard, check_origin


async def get_table(request: Request) -> Table:
    """The running table the app was made for."""
    return request.app.state.table


async def get_guard(request: Request) -> Guard:
    """The app's PIN guard."""
    return request.app.state.guard


TableDep = Annotated[Table, Depends(get_table)]
GuardDep = Annotated[Guard, Depends(get_guard)]


async def require_pin(request: Request, guard: GuardDep) -> str:
    """Let a state-changing request through only with the PIN's session, its CSRF token and our Origin."""
    check_origin(request)
    sid = guard.session_id(request)
    if sid is None:
        raise errors.Forbidden(errors.PIN_REQUIRED)
    token = request.headers.get(CSRF_HEADER)
    if token is None and request.headers.get("content-type", "").startswith(
            ("application/x-www-form-urlencoded", "multipart/form-data")):
        token = str((await request.form()).get(CSRF_FIELD) or "") or None
    guard.check_csrf(sid, token)
    return sid


def profile_of(table: Table) -> engine.Profile:
    """The deck and board profile the table plays with (the demo one when the table does not say)."""
    profile = getattr(table, "profile", None)
    return profile if profile is not None else engine.load_profile()


async def get_sim(table: TableDep) -> SimulatedHardware:
    """The simulated hardware; refused on a real table."""
    sim = table.sim
    if sim is None:
        raise errors.NotFound(errors.NO_SIMULATION)
    return sim


async def get_viewer(request: Request, guard: GuardDep,
               seat: Annotated[int | None, Query(ge=1, le=4, description="a seat's own view (that seat's own page, "
                                                                       "or the PIN)")] = None,
               ) -> int | str:
    """Who looks: everyone at the table, or (``?seat=N``, for a browser holding seat N's own page or the PIN) that
    seat's club."""
    if seat is None:
        return TABLE_VIEWER
    if guard.seat_session(request, seat) is None and guard.session_id(request) is None:
        raise errors.Forbidden(errors.SEAT_VIEW_NEEDS_PIN.format(seat=seat))
    return seat


async def require_seat(request: Request, guard: GuardDep, seat: int) -> str:
    """Let a request about seat ``seat``'s own page through only for a browser holding that seat (or the PIN); a
    change also needs that session's CSRF token and our Origin."""
    sid = guard.seat_session(request, seat) or guard.session_id(request)
    if sid is None:
        raise errors.Forbidden(errors.SEAT_VIEW_NEEDS_PIN.format(seat=seat))
    if request.method not in ("GET", "HEAD"):
        check_origin(request)
        guard.check_csrf(sid, request.headers.get(CSRF_HEADER))
    return sid


Unlocked = Annotated[str, Depends(require_pin)]
ViewerDep = Annotated[int | str, Depends(get_viewer)]
SimDep = Annotated[SimulatedHardware, Depends(get_sim)]
