"""The served table holds only what it uses of its libraries, and any other code still gets the whole libraries."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import httpx
import pytest

from device import serve

from .conftest import TWO_CLUBS, Served, served, unlock  # noqa: F401  (served is a fixture)

ROOT = Path(__file__).resolve().parents[2]


def test_the_served_table_answers_without_the_library_parts_it_never_uses_which_other_code_still_gets(tmp_path: Path) -> None:
    # In a process of its own that imports what `touchline run --sim` imports, and nothing else (the tests' HTTP
    # client brings click with it).
    script = textwrap.dedent(f"""
        import asyncio, json, socket, sys, threading, time, urllib.request
        from device.serve import Service, build_table
        from device.table_file import default_sim_table
        table = build_table(default_sim_table(), sim=True, db_path={str(tmp_path / "served.db")!r})
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        service = Service(table, host="127.0.0.1", port=port)
        runner = threading.Thread(target=lambda: asyncio.run(service.run()), daemon=True)
        runner.start()
        deadline = time.monotonic() + 30
        while not service.started and time.monotonic() < deadline:
            time.sleep(0.02)
        page = urllib.request.urlopen(f"http://127.0.0.1:{{port}}/", timeout=10).status
        held = sorted(name for name in ("click", "uvicorn.main", "uvicorn.supervisors", "gpiozero.boards") if name in sys.modules)
        service.stop()
        runner.join(timeout=15)
        table.session.store.close()
        import gpiozero, uvicorn
        from uvicorn import main
        print(json.dumps({{"page": page, "held": held, "run": callable(uvicorn.run), "main": main.name,
                          "board": gpiozero.TrafficLights.__name__}}))
    """)
    answer = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert answer.returncode == 0, answer.stderr[-2000:]
    seen = json.loads(answer.stdout.strip().splitlines()[-1])
    assert seen["page"] == 200
    assert seen["held"] == []  # uvicorn's command line and gpiozero's boards: 2 MB the table never uses
    # Asked for, the whole packages are there.
    assert seen["run"] is True and seen["main"] == "main" and seen["board"] == "TrafficLights"


def test_once_the_table_is_quiet_after_a_change_the_memory_its_work_freed_goes_back_to_the_system(
        served: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    if not serve.give_back():
        pytest.skip("the C library here cannot hand freed memory back (not glibc)")
    monkeypatch.setattr(serve, "QUIET_SECONDS", 0.05)

    def given_back(times: int) -> int:
        deadline = time.monotonic() + 10
        while served.service.given_back < times and time.monotonic() < deadline:
            time.sleep(0.02)
        return served.service.given_back

    assert given_back(1) == 1  # once, as the page began to answer
    with httpx.Client(base_url=served.url, timeout=10) as owner:
        csrf = unlock(owner)
        time.sleep(0.2)
        assert served.service.given_back == 1  # a login changes nothing at the table
        assert owner.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf).status_code == 200
    assert given_back(2) >= 2  # after the new game, once the table was quiet


def test_twenty_phones_asking_at_once_are_all_answered_by_the_few_threads_the_page_keeps(tmp_path: Path) -> None:
    # In a process of its own, so that the threads counted are the served table's.
    script = textwrap.dedent(f"""
        import asyncio, json, socket, threading, time, urllib.request
        from concurrent.futures import ThreadPoolExecutor
        from device import serve
        from device.table_file import default_sim_table
        serve.PAGE_THREADS_AFTER_SECONDS = 0
        table = serve.build_table(default_sim_table(), sim=True, db_path={str(tmp_path / "served.db")!r})
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        service = serve.Service(table, host="127.0.0.1", port=port)
        runner = threading.Thread(target=lambda: asyncio.run(service.run()), daemon=True)
        runner.start()
        deadline = time.monotonic() + 30
        while service.page_threads is None and time.monotonic() < deadline:
            time.sleep(0.02)
        start = threading.Barrier(20)
        def ask(_):
            start.wait()  # twenty phones at once
            with urllib.request.urlopen(f"http://127.0.0.1:{{port}}/api/rules", timeout=30) as answer:
                return answer.status, len(json.load(answer))
        with ThreadPoolExecutor(20) as phones:
            answers = list(phones.map(ask, range(20)))
        workers = sum(thread.name == "AnyIO worker thread" for thread in threading.enumerate())
        service.stop()
        runner.join(timeout=15)
        table.session.store.close()
        print(json.dumps({{"answers": answers, "workers": workers, "limit": service.page_threads}}))
    """)
    answer = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert answer.returncode == 0, answer.stderr[-2000:]
    seen = json.loads(answer.stdout.strip().splitlines()[-1])
    assert seen["limit"] == serve.PAGE_THREADS
    assert len(seen["answers"]) == 20 and all(status == 200 and size > 0 for status, size in seen["answers"])
    assert 1 <= seen["workers"] <= serve.PAGE_THREADS
