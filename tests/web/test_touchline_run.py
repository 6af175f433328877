"""The README's run command in a real headless Chromium: ``touchline run --sim`` and nothing but its page.

This is the newcomer's path on the simulated table in its own process, as the README starts it: start a game on the page,
hold a Board meeting from the virtual pad and button, watch the OLED frame and the table view change without a
reload, then take a Tuesday action from the page's steps.
"""

from __future__ import annotations

import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

from .test_browser import Visits, browser, screen_version_shown, shoot  # noqa: F401  (browser is a fixture)

pytestmark = pytest.mark.browser

TOUCHLINE = Path(sys.executable).parent / "touchline"
STARTED = re.compile(r"the page is on (http://\S+?)/? \(PIN (\S+)\)")
LOG_LINES = 200
"""How much of the table's log a failure's message shows (its end)."""


class Running:
    """``touchline run --sim`` (or another ``command`` that serves the page) in its own process; its address, the
    PIN it printed, and everything it says on stdout and stderr (its log), kept for a failure's message."""

    def __init__(self, db: Path, command: Sequence[str] = ("run", "--sim")) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.db = db
        self.process = subprocess.Popen([str(TOUCHLINE), *command, "--host", "127.0.0.1", "--port", str(port),
                                         "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.url, self.pin = "", ""
        self._said: list[str] = []
        # Read on a thread of its own for as long as the process lives: a pipe nobody reads would fill and stall it.
        self._reader = threading.Thread(target=self._read, name="touchline-log", daemon=True)
        self._reader.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.process.poll() is None:
            found = STARTED.search(self.said())
            if found:
                self.url, self.pin = found.group(1).rstrip("/"), found.group(2)
                return
            time.sleep(0.05)
        self.stop()
        raise AssertionError(f"touchline {command[0]} did not say where its page is:\n" + self.said())

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._said.append(line)

    def said(self) -> str:
        """Everything the process has said so far (all of it once it has ended)."""
        if self.process.poll() is not None:
            self._reader.join(timeout=10)
        return "".join(self._said)

    def state(self) -> dict[str, Any]:
        """The page's JSON state."""
        return httpx.get(self.url + "/api/state", timeout=10).json()

    def wait_for(self, what: str, test: Any, seconds: float = 20) -> dict[str, Any]:
        """Poll the state until ``test(state)`` holds (the table keeps a roll by itself once its reroll window ends)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            state = self.state()
            if test(state):
                return state
            time.sleep(0.2)
        raise AssertionError(f"the table never reached: {what}; {self.where()}")

    def where(self) -> str:
        """Where the table is now and the end of what it said: a failure explains itself."""
        try:
            state = self.state()
        except (httpx.HTTPError, ValueError) as exc:
            now = f"its state could not be read ({exc!r})"
        else:
            game = state.get("game") or {}
            now = (f"it waits for {game.get('awaiting')} (game {state.get('game_id')}, {game.get('stage')}, "
                   f"{game.get('events')} events); demo: {state.get('demo')}")
        code = self.process.poll()
        running = "still running" if code is None else f"ended with exit code {code}"
        lines = self.said().splitlines()[-LOG_LINES:]
        return "\n".join([now, f"the end of its log (it is {running}):", *lines])

    def stop(self) -> None:
        """Stop the table (SIGTERM, as systemd would)."""
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._reader.join(timeout=10)


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Running]:
    """The simulated table as the README starts it, with a fresh game log."""
    if not TOUCHLINE.exists():
        pytest.fail(f"{TOUCHLINE} is missing: run `make venv` to install the project.")
    table = Running(tmp_path / "touchline.db")
    yield table
    table.stop()


def _club(state: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(c for c in state["game"]["clubs"] if c["seat"] == seat)


def test_a_newcomer_plays_monday_and_a_tuesday_step_on_touchline_run_sim(browser: Browser, running: Running) -> None:
    visits = Visits(browser, viewport={"width": 1280, "height": 900})
    table_view = visits.page(running.url + "/")
    expect(table_view.locator("#when")).to_have_text("No game is running.")
    page = visits.context.new_page()
    page.goto(running.url + "/admin")
    page.fill("#pin", running.pin)
    page.click("#login button[type=submit]")
    expect(page.locator("#unlocked")).to_be_visible()
    page.click("#newgame button[type=submit]")
    expect(page.locator("#newgame-msg")).to_contain_text("The game has started")
    expect(table_view.locator("article.club")).to_have_count(2)

    page.goto(running.url + "/sim")
    # The table file has four seats and a shared Opponent slot; the two clubs playing and the shared slot are shown.
    expect(page.locator(".simseat")).to_have_count(3)
    boards = [c["id"] for c in httpx.get(running.url + "/api/deck", params={"kind": "board_meeting"}).json()]
    for seat, card in ((1, boards[0]), (2, boards[1])):
        box = page.locator(f'.simseat[data-seat="{seat}"]')
        before = screen_version_shown(page, seat)
        box.locator("input.cardpick").first.fill(card)
        box.locator("button.place").first.click()
        running.wait_for(f"seat {seat}'s Board meeting card", lambda s: _club(s, seat)["board_card"] == card)
        screen_version_shown(page, seat, newer_than=before)
        for _ in range(30):  # a tie between the Directors is rolled again
            state = running.state()
            wait = next((w for w in state["game"]["awaiting"] if w["seat"] == seat), None)
            if wait is None or state["game"]["stage"] != "monday":
                break
            # Press to roll; hold to keep at once (else the table keeps it when the reroll window closes).
            box.locator("button.hold" if wait["need"] == "keep_or_reroll" else "button.press").first.click()
            running.wait_for("the press taken", lambda s, n=state["game"]["events"]: s["game"]["events"] > n)
        else:
            raise AssertionError(f"seat {seat}'s Board meeting was never decided")
    shoot(page, "touchline-run-sim-after-board-meetings")
    state = running.wait_for("Tuesday", lambda s: s["game"]["stage"] == "tuesday")
    expect(table_view.locator("#when")).to_contain_text("Tuesday")  # the table view, never reloaded

    seat = state["game"]["turn"]
    ask = page.locator(f'#asks .ask[data-seat="{seat}"][data-need="action"]')
    expect(ask).to_be_visible()
    ask.locator(".choice:not(.off)[data-type=potential] button").first.click()
    expect(page.locator("#asks-msg")).to_contain_text("Done: Raise")
    running.wait_for("the Club potential roll asked for",
                     lambda s: any(w.get("purpose") == "potential" for w in s["game"]["awaiting"]))
    page.locator(f'.simseat[data-seat="{seat}"] button.press').first.click()
    running.wait_for("the Club potential roll made", lambda s: any(
        e["kind"] == "potential_result" for e in s["log"]), seconds=30)
    expect(table_view.locator("#recent")).to_contain_text("rolled")
    shoot(table_view, "touchline-run-sim-table-view")
    assert visits.outside(running.url) == []
    visits.context.close()


def _stalled_page(url: str) -> socket.socket:
    """A page that asks for the live stream and then never reads it (a phone that froze), with a small buffer."""
    host, port = url.removeprefix("http://").split(":")
    page = socket.socket()
    page.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    page.connect((host, int(port)))
    page.sendall(f"GET /api/live HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
    return page


def _hang_up(page: socket.socket) -> None:
    """Drop the connection at once, as a phone leaving the Wi-Fi does (a reset, not a goodbye)."""
    page.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    page.close()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_one_stop_signal_ends_the_table_cleanly_with_pages_open_stalled_or_gone(
        running: Running, stop: signal.Signals) -> None:
    stalled = [_stalled_page(running.url) for _ in range(10)]
    with httpx.Client(base_url=running.url, timeout=10) as http:
        token = http.post("/api/session", json={"pin": running.pin}).json()["csrf"]
        headers = {"x-csrf-token": token}
        clubs = [{"seat": n, "name": name} for n, name in ((1, "Reds"), (2, "Blues"), (3, "Greens"))]
        assert http.post("/api/actions/new-game", json={"clubs": clubs}, headers=headers).status_code == 200
        for n in range(250):  # more snapshots than the stalled pages' connections can hold: the table waits on them
            body = {"seat": 1, "what": "budget", "delta": 1 if n % 2 else -1, "reason": f"stall {n}: " + "a long reason " * 13}
            assert http.post("/api/actions/correction", json=body, headers=headers).status_code == 200
        for page in stalled[:5]:  # half of them leave the Wi-Fi
            _hang_up(page)
        for n in range(5):  # the table writes to them again and finds them gone
            body = {"seat": 1, "what": "budget", "delta": 1 if n % 2 else -1, "reason": f"gone {n}"}
            assert http.post("/api/actions/correction", json=body, headers=headers).status_code == 200
        with http.stream("GET", "/api/live") as open_page:  # and a page that reads, open when the owner stops
            next(open_page.iter_lines())
            started = time.monotonic()
            running.process.send_signal(stop)
            code = running.process.wait(timeout=15)  # one signal, with five frozen phones still connected
    assert code == 0 and time.monotonic() - started < 4  # not held up by the frozen phones
    for page in stalled[5:]:
        page.close()
    said = running.said()
    assert "Traceback" not in said and "Exception" not in said and "ERROR" not in said, said
