"""The Epic League on the page (003 l.436–556): no club's Objective reaches a public route, neither at setup nor when
a club discards one at the Winter Break; the Play page offers Winter Training's steps and the Table page shows the
break, the tokens and the VP table."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, expect

import engine
from engine.modules import epic_league as epic

from .conftest import PIN, TWO_CLUBS, Served, play_until
from .test_browser import Visits, api_session, browser, shoot  # noqa: F401  (browser is a fixture)

EPIC = {**TWO_CLUBS, "modules": ["epic_league"]}
PUBLIC_ROUTES = ("/api/state", "/api/log", "/api/choices")


def objective_ids() -> list[str]:
    profile = engine.load_profile()
    return list(profile.module_data[epic.NAME][epic.DATA_FILE].objectives)


def leaked(client: TestClient) -> list[str]:
    """The mode's Objective card ids (or names) found on any public route by a browser without the PIN."""
    profile = engine.load_profile()
    with TestClient(client.app, base_url="http://table.local") as stranger:
        text = json.dumps([stranger.get(route).json() for route in PUBLIC_ROUTES])
    return [c for c in objective_ids() if c in text or profile.cards[c].name.replace("'", "\\u2019") in text
            or profile.cards[c].name in text]


def to_winter_break(client: httpx.Client | TestClient, csrf: dict[str, str]) -> dict[str, Any]:
    assert client.post("/api/actions/new-game", json=EPIC, headers=csrf).status_code == 200
    return play_until(client, csrf, epic.STAGE, limit=2000, lineups=True)


def test_no_objective_reaches_a_public_route_at_setup_nor_when_one_is_discarded_at_the_winter_break(
        client: TestClient, csrf: dict[str, str], table: Any) -> None:
    to_winter_break(client, csrf)
    assert leaked(client) == []
    state = table.session.state
    second = state.slice(epic.NAME).second_of(1)
    # seat 1 discards its second Objective (nothing fulfilled): which one stays secret
    answer = {"type": "winter_objective", "seat": 1, "card": second, "result": "missed"}
    assert client.post("/api/actions/event", json=answer, headers=csrf).status_code == 200
    assert leaked(client) == []
    # seat 2 scores one: that card is shown, the other one is not
    scored = table.session.state.club(2).objective
    answer = {"type": "winter_objective", "seat": 2, "card": scored, "result": "fulfilled"}
    assert client.post("/api/actions/event", json=answer, headers=csrf).status_code == 200
    assert leaked(client) == [scored]


@pytest.mark.browser
def test_the_play_page_offers_winter_training_and_the_table_page_shows_the_break(browser: Browser, served: Served) -> None:  # noqa: F811
    http, csrf = api_session(served)
    to_winter_break(http, csrf)
    state = served.table.session.state
    for seat in (1, 2):
        answer = {"type": "winter_objective", "seat": seat, "card": state.club(seat).objective, "result": "missed"}
        assert http.post("/api/actions/event", json=answer, headers=csrf).status_code == 200
    while http.get("/api/state").json()["game"]["modules"][epic.NAME]["step"] == "transfer":
        turn = http.get("/api/state").json()["game"]["turn"]
        assert http.post("/api/actions/event", json={"type": "pass", "seat": turn}, headers=csrf).status_code == 200
    visits = Visits(browser, viewport={"width": 1366, "height": 900})
    play = visits.page(served.url + "/play")
    play.locator("#play-lock input[type=password]").fill(PIN)
    play.locator("#play-lock button[type=submit]").click()
    ask = play.locator('.ask[data-need="winter_tokens"]')
    expect(ask).to_contain_text("3 Winter Break tokens for round 1 of Winter Training")
    selects = ask.locator("select")
    expect(selects).to_have_count(3)
    for i, kind in enumerate(("strength", "attacker", "cheaper")):
        selects.nth(i).select_option(kind)
    shoot(play, "play-winter-tokens")
    ask.locator("button", has_text="These tokens").click()
    pick = play.locator('.ask[data-need="winter_pick"]')
    expect(pick).to_contain_text("choose a Winter Break token")
    expect(pick.locator("button")).to_have_count(3)
    pick.locator("button", has_text="Take Strength 3").click()
    expect(play.locator('.ask[data-need="winter_pick"] button')).to_have_count(2)
    table = visits.page(served.url + "/")
    box = table.locator("#epic-league")
    expect(box).to_be_visible()
    expect(box).to_contain_text("VP by League position — 1: 24, 2: 20, 3: 16")
    expect(box).to_contain_text("12+: -9")
    expect(box.locator("#winter-step")).to_contain_text("Winter Training, round 1 of 3: the draft")
    expect(box.locator("#winter-drafted")).to_contain_text("Strength 3")
    expect(box.locator("#winter-objectives")).to_contain_text("no Objective fulfilled before the break")
    shoot(table, "table-epic-league")
    http.close()
    visits.context.close()
