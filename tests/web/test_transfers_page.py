"""Transferring Players on the page (003 l.27–30, l.45): the Play page's steps for what the table cannot sense, an
offer for another club's footballer (which one, how many €) and its owner's answer, an auction's bids and passes;
New game offers the module as the engine describes it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, expect

import engine
from device.running import RunningTable
from device.table_file import SIM_TABLE

from tests.e2e.touchline_run import TouchlineRun

from .conftest import PIN, TWO_CLUBS, play_until, unlock
from .test_seat_page import phone
from .test_browser import browser, shoot  # noqa: F401  (browser is a fixture)
from .test_module_cards_page import admin_unlocked

GAME = {**TWO_CLUBS, "modules": ["transfers"], "options": {"weeks": 2}}


def _asks(client: TestClient | httpx.Client, need: str) -> list[dict[str, Any]]:
    return [a for a in client.get("/api/choices").json()["asks"] if a["need"] == need]


def _game(client: TestClient | httpx.Client) -> dict[str, Any]:
    return client.get("/api/state").json()["game"]  # type: ignore[no-any-return]


def _club(game: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(c for c in game["clubs"] if c["seat"] == seat)


def test_the_play_page_makes_an_offer_and_its_owner_declines_then_accepts(client: TestClient, table: RunningTable) -> None:
    csrf = unlock(client)
    assert client.post("/api/actions/new-game", json=GAME, headers=csrf).status_code == 200
    game = play_until(client, csrf, "tuesday")
    seat, other = game["turn"], 3 - game["turn"]
    (ask,) = _asks(client, "transfers")
    assert ask["seat"] == seat
    offer = next(o for o in ask["options"] if o["event"]["type"] == "offer")
    which, amount = offer["fields"]
    wanted = _club(game, other)["players"][0]["id"]
    assert wanted in [c["value"] for c in which["choices"]]  # the other club's footballers, never its own
    assert not {p["id"] for p in _club(game, seat)["players"]} & {c["value"] for c in which["choices"]}
    budget = _club(game, seat)["resources"]["budget"]
    assert [c["value"] for c in amount["choices"]] == [str(n) for n in range(budget + 1)] and amount["number"] is True
    sent = {**offer["event"], "card": wanted, "amount": 1}
    assert client.post("/api/actions/event", json=sent, headers=csrf).status_code == 200
    assert _asks(client, "transfers") == []  # nothing else happens while the offer waits
    (answer,) = _asks(client, "offer_answer")
    assert answer["seat"] == other and [o["event"]["type"] for o in answer["options"]] == ["accept_offer", "decline_offer"]
    assert client.post("/api/actions/event", json=answer["options"][1]["event"], headers=csrf).status_code == 200
    assert _game(client)["modules"]["transfers"]["declined"] == {str(seat): 1}
    # an offer beyond the club's money is refused in the engine's words, and changes nothing
    refused = client.post("/api/actions/event", json={**sent, "amount": budget + 1}, headers=csrf)
    assert refused.status_code == 409 and "cannot offer" in refused.json()["detail"]
    assert client.post("/api/actions/event", json=sent, headers=csrf).status_code == 200
    (answer,) = _asks(client, "offer_answer")
    assert client.post("/api/actions/event", json=answer["options"][0]["event"], headers=csrf).status_code == 200
    game = _game(client)
    assert wanted in {p["id"] for p in _club(game, seat)["players"]}
    assert _club(game, seat)["resources"]["budget"] == budget - 1
    assert game["modules"]["transfers"]["last"]["kind"] == "offer"


def test_the_play_page_bids_and_passes_in_an_auction(client: TestClient, table: RunningTable) -> None:
    csrf = unlock(client)
    assert client.post("/api/actions/new-game", json=GAME, headers=csrf).status_code == 200
    game = play_until(client, csrf, "tuesday")
    seat = game["turn"]
    (ask,) = _asks(client, "transfers")
    auction = next(o for o in ask["options"] if o["event"]["type"] == "auction")
    assert auction["label"].startswith("Auction ") and "(asking" in auction["label"]
    assert client.post("/api/actions/event", json={**auction["event"], "ask": 1}, headers=csrf).status_code == 200
    (bid,) = _asks(client, "bid")
    assert bid["seat"] == 3 - seat and bid["options"][0]["event"] == {"type": "bid", "seat": 3 - seat, "amount": 1}
    assert bid["options"][2]["event"] == {"type": "bid_pass", "seat": 3 - seat}
    assert client.post("/api/actions/event", json=bid["options"][2]["event"], headers=csrf).status_code == 200
    last = _game(client)["modules"]["transfers"]["last"]
    assert last["buyer"] == 0 and last["seller"] == seat  # nobody bid: sold to the supply for his Strength


def test_a_seat_page_makes_the_clubs_offer_and_the_owners_page_answers_it(client: TestClient, table: RunningTable) -> None:
    """An offer and its answer are a club's own choices: each seat's own page offers and sends them, for its seat only."""
    csrf = unlock(client)
    assert client.post("/api/actions/new-game", json=GAME, headers=csrf).status_code == 200
    game = play_until(client, csrf, "tuesday")
    seat, other = game["turn"], 3 - game["turn"]
    wanted = _club(game, other)["players"][0]["id"]
    with phone(client) as p:
        mine = {"x-csrf-token": p.post(f"/api/seat/{seat}/unlock", json={"pin": PIN}).json()["csrf"]}
        (ask,) = p.get(f"/api/seat/{seat}/choices").json()["asks"]
        assert [o["event"]["type"] for o in ask["options"]] == ["offer"]  # the auction is the turn's, said at the table
        offer = {**ask["options"][0]["event"], "card": wanted, "amount": 1}
        assert p.post(f"/api/seat/{seat}/event", json=offer, headers=mine).status_code == 200
        # the owner's answer belongs to the owner's page only
        accept = {"type": "accept_offer", "seat": other}
        assert p.post(f"/api/seat/{seat}/event", json=accept, headers=mine).status_code == 403
        theirs = {"x-csrf-token": p.post(f"/api/seat/{other}/unlock", json={"pin": PIN}).json()["csrf"]}
        (answer,) = p.get(f"/api/seat/{other}/choices").json()["asks"]
        assert [o["event"] for o in answer["options"]] == [accept, {"type": "decline_offer", "seat": other}]
        assert p.post(f"/api/seat/{other}/event", json=accept, headers=theirs).status_code == 200
    assert wanted in {h["id"] for h in _club(_game(client), seat)["players"]}


@pytest.mark.browser
def test_new_game_offers_transferring_players_and_the_play_page_makes_an_offer(browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    table_file = tmp_path / "table.toml"  # the owner's default game: Transferring Players
    table_file.write_text(SIM_TABLE.read_text() + '\n[game]\nmodules = ["transfers"]\n')
    with TouchlineRun(tmp_path / "t.db", table=table_file) as running, httpx.Client(base_url=running.url, timeout=10) as http:
        csrf = running.unlock(http)
        visits, page = admin_unlocked(browser, running)
        described = {m["name"]: m for m in engine.modules(engine.load_profile())}
        module = page.locator('#modules .module[data-module="transfers"]')
        expect(module.locator("input[name=module]")).to_be_checked()
        expect(module).to_contain_text(described["transfers"]["doc"])
        module.scroll_into_view_if_needed()
        shoot(page, "admin-transfers")
        page.click("#newgame-start")
        expect(page.locator("#newgame-msg")).to_contain_text("The game has started")
        assert _game(http)["game"]["modules"] == ["transfers"]
        game = play_until(http, csrf, "tuesday")
        seat = game["turn"]
        other = next(c for c in game["clubs"] if c["seat"] != seat)
        wanted = other["players"][0]
        page.goto(running.url + "/play")
        ask = page.locator(f'.ask[data-need="transfers"][data-seat="{seat}"]')
        expect(ask).to_contain_text("sell to another club, or hire from one")
        offer = ask.locator('.choice[data-type="offer"]')
        offer.locator('select[data-name="card"]').select_option(wanted["id"])
        offer.locator('select[data-name="amount"]').select_option("2")
        shoot(page, "play-transfers-offer")
        offer.get_by_role("button", name="Make the offer").click()
        answer = page.locator(f'.ask[data-need="offer_answer"][data-seat="{other["seat"]}"]')
        expect(answer).to_contain_text(f"offers 2 € for {wanted['name']}")
        shoot(page, "play-transfers-answer")
        answer.get_by_role("button", name="Accept the offer").click()
        expect(page.locator('.ask[data-need="offer_answer"]')).to_have_count(0)
        moved = next(c for c in _game(http)["clubs"] if c["seat"] == seat)
        assert wanted["id"] in {p["id"] for p in moved["players"]}
        table = visits.page(running.url + "/")
        expect(table.locator('.module-panel[data-module="transfers"]')).to_contain_text("No auction or offer is open.")
        visits.context.close()
