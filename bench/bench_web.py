"""The web page's live updates and first load: 100 open pages all hear of an event fast, and the page is light.

Targets (issue 5): every one of 100 connected live clients receives an update within 100 ms (95th percentile) of
an event at the table; every page's first load (its HTML, scripts, styles, the API answers its scripts fetch and
the first snapshot) is under 200 KB with no resource from outside the table.
The server runs in its own process (as on the Pi) with the stand-in table; the clients are raw loopback sockets.
"""

from __future__ import annotations

import asyncio
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

import httpx

from web.routers.pages import PAGES

CLIENTS = 100
EVENTS = 20
P95_TARGET_MS = 100.0
FIRST_LOAD_TARGET = 200_000
EXTERNAL = re.compile(r"""(?:src|href|url)\s*[=(]\s*["']?\s*(?:https?:)?//""", re.IGNORECASE)
ASSET = re.compile(r"""(?:src|href)="(/static/[^"]+)"|from\s+"\./([^"]+)"|import\s+"\./([^"]+)\"""")
FETCH = re.compile(r"""fetch\(["'](/api/[a-z/]+)["']""")
PIN = "2468"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_server(port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen([sys.executable, "-m", "web.testing", "--port", str(port), "--pin", PIN],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/session", timeout=1).read()
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the stand-in table's web server did not start")


def first_load(base: str, page: str = "/") -> tuple[int, list[str]]:
    """Bytes of a page with every asset and API answer it pulls in (its first state too), and any outside reference."""
    outside: list[str] = []
    with httpx.Client(base_url=base, timeout=10) as http:
        html = http.get(page).text
        total = len(html.encode()) + len(http.get("/api/state").content)  # the live stream's first snapshot
        fetched: set[str] = set()
        todo = [m for groups in ASSET.findall(html) for m in groups if m]
        seen: set[str] = set()
        if EXTERNAL.search(html):
            outside.append("/")
        while todo:
            path = todo.pop()
            path = path if path.startswith("/static/") else f"/static/{path}"
            if path in seen:
                continue
            seen.add(path)
            body = http.get(path).text
            total += len(body.encode())
            if EXTERNAL.search(body):
                outside.append(path)
            if path.endswith(".js"):
                todo += [m for groups in ASSET.findall(body) for m in groups if m]
                for api in set(FETCH.findall(body)) - fetched:
                    fetched.add(api)
                    total += len(http.get(api).content)
    return total, outside


async def _listener(port: int, marks: dict[str, list[float]], ready: asyncio.Event, count: list[int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /api/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    first = True
    heard: set[bytes] = set()
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"data:"):
                if first:
                    first = False
                    count[0] += 1
                    if count[0] == CLIENTS:
                        ready.set()
                    continue
                now = time.perf_counter()
                # Each snapshot carries the recent log, so a round shows up again later: count its first sighting.
                for round_ in set(re.findall(rb"bench round (\d+)", line)) - heard:
                    heard.add(round_)
                    marks.setdefault(round_.decode(), []).append(now)
    finally:
        writer.close()


async def live_latencies(port: int) -> tuple[list[float], int]:
    """Milliseconds from sending an event to each client seeing it; and how many clients missed some event."""
    marks: dict[str, list[float]] = {}
    ready = asyncio.Event()
    count = [0]
    listeners = [asyncio.create_task(_listener(port, marks, ready, count)) for _ in range(CLIENTS)]
    await asyncio.wait_for(ready.wait(), 30)
    sent: dict[str, float] = {}
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
        csrf = {"x-csrf-token": (await http.post("/api/session", json={"pin": PIN})).json()["csrf"]}
        await http.post("/api/actions/new-game", json={"clubs": [{"seat": 1, "name": "Bench United"}]}, headers=csrf)
        await asyncio.sleep(0.5)
        for n in range(EVENTS):
            body = {"seat": 1, "what": "budget", "delta": 1, "reason": f"bench round {n}"}
            sent[str(n)] = time.perf_counter()
            response = await http.post("/api/actions/correction", json=body, headers=csrf)
            response.raise_for_status()
            await asyncio.sleep(0.2)
        await asyncio.sleep(0.5)
    for task in listeners:
        task.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    latencies: list[float] = []
    missed = 0
    for n, at in sent.items():
        seen = marks.get(n, [])
        missed += max(0, CLIENTS - len(seen))
        latencies += [(t - at) * 1000 for t in seen]
    return latencies, missed


def main() -> bool:
    """Print the figures next to their targets; False when one is missed."""
    port = _free_port()
    server = _start_server(port)
    try:
        loads = {path: first_load(f"http://127.0.0.1:{port}", path) for path in PAGES}
        heaviest = max(loads, key=lambda path: loads[path][0])
        size = loads[heaviest][0]
        outside = [f"{path}: {ref}" for path, (_, refs) in loads.items() for ref in refs]
        latencies, missed = asyncio.run(live_latencies(port))
    finally:
        server.terminate()
        server.wait(timeout=10)
    p95 = statistics.quantiles(latencies, n=20)[18] if len(latencies) >= 20 else float("inf")
    ok_load = size < FIRST_LOAD_TARGET and not outside
    ok_live = p95 <= P95_TARGET_MS and missed == 0
    print(f"   first load of the heaviest page ({heaviest}): {size / 1000:.1f} KB, the table view "
          f"{loads['/'][0] / 1000:.1f} KB (target < {FIRST_LOAD_TARGET / 1000:.0f} KB), "
          f"outside resources: {outside or 'none'}")
    print(f"   live updates to {CLIENTS} clients x {EVENTS} events: p50 {statistics.median(latencies):.1f} ms, "
          f"p95 {p95:.1f} ms, max {max(latencies):.1f} ms (target p95 <= {P95_TARGET_MS:.0f} ms); missed {missed}")
    return ok_load and ok_live


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
