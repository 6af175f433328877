"""A damaged write-ahead log: SQLite would drop every commit after a bad frame without a word.  The table checks
the log before SQLite replays it, says what was lost, keeps the damaged files aside and goes on."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest

from device import errors
from device.store import EventStore
from device.wal_check import FRAME_HEADER, HEADER, check_wal
from tests.e2e.touchline_run import TouchlineRun, client

EVENTS = 200
WRITER = """
import os, sys
from device.store import EventStore
store = EventStore(sys.argv[1])
game = store.new_game(seats={1: "Red Lions"})
for n in range(int(sys.argv[2])):
    store.append(game.id, {"type": "note", "n": n, "text": "x" * 100})
os._exit(0)  # killed: every commit is in the write-ahead log, none copied into the database yet
"""


def _write_and_kill(db: Path, events: int = EVENTS) -> None:
    subprocess.run([sys.executable, "-c", WRITER, str(db), str(events)], check=True)


def _frames(wal: Path) -> list[tuple[int, bool]]:
    """(offset, is a commit) of every frame of a WAL."""
    data = wal.read_bytes()
    page_size = struct.unpack(">I", data[8:12])[0]
    size = FRAME_HEADER + page_size
    return [(offset, struct.unpack(">I", data[offset + 4:offset + 8])[0] != 0)
            for offset in range(HEADER, len(data) - size + 1, size)]


def _damage_frame(wal: Path, offset: int) -> None:
    data = bytearray(wal.read_bytes())
    data[offset + FRAME_HEADER + 100] ^= 0xFF  # one flipped byte in the page, as a failing card does
    wal.write_bytes(bytes(data))


def test_a_damaged_frame_in_the_middle_is_found_the_loss_said_and_the_files_kept(tmp_path: Path) -> None:
    db = tmp_path / "touchline.db"
    wal = db.with_name(db.name + "-wal")
    _write_and_kill(db)
    frames = _frames(wal)
    commits = [offset for offset, commit in frames if commit]
    assert check_wal(wal).kept == len(commits) and not check_wal(wal).damaged
    # Damage the frame of the commit that wrote event 100 (commit 0 made the log, 1 the game).
    _damage_frame(wal, commits[1 + 100])
    damaged = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    with EventStore(db) as store:
        events = store.events(1)
        # SQLite replays up to the damaged frame: the first 99 events are there, in order...
        assert [e["n"] for e in events] == list(range(len(events))) and len(events) == 99
        # ...and the table says how many were lost and where the damaged log is kept.
        lost = EVENTS - len(events)
        kept = [p for p in tmp_path.iterdir() if p.name.startswith(f"{db.name}.damaged-")]
        assert len(kept) == 1
        assert store.damage == errors.STORE_WAL_DAMAGED.format(path=db, lost=lost, copy=kept[0])
        assert {p.name: p.read_bytes() for p in kept[0].iterdir() if not p.name.endswith("-shm")} == {
            name: data for name, data in damaged.items() if not name.endswith("-shm")}
        store.append(1, {"type": "note", "n": 99})  # the table goes on from there
    with EventStore(db) as store:
        assert store.damage is None and len(store.events(1)) == 100


def test_a_write_cut_short_by_the_plug_is_not_called_damage(tmp_path: Path) -> None:
    db = tmp_path / "touchline.db"
    wal = db.with_name(db.name + "-wal")
    _write_and_kill(db, events=20)
    frames = _frames(wal)
    # The last write, half on the card: its commit frame is there but an earlier frame of it is not whole.
    last_commit = max(i for i, (_, commit) in enumerate(frames) if commit)
    first_of_last = max(i for i, (_, commit) in enumerate(frames[:last_commit]) if commit) + 1
    _damage_frame(wal, frames[first_of_last][0])
    with EventStore(db) as store:
        assert store.damage is None
        assert len(store.events(1)) == 19  # the unacknowledged write is dropped, nothing else
    assert not [p for p in tmp_path.iterdir() if ".damaged-" in p.name]


@pytest.mark.slow
def test_the_table_says_on_its_screen_and_page_what_was_lost(tmp_path: Path) -> None:
    db = tmp_path / "touchline.db"
    wal = db.with_name(db.name + "-wal")
    running = TouchlineRun(db).start()
    with client() as page:
        headers = running.unlock(page)
        page.post(running.url + "/api/actions/new-game", json={"clubs": [{"seat": 1, "name": "Red Lions"}]},
                  headers=headers)
        for n in range(20):
            answer = page.post(running.url + "/api/actions/correction", headers=headers,
                               json={"seat": 1, "what": "budget", "delta": 1, "reason": f"coin {n}"})
            assert answer.status_code == 200
    running.kill()
    commits = [offset for offset, commit in _frames(wal) if commit]
    _damage_frame(wal, commits[-15])  # fifteen writes from the end: the last corrections
    running.start()
    try:
        with client() as page:
            state = page.get(running.url + "/api/state").json()
        assert state["problem"].startswith(f"The game log {db} was damaged on the card: the last 15 change(s)")
        assert "Log was damaged" in state["screens"]["shared.screen"]["lines"]
        assert "was damaged on the card" in running.text()
    finally:
        running.stop()
