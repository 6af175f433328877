"""A kept game this Touchline cannot open (begun by a newer release, or played with a deck since changed): the table
still starts, keeps the game's log untouched, says on every page and on the shared screen which game and why and what
to do, and a new game sets it aside with its log kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import engine
import pytest
from playwright.sync_api import Browser, expect

from device.session import UNOPENED
from device.store import EventStore
from tests.e2e.touchline_run import TouchlineRun
from tests.web.conftest import open_table
from tests.web.test_browser import Visits, browser, shoot  # noqa: F401  (browser is a fixture)

NEWER = {"type": "game", "pack": "eleven", "modules": [], "options": {}, "revision": engine.REVISION + 1}
CLUB = {"type": "club", "seat": 1, "name": "Reds"}


def _kept(db: Path, *events: dict[str, Any]) -> list[dict[str, Any]]:
    """A log holding one game in play with these events; the events as the store keeps them."""
    with EventStore(db) as store:
        game = store.new_game(seats={1: "Ann"})
        for event in events:
            store.append(game.id, event)
        return [r.event for r in store.records(game.id)]


def _status_and_events(db: Path, game: int) -> tuple[str, list[dict[str, Any]]]:
    with EventStore(db) as store:
        return store.game(game).status, [r.event for r in store.records(game)]


@pytest.mark.parametrize(("events", "why"), [
    ((NEWER, CLUB), f"this Touchline knows revisions 1 to {engine.REVISION}: update Touchline"),
    # a card the deck no longer holds (the owner changed the deck folder)
    (({"type": "game", "pack": "eleven", "modules": [], "options": {}}, CLUB,
      {"type": "directors", "seat": 1, "cards": ["dir_01", "dir_02", "dir_999"]}), "dir_999"),
])
def test_a_game_the_rules_refuse_to_open_leaves_the_table_running_with_no_game_and_says_why(
        tmp_path: Path, events: tuple[dict[str, Any], ...], why: str) -> None:
    db = tmp_path / "touchline.db"
    kept = _kept(db, *events)
    table = open_table(db)
    try:
        session = table.session
        snapshot = session.snapshot()
        assert session.state is None and snapshot["game"] is None
        problem = snapshot["problem"]
        assert problem.startswith("Game 1 cannot be opened by this Touchline: its move ")
        assert why in problem and "Its log is kept as it was" in problem and "or start a new game" in problem
        assert "Traceback" not in problem
        shared = next(s["lines"] for s in snapshot["screens"].values() if s["seat"] is None)
        assert UNOPENED.format(game=1) in shared
        # nothing written: the game is still in play in the log, every move as it was
        assert _status_and_events(db, 1) == ("playing", kept)
        # a new game sets it aside, its log still kept, and the table says no more about it
        session.page(engine_new_game())
        assert session.state is not None and session.game == 2
        assert session.snapshot()["problem"] is None
        assert _status_and_events(db, 1) == ("abandoned", kept)
    finally:
        table.session.store.close()


def engine_new_game() -> Any:
    from web.actions import NewGame

    return NewGame(clubs=[{"seat": 1, "name": "Blues"}, {"seat": 2, "name": "Greens"}])


def test_the_game_opens_again_on_a_touchline_that_reads_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # nothing was set aside while the table could not read the game: updated, the table opens it and it plays on
    db = tmp_path / "touchline.db"
    _kept(db, NEWER, CLUB)
    open_table(db).session.store.close()
    monkeypatch.setattr("engine.reducer.REVISION", NEWER["revision"])  # the update that knows its revision
    table = open_table(db)
    try:
        session = table.session
        assert session.game == 1 and session.state is not None and session.state.game.revision == NEWER["revision"]
        assert [c.name for c in session.state.clubs] == ["Reds"]
        assert session.snapshot()["problem"] is None
    finally:
        table.session.store.close()


@pytest.mark.browser
def test_every_page_says_which_game_cannot_be_opened_and_what_to_do(browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    db = tmp_path / "touchline.db"
    _kept(db, NEWER, CLUB)
    with TouchlineRun(db) as running:
        assert "Traceback" not in running.text()
        visits = Visits(browser, viewport={"width": 1366, "height": 900})
        for path in ("/", "/admin"):
            page = visits.page(running.url + path)
            banner = page.locator("#problem")
            expect(banner).to_be_visible()
            expect(banner).to_contain_text("Game 1 cannot be opened by this Touchline")
            expect(banner).to_contain_text("update Touchline")
        shoot(page, "admin-game-cannot-be-opened")
        visits.context.close()
