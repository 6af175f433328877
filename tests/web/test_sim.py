"""The virtual table's API on the real simulated table: pads, buttons and the frames the simulated panels hold."""

from __future__ import annotations

import io
from pathlib import Path

from fastapi.testclient import TestClient
from PIL import Image

from device.hardware import TableHardware
from device.inputs import PRESS_STEPS_HOLD_SIGNS
from device.running import RunningTable
from device.session import Session
from device.sim import ForcedDice
from device.store import open_store
from device.table_file import default_sim_table
from drivers.displays import SimulatedI2C
from drivers.rfid import SimRig
from web import errors
from web.app import create_app

from .conftest import PIN, events, play_until


def frame(client: TestClient, screen: str) -> bytes:
    """The screen's pixels as the page would fetch them."""
    response = client.get(f"/api/sim/screens/{screen}.png")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/png"
    assert response.headers["cache-control"] == "no-store"
    image = Image.open(io.BytesIO(response.content))
    assert image.size == (128, 64)
    return image.tobytes()


def lines(client: TestClient, screen: str) -> list[str]:
    """What a screen says, as the page's snapshot carries it."""
    return client.get("/api/state").json()["screens"][screen]["lines"]  # type: ignore[no-any-return]


def test_layout_lists_the_table_files_pads_buttons_and_screens(client: TestClient, game: dict[str, str]) -> None:
    layout = client.get("/api/sim/layout").json()
    seats = ("seat1", "seat2", "seat3", "seat4")
    assert [p["id"] for p in layout["pads"]] == [f"{s}.tap" for s in seats] + ["shared.opponent"]
    assert [b["id"] for b in layout["buttons"]] == [f"{s}.roll" for s in seats] + ["shared.undo"]
    assert [s["id"] for s in layout["screens"]] == [f"{s}.screen" for s in seats] + ["shared.screen"]


def test_a_board_meeting_from_the_virtual_pad_and_button(client: TestClient, table: RunningTable,
                                                         game: dict[str, str]) -> None:
    first = frame(client, "seat1.screen")
    assert client.post("/api/sim/place", json={"pad": "seat1.tap", "card": "bm_01"}, headers=game).status_code == 200
    after_tap = frame(client, "seat1.screen")
    assert after_tap != first
    assert client.get("/api/state").json()["game"]["clubs"][0]["board_card"] == "bm_01"
    def decided() -> list[dict[str, object]]:
        return [a for a in client.get("/api/state").json()["log"] if a["kind"] == "board_meeting"]

    for _ in range(10):  # press until the Directors' vote is decided (a tie is rolled again; a held roll is kept)
        if decided():
            break
        waiting = client.get("/api/state").json()["game"]["awaiting"][0]
        action = "/api/sim/hold" if waiting["need"] == "keep_or_reroll" else "/api/sim/press"
        assert client.post(action, json={"button": "seat1.roll"}, headers=game).status_code == 200
    meeting = decided()[0]
    assert meeting["seat"] == 1
    assert set(meeting["votes"]) == {"dir_04", "dir_05", "dir_06"}
    assert frame(client, "seat1.screen") != after_tap


def test_a_card_tapped_at_the_wrong_moment_is_explained_on_the_seats_screen(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    played = events(table)
    before = frame(client, "seat2.screen")
    assert client.post("/api/sim/place", json={"pad": "seat2.tap", "card": "pl_01"}, headers=game).status_code == 200
    assert events(table) == played
    assert frame(client, "seat2.screen") != before
    assert lines(client, "seat2.screen")[2:4] == ["Cannot hire", "It is Monday, and actions are taken Tuesday to Thursday."]


def test_a_sponsor_tapped_on_the_clubs_turn_offers_its_contracts_on_the_seats_screen(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    seat = play_until(client, game, "tuesday")["turn"]
    played = events(table)
    sponsor = table.profile.cards_of("sponsor")[0].id
    pad, button, screen = f"seat{seat}.tap", f"seat{seat}.roll", f"seat{seat}.screen"
    assert client.post("/api/sim/place", json={"pad": pad, "card": sponsor}, headers=game).status_code == 200
    assert client.post("/api/sim/lift", json={"pad": pad}, headers=game).status_code == 200
    assert events(table) == played  # nothing is signed before the contract is chosen
    assert lines(client, screen)[2:] == [f"{table.profile.cards[sponsor].name}: Megaphone", PRESS_STEPS_HOLD_SIGNS]
    assert client.post("/api/sim/hold", json={"button": button}, headers=game).status_code == 200
    signed = events(table)[len(played):]
    assert [(e["type"], e["card"]) for e in signed] == [("sponsor", sponsor)]


def test_a_card_lies_on_its_pad_until_lifted_and_a_press_rolls_the_die_asked_for(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    client.post("/api/sim/place", json={"pad": "seat2.tap", "card": "bm_02"}, headers=game)
    assert client.get("/api/sim/layout").json()["pads"][1]["card"] == "bm_02"
    assert client.post("/api/sim/lift", json={"pad": "seat2.tap"}, headers=game).status_code == 200
    assert client.get("/api/sim/layout").json()["pads"][1]["card"] is None
    played = events(table)
    assert client.post("/api/sim/press", json={"button": "seat2.roll"}, headers=game).status_code == 200
    assert events(table)[len(played):][0]["type"] == "roll"  # the d6 seat 2's Board meeting waits for


def test_unknown_pad_button_screen_or_card_is_named_and_changes_nothing(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    before = table.snapshot()
    cases = [
        ("/api/sim/place", {"pad": "seat9", "card": "bm_01"}, errors.UNKNOWN_PAD.format(pad="seat9")),
        ("/api/sim/place", {"pad": "seat1.tap", "card": "bm_nothing"}, errors.UNKNOWN_CARD.format(card="bm_nothing")),
        ("/api/sim/lift", {"pad": "table"}, errors.UNKNOWN_PAD.format(pad="table")),
        ("/api/sim/press", {"button": "red"}, errors.UNKNOWN_BUTTON.format(button="red")),
        ("/api/sim/hold", {"button": "red"}, errors.UNKNOWN_BUTTON.format(button="red")),
    ]
    for path, body, sentence in cases:
        response = client.post(path, json=body, headers=game)
        assert response.status_code == 404
        assert response.json()["detail"] == sentence
    assert client.get("/api/sim/screens/lobby.png").json()["detail"] == errors.UNKNOWN_SCREEN.format(screen="lobby")
    assert table.snapshot() == before


def test_a_table_on_real_hardware_has_no_virtual_table(tmp_path: Path) -> None:
    # The table a table file describes, as on a Pi (no simulated facade), its chips simulated underneath.
    config = default_sim_table()
    store = open_store(tmp_path / "real.db")
    hardware = TableHardware(config, backend="sim", threaded=False, rig=SimRig(), displays=SimulatedI2C())
    table = RunningTable(Session(config, store, ForcedDice(strict=True)), hardware, pin=PIN)
    with TestClient(create_app(table), base_url="http://table.local") as client:
        client.portal.call(table.start)
        assert client.get("/api/sim/layout").status_code == 404
        assert client.get("/api/sim/layout").json()["detail"] == errors.NO_SIMULATION
        token = client.post("/api/session", json={"pin": PIN}).json()["csrf"]
        response = client.post("/api/sim/press", json={"button": "seat1.roll"}, headers={"x-csrf-token": token})
        assert response.status_code == 404
        assert client.get("/api/session").json()["simulation"] is False
        client.portal.call(table.stop)
    store.close()
