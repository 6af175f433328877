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


def test_in_the_second_half_the_marker_the_visitors_formation_has_no_place_for_is_marked_and_moved(
        browser: Browser, served: Served) -> None:  # noqa: F811
    """l.156: the Visitor declares a 5-3-2 for the second half; its page shows the first half's 4-4-2, the marker
    beyond three Midfielders is marked with the engine's sentence, and moved among the Defenders it is taken."""
    http, csrf = api_session(served)
    assert http.post("/api/actions/new-game", json=TWO_WEEKS, headers=csrf).status_code == 200
    play_until(http, csrf, "club_match", lineups=True)
    answer_club_match(http, csrf, stop="half")
    fixture = served.table.session.state.slice(cm.NAME).fixtures[0]
    for seat in fixture.seats:
        assert http.post("/api/actions/event", json={"type": "pass", "seat": seat}, headers=csrf).status_code == 200
    visitor = fixture.visitor
    shape = {"type": "formation", "seat": visitor, "shape": "5-3-2"}
    assert http.post("/api/actions/event", json=shape, headers=csrf).status_code == 200
    club = http.get("/api/state").json()["game"]["clubs"][visitor - 1]
    first_half = club["match"]["lineup"]
    mids = [p for p in first_half if p["zone"].startswith("mid_")]
    assert len(mids) == 4  # the first half's 4-4-2
    visits = Visits(browser, **PHONE)
    page = visits.page(served.url + f"/seat/{visitor}")
    page.fill("#seat-pin-value", PIN)
    page.click("#seat-pin button[type=submit]")
    expect(page.locator("#seat-arrange")).to_be_visible()
    expect(page.locator("#pitch .token")).to_have_count(10)
    expect(page.locator("#counts")).to_contain_text("Defenders 4/5 · Midfielders 4/3 · Forwards 2/2")
    why = cm.WRONG_SHAPE.format(seat=visitor, shape="5-3-2", half="second half", want=3, section="Midfielders", got=4)
    expect(page.locator("#lineup-msg")).to_have_text(why.replace(f"Seat {visitor}", club["name"]))
    fourth = mids[3]
    key = f'm{fourth["jersey"]}' if fourth["card"] is None else fourth["card"]
    expect(page.locator("#pitch .token.refused")).to_have_count(1)
    expect(page.locator(f'#pitch .token.refused[data-key="{key}"]')).to_be_visible()
    expect(page.get_by_role("button", name="Record the lineup")).to_be_disabled()
    shoot(page, "seat-second-half-beyond-the-formation")
    # the marked marker taken back and put among the Defenders: the 5-3-2 is kept and recorded
    page.locator(f'#pitch .token[data-key="{key}"]').click()
    page.locator(f'#bench button[data-key="{key}"]').click()
    page.locator('#pitch [data-zone="def_centre"] .zname').click()
    expect(page.locator("#lineup-msg")).to_contain_text("the rules take this lineup")
    expect(page.locator("#counts")).to_contain_text("Defenders 5/5 · Midfielders 3/3 · Forwards 2/2")
    # or cleared and filled by the engine: the first half's markers in the 5-3-2
    page.get_by_role("button", name="Clear").click()
    expect(page.locator("#pitch .token")).to_have_count(0)
    page.get_by_role("button", name="Fill the rest").click()
    expect(page.locator("#lineup-msg")).to_contain_text("The rest is placed as the table would")
    expect(page.locator("#counts")).to_contain_text("Defenders 5/5 · Midfielders 3/3 · Forwards 2/2")
    page.get_by_role("button", name="Record the lineup").click()
    expect(page.locator("#lineup-msg")).to_contain_text("Arranged in secret for the second half")
    assert served.table.session.state.slice(cm.NAME).fixtures[0].arrangement(visitor) is not None
    visits.context.close()
    http.close()
