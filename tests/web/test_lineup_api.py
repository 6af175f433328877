"""The lineup editor asks the engine: ``POST /api/lineup/check`` and ``POST /api/lineup/fill`` answer with the rules'
own words, refuse bad bodies with a sentence naming the field, need the PIN, and change nothing at the table."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from device.running import RunningTable
from web import errors
from web.limits import MAX_BODY_BYTES

from .conftest import events, play_until
from .test_security import frozen


def plain(zone: str, jersey: int | None, style: str | None = None) -> dict[str, Any]:
    return {"zone": zone, "jersey": jersey, "card": None, "style": style}


def shown(client: TestClient, zone: str, jersey: int) -> dict[str, Any]:
    """A numbered marker on the side the view says it shows (or, never seen yet, may show)."""
    club = client.get("/api/state").json()["game"]["clubs"][0]
    return plain(zone, jersey, {**club["markers_unseen"], **club["markers"]}[str(jersey)])


@pytest.fixture
def matchday(client: TestClient, game: dict[str, str]) -> dict[str, str]:
    """The two-club game on its first Matchday; returns the CSRF header."""
    play_until(client, game, "matchday")
    return game


@pytest.mark.parametrize("path", ["/api/lineup/check", "/api/lineup/fill"])
def test_asking_needs_the_pin_and_its_csrf_token(client: TestClient, table: RunningTable, path: str) -> None:
    response = client.post(path, json={"seat": 1, "players": []})
    assert response.status_code == 403 and response.json()["detail"] == errors.PIN_REQUIRED


@pytest.mark.parametrize("path", ["/api/lineup/check", "/api/lineup/fill"])
def test_without_a_game_the_answer_says_to_start_one(client: TestClient, csrf: dict[str, str], path: str) -> None:
    response = client.post(path, json={"seat": 1, "players": []}, headers=csrf)
    assert response.status_code == 409 and response.json()["detail"] == errors.NO_GAME


BAD_BODIES = [
    ({"seat": 1, "players": [plain("middle", 2)]}, "players.0.zone: Input should be 'def_left'"),
    ({"seat": 1, "players": [plain("def_left", 2)] * 11}, "players: List should have at most 10 items"),
    ({"seat": 9, "players": []}, "seat: Input should be less than or equal to 4"),
    ({"seat": 1, "players": [], "stand": 1}, "stand: Extra inputs are not permitted"),
    ({"seat": 1, "players": [{"zone": "def_left", "jersey": "two"}]}, "players.0.jersey: Input should be a valid integer"),
    ({"players": []}, "seat: Field required"),
]


@pytest.fixture(scope="module")
def refusing(playing: tuple[TestClient, RunningTable, dict[str, str]]) -> tuple[TestClient, RunningTable, dict[str, str]]:
    """One game on its first Matchday for every bad body of this module: each refusal is checked to change
    nothing."""
    client, _, csrf = playing
    play_until(client, csrf, "matchday")
    return playing


@pytest.mark.parametrize(("body", "words"), BAD_BODIES)
@pytest.mark.parametrize("path", ["/api/lineup/check", "/api/lineup/fill"])
def test_a_bad_body_is_refused_naming_the_field_and_changes_nothing(
        refusing: tuple[TestClient, RunningTable, dict[str, str]], path: str, body: dict[str, Any], words: str) -> None:
    client, table, matchday = refusing
    before = frozen(table)
    response = client.post(path, json=body, headers=matchday)
    assert response.status_code == 422
    assert response.json()["message"].startswith("Please correct: ") and words in response.json()["message"]
    assert frozen(table) == before


def test_a_body_over_the_table_s_limit_is_not_read(client: TestClient, matchday: dict[str, str]) -> None:
    huge = {"seat": 1, "players": [], "pad": "x" * (MAX_BODY_BYTES + 1)}
    response = client.post("/api/lineup/check", json=huge, headers=matchday)
    assert response.status_code == 413
    assert response.json()["detail"] == errors.BODY_TOO_LARGE.format(limit=MAX_BODY_BYTES // 1024)


def test_check_names_the_marker_at_fault_in_the_rules_words_and_changes_nothing(
        client: TestClient, table: RunningTable, matchday: dict[str, str]) -> None:
    before = frozen(table)
    fine = client.post("/api/lineup/check", json={"seat": 1, "players": [shown(client, "def_left", 2)]}, headers=matchday)
    assert fine.status_code == 200 and fine.json() == {"ok": True, "why": None, "index": None}
    crowded = {"seat": 1, "players": [shown(client, "def_left", 2), shown(client, "def_centre", 3),
                                      shown(client, "def_left", 4)]}
    answer = client.post("/api/lineup/check", json=crowded, headers=matchday).json()
    assert answer == {"ok": False, "index": 2,
                      "why": "The Defenders' left wing holds at most 1 jersey markers; the lineup puts 2 there."}
    name = table.session.state.club(1).name
    stands = client.post("/api/lineup/check", json={"seat": 1, "players": [], "stands": 9}, headers=matchday).json()
    assert stands["ok"] is False and stands["index"] is None and stands["why"].startswith(f"{name} has 2 Stands")
    assert frozen(table) == before


def test_fill_places_the_rest_and_the_lineup_it_gives_is_recorded(
        client: TestClient, table: RunningTable, matchday: dict[str, str]) -> None:
    placed = [plain("fwd_centre", None, "attack")]
    log = events(table)
    filled = client.post("/api/lineup/fill", json={"seat": 1, "players": placed}, headers=matchday)
    assert filled.status_code == 200, filled.text
    players = filled.json()["players"]
    assert len(players) == 10 and players[0] == placed[0]
    assert events(table) == log  # asking records nothing
    check = client.post("/api/lineup/check", json={"seat": 1, "players": players}, headers=matchday).json()
    assert check["ok"] is True
    recorded = client.post("/api/actions/lineup", json={"seat": 1, "players": players, "stands": 0}, headers=matchday)
    assert recorded.status_code == 200, recorded.text
    assert [p.zone for p in table.session.state.club(1).lineup] == [p["zone"] for p in players]


def test_fill_refuses_markers_the_rules_refuse_with_their_sentence(
        client: TestClient, table: RunningTable, matchday: dict[str, str]) -> None:
    before = frozen(table)
    crowded = [shown(client, "def_left", 2), shown(client, "def_left", 3)]
    response = client.post("/api/lineup/fill", json={"seat": 1, "players": crowded}, headers=matchday)
    assert response.status_code == 409
    assert response.json()["detail"] == "The Defenders' left wing holds at most 1 jersey markers; the lineup puts 2 there."
    assert frozen(table) == before


def test_the_stands_a_lineup_may_use_count_those_the_club_has_built(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    """000 l.633: "up to 1 [Fanbase] on each of the Stands (printed on the board and on the Stadium Infrastructure
    token)": the club's limits in the view count a Stands token once it is built."""
    view = play_until(client, game, "tuesday")
    seat = view["turn"]
    kind = table.profile.board.infrastructure_kind("stands")
    before = next(c for c in view["clubs"] if c["seat"] == seat)["limits"]["stands"]
    assert before == table.profile.board.board_stands
    client.post("/api/actions/correction", json={"seat": seat, "what": "budget", "delta": kind.cost, "reason": "test"},
                headers=game)
    built = client.post("/api/actions/event", json={"type": "build", "seat": seat, "kind": "stands"}, headers=game)
    assert built.status_code == 200, built.text
    club = next(c for c in client.get("/api/state").json()["game"]["clubs"] if c["seat"] == seat)
    assert kind.stands >= 1 and club["limits"]["stands"] == before + kind.stands


def test_a_second_half_being_arranged_is_checked_marker_by_marker(
        client: TestClient, table: RunningTable, csrf: dict[str, str]) -> None:
    """A League match between clubs: the Visitor's second-half arrangement, half built, gets the same answer per
    marker as a first half (003 l.156: the first half's markers, in zones of the club's choice)."""
    from .test_club_matches_page import at_second_half

    game = at_second_half(client, csrf)
    visitor = game["modules"]["club_matches"]["fixtures"][0]["visitor"]
    name = next(c["name"] for c in game["clubs"] if c["seat"] == visitor)
    markers = [dict(m) for m in next(c for c in game["clubs"] if c["seat"] == visitor)["match"]["lineup"]]
    before = frozen(table)

    def check(*placed: dict[str, Any]) -> dict[str, Any]:
        response = client.post("/api/lineup/check", json={"seat": visitor, "players": list(placed)}, headers=csrf)
        assert response.status_code == 200, response.text
        return response.json()

    assert check(*markers[:3]) == {"ok": True, "why": None, "index": None}
    blank = {"zone": "mid_left", "jersey": None, "card": None, "style": "defence"}  # the first half played none
    answer = check(*markers[:3], blank)
    assert answer["ok"] is False and answer["index"] == 3
    assert answer["why"].startswith(f"In the second half {name} plays the jersey markers of the first")
    assert check(*markers[:3], markers[1])["index"] == 3  # the same marker placed twice
    left = [dict(m, zone="def_left") for m in markers if m["zone"].startswith("def_")][:2]
    crowded = check(*left)
    assert crowded == {"ok": False, "index": 1,
                       "why": "The Defenders' left wing holds at most 1 jersey markers; the lineup puts 2 there."}
    assert check(*markers)["ok"] is True  # all ten where they were: the arrangement itself, taken
    assert frozen(table) == before
