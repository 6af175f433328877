"""The PIN on a shop's Wi-Fi: a stranger guessing cannot lock the owner out, an unlocked browser stays unlocked
(across restarts, until logout or expiry), and the owner can always unlock at the table itself."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device import screens
from device.connections import ConnectionLimits, server_options
from device.page_access import CODE_HIDDEN, OWNER_CODE
from device.serve import build_table, make_app
from device.table_file import default_sim_table
from tests.e2e.touchline_run import TouchlineRun, client, free_port, wait_for
from web import errors
from web.security import COOKIE, LOCKOUT_SECONDS, MAX_FAILURES, SESSION_DAYS, Guard, MemorySessions

STRANGER = "127.0.0.2"
OWNER = "127.0.0.3"
TWO_CLUBS = {"clubs": [{"seat": 1, "name": "Red Lions"}, {"seat": 2, "name": "Blue Birds"}]}


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TouchlineRun]:
    """``touchline run --sim`` for the whole module; each test plays from devices of its own."""
    with TouchlineRun(tmp_path_factory.mktemp("pin") / "t.db") as running:
        yield running


@pytest.mark.slow
def test_a_stranger_guessing_pins_never_locks_the_owner_out(table: TouchlineRun) -> None:
    with client(STRANGER) as stranger, client(OWNER) as owner:
        answers = []
        for attempt in range(30):
            # Five wrong guesses a minute from the stranger's phone, as in the shop...
            for _ in range(MAX_FAILURES):
                stranger.post(table.url + "/api/session", json={"pin": "000000"})
            # ...and the owner's phone, giving the right PIN each time, is let in each time.
            owner.cookies.clear()
            answers.append(owner.post(table.url + "/api/session", json={"pin": table.pin}).status_code)
        assert answers == [200] * 30
        refused = stranger.post(table.url + "/api/session", json={"pin": table.pin})
        assert refused.status_code == 403 and refused.json()["detail"].startswith("Too many wrong PINs from this device")


@pytest.mark.slow
def test_a_browser_holding_a_session_is_never_throttled(table: TouchlineRun) -> None:
    with client("127.0.0.4") as owner:
        headers = table.unlock(owner)
        for _ in range(3 * MAX_FAILURES):  # typos while unlocked (giving the PIN again, say)
            answer = owner.post(table.url + "/api/session", json={"pin": "999999"})
            assert answer.json()["detail"] == errors.WRONG_PIN
        assert owner.get(table.url + "/api/session").json()["unlocked"] is True
        assert owner.post(table.url + "/api/actions/enrol/cancel", headers=headers).status_code == 200
        assert owner.post(table.url + "/api/session", json={"pin": table.pin}).status_code == 200


@pytest.mark.slow
def test_logout_ends_the_session_on_the_table_not_only_in_the_browser(table: TouchlineRun) -> None:
    with client("127.0.0.5") as browser:
        headers = table.unlock(browser)
        cookie = browser.cookies[COOKIE]
        assert browser.post(table.url + "/api/session/logout", headers=headers).status_code == 200
    with client("127.0.0.5") as replay:  # someone who copied the cookie before the logout
        replay.cookies.set(COOKIE, cookie)
        assert replay.get(table.url + "/api/session").json()["unlocked"] is False
        answer = replay.post(table.url + "/api/actions/enrol/cancel", headers=headers)
        assert answer.status_code == 403 and answer.json()["detail"] == errors.PIN_REQUIRED


@pytest.mark.slow
def test_lock_every_browser_ends_every_session(table: TouchlineRun) -> None:
    with client("127.0.0.6") as alice, client("127.0.0.7") as bob:
        alice_headers, bob_headers = table.unlock(alice), table.unlock(bob)
        answer = bob.post(table.url + "/api/session/logout-all", headers=bob_headers)
        assert answer.status_code == 200 and answer.json()["ended"] >= 2
        assert alice.post(table.url + "/api/actions/enrol/cancel", headers=alice_headers).status_code == 403
        assert alice.get(table.url + "/api/session").json()["unlocked"] is False


@pytest.mark.slow
def test_the_unlock_outlives_the_browser_window_and_restarts_but_not_a_logout(tmp_path: Path) -> None:
    with TouchlineRun(tmp_path / "t.db") as running, client(OWNER) as browser:
        answer = browser.post(running.url + "/api/session", json={"pin": running.pin})
        cookie = answer.headers["set-cookie"].lower()
        # A cookie with a lifetime is kept when the browser closes (a session cookie is not).
        max_age = int(cookie.split("max-age=")[1].split(";")[0])
        assert SESSION_DAYS * 86400 - 60 <= max_age <= SESSION_DAYS * 86400
        headers = {"x-csrf-token": answer.json()["csrf"]}
        running.stop()  # a restart...
        running.start()
        assert browser.post(running.url + "/api/actions/enrol/cancel", headers=headers).status_code == 200
        running.kill()  # ...and a pulled plug keep it
        running.start()
        assert browser.get(running.url + "/api/session").json() == {
            "unlocked": True, "csrf": headers["x-csrf-token"], "simulation": True}
        assert browser.post(running.url + "/api/session/logout", headers=headers).status_code == 200
        running.kill()
        running.start()  # a logout is for good, even after a pulled plug
        assert browser.get(running.url + "/api/session").json()["unlocked"] is False


def test_a_session_ends_by_itself_and_an_ended_one_is_not_kept() -> None:
    wall = [1_800_000_000.0]
    kept = MemorySessions()
    guard = Guard(lambda: "2468", sessions=kept, wall=lambda: wall[0])
    token = guard.login("2468", "10.0.0.1")
    sid = guard.session_id_of(token)
    assert sid is not None and guard.csrf_token(sid)
    wall[0] += SESSION_DAYS * 86400 - 1
    assert guard.session_id_of(token) == sid
    wall[0] += 2
    assert guard.session_id_of(token) is None and guard.csrf_token(sid) == ""
    assert kept.load_sessions() == []
    # One that ended while the table was off is forgotten when it starts.
    token = guard.login("2468", "10.0.0.1")
    wall[0] += SESSION_DAYS * 86400 + 1
    again = Guard(lambda: "2468", sessions=kept, wall=lambda: wall[0])
    assert again.session_id_of(token) is None and kept.load_sessions() == []


def test_lockouts_of_one_client_grow_and_others_are_not_touched() -> None:
    now = [0.0]
    guard = Guard(lambda: "2468", clock=lambda: now[0])
    waits = []
    for _ in range(3):
        for _ in range(MAX_FAILURES):
            with pytest.raises(errors.Forbidden):
                guard.login("1111", "10.0.0.66")
        started = now[0]
        while True:
            now[0] += 1
            try:
                guard.login("1111", "10.0.0.66")
            except errors.Forbidden as refusal:
                if str(refusal) == errors.WRONG_PIN:
                    break
        waits.append(now[0] - started)
        assert guard.login("2468", "10.0.0.7")  # someone else was never held up
    assert waits[0] >= LOCKOUT_SECONDS and waits[1] >= 2 * LOCKOUT_SECONDS and waits[2] >= 4 * LOCKOUT_SECONDS


class InProcessTable:
    """``touchline run --sim``'s parts in this process (the real server, app and threaded simulated hardware),
    so a test can hold two of the simulated buttons down together as two hands would."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.table: Any = None
        self.server: Any = None
        self.app: Any = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    def __enter__(self) -> InProcessTable:
        import uvicorn

        self.table = build_table(default_sim_table(), sim=True, db_path=self.db)

        async def main() -> None:
            await self.table.start()
            self.app = make_app(self.table, "127.0.0.1")
            config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                    log_level="warning", log_config=None, **server_options(ConnectionLimits()))
            self.server = uvicorn.Server(config)
            task = asyncio.create_task(self.server.serve())
            while not self.server.started:
                await asyncio.sleep(0.02)
            self._ready.set()
            try:
                await task
            finally:
                await self.table.stop()

        self._thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
        self._thread.start()
        assert self._ready.wait(30), "the table did not start"
        return self

    def __exit__(self, *_: object) -> None:
        from web.app import close_live

        close_live(self.app)
        self.server.should_exit = True
        assert self._thread is not None
        self._thread.join(timeout=20)
        self.table.session.store.close()

    def hold_together(self, *buttons: str, seconds: float) -> None:
        """Press these simulated buttons down together, keep them down, then let go."""
        pins = [self.table.hardware.buttons.simulated(name) for name in buttons]
        for pin in pins:
            pin.down()
        time.sleep(seconds)
        for pin in pins:
            pin.up()


@pytest.mark.slow
def test_a_locked_out_owner_unlocks_with_the_code_the_table_shows_when_undo_and_roll_are_held(tmp_path: Path) -> None:
    with InProcessTable(tmp_path / "t.db") as running, client(OWNER) as owner, client(STRANGER) as stranger:
        session = running.table.session
        headers = {"x-csrf-token": owner.post(running.url + "/api/session", json={"pin": session.store.table_pin()})
                   .json()["csrf"]}
        assert owner.post(running.url + "/api/actions/new-game", json=TWO_CLUBS, headers=headers).status_code == 200
        events = len(session.store.events(session.game))
        owner.cookies.clear()
        # The owner's browser lost its cookie and a stranger sharing the owner's address kept guessing.
        for _ in range(MAX_FAILURES):
            owner.post(running.url + "/api/session", json={"pin": "000000"})
        assert owner.post(running.url + "/api/session", json={"pin": session.store.table_pin()}).status_code == 403
        before = running.table.sim.frame_png("shared.screen")

        running.hold_together("shared.undo", "seat1.roll", seconds=2.6)

        text = wait_for(lambda: OWNER_CODE in session.screen("shared.screen").text()
                        and session.screen("shared.screen").text(), "the code on the shared screen")
        code = text.splitlines()[text.splitlines().index(OWNER_CODE) + 1]
        assert len(code.replace(" ", "")) == 8 and code.replace(" ", "").isdigit()
        # The panel lights exactly that text.
        expected = screens.render(session.screen("shared.screen")).convert("1").tobytes()
        wait_for(lambda: running.table.sim.frame("shared.screen").convert("1").tobytes() == expected,
                 "the code lit on the shared panel")
        assert running.table.sim.frame_png("shared.screen") != before
        # Neither button did its own job: nothing was undone and seat 1 did not pass.
        assert len(session.store.events(session.game)) == events
        # The page never shows the code: only someone at the table can read it.
        state = owner.get(running.url + "/api/state").text
        assert code not in state and code.replace(" ", "") not in state and CODE_HIDDEN in state

        assert stranger.post(running.url + "/api/session", json={"pin": "12345678"}).status_code == 403
        unlocked = owner.post(running.url + "/api/session", json={"pin": code})
        assert unlocked.status_code == 200
        headers = {"x-csrf-token": unlocked.json()["csrf"]}
        assert owner.post(running.url + "/api/actions/enrol/cancel", headers=headers).status_code == 200
        # The code works once.
        with client("127.0.0.8") as other:
            assert other.post(running.url + "/api/session", json={"pin": code}).status_code == 403


def test_a_code_is_only_valid_for_two_minutes() -> None:
    from drivers.base import ManualClock

    from device.page_access import CODE_SECONDS, OwnerCode

    clock = ManualClock()
    codes = OwnerCode(clock)
    first = codes.issue()
    clock.advance(CODE_SECONDS + 1)
    assert not codes.consume(first)
    second = codes.issue()
    assert not codes.consume(first) and codes.consume(" ".join((second[:4], second[4:]))) and not codes.consume(second)


def test_a_browser_in_use_keeps_its_session_however_many_others_unlock() -> None:
    from web.security import SESSIONS_KEPT

    guard = Guard(lambda: "2468")
    mine = guard.login("2468", "10.0.0.1")
    for n in range(3 * SESSIONS_KEPT):  # browsers unlocked once and never used again
        guard.login("2468", f"10.0.1.{n % 250}")
        if n % 50 == 0:
            assert guard.session_id_of(mine) is not None  # the owner's phone, used now and then
    assert guard.session_id_of(mine) is not None


def test_a_browser_in_use_keeps_its_session_across_a_restart_while_others_unlock_all_day() -> None:
    kept = MemorySessions()
    guard = Guard(lambda: "2468", sessions=kept)
    mine = guard.login("2468", "10.0.0.1")
    for n in range(600):  # a fresh browser unlocked every few seconds of a shop day, never used again...
        guard.login("2468", f"10.0.1.{n % 250}")
        if n % 50 == 0:
            assert guard.session_id_of(mine) is not None  # ...while the owner's phone plays on
    restarted = Guard(lambda: "2468", sessions=kept)
    for n in range(600):
        restarted.login("2468", f"10.0.2.{n % 250}")
        if n % 50 == 49:
            assert restarted.session_id_of(mine) is not None
