"""The PIN: without its session, CSRF token and our own Origin, no request changes anything."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from web import errors
from device.running import RunningTable
from web.security import COOKIE, LOCKOUT_SECONDS, MAX_FAILURES, Guard

from .conftest import PIN, TWO_CLUBS, events

LINEUP = {"seat": 1, "stands": 0, "players": [
    {"zone": z, "jersey": n, "card": None, "style": "attack"}
    for z, n in [("def_left", 2), ("def_centre", 3), ("def_centre", 4), ("def_right", 5), ("mid_left", 6),
                 ("mid_centre", 7), ("mid_centre", 8), ("mid_right", 9), ("fwd_centre", 10), ("fwd_centre", 11)]]}

CHANGES: list[tuple[str, dict[str, Any]]] = [
    ("/api/session/logout", {}),
    ("/api/actions/new-game", TWO_CLUBS),
    ("/api/actions/lineup", LINEUP),
    ("/api/actions/tactic", {"seat": 1, "card": "tac_01"}),
    ("/api/actions/kickoff", {"seat": 1}),
    ("/api/actions/correction", {"seat": 1, "what": "budget", "delta": 2, "reason": "forgot a Sponsor"}),
    ("/api/actions/event", {"type": "board_meeting", "seat": 1, "card": "bm_01"}),
    ("/api/actions/undo", {}),
    ("/api/actions/enrol/start", {}),
    ("/api/actions/enrol", {"uid": "04-A3-1F-10", "card": "pl_gonzalez"}),
    ("/api/actions/enrol/cancel", {}),
    ("/api/sim/place", {"pad": "seat1.tap", "card": "bm_01"}),
    ("/api/sim/lift", {"pad": "seat1.tap"}),
    ("/api/sim/press", {"button": "seat1.roll"}),
    ("/api/sim/hold", {"button": "seat1.roll"}),
]


def frozen(table: RunningTable) -> tuple[Any, ...]:
    """Everything a refused request must leave as it was: what the page shows, the log, the games, the enrolled
    tags and what lies on the simulated pads."""
    store = table.session.store
    return (table.snapshot(), events(table), store.games(), store.enrolments(deck=table.session.deck),
            dict(table.sim.on_pad))


@pytest.mark.parametrize(("path", "body"), CHANGES)
def test_without_the_pin_every_change_is_refused_and_nothing_changes(
        locked: tuple[TestClient, RunningTable], path: str, body: dict[str, Any]) -> None:
    client, table = locked
    before = frozen(table)
    response = client.post(path, json=body)
    assert response.status_code == 403
    assert response.json()["detail"] == errors.PIN_REQUIRED
    assert frozen(table) == before


@pytest.mark.parametrize(("path", "body"), CHANGES)
def test_without_the_csrf_token_every_change_is_refused(
        playing: tuple[TestClient, RunningTable, dict[str, str]], path: str, body: dict[str, Any]) -> None:
    client, table, _ = playing
    before = frozen(table)
    for headers in ({}, {"x-csrf-token": "forged"}):
        response = client.post(path, json=body, headers=headers)
        assert response.status_code == 403
        assert response.json()["detail"] == errors.CSRF_FAILED
    assert frozen(table) == before


@pytest.mark.parametrize(("path", "body"), CHANGES)
def test_a_request_from_another_site_is_refused_even_with_the_session(
        playing: tuple[TestClient, RunningTable, dict[str, str]], path: str, body: dict[str, Any]) -> None:
    client, table, game = playing
    before = frozen(table)
    for origin in ({"origin": "http://evil.example"}, {"origin": "null"}, {"referer": "http://evil.example/x"}):
        response = client.post(path, json=body, headers={**game, **origin})
        assert response.status_code == 403
        assert response.json()["detail"] == errors.ORIGIN_FAILED
    assert frozen(table) == before


def test_the_tables_own_origin_is_accepted(client: TestClient, game: dict[str, str]) -> None:
    body = {"seat": 1, "what": "budget", "delta": 1, "reason": "found a coin"}
    response = client.post("/api/actions/correction", json=body, headers={**game, "origin": "http://table.local"})
    assert response.status_code == 200


def test_a_tampered_cookie_is_no_session(client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    sid, _, signature = client.cookies[COOKIE].partition(".")
    client.cookies.set(COOKIE, f"{sid}x.{signature}", domain="table.local")
    before = frozen(table)
    response = client.post("/api/actions/undo", headers=game)
    assert response.status_code == 403
    assert frozen(table) == before


def test_the_csrf_token_belongs_to_its_session(app: Any, table: RunningTable) -> None:
    with TestClient(app, base_url="http://table.local") as alice, TestClient(app, base_url="http://table.local") as bob:
        alice_token = alice.post("/api/session", json={"pin": table.pin}).json()["csrf"]
        bob.post("/api/session", json={"pin": table.pin})
        response = bob.post("/api/actions/new-game", json=TWO_CLUBS, headers={"x-csrf-token": alice_token})
        assert response.status_code == 403
        assert table.session.state is None


def test_a_form_post_carries_its_token_in_a_field(client: TestClient, table: RunningTable,
                                                  game: dict[str, str]) -> None:
    client.post("/api/actions/correction", json={"seat": 1, "what": "budget", "delta": 1, "reason": "coin"},
                headers=game)
    played = len(events(table))
    response = client.post("/api/actions/undo", data={"csrf_token": game["x-csrf-token"]})
    assert response.status_code == 200
    assert len(events(table)) == played - 1


def test_the_session_cookie_is_httponly_and_same_site_strict(client: TestClient) -> None:
    response = client.post("/api/session", json={"pin": PIN})
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie


def test_a_wrong_pin_gets_no_cookie(client: TestClient) -> None:
    response = client.post("/api/session", json={"pin": "1111"})
    assert response.status_code == 403
    assert response.json()["detail"] == errors.WRONG_PIN
    assert COOKIE not in client.cookies


def test_login_from_another_site_is_refused(client: TestClient) -> None:
    response = client.post("/api/session", json={"pin": PIN}, headers={"origin": "http://evil.example"})
    assert response.status_code == 403
    assert COOKIE not in client.cookies


def test_after_logout_changes_are_refused_again(client: TestClient, table: RunningTable, csrf: dict[str, str]) -> None:
    assert client.post("/api/session/logout", headers=csrf).status_code == 200
    assert client.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf).status_code == 403
    assert table.session.state is None


def test_too_many_wrong_pins_lock_that_client_out_even_with_the_right_one_for_a_while() -> None:
    now = [1000.0]
    guard = Guard(lambda: "2468", clock=lambda: now[0])
    for _ in range(MAX_FAILURES - 1):
        with pytest.raises(errors.Forbidden, match="not the table's PIN"):
            guard.login("0000", "10.0.0.9")
    with pytest.raises(errors.Forbidden) as last:
        guard.login("0000", "10.0.0.9")
    assert str(last.value) == errors.TOO_MANY_TRIES.format(minutes=1)
    with pytest.raises(errors.Forbidden):
        guard.login("2468", "10.0.0.9")
    now[0] += LOCKOUT_SECONDS + 1
    assert guard.login("2468", "10.0.0.9")


def test_too_many_wrong_pins_over_http(client: TestClient) -> None:
    answers = [client.post("/api/session", json={"pin": "9999"}).json()["detail"] for _ in range(MAX_FAILURES)]
    assert answers[-1] == errors.TOO_MANY_TRIES.format(minutes=1)
    assert client.post("/api/session", json={"pin": PIN}).status_code == 403
