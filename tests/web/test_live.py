"""Live updates: every open page gets a new snapshot as soon as anything happens, and reconnects by itself."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Iterator

import httpx
import pytest

from web.live import Hub
from web.routers.live import RETRY_MS
from web.testing import ServedApp, StandInTable

from .conftest import TWO_CLUBS


def events(lines: Iterator[str]) -> Iterator[dict[str, str]]:
    """Parse a text/event-stream into events (dicts of field -> value)."""
    current: dict[str, str] = {}
    for line in lines:
        if not line:
            if current:
                yield current
            current = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            current[name] = value.removeprefix(" ")


def test_the_stream_opens_with_the_current_snapshot_then_follows_every_change(served: ServedApp) -> None:
    with httpx.Client(base_url=served.url, timeout=10) as http:
        csrf = {"x-csrf-token": http.post("/api/session", json={"pin": served.table.pin}).json()["csrf"]}
        with http.stream("GET", "/api/live") as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            incoming = events(stream.iter_lines())
            first = next(incoming)
            assert first["event"] == "snapshot"
            assert first["retry"] == str(RETRY_MS)
            assert json.loads(first["data"])["game"] is None
            assert http.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf).status_code == 200
            second = json.loads(next(incoming)["data"])
            assert [c["name"] for c in second["game"]["clubs"]] == ["Middleham Local Club", "Riverside Town"]
            assert http.post("/api/sim/place", json={"pad": "seat1", "card": "bm_01"}, headers=csrf).status_code == 200
            third = json.loads(next(incoming)["data"])
            assert third["log"][-1]["kind"] == "board_meeting_card"


def test_stopping_the_server_ends_open_streams() -> None:
    running = ServedApp(StandInTable()).start()
    ended = threading.Event()

    def listen() -> None:
        with httpx.Client(base_url=running.url, timeout=10) as http, http.stream("GET", "/api/live") as stream:
            for _ in stream.iter_lines():
                pass
        ended.set()

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    while running.table.hub.subscribers == 0:
        listener.join(0.02)
    running.stop()
    assert ended.wait(5), "the live stream stayed open after the server stopped"
    assert running.table.hub.subscribers == 0


def test_a_page_that_leaves_is_let_go_quietly(served: ServedApp, caplog: pytest.LogCaptureFixture) -> None:
    """A closed tab ends its stream: the table stops sending to it and nothing goes wrong on the server."""
    caplog.set_level(logging.ERROR)
    with httpx.Client(base_url=served.url, timeout=10) as http:
        for _ in range(3):
            with http.stream("GET", "/api/live") as stream:
                assert next(events(stream.iter_lines()))["event"] == "snapshot"
        csrf = {"x-csrf-token": http.post("/api/session", json={"pin": served.table.pin}).json()["csrf"]}
        assert http.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf).status_code == 200
        for _ in range(100):  # the server notices a closed connection when it next writes to it
            if served.table.hub.subscribers == 0:
                break
            threading.Event().wait(0.05)
    assert served.table.hub.subscribers == 0
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_hub_gives_each_subscriber_the_newest_snapshot_even_from_another_thread() -> None:
    counter = {"n": 0}
    hub = Hub(lambda: {"n": counter["n"]})

    async def run() -> list[int]:
        stream = hub.subscribe()
        seen = [(await anext(stream))["n"]]
        counter["n"] = 1
        worker = threading.Thread(target=hub.publish)
        worker.start()
        worker.join()
        seen.append((await asyncio.wait_for(anext(stream), 2))["n"])
        # Two publishes while the page is busy: it gets only the newest, never a backlog.
        counter["n"] = 2
        hub.publish()
        counter["n"] = 3
        hub.publish()
        seen.append((await asyncio.wait_for(anext(stream), 2))["n"])
        await stream.aclose()
        return seen

    assert asyncio.run(run()) == [0, 1, 3]
    assert hub.subscribers == 0


@pytest.mark.parametrize("count", [3])
def test_every_subscriber_gets_the_update(count: int) -> None:
    hub = Hub(lambda: {"ok": True})

    async def run() -> int:
        streams = [hub.subscribe() for _ in range(count)]
        for s in streams:
            await anext(s)
        hub.publish()
        got = [await asyncio.wait_for(anext(s), 2) for s in streams]
        for s in streams:
            await s.aclose()
        return len(got)

    assert asyncio.run(run()) == count
