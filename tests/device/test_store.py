"""The event store: games and their events survive closing, crashes and upgrades; bad files get clear messages."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from device import errors
from device.errors import (
    ForeignFile,
    GameFinished,
    GameNotFound,
    NothingToUndo,
    StoreError,
    StoreFull,
    TagAlreadyEnrolled,
)
from device.store import SCHEMA_VERSION, EventStore

ROLL = {"type": "roll", "seat": 1, "value": 4}


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 19, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "state" / "touchline.db"


def test_a_new_log_uses_wal_full_sync_and_the_newest_schema(db: Path) -> None:
    with EventStore(db) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert store._writer.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        # 2 = FULL: every commit is synced before append() returns.
        assert store._writer.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_events_come_back_in_order_after_reopening(db: Path) -> None:
    with EventStore(db) as store:
        game = store.new_game(seats={1: "Red Lions", 2: "Blue Birds"}, profile_source="demo")
        seqs = [store.append(game.id, {**ROLL, "value": v}) for v in (1, 6, 3)]
    assert seqs == [1, 2, 3]
    with EventStore(db) as store:
        assert [e["value"] for e in store.events(game.id)] == [1, 6, 3]
        again = store.game(game.id)
        assert again.seats == {1: "Red Lions", 2: "Blue Birds"}
        assert (again.status, again.events) == ("playing", 3)


def test_an_appended_event_is_on_disk_for_another_process_at_once(db: Path) -> None:
    store = EventStore(db)
    game = store.new_game()
    store.append(game.id, ROLL)
    # A separate process, as after a crash, reads the committed event without this store being closed.
    code = f"import sqlite3; print(sqlite3.connect({str(db)!r}).execute('SELECT json FROM events').fetchone()[0])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == ROLL
    store.close()


def test_a_killed_writer_loses_nothing_it_acknowledged(db: Path) -> None:
    script = f"""
import os, sys
from device.store import EventStore
store = EventStore({str(db)!r})
game = store.new_game()
for value in range(1, 21):
    store.append(game.id, {{"type": "roll", "seat": 1, "value": value}})
    print(value, flush=True)
os.kill(os.getpid(), 9)
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=Path(__file__).parents[2])
    assert run.returncode == -9
    acknowledged = [int(v) for v in run.stdout.split()]
    with EventStore(db) as store:
        assert [e["value"] for e in store.events(1)] == acknowledged == list(range(1, 21))


def test_undo_removes_only_the_last_event(db: Path) -> None:
    with EventStore(db) as store:
        game = store.new_game()
        store.append(game.id, {**ROLL, "value": 2})
        store.append(game.id, {**ROLL, "value": 5})
        assert store.undo(game.id)["value"] == 5
        assert store.events(game.id) == [{**ROLL, "value": 2}]
        assert store.append(game.id, {**ROLL, "value": 6}) == 2
        store.undo(game.id)
        store.undo(game.id)
        with pytest.raises(NothingToUndo) as caught:
            store.undo(game.id)
        assert str(caught.value) == errors.NOTHING_TO_UNDO.format(game=game.id)


def test_several_games_are_kept_apart(db: Path) -> None:
    clock = Clock()
    with EventStore(db, clock=clock) as store:
        first = store.new_game(seats={1: "A"})
        store.append(first.id, ROLL)
        clock.now += timedelta(minutes=95)
        store.finish(first.id)
        second = store.new_game(seats={1: "B", 2: "C"})
        store.append(second.id, {**ROLL, "value": 1})
        store.append(second.id, {**ROLL, "value": 2})
        games = store.games()
        assert [(g.id, g.status, g.events) for g in games] == [(first.id, "finished", 1), (second.id, "playing", 2)]
        assert games[0].minutes == 95 and games[1].minutes is None
        assert store.current_game() == games[1]


def test_a_finished_game_takes_no_more_events_until_its_last_is_undone(db: Path) -> None:
    with EventStore(db) as store:
        game = store.new_game()
        store.append(game.id, {"type": "end"})
        store.finish(game.id)
        with pytest.raises(GameFinished) as caught:
            store.append(game.id, ROLL)
        assert str(caught.value) == errors.GAME_FINISHED.format(game=game.id)
        assert store.events(game.id) == [{"type": "end"}]
        store.undo(game.id)
        assert store.game(game.id).status == "playing"
        assert store.game(game.id).ended is None


def test_the_event_that_ends_a_game_marks_it_finished_in_the_same_write(db: Path) -> None:
    clock = Clock()
    with EventStore(db, clock=clock) as store:
        game = store.new_game(seats={1: "A"})
        store.append(game.id, ROLL)
        clock.now += timedelta(minutes=80)
        store.append(game.id, {"type": "end"}, ends_game=True)
    with EventStore(db) as again:  # as after a pulled plug: the status came with the event
        record = again.game(game.id)
        assert (record.status, record.minutes, record.events) == ("finished", 80, 2)
        assert again.current_game() is None
        # A correction of the final scoring keeps the game finished; anything else is refused.
        again.append(game.id, {"type": "adjust"}, ends_game=True)
        with pytest.raises(GameFinished):
            again.append(game.id, ROLL)
        assert again.game(game.id).status == "finished" and again.game(game.id).events == 3


def test_an_abandoned_game_takes_no_event_at_all(db: Path) -> None:
    with EventStore(db) as store:
        game = store.new_game()
        store.finish(game.id, status="abandoned")
        with pytest.raises(GameFinished):
            store.append(game.id, ROLL, ends_game=True)
        assert store.events(game.id) == [] and store.game(game.id).status == "abandoned"


def test_an_unknown_game_is_named(db: Path) -> None:
    with EventStore(db) as store:
        with pytest.raises(GameNotFound) as caught:
            store.append(7, ROLL)
        assert str(caught.value) == errors.NO_SUCH_GAME.format(game=7)
        assert store.games() == []


def test_a_refused_event_changes_nothing(db: Path) -> None:
    with EventStore(db) as store:
        game = store.new_game()
        with pytest.raises(ValueError):
            store.append(game.id, {"type": "roll", "value": float("nan")})
        assert store.events(game.id) == []


def create_version_1_log(path: Path) -> None:
    """A log as the first release wrote it: games (id, created, status) and events (game_id, seq, json)."""
    conn = sqlite3.connect(path)
    conn.executescript(
        """
        CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'playing');
        CREATE TABLE events (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, json TEXT NOT NULL,
                             PRIMARY KEY (game_id, seq));
        INSERT INTO games (created, status) VALUES ('2026-10-01T18:00:00.000Z', 'finished');
        INSERT INTO games (created, status) VALUES ('2026-10-02T18:00:00.000Z', 'playing');
        INSERT INTO events VALUES (1, 1, '{"type":"setup","clubs":2}');
        INSERT INTO events VALUES (2, 1, '{"type":"roll","seat":1,"value":3}');
        INSERT INTO events VALUES (2, 2, '{"type":"roll","seat":2,"value":5}');
        PRAGMA user_version = 1;
        """
    )
    conn.commit()
    conn.close()


def test_a_version_1_log_opens_after_an_upgrade_with_every_game_and_event(db: Path) -> None:
    db.parent.mkdir(parents=True)
    create_version_1_log(db)
    with EventStore(db) as store:
        assert store.schema_version == SCHEMA_VERSION
        games = store.games()
        assert [(g.id, g.status, g.events, g.profile_source) for g in games] == [
            (1, "finished", 1, "demo"), (2, "playing", 2, "demo")]
        assert store.events(2) == [{"type": "roll", "seat": 1, "value": 3}, {"type": "roll", "seat": 2, "value": 5}]
        # Events the old release wrote take their game's start as their time.
        assert store.records(2)[0].created == datetime(2026, 10, 2, 18, 0, tzinfo=UTC)
        assert store.current_game() == games[1]
        # And the upgraded log is fully usable.
        assert store.append(2, ROLL) == 3
        store.enroll("04-A1-B2-C3", "bm_01")
    with EventStore(db) as store:
        assert store.card_for("04-A1-B2-C3") == "bm_01"


def test_a_log_from_a_newer_release_is_refused_untouched(db: Path) -> None:
    db.parent.mkdir(parents=True)
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StoreError) as caught:
        EventStore(db)
    assert str(caught.value) == errors.STORE_TOO_NEW.format(path=db, found=SCHEMA_VERSION + 1, known=SCHEMA_VERSION)
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1


def test_a_file_that_is_not_a_database_is_left_as_it_is_and_says_to_move_it_aside(db: Path) -> None:
    db.parent.mkdir(parents=True)
    db.write_bytes(b"this is a shopping list, not a game log\n" * 200)
    before = db.read_bytes()
    with pytest.raises(ForeignFile) as caught:
        EventStore(db)
    assert isinstance(caught.value, OSError)
    assert f"mv {db} {db}.broken" in str(caught.value)
    assert db.read_bytes() == before and sorted(p.name for p in db.parent.iterdir()) == [db.name]


def test_a_log_with_damaged_pages_is_kept_aside_and_what_can_be_read_goes_on(db: Path) -> None:
    with EventStore(db) as store:
        game = store.new_game(seats={1: "Red Lions"})
        for value in range(300):
            store.append(game.id, {"type": "note", "text": "x" * 200, "n": value})
        pin = store.table_pin()
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(db.read_bytes())
    # Overwrite three pages in the middle of the events with garbage, as a failing SD card would.
    start = len(data) // 2 // 4096 * 4096
    data[start:start + 4096 * 3] = bytes([0xA5]) * (4096 * 3)
    db.write_bytes(bytes(data))
    damaged = bytes(data)
    with EventStore(db) as store:
        # The table starts on a whole log holding every event still readable, and says what happened.
        events = store.events(game.id)
        numbers = [e["n"] for e in events]
        assert 0 < len(events) < 300 and numbers == sorted(numbers)
        assert numbers[-1] == 299  # the events after the damaged pages are read too
        assert store.game(game.id).seats == {1: "Red Lions"} and store.table_pin() == pin
        assert store.damage is not None and "was damaged on the card" in store.damage
        assert f"1 game(s) with {len(events)} event(s)" in store.damage
        kept = [p for p in db.parent.iterdir() if p.name.startswith(f"{db.name}.damaged-")]
        assert len(kept) == 1 and str(kept[0]) in store.damage
        assert (kept[0] / db.name).read_bytes() == damaged  # the damaged file is kept aside as it was
        assert store._writer.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        store.append(game.id, ROLL)
    with EventStore(db) as store:
        assert store.damage is None and store.events(game.id)[-1] == ROLL


def test_another_programs_database_is_left_as_it_is(db: Path) -> None:
    db.parent.mkdir(parents=True)
    sqlite3.connect(db).execute("CREATE TABLE recipes (name TEXT)").connection.commit()
    before = db.read_bytes()
    with pytest.raises(ForeignFile) as caught:
        EventStore(db)
    assert str(caught.value) == errors.STORE_FOREIGN.format(path=db)
    # Not switched to WAL, nothing written: the file and its folder are as they were.
    assert db.read_bytes() == before and sorted(p.name for p in db.parent.iterdir()) == [db.name]
    assert sqlite3.connect(db).execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_another_programs_database_in_wal_mode_keeps_its_write_ahead_log(db: Path) -> None:
    db.parent.mkdir(parents=True)
    script = (
        "import os, sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('PRAGMA journal_mode=WAL')\n"
        "c.execute('PRAGMA application_id = 1234')\n"
        "c.execute('CREATE TABLE recipes (name TEXT)')\n"
        "c.execute(\"INSERT INTO recipes VALUES ('soup')\")\n"
        "os._exit(0)\n"  # killed: its changes are still in its WAL
    )
    subprocess.run([sys.executable, "-c", script, str(db)], check=True)
    def data() -> dict[str, bytes]:  # the -shm file is SQLite's scratch index of the WAL, not data
        return {p.name: p.read_bytes() for p in db.parent.iterdir() if not p.name.endswith("-shm")}

    files = data()
    assert set(files) == {db.name, f"{db.name}-wal"}
    with pytest.raises(ForeignFile):
        EventStore(db)
    assert data() == files


def test_a_folder_that_cannot_be_written_says_so(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        # root may write anywhere; a path below a regular file fails for everyone.
        blocker = tmp_path / "file"
        blocker.write_text("")
        target = blocker / "touchline.db"
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        target = locked / "sub" / "touchline.db"
    with pytest.raises(StoreError) as caught:
        EventStore(target)
    assert "cannot be opened" in str(caught.value)


def test_a_tag_enrolled_as_one_card_is_not_silently_remapped(db: Path) -> None:
    with EventStore(db) as store:
        store.enroll("04-A1-B2-C3", "bm_01")
        store.enroll("04-A1-B2-C3", "bm_01")  # tapping the same card again is harmless
        with pytest.raises(TagAlreadyEnrolled) as caught:
            store.enroll("04-A1-B2-C3", "pl_07")
        assert str(caught.value) == errors.TAG_ALREADY_ENROLLED.format(uid="04-A1-B2-C3", card="bm_01")
        # Another deck has its own mapping.
        store.enroll("04-A1-B2-C3", "pl_07", deck="/home/owner/my-deck")
        assert store.card_for("04-A1-B2-C3") == "bm_01"
        assert store.enrolments(deck="/home/owner/my-deck") == {"04-A1-B2-C3": "pl_07"}
        assert store.card_for("FF-FF-FF-FF") is None
        assert store.forget_tag("04-A1-B2-C3")
        store.enroll("04-A1-B2-C3", "pl_07")
        assert store.card_for("04-A1-B2-C3") == "pl_07"


def test_the_table_pin_is_made_once_and_kept(db: Path) -> None:
    with EventStore(db) as store:
        pin = store.table_pin()
        assert pin.isdigit() and len(pin) == 6
        assert store.table_pin() == pin
    with EventStore(db) as store:
        assert store.table_pin() == pin
        store.set_setting("table_pin", "123456")
        assert store.table_pin() == "123456"


def test_readers_in_other_threads_see_every_commit_while_one_thread_writes(db: Path) -> None:
    store = EventStore(db)
    game = store.new_game()
    seen: list[int] = []
    failures: list[BaseException] = []
    done = threading.Event()

    def read() -> None:
        try:
            while not done.is_set():
                events = store.events(game.id)
                # Never a half-written log: values are always 1..n in order.
                assert [e["value"] for e in events] == list(range(1, len(events) + 1))
                seen.append(len(events))
        except BaseException as exc:  # noqa: BLE001 - handed back to the test thread
            failures.append(exc)

    readers = [threading.Thread(target=read) for _ in range(3)]
    for thread in readers:
        thread.start()
    for value in range(1, 101):
        store.append(game.id, {"type": "roll", "seat": 1, "value": value})
    done.set()
    for thread in readers:
        thread.join()
    assert failures == []
    assert len(store.events(game.id)) == 100
    store.close()


def test_a_full_card_refuses_the_event_with_what_to_do_and_keeps_the_log(db: Path) -> None:
    with EventStore(db) as store:
        game = store.new_game()
        store.append(game.id, ROLL)
        # SQLite's own limit stands in for a full SD card: the next page cannot be allocated.
        page_count = store._writer.execute("PRAGMA page_count").fetchone()[0]
        store._writer.execute(f"PRAGMA max_page_count = {page_count}")
        with pytest.raises(StoreFull) as caught:
            for n in range(200):
                store.append(game.id, {"type": "note", "text": "x" * 2000, "n": n})
        assert str(caught.value) == errors.STORE_FULL.format(path=db)
        assert isinstance(caught.value, StoreError)
        written = store.events(game.id)
    with EventStore(db) as store:
        assert store.events(game.id) == written and written[0] == ROLL
