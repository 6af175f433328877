"""A stranger on the shop's Wi-Fi against the real ``touchline run --sim``: huge bodies, half-sent requests, other
host names.  The page stays reachable for everyone else, memory stays put, and the log does not fill the card."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from device import connections
from tests.e2e.touchline_run import TouchlineRun, client
from web import errors
from web.limits import MAX_BODY_BYTES

pytestmark = pytest.mark.slow
STRANGER = "127.0.0.2"
OWNER = "127.0.0.3"


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TouchlineRun]:
    """One simulated table for the module, with a low open-file limit so running out of files would be quick."""
    with TouchlineRun(tmp_path_factory.mktemp("limits") / "t.db", files=512) as running:
        yield running


def _chunks(total: int, size: int = 1 << 20) -> Iterator[bytes]:
    block = b"x" * size
    for _ in range(total // size):
        yield block


def test_huge_anonymous_bodies_are_refused_unread_and_memory_stays_put(table: TouchlineRun) -> None:
    before = table.rss_mb()
    with client(STRANGER, timeout=60) as stranger:
        for path in ("/api/session", "/api/actions/new-game", "/api/sim/place", "/api/actions/undo"):
            # Declared: refused from the Content-Length alone, before the PIN is looked at.
            declared = stranger.post(table.url + path, content=_chunks(100 << 20),
                                     headers={"content-length": str(100 << 20), "content-type": "application/json"})
            assert declared.status_code == 413
            assert declared.json()["detail"] == errors.BODY_TOO_LARGE.format(limit=MAX_BODY_BYTES // 1024)
            # Chunked, with no length: cut off once it grows past the limit (or refused for want of the PIN
            # before that much was read).
            try:
                chunked = stranger.post(table.url + path, content=_chunks(100 << 20),
                                        headers={"content-type": "application/json"})
            except httpx.TransportError:
                pass  # the table closed the connection while the upload was still being sent
            else:
                assert chunked.status_code in (403, 413)
    assert table.rss_mb() - before < 20
    with client(OWNER) as owner:
        assert owner.get(table.url + "/api/state").status_code == 200


def test_half_sent_requests_from_one_device_leave_the_page_to_everyone_else(table: TouchlineRun) -> None:
    stranger_sockets: list[socket.socket] = []
    refused = 0
    try:
        for n in range(1100):
            sock = socket.socket()
            sock.bind((STRANGER, 0))
            sock.settimeout(5)
            try:
                sock.connect(("127.0.0.1", table.port))
                sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * (n % 50))
            except OSError:
                refused += 1
                sock.close()
                continue
            stranger_sockets.append(sock)
        # The owner's phone still gets the page at once.
        with client(OWNER, timeout=5) as owner:
            assert owner.get(table.url + "/api/state").status_code == 200
            assert owner.get(table.url + "/").status_code == 200
        # Beyond its share the stranger's connections were answered with a sentence and closed.
        answers = []
        for sock in stranger_sockets[connections.PER_CLIENT:connections.PER_CLIENT + 5]:
            answers.append(sock.recv(4096))
        assert all(b"503" in a and connections.TOO_MANY_FROM_CLIENT.encode() in a for a in answers)
        # The stranger's half-sent requests are dropped once their time is up.
        kept = stranger_sockets[:connections.PER_CLIENT]
        for sock in kept:
            sock.settimeout(connections.REQUEST_SECONDS + 10)
        started = time.monotonic()
        assert all(sock.recv(4096) == b"" for sock in kept)
        assert time.monotonic() - started < connections.REQUEST_SECONDS + 5
    finally:
        for sock in stranger_sockets:
            sock.close()
    # The flood is written to the log once, not once per connection.
    refusals = [line for line in table.output if "refused a connection from" in line]
    assert 1 <= len(refusals) <= 3, "".join(refusals[:10])
    with client(STRANGER, timeout=5) as stranger:  # and the stranger gets in again once it lets go
        assert stranger.get(table.url + "/api/state").status_code == 200


def test_a_body_that_trickles_in_is_cut_off(table: TouchlineRun) -> None:
    sock = socket.create_connection(("127.0.0.1", table.port), source_address=(STRANGER, 0))
    try:
        sock.sendall(b"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n{\"pin\": \"")
        sock.settimeout(connections.REQUEST_SECONDS + 10)
        started = time.monotonic()
        while True:  # a byte now and then, never the whole body
            try:
                sock.sendall(b"1")
            except OSError:
                break
            sock.settimeout(0.5)
            try:
                if sock.recv(4096) == b"":
                    break
            except TimeoutError:
                continue
            break
        assert time.monotonic() - started < connections.REQUEST_SECONDS + 5
    finally:
        sock.close()


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "table.attacker.test", "10.9.8.7"])
def test_a_page_under_another_name_can_neither_read_nor_change_the_table(table: TouchlineRun, host: str) -> None:
    with client(OWNER) as page:
        headers = table.unlock(page)
        for method, path in (("GET", "/api/state"), ("GET", "/api/session"), ("POST", "/api/actions/undo"),
                             ("GET", "/docs"), ("GET", "/")):
            answer = page.request(method, table.url + path, headers={**headers, "host": host})
            assert answer.status_code == 421, (path, answer.text)
            assert answer.json()["detail"] == errors.UNKNOWN_HOST.format(host=host.partition(":")[0])
            assert "game" not in answer.text


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LOCALHOST.", f"{socket.gethostname()}",
                                  f"{socket.gethostname().split('.')[0]}.local", "[::1]"])
def test_the_tables_own_names_are_answered(table: TouchlineRun, host: str) -> None:
    with client(OWNER) as page:
        port = "" if host.endswith("]") or host.endswith(".") else f":{table.port}"
        assert page.get(table.url + "/api/state", headers={"host": f"{host}{port}"}).status_code == 200


def test_a_name_the_table_file_lists_is_answered(tmp_path: Path) -> None:
    source = Path(__file__).resolve().parents[2] / "device" / "tables" / "sim.toml"
    text = source.read_text()
    table_file = tmp_path / "table.toml"
    table_file.write_text(text.replace("[web]", '[web]\nnames = ["touchline.shop.lan"]', 1) if "[web]" in text
                          else text + '\n[web]\nnames = ["touchline.shop.lan"]\n')
    with TouchlineRun(tmp_path / "t.db", table=table_file) as running, client(OWNER) as page:
        assert page.get(running.url + "/api/state", headers={"host": "touchline.shop.lan"}).status_code == 200
        assert page.get(running.url + "/api/state", headers={"host": "evil.example"}).status_code == 421


def test_the_address_the_table_listens_on_is_not_a_name_it_answers_to() -> None:
    from web.limits import TableNames

    names = TableNames(["0.0.0.0", "::", "Touchline.Shop.LAN."], own=["pi"])
    assert names.allows("touchline.shop.lan", "192.168.1.5") and names.allows("pi", "192.168.1.5")
    assert names.allows("192.168.1.5", "192.168.1.5")  # the address the request came in on
    assert not names.allows("0.0.0.0", "192.168.1.5") and not names.allows("192.168.1.6", "192.168.1.5")
    assert not names.allows("evil.example", "192.168.1.5")
