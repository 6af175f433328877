"""``touchline demo`` on the simulated table: a recorded game plays by itself on the screens, the virtual table and
the TV, in a loop, and the first press a person makes on the virtual table stops it and offers a new game.

The real ``touchline demo --sim`` runs in its own process; the TV is checked in headless Chromium while it plays.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from device import demo
from device.store import open_store
from tests.device.test_demo_hand_over import short_game

from .test_browser import Visits, browser, shoot  # noqa: F401  (browser is a fixture)
from .test_touchline_run import Running
from .test_tv import check_slide

pytestmark = pytest.mark.browser

class Demo(Running):
    """``touchline demo --sim`` in its own process, fast: its address, PIN, the game log it writes and what it says
    (shown when a wait fails)."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder / "demo.db", ("demo", "--sim", "--scenario", str(short_game(folder)),
                                              "--step-seconds", "0.05", "--pause-seconds", "0.5"))


@pytest.fixture
def playing(tmp_path: Path) -> Iterator[Demo]:
    running = Demo(tmp_path)
    yield running
    running.stop()


def test_the_demo_plays_in_a_loop_until_a_press_on_the_virtual_table_offers_a_new_game(
        browser: Browser, playing: Demo) -> None:
    first = playing.wait_for("the recorded game playing", lambda s: s.get("game") and s["game"]["events"] > 5,
                             seconds=60)
    assert first["demo"]["playing"] is True
    playing.wait_for("the game played again", lambda s: (s.get("game_id") or 0) > first["game_id"],
                     seconds=60)  # a loop

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
    # The page is unlocked once the table has answered (a busy table answers late): a press before is refused.
    expect(table.locator("form.unlock")).to_have_count(0)
    before = playing.state()["game"]["events"]
    table.locator('.simseat[data-seat="1"] button.press').first.click()
    try:
        stopped = playing.wait_for("the demo stopped", lambda s: s["demo"]["playing"] is False and s["game"] is None,
                                   seconds=60)
    except AssertionError as failure:  # a refused press says why on the virtual table
        raise AssertionError(f"{failure}\nthe virtual table says: {table.locator('#sim-msg').text_content()!r}") from None
    assert stopped["demo"]["stopped_by"], playing.where()
    for screen in stopped["screens"].values():
        assert screen["lines"][-2:] == [demo.DEMO_STOPPED, demo.DEMO_STOPPED_DETAIL], playing.where()
    time.sleep(0.5)
    assert playing.state()["game"] is None, playing.where()  # nothing plays on by itself
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
    assert games[-1].status == "abandoned", playing.where()  # the demo's game is set aside, kept in the log
