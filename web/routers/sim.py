"""The virtual table: the simulated pads, buttons and screens of a table running in simulation."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from engine.views import EVERYTHING
from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from web import errors, models
from web.deps import GuardDep, SimDep, TableDep, Unlocked
from web.interface import SimulatedHardware, Table

router = APIRouter(prefix="/api/sim", tags=["virtual table"])


def _ids(sim: SimulatedHardware, what: str) -> set[str]:
    return {item["id"] for item in sim.layout().get(what, [])}


def _known(sim: SimulatedHardware, what: str, name: str, sentence: str) -> None:
    if name not in _ids(sim, what):
        raise errors.NotFound(sentence.format(**{what[:-1]: name}))


@router.get("/layout", summary="Seats with their pads, buttons and screens")
def layout(sim: SimDep) -> dict[str, Any]:
    """Ids and labels of every simulated pad, button and screen."""
    return sim.layout()


@router.get("/screens/{screen}.png", summary="The frame a simulated screen holds now",
            responses={200: {"content": {"image/png": {}}}}, response_class=Response)
def screen(screen: str, sim: SimDep, request: Request, guard: GuardDep) -> Response:
    """The simulated display's image as PNG; never cached, since it changes as the game goes.  While a seat's
    screen shows what only that seat may see (its Objective tapped at the Winter Break), only the owner gets it."""
    _known(sim, "screens", screen, errors.UNKNOWN_SCREEN)
    if guard.session_id(request) is None and _lines(request, "table", screen) != _lines(request, EVERYTHING, screen):
        raise errors.Forbidden(errors.SCREEN_SECRET)
    return Response(sim.frame_png(screen), media_type="image/png", headers={"Cache-Control": "no-store"})


def _lines(request: Request, viewer: str, screen: str) -> Any:
    """A screen's lines as ``viewer``'s snapshot shows them (built once per change, as the live stream's)."""
    return json.loads(request.app.state.live.encoded(viewer).json).get("screens", {}).get(screen, {}).get("lines")


async def _do(table: Table, act: Callable[[], None]) -> dict[str, Any]:
    """Do it as a hand would (in a worker thread: a simulated chip or pin may take a moment), then answer once the
    table has handled what it did, so the next request sees the result."""
    await run_in_threadpool(act)
    await table.idle()
    return {"ok": True}


@router.post("/place", summary="Put a card on a pad")
async def place(body: models.PadCard, _: Unlocked, sim: SimDep, table: TableDep) -> dict[str, Any]:
    """The pad reads the card's tag as a real reader would."""
    _known(sim, "pads", body.pad, errors.UNKNOWN_PAD)
    if not any(card.get("id") == body.card for card in table.deck()):
        raise errors.NotFound(errors.UNKNOWN_CARD.format(card=body.card))
    return await _do(table, lambda: sim.place(body.pad, body.card))


@router.post("/lift", summary="Take the card off a pad")
async def lift(body: models.Pad, _: Unlocked, sim: SimDep, table: TableDep) -> dict[str, Any]:
    """The pad goes empty."""
    _known(sim, "pads", body.pad, errors.UNKNOWN_PAD)
    return await _do(table, lambda: sim.lift(body.pad))


@router.post("/press", summary="Press a button briefly")
async def press(body: models.Button, _: Unlocked, sim: SimDep, table: TableDep) -> dict[str, Any]:
    """Press and release."""
    _known(sim, "buttons", body.button, errors.UNKNOWN_BUTTON)
    return await _do(table, lambda: sim.press(body.button))


@router.post("/hold", summary="Hold a button past its hold time")
async def hold(body: models.Button, _: Unlocked, sim: SimDep, table: TableDep) -> dict[str, Any]:
    """Hold, then release."""
    _known(sim, "buttons", body.button, errors.UNKNOWN_BUTTON)
    return await _do(table, lambda: sim.hold(body.button))
