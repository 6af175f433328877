"""A club arranging its jersey markers for a match between clubs on its seat's own page, in Chromium on the real
simulated table: the marker the declared formation has no place for goes back to the bench as it is placed, with
the engine's sentence (003 l.143: "First, the Host reveals what Formation they are going to use during the First
Half. Then both players secretly arrange their Jersey markers on the Pitch.")."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from engine.modules import club_matches as cm

from .conftest import PIN, Served, play_until
from .test_browser import PHONE, Visits, api_session, browser, shoot  # noqa: F401  (browser is a fixture)
from .test_club_matches_page import answer_club_match
from .test_seat_browser import TWO_WEEKS

pytestmark = pytest.mark.browser


def test_the_hosts_marker_beyond_its_declared_formation_goes_back_to_the_bench_with_the_rules_sentence(
        browser: Browser, served: Served) -> None:  # noqa: F811
    http, csrf = api_session(served)
    assert http.post("/api/actions/new-game", json=TWO_WEEKS, headers=csrf).status_code == 200
    play_until(http, csrf, "club_match", lineups=True)
    answer_club_match(http, csrf, stop="arrange")  # the Host declared a 4-4-2
    state = served.table.session.state
    host = state.slice(cm.NAME).fixtures[0].host
    name = state.club(host).name
    visits = Visits(browser, **PHONE)
    page = visits.page(served.url + f"/seat/{host}")
    page.fill("#seat-pin-value", PIN)
    page.click("#seat-pin button[type=submit]")
    expect(page.locator("#seat-arrange")).to_be_visible()
    jerseys = http.get("/api/state").json()["game"]["clubs"][host - 1]["limits"]["jerseys"]

    def place(jersey: int, zone: str) -> None:
        page.locator(f'#bench button[data-key="m{jersey}"]').click()
        page.locator(f'#pitch [data-zone="{zone}"] .zname').click()  # the zone, not a marker on it

    # four Defenders, as the 4-4-2 declared gives
    for jersey, zone in zip(jerseys, ("def_left", "def_right", "def_centre", "def_centre")):
        place(jersey, zone)
    expect(page.locator('#pitch [data-zone^="def_"] .token')).to_have_count(4)
    expect(page.locator("#lineup-msg")).to_have_text("")
    expect(page.locator("#counts")).to_contain_text("Defenders 4/4 · Midfielders 0/4 · Forwards 0/2")
    # a fifth Defender: named as it is placed, and back on the bench
    place(jerseys[4], "def_centre")
    why = cm.WRONG_SHAPE.format(seat=host, shape="4-4-2", half="first half", want=4, section="Defenders", got=5)
    expect(page.locator("#lineup-msg")).to_have_text(why.replace(f"Seat {host}", name))
    expect(page.locator('#pitch [data-zone^="def_"] .token')).to_have_count(4)
    expect(page.locator(f'#bench button[data-key="m{jerseys[4]}"]')).to_be_visible()
    shoot(page, "seat-arrange-beyond-the-formation")
    # put among the Midfielders instead, it is taken
    place(jerseys[4], "mid_centre")
    expect(page.locator("#lineup-msg")).to_have_text("")
    expect(page.locator('#pitch [data-zone="mid_centre"] .token')).to_have_count(1)
    # nothing was sent to the table: the Host has not arranged yet
    assert served.table.session.state.slice(cm.NAME).fixtures[0].arrangement(host) is None
    visits.context.close()
    http.close()
