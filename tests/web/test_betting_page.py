"""Betting on the page: the Play page's bet for a club (a place of the Bet board and € of its own, or none), the
table's Opponent cards under the remaining tokens, and the new game's dealing of them (003 l.377–432)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

import engine
from device.running import RunningTable
from engine.modules import betting as B
from web import choices
from web.actions import NewGame
from web.setup import setup_events

from .conftest import TWO_CLUBS, play_until, unlock

BETTING = {**TWO_CLUBS, "modules": ["betting"], "options": {"weeks": 2}}


def _asks(client: TestClient) -> list[dict[str, Any]]:
    return client.get("/api/choices").json()["asks"]  # type: ignore[no-any-return]


def test_a_new_game_with_fewer_than_four_clubs_deals_the_remaining_tokens_on_cards_nobody_was_dealt() -> None:
    profile = engine.load_profile()
    events = setup_events(profile, NewGame(**BETTING))
    cards = next(e for e in events if e["type"] == "betting_cards")["cards"]
    assert len(cards) == 2 and events[-1]["type"] == "first_player"
    dealt = {c for e in events if e["type"] == "opponents" for c in e["cards"]}
    assert not set(cards) & dealt
    assert engine.replay(profile, events).slice("betting").cards == tuple(cards)


def test_the_play_page_places_a_clubs_bet_and_the_other_club_skips(client: TestClient, table: RunningTable) -> None:
    csrf = unlock(client)
    assert client.post("/api/actions/new-game", json=BETTING, headers=csrf).status_code == 200
    play_until(client, csrf, "betting")
    asks = _asks(client)
    assert [(a["seat"], a["need"]) for a in asks] == [(1, "bet"), (2, "bet")]
    ask = asks[0]
    pay = B.board_of(table.profile).pay
    assert ask["hint"] == choices.BET_HINT.format(**pay)
    bet, skip = ask["options"]
    where, stake = bet["fields"]
    assert len(where["choices"]) == len(B.board_of(table.profile).places)
    budget = next(c for c in client.get("/api/state").json()["game"]["clubs"] if c["seat"] == 1)["resources"]["budget"]
    assert [c["value"] for c in stake["choices"]] == [str(n) for n in range(budget + 1)] and stake["number"] is True
    corner = next(c["value"] for c in where["choices"] if "corner" in c["label"])
    # as the page sends it: the place as the select's text, the stake as a number
    sent = {**bet["event"], "on": corner, "stake": min(1, budget)}
    assert client.post("/api/actions/event", json=sent, headers=csrf).status_code == 200
    table_view = client.get("/api/state").json()["game"]["modules"]["betting"]["bets"]
    assert table_view[0] == {"seat": 1, "answered": True, "placed": True, "secret": True}
    assert skip["event"] == {"type": "pass", "seat": 1}
    (left,) = _asks(client)
    assert client.post("/api/actions/event", json=left["options"][1]["event"], headers=csrf).status_code == 200
    game = client.get("/api/state").json()["game"]
    assert game["stage"] == "matchday"
    shown = game["modules"]["betting"]["bets"][0]
    assert shown["on"] == corner.split("|") and shown["on_token"] == 1 + min(1, budget)


def test_the_random_opponent_deal_comes_from_the_engine(client: TestClient, table: RunningTable) -> None:
    csrf = unlock(client)
    body = {"modules": ["division"], "options": {"division": 2, "weeks": 5}, "taken": []}
    first = client.post("/api/choices/deal-opponents", json=body, headers=csrf)
    assert first.status_code == 200, first.text
    cards = first.json()["cards"]
    profile = table.profile
    assert len(cards) == 5 and len({profile.cards[c].team for c in cards}) == 5
    assert all(2 in (profile.cards[c].divisions or (profile.cards[c].division,)) for c in cards)
    other = client.post("/api/choices/deal-opponents", json={**body, "taken": cards}, headers=csrf).json()["cards"]
    assert not set(other) & set(cards)
    refused = client.post("/api/choices/deal-opponents", json={"modules": ["umpires"]}, headers=csrf)
    assert refused.status_code == 409 and refused.json()["detail"].startswith('There is no module "umpires".')
    assert client.post("/api/choices/deal-opponents", json=body).status_code == 403  # the PIN's, as every new game
