"""The Seasons API: anyone reads the standings and each game's final scoring; only an unlocked browser changes them,
and a bad request says what is wrong and changes nothing."""

from __future__ import annotations

import csv
import io
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from device import errors as device_errors
from device.running import RunningTable
from device.seasons import GAME_NOT_OVER_YET, NOT_OVER
from tests.season_logs import evenings
from tests.web.conftest import open_table, unlock
from web import errors
from web.app import create_app

pytestmark = pytest.mark.slow  # three whole games played by the engine


@pytest.fixture(scope="module")
def league_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[list[dict[str, Any]]]]:
    """Three whole games played by the engine, then a fourth just begun (game 4)."""
    return evenings(tmp_path_factory.mktemp("league"), begun=True)


@pytest.fixture
def league_table(league_log: tuple[Path, Any], tmp_path: Path) -> Iterator[RunningTable]:
    """The real table over the simulated hardware, on a copy of that log."""
    db = tmp_path / "touchline.db"
    shutil.copy(league_log[0], db)
    running = open_table(db)
    yield running
    running.session.store.close()


@pytest.fixture
def browser(league_table: RunningTable) -> Iterator[TestClient]:
    """A browser without the PIN."""
    with TestClient(create_app(league_table), base_url="http://table.local") as client:
        client.portal.call(league_table.start)
        try:
            yield client
        finally:
            client.portal.call(league_table.stop)


def seasons_now(table: RunningTable) -> list[tuple[str, tuple[int, ...]]]:
    return [(s.name, s.games) for s in table.session.store.seasons()]


def test_the_owner_makes_a_season_and_anyone_reads_its_standings(browser: TestClient, league_log: Any) -> None:
    assert browser.get("/api/seasons").json() == {"seasons": []}
    csrf = unlock(browser)
    made = browser.post("/api/seasons", json={"name": " Autumn league "}, headers=csrf)
    assert made.status_code == 200, made.text
    season = made.json()["id"]
    added = browser.post(f"/api/seasons/{season}/games", json={"games": [1, 2, 3, 4]}, headers=csrf)
    assert added.status_code == 200, added.text
    browser.post("/api/session/logout", headers=csrf)

    assert browser.get("/api/seasons").json() == {"seasons": [{"id": season, "name": "Autumn league", "games": 4}]}
    table = browser.get(f"/api/seasons/{season}").json()
    assert [(g["id"], g["counted"], g["note"]) for g in table["games"]] == [
        (1, True, ""), (2, True, ""), (3, True, ""), (4, False, NOT_OVER)]
    assert [c["position"] for c in table["standings"]] == [1, 2, 3, 4]
    vp = [c["vp"] for c in table["standings"]]
    assert vp == sorted(vp, reverse=True)
    # Each game's final scoring is one link away, and says what the standings added up.
    for game, final in zip(table["games"][:3], league_log[1]):
        assert game["link"] == f"/final?game={game['id']}"
        assert browser.get(game["link"]).status_code == 200
        rows = browser.get(f"/api/games/{game['id']}/final").json()["final"]
        assert [(r["name"], r["total"], r["rank"]) for r in rows] == [(r["name"], r["total"], r["rank"]) for r in final]
        for row in rows:
            club = next(c for c in table["standings"] if c["club"] == row["name"])
            assert club["games"][str(game["id"])] == {"rank": row["rank"], "vp": row["total"], "winner": row["winner"]}
    not_over = browser.get("/api/games/4/final")
    assert not_over.status_code == 409 and not_over.json()["detail"] == GAME_NOT_OVER_YET.format(game=4)
    assert browser.get("/seasons").status_code == 200


@pytest.mark.parametrize(("path", "body"), [
    ("/api/seasons", {"name": "Winter"}),
    ("/api/seasons/1/games", {"games": [2]}),
    ("/api/seasons/1/remove", {"games": [1]}),
    ("/api/seasons/1/delete", {}),
])
def test_changes_are_refused_without_the_pin_and_change_nothing(
        browser: TestClient, league_table: RunningTable, path: str, body: dict[str, Any]) -> None:
    store = league_table.session.store
    store.add_to_season(store.new_season("Autumn").id, [1])
    before = seasons_now(league_table)
    refused = browser.post(path, json=body)
    assert refused.status_code == 403 and refused.json()["detail"] == errors.PIN_REQUIRED
    unlock(browser)
    no_token = browser.post(path, json=body)  # unlocked, but without the CSRF token a page sends
    assert no_token.status_code == 403 and no_token.json()["detail"] == errors.CSRF_FAILED
    assert seasons_now(league_table) == before


@pytest.mark.parametrize(("path", "body", "status", "sentence"), [
    ("/api/seasons", {"name": ""}, 409, device_errors.SEASON_NAME_EMPTY),
    ("/api/seasons", {"name": "   "}, 409, device_errors.SEASON_NAME_EMPTY),
    ("/api/seasons", {"name": "autumn"}, 409, device_errors.SEASON_NAME_TAKEN.format(name="Autumn")),
    ("/api/seasons", {"name": "x" * 61}, 409, device_errors.SEASON_NAME_TOO_LONG.format(limit=60, length=61)),
    ("/api/seasons", {"name": 5}, 422, None),
    ("/api/seasons", {}, 422, None),
    ("/api/seasons", {"name": "Winter", "games": [1]}, 422, None),
    ("/api/seasons/1/games", {"games": []}, 422, None),
    ("/api/seasons/1/games", {"games": ["two"]}, 422, None),
    ("/api/seasons/1/games", {"games": [99]}, 404, device_errors.NO_SUCH_GAME.format(game=99)),
    ("/api/seasons/2/games", {"games": [2, 1]}, 409, device_errors.GAME_IN_OTHER_SEASON.format(game=1, season="Autumn")),
    ("/api/seasons/9/games", {"games": [2]}, 404, device_errors.NO_SUCH_SEASON.format(season="number 9",
                                                                                        known="'Autumn', 'Winter'")),
    ("/api/seasons/2/remove", {"games": [1]}, 409, device_errors.GAME_NOT_IN_SEASON.format(game=1, season="Winter")),
    ("/api/seasons/0/delete", {}, 422, None),
])
def test_a_bad_request_says_what_is_wrong_and_changes_nothing(
        browser: TestClient, league_table: RunningTable, path: str, body: Any, status: int, sentence: str | None) -> None:
    store = league_table.session.store
    store.add_to_season(store.new_season("Autumn").id, [1])
    store.new_season("Winter")
    before = seasons_now(league_table)
    csrf = unlock(browser)
    response = browser.post(path, json=body, headers=csrf)
    assert response.status_code == status, response.text
    data = response.json()
    if sentence is not None:
        assert data["detail"] == sentence
    else:
        assert data["message"].startswith("Please correct: ")
    assert "Traceback" not in response.text
    assert seasons_now(league_table) == before


def test_taking_out_and_forgetting_keep_the_games(browser: TestClient, league_table: RunningTable) -> None:
    csrf = unlock(browser)
    season = browser.post("/api/seasons", json={"name": "Autumn"}, headers=csrf).json()["id"]
    browser.post(f"/api/seasons/{season}/games", json={"games": [1, 2]}, headers=csrf)
    out = browser.post(f"/api/seasons/{season}/remove", json={"games": [1]}, headers=csrf)
    assert out.status_code == 200 and [g["id"] for g in out.json()["games"]] == [2]
    listed = browser.get("/api/games").json()["games"]
    assert [(g["id"], g["season"]) for g in listed] == [(4, None), (3, None), (2, "Autumn"), (1, None)]
    assert listed[-1]["clubs"] == ["Club 1", "Club 3", "Club 2", "Club 4"]  # best first, as its final scoring
    assert browser.post(f"/api/seasons/{season}/delete", headers=csrf).status_code == 200
    assert seasons_now(league_table) == [] and len(league_table.session.store.games()) == 4


def test_the_season_downloads_as_csv_and_json(browser: TestClient, league_table: RunningTable) -> None:
    store = league_table.session.store
    season = store.add_to_season(store.new_season("Autumn league").id, [1, 2, 3]).id
    as_csv = browser.get(f"/api/seasons/{season}/export", params={"format": "csv"})
    assert as_csv.status_code == 200 and as_csv.headers["content-type"].startswith("text/csv")
    assert as_csv.headers["content-disposition"] == 'attachment; filename="touchline-season-autumn-league.csv"'
    rows = list(csv.reader(io.StringIO(as_csv.text)))
    standings = browser.get(f"/api/seasons/{season}").json()["standings"]
    assert [r[1] for r in rows[1:5]] == [c["club"] for c in standings]
    as_json = browser.get(f"/api/seasons/{season}/export")
    assert as_json.json()["standings"] == standings
    assert browser.get(f"/api/seasons/{season}/export", params={"format": "xml"}).status_code == 422
    assert browser.get("/api/seasons/7/export").status_code == 404
