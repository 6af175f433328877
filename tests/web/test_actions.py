"""Actions through the page: new game, lineup and match, corrections, undo and enrolment; refusals change nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import engine
import pytest
from engine.legal import auto_lineup
from fastapi.testclient import TestClient

from device.inputs import NOTHING_TO_UNDO
from device.running import RunningTable
from device.session import ENROL_NOT_WAITING

from .conftest import _lineup, events, play_until
from .test_security import LINEUP

STRANGER = "04-5E-7A-11-22-33-44"


def test_new_game_deals_what_the_form_left_out_and_keeps_what_it_chose(
        client: TestClient, table: RunningTable, csrf: dict[str, str]) -> None:
    body = {"clubs": [{"seat": 1, "name": "Middleham Local Club", "directors": ["dir_04"], "objective": "obj_03"},
                      {"seat": 3, "name": "Downtown Athletic"}], "first_seat": 3}
    response = client.post("/api/actions/new-game", json=body, headers=csrf)
    assert response.status_code == 200, response.text
    view = client.get("/api/state").json()["game"]
    middleham, downtown = view["clubs"]
    assert [d["id"] for d in middleham["directors"]][0] == "dir_04"
    assert len(middleham["directors"]) == len(downtown["directors"]) == table.profile.board.setup.directors_kept
    assert not {d["id"] for d in middleham["directors"]} & {d["id"] for d in downtown["directors"]}
    assert middleham["objective"] is None  # kept face down: the table's page does not show it
    own = client.get("/api/state", params={"seat": 1}).json()["game"]["clubs"][0]
    assert own["objective"] == "obj_03"  # the club's own view (on a browser holding the PIN) does
    assert view["first_seat"] == 3
    assert view["stage"] == "monday"


def test_a_setup_the_rules_refuse_is_a_409_and_no_game_starts(client: TestClient, table: RunningTable,
                                                              csrf: dict[str, str]) -> None:
    # Two clubs cannot keep the same Director.
    body = {"clubs": [{"seat": 1, "name": "A", "directors": ["dir_01"]}, {"seat": 2, "name": "B", "directors": ["dir_01"]}]}
    response = client.post("/api/actions/new-game", json=body, headers=csrf)
    assert response.status_code == 409
    assert response.json()["detail"] == f"{table.profile.cards['dir_01'].name} already belongs to Seat 1."
    assert table.session.state is None and table.session.store.games() == []


def test_a_refusal_by_the_rules_is_a_409_with_its_sentence_and_changes_nothing(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    before = table.snapshot()
    response = client.post("/api/actions/lineup", json=LINEUP, headers=game)
    assert response.status_code == 409
    assert "Matchday" in response.json()["detail"]
    assert table.snapshot() == before


def test_a_refusal_names_the_club_not_its_seat_number(client: TestClient, table: RunningTable,
                                                      game: dict[str, str]) -> None:
    # Monday: no lineup yet. The engine words it "Seat 1 cannot ..."; the page says the club's name.
    response = client.post("/api/actions/lineup", json=LINEUP, headers=game)
    assert response.status_code == 409
    detail = response.json()["detail"]
    assert detail.startswith("Middleham Local Club cannot"), detail
    assert "Seat 1" not in detail


def test_an_unknown_card_is_refused_with_a_sentence_not_a_500(client: TestClient, game: dict[str, str]) -> None:
    response = client.post("/api/actions/event", json={"type": "board_meeting", "seat": 1, "card": "bm_nope"},
                           headers=game)
    assert response.status_code == 409
    assert "bm_nope" in response.json()["detail"]


def test_matchday_lineup_then_kickoff_records_the_zone_by_zone_result(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    play_until(client, game, "matchday")
    club = table.session.state.club(1)
    assert club is not None
    lineup = {k: v for k, v in auto_lineup(table.profile, club).items() if k != "type"}
    fitness = client.get("/api/state").json()["game"]["clubs"][0]["resources"]["fitness"]
    assert client.post("/api/actions/lineup", json=lineup, headers=game).status_code == 200
    cards = sum(1 for p in lineup["players"] if p["card"])
    assert client.get("/api/state").json()["game"]["clubs"][0]["resources"]["fitness"] == fitness - cards
    response = client.post("/api/actions/kickoff", json={"seat": 1}, headers=game)
    assert response.status_code == 200
    result = next(a for a in response.json()["result"]["announcements"] if a["kind"] == "result")
    assert len(result["zones"]) == 9
    assert sum(z["scored"] for z in result["zones"]) == result["goals"]
    club_view = client.get("/api/state").json()["game"]["clubs"][0]
    assert club_view["match"]["result"] == result["result"]


def test_resources_assigned_to_a_playing_card_are_paid_and_lie_on_the_card(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    play_until(client, game, "matchday")
    club = table.session.state.club(1)
    lineup = {k: v for k, v in auto_lineup(table.profile, club).items() if k != "type"}
    card = next(p["card"] for p in lineup["players"] if p["card"])
    budget = club.res[0]
    response = client.post("/api/actions/lineup", json={**lineup, "assign": {card: {"budget": 1}}}, headers=game)
    assert response.status_code == 200, response.text
    view = client.get("/api/state").json()["game"]["clubs"][0]
    assert next(p for p in view["players"] if p["id"] == card)["assigned"]["budget"] == 1
    assert view["resources"]["budget"] == budget - 1


def test_a_lineup_breaking_the_rules_is_refused_with_the_engines_sentence(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    view = play_until(client, game, "matchday")
    fair = {k: v for k, v in _lineup(view["clubs"][0], client.get("/api/rules").json()["pitch"]).items() if k != "type"}
    crowded = {**fair, "players": [{**p, "zone": "def_left"} if i < 2 else p for i, p in enumerate(fair["players"])]}
    before = table.snapshot()
    response = client.post("/api/actions/lineup", json=crowded, headers=game)
    assert response.status_code == 409
    assert "The Defenders' left wing holds at most 1" in response.json()["detail"]
    assert table.snapshot() == before


def test_a_lineup_may_leave_out_the_side_of_a_jersey_marker_the_table_has_seen(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    play_until(client, game, "matchday")
    club = client.get("/api/state").json()["game"]["clubs"][0]
    shown, unseen = club["markers"], club["markers_unseen"]
    assert shown, "the starting cards' markers are known before the first lineup"
    # the markers never seen yet take the sides the view offers (the setup's half attack, half defence)
    lineup = {**LINEUP, "players": [{k: v for k, v in p.items() if k != "style"} if str(p["jersey"]) in shown
                                    else {**p, "style": unseen[str(p["jersey"])]} for p in LINEUP["players"]]}
    response = client.post("/api/actions/lineup", json=lineup, headers=game)
    assert response.status_code == 200, response.text
    placed = client.get("/api/state").json()["game"]["clubs"][0]["match"]["lineup"]
    assert {str(p["jersey"]): p["style"] for p in placed if str(p["jersey"]) in shown} == shown


BAD_BODIES: list[tuple[str, Any, str]] = [
    ("/api/actions/new-game", {"clubs": []}, "clubs"),
    ("/api/actions/new-game", {"clubs": [{"seat": 5, "name": "X"}]}, "clubs.0.seat"),
    ("/api/actions/new-game", {"clubs": [{"seat": 1, "name": ""}]}, "clubs.0.name"),
    ("/api/actions/new-game", {"clubs": [{"seat": 1, "name": "A", "directors": ["not a card"]}]}, "clubs.0.directors.0"),
    ("/api/actions/new-game", {"clubs": [{"seat": 1, "name": "A"}], "colour": "red"}, "colour"),
    ("/api/actions/new-game", {"clubs": [{"seat": 1, "name": "A"}, {"seat": 1, "name": "B"}]}, "body"),
    ("/api/actions/new-game", {"clubs": [{"seat": 1, "name": "A"}], "first_seat": 2}, "body"),
    ("/api/actions/lineup", {"seat": 1}, "players"),
    ("/api/actions/lineup", {**LINEUP, "players": LINEUP["players"][:9]}, "players"),
    ("/api/actions/lineup", {**LINEUP, "players": [{**LINEUP["players"][0], "zone": "goal"}]
                             + LINEUP["players"][1:]}, "players.0.zone"),
    ("/api/actions/lineup", {**LINEUP, "players": [{**LINEUP["players"][0], "jersey": 3}]
                             + LINEUP["players"][1:]}, "body"),
    ("/api/actions/lineup", {**LINEUP, "seat": "one"}, "seat"),
    ("/api/actions/lineup", {**LINEUP, "stands": -1}, "stands"),
    ("/api/actions/lineup", {**LINEUP, "assign": {"vet_01": {"gold": 1}}}, "assign.vet_01.gold"),
    ("/api/actions/kickoff", {}, "seat"),
    ("/api/actions/tactic", {"seat": 1}, "card"),
    ("/api/actions/correction", {"seat": 1, "what": "budget", "delta": 3}, "reason"),
    ("/api/actions/correction", {"seat": 1, "what": "budget; drop", "delta": 3, "reason": "typo"}, "what"),
    ("/api/actions/correction", {"seat": 1, "what": "budget", "delta": 0, "reason": "typo"}, "delta"),
    ("/api/actions/correction", {"seat": 1, "what": "budget", "delta": 10**6, "reason": "typo"}, "delta"),
    ("/api/actions/event", {"type": "teleport", "seat": 1}, "type"),
    ("/api/actions/event", {"seat": 1}, "type"),
    # an event that has an action of its own is checked by that action's model, whichever address it is sent to
    ("/api/actions/event", {"type": "lineup", "seat": 1, "placements": LINEUP["players"]}, "players"),
    ("/api/actions/event", {"type": "adjust", "seat": 1, "what": "budget", "delta": 0, "reason": "typo"}, "delta"),
    ("/api/actions/enrol", {"uid": "zz", "card": "pl_01"}, "uid"),
    ("/api/sim/place", {"pad": "seat1"}, "card"),
    ("/api/sim/press", {}, "button"),
    ("/api/session", {"pin": ""}, "pin"),
]


@pytest.mark.parametrize(("path", "body", "field"), BAD_BODIES)
def test_a_malformed_body_gets_422_naming_the_field_and_changes_nothing(
        playing: tuple[TestClient, RunningTable, dict[str, str]], path: str, body: Any, field: str) -> None:
    client, table, game = playing
    before = table.snapshot()
    response = client.post(path, json=body, headers=game)
    assert response.status_code == 422
    answer = response.json()
    assert field in [d["field"] for d in answer["detail"]]
    assert answer["message"].startswith("Please correct: ")
    assert table.snapshot() == before


BODY_ROUTES = ["/api/session", "/api/actions/new-game", "/api/actions/lineup", "/api/actions/tactic",
               "/api/actions/kickoff", "/api/actions/correction", "/api/actions/event", "/api/actions/enrol",
               "/api/sim/place", "/api/sim/lift", "/api/sim/press", "/api/sim/hold"]


@pytest.mark.parametrize("path", BODY_ROUTES)
def test_garbage_instead_of_json_is_a_422_not_a_500(playing: tuple[TestClient, RunningTable, dict[str, str]],
                                                    path: str) -> None:
    client, table, game = playing
    before = table.snapshot()
    for raw in (b"{not json", b"[]", b"null", b"\xff\xfe", b"1", b'"text"'):
        response = client.post(path, content=raw, headers={**game, "content-type": "application/json"})
        assert response.status_code == 422, (raw, response.text)
        assert response.json()["message"].startswith("Please correct: ")
    assert table.snapshot() == before


ODD_VALUES = [None, {"a": 1}, [1, 2], "x" * 80, 10**20, 1.5]


@pytest.mark.slow
def test_an_event_with_odd_field_values_is_refused_with_a_sentence_never_a_500(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    play_until(client, game, "tuesday")
    before = table.snapshot()
    for kind in sorted(engine.EVENT_TYPES):
        for name in ("card", "cards", "value", "kind", "stat", "contract", "targets", "players"):
            for value in ODD_VALUES:
                response = client.post("/api/actions/event", json={"type": kind, "seat": 1, name: value}, headers=game)
                if response.status_code == 200:
                    # The odd field was ignored and the event itself was legal: undo it to keep testing from here.
                    assert client.post("/api/actions/undo", headers=game).status_code == 200
                    continue
                assert response.status_code in (409, 422), (kind, name, value, response.text)
                detail = response.json().get("message") or response.json()["detail"]
                assert isinstance(detail, str) and detail.endswith((".", ")")), detail
    assert table.snapshot()["game"] == before["game"]


def test_a_correction_is_recorded_with_its_reason_and_can_be_undone(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    budget = client.get("/api/state").json()["game"]["clubs"][1]["resources"]["budget"]
    body = {"seat": 2, "what": "budget", "delta": 3, "reason": "forgot the Sponsor income"}
    assert client.post("/api/actions/correction", json=body, headers=game).status_code == 200
    state = client.get("/api/state").json()
    assert state["game"]["clubs"][1]["resources"]["budget"] == budget + 3
    assert "forgot the Sponsor income" in state["log"][-1]["text"]
    assert client.post("/api/actions/undo", headers=game).status_code == 200
    state = client.get("/api/state").json()
    assert state["game"]["clubs"][1]["resources"]["budget"] == budget


def test_a_correction_below_zero_is_refused(client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    before = table.snapshot()
    body = {"seat": 1, "what": "budget", "delta": -99, "reason": "there is no such debt"}
    response = client.post("/api/actions/correction", json=body, headers=game)
    assert response.status_code == 409
    assert "Budget" in response.json()["detail"]
    assert table.snapshot() == before


def test_undo_with_nothing_to_undo_says_so(client: TestClient, csrf: dict[str, str]) -> None:
    response = client.post("/api/actions/undo", headers=csrf)
    assert response.status_code == 409
    assert response.json()["detail"] == NOTHING_TO_UNDO


def test_enrolment_waits_for_a_tap_then_binds_the_tag_to_the_card_picked(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    assert client.post("/api/actions/enrol/start", headers=game).status_code == 200
    assert client.get("/api/state").json()["enrolment"] == {"state": "waiting"}
    played = events(table)
    client.portal.call(asyncio.to_thread, table.sim.place_tag, "seat2.tap", STRANGER)  # a tag nobody enrolled yet
    client.portal.call(table.idle)
    enrolment = client.get("/api/state").json()["enrolment"]
    assert enrolment == {"state": "tapped", "uid": STRANGER, "pad": "seat2.tap", "card": None}
    response = client.post("/api/actions/enrol", json={"uid": STRANGER, "card": "st_02"}, headers=game)
    assert response.status_code == 200
    assert table.session.store.card_for(STRANGER, deck=table.session.deck) == "st_02"
    assert client.get("/api/state").json()["enrolment"] is None
    assert events(table) == played  # the tap was held for enrolment, not played


def test_enrolling_before_any_tap_is_refused(client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    response = client.post("/api/actions/enrol", json={"uid": "04-A3-1F-10", "card": "st_02"}, headers=game)
    assert response.status_code == 409
    assert response.json()["detail"] == ENROL_NOT_WAITING
    assert table.session.store.card_for("04-A3-1F-10", deck=table.session.deck) is None
