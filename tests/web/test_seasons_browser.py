"""The Seasons page in headless Chromium: the owner makes a season of played games, anyone reads its standings, and
each game's final scoring is one click away."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from device import errors as device_errors
from device.seasons import NOT_OVER
from device.store import open_store
from tests.season_logs import evenings

from .conftest import PIN, Served, open_table
from .test_browser import Visits, api_session, browser, shoot  # noqa: F401  (browser is a fixture)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def league_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three whole games played by the engine, then a fourth just begun (game 4)."""
    return evenings(tmp_path_factory.mktemp("league"), begun=True)[0]


def test_the_owner_groups_games_into_a_season_and_anyone_reads_the_standings(
        browser: Browser, league_log: Path, tmp_path: Path) -> None:
    db = tmp_path / "touchline.db"
    shutil.copy(league_log, db)
    table = open_table(db, stepped=False)
    with Served(table) as served:
        owner = Visits(browser, viewport={"width": 1100, "height": 900})
        page = owner.page(served.url + "/seasons")
        expect(page.locator("#no-season")).to_contain_text("No season yet")
        expect(page.locator("#new-season")).to_have_count(0)  # nothing to change before the PIN
        page.get_by_label("PIN").fill(PIN)
        page.get_by_role("button", name="Unlock").click()

        page.fill("#new-season-name", "autumn league")
        page.click("#new-season button[type=submit]")
        expect(page.locator("#season-msg")).to_contain_text("Season autumn league made")
        page.fill("#new-season-name", "Autumn League")  # the same name in other letters: refused, with why
        page.click("#new-season button[type=submit]")
        expect(page.locator("#season-msg")).to_have_text(device_errors.SEASON_NAME_TAKEN.format(name="autumn league"))
        expect(page.locator(".tab")).to_have_count(1)

        page.select_option("#add-games", ["1", "2", "3", "4"])
        page.click("#add-form button[type=submit]")
        expect(page.locator("#standings tbody tr")).to_have_count(4)
        expect(page.locator("#standings thead th.game")).to_have_text(["Game 1", "Game 2", "Game 3"])
        expect(page.locator("#season-games li")).to_have_count(4)
        expect(page.locator('#season-games li[data-game="4"]')).to_contain_text(NOT_OVER)
        expect(page.locator('#season-games li[data-game="1"]')).to_contain_text("Winner: Club 1")
        # The table's numbers: Club 4 sat out the betting game (three clubs) and won the modules game.
        club4 = page.locator("#standings tbody tr", has_text="Club 4")
        expect(club4.locator("td").nth(1)).to_have_text("2")
        expect(club4.locator("td.place").nth(1)).to_have_text("–")
        expect(club4.locator("td.place").nth(2)).to_contain_text("1st")
        shoot(page, "seasons-owner-standings")

        page.locator("#standings thead th.game a", has_text="Game 1").click()
        expect(page).to_have_url(served.url + "/final?game=1")
        expect(page.locator("#winner")).to_have_text("Winner: Club 1")
        expect(page.locator("#kept-game")).to_contain_text("Season: autumn league")
        shoot(page, "seasons-game-final-scoring")
        page.locator("#kept-game a").click()
        expect(page.locator("#standings tbody tr")).to_have_count(4)

        page.locator('#season-games li[data-game="2"] button.remove').click()
        expect(page.locator("#season-games li")).to_have_count(3)
        expect(club4.locator("td").nth(1)).to_have_text("2")  # it played both games left
        expect(page.locator("#standings thead th.game")).to_have_text(["Game 1", "Game 3"])
        expect(page.locator("#add-games option")).to_have_text([re.compile(r"^Game 2 · finished · .* · Club 1, Club 2, Club 3$")])

        # Anyone else, on a phone: the standings and the links, none of the owner's buttons.
        phone = Visits(browser, viewport={"width": 390, "height": 844}, is_mobile=True)
        public = phone.page(served.url + "/seasons")
        expect(public.locator("#standings tbody tr")).to_have_count(4)
        expect(public.locator("#new-season, #add-form, button.remove, #delete-season")).to_have_count(0)
        expect(public.locator(".exports a")).to_have_text(["CSV", "JSON"])
        csv_link = public.locator(".exports a", has_text="CSV").get_attribute("href")
        assert csv_link is not None
        assert public.request.get(served.url + csv_link).text().startswith("position,club,played,vp,wins")
        shoot(public, "seasons-public-phone")
        # Forgetting the season asks once more, and keeps its games.
        page.click("#delete-season")
        expect(page.locator("#delete-season")).to_have_text("Really forget autumn league? (its games are kept)")
        page.click("#delete-season")
        expect(page.locator("#no-season")).to_be_visible()
        expect(page.locator("#season-msg")).to_have_text("Season autumn league forgotten; its games are kept.")
        assert len(table.session.store.games()) == 4 and table.session.store.seasons() == []
        assert owner.outside(served.url) == [] and phone.outside(served.url) == []
        owner.context.close()
        phone.context.close()
    table.session.store.close()


def test_the_standings_follow_a_game_whose_end_is_undone_and_played_again(browser: Browser, tmp_path: Path) -> None:
    db, _ = evenings(tmp_path)  # three finished games: the table shows the last one's final scoring
    with open_store(db) as store:
        store.add_to_season(store.new_season("Autumn league").id, [1, 2, 3])
        last = store.events(3)[-1]
    table = open_table(db, stepped=False)
    with Served(table) as served:
        visits = Visits(browser, viewport={"width": 1100, "height": 800})
        page = visits.page(served.url + "/seasons")
        expect(page.locator("#standings thead th.game")).to_have_text(["Game 1", "Game 2", "Game 3"])
        http, csrf = api_session(served)
        assert http.post("/api/actions/undo", headers=csrf).status_code == 200  # the game's last die taken back
        expect(page.locator('#season-games li[data-game="3"]')).to_contain_text(NOT_OVER)
        expect(page.locator("#standings thead th.game")).to_have_text(["Game 1", "Game 2"])
        assert http.post("/api/actions/event", json=last, headers=csrf).status_code == 200  # and rolled again
        expect(page.locator("#standings thead th.game")).to_have_text(["Game 1", "Game 2", "Game 3"])
        expect(page.locator('#season-games li[data-game="3"]')).to_contain_text("Winner: Club 4")
        http.close()
        visits.context.close()
    table.session.store.close()
