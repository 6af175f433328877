"""Choosing rule modules on the Admin page of the real simulated table (``touchline run --sim`` in Chromium): the
page offers what the engine describes, pre-chooses the table file's ``[game]``, shows a refusal in the engine's words,
and the Table page says which rules the game plays."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

import engine
from device.table_file import SIM_TABLE
from tests.e2e.touchline_run import TouchlineRun

from .test_browser import Visits, browser, shoot  # noqa: F401  (browser is a fixture)

pytestmark = pytest.mark.browser


def test_the_admin_page_starts_a_game_with_the_table_files_modules_and_the_table_page_names_them(
        browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    table = tmp_path / "table.toml"
    table.write_text(SIM_TABLE.read_text() + '\n[game]\nmodules = ["division"]\noptions = { division = 2 }\n')
    with TouchlineRun(tmp_path / "t.db", table=table) as running:
        visits = Visits(browser, viewport={"width": 1366, "height": 900})
        page = visits.page(running.url + "/admin")
        page.fill("#pin", running.pin)
        page.click("#login button[type=submit]")
        module = page.locator('#modules .module[data-module="division"]')
        expect(module.locator("input[name=module]")).to_be_checked()
        described = next(m for m in engine.modules(engine.load_profile()) if m["name"] == "division")
        expect(module).to_contain_text(described["doc"])
        division = module.locator('select[data-option="division"]')
        expect(division).to_have_value("2")
        assert division.locator("option").all_inner_texts() == ["3 (default)", "3", "2", "1"]
        # the game's length is an option of every game
        page.select_option('#modules .game-options select[data-option="weeks"]', "3")
        expect(page.locator("#newgame-start")).to_be_enabled()
        page.click("#newgame-start")
        expect(page.locator("#newgame-msg")).to_contain_text("The game has started")
        shoot(page, "admin-modules")
        state = httpx.get(running.url + "/api/state", timeout=10).json()
        assert state["game"]["game"] == {"pack": "eleven", "modules": ["division"], "titles": ["Division"],
                                         "options": {"division": 2, "weeks": 3}, "revision": engine.REVISION,
                                         "text": "Eleven with Division; Division 2, Weeks 3."}
        tv = visits.page(running.url + "/")
        expect(tv.locator("#game-rules")).to_have_text("Eleven with Division; Division 2, Weeks 3.")
        shoot(tv, "table-modules")
        visits.context.close()


def test_a_choice_the_engine_refuses_is_shown_in_its_words_and_nothing_starts(browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    with TouchlineRun(tmp_path / "t.db") as running, httpx.Client(base_url=running.url, timeout=10) as http:
        csrf = running.unlock(http)
        answer = http.post("/api/actions/new-game", headers=csrf, json={
            "clubs": [{"seat": 1, "name": "Reds"}], "modules": ["division"], "options": {"division": 7}})
        assert answer.status_code in (400, 409), answer.text
        assert answer.json()["detail"] == engine.game_problem(["division"], {"division": 7}, engine.load_profile())
        assert http.get("/api/state").json()["game"] is None
