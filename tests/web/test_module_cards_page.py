"""Market transfer cards, Unique Setup cards and the new Stadium Infrastructure on the real simulated table
(``touchline run --sim`` in Chromium): the Play page offers the steps the table cannot sense (which Transfer card lies
on top, each club's two Unique Setup cards, a build on a seat's own Stadium board) as the engine words them, and the
Table page shows the Market deck, the new tokens and each club's cards."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

import engine
from device.table_file import SIM_TABLE

from tests.e2e.touchline_run import TouchlineRun

from .conftest import play_until
from .test_browser import Visits, browser, shoot  # noqa: F401  (browser is a fixture)

pytestmark = pytest.mark.browser

MODULES = ["market", "unique_setup", "new_infrastructure"]


def _state(running: TouchlineRun) -> dict[str, Any]:
    return httpx.get(running.url + "/api/state", timeout=10).json()["game"]


def admin_unlocked(browser: Browser, running: TouchlineRun) -> tuple[Visits, Any]:
    """A wide browser on the Admin page, unlocked with the table's PIN (New game is there)."""
    visits = Visits(browser, viewport={"width": 1366, "height": 900})
    page = visits.page(running.url + "/admin")
    page.fill("#pin", running.pin)
    page.click("#login button[type=submit]")
    expect(page.locator("#unlocked")).to_be_visible()
    return visits, page


def test_the_play_page_lays_the_market_deck_and_each_clubs_unique_setup_cards(browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    table_file = tmp_path / "table.toml"  # the owner's default game: the three modules
    table_file.write_text(SIM_TABLE.read_text() + f"\n[game]\nmodules = {json.dumps(MODULES)}\n")
    with TouchlineRun(tmp_path / "t.db", table=table_file) as running, httpx.Client(base_url=running.url, timeout=10) as http:
        csrf = running.unlock(http)
        visits, page = admin_unlocked(browser, running)
        described = {m["name"]: m for m in engine.modules(engine.load_profile())}
        for name in MODULES:  # New game offers each module as the engine describes it, the table file's chosen
            module = page.locator(f'#modules .module[data-module="{name}"]')
            expect(module.locator("input[name=module]")).to_be_checked()
            expect(module).to_contain_text(described[name]["doc"])
        page.locator("#modules").scroll_into_view_if_needed()
        shoot(page, "admin-module-cards")
        page.click("#newgame-start")
        expect(page.locator("#newgame-msg")).to_contain_text("The game has started")
        game = _state(running)
        assert sorted(game["game"]["modules"]) == sorted(MODULES)
        assert game["stage"] == "setup"  # dealt and the First player named: the modules' cards are still to come
        assert {w["need"] for w in game["awaiting"]} == {"market_top", "unique_setup"}

        page.goto(running.url + "/play")
        top = page.locator('.ask[data-need="market_top"]')
        expect(top).to_contain_text("The Market deck: which Transfer card is on top?")
        shoot(page, "play-module-setup")
        top.get_by_role("button", name="3. Strikers wanted").click()
        expect(page.locator('.ask[data-need="market_top"]')).to_have_count(0)
        seat1 = page.locator('.ask[data-need="unique_setup"][data-seat="1"]')
        seat1.locator('select[data-name="green"]').select_option("us_1")
        seat1.locator('select[data-name="red"]').select_option("us_8")
        seat1.get_by_role("button", name="Place these").click()
        expect(page.locator('.ask[data-need="unique_setup"][data-seat="1"]')).to_have_count(0)
        seat2 = page.locator('.ask[data-need="unique_setup"][data-seat="2"]')
        # the cards on seat 1's boards are no longer offered
        assert "us_1" not in seat2.locator('select[data-name="green"] option').evaluate_all("os => os.map(o => o.value)")
        seat2.locator('select[data-name="green"]').select_option("us_4")
        seat2.locator('select[data-name="red"]').select_option("us_2")
        seat2.get_by_role("button", name="Place these").click()
        expect(page.locator("#asks")).to_be_hidden()

        game = _state(running)
        assert (game["stage"], game["week"]) == ("monday", 1)
        assert game["modules"]["market"]["top"] == "tr_3"
        table = visits.page(running.url + "/")
        expect(table.locator('.module-panel[data-module="market"]')).to_contain_text(
            "On top: Transfer card 3 (Strikers wanted): Forwards: +3 €; Midfielders: +1 €")
        expect(table.locator('.module-panel[data-module="new_infrastructure"]')).to_contain_text("Youth Academy (4 €, 2 VP)")
        seat1 = table.locator('.club[data-seat="1"]')
        expect(seat1).to_contain_text("Family stand (green): Stands #2 takes 2 Fanbase")
        expect(seat1).to_contain_text("Boardroom politics (red): Office track: 4 € / 2 VP")
        shoot(table, "table-module-cards")

        # the Play page builds on the seat's own Stadium board, new tokens included, saying what each does
        play_until(http, csrf, "tuesday")
        page.goto(running.url + "/play")
        build = page.locator('.ask[data-need="action"] .choice[data-group="build"]')
        expect(build.filter(has_text="Build Youth Academy (4 €, 2 VP) — Production: gain 1 Fitness")).to_have_count(1)
        # Seat 1's red card makes the Office dearer: its first space costs 4 €
        expect(page.locator('.choice[data-group="office"]')).to_contain_text("Move up the Office track to space 1 (4 €)")
        shoot(page, "play-module-build")
        visits.context.close()
