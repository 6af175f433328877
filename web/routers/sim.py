"""The virtual table: the simulated pads, buttons and screens of a table running in simulation."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from web import errors, models
from web.deps import SimDep, TableDep, Unlocked
from web.interface import SimulatedHardware

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
def screen(screen: str, sim: SimDep) -> Response:
    """The simulated display's image as PNG; never cached, since it changes as the game goes."""
    _known(sim, "screens", screen, errors.UNKNOWN_SCREEN)
    return Response(sim.frame_png(screen), media_type="image/png", headers={"Cache-Control": "no-store"})


# Handlers below are plain functions: FastAPI runs them in a worker thread, so a simulated chip never blocks the loop.
@router.post("/place", summary="Put a card on a pad")
def place(body: models.PadCard, _: Unlocked, sim: SimDep, table: TableDep) -> dict[str, Any]:
    """The pad reads the card's tag as a real reader would."""
    _known(sim, "pads", body.pad, errors.UNKNOWN_PAD)
    if not any(card.get("id") == body.card for card in table.deck()):
        raise errors.NotFound(errors.UNKNOWN_CARD.format(card=body.card))
    sim.place(body.pad, body.card)
    return {"ok": True}


@router.post("/lift", summary="Take the card off a pad")
def lift(body: models.Pad, _: Unlocked, sim: SimDep) -> dict[str, Any]:
    """The pad goes empty."""
    _known(sim, "pads", body.pad, errors.UNKNOWN_PAD)
    sim.lift(body.pad)
    return {"ok": True}


@router.post("/press", summary="Press a button briefly")
def press(body: models.Button, _: Unlocked, sim: SimDep) -> dict[str, Any]:
    """Press and release."""
    _known(sim, "buttons", body.button, errors.UNKNOWN_BUTTON)
    sim.press(body.button)
    return {"ok": True}


@router.post("/hold", summary="Hold a button past its hold time")
def hold(body: models.Button, _: Unlocked, sim: SimDep) -> dict[str, Any]:
    """Hold, then release."""
    _known(sim, "buttons", body.button, errors.UNKNOWN_BUTTON)
    sim.hold(body.button)
    return {"ok": True}
