"""Fixtures for the web app's tests: a stand-in table, a TestClient, and a real server on loopback."""

from __future__ import annotations

from collections.abc import Iterator

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


TWO_CLUBS = {"clubs": [{"seat": 1, "name": "Middleham Local Club", "directors": ["dir_accountant", "dir_legend",
                                                                                "dir_mayor"]},
                       {"seat": 2, "name": "Riverside Town"}]}


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
