"""Live updates: every open page gets a new snapshot as soon as anything happens, built and encoded once per viewer."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from web.live import Broadcast
from web.routers.live import RETRY_MS

from .conftest import TWO_CLUBS, Served, open_table, unlock


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


def snapshots(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """The snapshots of a live stream, decoded."""
    for event in events(lines):
        assert event["event"] == "snapshot"
        yield json.loads(event["data"])


def test_the_stream_opens_with_the_current_snapshot_then_follows_every_change(served: Served) -> None:
    with httpx.Client(base_url=served.url, timeout=10) as http:
        csrf = unlock(http)
        with http.stream("GET", "/api/live") as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = stream.iter_lines()
            incoming = events(lines)
            first = next(incoming)
            assert first["event"] == "snapshot"
            assert first["retry"] == str(RETRY_MS)
            assert json.loads(first["data"])["game"] is None
            assert http.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf).status_code == 200
            second = json.loads(next(incoming)["data"])
            assert [c["name"] for c in second["game"]["clubs"]] == ["Middleham Local Club", "Riverside Town"]
            assert http.post("/api/sim/place", json={"pad": "seat1.tap", "card": "bm_01"}, headers=csrf).status_code == 200
            for later in snapshots(lines):
                if later["log"] and later["log"][-1]["kind"] == "board_meeting_card":
                    break
            # Each snapshot says which change it shows: they only grow.
            assert second["version"] > json.loads(first["data"])["version"]


def test_stopping_the_server_ends_open_streams(tmp_path: Path) -> None:
    table = open_table(tmp_path / "t.db", stepped=False)
    running = Served(table).start()
    ended = threading.Event()

    def listen() -> None:
        with httpx.Client(base_url=running.url, timeout=10) as http, http.stream("GET", "/api/live") as stream:
            for _ in stream.iter_lines():
                pass
        ended.set()

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    live = running.service.app.state.live
    while live.subscribers == 0:
        listener.join(0.02)
    running.stop()  # returns only once the server and the table have stopped: the open page did not hold it up
    assert ended.wait(5), "the live stream stayed open after the server stopped"
    assert live.subscribers == 0
    table.session.store.close()


def test_a_page_that_leaves_is_let_go_quietly(served: Served, caplog: pytest.LogCaptureFixture) -> None:
    """A closed tab ends its stream: the table stops sending to it and nothing goes wrong on the server."""
    caplog.set_level(logging.ERROR)
    live = served.service.app.state.live
    with httpx.Client(base_url=served.url, timeout=10) as http:
        for _ in range(3):
            with http.stream("GET", "/api/live") as stream:
                assert next(events(stream.iter_lines()))["event"] == "snapshot"
        csrf = unlock(http)
        assert http.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf).status_code == 200
        for _ in range(100):  # the server notices a closed connection when it next writes to it
            if live.subscribers == 0:
                break
            threading.Event().wait(0.05)
    assert live.subscribers == 0
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


class Counted:
    """A table's snapshots for the broadcast, counting how often each viewer's is built."""

    def __init__(self) -> None:
        self.version = 0
        self.built: dict[int | str, int] = {}

    def snapshot(self, viewer: int | str) -> dict[str, Any]:
        self.built[viewer] = self.built.get(viewer, 0) + 1
        return {"version": self.version, "viewer": viewer}


def test_each_viewers_snapshot_is_built_and_encoded_once_per_change_whatever_the_number_of_pages() -> None:
    table = Counted()
    live = Broadcast(table.snapshot, lambda: table.version)

    async def run() -> list[list[bytes]]:
        pages = [live.subscribe("table") for _ in range(50)] + [live.subscribe(2) for _ in range(5)]
        seen = [[await anext(page)] for page in pages]
        table.version = 1
        live.changed()
        for page, got in zip(pages, seen):
            got.append(await asyncio.wait_for(anext(page), 2))
        for page in pages:
            await page.aclose()  # type: ignore[attr-defined]
        return seen

    seen = asyncio.run(run())
    assert table.built == {"table": 2, 2: 2}  # once per viewer and change, not once per page
    assert all(got[1] is seen[0][1] for got in seen[:50])  # the very same bytes for every page of a viewer
    assert json.loads(seen[-1][1].split(b"data: ", 1)[1]) == {"version": 1, "viewer": 2}
    assert live.subscribers == 0


def test_a_busy_page_gets_only_the_newest_snapshot_never_a_backlog() -> None:
    table = Counted()
    live = Broadcast(table.snapshot, lambda: table.version)

    async def run() -> list[int]:
        page = live.subscribe("table")
        seen = [json.loads((await anext(page)).split(b"data: ", 1)[1])["version"]]
        for version in (1, 2, 3):  # three changes while the page was busy elsewhere
            table.version = version
            live.changed()
        seen.append(json.loads((await asyncio.wait_for(anext(page), 2)).split(b"data: ", 1)[1])["version"])
        live.close()
        assert [item async for item in page] == []  # closing ends the stream
        return seen

    assert asyncio.run(run()) == [0, 3]
    assert live.subscribers == 0


class Wire:
    """A page's connection as the server hands it over: what was written to it, and whether it takes more now."""

    def __init__(self, *, chunked: bool = True) -> None:
        self.chunked = chunked
        self.written: list[bytes] = []
        self.full = False
        self.drained: Any = None

    def writable(self) -> bool:
        return not self.full

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def when_writable(self, callback: Any) -> None:
        self.drained = callback

    def drain(self) -> None:
        self.full = False
        self.drained()


def test_a_change_writes_the_same_framed_bytes_to_every_handed_over_page_building_each_view_once() -> None:
    table = Counted()
    live = Broadcast(table.snapshot, lambda: table.version)

    async def run() -> None:
        first = live.encoded("table")
        wires = [Wire() for _ in range(50)]
        pages = [live.attach("table", wire, first.version) for wire in wires]
        seat_wire, old_wire = Wire(), Wire(chunked=False)
        pages += [live.attach(2, seat_wire, live.encoded(2).version), live.attach(2, old_wire, live.encoded(2).version)]
        assert all(wire.written == [] for wire in wires)  # they have the snapshot of now already
        table.version = 1
        live.changed()
        assert table.built == {"table": 2, 2: 2}  # once per viewer and change, not once per page
        assert all(len(wire.written) == 1 and wire.written[0] is wires[0].written[0] for wire in wires)
        size, _, rest = wires[0].written[0].partition(b"\r\n")
        assert int(size, 16) == len(rest) - 2 and rest.endswith(b"\r\n")  # one HTTP/1.1 chunk holding one event
        assert json.loads(rest.split(b"data: ", 1)[1]) == {"version": 1, "viewer": "table"}
        assert old_wire.written[0].startswith(b"event: snapshot\n")  # an HTTP/1.0 page's body is not chunked
        assert json.loads(seat_wire.written[0].split(b"data: ", 1)[1]) == {"version": 1, "viewer": 2}
        live.changed()  # nothing new: nothing sent again
        assert len(wires[0].written) == 1
        assert live.subscribers == 52
        for page in pages:
            page.leave()
        assert live.subscribers == 0

    asyncio.run(run())


def test_a_handed_over_page_that_reads_slowly_gets_only_the_newest_snapshot_once_it_has_taken_the_last() -> None:
    table = Counted()
    live = Broadcast(table.snapshot, lambda: table.version)

    async def run() -> None:
        wire = Wire()
        page = live.attach("table", wire, live.encoded("table").version)
        wire.full = True
        for version in (1, 2, 3):  # three changes while the phone's buffer was full
            table.version = version
            live.changed()
        assert wire.written == []
        wire.drain()
        assert [json.loads(w.split(b"data: ", 1)[1])["version"] for w in wire.written] == [3]
        live.close()  # the server stops: the page's stream ends and nothing more is written
        await asyncio.wait_for(page.ended(), 1)
        table.version = 4
        live.changed()
        assert len(wire.written) == 1
        page.leave()
        assert live.subscribers == 0

    asyncio.run(run())


def test_a_handed_over_page_waits_until_it_leaves_or_the_server_stops_whichever_comes_first() -> None:
    table = Counted()
    live = Broadcast(table.snapshot, lambda: table.version)

    async def run() -> None:
        staying, leaving, gone = (live.attach("table", Wire(), live.encoded("table").version) for _ in range(3))
        waits = [asyncio.ensure_future(page.ended()) for page in (staying, leaving)]
        await asyncio.sleep(0)
        assert not any(wait.done() for wait in waits)  # an open page's stream goes on
        leaving.end()  # the phone went away while its response waited
        gone.end()  # ... or before it began to wait
        await asyncio.wait_for(waits[1], 1)
        await asyncio.wait_for(gone.ended(), 1)
        assert not waits[0].done()
        live.close()  # the server stops: every page still open ends, and one that comes now ends at once
        await asyncio.wait_for(waits[0], 1)
        late = live.attach("table", Wire(), live.encoded("table").version)
        await asyncio.wait_for(late.ended(), 1)
        for page in (staying, leaving, gone, late):
            page.leave()
        assert live.subscribers == 0

    asyncio.run(run())
