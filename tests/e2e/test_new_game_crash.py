"""A pulled plug during New game: the real ``touchline run --sim`` is killed (SIGKILL) at many points while it
starts a new game from the page.  Started again, it is always either on the old game, still playing with every
event it had, or on the whole new game (every setup event) with the old one abandoned: never half-dealt."""

from __future__ import annotations

import json
import os
import random
import shutil
import threading
import time
from collections import Counter
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
KILLS = 5
BUDGET = 30.0  # seconds for all the kills together; fewer run when the machine is slow (at least MIN_KILLS)
MIN_KILLS = 3
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
        early, late = 0.0, took * 1.5
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
            # Close in on the moment the new game is written: later after a kill that fell before it, earlier
            # after one that fell after it (the halving of a search, with a little jitter).
            delay = (early + late) / 2 * (0.9 + 0.2 * rng.random())
            time.sleep(delay)
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
                    early = delay
                    # Nothing of the new game: the old one goes on, every event still there.
                    assert len(games) == games_before
                    assert store.events(before.id) == old_events
                else:
                    # The whole new game, and the old one abandoned in the same write.
                    late = delay
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


def test_a_new_game_stopped_at_each_of_its_writes_is_all_or_nothing(tmp_path: Path) -> None:
    """The same promise, at every point: the table's process dies just before each SQL statement New game runs
    (forked from this one, killed by itself from SQLite's statement hook), from the first to the last."""
    from device.sim import SimulatedTable

    profile = engine.load_profile()
    pristine = tmp_path / "pristine.db"
    with SimulatedTable.open(pristine, profile=profile) as table:
        table.page(NewGame.model_validate({"clubs": [{"seat": 1, "name": "Old club"}]}))
        old_events = table.session.store.events(table.session.game)
    setup = setup_events(profile, NewGame.model_validate(FORM))
    outcomes: Counter[str] = Counter()
    for point in range(1, 500):
        db = tmp_path / f"kill{point}.db"
        shutil.copy(pristine, db)
        child = os.fork()
        if child == 0:  # the table's process: New game, killed before its statement number `point`
            code = 1
            try:
                with SimulatedTable.open(db, profile=profile) as table:
                    seen = [0]

                    def hook(_: str) -> None:
                        seen[0] += 1
                        if seen[0] == point:
                            os._exit(9)  # no clean-up, no rollback: as a pulled plug

                    table.session.store._writer.set_trace_callback(hook)
                    table.page(NewGame.model_validate(FORM))
                    code = 0  # New game finished before that statement: every point has been tried
            finally:
                os._exit(code)
        _, status = os.waitpid(child, 0)
        with EventStore(db) as store:
            games = store.games()
            playing = [g for g in games if g.status == "playing"]
            assert len(playing) == 1, (point, [(g.id, g.status, g.events) for g in games])
            if playing[0].id == 1:
                outcomes["old game"] += 1
                assert len(games) == 1 and store.events(1) == old_events, point
            else:
                outcomes["whole new game"] += 1
                assert store.game(1).status == "abandoned" and store.events(1) == old_events, point
                assert store.events(playing[0].id)[:len(setup)] == setup, point
        if os.WEXITSTATUS(status) == 0:
            break
    else:
        raise AssertionError("New game never finished")
    assert outcomes["old game"] >= 2 and outcomes["whole new game"] >= 1, outcomes
