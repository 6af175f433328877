"""The read-only JSON API: state, deck search, session status, and the OpenAPI schema documenting it all."""

from __future__ import annotations

from fastapi.testclient import TestClient

from web import errors

from device.running import RunningTable

from web.app import create_app

from .conftest import PIN, started_client


def test_a_seats_own_view_needs_the_pin_and_shows_that_club_its_objective(client: TestClient,
                                                                         game: dict[str, str]) -> None:
    public = client.get("/api/state").json()["game"]["clubs"]
    assert [c["objective"] for c in public] == [None, None]
    own = client.get("/api/state", params={"seat": 2}).json()["game"]["clubs"]
    assert own[0]["objective"] is None and own[1]["objective"] is not None
    client.post("/api/session/logout", headers=game)
    refused = client.get("/api/state", params={"seat": 2})
    assert refused.status_code == 403 and refused.json()["detail"] == errors.SEAT_VIEW_NEEDS_PIN.format(seat=2)
    assert client.get("/api/live", params={"seat": 2}).status_code == 403


def test_state_before_a_game_says_no_game(client: TestClient) -> None:
    state = client.get("/api/state").json()
    assert state["game"] is None
    assert state["log"] == []


def test_state_shows_the_running_game(client: TestClient, game: dict[str, str]) -> None:
    view = client.get("/api/state").json()["game"]
    assert [c["name"] for c in view["clubs"]] == ["Middleham Local Club", "Riverside Town"]
    names = {row["name"] for row in view["league"]}
    assert {"Middleham Local Club", "Riverside Town", "Downtown United"} <= names
    assert [d["id"] for d in view["clubs"][0]["directors"]] == ["dir_04", "dir_05", "dir_06"]


def test_deck_search_matches_words_of_the_name_or_id(client: TestClient, table: RunningTable) -> None:
    found = client.get("/api/deck", params={"q": "downtown"}).json()
    assert found and all("downtown" in f"{c['id']} {c['name']}".lower() for c in found)
    assert client.get("/api/deck", params={"q": "downtown zebra"}).json() == []
    directors = client.get("/api/deck", params={"kind": "director"}).json()
    assert directors and all(c["kind"] == "director" for c in directors)
    assert len(client.get("/api/deck").json()) == len(table.deck())


def test_deck_kind_must_be_a_word(client: TestClient) -> None:
    response = client.get("/api/deck", params={"kind": "<script>"})
    assert response.status_code == 422
    assert response.json()["detail"][0]["field"] == "kind"


def test_session_reports_locked_then_unlocked(client: TestClient) -> None:
    assert client.get("/api/session").json() == {"unlocked": False, "csrf": None, "simulation": True}
    token = client.post("/api/session", json={"pin": PIN}).json()["csrf"]
    assert client.get("/api/session").json() == {"unlocked": True, "csrf": token, "simulation": True}


def test_openapi_documents_every_action_and_its_body(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path in ("/api/state", "/api/deck", "/api/live", "/api/session", "/api/rules", "/api/choices",
                 "/api/actions/new-game",
                 "/api/actions/lineup", "/api/actions/tactic", "/api/actions/kickoff", "/api/actions/correction",
                 "/api/actions/event", "/api/actions/undo", "/api/actions/enrol",
                 "/api/sim/place", "/api/sim/press", "/api/sim/hold", "/api/sim/lift"):
        assert path in paths, path
    lineup = schema["components"]["schemas"]["Placement"]["properties"]
    assert set(lineup) == {"zone", "jersey", "card", "style"}


def test_routes_loaded_on_first_use_answer_it_and_are_described_from_the_start(table: RunningTable) -> None:
    # The changes a person makes, seasons, a seat's own page and the virtual table are loaded on their first
    # request: each answers it as always, and the interface description lists them whether or not anyone has
    # used them yet.
    with started_client(create_app(table), table) as first:
        assert first.post("/api/session", json={"pin": PIN}).json()["unlocked"] is True
        assert "seat 2" in first.get("/seat/2").text.lower()
        assert [s["seat"] for s in first.get("/api/sim/layout").json()["seats"]] == [1, 2, 3, 4]
        assert first.get("/api/seasons").json() == {"seasons": []}
        assert first.get("/api/games/1/final").status_code == 404
        assert first.get("/seat/").status_code == 404
        later = first.get("/openapi.json").json()["paths"]
    with started_client(create_app(table), table) as described:
        paths = described.get("/openapi.json").json()["paths"]
        assert {"/api/actions/new-game", "/api/seasons", "/api/games/{game_id}/final", "/api/seat/{seat}/session",
                "/api/sim/layout"} <= set(paths)
        assert described.get("/api/games").json() == {"games": []}
        assert described.post("/api/sim/place", json={"pad": "seat1.tap", "card": "bm_01"}).status_code == 403  # the PIN
    assert set(paths) == set(later)


def test_rules_give_the_lineup_limits_of_the_board_profile(client: TestClient, table: RunningTable) -> None:
    pitch = client.get("/api/rules").json()["pitch"]
    board = table.profile.board.pitch
    assert (pitch["wing"], pitch["central"], pitch["total"]) == (board.wing_capacity, board.centre_capacity,
                                                                 board.on_pitch)
    assert pitch["sections"] == dict(board.section_max)
    assert pitch["start"] == dict(board.start_sections)
    assert len(pitch["zones"]) == 9
