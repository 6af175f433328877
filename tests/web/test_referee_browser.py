"""The Referee's choice as people see it, in Chromium on the real simulated table: when Unjust's Suspension token
fits several of a club's footballers (003 l.69: "Place a [Suspension token] on a Player card with any of these
tags"), the phone's Play page asks the club which, offering those footballers only, and the one chosen takes it."""

from __future__ import annotations

from typing import Any

import engine
import pytest
from playwright.sync_api import Browser, expect

from .conftest import Served, play_until
from .test_browser import PHONE, Visits, api_session, browser, shoot, unlock  # noqa: F401  (browser is a fixture)

pytestmark = pytest.mark.browser

# Seat 1 starts with Gordon McBride (NBL) and a Youngster showing STR: the referee's d12 face 1 watches both tags.
CLUBS = {"clubs": [{"seat": 1, "name": "Middleham Local Club", "directors": ["dir_04", "dir_05", "dir_06"],
                    "veteran": "vet_01", "youngster": "yg_10"},
                   {"seat": 2, "name": "Riverside Town"}],
         "modules": ["referee"], "options": {"weeks": 2}}
UNJUST, NBL_STR_SUP = 1, 1  # the d6 face of the Unjust referee, the d12 face watching NBL, STR and SUP


def _post(http: Any, csrf: dict[str, str], event: dict[str, Any]) -> None:
    response = http.post("/api/actions/event", json=event, headers=csrf)
    assert response.status_code == 200, response.text


def test_the_play_page_asks_which_footballer_the_referee_suspends_and_the_one_chosen_takes_the_token(
        browser: Browser, served: Served) -> None:  # noqa: F811
    http, csrf = api_session(served)
    assert http.post("/api/actions/new-game", json=CLUBS, headers=csrf).status_code == 200
    play_until(http, csrf, "matchday")
    profile = served.table.session.profile
    # seat 1 fields both its footballers, as the engine would place them
    _post(http, csrf, engine.fill_lineup(profile, served.table.session.state, 1))
    for face in (UNJUST, NBL_STR_SUP):
        _post(http, csrf, {"type": "roll", "seat": 1, "value": face})
        if any(n["need"] == "keep_or_reroll" and n["seat"] == 1 for n in served.table.session.state.awaiting):
            _post(http, csrf, {"type": "keep", "seat": 1})
    _post(http, csrf, {"type": "kickoff", "seat": 1})
    need = next(n for n in served.table.session.state.awaiting if n["need"] == "referee_suspend")
    assert sorted(need["cards"]) == ["vet_01", "yg_10"]
    names = {card: profile.cards[card].name for card in need["cards"]}

    visits = Visits(browser, **PHONE)
    phone = visits.context.new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    unlock(phone, served.url)
    phone.goto(served.url + "/play")
    ask = phone.locator('#asks .ask[data-seat="1"]').filter(has_text="who does the referee suspend?")
    expect(ask).to_be_visible()
    expect(ask).to_contain_text("Seat 1 (Middleham Local Club): who does the referee suspend?")
    # the footballers that fit, and no one else
    buttons = ask.get_by_role("button")
    expect(buttons).to_have_count(2)
    for name in names.values():
        expect(ask.get_by_role("button", name=f"Suspend {name} (1 token(s))")).to_be_visible()
    shoot(phone, "play-referee-suspend")
    ask.get_by_role("button", name=f"Suspend {names['yg_10']} (1 token(s))").click()
    expect(phone.locator("#asks-msg")).to_contain_text("Done")
    expect(phone.locator("#asks").filter(has_text="who does the referee suspend?")).to_have_count(0)
    club = served.table.session.state.club(1)
    assert club.held("yg_10").suspension == 1 and club.held("vet_01").suspension == 0  # type: ignore[union-attr]
    assert errors == []
    http.close()
    visits.context.close()
