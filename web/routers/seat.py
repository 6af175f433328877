"""A seat's own page (``/seat/N``): what only that club may see, and its secret choices.

A browser opens it with a seat session (``web.security``): the PIN typed on the page, or a tap of one of the seat's
own cards on its pad while the page waits.  The owner's session opens every seat's page too.  The page reads the
seat's view from ``/api/state?seat=N`` and ``/api/live?seat=N`` (``web.deps.get_viewer`` lets the seat's own session
through there), offers the seat's needs the rules mark as its own (``engine.seat_events``) from
``/api/seat/N/choices``, and sends them to ``POST /api/seat/N/event``, which takes nothing else.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Annotated, Any

import engine
from fastapi import APIRouter, Depends, HTTPException, Path, Request, Response
from fastapi.responses import HTMLResponse

from web import errors, models
from web.actions import EventBody
from web.choices import asks
from web.deps import GuardDep, TableDep, profile_of, require_seat
from web.interface import Table
from web.routers.actions import REFUSED, lineup_check, lineup_fill, submit
from web.routers.pages import SECURITY_HEADERS, render
from web.security import (
    CLAIM_SECONDS,
    check_origin,
    request_client,
    seat_cookie,
    set_session_cookie,
)

router = APIRouter(tags=["seat"])
SeatNumber = Annotated[int, Path(ge=1, le=4, description="a seat at the table, 1–4")]
CLAIM_COOKIE = "touchline_claim_{seat}"
SeatUnlocked = Annotated[str, Depends(require_seat)]


def _in_game(table: Table, seat: int) -> None:
    """Refuse (409) when no club plays at ``seat`` in the game being played."""
    game = table.snapshot().get("game")
    if not game or not any(c.get("seat") == seat for c in game.get("clubs", [])):
        raise HTTPException(status_code=409, detail=errors.SEAT_NOT_IN_GAME.format(seat=seat))


@router.get("/seat/{seat}", response_class=HTMLResponse, include_in_schema=False, name="page_seat")
async def seat_page(seat: SeatNumber) -> HTMLResponse:
    """The seat's own page: a shell whose content the seat's view draws once the browser holds the seat."""
    return HTMLResponse(render("seat", title=f"Seat {seat}"), headers=SECURITY_HEADERS)


@router.get("/api/seat/{seat}/session", summary="Whether this browser holds this seat's own page")
def seat_session(seat: SeatNumber, request: Request, guard: GuardDep) -> dict[str, Any]:
    """``unlocked`` (by the seat's own session, or the owner's: ``owner``) and the CSRF token its changes send."""
    own = guard.seat_session(request, seat)
    sid = own or guard.session_id(request)
    return {"seat": seat, "unlocked": sid is not None, "owner": sid is not None and own is None,
            "csrf": guard.csrf_token(sid) if sid else None}


def _give_seat(request: Request, response: Response, guard: Any, seat: int, token: str) -> dict[str, Any]:
    old = guard.seat_session(request, seat)
    if old is not None:  # unlocked again: the new session replaces the old one
        guard.logout(old)
    sid = guard.seat_session_of(token, seat) or ""
    set_session_cookie(response, token, secure=request.url.scheme == "https", max_age=guard.seconds_left(sid),
                       name=seat_cookie(seat))
    return {"seat": seat, "unlocked": True, "csrf": guard.csrf_token(sid)}


@router.post("/api/seat/{seat}/unlock", summary="Open this seat's own page with the table's PIN", responses=REFUSED)
def unlock(seat: SeatNumber, body: models.Login, request: Request, response: Response, guard: GuardDep,
           table: TableDep) -> dict[str, Any]:
    """The PIN, throttled as on the Admin page, gives this browser seat N's own page (nothing else)."""
    check_origin(request)
    _in_game(table, seat)
    has = guard.seat_session(request, seat) is not None or guard.session_id(request) is not None
    token = guard.login(body.pin, request_client(request), has_session=has, seat=seat)
    return _give_seat(request, response, guard, seat, token)


@router.post("/api/seat/{seat}/claim", summary="Wait for a tap of one of this seat's cards", responses=REFUSED)
def claim(seat: SeatNumber, request: Request, response: Response, table: TableDep) -> dict[str, Any]:
    """The next tap of one of the seat's own cards on its pad (within two minutes) unlocks this browser for the
    seat's page instead of being played; ask ``/claim/check`` for it.  A newer page waiting replaces this one."""
    check_origin(request)
    _in_game(table, seat)
    claim_id = request.app.state.seat_claims.open(seat)
    response.set_cookie(CLAIM_COOKIE.format(seat=seat), claim_id, max_age=int(CLAIM_SECONDS), httponly=True,
                        samesite="strict", secure=request.url.scheme == "https", path="/")
    return {"seat": seat, "waiting": True, "seconds": int(CLAIM_SECONDS), "message": errors.TAP_TO_UNLOCK.format(seat=seat)}


@router.post("/api/seat/{seat}/claim/check", summary="Whether the seat's card was tapped for this browser",
             responses=REFUSED)
def claim_check(seat: SeatNumber, request: Request, response: Response, guard: GuardDep) -> dict[str, Any]:
    """``unlocked`` with the CSRF token once the tap came (the seat's session cookie is set then), ``waiting`` while
    the page still waits, else neither (the two minutes ran out, or another page asked for the seat since)."""
    check_origin(request)
    name = CLAIM_COOKIE.format(seat=seat)
    found = request.app.state.seat_claims.take(request.cookies.get(name, ""), seat)
    if found == "granted":
        response.delete_cookie(name, path="/", httponly=True, samesite="strict")
        return _give_seat(request, response, guard, seat, guard.grant_seat(seat))
    return {"seat": seat, "unlocked": False, "waiting": found == "waiting",
            "message": errors.TAP_TO_UNLOCK.format(seat=seat) if found == "waiting" else errors.CLAIM_GONE}


@router.post("/api/seat/{seat}/lock", summary="Close this seat's own page in this browser", responses=REFUSED)
def lock(seat: SeatNumber, request: Request, response: Response, guard: GuardDep) -> dict[str, Any]:
    """End this browser's session of the seat's page on the table."""
    check_origin(request)
    sid = guard.seat_session(request, seat)
    if sid is not None:
        guard.logout(sid)
    response.delete_cookie(seat_cookie(seat), path="/", httponly=True, samesite="strict")
    return {"seat": seat, "unlocked": False}


@router.get("/api/seat/{seat}/choices", summary="The secret choices this seat makes on its own page")
def seat_choices(seat: SeatNumber, _: SeatUnlocked, table: TableDep) -> dict[str, Any]:
    """The seat's needs whose every option is an event the rules mark as the seat's own (``engine.seat_events``),
    built from the seat's own view; each option is the event to send to ``/api/seat/N/event``."""
    return {"asks": seat_asks(table, seat)}


def seat_asks(table: Table, seat: int) -> list[dict[str, Any]]:
    """The asks of the seat's own page (see :func:`seat_choices`)."""
    game = table.snapshot(seat).get("game")
    own = engine.seat_events()
    out = []
    for ask in asks(profile_of(table), game):
        if ask.get("seat") != seat:
            continue
        options = [o for o in ask.get("options", []) if o.get("event", {}).get("type") in own]
        if options:
            elsewhere = len(options) < len(ask.get("options", []))
            out.append({**ask, "options": options,
                        "hint": " ".join(filter(None, (ask.get("hint"), errors.ELSEWHERE if elsewhere else None)))})
    return out


@router.post("/api/seat/{seat}/event", summary="A seat's secret choice, from its own page", responses=REFUSED)
async def seat_event(seat: SeatNumber, body: EventBody, _: SeatUnlocked, table: TableDep) -> dict[str, Any]:
    """Only an event the rules mark as a seat's own (a bet, an arrangement, the Objective kept) and only for this
    seat; anything else is refused and nothing changes."""
    event = body.event()
    if event.get("type") not in engine.seat_events():
        raise HTTPException(status_code=403, detail=errors.NOT_A_SEAT_EVENT.format(
            type=event.get("type"), events=", ".join(sorted(engine.seat_events()))))
    _own(seat, event.get("seat"))  # type: ignore[arg-type]
    return await submit(table, body)


def _own(seat: int, asked: int) -> None:
    """Refuse (403) a request of seat ``seat``'s page about another seat's club."""
    if asked != seat:
        raise HTTPException(status_code=403, detail=errors.OTHER_SEAT_EVENT.format(seat=seat))


@router.post("/api/seat/{seat}/lineup/check", summary="Ask the rules about this seat's arrangement being built",
             responses=REFUSED)
def seat_lineup_check(seat: SeatNumber, body: models.LineupDraft, sid: SeatUnlocked, table: TableDep) -> dict[str, Any]:
    """As ``/api/lineup/check``, for the seat's own club from its own page."""
    _own(seat, body.seat)
    return lineup_check(body, sid, table)


@router.post("/api/seat/{seat}/lineup/fill", summary="Let the rules place the rest of this seat's arrangement",
             responses=REFUSED)
def seat_lineup_fill(seat: SeatNumber, body: models.LineupDraft, sid: SeatUnlocked, table: TableDep) -> dict[str, Any]:
    """As ``/api/lineup/fill``, for the seat's own club from its own page."""
    _own(seat, body.seat)
    return lineup_fill(body, sid, table)


@router.get("/api/seat/{seat}/qr.svg", summary="A QR code of this seat's own page's address", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}})
def qr(seat: SeatNumber, request: Request) -> Response:
    """The address of ``/seat/N`` as the browser reached the table, as a QR code a phone's camera opens."""
    return Response(_qr_svg(f"{str(request.base_url).rstrip('/')}/seat/{seat}"), media_type="image/svg+xml",
                    headers={"Cache-Control": "max-age=3600"})


@lru_cache(maxsize=32)
def _qr_svg(address: str) -> bytes:
    import segno  # loaded when a QR code is first asked for, not with every start of the table

    out = io.BytesIO()
    segno.make(address, error="m").save(out, kind="svg", scale=4, border=2, title=address)
    return out.getvalue()
