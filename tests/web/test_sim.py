"""The virtual table's API: pads, buttons and the frames the simulated screens hold."""

from __future__ import annotations

import io

from fastapi.testclient import TestClient
from PIL import Image

from web import errors
from web.app import create_app
from web.testing import StandInTable


def frame(client: TestClient, screen: str) -> Image.Image:
    response = client.get(f"/api/sim/screens/{screen}.png")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/png"
    assert response.headers["cache-control"] == "no-store"
    return Image.open(io.BytesIO(response.content))


def test_layout_lists_a_pad_button_and_screen_per_seat(client: TestClient, game: dict[str, str]) -> None:
    layout = client.get("/api/sim/layout").json()
    assert [p["id"] for p in layout["pads"]] == ["seat1", "seat2"]
    assert [b["id"] for b in layout["buttons"]] == ["seat1", "seat2"]
    assert {s["id"] for s in layout["screens"]} == {"seat1", "seat2"}


def test_a_board_meeting_from_the_virtual_pad_and_button(client: TestClient, table: StandInTable,
                                                         game: dict[str, str]) -> None:
    first = frame(client, "seat1").tobytes()
    assert client.post("/api/sim/place", json={"pad": "seat1", "card": "bm_tv_rights"}, headers=game).status_code == 200
    after_tap = frame(client, "seat1")
    assert after_tap.size == (128, 64)
    assert after_tap.tobytes() != first
    assert client.post("/api/sim/press", json={"button": "seat1"}, headers=game).status_code == 200
    state = client.get("/api/state").json()
    meeting = state["log"][-1]
    assert meeting["kind"] == "board_meeting" and meeting["seat"] == 1
    assert set(meeting["votes"]) == {"The Accountant", "Club Legend", "Former Mayor"}
    assert frame(client, "seat1").tobytes() != after_tap.tobytes()
    assert state["screens"]["seat1"]["version"] >= 3


def test_lift_and_hold_reach_the_simulated_hardware(client: TestClient, table: StandInTable,
                                                    game: dict[str, str]) -> None:
    client.post("/api/sim/place", json={"pad": "seat2", "card": "bm_fan_protest"}, headers=game)
    assert table.sim.on_pad["seat2"] == "bm_fan_protest"
    assert client.post("/api/sim/lift", json={"pad": "seat2"}, headers=game).status_code == 200
    assert table.sim.on_pad["seat2"] is None
    assert client.post("/api/sim/hold", json={"button": "seat2"}, headers=game).status_code == 200
    assert client.get("/api/state").json()["log"][-1]["kind"] == "board_meeting"


def test_unknown_pad_button_screen_or_card_is_named_and_changes_nothing(
        client: TestClient, table: StandInTable, game: dict[str, str]) -> None:
    before = table.snapshot()
    cases = [
        ("/api/sim/place", {"pad": "seat9", "card": "bm_tv_rights"}, errors.UNKNOWN_PAD.format(pad="seat9")),
        ("/api/sim/place", {"pad": "seat1", "card": "bm_nothing"}, errors.UNKNOWN_CARD.format(card="bm_nothing")),
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


def test_a_real_table_has_no_virtual_table() -> None:
    table = StandInTable(simulated=False)
    with TestClient(create_app(table), base_url="http://table.local") as client:
        assert client.get("/api/sim/layout").status_code == 404
        assert client.get("/api/sim/layout").json()["detail"] == errors.NO_SIMULATION
        token = client.post("/api/session", json={"pin": table.pin}).json()["csrf"]
        response = client.post("/api/sim/press", json={"button": "seat1"}, headers={"x-csrf-token": token})
        assert response.status_code == 404
        assert client.get("/api/session").json()["simulation"] is False
