"""A seat's own page in Chromium on the real simulated table: a phone opens it by a tap of one of its club's cards
on the virtual table, sees its own Objective, is refused another seat's page, and arranges its jersey markers in
secret for a match between clubs there (003 l.100–167)."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, expect

from .conftest import PIN, TWO_CLUBS, Served, play_until
from .test_browser import PHONE, Visits, api_session, browser, shoot  # noqa: F401  (browser is a fixture)
from .test_club_matches_page import answer_club_match

pytestmark = pytest.mark.browser

TWO_WEEKS = {**TWO_CLUBS, "modules": ["club_matches"], "options": {"weeks": 2}}


def _tap(http: httpx.Client, csrf: dict[str, str], seat: int, card: str) -> None:
    """Put a card on the seat's pad of the virtual table and take it off again."""
    assert http.post("/api/sim/place", json={"pad": f"seat{seat}.tap", "card": card}, headers=csrf).status_code == 200
    assert http.post("/api/sim/lift", json={"pad": f"seat{seat}.tap"}, headers=csrf).status_code == 200


def test_a_phone_opens_its_seats_page_by_a_tap_sees_its_objective_and_arranges_in_secret_there(
        browser: Browser, served: Served) -> None:  # noqa: F811
    http, csrf = api_session(served)
    assert http.post("/api/actions/new-game", json=TWO_WEEKS, headers=csrf).status_code == 200
    state = served.table.session.state
    objective = served.table.profile.cards[state.club(1).objective].name
    other_objective = served.table.profile.cards[state.club(2).objective].name
    visits = Visits(browser, **PHONE)
    page = visits.page(served.url + "/seat/1")
    expect(page.locator("#seat-lock")).to_be_visible()
    expect(page.locator("#seat-own")).to_be_hidden()
    shoot(page, "seat-locked")
    page.get_by_role("button", name="Unlock with a tap").click()
    expect(page.locator("#seat-lock-msg")).to_contain_text("Tap one of seat 1's own cards")
    _tap(http, csrf, 1, state.club(1).directors[0])
    expect(page.locator("#seat-own")).to_be_visible()
    expect(page.locator("#objective-list")).to_contain_text(objective)
    expect(page.locator("#seat-own")).not_to_contain_text(other_objective)
    expect(page.locator("#seat-title")).to_have_text("Seat 1: Middleham Local Club")
    shoot(page, "seat-objective")
    # Seat 1's phone cannot open seat 2's page: it stays locked and asks for seat 2's own tap.
    other = visits.page(served.url + "/seat/2")
    expect(other.locator("#seat-lock")).to_be_visible()
    expect(other.locator("#seat-own")).to_be_hidden()
    assert other.evaluate("async () => (await fetch('/api/state?seat=2')).status") == 403
    other.close()

    # The match between clubs: the secret arrangement is made on the seat's own page.
    play_until(http, csrf, "club_match", lineups=True)
    answer_club_match(http, csrf, stop="arrange")
    expect(page.locator("#seat-arrange")).to_be_visible()
    expect(page.locator("#club-match-step")).to_contain_text("arrange your jersey markers below")
    page.get_by_role("button", name="Fill the rest").click()
    shoot(page, "seat-arrange")
    page.get_by_role("button", name="Record the lineup").click()
    expect(page.locator("#lineup-msg")).to_contain_text("Arranged in secret for the first half")
    fixture = served.table.session.state.slice("club_matches").of(1)
    assert fixture.arrangement(1) is not None
    # The table (and seat 2) see that seat 1 arranged, not how.
    public = http.get("/api/state").json()["game"]["modules"]["club_matches"]["fixtures"][0]
    assert public["arranged"] == [1] and public["secret"] == {}
    # The Lineup page no longer takes the secret step: it points to the seat's own page.
    lineup = visits.page(served.url + "/lineup")
    lineup.locator("#seat").select_option("2")
    expect(lineup.locator("#club-match-step")).to_contain_text("on its own page (/seat/2)")
    visits.context.close()
    http.close()


def test_a_seat_page_left_open_when_a_new_game_begins_locks_itself_and_says_how_to_open_it_again(
        browser: Browser, served: Served) -> None:  # noqa: F811
    http, csrf = api_session(served)
    assert http.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf).status_code == 200
    state = served.table.session.state
    objective = served.table.profile.cards[state.club(1).objective].name
    visits = Visits(browser, **PHONE)
    page = visits.page(served.url + "/seat/1")
    page.get_by_role("button", name="Unlock with a tap").click()
    _tap(http, csrf, 1, state.club(1).directors[0])
    expect(page.locator("#objective-list")).to_contain_text(objective)
    # The next group sits down: a new game, whose seat 1 is somebody else's.
    next_group = {"clubs": [{"seat": 1, "name": "Next Group Athletic"}, {"seat": 2, "name": "Late Arrivals"}]}
    assert http.post("/api/actions/new-game", json=next_group, headers=csrf).status_code == 200
    expect(page.locator("#seat-lock")).to_be_visible()
    expect(page.locator("#seat-own")).to_be_hidden()
    expect(page.locator("#seat-lock-msg")).to_contain_text("A new game began")
    expect(page.locator("#seat-title")).to_have_text("Seat 1")
    expect(page.locator("#live")).to_have_text("locked")
    expect(page.get_by_role("button", name="Unlock with a tap")).to_be_enabled()
    expect(page.locator("body")).not_to_contain_text(objective)  # nothing of the last game is left on the page
    expect(page.locator("body")).not_to_contain_text("Next Group Athletic")  # nor anything of the new one
    shoot(page, "seat-ended-by-a-new-game")
    visits.context.close()
    http.close()


def test_the_pin_on_a_seat_page_opens_it_and_the_table_page_links_each_seat(browser: Browser, served: Served) -> None:  # noqa: F811
    http, csrf = api_session(served)
    assert http.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf).status_code == 200
    visits = Visits(browser, **PHONE)
    page = visits.page(served.url + "/seat/2")
    page.fill("#seat-pin-value", "0000")
    page.click("#seat-pin button[type=submit]")
    expect(page.locator("#seat-lock-msg")).to_contain_text("not the table's PIN")
    page.fill("#seat-pin-value", PIN)
    page.click("#seat-pin button[type=submit]")
    expect(page.locator("#seat-own")).to_be_visible()
    expect(page.locator("#objective-list li")).to_have_count(1)
    table = visits.page(served.url + "/")
    links = table.locator("#seat-links a")
    expect(links).to_have_count(2)
    expect(table.locator('#seat-links img[data-seat="2"]')).to_be_visible()
    shoot(table, "table-seat-links")
    assert visits.outside(served.url) == []
    visits.context.close()
    http.close()


def test_a_seat_places_its_bet_on_its_own_page_and_the_table_sees_only_that_it_bet(
        browser: Browser, served: Served) -> None:  # noqa: F811
    from .test_betting_page import BETTING

    http, csrf = api_session(served)
    assert http.post("/api/actions/new-game", json=BETTING, headers=csrf).status_code == 200
    play_until(http, csrf, "betting")
    visits = Visits(browser, **PHONE)
    page = visits.page(served.url + "/seat/1")
    page.fill("#seat-pin-value", PIN)
    page.click("#seat-pin button[type=submit]")
    ask = page.locator('#seat-asks .ask[data-need="bet"]')
    expect(ask).to_contain_text("your bet this week")
    expect(ask.get_by_role("button", name="No bet this week")).to_have_count(0)  # a pass is said at the table
    ask.locator('select[data-name="on"]').select_option("3/1/0/0|3/0/0/0")
    shoot(page, "seat-bet")
    ask.get_by_role("button", name="Place the bet").click()
    expect(page.locator("#seat-msg")).to_contain_text("Done: Place the bet.")
    bet = served.table.session.state.slice("betting").bets[0]
    assert bet.seat == 1 and bet.spaces == ("3/1/0/0", "3/0/0/0")
    table = visits.page(served.url + "/")
    expect(table.locator('#bets li[data-seat="1"]')).to_contain_text("token placed (secret")
    expect(table.locator("#betting")).not_to_contain_text("3/1/0/0 | 3/0/0/0")
    visits.context.close()
    http.close()
