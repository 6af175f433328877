"""The page in a real headless Chromium: a newcomer's first game, the lineup editor on a phone, TV and final scoring."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from .conftest import PIN, TWO_CLUBS, Served, open_table, play_until

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium driven by Playwright (installed by ``make test`` through scripts/ensure-chromium.sh)."""
    if not CHROMIUM.exists():
        pytest.fail("Chromium is missing at /usr/bin/chromium: run scripts/ensure-chromium.sh (make test does).")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield launched
        launched.close()


class Visits:
    """A browser context that records every URL it requests, so tests can prove nothing left the table."""

    def __init__(self, browser: Browser, **options: Any) -> None:
        self.context: BrowserContext = browser.new_context(**options)
        self.context.set_default_timeout(10_000)
        self.urls: list[str] = []
        self.context.on("request", lambda request: self.urls.append(request.url))

    def page(self, url: str) -> Page:
        """Open a new tab on ``url``."""
        page = self.context.new_page()
        page.goto(url)
        return page

    def outside(self, base: str) -> list[str]:
        """URLs requested from anywhere but the table."""
        return [u for u in self.urls if not (u.startswith(base) or u.startswith("data:"))]


def until(check: Any, what: str, seconds: float = 15.0) -> None:
    """Wait for the running table to reach something (it works in its own threads, at its own pace)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited in vain for {what}")
        time.sleep(0.02)


def shoot(page: Page, name: str) -> None:
    """Keep a screenshot as a test artefact."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def unlock(page: Page, base: str) -> None:
    """Enter the PIN on the Admin page, as a person would."""
    page.goto(f"{base}/admin")
    page.fill("#pin", PIN)
    page.click("#login button[type=submit]")
    expect(page.locator("#unlocked")).to_be_visible()


def api_session(served: Served) -> tuple[httpx.Client, dict[str, str]]:
    """An unlocked API client for setting the scene quickly."""
    http = httpx.Client(base_url=served.url, timeout=10)
    token = http.post("/api/session", json={"pin": PIN}).json()["csrf"]
    return http, {"x-csrf-token": token}


def phone_at(browser: Browser, served: Served, stage: str) -> tuple[httpx.Client, dict[str, str], Visits, Page]:
    """A two-club game played on to ``stage``, and an unlocked phone ready to use the page."""
    http, csrf = api_session(served)
    http.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf)
    play_until(http, csrf, stage)
    visits = Visits(browser, **PHONE)
    page = visits.context.new_page()
    unlock(page, served.url)
    return http, csrf, visits, page


def screen_version_shown(page: Page, seat: int, newer_than: int = -1) -> int:
    """The version of the seat's OLED frame the virtual table shows, once it shows the screen's latest version and
    that version is newer than ``newer_than`` (a message of several pages is fetched again each second as
    ``v=<version>.<fetch>`` while its pages turn: the same version)."""
    handle = page.wait_for_function(
        "([seat, newer]) => { const s = window.__snapshot;"
        " const i = document.querySelector(`.simseat[data-seat='${seat}'] img`);"
        " const v = i && s && s.screens[i.dataset.screen];"
        " return v && v.version > newer && new RegExp(`[?&]v=${v.version}(\\.\\d+)?$`).test(i.src)"
        " && i.complete && i.naturalWidth > 0 && [v.version]; }",
        arg=[seat, newer_than])
    return int(handle.json_value()[0])


def test_a_newcomer_starts_a_game_and_plays_a_board_meeting_on_the_virtual_table(
        browser: Browser, served: Served) -> None:
    visits = Visits(browser, viewport={"width": 1280, "height": 900})
    table_view = visits.page(served.url + "/")
    expect(table_view.locator("#when")).to_have_text("No game is running.")

    admin = visits.page(served.url + "/admin")
    unlock(admin, served.url)
    admin.click("#newgame button[type=submit]")
    expect(admin.locator("#newgame-msg")).to_contain_text("The game has started")
    # The table view, never reloaded, now shows both clubs and the League.
    expect(table_view.locator("article.club")).to_have_count(2)
    expect(table_view.locator("#when")).to_contain_text("Week 1 of 8")
    expect(table_view.locator(".league tbody tr")).to_have_count(len(served.table.session.state.clubs) + len(served.table.session.state.teams))

    sim = admin
    sim.goto(served.url + "/sim")
    seat = sim.locator('.simseat[data-seat="1"]')
    expect(seat.locator("input.cardpick")).to_be_visible()
    before = screen_version_shown(sim, 1)
    seat.locator("input.cardpick").fill("bm_01")
    seat.locator("button.place").click()
    placed = screen_version_shown(sim, 1, newer_than=before)
    expect(table_view.locator('#recent .entry[data-kind="board_meeting_card"]')).to_have_count(1)
    shoot(sim, "newcomer-virtual-table-card-placed")

    for _ in range(12):  # a tie between the Directors means rolling again; a held roll is kept by holding
        if any(a["kind"] == "board_meeting" for a in served.table.snapshot()["log"]):
            break
        need = next(a["need"] for a in served.table.session.state.awaiting if a["seat"] == 1)
        handled = served.table.session.version
        seat.locator("button.hold" if need == "keep_or_reroll" else "button.press").click()
        # The table answers every press, even one that came just after it kept the roll by itself.
        until(lambda: served.table.session.version > handled, "the press handled")
    expect(table_view.locator('#recent .entry[data-kind="board_meeting"]')).to_have_count(1)
    expect(table_view.locator('#recent .entry[data-kind="board_meeting"] .votes li')).to_have_count(3)
    screen_version_shown(sim, 1, newer_than=placed)
    shoot(table_view, "newcomer-table-view-after-board-meeting")
    shoot(sim, "newcomer-virtual-table-after-roll")
    assert visits.outside(served.url) == []
    visits.context.close()


def test_tv_mode_shows_how_to_start_then_the_league_in_large_type(browser: Browser, served: Served) -> None:
    visits = Visits(browser, viewport={"width": 1920, "height": 1080})
    tv = visits.page(served.url + "/tv")
    expect(tv.locator("#tv")).to_have_attribute("data-slide", "attract")
    expect(tv.locator("#tv")).to_contain_text("enter the PIN printed when the table started")
    http, csrf = api_session(served)
    http.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf)
    expect(tv.locator("#tv h1")).to_have_text("League table")
    expect(tv.locator(".league")).to_contain_text("Middleham Local Club")
    size = tv.evaluate("parseFloat(getComputedStyle(document.querySelector('#tv')).fontSize)")
    assert size >= 30
    shoot(tv, "tv-league")
    http.close()
    visits.context.close()


def test_tv_mode_cycles_from_the_league_through_every_club_and_back(browser: Browser, served: Served) -> None:
    http, csrf = api_session(served)
    http.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf)
    visits = Visits(browser, viewport={"width": 1920, "height": 1080})
    tv = visits.context.new_page()
    tv.clock.install()  # the page's own clock, moved on by the test instead of waited for
    tv.goto(served.url + "/tv")
    expect(tv.locator("#tv h1")).to_have_text("League table")
    titles = []
    for _ in range(3):
        tv.clock.run_for(12_000)
        titles.append(tv.locator("#tv h1").inner_text())
    assert titles == ["Middleham Local Club seat 1", "Riverside Town seat 2", "League table"]
    shoot(tv, "tv-league-again")
    http.close()
    visits.context.close()


def test_final_scoring_shows_the_breakdown_and_the_winner(browser: Browser, served: Served) -> None:
    http, csrf = api_session(served)
    http.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf)
    final = play_until(http, csrf, "over", limit=2000, lineups=True)["final"]
    visits = Visits(browser, viewport={"width": 1280, "height": 900})
    page = visits.page(served.url + "/final")
    winners = [row["name"] for row in final if row["winner"]]
    expected = f"Winner: {winners[0]}" if len(winners) == 1 else f"Shared victory: {' and '.join(winners)}"
    expect(page.locator("#winner")).to_have_text(expected)
    totals = page.locator(".breakdown tr.total td")
    expect(totals).to_have_text([str(row["total"]) for row in final])
    shoot(page, "final-scoring")
    visits.context.close()
    http.close()


def test_the_tie_break_is_shown_only_when_it_decided(browser: Browser, served: Served) -> None:
    visits = Visits(browser)
    page = visits.page(served.url + "/final")
    told = page.evaluate("""async () => {
        const {verdict} = await import('/static/view.js');
        const row = (name, total, position, rank) => ({name, total, position, rank, winner: rank === 1});
        return [
          verdict([row('Middleham', 30, 2, 1), row('Riverside', 30, 4, 2)]).tieBreak,
          verdict([row('Middleham', 30, 2, 1), row('Riverside', 30, 2, 1)]).tieBreak,
          verdict([row('Middleham', 31, 4, 1), row('Riverside', 30, 2, 2)]).tieBreak,
        ];
    }""")
    assert told == [
        "Middleham and Riverside both scored 30 VP; Middleham finished higher in the League (position 2).",
        "Middleham and Riverside are level on VP and League position, so they share the victory.",
        "",
    ]
    visits.context.close()


def test_enrolment_correction_and_undo_from_the_admin_page(browser: Browser, served: Served) -> None:
    http, csrf = api_session(served)
    http.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf)
    visits = Visits(browser, **PHONE)
    admin = visits.context.new_page()
    unlock(admin, served.url)

    admin.click("#enrol-start")
    expect(admin.locator("#enrol")).to_contain_text("Tap a card on any pad now.")
    stranger = "04-5E-7A-11-22-33-44"
    served.table.sim.place_tag("seat2.tap", stranger)  # a card whose tag nobody enrolled yet
    expect(admin.locator("#enrol-search")).to_be_visible()
    name = served.table.profile.cards["st_03"].name
    admin.fill("#enrol-search", name)
    admin.locator('#enrol-list [data-card="st_03"]').click()
    expect(admin.locator("#enrol-msg")).to_contain_text(f"is now {name}")
    assert served.table.session.store.card_for(stranger, deck=served.table.session.deck) == "st_03"

    budget = served.table.session.state.club(2).res[0]
    admin.select_option("#c-seat", "2")
    admin.select_option("#c-what", "budget")
    expect(admin.locator("#c-now")).to_have_text(str(budget))
    admin.fill("#c-value", str(budget + 2))
    admin.fill("#c-reason", "forgot the Sponsor income")
    admin.click("#correct button[type=submit]")
    expect(admin.locator("#correct-msg")).to_have_text("Corrected and recorded.")
    assert served.table.session.state.club(2).res[0] == budget + 2
    expect(admin.locator("#last")).to_contain_text("forgot the Sponsor income")
    shoot(admin, "admin-phone-after-correction")

    admin.click("#undo")
    expect(admin.locator("#undo-msg")).to_have_text("Undone.")
    assert served.table.session.state.club(2).res[0] == budget
    http.close()
    visits.context.close()


def test_charts_draw_points_and_every_resource_per_club(browser: Browser, served: Served) -> None:
    http, csrf = api_session(served)
    http.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf)
    visits = Visits(browser)
    page = visits.page(served.url + "/charts")
    # A week is plotted once its Matchday is played (tests/web/test_page_defects.py plays one on the real table).
    expect(page.locator("#charts")).to_contain_text("The charts appear once the first week has been played.")
    http.close()
    visits.context.close()


def test_opponents_are_dealt_in_the_order_they_were_picked_and_a_random_deal_avoids_the_other_seats(
        browser: Browser, served: Served) -> None:
    visits = Visits(browser, viewport={"width": 1280, "height": 900})
    admin = visits.context.new_page()
    unlock(admin, served.url)
    profile = served.table.profile
    teams: dict[str, str] = {}
    for card in profile.cards_of("opponent"):
        teams.setdefault(card.team, card.id)
    wanted = list(teams.values())[::-1]  # against the deck's order, one card per team
    seat1 = admin.locator('.seatbox[data-seat="1"]')
    for n in range(1, len(wanted) + 1):
        seat1.locator("select.opponents").select_option(wanted[:n])
    expect(seat1.locator(".order")).to_contain_text(f"1. {profile.cards[wanted[0]].name}")
    admin.locator('.seatbox[data-seat="2"] button', has_text="Deal Opponents at random").click()
    admin.click("#newgame button[type=submit]")
    expect(admin.locator("#newgame-msg")).to_contain_text("The game has started")
    assert served.table.session.state is not None
    assert list(served.table.session.state.club(1).opponents) == wanted
    assert not set(served.table.session.state.club(2).opponents) & set(wanted)
    visits.context.close()


def test_a_newcomer_plays_a_whole_week_on_the_virtual_table_page_alone(browser: Browser, served: Served) -> None:
    """Board meetings from the pads and buttons, the turns from the page's steps, Matchday on the Lineup page."""
    visits = Visits(browser, **PHONE)
    page = visits.context.new_page()
    unlock(page, served.url)
    page.click("#newgame button[type=submit]")
    expect(page.locator("#newgame-msg")).to_contain_text("The game has started")
    page.goto(served.url + "/sim")
    table = served.table
    assert table.session.state is not None
    boards = [c.id for c in table.profile.cards_of("board_meeting")]
    built = False
    for _ in range(120):
        state = table.session.state
        if state.week == 2 or state.stage == "matchday":
            break
        wait = state.awaiting[0]
        seat, need = wait["seat"], wait["need"]
        handled = table.session.version
        box = page.locator(f'.simseat[data-seat="{seat}"]')
        if need == "card":  # one press on a Board meeting card offered under the pad
            used = {c.board_card for c in state.clubs}
            offered = box.locator(".quick button")
            expect(offered.first).to_be_visible()
            assert offered.first.get_attribute("data-card") in set(boards) - used
            offered.first.click()
        elif need == "keep_or_reroll":
            box.locator("button.hold").click()
        elif need == "roll":
            box.locator("button.press").click()
        elif need == "action":
            ask = page.locator(f'#asks .ask[data-seat="{seat}"]')
            expect(ask).to_be_visible()
            if not built and not state.club(seat).acted:
                # Take something the page offers (the first choice the rules allow), then end the turn.
                ask.locator(".choice:not(.off)[data-type=potential] button").first.click()
                built = True
            else:
                ask.locator(".choice[data-type=pass] button").click()
        else:
            raise AssertionError(f"the virtual table cannot answer {wait}")
        until(lambda: table.session.version > handled, f"seat {seat}'s {need} handled")
        expect(page.locator("#sim-msg")).to_be_hidden()
    assert table.session.state.stage == "matchday"
    assert any(a["kind"] == "potential" for a in table.snapshot()["log"])
    expect(page.locator("#sim-status")).to_contain_text("Open the Lineup page")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1  # nothing wider than the phone
    shoot(page, "newcomer-virtual-table-matchday")
    visits.context.close()


def test_the_live_page_reconnects_by_itself_when_the_table_comes_back(browser: Browser, tmp_path: Path) -> None:
    table = open_table(tmp_path / "t.db", stepped=False)
    first = Served(table).start()
    visits = Visits(browser)
    page = visits.page(first.url + "/")
    expect(page.locator("#live")).to_have_attribute("data-state", "open")
    first.stop()
    table.session.store.close()
    expect(page.locator("#live")).to_have_attribute("data-state", "lost")
    expect(page.locator("#live")).to_have_text("reconnecting…")
    table = open_table(tmp_path / "t.db", stepped=False)
    with Served(table, port=first.port) as again:  # the table restarted on the same address
        expect(page.locator("#live")).to_have_attribute("data-state", "open", timeout=15_000)
        http, csrf = api_session(again)
        http.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf)
        expect(page.locator("#when")).to_contain_text("Week 1 of 8")  # never reloaded
        http.close()
    table.session.store.close()
    visits.context.close()


def test_the_play_page_on_a_phone_builds_and_says_why_other_steps_cannot_be_taken(
        browser: Browser, served: Served) -> None:
    http, csrf = api_session(served)
    http.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf)
    view = play_until(http, csrf, "tuesday")
    seat = view["turn"]
    kind = served.table.profile.board.infrastructure[0]
    budget = next(c for c in view["clubs"] if c["seat"] == seat)["resources"]["budget"]
    http.post("/api/actions/correction", json={"seat": seat, "what": "budget", "delta": kind.cost + 1 - budget,
                                               "reason": "exactly enough for one building"}, headers=csrf)
    visits = Visits(browser, **PHONE)
    page = visits.context.new_page()
    page.goto(served.url + "/play")
    page.locator("#play-lock input[type=password]").fill(PIN)
    page.locator("#play-lock button[type=submit]").click()
    ask = page.locator(f'#asks .ask[data-seat="{seat}"]')
    expect(ask.locator("h3")).to_contain_text(f"Seat {seat}")
    forbidden = served.table.profile.board.potential_forbidden.capitalize()
    expect(ask.locator(".choice.off[data-type=potential]")).to_contain_text(
        f"not now: The {forbidden} Stat cannot be raised by increasing the Club potential.")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    shoot(page, "play-phone-turn")
    ask.locator(f".choice[data-type=build] button:has-text('{kind.name}')").click()
    expect(page.locator("#asks-msg")).to_have_text(f"Done: Build {kind.name}.")
    assert served.table.session.state is not None
    assert served.table.session.state.club(seat).infrastructure == (kind.id,)
    # The other club's turn now: with 1 € left this club could build nothing more anyway.
    expect(page.locator(f'#asks .ask[data-seat="{seat}"]')).to_have_count(0)
    http.close()
    visits.context.close()


def test_starting_a_new_game_over_a_running_one_asks_first(browser: Browser, served: Served) -> None:
    http, csrf, visits, admin = phone_at(browser, served, "tuesday")
    box = admin.locator("#newgame-box")
    expect(box).not_to_have_attribute("open", "")  # folded away while a game runs
    box.locator("summary").click()
    before = served.table.session.state
    admin.click("#newgame-start")
    expect(admin.locator("#newgame-msg")).to_have_text(
        "A game is running (Week 1, Tuesday). Starting a new one ends it for good: press the button again to do so.")
    assert served.table.session.state is before
    admin.click("#newgame-start")
    expect(admin.locator("#newgame-msg")).to_contain_text("The game has started")
    assert served.table.session.state is not None and served.table.session.state.stage == "monday"
    http.close()
    visits.context.close()
