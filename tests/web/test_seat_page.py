"""A seat's own page: opened by a tap of one of the club's cards on its own pad or by the PIN, for that seat only,
kept across a restart, ended by a new game; it sends only the club's own secret choices."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from device.serve import make_app
from web import errors
from device.running import RunningTable
from device.session import PHONE_WAITING, PHONE_WAITING_DETAIL, SEAT_PAGE_UNLOCKED
from web.security import CLAIM_SECONDS, COOKIE, seat_cookie

from .conftest import PIN, TWO_CLUBS, open_table, play_until


@contextmanager
def phone(client: TestClient) -> Iterator[TestClient]:
    """``client`` as a phone without the owner's PIN session (it is given back afterwards)."""
    owner = client.cookies.get(COOKIE)
    client.cookies.delete(COOKIE)
    try:
        yield client
    finally:
        if owner is not None:
            client.cookies.set(COOKIE, owner, domain="table.local")


def _tap(client: TestClient, pad: str, card: str) -> None:
    """A card on a pad of the simulated table, read before this returns (the owner's virtual table does it)."""
    assert client.post("/api/sim/place", json={"pad": pad, "card": card}, headers=_owner(client)).status_code == 200
    assert client.post("/api/sim/lift", json={"pad": pad}, headers=_owner(client)).status_code == 200


def _owner(client: TestClient) -> dict[str, str]:
    return {"x-csrf-token": client.get("/api/session").json()["csrf"] or ""}


def _club(game: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(c for c in game["clubs"] if c["seat"] == seat)


def test_a_tap_of_the_clubs_own_card_opens_its_page_for_that_browser_and_no_other_seat(
        client: TestClient, game: dict[str, str]) -> None:
    events_before = len(client.get("/api/log", params={"limit": 200}).json()["lines"])
    director = client.get("/api/state").json()["game"]["clubs"][1]["directors"][0]["id"]
    with phone(client) as p:
        assert p.get("/api/state", params={"seat": 2}).status_code == 403
        assert p.get("/api/seat/2/session").json()["unlocked"] is False
        waiting = p.post("/api/seat/2/claim")
        assert waiting.status_code == 200 and waiting.json()["message"] == errors.TAP_TO_UNLOCK.format(seat=2)
        assert p.post("/api/seat/2/claim/check").json()["waiting"] is True
    assert _screen(client, 2)[2:] == [PHONE_WAITING, *PHONE_WAITING_DETAIL]  # the seat's screen asks for the tap
    # Seat 2's Director on seat 1's pad is no unlock of seat 2; on seat 2's own pad it is.
    _tap(client, "seat1.tap", director)
    with phone(client) as p:
        assert p.post("/api/seat/2/claim/check").json() == {
            "seat": 2, "unlocked": False, "waiting": True, "message": errors.TAP_TO_UNLOCK.format(seat=2)}
    _tap(client, "seat2.tap", director)
    with phone(client) as p:
        granted = p.post("/api/seat/2/claim/check").json()
        assert granted["unlocked"] is True and granted["csrf"]
        assert p.post("/api/seat/2/claim/check").json()["unlocked"] is False  # once
        own = p.get("/api/state", params={"seat": 2}).json()["game"]
        assert _club(own, 2)["objective"] is not None and _club(own, 1)["objective"] is None
        # Seat 2's page opens nothing else: not seat 1's view, not the PIN's changes.
        refused = p.get("/api/state", params={"seat": 1})
        assert refused.status_code == 403 and refused.json()["detail"] == errors.SEAT_VIEW_NEEDS_PIN.format(seat=1)
        assert p.get("/api/live", params={"seat": 1}).status_code == 403
        assert p.get("/api/log", params={"seat": 1}).status_code == 403
        assert p.get("/api/seat/1/choices").status_code == 403
        assert p.get("/api/session").json()["unlocked"] is False
        assert p.post("/api/actions/undo", headers={"x-csrf-token": granted["csrf"]}).status_code == 403
    # The tap that unlocked was held for the phone, not played; the screen says so.
    assert len(client.get("/api/log", params={"limit": 200}).json()["lines"]) == events_before
    seat2 = _screen(client, 2)
    assert SEAT_PAGE_UNLOCKED in seat2 and any(line.endswith("/seat/2") for line in seat2)


def _screen(client: TestClient, seat: int) -> list[str]:
    """The lines of a seat's screen as the page shows them."""
    return next(s["lines"] for s in client.get("/api/state").json()["screens"].values() if s["seat"] == seat)


def test_a_seats_screen_asks_for_the_tap_only_while_its_page_waits(client: TestClient, table: RunningTable,
                                                                   game: dict[str, str]) -> None:
    before = _screen(client, 1)
    with phone(client) as p:
        p.post("/api/seat/1/claim")
    assert PHONE_WAITING in _screen(client, 1)
    table.session.clock.advance(CLAIM_SECONDS + 1)  # nobody tapped within the two minutes
    for _ in range(200):  # the table notices at its next tick
        if PHONE_WAITING not in _screen(client, 1):
            break
        client.portal.call(asyncio.sleep, 0.05)
    assert _screen(client, 1) == before


def test_a_newer_phone_waiting_for_the_seat_replaces_the_older_and_a_tap_without_a_wait_is_played(
        client: TestClient, game: dict[str, str]) -> None:
    director = client.get("/api/state").json()["game"]["clubs"][0]["directors"][0]["id"]
    with phone(client) as p:
        first = p.post("/api/seat/1/claim").cookies.get("touchline_claim_1")
        p.post("/api/seat/1/claim")  # another page asks for the seat since
        p.cookies.set("touchline_claim_1", first, domain="table.local")
    _tap(client, "seat1.tap", director)
    with phone(client) as p:
        gone = p.post("/api/seat/1/claim/check").json()
        assert gone == {"seat": 1, "unlocked": False, "waiting": False, "message": errors.CLAIM_GONE}
        assert p.get("/api/seat/1/session").json()["unlocked"] is False


def test_the_pin_typed_on_a_seat_page_opens_that_seat_only_and_the_owner_opens_every_seat(
        client: TestClient, game: dict[str, str]) -> None:
    owner = client.get("/api/seat/1/session").json()
    assert owner["unlocked"] is True and owner["owner"] is True  # the owner's PIN session opens every seat's page
    with phone(client) as p:
        wrong = p.post("/api/seat/1/unlock", json={"pin": "0000"})
        assert wrong.status_code == 403 and wrong.json()["detail"] == errors.WRONG_PIN
        right = p.post("/api/seat/1/unlock", json={"pin": PIN})
        assert right.status_code == 200 and seat_cookie(1) in right.cookies
        assert p.get("/api/seat/1/session").json()["owner"] is False
        assert p.get("/api/state", params={"seat": 1}).status_code == 200
        assert p.get("/api/state", params={"seat": 2}).status_code == 403
        assert p.get("/api/session").json()["unlocked"] is False
        assert p.post("/api/seat/1/lock").json()["unlocked"] is False
        assert p.get("/api/state", params={"seat": 1}).status_code == 403
        absent = p.post("/api/seat/3/unlock", json={"pin": PIN})
        assert absent.status_code == 409 and absent.json()["detail"] == errors.SEAT_NOT_IN_GAME.format(seat=3)


def test_a_seat_page_sends_only_its_own_clubs_secret_choices(client: TestClient, game: dict[str, str]) -> None:
    with phone(client) as p:
        csrf = {"x-csrf-token": p.post("/api/seat/1/unlock", json={"pin": PIN}).json()["csrf"]}
        passing = p.post("/api/seat/1/event", json={"type": "pass", "seat": 1}, headers=csrf)
        assert passing.status_code == 403 and "not 'pass'" in passing.json()["detail"]
        other = p.post("/api/seat/1/event", json={"type": "bet", "seat": 2, "on": ["3/1/0/0"]}, headers=csrf)
        assert other.status_code == 403 and other.json()["detail"] == errors.OTHER_SEAT_EVENT.format(seat=1)
        forged = p.post("/api/seat/1/event", json={"type": "bet", "seat": 1, "on": ["3/1/0/0"]})
        assert forged.status_code == 403 and forged.json()["detail"] == errors.CSRF_FAILED
        # Marked as its own, for its own seat: the rules decide (no Betting in this game).
        refused = p.post("/api/seat/1/event", json={"type": "bet", "seat": 1, "on": ["3/1/0/0"]}, headers=csrf)
        assert refused.status_code == 409
        assert p.get("/api/seat/1/choices").json() == {"asks": []}


def test_the_qr_code_holds_the_seats_page_address(client: TestClient) -> None:
    answer = client.get("/api/seat/3/qr.svg")
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/svg+xml"
    assert b"<title>http://table.local/seat/3</title>" in answer.content
    assert client.get("/api/seat/5/qr.svg").status_code == 422
    page = client.get("/seat/2")
    assert page.status_code == 200 and "seat.js" in page.text and 'id="pitch"' in page.text


def test_a_seat_page_stays_open_across_a_restart_and_closes_with_a_new_game(tmp_path: Path) -> None:
    def served() -> tuple[Any, TestClient]:
        table = open_table(tmp_path / "touchline.db")
        return table, TestClient(make_app(table), base_url="http://127.0.0.1")

    table, browser = served()
    with browser:
        browser.portal.call(table.start)
        csrf = {"x-csrf-token": browser.post("/api/session", json={"pin": PIN}).json()["csrf"]}
        assert browser.post("/api/actions/new-game", json=TWO_CLUBS, headers=csrf).status_code == 200
        token = browser.post("/api/seat/2/unlock", json={"pin": PIN}).cookies[seat_cookie(2)]
        browser.portal.call(table.stop)
    table.session.store.close()
    table, browser = served()
    with browser:
        browser.portal.call(table.start)
        browser.cookies.set(seat_cookie(2), token)
        assert browser.get("/api/state", params={"seat": 2}).status_code == 200
        owner = {"x-csrf-token": browser.post("/api/session", json={"pin": PIN}).json()["csrf"]}
        assert browser.post("/api/actions/new-game", json=TWO_CLUBS, headers=owner).status_code == 200
        browser.cookies.delete(COOKIE)
        assert browser.get("/api/state", params={"seat": 2}).status_code == 403
        browser.portal.call(table.stop)
    table.session.store.close()


def test_a_seats_page_places_its_bet_in_secret_and_offers_no_other_seats_choices(
        client: TestClient, game: dict[str, str]) -> None:
    betting = {**TWO_CLUBS, "modules": ["betting"], "options": {"weeks": 2}}
    assert client.post("/api/actions/new-game", json=betting, headers=game).status_code == 200
    play_until(client, game, "betting")
    with phone(client) as p:
        csrf = {"x-csrf-token": p.post("/api/seat/1/unlock", json={"pin": PIN}).json()["csrf"]}
        (ask,) = p.get("/api/seat/1/choices").json()["asks"]
        # the bet itself is the seat's own; passing is done at the table (or the Play page), so it is not offered
        assert ask["need"] == "bet" and [o["event"]["type"] for o in ask["options"]] == ["bet"]
        assert ask["hint"].endswith(errors.ELSEWHERE)
        assert p.get("/api/seat/2/choices").status_code == 403
        where = next(c["value"] for c in ask["options"][0]["fields"][0]["choices"] if "corner" in c["label"])
        placed = p.post("/api/seat/1/event", json={**ask["options"][0]["event"], "on": where, "stake": 0}, headers=csrf)
        assert placed.status_code == 200, placed.text
        own = p.get("/api/state", params={"seat": 1}).json()["game"]["modules"]["betting"]["bets"][0]
        assert own["on"] == where.split("|") and own["stake"] == 0
        assert p.get("/api/seat/1/choices").json() == {"asks": []}  # answered
    public = client.get("/api/state").json()["game"]["modules"]["betting"]["bets"][0]
    assert public == {"seat": 1, "answered": True, "placed": True, "secret": True}


@pytest.mark.slow
def test_at_the_winter_break_a_seats_page_offers_its_two_objectives_and_nobody_elses_page_does() -> None:
    """003 l.477: each club says which of its two Objectives it fulfilled before the break, or discards one."""
    import asyncio
    import json
    import tempfile

    from device.replay import parse, run_step
    from device.session import SECRET_LINE
    from device.sim import SimulatedTable

    from .test_no_leak import SCENARIOS, Viewers, asgi_get

    scenario = parse(SCENARIOS / "epic-league-game.toml")
    with tempfile.TemporaryDirectory() as tmp, SimulatedTable.open(Path(tmp) / "t.db", dice=scenario.dice) as table:
        for step in scenario.steps:
            run_step(table, step)
            if any(w.get("need") == "winter_objective" for w in table.session.state.awaiting):
                break
        viewers = Viewers(table)
        viewers.unlock_seats()
        state, profile = table.session.state, table.session.profile
        held = [state.club(1).objective, dict(state.slice("epic_league").second)[1]]

        def get(path: str, viewer: int | str) -> dict[str, Any]:
            return json.loads(asyncio.run(asgi_get(viewers.app, path, "", viewers.cookies[viewer])))

        (ask,) = get("/api/seat/1/choices", 1)["asks"]
        assert ask["need"] == "winter_objective"
        assert {(o["event"]["card"], o["event"]["result"]) for o in ask["options"]} == {
            (c, r) for c in held for r in ("fulfilled", "perfect", "missed")}
        assert profile.cards[held[1]].name in {o["label"].split(": ")[-1].removeprefix("discard ") for o in ask["options"]}
        # the Play page (the table's view) has no such ask, and seat 2's page cannot read seat 1's
        assert not [a for a in get("/api/choices", "table")["asks"] if a["need"] == "winter_objective"]
        assert get("/api/seat/1/choices", 2)["detail"] == errors.SEAT_VIEW_NEEDS_PIN.format(seat=1)
        # A seat taps the Objective it fulfilled: its own screen names it, the page shows that line to nobody else,
        # and the virtual table's frame of that screen is the owner's only until the next change.
        steps = iter(scenario.steps[scenario.steps.index(step) + 1:])
        while not any(SECRET_LINE in s["lines"] for s in table.session.snapshot("table")["screens"].values()):
            run_step(table, next(steps))
        screen = next(sid for sid, s in table.session.snapshot("table")["screens"].items() if SECRET_LINE in s["lines"])
        seat = table.session.screen_seat[screen]
        assert SECRET_LINE not in table.session.snapshot(seat)["screens"][screen]["lines"]
        frame = f"/api/sim/screens/{screen}.png"
        assert get(frame, "table")["detail"] == errors.SCREEN_SECRET
        owner = f"{COOKIE}={viewers.app.state.guard.login(PIN)}"
        assert asyncio.run(asgi_get(viewers.app, frame, "", owner)).startswith(b"\x89PNG")
