"""League matches between clubs on the page (003 l.100–167): the secret arrangements stay off every public route
until both clubs have arranged; the Play page offers the formations and the passes; the Table page shows the Host
and the Visitor and both halves pair by pair.

A two-club game of two weeks plays an Opponent card in week 1 and the clubs' match in week 2 (the two-club
schedule's last row, 003 l.104–110).  Whatever jersey markers a public route shows once a club has arranged in secret
must be exactly those it showed before: anything more is the secret leaking.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, expect

from tests.e2e.touchline_run import TouchlineRun

from .conftest import TWO_CLUBS, _lineup, play_until
from .test_browser import Visits, browser, shoot  # noqa: F401  (browser is a fixture)

TWO_WEEKS = {**TWO_CLUBS, "modules": ["club_matches"], "options": {"weeks": 2}}
PUBLIC_ROUTES = ("/api/state", "/api/log", "/api/choices")


def placed_markers(payload: Any) -> list[dict[str, Any]]:
    """Every jersey marker placed in a zone anywhere in a JSON payload (a lineup, an arrangement, a reveal)."""
    found: list[dict[str, Any]] = []
    if isinstance(payload, dict):
        if "zone" in payload and "jersey" in payload:
            found.append(payload)
        for value in payload.values():
            found.extend(placed_markers(value))
    elif isinstance(payload, list):
        for value in payload:
            found.extend(placed_markers(value))
    return found


def arrangement(client: httpx.Client | TestClient, seat: int) -> dict[str, Any]:
    """Ten plain jersey markers for the seat, 4-4-2, as its secret arrangement."""
    game = client.get("/api/state").json()["game"]
    club = next(c for c in game["clubs"] if c["seat"] == seat)
    return {**_lineup(club, client.get("/api/rules").json()["pitch"]), "type": "arrange"}


def answer_club_match(client: httpx.Client | TestClient, csrf: dict[str, str], stop: str = "") -> dict[str, Any]:
    """Play the match between clubs from the page until ``stop`` is awaited (or the match is over): 4-4-2 declared,
    ten markers arranged, every ability turn passed, the tie-break won by the Host."""
    for _ in range(100):
        game = client.get("/api/state").json()["game"]
        waits = [w for w in game["awaiting"] if w.get("seat")]
        if game["stage"] != "club_match" or not waits:
            return game
        wait = waits[0]
        seat, need = wait["seat"], wait["need"]
        if need == stop:
            return game
        if need == "formation":
            event = {"type": "formation", "seat": seat, "shape": "4-4-2"}
        elif need == "arrange":
            event = arrangement(client, seat)
            if wait["half"] == 2:
                event = {"type": "arrange", "seat": seat, "players": event["players"]}
        elif need in ("abilities", "half"):
            event = {"type": "pass", "seat": seat}
        elif need == "roll":
            hosts = {f["host"] for f in game["modules"]["club_matches"]["fixtures"]}
            value = (6 if seat in hosts else 1) if wait.get("purpose") == "club_tiebreak" else 3
            event = {"type": "roll", "seat": seat, "value": value}
        elif need == "keep_or_reroll":
            event = {"type": "keep", "seat": seat}
        else:
            raise AssertionError(f"cannot answer {wait}")
        response = client.post("/api/actions/event", json=event, headers=csrf)
        if need == "keep_or_reroll" and response.status_code == 409:
            continue  # a running table keeps a roll by itself when its reroll window closes: it just did
        assert response.status_code == 200, response.text
    raise AssertionError("the match between clubs did not end")


def public_payloads(client: TestClient) -> dict[str, Any]:
    """What a browser without the PIN reads on every public route now."""
    return {route: client.get(route).json() for route in PUBLIC_ROUTES}


def test_no_secret_arrangement_reaches_a_public_route_before_both_clubs_have_arranged(
        client: TestClient, csrf: dict[str, str]) -> None:
    assert client.post("/api/actions/new-game", json=TWO_WEEKS, headers=csrf).status_code == 200
    game = play_until(client, csrf, "club_match", lineups=True)
    fixture = game["modules"]["club_matches"]["fixtures"][0]
    host, visitor = fixture["host"], fixture["visitor"]
    answer_club_match(client, csrf, stop="arrange")
    with TestClient(client.app, base_url="http://table.local") as stranger:
        before = placed_markers(public_payloads(stranger))
    first = arrangement(client, host)
    assert client.post("/api/actions/event", json=first, headers=csrf).status_code == 200
    # the Host has arranged in secret: nothing of it on any public route, nor on the other club's screen
    with TestClient(client.app, base_url="http://table.local") as stranger:
        seen = public_payloads(stranger)
    assert placed_markers(seen) == before
    fixture = seen["/api/state"]["game"]["modules"]["club_matches"]["fixtures"][0]
    assert fixture["arranged"] == [host] and fixture["secret"] == {}
    screens = json.dumps(seen["/api/state"]["screens"])
    assert "def_" not in screens and "mid_" not in screens
    # the Visitor arranges: both are revealed together, and now the page shows them
    assert client.post("/api/actions/event", json=arrangement(client, visitor), headers=csrf).status_code == 200
    with TestClient(client.app, base_url="http://table.local") as stranger:
        revealed = placed_markers(public_payloads(stranger))
    assert len(revealed) > len(before)
    assert {(m["zone"], m["jersey"]) for m in revealed} >= {(m["zone"], m["jersey"]) for m in first["players"]}


def at_second_half(client: TestClient, csrf: dict[str, str]) -> dict[str, Any]:
    """A new two-club game of two weeks played from the page to its match between clubs, the first half played and
    the second half's formation declared: the game as the page reads it while the clubs arrange in secret."""
    assert client.post("/api/actions/new-game", json=TWO_WEEKS, headers=csrf).status_code == 200
    play_until(client, csrf, "club_match", lineups=True)
    answer_club_match(client, csrf, stop="half")
    answer_club_match(client, csrf, stop="formation")  # the first half is played; the Visitor declares
    game = answer_club_match(client, csrf, stop="arrange")
    assert game["modules"]["club_matches"]["fixtures"][0]["half"] == 2
    return game


def test_the_second_halfs_arrangement_stays_secret_too(client: TestClient, csrf: dict[str, str]) -> None:
    game = at_second_half(client, csrf)
    fixture = game["modules"]["club_matches"]["fixtures"][0]
    visitor = fixture["visitor"]
    # the Visitor moves one of its central forwards to the right wing for the second half, in secret
    lineup = game["clubs"][[c["seat"] for c in game["clubs"]].index(visitor)]["match"]["lineup"]
    players = [dict(m) for m in lineup]
    next(m for m in players if m["zone"] == "fwd_centre")["zone"] = "fwd_right"
    second = {"type": "arrange", "seat": visitor, "players": players}
    with TestClient(client.app, base_url="http://table.local") as stranger:
        before = placed_markers(public_payloads(stranger))
    response = client.post("/api/actions/event", json=second, headers=csrf)
    assert response.status_code == 200, response.text
    with TestClient(client.app, base_url="http://table.local") as stranger:
        seen = public_payloads(stranger)
    assert not [m for m in placed_markers(seen) if m["zone"] == "fwd_right" and m not in before]


@pytest.mark.browser
def test_the_table_page_shows_host_and_visitor_and_both_halves_pair_by_pair(browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    with TouchlineRun(tmp_path / "t.db") as running, httpx.Client(base_url=running.url, timeout=10) as http:
        csrf = running.unlock(http)
        assert http.post("/api/actions/new-game", json=TWO_WEEKS, headers=csrf).status_code == 200
        play_until(http, csrf, "club_match", lineups=True)
        visits = Visits(browser, viewport={"width": 1366, "height": 900})
        play = visits.page(running.url + "/play")
        play.locator("#play-lock input[type=password]").fill(running.pin)
        play.click("#play-lock button[type=submit]")
        ask = play.locator('.ask[data-need="formation"]')
        expect(ask).to_contain_text("declare your formation for the first half")
        expect(ask.locator("button", has_text="Play a 4-4-2")).to_be_visible()
        shoot(play, "play-club-match-formation")
        ask.locator("button", has_text="Play a 4-4-2").click()
        expect(play.locator("#play-status")).to_contain_text("arrange the jersey markers for the first half in secret")
        game = answer_club_match(http, csrf)
        fixture = game["modules"]["club_matches"]["fixtures"][0]
        host, visitor = fixture["host"], fixture["visitor"]
        table = visits.page(running.url + "/")
        box = table.locator("#club-matches")
        expect(box).to_be_visible()
        expect(box.locator("h3")).to_contain_text(f"(Host, seat {host})")
        expect(box.locator("h3")).to_contain_text(f"(Visitor, seat {visitor})")
        for half in (1, 2):
            rows = box.locator(f'.half[data-half="{half}"] tbody tr')
            expect(rows).to_have_count(9)  # five pairs of sections: three central zones and two wings of three
            expect(box.locator(f'.half[data-half="{half}"] tbody th')).to_have_count(5)
        first = box.locator('.half[data-half="1"] tbody th').first
        expect(first).to_have_text(f"Central Defenders of Seat {host} against Central Forwards of Seat {visitor}")
        second = box.locator('.half[data-half="2"] tbody th').first
        expect(second).to_have_text(f"Central Defenders of Seat {visitor} against Central Forwards of Seat {host}")
        names = {c["seat"]: c["name"] for c in game["clubs"]}
        for half in (1, 2):  # the columns name the clubs, as players call them
            head = box.locator(f'.half[data-half="{half}"] thead')
            expect(head).to_contain_text(f"{names[host]} attacks")
            expect(head).to_contain_text(f"{names[visitor]} attacks")
        shoot(table, "table-club-match")
        visits.context.close()
