"""Actions through the page: new game, lineup, corrections, undo and enrolment; refusals change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from web import testing
from web.testing import StandInTable

from .conftest import TWO_CLUBS
from .test_security import LINEUP


def test_new_game_shows_every_club_on_the_table_view(client: TestClient, table: StandInTable,
                                                     csrf: dict[str, str]) -> None:
    response = client.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf)
    assert response.status_code == 200
    assert table.actions[-1]["type"] == "new_game"
    assert table.actions[-1]["clubs"][0]["directors"] == ["dir_accountant", "dir_legend", "dir_mayor"]
    view = client.get("/api/state").json()["game"]
    assert {c["seat"] for c in view["clubs"]} == {1, 2}


def test_a_refusal_by_the_rules_is_a_409_with_its_sentence_and_changes_nothing(
        client: TestClient, table: StandInTable, game: dict[str, str]) -> None:
    before = table.snapshot()
    response = client.post("/api/actions/lineup", json=LINEUP, headers=game)
    assert response.status_code == 409
    assert response.json()["detail"] == testing.NOT_MATCHDAY.format(seat=1, day="Monday")
    assert table.snapshot() == before


BAD_BODIES: list[tuple[str, Any, str]] = [
    ("/api/actions/new-game", {"clubs": []}, "clubs"),
    ("/api/actions/new-game", {"clubs": [{"seat": 5, "name": "X"}]}, "clubs.0.seat"),
    ("/api/actions/new-game", {"clubs": [{"seat": 1, "name": ""}]}, "clubs.0.name"),
    ("/api/actions/new-game", {"clubs": [{"seat": 1, "name": "A", "directors": ["not a card"]}]}, "clubs.0.directors.0"),
    ("/api/actions/new-game", {"clubs": [{"seat": 1, "name": "A"}], "colour": "red"}, "colour"),
    ("/api/actions/new-game", {"clubs": [{"seat": 1, "name": "A"}, {"seat": 1, "name": "B"}]}, "clubs"),
    ("/api/actions/lineup", {"seat": 1}, "placements"),
    ("/api/actions/lineup", {**LINEUP, "placements": LINEUP["placements"][:9]}, "placements"),
    ("/api/actions/lineup", {**LINEUP, "placements": [{**LINEUP["placements"][0], "zone": "goal"}]
                             + LINEUP["placements"][1:]}, "placements.0.zone"),
    ("/api/actions/lineup", {**LINEUP, "placements": [{**LINEUP["placements"][0], "jersey": 3}]
                             + LINEUP["placements"][1:]}, "body"),
    ("/api/actions/lineup", {**LINEUP, "seat": "one"}, "seat"),
    ("/api/actions/correction", {"seat": 1, "field": "resources.budget", "value": 3}, "reason"),
    ("/api/actions/correction", {"seat": 1, "field": "budget; drop", "value": 3, "reason": "typo"}, "field"),
    ("/api/actions/correction", {"seat": 1, "field": "resources.budget", "value": 10**6, "reason": "typo"}, "value"),
    ("/api/actions/enrol", {"uid": "zz", "card": "pl_gonzalez"}, "uid"),
    ("/api/sim/place", {"pad": "seat1"}, "card"),
    ("/api/sim/press", {}, "button"),
    ("/api/session", {"pin": ""}, "pin"),
]


@pytest.mark.parametrize(("path", "body", "field"), BAD_BODIES)
def test_a_malformed_body_gets_422_naming_the_field_and_changes_nothing(
        client: TestClient, table: StandInTable, game: dict[str, str], path: str, body: Any, field: str) -> None:
    before = table.snapshot()
    response = client.post(path, json=body, headers=game)
    assert response.status_code == 422
    answer = response.json()
    assert field in [d["field"] for d in answer["detail"]]
    assert answer["message"].startswith("Please correct: ")
    assert table.snapshot() == before


@pytest.mark.parametrize("raw", [b"{not json", b"[]", b"null", b"\xff\xfe"])
def test_garbage_instead_of_json_is_a_422_not_a_500(client: TestClient, game: dict[str, str], raw: bytes) -> None:
    response = client.post("/api/actions/new-game", content=raw,
                           headers={**game, "content-type": "application/json"})
    assert response.status_code == 422


def test_a_correction_is_recorded_with_its_reason_and_can_be_undone(
        client: TestClient, table: StandInTable, game: dict[str, str]) -> None:
    body = {"seat": 2, "field": "resources.budget", "value": 7, "reason": "forgot the Sponsor income"}
    assert client.post("/api/actions/correction", json=body, headers=game).status_code == 200
    state = client.get("/api/state").json()
    assert state["game"]["clubs"][1]["resources"]["budget"] == 7
    assert "forgot the Sponsor income" in state["log"][-1]["text"]
    assert client.post("/api/actions/undo", headers=game).status_code == 200
    state = client.get("/api/state").json()
    assert state["game"]["clubs"][1]["resources"]["budget"] == 3
    assert all("Sponsor income" not in item["text"] for item in state["log"])


def test_correcting_a_number_that_is_not_tracked_is_refused(
        client: TestClient, table: StandInTable, game: dict[str, str]) -> None:
    before = table.snapshot()
    body = {"seat": 1, "field": "resources.gold", "value": 7, "reason": "there is no gold"}
    response = client.post("/api/actions/correction", json=body, headers=game)
    assert response.status_code == 409
    assert response.json()["detail"] == testing.UNKNOWN_FIELD.format(field="resources.gold")
    assert table.snapshot() == before


def test_undo_with_nothing_to_undo_says_so(client: TestClient, csrf: dict[str, str]) -> None:
    response = client.post("/api/actions/undo", headers=csrf)
    assert response.status_code == 409
    assert response.json()["detail"] == testing.NO_UNDO


def test_enrolment_waits_for_a_tap_then_binds_the_tag_to_the_card_picked(
        client: TestClient, table: StandInTable, game: dict[str, str]) -> None:
    assert client.post("/api/actions/enrol/start", headers=game).status_code == 200
    assert client.get("/api/state").json()["enrolment"] == {"state": "waiting"}
    assert client.post("/api/sim/place", json={"pad": "seat2", "card": "st_doctor"}, headers=game).status_code == 200
    enrolment = client.get("/api/state").json()["enrolment"]
    assert enrolment["state"] == "tapped" and enrolment["pad"] == "seat2"
    response = client.post("/api/actions/enrol", json={"uid": enrolment["uid"], "card": "st_doctor"}, headers=game)
    assert response.status_code == 200
    assert table.enrolled == {enrolment["uid"]: "st_doctor"}
    assert client.get("/api/state").json()["enrolment"] is None


def test_enrolling_before_any_tap_is_refused(client: TestClient, table: StandInTable, game: dict[str, str]) -> None:
    response = client.post("/api/actions/enrol", json={"uid": "04-A3-1F-10", "card": "st_doctor"}, headers=game)
    assert response.status_code == 409
    assert response.json()["detail"] == testing.NOT_WAITING
    assert table.enrolled == {}
