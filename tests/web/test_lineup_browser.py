"""The Lineup page in a real headless Chromium on a phone: each jersey marker placed is checked by the engine, "Fill
the rest" asks the engine, the lineup in progress survives a reload, the Stands come from the club's view and the
success note reads as one (green, not red like an error)."""

from __future__ import annotations

from collections import Counter

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import Served, play_until
from .test_browser import PHONE, Visits, api_session, browser, phone_at, shoot, unlock  # noqa: F401  (Chromium)

pytestmark = pytest.mark.browser

OK_GREEN = "rgb(27, 127, 59)"  # style.css --ok
BAD_RED = "rgb(198, 40, 40)"  # style.css --bad


def place(page: Page, key: str, zone: str) -> None:
    """Tap a bench item, then a zone's label corner (never a token already standing there)."""
    page.click(f'#bench [data-key="{key}"]')
    page.locator(f'#pitch [data-zone="{zone}"]').click(position={"x": 4, "y": 4})


def colour(page: Page, selector: str) -> str:
    return str(page.eval_on_selector(selector, "el => getComputedStyle(el).color"))


def test_the_lineup_page_asks_the_engine_keeps_the_draft_and_says_success_in_green(
        browser: Browser, served: Served) -> None:  # noqa: F811
    http, csrf, visits, page = phone_at(browser, served, "matchday")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(served.url + "/lineup")
    page.select_option("#seat", "1")  # this phone is the first club's: the page keeps to it
    expect(page.locator('#bench [data-key="m2"]')).to_be_visible()
    state = served.table.session.state
    club = state.club(1)
    msg = page.locator("#lineup-msg")

    # a second marker on a wing: the engine's sentence, and the marker goes back to the bench
    place(page, "m2", "def_left")
    expect(page.locator('#pitch [data-zone="def_left"] [data-key="m2"]')).to_be_visible()
    place(page, "m3", "def_left")
    expect(msg).to_have_text("The Defenders' left wing holds at most 1 jersey markers; the lineup puts 2 there.")
    assert msg.get_attribute("data-kind") == "error" and colour(page, "#lineup-msg") == BAD_RED
    expect(page.locator('#pitch [data-zone="def_left"] .token')).to_have_count(1)
    expect(page.locator('#bench [data-key="m3"]')).to_be_visible()
    shoot(page, "lineup-refused-marker")
    place(page, "m3", "def_centre")
    expect(page.locator("#counts")).to_contain_text("On the pitch 2/10")
    expect(msg).to_be_hidden()  # what was refused is put right

    # the lineup in progress survives a reload
    page.reload()
    expect(page.locator("#counts")).to_contain_text("On the pitch 2/10")
    expect(page.locator('#pitch [data-zone="def_left"] [data-key="m2"]')).to_be_visible()
    expect(page.locator('#pitch [data-zone="def_centre"] [data-key="m3"]')).to_be_visible()
    expect(msg).to_contain_text("Your lineup in progress is back: 2 jersey marker(s)")
    shoot(page, "lineup-kept-after-reload")

    # the Stands the club has, from its view's limits; more is refused by the engine in the club's name
    stands = served.table.profile.board.board_stands
    expect(page.locator("#stands-room")).to_have_text(f" of {stands} Stands")
    assert page.get_attribute("#stands", "max") == str(stands)
    page.fill("#stands", str(stands + 1))
    page.locator("#stands").dispatch_event("change")
    expect(msg).to_have_text(f"{club.name} has {stands} Stands; it cannot put {stands + 1} Fanbase on them.")
    page.fill("#stands", "0")
    page.locator("#stands").dispatch_event("change")
    expect(msg).to_be_hidden()

    # "Fill the rest": the engine's choice around the two markers placed
    page.click("#fill")
    expect(page.locator("#counts")).to_contain_text("On the pitch 10/10")
    expect(msg).to_have_text("The rest is placed as the table would: look it over, move what you like, then record it.")
    assert colour(page, "#lineup-msg") == OK_GREEN
    expect(page.locator("#record")).to_be_enabled()
    expect(page.locator("#fill")).to_be_disabled()
    shoot(page, "lineup-filled")

    page.click("#record")
    expect(msg).to_have_text("Lineup recorded: play a Tactic if you want, then kick off.")
    assert msg.get_attribute("data-kind") == "ok" and colour(page, "#lineup-msg") == OK_GREEN
    expect(page.locator("#fitness")).to_contain_text("Recorded:")
    assert colour(page, "#fitness") != BAD_RED
    lineup = served.table.session.state.club(1).lineup
    assert lineup is not None and [p.zone for p in lineup][:2] == ["def_left", "def_centre"]
    fit = [h.id for h in club.players if not h.unavailable]
    assert sorted(p.card for p in lineup if p.card) == sorted(fit[:club.res[3]])  # the fit footballers fielded
    plain = [p for p in lineup if p.card is None]
    assert all(p.style == "defence" for p in plain if p.zone.startswith("def_") and p.jersey not in (2, 3))
    after = served.table.session.state.club(1)
    assert Counter(side for _, side in after.markers_setup) <= Counter({"attack": 5, "defence": 5})
    shoot(page, "lineup-recorded")

    # recorded: a reload shows the lineup the table holds, not a draft
    page.reload()
    expect(page.locator("#counts")).to_contain_text("On the pitch 10/10")
    expect(page.locator("#kickoff")).to_be_visible()
    expect(msg).to_be_hidden()
    page.click("#kickoff")
    expect(page.locator("#breakdown table.zones tbody tr")).to_have_count(9)
    shoot(page, "lineup-played")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1  # nothing wider than the phone
    assert visits.outside(served.url) == []
    # the Lineup page reads no rule tables of its own: it asks the engine, and the club's limits come with the view
    assert not [u for u in asked if u.endswith("/api/rules")] and [u for u in asked if u.endswith("/api/lineup/check")]
    visits.context.close()
    http.close()


def test_a_match_between_clubs_is_arranged_on_each_seats_own_page_in_both_halves(
        browser: Browser, served: Served) -> None:  # noqa: F811
    """003 l.143–156: the declared formation is filled by the engine, each arrangement recorded in secret on the
    seat's own page (the Lineup page's editor there), and the second half moves the first half's markers (the page
    starts from them)."""
    from .test_club_matches_page import TWO_WEEKS, answer_club_match

    http, csrf = api_session(served)
    assert http.post("/api/actions/new-game", json=TWO_WEEKS, headers=csrf).status_code == 200
    play_until(http, csrf, "club_match", lineups=True)
    game = answer_club_match(http, csrf, stop="arrange")
    fixture = game["modules"]["club_matches"]["fixtures"][0]
    visits = Visits(browser, **PHONE)
    page = visits.context.new_page()
    unlock(page, served.url)
    msg = page.locator("#lineup-msg")
    for half in (1, 2):
        for seat in (fixture["host"], fixture["visitor"]):
            page.goto(served.url + f"/seat/{seat}")  # the owner's PIN opens every seat's own page
            expect(page.locator("#seat-arrange")).to_be_visible()
            if half == 1:
                expect(page.locator("#counts")).to_contain_text("On the pitch 0/10")
                page.click("#fill")
            expect(page.locator("#counts")).to_contain_text("On the pitch 10/10")
            expect(page.locator("#record")).to_be_enabled()
            page.click("#record")
            expect(msg).to_contain_text(f"Arranged in secret for the {'first' if half == 1 else 'second'} half")
            assert colour(page, "#lineup-msg") == OK_GREEN
        shoot(page, f"lineup-club-match-half-{half}")
        if half == 1:
            game = answer_club_match(http, csrf, stop="arrange")
            assert game["modules"]["club_matches"]["fixtures"][0]["half"] == 2
    game = answer_club_match(http, csrf)
    assert served.table.session.state.stage != "club_match" or not any(
        w.get("need") == "arrange" for w in game["awaiting"])
    visits.context.close()
    http.close()
