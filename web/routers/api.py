"""Read-only JSON: the table's state, the deck, and whether this browser is unlocked."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response

import engine
from engine.cards import ZONES
from engine.rules.adjust import ADJUSTABLE
from web.choices import asks
from web.deps import GuardDep, TableDep, ViewerDep, profile_of

router = APIRouter(prefix="/api", tags=["state"])


@router.get("/state", summary="Everything the page shows, as JSON", response_class=Response,
            responses={200: {"content": {"application/json": {}}}})
async def state(request: Request, viewer: ViewerDep) -> Response:
    """The table's snapshot: the game view (or null), recent announcements, screens (``?seat=N`` with the PIN: that
    seat's own view); the same bytes the live stream sends."""
    return Response(request.app.state.live.encoded(viewer).json, media_type="application/json")


@router.get("/log", summary="What happened: the whole game's log, a page at a time, newest first")
async def what_happened(table: TableDep, viewer: ViewerDep,
                        before: Annotated[int | None, Query(ge=1, description="only lines older than this line's id")] = None,
                        limit: Annotated[int, Query(ge=1, le=200)] = 50) -> dict[str, Any]:
    """``lines`` (each with its ``id``, ``week``, ``undone`` and text) and ``more`` when older lines are left."""
    return table.said(viewer, before=before, limit=limit)


@router.get("/deck", summary="The cards of the loaded deck, filtered")
def deck(request: Request, table: TableDep, guard: GuardDep,
         q: Annotated[str, Query(max_length=40, description="words in the name or id")] = "",
         kind: Annotated[str | None, Query(max_length=20, pattern=r"^[a-z_]+$")] = None) -> list[dict[str, Any]]:
    """Cards whose name or id contains every word of ``q``, of ``kind`` when given (whether a card's tag is
    enrolled only for the owner: a tag first read in a game would tell everyone which card was just tapped)."""
    words = q.lower().split()
    owner = guard.session_id(request) is not None
    return [card if owner else {k: v for k, v in card.items() if k != "enrolled"} for card in table.deck()
            if (kind is None or card.get("kind") == kind)
            and all(w in f"{card.get('id', '')} {card.get('name', '')}".lower() for w in words)]


@router.get("/choices", summary="The steps only the page can give now, with the choices the rules allow")
def choices(table: TableDep) -> dict[str, Any]:
    """Actions on a club's turn (build, Office, Club potential, hire, Sponsor, token actions, pass), the cards to
    suspend when Maintenance cannot be paid, and Objective results; each option is the engine event to submit, with
    the engine's ``why_not`` when it would refuse it now."""
    return {"asks": asks(profile_of(table), table.snapshot().get("game"), table.game_state())}


@router.get("/session", summary="Whether this browser holds the PIN, and its CSRF token")
def session(request: Request, guard: GuardDep, table: TableDep) -> dict[str, Any]:
    """``unlocked`` and, when unlocked, the token to send as ``X-CSRF-Token`` with every change."""
    sid = guard.session_id(request)
    return {"unlocked": sid is not None, "csrf": guard.csrf_token(sid) if sid else None,
            "simulation": table.sim is not None}


@router.get("/rules", summary="The board profile's limits the lineup editor and corrections need")
def rules(table: TableDep) -> dict[str, Any]:
    """Pitch limits of the board profile (per zone, per section, jerseys on the pitch), jersey numbers, the numbers one
    may correct, and the rule modules and game options a new game may choose with this deck (each option's choices; a
    module the deck lacks data for says so).  What one club's lineup may use in the game in play (its own Stands,
    blank markers, who may play) is in that club's ``limits`` in ``/api/state``."""
    pitch = profile_of(table).board.pitch
    return {
        "pitch": {"zones": list(ZONES), "wing": pitch.wing_capacity, "central": pitch.centre_capacity,
                  "sections": dict(pitch.section_max), "total": pitch.on_pitch, "jerseys": list(pitch.jerseys),
                  "blanks": pitch.blank_jerseys, "start": dict(pitch.start_sections)},
        "adjustable": list(ADJUSTABLE),
        "modules": engine.modules(profile_of(table)),
        "game_options": engine.game_options(profile_of(table)),
    }
