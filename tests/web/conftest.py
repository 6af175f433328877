"""Fixtures for the web app's tests: a stand-in table, a TestClient, and a real server on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from web.app import create_app
from web.testing import PIN, ServedApp, StandInTable


@pytest.fixture
def table() -> StandInTable:
    """A fresh stand-in table with no game."""
    return StandInTable()


@pytest.fixture
def app(table: StandInTable) -> FastAPI:
    """The web app around the stand-in table."""
    return create_app(table)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """A browser without the PIN."""
    with TestClient(app, base_url="http://table.local") as c:
        yield c


def unlock(client: TestClient, pin: str = PIN) -> dict[str, str]:
    """Log the client in with the PIN; return the headers a page sends with a change."""
    response = client.post("/api/session", json={"pin": pin})
    assert response.status_code == 200, response.text
    return {"x-csrf-token": response.json()["csrf"]}


@pytest.fixture
def csrf(client: TestClient) -> dict[str, str]:
    """Unlock ``client`` and return its CSRF header."""
    return unlock(client)


TWO_CLUBS = {"clubs": [{"seat": 1, "name": "Middleham Local Club", "directors": ["dir_04", "dir_05", "dir_06"]},
                       {"seat": 2, "name": "Riverside Town"}]}


def play_until(client: httpx.Client, csrf: dict[str, str], stage: str, limit: int = 400,
               lineups: bool = False) -> dict[str, Any]:
    """Answer whatever the table waits for (Board meeting cards, rolls, keeps, passes) until ``stage``.

    With ``lineups``, Matchday is played too (the engine's own legal lineup, then the kick-off), and so on.
    """
    for turn in range(limit):
        game = client.get("/api/state").json()["game"]
        if game["stage"] == stage:
            return game
        wait = game["awaiting"][0]
        seat, need = wait["seat"], wait["need"]
        if lineups and need == "lineup":
            club = next(c for c in game["clubs"] if c["seat"] == seat)
            event = _lineup(club, client.get("/api/rules").json()["pitch"])
        elif need == "kickoff":
            event = {"type": "kickoff", "seat": seat}
        elif need == "suspensions":
            club = next(c for c in game["clubs"] if c["seat"] == seat)
            cards = [c["id"] for c in club["staff"] + club["players"]]
            event = {"type": "suspensions", "seat": seat, "cards": [cards[i % len(cards)] for i in range(wait["count"])]}
        elif need == "objective_result":
            event = {"type": "objective_result", "seat": seat, "result": "fulfilled"}
        elif need == "card":
            drawn = {c["board_card"] for c in game["clubs"]}
            card = next(c["id"] for c in _board_cards(client) if c["id"] not in drawn)
            event: dict[str, Any] = {"type": "board_meeting", "seat": seat, "card": card}
        elif need == "roll":
            # Vary the value: the same roll again would tie the same Directors' votes again.
            event = {"type": "roll", "seat": seat, "value": 1 + turn % 6, **({"team": wait["team"]} if wait.get("team") else {})}
        elif need == "keep_or_reroll":
            event = {"type": "keep", "seat": seat}
        elif need in ("action", "abilities"):
            event = {"type": "pass", "seat": seat}
        else:
            raise AssertionError(f"cannot answer {wait}")
        response = client.post("/api/actions/event", json=event, headers=csrf)
        assert response.status_code == 200, response.text
    raise AssertionError(f"the game did not reach {stage}")


def _board_cards(client: httpx.Client) -> list[dict[str, Any]]:
    return client.get("/api/deck", params={"kind": "board_meeting"}).json()


def _lineup(club: dict[str, Any], pitch: dict[str, Any]) -> dict[str, Any]:
    """Ten plain jersey markers in the starting formation (4 Defenders, 4 Midfielders, 2 Forwards), no cards."""
    zones = ["def_left", "def_centre", "def_centre", "def_right", "mid_left", "mid_centre", "mid_centre",
             "mid_right", "fwd_centre", "fwd_centre"]
    numbers = list(pitch["jerseys"])
    out_numbers = {p["jersey"] for p in club["players"] if p["injury"] or p["suspension"]}
    numbers = [n for n in numbers if n not in out_numbers] + [None] * pitch["blanks"]
    # a marker the table has seen shows its recorded side
    shown = {**club.get("markers_unseen", {}), **club.get("markers", {})}
    players = [{"zone": z, "jersey": n, "card": None, "style": shown.get(str(n), "defence" if z.startswith("def") else "attack")}
               for z, n in zip(zones, numbers)]
    return {"type": "lineup", "seat": club["seat"], "players": players, "stands": 0}


@pytest.fixture
def game(client: TestClient, csrf: dict[str, str]) -> dict[str, str]:
    """A running two-club game; returns the CSRF header."""
    response = client.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf)
    assert response.status_code == 200, response.text
    return csrf


@pytest.fixture
def served() -> Iterator[ServedApp]:
    """The app around a fresh stand-in table, served for real on a free loopback port."""
    with ServedApp(StandInTable()) as running:
        yield running
