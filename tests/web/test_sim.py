"""The virtual table's API: pads, buttons and the frames the simulated screens hold."""

from __future__ import annotations

import io

from fastapi.testclient import TestClient
from PIL import Image

from web import errors
from web.app import create_app
from web import testing
from web.testing import StandInTable


def frame(client: TestClient, screen: str) -> bytes:
    """The screen's pixels as the page would fetch them."""
    response = client.get(f"/api/sim/screens/{screen}.png")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/png"
    assert response.headers["cache-control"] == "no-store"
    image = Image.open(io.BytesIO(response.content))
    assert image.size == (128, 64)
    return image.tobytes()


def test_layout_lists_a_pad_button_and_screen_per_seat(client: TestClient, game: dict[str, str]) -> None:
    layout = client.get("/api/sim/layout").json()
    assert [p["id"] for p in layout["pads"]] == ["seat1", "seat2"]
    assert [b["id"] for b in layout["buttons"]] == ["seat1", "seat2"]
    assert {s["id"] for s in layout["screens"]} == {"seat1", "seat2"}


def test_a_board_meeting_from_the_virtual_pad_and_button(client: TestClient, table: StandInTable,
                                                         game: dict[str, str]) -> None:
    first = frame(client, "seat1")
    assert client.post("/api/sim/place", json={"pad": "seat1", "card": "bm_01"}, headers=game).status_code == 200
    after_tap = frame(client, "seat1")
    assert after_tap != first
    assert client.get("/api/state").json()["game"]["clubs"][0]["board_card"] == "bm_01"
    def decided() -> list[dict[str, object]]:
        return [a for a in client.get("/api/state").json()["log"] if a["kind"] == "board_meeting"]

    for _ in range(10):  # press until the Directors' vote is decided (a tie is rolled again; a held roll is kept)
        if decided():
            break
        waiting = client.get("/api/state").json()["game"]["awaiting"][0]
        action = "/api/sim/hold" if waiting["need"] == "keep_or_reroll" else "/api/sim/press"
        assert client.post(action, json={"button": "seat1"}, headers=game).status_code == 200
    meeting = decided()[0]
    assert meeting["seat"] == 1
    assert set(meeting["votes"]) == {"dir_04", "dir_05", "dir_06"}
    assert frame(client, "seat1") != after_tap


def test_a_card_tapped_at_the_wrong_moment_is_explained_on_the_seats_screen(
        client: TestClient, table: StandInTable, game: dict[str, str]) -> None:
    events = list(table.events)
    before = frame(client, "seat2")
    assert client.post("/api/sim/place", json={"pad": "seat2", "card": "pl_01"}, headers=game).status_code == 200
    assert table.events == events
    assert frame(client, "seat2") != before
    assert "Monday" in " ".join(client.get("/api/state").json()["screens"]["seat2"]["lines"])


def test_a_sponsor_tapped_on_the_stand_in_points_to_the_play_page(
        client: TestClient, table: StandInTable, game: dict[str, str]) -> None:
    events = list(table.events)
    sponsor = table.profile.cards_of("sponsor")[0].id
    assert client.post("/api/sim/place", json={"pad": "seat1", "card": sponsor}, headers=game).status_code == 200
    assert table.events == events
    assert testing.wrap(testing.SPONSOR_ON_PAGE)[0] in client.get("/api/state").json()["screens"]["seat1"]["lines"]


def test_lift_and_press_with_nothing_to_roll_change_no_game_state(client: TestClient, table: StandInTable,
                                                                  game: dict[str, str]) -> None:
    client.post("/api/sim/place", json={"pad": "seat2", "card": "bm_02"}, headers=game)
    assert table.sim.on_pad["seat2"] == "bm_02"
    assert client.post("/api/sim/lift", json={"pad": "seat2"}, headers=game).status_code == 200
    assert table.sim.on_pad["seat2"] is None
    events = list(table.events)
    assert client.post("/api/sim/hold", json={"button": "seat2"}, headers=game).status_code == 200
    assert client.post("/api/sim/press", json={"button": "seat2"}, headers=game).status_code == 200
    assert len(table.events) > len(events)  # the press rolled the d6 seat 2's Board meeting waits for


def test_unknown_pad_button_screen_or_card_is_named_and_changes_nothing(
        client: TestClient, table: StandInTable, game: dict[str, str]) -> None:
    before = table.snapshot()
    cases = [
        ("/api/sim/place", {"pad": "seat9", "card": "bm_01"}, errors.UNKNOWN_PAD.format(pad="seat9")),
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
