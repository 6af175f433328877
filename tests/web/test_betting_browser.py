"""Betting as people see it, in Chromium on the real simulated table: a phone's Play page places a club's bet and
skips another's, the Table page shows the Bet board, the bets once every club has answered, and after the week the
winning space (003 l.377–432)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from .conftest import TWO_CLUBS, Served, play_until
from .test_browser import PHONE, Visits, api_session, browser, shoot, unlock  # noqa: F401  (browser is a fixture)

pytestmark = pytest.mark.browser


def test_a_bet_placed_on_the_play_page_is_secret_then_shown_on_the_bet_board_and_settled(
        browser: Browser, served: Served) -> None:  # noqa: F811
    http, csrf = api_session(served)
    game = {**TWO_CLUBS, "modules": ["betting"], "options": {"weeks": 2}}
    assert http.post("/api/actions/new-game", json=game, headers=csrf).status_code == 200
    play_until(http, csrf, "betting")
    budget = served.table.session.state.club(1).res[0]
    visits = Visits(browser, **PHONE)
    phone = visits.context.new_page()
    unlock(phone, served.url)
    phone.goto(served.url + "/play")
    ask = phone.locator('#asks .ask[data-seat="1"]')
    expect(ask).to_contain_text("your bet this week")
    ask.locator('select[data-name="on"]').select_option("3/1/0/0|3/0/0/0")
    ask.locator('select[data-name="stake"]').select_option(str(min(1, budget)))
    shoot(phone, "play-bet")
    ask.get_by_role("button", name="Place the bet").click()
    expect(phone.locator("#asks-msg")).to_contain_text("Done: Place the bet.")
    tv = visits.context.new_page()
    tv.goto(served.url + "/")
    board = tv.locator("#betting")
    expect(board.locator("#betboard td[data-space]")).to_have_count(15)
    # the remaining tokens lie on Opponent cards, named as the cards print them, never by the deck's ids
    tokened = served.table.session.state.slice("betting").cards
    expect(board.locator("#bet-tokens")).to_contain_text(served.table.session.profile.cards[tokened[0]].name)
    expect(board.locator("#bet-tokens")).not_to_contain_text(tokened[0])
    # "simultaneously": the table sees that seat 1 bet, not where
    expect(board.locator('#bets li[data-seat="1"]')).to_contain_text("token placed (secret")
    expect(board.locator("#betboard td.bet")).to_have_count(0)
    phone.locator('#asks .ask[data-seat="2"]').get_by_role("button", name="No bet this week").click()
    expect(board.locator('#bets li[data-seat="1"]')).to_contain_text(f"{1 + min(1, budget)} € on 3/1/0/0 | 3/0/0/0")
    expect(board.locator('#bets li[data-seat="2"]')).to_contain_text("no bet this week")
    expect(board.locator("#betboard td.bet")).to_have_count(2)
    shoot(tv, "table-bets")
    play_until(http, csrf, "monday", lineups=True)
    settled = served.table.session.state.slice("betting").settled
    assert settled is not None and settled.week == 1
    expect(board.locator("#bet-settled")).to_contain_text(f"Week 1: the winning space was {settled.space}")
    expect(board.locator(f'#betboard td.won[data-space="{settled.space}"]')).to_have_count(1)
    shoot(tv, "table-bet-settled")
    http.close()
    visits.context.close()
