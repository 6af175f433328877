"""Fixtures for the page's tests: the real table over the simulated hardware, a TestClient, and the table served.

``table`` is what ``touchline run --sim`` runs (the session, the event log in SQLite, the simulated readers, buttons
and panels of the default simulated table), stepped by hand: each simulated tap or press is read before the request
returns, and time passes only when a test moves the clock.  ``served`` is the same table served by uvicorn on a free
loopback port exactly as ``touchline run --sim`` serves it, with its drivers' threads running.
"""

from __future__ import annotations

import asyncio
import random
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from device.running import RunningTable
from device.serve import Service, build_table
from device.sim import ForcedDice
from device.store import PIN_KEY, open_store
from device.table_file import default_sim_table
from drivers.base import ManualClock
from web.app import create_app

PIN = "2468"


class SeededDice:
    """Fair-looking rolls from a seeded generator, so a test plays the same game every time."""

    def __init__(self, seed: int = 7) -> None:
        self._random = random.Random(seed)

    def roll(self, die: Any) -> int:
        """A face of ``die``."""
        return int(self._random.choice(die.faces))


def open_table(db: Path, *, stepped: bool = True) -> RunningTable:
    """The real table over the simulated hardware, its log at ``db`` and its PIN 2468 (kept in the log, as the
    table keeps the PIN it made up); ``stepped``: on a manual clock, without the drivers' threads."""
    store = open_store(db)
    try:
        store.set_setting(PIN_KEY, PIN)
    finally:
        store.close()
    return build_table(default_sim_table(), sim=True, db_path=db, dice=ForcedDice(fallback=SeededDice()),
                       clock=ManualClock() if stepped else None)


def events(table: RunningTable) -> list[dict[str, Any]]:
    """Every event of the current game's log."""
    session = table.session
    return [] if session.game is None else list(session.store.events(session.game))


@pytest.fixture
def table(tmp_path: Path) -> Iterator[RunningTable]:
    """A fresh real table with no game (started by ``client``)."""
    running = open_table(tmp_path / "touchline.db")
    yield running
    running.session.store.close()


@pytest.fixture
def app(table: RunningTable) -> FastAPI:
    """The web app around the table."""
    return create_app(table)


@contextmanager
def started_client(app: FastAPI, table: RunningTable) -> Iterator[TestClient]:
    """A browser without the PIN on ``app``; the table runs on the client's event loop while it is open."""
    with TestClient(app, base_url="http://table.local") as c:
        c.portal.call(table.start)
        try:
            yield c
        finally:
            c.portal.call(table.stop)


@pytest.fixture
def client(app: FastAPI, table: RunningTable) -> Iterator[TestClient]:
    """A browser without the PIN; the table runs on the client's event loop while it is open."""
    with started_client(app, table) as c:
        yield c


@pytest.fixture(scope="module")
def locked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, RunningTable]]:
    """One table and a browser without the PIN, shared by a module's tests that must each leave the table as it
    was (a refusal): each test checks that it did, so none can hide a change from the next."""
    table = open_table(tmp_path_factory.mktemp("locked") / "touchline.db")
    try:
        with started_client(create_app(table), table) as c:
            yield c, table
    finally:
        table.session.store.close()


@pytest.fixture(scope="module")
def playing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, RunningTable, dict[str, str]]]:
    """As ``locked``, with the browser unlocked and a two-club game under way: the browser, the table and the
    CSRF header."""
    table = open_table(tmp_path_factory.mktemp("playing") / "touchline.db")
    try:
        with started_client(create_app(table), table) as c:
            yield c, table, start_game(c, unlock(c))
    finally:
        table.session.store.close()


def unlock(client: TestClient | httpx.Client, pin: str = PIN) -> dict[str, str]:
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


def play_until(client: httpx.Client | TestClient, csrf: dict[str, str], stage: str, limit: int = 400,
               lineups: bool = False) -> dict[str, Any]:
    """Answer whatever the table waits for (Board meeting cards, rolls, keeps, passes) until ``stage``.

    With ``lineups``, Matchday is played too (ten plain jersey markers, then the kick-off), and so on.
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
        if need == "keep_or_reroll" and response.status_code == 409:
            continue  # a running table keeps a roll by itself when its reroll window closes: it just did
        assert response.status_code == 200, response.text
    raise AssertionError(f"the game did not reach {stage}")


def _board_cards(client: httpx.Client | TestClient) -> list[dict[str, Any]]:
    return client.get("/api/deck", params={"kind": "board_meeting"}).json()  # type: ignore[no-any-return]


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


def start_game(client: TestClient, csrf: dict[str, str]) -> dict[str, str]:
    """Start the two-club game from the page; return the CSRF header."""
    response = client.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf)
    assert response.status_code == 200, response.text
    return csrf


@pytest.fixture
def game(client: TestClient, csrf: dict[str, str]) -> dict[str, str]:
    """A running two-club game; returns the CSRF header."""
    return start_game(client, csrf)


def free_port() -> int:
    """A loopback TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Served:
    """The real table served as ``touchline run --sim`` serves it (``device.serve.Service``), in a thread of this
    process on a loopback port; ``table`` is there to look at what happened."""

    def __init__(self, table: RunningTable, port: int | None = None) -> None:
        self.table = table
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.service = Service(table, host="127.0.0.1", port=self.port)
        self.result: list[int] = []
        self._thread = threading.Thread(target=lambda: self.result.append(asyncio.run(self.service.run())),
                                        name="touchline-served", daemon=True)

    def start(self) -> Served:
        """Start serving; return once the page answers."""
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self.service.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError(f"the table's page did not start on {self.url}")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        """Stop serving as a stop signal does, and wait for the table to have stopped."""
        self.service.stop()
        self._thread.join(timeout=15)
        assert not self._thread.is_alive(), "the table did not stop"

    def __enter__(self) -> Served:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """The real simulated table with its drivers' threads, served for real on a free loopback port."""
    table = open_table(tmp_path / "served.db", stepped=False)
    with Served(table) as running:
        yield running
    table.session.store.close()
