"""``touchline demo`` on the simulated table: a recorded game plays by itself on the screens, the virtual table and
the TV, in a loop, and the first press a person makes on the virtual table stops it and offers a new game.

The real ``touchline demo --sim`` runs in its own process; the TV is checked in headless Chromium while it plays.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

from device import demo
from device.store import open_store

from .test_browser import Visits, browser, shoot  # noqa: F401  (browser is a fixture)
from .test_tv import check_slide

pytestmark = pytest.mark.browser

TOUCHLINE = Path(sys.executable).parent / "touchline"
SCENARIOS = Path(__file__).parents[2] / "scenarios"
LISTENING = re.compile(r"the page is on (http://\S+?)/? \(PIN (\S+)\)")


def short_game(folder: Path) -> Path:
    """The setup and first Board meeting of full-week.toml, as a scenario of its own (a loop takes seconds)."""
    text = (SCENARIOS / "full-week.toml").read_text(encoding="utf-8")
    head = text[: text.index("# The reroll windows close")]
    path = folder / "short.toml"
    path.write_text(head.replace('title = "A whole week of a four-club game"', 'title = "A short demo"'), encoding="utf-8")
    return path


class Demo:
    """``touchline demo --sim`` in its own process, fast: its address, PIN and the log it writes."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.db = folder / "demo.db"
        command = [str(TOUCHLINE), "demo", "--sim", "--host", "127.0.0.1", "--port", str(port), "--db", str(self.db),
                   "--scenario", str(short_game(folder)), "--step-seconds", "0.05", "--pause-seconds", "0.5"]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert self.process.stdout is not None
        said: list[str] = []
        for line in iter(self.process.stdout.readline, ""):
            said.append(line)
            found = LISTENING.search(line)
            if found:
                self.url, self.pin = found.group(1).rstrip("/"), found.group(2)
                return
        raise AssertionError("touchline demo did not say where its page is:\n" + "".join(said))

    def state(self) -> dict[str, Any]:
        return httpx.get(self.url + "/api/state", timeout=10).json()

    def until(self, what: str, test: Any, seconds: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            state = self.state()
            if test(state):
                return state
            time.sleep(0.1)
        raise AssertionError(f"the demo never reached: {what}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def playing(tmp_path: Path) -> Iterator[Demo]:
    running = Demo(tmp_path)
    yield running
    running.stop()


def test_the_demo_plays_in_a_loop_until_a_press_on_the_virtual_table_offers_a_new_game(
        browser: Browser, playing: Demo) -> None:
    first = playing.until("the recorded game playing", lambda s: s.get("game") and s["game"]["events"] > 5)
    assert first["demo"]["playing"] is True
    playing.until("the game played again", lambda s: (s.get("game_id") or 0) > first["game_id"])  # a loop

    visits = Visits(browser, viewport={"width": 1920, "height": 1080})
    tv = visits.page(playing.url + "/tv")
    errors: list[str] = []
    tv.on("pageerror", lambda error: errors.append(str(error)))
    expect(tv.locator("#tvdemo")).to_have_text(demo.DEMO_BANNER)
    check_slide(tv, (1920, 1080), "the TV while the demo plays")
    shoot(tv, "demo-tv-playing")

    table = visits.page(playing.url + "/sim")
    table.fill("input[aria-label=PIN]", playing.pin)
    table.click("form.unlock button[type=submit]")
    before = playing.state()["game"]["events"]
    table.locator('.simseat[data-seat="1"] button.press').first.click()
    stopped = playing.until("the demo stopped", lambda s: s["demo"]["playing"] is False and s["game"] is None)
    assert stopped["demo"]["stopped_by"]
    for screen in stopped["screens"].values():
        assert screen["lines"][-2:] == [demo.DEMO_STOPPED, demo.DEMO_STOPPED_DETAIL]
    time.sleep(0.5)
    assert playing.state()["game"] is None  # nothing plays on by itself
    expect(tv.locator("#tv h1")).to_have_text(demo.DEMO_STOPPED)
    expect(tv.locator("#tvdemo")).to_have_count(0)
    shoot(tv, "demo-tv-handed-over")
    assert errors == []
    visits.context.close()

    store = open_store(playing.db)
    try:
        games = store.games()
    finally:
        store.close()
    assert before > 0
    assert games[-1].status == "abandoned"  # the demo's game is set aside, kept in the log
