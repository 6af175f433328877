"""The live stream as ``touchline run`` serves it, where the page's connection is handed over to the broadcast: each
page gets its own viewer's snapshots, so a seat's secrets reach its own page and no other."""

from __future__ import annotations

import json
import re
import socket
from typing import Any

import httpx

from .conftest import PIN, TWO_CLUBS, Served, served, unlock  # noqa: F401  (served is a fixture)


class Stream:
    """One page's /api/live over a plain socket, read as the browser reads it."""

    def __init__(self, port: int, query: str = "", cookie: str = "") -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        head = f"GET /api/live{'?' + query if query else ''} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        if cookie:
            head += f"Cookie: {cookie}\r\n"
        self.sock.sendall((head + "\r\n").encode())
        self.buffer = b""

    def snapshot(self, newer_than: int = -1) -> dict[str, Any]:
        """The next snapshot in the stream whose version is above ``newer_than``."""
        while True:
            while b"\ndata: " not in self.buffer or b"\n\n" not in self.buffer.split(b"\ndata: ", 1)[1]:
                chunk = self.sock.recv(1 << 16)
                assert chunk, "the stream ended"
                self.buffer += chunk
            _, rest = self.buffer.split(b"\ndata: ", 1)
            data, self.buffer = rest.split(b"\n\n", 1)
            line = data.split(b"\r\n", 1)[0]  # a chunk's size line may follow the event
            snapshot = json.loads(line)
            if int(snapshot.get("version", 0)) > newer_than:
                return snapshot

    def until_the_end(self) -> list[dict[str, Any]]:
        """Every snapshot still sent before the response ends (its last chunk); fails if it does not end."""
        while b"\r\n0\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(1 << 16)  # the socket's timeout fails a stream that goes on
            assert chunk, "the connection closed without ending the response"
            self.buffer += chunk
        return [json.loads(data) for data in re.findall(rb"\ndata: (.*?)\n\n", self.buffer)]

    def close(self) -> None:
        self.sock.close()


def _objectives(snapshot: dict[str, Any]) -> dict[int, Any]:
    return {c["seat"]: c.get("objective") for c in snapshot["game"]["clubs"]}


def game_with_seat_1_on_a_phone(owner: httpx.Client, phone: httpx.Client) -> tuple[dict[str, str], str]:
    """The owner starts a two-club game and a phone opens seat 1's page with the PIN; the owner's CSRF header and
    the phone's cookies."""
    csrf = unlock(owner)
    assert owner.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf).status_code == 200
    assert phone.post("/api/seat/1/unlock", json={"pin": PIN}).status_code == 200
    return csrf, "; ".join(f"{k}={v}" for k, v in phone.cookies.items())


def test_a_seats_live_page_gets_its_objective_and_the_public_and_the_other_seat_never_do(served: Served) -> None:
    with httpx.Client(base_url=served.url, timeout=10) as owner, httpx.Client(base_url=served.url, timeout=10) as phone:
        csrf, cookie = game_with_seat_1_on_a_phone(owner, phone)
        state = served.table.session.state
        held = {c.seat: c.objective for c in state.clubs}
        assert held[1] and held[2]
        public, own = Stream(served.port), Stream(served.port, "seat=1", cookie)
        try:
            first_public, first_own = public.snapshot(), own.snapshot()
            # A change goes out to both pages through the handed-over connections.
            assert owner.post("/api/sim/place", json={"pad": "seat1.tap", "card": "bm_01"},
                              headers=csrf).status_code == 200
            later_public = public.snapshot(first_public["version"])
            later_own = own.snapshot(first_own["version"])
        finally:
            public.close()
            own.close()
    for snapshot in (first_public, later_public):
        assert _objectives(snapshot) == {1: None, 2: None}
        assert held[1] not in json.dumps(snapshot) and held[2] not in json.dumps(snapshot)
    for snapshot in (first_own, later_own):
        assert _objectives(snapshot)[1] is not None and _objectives(snapshot)[2] is None
        assert held[2] not in json.dumps(snapshot)


def test_a_seats_live_page_left_open_ends_with_a_new_game_and_never_shows_the_next_games_secrets(
        served: Served) -> None:
    next_group = {"clubs": [{"seat": 1, "name": "Next Group Athletic"}, {"seat": 2, "name": "Late Arrivals"}]}
    with httpx.Client(base_url=served.url, timeout=10) as owner, httpx.Client(base_url=served.url, timeout=10) as phone:
        csrf, cookie = game_with_seat_1_on_a_phone(owner, phone)
        own = Stream(served.port, "seat=1", cookie)
        try:
            assert _objectives(own.snapshot())[1] is not None
            # The next group sits down: a new game, whose seat 1 is somebody else.
            assert owner.post("/api/actions/new-game", json=next_group, headers=csrf).status_code == 200
            sent = own.until_the_end()  # the page's stream ends (the browser asks again)...
        finally:
            own.close()
        assert "Next Group Athletic" not in json.dumps(sent)  # ...before anything of the new game reached it
        assert phone.get("/api/state", params={"seat": 1}).status_code == 403  # and asking again opens nothing
        assert phone.get("/api/live", params={"seat": 1}).status_code == 403
