"""The log page ("What happened") in headless Chromium: the whole game, week by week, after a restart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from .conftest import TWO_CLUBS, Served, open_table, play_until
from .test_browser import Visits, api_session, browser, shoot  # noqa: F401  (browser is a fixture)

pytestmark = pytest.mark.browser


def test_the_log_shows_the_whole_game_week_by_week_with_what_was_undone_after_a_restart(
        browser: Browser, tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    table = open_table(db, stepped=False)
    with Served(table) as served:
        http, csrf = api_session(served)
        assert http.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf).status_code == 200
        play_until(http, csrf, "matchday")
        play_until(http, csrf, "monday", lineups=True)  # Matchday, the End of the round, and into week 2
        correction = {"seat": 2, "what": "budget", "delta": 1, "reason": "found a coin under the table"}
        assert http.post("/api/actions/correction", json=correction, headers=csrf).status_code == 200
        assert http.post("/api/actions/undo", headers=csrf).status_code == 200
        http.close()
    table.session.store.close()

    table = open_table(db, stepped=False)  # the table is started again
    with Served(table) as served:
        visits = Visits(browser, viewport={"width": 1024, "height": 1400})
        page = visits.page(served.url + "/log")
        expect(page.locator(".week h3").first).to_have_text("Week 2")
        undone = page.locator(".entry.undone")
        expect(undone).to_have_count(1)
        expect(undone).to_contain_text("found a coin under the table")
        expect(page.locator('.entry[data-kind="undo"]')).to_contain_text("Undone: Riverside Town: budget +1")
        earlier = page.locator("#earlier")
        while earlier.is_visible():  # older lines a page at a time, back to the setup
            shown = page.locator(".entry").count()
            earlier.click()
            expect(page.locator(".entry")).not_to_have_count(shown)
        expect(page.locator(".week h3")).to_have_text(["Week 2", "Week 1", "Setup"])
        # The last Opponent die, the End of the round and Maintenance belong to week 1, not to the next week.
        week_1 = page.locator('.week[data-week="1"]')
        for kind in ("opponent_die", "end_of_round", "maintenance"):
            expect(week_1.locator(f'.entry[data-kind="{kind}"]').first).to_be_visible()
        expect(page.locator('.week[data-week="2"] .entry[data-kind="end_of_round"]')).to_have_count(0)
        # Clubs, cards and dice by their names: never a seat number for a club, never an id.
        text = page.locator("#log").inner_text()
        assert not re.search(r"(?<!takes )\bSeat \d", text), text
        assert not re.search(r"\b(opp|dir|vet|yg|pl|st|obj|tac|bm|sp)_\w+", text), text
        assert "Middleham Local Club" in text and "Riverside Town" in text
        shoot(page, "log-whole-game-after-restart")
        assert visits.outside(served.url) == []
        visits.context.close()
    table.session.store.close()
