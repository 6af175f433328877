"""TV mode (``/tv``) on a shop's TV, in headless Chromium on the real ``touchline run --sim`` at 1080p and 720p.

Every slide is checked as a person across the shop would see it: each piece of text stands out from what lies behind
it (WCAG contrast, from the computed colours), every row is on the screen (or the slide scrolls by itself until each
has been), and the lower third of the screen is not left empty.  Screenshots of every slide are kept in
``test-artifacts/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_browser import Visits, browser, shoot  # noqa: F401  (browser is a fixture)
from .test_page_defects import table_after
from .test_touchline_run import Running

pytestmark = pytest.mark.browser

SIZES = {"1080p": (1920, 1080), "720p": (1280, 720)}
CYCLE_MS = 12_000
"""How long a slide stays (web/static/tv.js)."""
READABLE = 7.0
"""The contrast every piece of text keeps with what lies behind it (WCAG's enhanced level, for a screen far away)."""

CONTRAST = """() => {
  const parse = (c) => { const m = /rgba?\\(([^)]+)\\)/.exec(c); if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const over = (top, under) => ({r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a), a: 1});
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const behind = (el) => { const chain = []; for (let e = el; e; e = e.parentElement) chain.unshift(e);
    let bg = {r: 255, g: 255, b: 255, a: 1};
    for (const e of chain) { const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a > 0) bg = over(c, bg); }
    return bg; };
  const out = [];
  const walk = document.createTreeWalker(document.getElementById("tv"), NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const text = n.textContent.trim(); const el = n.parentElement; const box = el.getBoundingClientRect();
    if (!text || !box.width || !box.height) continue;
    const bg = behind(el); const fg = over(parse(getComputedStyle(el).color), bg);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    out.push({text: text.slice(0, 40), ratio: (hi + 0.05) / (lo + 0.05)});
  }
  return out;
}"""

ROWS = """() => [...document.querySelectorAll("#tv tbody tr, #tv .tile, #tv li, #tv .winner")].map((el) => {
  const r = el.getBoundingClientRect(); const body = el.closest(".tvbody"); const b = body ? body.getBoundingClientRect() : null;
  return {text: el.textContent.trim().slice(0, 40), top: r.top, bottom: r.bottom, left: r.left, right: r.right,
          inBody: b ? r.top >= b.top - 1 && r.bottom <= b.bottom + 1 : true};
})"""

LOWEST = """() => Math.max(...[...document.querySelectorAll("#tv *")].filter((el) => el.children.length === 0
  && el.textContent.trim()).map((el) => el.getBoundingClientRect().bottom))"""


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Running]]:
    """The real table mid-game (Week 2 of four clubs, full-week.toml) and after a whole game (full-game.toml)."""
    running = {"mid-game": table_after(tmp_path_factory.mktemp("mid"), "full-week.toml"),
               "final": table_after(tmp_path_factory.mktemp("final"), "full-game.toml")}
    yield running
    for table in running.values():
        table.stop()


def open_tv(browser: Browser, url: str, size: tuple[int, int]) -> tuple[Visits, Page, list[str]]:
    """The TV page at ``size``, on a clock the test moves on, and the script errors it throws."""
    width, height = size
    visits = Visits(browser, viewport={"width": width, "height": height})
    page = visits.context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.clock.install()
    page.goto(url + "/tv")
    expect(page.locator("#tv h1")).not_to_have_text("Touchline")  # the game arrived: not the attract screen
    return visits, page, errors


def every_slide(page: Page) -> Iterator[str]:
    """Show each slide once (the League table first, or the final scoring at the end), yielding its title."""
    seen: list[str] = []
    while True:
        page.clock.run_for(200)  # the slide is drawn and sized
        title = page.locator("#tv h1").inner_text()
        slide = page.locator("#tv").get_attribute("data-slide")
        if seen and slide == "0":
            return
        seen.append(title)
        yield title
        page.clock.run_for(CYCLE_MS - 200)
        assert len(seen) < 12, f"the slides never came round again: {seen}"


def check_slide(page: Page, size: tuple[int, int], where: str) -> None:
    width, height = size
    dim = [c for c in page.evaluate(CONTRAST) if c["ratio"] < READABLE]
    assert not dim, f"{where}: text hard to read across a shop: {dim}"
    rows = page.evaluate(ROWS)
    assert rows, f"{where}: nothing to show"
    wide = [r for r in rows if r["right"] > width + 1 or r["left"] < -1]
    assert not wide, f"{where}: rows run off the side of the screen: {wide}"
    scrolls = page.locator(".tvbody").get_attribute("data-scrolls") == "true"
    outside = [r for r in rows if r["bottom"] > height + 1 or not r["inBody"]]
    if not scrolls:
        assert not outside, f"{where}: rows off the screen: {outside}"
    else:
        seen_all = scrolled_through(page)
        assert seen_all, f"{where}: the slide does not scroll to its last row by itself"
    assert page.evaluate(LOWEST) >= height * 2 / 3, f"{where}: the lower third of the screen is empty"


def scrolled_through(page: Page) -> bool:
    """Whether the slide's body, left alone, scrolls until its last row is in view."""
    for _ in range(200):
        last = page.evaluate("""() => { const b = document.querySelector('.tvbody'); const rows = b.querySelectorAll('tr, .tile, li');
          const r = rows[rows.length - 1].getBoundingClientRect(); return r.bottom <= b.getBoundingClientRect().bottom + 1; }""")
        if last:
            return True
        page.clock.run_for(100)
    return False


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["mid-game", "final"])
def test_every_slide_reads_from_across_a_shop(browser: Browser, tables: dict[str, Running], game: str, size: str) -> None:
    table = tables[game]
    visits, page, errors = open_tv(browser, table.url, SIZES[size])
    titles = []
    for number, title in enumerate(every_slide(page)):
        titles.append(title)
        shoot(page, f"tv-{game}-{size}-{number}")
        check_slide(page, SIZES[size], f"{game} at {size}, slide {number} ({title})")
    state: dict[str, Any] = table.state()
    clubs = [c["name"] for c in state["game"]["clubs"]]
    assert titles[0] == ("Final scoring" if game == "final" else "League table")
    assert "League table" in titles
    assert [t.split(" seat ")[0] for t in titles if " seat " in t] == clubs
    assert errors == []
    visits.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_league_slide_shows_every_team_and_club(browser: Browser, tables: dict[str, Running], size: str) -> None:
    table = tables["mid-game"]
    visits, page, _ = open_tv(browser, table.url, SIZES[size])
    expect(page.locator("#tv h1")).to_have_text("League table")
    league = table.state()["game"]["league"]
    expect(page.locator("#tv .league tbody tr")).to_have_count(len(league))
    for row in league:
        expect(page.locator("#tv .league")).to_contain_text(row["name"])
    visits.context.close()


def test_a_table_too_long_for_a_small_screen_scrolls_by_itself(browser: Browser, tables: dict[str, Running]) -> None:
    """Twelve teams and four clubs do not fit a screen 400 pixels high even at the smallest size: the body scrolls."""
    visits, page, errors = open_tv(browser, tables["mid-game"].url, (1280, 400))
    expect(page.locator("#tv h1")).to_have_text("League table")
    page.clock.run_for(200)
    assert page.locator(".tvbody").get_attribute("data-scrolls") == "true"
    assert scrolled_through(page)
    shoot(page, "tv-scrolling-400")
    assert errors == []
    visits.context.close()
