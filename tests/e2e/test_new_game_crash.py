"""A pulled plug during New game: the real ``touchline run --sim`` is killed (SIGKILL) at many points while it
starts a new game from the page.  Started again, it is always either on the old game, still playing with every
event it had, or on the whole new game (every setup event) with the old one abandoned: never half-dealt."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import engine
from device.store import EventStore
from engine.views import TABLE
from tests.e2e.touchline_run import TouchlineRun, client
from web.actions import NewGame
from web.setup import setup_events

pytestmark = pytest.mark.slow
KILLS = 10
BUDGET = 60.0  # seconds for all the kills together; fewer run when the machine is slow (at least MIN_KILLS)
MIN_KILLS = 5
FORM = {"clubs": [{"seat": s, "name": f"Club {s}"} for s in (1, 2, 3, 4)]}


def _state_matches_log(running: TouchlineRun, db: Path, profile: Any) -> None:
    """The table came back on the log: its page shows the log folded by the engine."""
    with client() as page:
        shown = page.get(running.url + "/api/state").json()
    with EventStore(db) as store:
        game = store.current_game()
        assert shown["game_id"] == (game.id if game else None)
        if game is not None:
            folded = engine.view(profile, engine.replay(profile, store.events(game.id)), TABLE)
            assert shown["game"] == json.loads(json.dumps(folded))


def test_a_new_game_killed_at_any_moment_is_all_or_nothing(tmp_path: Path) -> None:
    rng = random.Random(20261123)
    profile = engine.load_profile()
    setup = setup_events(profile, NewGame.model_validate(FORM))
    db = tmp_path / "t.db"
    running = TouchlineRun(db).start()
    try:
        with client() as page:
            headers = running.unlock(page)
            asked = time.monotonic()
            assert page.post(running.url + "/api/actions/new-game", json=FORM, headers=headers).status_code == 200
            took = time.monotonic() - asked  # how long a new game takes here: the kills fall in and around it
            session_cookies = dict(page.cookies)
        started = time.monotonic()
        kills = outcomes_new = 0
        while kills < KILLS and (kills < MIN_KILLS or time.monotonic() - started < BUDGET):
            with EventStore(db) as store:
                before = store.current_game()
                assert before is not None
                old_events = store.events(before.id)
                games_before = len(store.games())

            sent = threading.Event()

            def start_new_game() -> None:
                try:
                    sent.set()
                    page.post(running.url + "/api/actions/new-game", json=FORM, headers=headers)
                except Exception:  # noqa: BLE001 - the table was killed under it
                    pass

            page = client(timeout=10)
            page.cookies.update(session_cookies)
            asker = threading.Thread(target=start_new_game)
            asker.start()
            sent.wait()
            time.sleep(rng.random() * took * 1.5)
            running.kill()
            asker.join(timeout=15)
            page.close()
            kills += 1

            with EventStore(db) as store:
                games = store.games()
                playing = [g for g in games if g.status == "playing"]
                assert len(playing) == 1, [(g.id, g.status, g.events) for g in games]
                current = playing[0]
                if current.id == before.id:
                    # Nothing of the new game: the old one goes on, every event still there.
                    assert len(games) == games_before
                    assert store.events(before.id) == old_events
                else:
                    # The whole new game, and the old one abandoned in the same write.
                    outcomes_new += 1
                    assert len(games) == games_before + 1 and current.id == games[-1].id
                    assert store.events(current.id)[:len(setup)] == setup
                    assert store.game(before.id).status == "abandoned"
                    assert store.events(before.id) == old_events
            running.start()
            _state_matches_log(running, db, profile)
        assert kills >= MIN_KILLS
        # Both outcomes were met, so the kills did fall before and after the new game's write.
        assert 0 < outcomes_new < kills, f"{outcomes_new} of {kills} kills came after the new game was written"
    finally:
        running.kill()
