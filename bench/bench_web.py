"""The page on the real table: live updates to many open pages, and a light first load.

The server is ``touchline run --sim`` in its own process, as ``make run`` starts it (the simulated drivers' threads,
the event log in SQLite, the page served by uvicorn). The pages are raw loopback sockets reading ``/api/live`` in
this process; a change is a correction posted through the page's API, and a page has it when the snapshot carrying
its reason arrives.

Targets (issue 10): with 100 live pages every page has a change within 30 ms (95th percentile), with 500 pages within
100 ms; the server's CPU time per change grows by no more than 0.05 ms per extra page (from 100 to 500 pages).
Issue 5: every page's first load (HTML, scripts, styles, the API answers its scripts fetch, the first snapshot) is
under 200 KB with nothing from outside the table.
"""

from __future__ import annotations

import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.bench_device import cpu_seconds, free_port, running_table, unlock
from web.routers.pages import PAGES

FEW, MANY = 100, 500
CHANGES = 30
P95_FEW_MS, P95_MANY_MS = 30.0, 100.0
CPU_PER_PAGE_MS = 0.05
IDLE_SECONDS = 2.0
FIRST_LOAD_TARGET = 200_000
EXTERNAL = re.compile(r"""(?:src|href|url)\s*[=(]\s*["']?\s*(?:https?:)?//""", re.IGNORECASE)
ASSET = re.compile(r"""(?:src|href)="(/static/[^"]+)"|from\s+"\./([^"]+)"|import\s+"\./([^"]+)\"""")
FETCH = re.compile(r"""fetch\(["'](/api/[a-z/]+)["']""")
MARK = re.compile(rb"bench change (\d+)")


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


class Pages:
    """Open live pages: raw sockets reading the event stream, noting when each change first reaches each page."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.heard: dict[int, list[float]] = {}
        self.open = 0
        self._tasks: list[asyncio.Task[None]] = []
        self._ready = asyncio.Event()
        self._wanted = 0

    async def open_more(self, count: int) -> None:
        """Open ``count`` more pages and wait until each has its first snapshot."""
        self._wanted += count
        self._ready.clear()
        self._tasks += [asyncio.create_task(self._page()) for _ in range(count)]
        await asyncio.wait_for(self._ready.wait(), 60)

    async def _page(self) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 22)
        writer.write(f"GET /api/live HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nAccept: text/event-stream\r\n\r\n".encode())
        first, seen = True, set()
        try:
            while True:
                line = await reader.readline()
                if not line:
                    return
                if not line.startswith(b"data:"):
                    continue
                if first:
                    first = False
                    self.open += 1
                    if self.open >= self._wanted:
                        self._ready.set()
                    continue
                now = time.perf_counter()
                # A snapshot carries the recent log, so a change shows up again later: count its first sighting.
                for mark in set(MARK.findall(line)) - seen:
                    seen.add(mark)
                    self.heard.setdefault(int(mark), []).append(now)
        finally:
            writer.close()

    async def close(self) -> None:
        """Close every page."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


async def _idle_rate(pid: int, seconds: float = IDLE_SECONDS) -> float:
    """The server's CPU seconds per second with the pages open and nothing changing (its drivers' threads polling)."""
    cpu, started = cpu_seconds(pid), time.perf_counter()
    await asyncio.sleep(seconds)
    return (cpu_seconds(pid) - cpu) / (time.perf_counter() - started)


async def _changes(http: httpx.AsyncClient, pages: Pages, first: int, pid: int) -> tuple[list[float], int, float]:
    """Post ``CHANGES`` corrections one by one; the latencies to every page, the pages missed, and the server's CPU
    ms per change beyond what it spends idle meanwhile (on a busy machine a change takes longer to reach every page,
    and the idle polling of that longer wait is no work of the change)."""
    sent: dict[int, float] = {}
    idle = await _idle_rate(pid)
    cpu, started = cpu_seconds(pid), time.perf_counter()
    for n in range(first, first + CHANGES):
        sent[n] = time.perf_counter()
        body = {"seat": 1, "what": "budget", "delta": 1 if n % 2 else -1, "reason": f"bench change {n}"}
        (await http.post("/api/actions/correction", json=body)).raise_for_status()
        deadline = time.perf_counter() + 2.0
        while len(pages.heard.get(n, ())) < pages.open and time.perf_counter() < deadline:
            await asyncio.sleep(0.002)
        await asyncio.sleep(0.05)  # let the table go quiet before the next change
    per_change = (cpu_seconds(pid) - cpu - idle * (time.perf_counter() - started)) * 1000 / CHANGES
    latencies: list[float] = []
    missed = 0
    for n, at in sent.items():
        seen = pages.heard.get(n, [])
        missed += max(0, pages.open - len(seen))
        latencies += [(t - at) * 1000 for t in seen]
    return latencies, missed, per_change


async def live(port: int, pid: int, db: Path) -> dict[int, tuple[list[float], int, float]]:
    """Latencies, misses and server CPU per change with ``FEW``, then ``MANY`` pages open."""
    results: dict[int, tuple[list[float], int, float]] = {}
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as sync:
        unlock(sync, db)
        headers = dict(sync.headers)
        cookies = dict(sync.cookies)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10, headers=headers,
                                 cookies=cookies) as http:
        clubs = [{"seat": n, "name": name} for n, name in ((1, "Bench United"), (2, "Riverside Town"), (3, "Northgate"))]
        (await http.post("/api/actions/new-game", json={"clubs": clubs})).raise_for_status()
        pages = Pages(port)
        try:
            for count in (FEW, MANY):
                await pages.open_more(count - pages.open)
                await asyncio.sleep(0.5)
                results[count] = await _changes(http, pages, count * 1000, pid)
        finally:
            await pages.close()
    return results


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[18] if len(values) >= 20 else float("inf")


def main() -> bool:
    """Print the figures next to their targets; False when one is missed."""
    with tempfile.TemporaryDirectory(prefix="touchline-bench-web-") as tmp:
        db = Path(tmp) / "bench.db"
        port = free_port()
        with running_table(db, port) as (process, _):
            base = f"http://127.0.0.1:{port}"
            loads = {path: first_load(base, path) for path in PAGES}
            results = asyncio.run(live(port, process.pid, db))
    heaviest = max(loads, key=lambda path: loads[path][0])
    size = loads[heaviest][0]
    outside = [f"{path}: {ref}" for path, (_, refs) in loads.items() for ref in refs]
    ok = size < FIRST_LOAD_TARGET and not outside
    print(f"   first load of the heaviest page ({heaviest}): {size / 1000:.1f} KB, the table view "
          f"{loads['/'][0] / 1000:.1f} KB (target < {FIRST_LOAD_TARGET / 1000:.0f} KB), "
          f"outside resources: {outside or 'none'}")
    for count, target in ((FEW, P95_FEW_MS), (MANY, P95_MANY_MS)):
        latencies, missed, cpu = results[count]
        p95 = _p95(latencies)
        ok &= p95 <= target and missed == 0
        print(f"   {count} live pages x {CHANGES} changes: p50 {statistics.median(latencies):.1f} ms, p95 {p95:.1f} ms "
              f"(target <= {target:.0f} ms), max {max(latencies):.1f} ms; pages that missed a change: {missed} "
              f"(target 0); server CPU {cpu:.2f} ms per change (beyond idle)")
    slope = (results[MANY][2] - results[FEW][2]) / (MANY - FEW)
    ok &= slope <= CPU_PER_PAGE_MS
    print(f"   server CPU per change grows by {slope:.4f} ms per extra page from {FEW} to {MANY} pages "
          f"(target <= {CPU_PER_PAGE_MS} ms); load average while measured: {os.getloadavg()[0]:.2f} on "
          f"{os.cpu_count()} cores")
    return ok


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
