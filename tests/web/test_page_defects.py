"""Page defects a player meets in the first hour, each checked in headless Chromium on the real ``touchline run --sim``.

The table's log is first filled by replaying a shipped scenario on the simulated table (the same engine, store and
drivers), then the real table is started over it, as after a restart mid-game.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.played import played

from .test_browser import Visits, browser, shoot  # noqa: F401  (browser is a fixture)
from .test_touchline_run import Running

pytestmark = pytest.mark.browser



def table_after(tmp_path: Path, scenario: str | None) -> Running:
    """``touchline run --sim`` over a log that holds ``scenario`` played to its end (or no game at all)."""
    db = tmp_path / "touchline.db"
    if scenario is not None:
        db, _ = played(scenario, tmp_path)  # played once per test run, copied for each table
    return Running(db)


@pytest.fixture
def mid_game(tmp_path: Path) -> Iterator[Running]:
    """The real table in Week 2 of a four-club game (full-week.toml played)."""
    table = table_after(tmp_path, "full-week.toml")
    yield table
    table.stop()


@pytest.fixture
def no_game(tmp_path: Path) -> Iterator[Running]:
    """The real table with an empty log."""
    table = table_after(tmp_path, None)
    yield table
    table.stop()


def unlocked_admin(visits: Visits, table: Running) -> tuple[Page, list[str]]:
    """The Admin page unlocked with the table's PIN, and the script errors it throws (collected from the start)."""
    page = visits.context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(table.url + "/admin")
    page.fill("#pin", table.pin)
    page.click("#login button[type=submit]")
    expect(page.locator("#unlocked")).to_be_visible()
    return page, errors


def test_the_admin_page_loads_mid_game_without_a_script_error(browser: Browser, mid_game: Running) -> None:
    visits = Visits(browser, viewport={"width": 1280, "height": 900})
    page, errors = unlocked_admin(visits, mid_game)
    expect(page.locator("#c-seat option")).to_have_count(4)  # the live update arrived and was drawn
    page.reload()  # a second load, with the numbers list fetched in another order
    expect(page.locator("#c-seat option")).to_have_count(4)
    expect(page.locator("#c-now")).not_to_have_text("–")
    shoot(page, "admin-mid-game")
    assert errors == []
    visits.context.close()


def test_the_status_and_what_the_table_waits_for_name_the_clubs(browser: Browser, mid_game: Running) -> None:
    # Players are their clubs: "Riverside Town's turn", "Middleham Local Club: tap a Board meeting card", never
    # "Seat 1" (the seat is only the place at the table).
    visits = Visits(browser, viewport={"width": 1280, "height": 900})
    names = [c["name"] for c in mid_game.state()["game"]["clubs"]]
    for path in ("/", "/play"):
        page = visits.context.new_page()
        page.goto(mid_game.url + path)
        expect(page.locator("#when")).to_contain_text("Week")
        status = page.locator("#when").inner_text() + "\n" + "\n".join(page.locator("ul.waiting li").all_inner_texts())
        assert not re.search(r"\bSeat \d", status), status
        assert any(name in status for name in names), status
        shoot(page, "status-names-clubs" + path.replace("/", "-"))
    visits.context.close()


@pytest.mark.parametrize("width", [1366, 1280, 1024])
def test_the_new_game_seat_boxes_do_not_overlap(browser: Browser, no_game: Running, width: int) -> None:
    visits = Visits(browser, viewport={"width": width, "height": 768})
    page, errors = unlocked_admin(visits, no_game)
    boxes = page.locator(".seatbox")
    expect(boxes).to_have_count(4)
    rects = boxes.evaluate_all("bs => bs.map(b => { const r = b.getBoundingClientRect();"
                               " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,"
                               " overflow: b.scrollWidth - b.clientWidth}; })")
    for one, other in zip(rects, rects[1:]):
        side_by_side = one["top"] == other["top"]
        assert not side_by_side or one["right"] <= other["left"], f"seat boxes overlap at {width} px: {one} {other}"
    assert all(r["overflow"] <= 0 for r in rects), f"a seat box's content runs out of it at {width} px: {rects}"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shoot(page, f"admin-new-game-{width}")
    assert errors == []
    visits.context.close()


def test_start_waits_until_the_seats_are_drawn(browser: Browser, no_game: Running) -> None:
    """A quick press of "Start the game" before the seat boxes are drawn would send a game without clubs."""
    visits = Visits(browser, viewport={"width": 1280, "height": 900})
    page, errors = unlocked_admin(visits, no_game)
    page.click("#newgame button[type=submit]")  # Playwright presses only once the button can be pressed
    expect(page.locator("#newgame-msg")).to_contain_text("The game has started")
    assert errors == []
    visits.context.close()


HUES = {"red": [(330, 360), (0, 15)], "blue": [(190, 240)], "green": [(90, 185)], "yellow": [(35, 60)]}
"""Where each colour a shipped table file names lies on the colour wheel (degrees)."""
HUE = """(el) => { const m = getComputedStyle(el).stroke.match(/\\d+(\\.\\d+)?/g).map(Number).map((v) => v / 255);
  const [r, g, b] = m; const max = Math.max(r, g, b), min = Math.min(r, g, b), d = max - min; if (!d) return -1;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4; return (h * 60 + 360) % 360; }"""


def test_the_charts_draw_each_club_in_its_seats_colour_and_a_week_once_it_is_played(
        browser: Browser, mid_game: Running) -> None:
    from device.table_file import default_sim_table

    colours = {seat.number: seat.colour for seat in default_sim_table().seats}
    visits = Visits(browser, viewport={"width": 1280, "height": 900})
    page = visits.context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(mid_game.url + "/charts")
    expect(page.locator("figure.chartbox").first).to_be_visible()
    game = mid_game.state()["game"]
    assert game["week"] == 2  # Monday of Week 2: only Week 1 has been played
    expect(page.locator("figure.chartbox figcaption")).to_have_text(["Points", "Budget", "Fanbase", "Operation", "Fitness"])
    expect(page.locator(".legend li")).to_have_text([c["name"] for c in game["clubs"]])
    for chart in page.locator("figure.chartbox").all():
        assert chart.locator("text.tick").evaluate_all("ts => ts.map(t => t.textContent)")[2:] == ["1"]  # (after the axis' top and bottom values)
        lines = chart.locator("polyline")
        expect(lines).to_have_count(4)
        for line in lines.all():
            seat = int(line.get_attribute("data-seat") or 0)
            hue = line.evaluate(HUE)
            wanted = HUES[str(colours[seat])]
            assert any(low <= hue <= high for low, high in wanted), f"seat {seat} ({colours[seat]}) is drawn at hue {hue:.0f}"
    shoot(page, "charts-mid-game")
    assert errors == []
    visits.context.close()


def test_each_seat_names_its_players_at_new_game_for_bg_stats(browser: Browser, no_game: Running, tmp_path: Path) -> None:
    from device.export import build_export, render
    from device.store import open_store

    visits = Visits(browser, viewport={"width": 1366, "height": 900})
    page, errors = unlocked_admin(visits, no_game)
    page.locator('.seatbox[data-seat="1"] input.players').fill("Anna and Ben")
    page.click("#newgame button[type=submit]")
    expect(page.locator("#newgame-msg")).to_contain_text("The game has started")
    store = open_store(tmp_path / "touchline.db")
    try:
        game = store.games()[-1]
        document = json.loads(render(build_export(store, game.id), "json"))
    finally:
        store.close()
    assert document["game"]["seats"] == {"1": "Anna and Ben"}  # seat 2 named nobody: no club name stands in
    assert errors == []
    visits.context.close()
