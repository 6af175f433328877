"""The event store: every game's event log in SQLite, written and synced before anything is acknowledged.

The log is the game (see DESIGN.md): the session appends an event only after the engine accepted it, and shows the
result only after ``append`` returned, so a pulled plug never loses what a screen already showed.  Undo deletes the
last event; the session refolds.  One thread writes; any thread may read (WAL lets readers run beside the writer).
"""

from __future__ import annotations

import errno
import json
import logging
import os
import secrets
import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from device import errors
from device.errors import (
    ForeignFile,
    GameFinished,
    GameNotFound,
    NothingToUndo,
    SeasonNotFound,
    SeasonRefused,
    StoreCorrupt,
    StoreError,
    StoreFull,
    StoreReadOnly,
    TagAlreadyEnrolled,
)
from device.wal_check import check_wal

if TYPE_CHECKING:
    from device.table_file import TableConfig

log = logging.getLogger(__name__)

APPLICATION_ID = 0x546C6E65  # "Tlne": marks the file as a Touchline log for `file` and for us
GameStatus = Literal["playing", "finished", "abandoned"]
STATUSES: tuple[GameStatus, ...] = ("playing", "finished", "abandoned")
PIN_KEY = "table_pin"
PIN_DIGITS = 6

# Migrations[i] brings a log from version i to version i + 1; a new file runs them all.  Never edit a shipped step:
# add a new one, so that every older log on every table still upgrades the same way.
MIGRATIONS: tuple[str, ...] = (
    # 0 -> 1: the first release kept games and their events only.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        created TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'playing'
    );
    CREATE TABLE events (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        json TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    """,
    # 1 -> 2: when a game ended, who sat where, which deck; event times; card enrolment; settings.
    """
    ALTER TABLE games ADD COLUMN ended TEXT;
    ALTER TABLE games ADD COLUMN seats TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE games ADD COLUMN profile_source TEXT NOT NULL DEFAULT 'demo';
    ALTER TABLE events ADD COLUMN created TEXT;
    UPDATE events SET created = (SELECT created FROM games WHERE games.id = events.game_id) WHERE created IS NULL;
    CREATE TABLE enrolments (
        deck TEXT NOT NULL,
        uid TEXT NOT NULL,
        card_id TEXT NOT NULL,
        created TEXT NOT NULL,
        PRIMARY KEY (deck, uid)
    );
    CREATE INDEX enrolments_by_card ON enrolments (deck, card_id);
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # 2 -> 3: the page's unlocked browsers (the hash of each session's token), so a restart keeps them.
    """
    CREATE TABLE web_sessions (
        key TEXT PRIMARY KEY,
        csrf TEXT NOT NULL,
        created REAL NOT NULL,
        expires REAL NOT NULL
    );
    """,
    # 3 -> 4: what happened, as the page's log shows it: every announcement of every event, in order, with the
    # week it belongs to, kept when its event is undone (marked undone) beside the line that says so.
    """
    CREATE TABLE log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games(id),
        event_seq INTEGER,
        week INTEGER NOT NULL DEFAULT 0,
        json TEXT NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX log_by_game ON log (game_id, id);
    """,
    # 4 -> 5: seasons: a league played over several evenings, its games in the order they were added; a game
    # belongs to one season at most (UNIQUE), and a name is taken once whatever its case.
    """
    CREATE TABLE seasons (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        created TEXT NOT NULL
    );
    CREATE TABLE season_games (
        season_id INTEGER NOT NULL REFERENCES seasons(id) ON DELETE CASCADE,
        game_id INTEGER NOT NULL UNIQUE REFERENCES games(id),
        position INTEGER NOT NULL,
        PRIMARY KEY (season_id, game_id)
    );
    """,
    # 5 -> 6: a browser unlocked for one seat's own page (by a tap of that seat's card or the PIN) holds that seat
    # of that game only; the owner's sessions have neither.
    """
    ALTER TABLE web_sessions ADD COLUMN seat INTEGER;
    ALTER TABLE web_sessions ADD COLUMN game INTEGER;
    """,
)
TABLES = ("games", "events", "enrolments", "settings", "web_sessions", "log", "seasons", "season_games")
"""Every table of the newest schema, in the order a salvage copies them (games before their events)."""
SQLITE_MAGIC = b"SQLite format 3\x00"
SCHEMA_VERSION = len(MIGRATIONS)


@dataclass(frozen=True)
class GameRecord:
    """One kept game: when it started and ended, who sat where, which deck, and whether it is over."""

    id: int
    created: datetime
    ended: datetime | None
    seats: dict[int, str]
    """Seat number -> club or player name, as given when the game was created."""
    profile_source: str
    status: GameStatus
    events: int

    @property
    def minutes(self) -> int | None:
        """How long the game took, in whole minutes (None while it is not over)."""
        if self.ended is None:
            return None
        return max(0, round((self.ended - self.created).total_seconds() / 60))


@dataclass(frozen=True)
class EventRecord:
    """One logged event with its position in the game and when it was written."""

    seq: int
    event: dict[str, Any]
    created: datetime


@dataclass(frozen=True)
class SeasonRecord:
    """A season: a league played over several evenings, and its games in the order they were added."""

    id: int
    name: str
    created: datetime
    games: tuple[int, ...]


def season_name(text: str) -> str:
    """A season's name as kept (trimmed); SeasonRefused saying what to change when it is empty, too long or not one line."""
    name = text.strip()
    if not name:
        raise SeasonRefused(errors.SEASON_NAME_EMPTY)
    if len(name) > errors.SEASON_NAME_LIMIT:
        raise SeasonRefused(errors.SEASON_NAME_TOO_LONG.format(limit=errors.SEASON_NAME_LIMIT, length=len(name)))
    if any(not ch.isprintable() for ch in name):
        raise SeasonRefused(errors.SEASON_NAME_BAD)
    return name


def _now() -> datetime:
    return datetime.now(UTC)


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _parse(text: str | None) -> datetime | None:
    if text is None:
        return None
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


class EventStore:
    """The game log in one SQLite file."""

    def __init__(self, path: str | Path, *, clock: Callable[[], datetime] = _now) -> None:
        """Open (creating or upgrading) the log at ``path``; raise StoreCorrupt or StoreError with what to do."""
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.RLock()
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self.damage: str | None = None
        """What was found damaged (and lost) when the log was opened, as a sentence; None when it was whole."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(errors.STORE_UNREADABLE.format(path=self.path, reason=exc.strerror or exc)) from exc
        # Before SQLite opens the file: whose is it, and what would SQLite drop of its write-ahead log?
        self._check_owner()
        self._check_wal()
        try:
            self._writer = self._connect()
            try:
                self._check_and_migrate()
            except BaseException:
                self._writer.close()
                raise
        except StoreCorrupt as damaged:
            self._salvage(damaged.reason)

    # -- connections --
    def _connect(self) -> sqlite3.Connection:
        """A connection in autocommit mode (we open transactions ourselves) with the durability we promise."""
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
            conn.execute("PRAGMA journal_mode=WAL")
            # FULL: the WAL is fsynced at every commit, so a committed event survives a pulled plug.
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as exc:
            raise self._classify(exc) from exc
        return conn

    def _classify(self, exc: sqlite3.Error, *, writing: bool = False) -> StoreError:
        """Tell a damaged file from one we may not open or write, so the message says the right thing to do."""
        text = str(exc)
        code = getattr(exc, "sqlite_errorcode", None)
        if isinstance(exc, sqlite3.DatabaseError) and (
            "not a database" in text or "malformed" in text or "corrupt" in text
        ):
            return StoreCorrupt(errors.STORE_CORRUPT.format(path=self.path, reason=text), reason=text)
        card = self._card_state() if writing else None
        if code == sqlite3.SQLITE_FULL or "disk is full" in text or card == "full":
            return StoreFull(errors.STORE_FULL.format(path=self.path))
        if (code is not None and code & 0xFF == sqlite3.SQLITE_READONLY) or "readonly" in text or card == "read-only":
            # A failing SD card is remounted read-only by the kernel: SQLite then reports a plain I/O error.
            return StoreReadOnly(errors.STORE_READ_ONLY.format(path=self.path))
        if writing:
            return StoreError(errors.STORE_WRITE_FAILED.format(path=self.path, reason=text))
        return StoreError(errors.STORE_UNREADABLE.format(path=self.path, reason=text))

    def _card_state(self) -> str | None:
        """"read-only" or "full" when the filesystem holding the log is so now, else None.

        SQLite reports a card that the kernel turned read-only (a failing SD card) as a plain I/O error, so a
        failed write is followed by a small write of our own beside the log, which tells.
        """
        try:
            stat = os.statvfs(self.path.parent)
        except OSError:
            return None
        if stat.f_flag & os.ST_RDONLY:
            return "read-only"
        probe = self.path.with_name(f".{self.path.name}.probe")
        try:
            with open(probe, "wb") as out:
                out.write(b"\0" * 512)
                out.flush()
                os.fsync(out.fileno())
        except OSError as exc:
            if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                return "read-only"
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                return "full"
            return None
        finally:
            with suppress(OSError):
                probe.unlink()
        return None

    def _reader(self) -> sqlite3.Connection:
        """This thread's read connection; WAL lets it read beside the writer and see every commit."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._connect()
            self._local.conn = conn
            with self._lock:
                self._readers.append(conn)
        return conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One immediate transaction on the writer, committed (and synced) before the caller goes on."""
        with self._lock:
            conn = self._writer
            try:
                conn.execute("BEGIN IMMEDIATE")
                yield conn
                conn.execute("COMMIT")
            except BaseException as exc:
                # SQLite may have rolled back already (e.g. when the disk is full): then there is nothing to undo.
                if conn.in_transaction:
                    with suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise self._classify(exc, writing=True) from exc
                raise

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._reader().execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise self._classify(exc) from exc

    def close(self) -> None:
        """Close every connection (the log stays consistent even when this is never called)."""
        with self._lock:
            for conn in [self._writer, *self._readers]:
                conn.close()
            self._readers.clear()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- opening: whose file, what the write-ahead log would lose, whether the pages are whole --
    def _check_owner(self) -> None:
        """Refuse, untouched, a file that is not a Touchline log (never switch another program's file to WAL)."""
        try:
            with open(self.path, "rb") as file:
                head = file.read(100)
        except FileNotFoundError:
            return  # a new log
        except OSError as exc:
            raise StoreError(errors.STORE_UNREADABLE.format(path=self.path, reason=exc.strerror or exc)) from exc
        if not head:
            return  # an empty file: SQLite makes a new database of it
        if not head.startswith(SQLITE_MAGIC):
            raise ForeignFile(errors.STORE_NOT_SQLITE.format(path=self.path))
        application_id = int.from_bytes(head[68:72], "big")
        if application_id == APPLICATION_ID:
            return
        if application_id != 0:
            raise ForeignFile(errors.STORE_FOREIGN.format(path=self.path))
        # No mark in the file's first page: our own log whose first write is still in its WAL, a log of the first
        # release, an empty database, or another program's.  A read-only look tells, changing nothing.
        try:
            look = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                application_id = look.execute("PRAGMA application_id").fetchone()[0]
                tables = {r[0] for r in look.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            finally:
                look.close()
        except sqlite3.DatabaseError as exc:
            # Damaged, and nothing says it is ours: say so and leave it be rather than take another's file apart.
            raise StoreError(errors.STORE_CORRUPT.format(path=self.path, reason=exc)) from exc
        if application_id == APPLICATION_ID or not tables - {"sqlite_sequence"} or {"games", "events"} <= tables:
            return
        raise ForeignFile(errors.STORE_FOREIGN.format(path=self.path))

    def _check_wal(self) -> None:
        """Before SQLite replays the write-ahead log, count the saved changes it would drop; keep a copy if any."""
        wal = self.path.with_name(self.path.name + "-wal")
        try:
            report = check_wal(wal)
        except OSError as exc:  # unreadable: SQLite will say so when it opens the log
            log.warning("the write-ahead log %s cannot be read: %s", wal, exc)
            return
        if not report.damaged:
            return
        copy = self._keep_aside(move=False)
        self.damage = errors.STORE_WAL_DAMAGED.format(path=self.path, lost=report.lost, copy=copy)
        log.error("%s", self.damage)

    def _keep_aside(self, *, move: bool) -> str:
        """Copy (or move) the log and its WAL into a folder beside it, named by the time; return where they are."""
        folder = self.path.with_name(f"{self.path.name}.damaged-{self._clock().astimezone(UTC):%Y%m%d-%H%M%S}")
        try:
            folder.mkdir(exist_ok=True)
            for suffix in ("", "-wal", "-shm"):
                source = self.path.with_name(self.path.name + suffix)
                if source.exists():
                    (shutil.move if move else shutil.copy2)(source, folder / source.name)
        except OSError as exc:
            log.error("the damaged game log could not be kept aside in %s: %s", folder, exc)
            return errors.NOT_KEPT.format(reason=exc.strerror or exc)
        return str(folder)

    def _salvage(self, reason: str) -> None:
        """The log's pages are damaged: move it aside, start a new log with every row still readable from it."""
        copy = self._keep_aside(move=True)
        damaged = Path(copy) / self.path.name
        rows: dict[str, list[tuple[Any, ...]]] = {}
        if damaged.exists():
            try:
                old = sqlite3.connect(f"{damaged.resolve().as_uri()}?mode=ro", uri=True)
            except sqlite3.Error:
                old = None
            if old is not None:
                for table in TABLES:
                    rows[table] = _readable_rows(old, table)
                old.close()
        self._writer = self._connect()
        try:
            self._check_and_migrate()
            with self._write() as conn:
                for table, found in rows.items():
                    columns = _columns(conn, table)
                    for row in found:
                        named = {k: v for k, v in row if k in columns}
                        if named:
                            conn.execute(f"INSERT OR IGNORE INTO {table} ({', '.join(named)}) "
                                         f"VALUES ({', '.join('?' * len(named))})", tuple(named.values()))
        except BaseException:
            self._writer.close()
            raise
        self.damage = errors.STORE_DAMAGED.format(
            path=self.path, reason=reason, games=len(rows.get("games", ())), events=len(rows.get("events", ())),
            copy=copy)
        log.error("%s", self.damage)

    def _check_and_migrate(self) -> None:
        conn = self._writer
        try:
            result = conn.execute("PRAGMA quick_check").fetchone()[0]
            if result != "ok":
                raise StoreCorrupt(errors.STORE_CORRUPT.format(path=self.path, reason=result), reason=result)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.Error as exc:
            raise self._classify(exc) from exc
        if version > SCHEMA_VERSION:
            raise StoreError(errors.STORE_TOO_NEW.format(path=self.path, found=version, known=SCHEMA_VERSION))
        if version == 0 and tables - {"sqlite_sequence"}:
            raise ForeignFile(errors.STORE_FOREIGN.format(path=self.path))
        if version == SCHEMA_VERSION:
            return
        if version:
            log.info("upgrading game log %s from version %d to %d", self.path, version, SCHEMA_VERSION)
        else:
            log.info("new game log %s", self.path)
        with self._write() as conn:
            for step in range(version, SCHEMA_VERSION):
                # executescript would commit our transaction; run the statements one by one inside it.
                for statement in _statements(MIGRATIONS[step]):
                    conn.execute(statement)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @property
    def schema_version(self) -> int:
        """The log's schema version (always the newest once opened)."""
        return int(self._read("PRAGMA user_version")[0][0])

    # -- games --
    def new_game(self, *, seats: Mapping[int, str] | None = None, profile_source: str = "demo") -> GameRecord:
        """Start a new game in the log and return it."""
        names = {int(k): str(v) for k, v in (seats or {}).items()}
        with self._write() as conn:
            cursor = conn.execute(
                "INSERT INTO games (created, status, seats, profile_source) VALUES (?, 'playing', ?, ?)",
                (_stamp(self._clock()), json.dumps(names), profile_source),
            )
            game_id = int(cursor.lastrowid or 0)
        log.info("new game %d (%s)", game_id, profile_source)
        return self.game(game_id)

    def start_game(self, events: list[Mapping[str, Any]], *, seats: Mapping[int, str] | None = None,
                   profile_source: str = "demo", settings: Mapping[str, str] | None = None,
                   abandon: int | None = None, said: Sequence[Sequence[MutableMapping[str, Any]]] = ()) -> GameRecord:
        """Start a new game with its setup events (and settings) in one transaction, abandoning game ``abandon``.

        ``said``: the log lines of each setup event, in the same order (see :meth:`append`).

        A pulled plug at any moment leaves either the old game still playing or the whole new one: never a game
        dealt in half, nor the old game abandoned with no new one.  A finished game stays finished.
        """
        names = {int(k): str(v) for k, v in (seats or {}).items()}
        texts = [json.dumps(dict(e), separators=(",", ":"), ensure_ascii=False, allow_nan=False) for e in events]
        with self._write() as conn:
            now = _stamp(self._clock())
            if abandon is not None:
                conn.execute("UPDATE games SET status = 'abandoned', ended = ? WHERE id = ? AND status = 'playing'",
                             (now, abandon))
            cursor = conn.execute(
                "INSERT INTO games (created, status, seats, profile_source) VALUES (?, 'playing', ?, ?)",
                (now, json.dumps(names), profile_source))
            game_id = int(cursor.lastrowid or 0)
            conn.executemany("INSERT INTO events (game_id, seq, json, created) VALUES (?, ?, ?, ?)",
                             [(game_id, seq, text, now) for seq, text in enumerate(texts, start=1)])
            for seq, lines in enumerate(said, start=1):
                self._say(conn, game_id, seq, lines)
            for key, value in (settings or {}).items():
                conn.execute("INSERT INTO settings (key, value) VALUES (?, ?) "
                             "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                             (key.format(game=game_id), value))
        log.info("new game %d (%s, %d setup events)%s", game_id, profile_source, len(texts),
                 f"; game {abandon} abandoned" if abandon is not None else "")
        return self.game(game_id)

    def set_seats(self, game_id: int, seats: Mapping[int, str]) -> GameRecord:
        """Record who sits where once the clubs are chosen."""
        names = {int(k): str(v) for k, v in seats.items()}
        with self._write() as conn:
            self._require(conn, game_id)
            conn.execute("UPDATE games SET seats = ? WHERE id = ?", (json.dumps(names), game_id))
        return self.game(game_id)

    def games(self) -> list[GameRecord]:
        """Every kept game, oldest first."""
        rows = self._read(_GAME_SELECT + " GROUP BY g.id ORDER BY g.id")
        return [_game(row) for row in rows]

    def game(self, game_id: int) -> GameRecord:
        """One game; GameNotFound when the log holds none with this id."""
        rows = self._read(_GAME_SELECT + " WHERE g.id = ? GROUP BY g.id", (game_id,))
        if not rows:
            raise GameNotFound(errors.NO_SUCH_GAME.format(game=game_id))
        return _game(rows[0])

    def current_game(self) -> GameRecord | None:
        """The most recent game still being played (what the table resumes after a restart), or None."""
        rows = self._read(_GAME_SELECT + " WHERE g.status = 'playing' GROUP BY g.id ORDER BY g.id DESC LIMIT 1")
        return _game(rows[0]) if rows else None

    def finish(self, game_id: int, *, status: GameStatus = "finished") -> GameRecord:
        """Mark a game as over (finished, or abandoned) and note when."""
        if status not in STATUSES or status == "playing":
            raise ValueError(f"{status!r} is not a way for a game to end: use 'finished' or 'abandoned'.")
        with self._write() as conn:
            self._require(conn, game_id)
            conn.execute("UPDATE games SET status = ?, ended = ? WHERE id = ?", (status, _stamp(self._clock()), game_id))
        log.info("game %d %s", game_id, status)
        return self.game(game_id)

    def _require(self, conn: sqlite3.Connection, game_id: int) -> str:
        row = conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFound(errors.NO_SUCH_GAME.format(game=game_id))
        return str(row[0])

    # -- events --
    def append(self, game_id: int, event: Mapping[str, Any], *, ends_game: bool = False,
               said: Sequence[MutableMapping[str, Any]] = ()) -> int:
        """Write one event at the end of a game's log, committed and synced when this returns; return its seq.

        ``ends_game``: the game is over after this event (the engine reached its final scoring); the game is
        marked finished in the same transaction, so no crash can leave a game over but still "playing".  A
        finished game takes only such events (a correction of its final scoring), else GameFinished.
        ``said``: the lines of the game's log the event brings (announcements with their "week"), written in the
        same transaction; each gets the "id" of its row.
        """
        text = json.dumps(dict(event), separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        with self._write() as conn:
            status = self._require(conn, game_id)
            if status == "abandoned" or (status == "finished" and not ends_game):
                raise GameFinished(errors.GAME_FINISHED.format(game=game_id))
            seq = int(conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?", (game_id,)).fetchone()[0])
            now = _stamp(self._clock())
            conn.execute("INSERT INTO events (game_id, seq, json, created) VALUES (?, ?, ?, ?)", (game_id, seq, text, now))
            self._say(conn, game_id, seq, said)
            if ends_game and status == "playing":
                conn.execute("UPDATE games SET status = 'finished', ended = ? WHERE id = ?", (now, game_id))
        if ends_game and status == "playing":
            log.info("game %d finished", game_id)
        return seq

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """A game's events in order, as the dicts that were appended."""
        return [r.event for r in self.records(game_id)]

    def first_events(self) -> dict[int, dict[str, Any]]:
        """Each kept game's first event (what the game is: its modules and options, when it names them)."""
        rows = self._read("SELECT e.game_id, e.json FROM events e JOIN (SELECT game_id, MIN(seq) AS seq FROM events "
                          "GROUP BY game_id) f ON e.game_id = f.game_id AND e.seq = f.seq")
        return {int(g): json.loads(j) for g, j in rows}

    def records(self, game_id: int) -> list[EventRecord]:
        """A game's events in order, with their seq and time."""
        self.game(game_id)
        rows = self._read("SELECT seq, json, created FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
        return [EventRecord(seq=int(s), event=json.loads(j), created=_parse(c) or _now()) for s, j, c in rows]

    def undo(self, game_id: int, *, said: Callable[[list[dict[str, Any]]], list[MutableMapping[str, Any]]] | None = None
             ) -> dict[str, Any]:
        """Delete a game's last event and return it; a finished game becomes one being played again.

        The log lines the event brought stay, marked undone; ``said(those lines)`` gives the lines that say what was
        undone, written in the same transaction (each gets its row's "id").
        """
        with self._write() as conn:
            self._require(conn, game_id)
            row = conn.execute(
                "SELECT seq, json FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
            ).fetchone()
            if row is None:
                raise NothingToUndo(errors.NOTHING_TO_UNDO.format(game=game_id))
            conn.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", (game_id, row[0]))
            lines = [{**json.loads(text), "id": int(i)} for i, text in conn.execute(
                "SELECT id, json FROM log WHERE game_id = ? AND event_seq = ? AND undone = 0 ORDER BY id",
                (game_id, row[0]))]
            conn.execute("UPDATE log SET undone = 1 WHERE game_id = ? AND event_seq = ? AND undone = 0",
                         (game_id, row[0]))
            if said is not None:
                self._say(conn, game_id, None, said(lines))
            # The game ended with its last event; without it, the game is on again.
            conn.execute("UPDATE games SET status = 'playing', ended = NULL WHERE id = ?", (game_id,))
        event: dict[str, Any] = json.loads(row[1])
        log.info("game %d: undid event %d (%s)", game_id, row[0], event.get("type"))
        return event

    # -- what happened --
    def _say(self, conn: sqlite3.Connection, game_id: int, seq: int | None,
             lines: Sequence[MutableMapping[str, Any]]) -> None:
        for line in lines:
            text = json.dumps({k: v for k, v in line.items() if k not in ("id", "undone")}, separators=(",", ":"),
                              ensure_ascii=False, allow_nan=False)
            cursor = conn.execute("INSERT INTO log (game_id, event_seq, week, json) VALUES (?, ?, ?, ?)",
                                  (game_id, seq, int(line.get("week") or 0), text))
            line["id"] = int(cursor.lastrowid or 0)

    def said(self, game_id: int, *, before: int | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """A game's log lines, newest first: at most ``limit`` of them, those older than line ``before`` when given;
        each has its "id", "week" and "undone"."""
        rows = self._read("SELECT id, week, json, undone FROM log WHERE game_id = ? AND id < ? ORDER BY id DESC LIMIT ?",
                          (game_id, before if before is not None else 1 << 62, limit))
        return [{**json.loads(text), "id": int(i), "week": int(week), "undone": bool(undone)}
                for i, week, text, undone in rows]

    def add_said(self, game_id: int, lines: Sequence[tuple[int, MutableMapping[str, Any]]]) -> None:
        """Write the log lines of events logged before the table kept them (``(event seq, line)`` pairs, in order)."""
        with self._write() as conn:
            for seq, line in lines:
                self._say(conn, game_id, seq, [line])

    # -- seasons --
    def seasons(self) -> list[SeasonRecord]:
        """Every season, oldest first, each with its games in order."""
        members: dict[int, list[int]] = {}
        for season_id, game_id in self._read("SELECT season_id, game_id FROM season_games ORDER BY season_id, position"):
            members.setdefault(int(season_id), []).append(int(game_id))
        return [SeasonRecord(id=int(i), name=str(n), created=_parse(c) or _now(), games=tuple(members.get(int(i), ())))
                for i, n, c in self._read("SELECT id, name, created FROM seasons ORDER BY id")]

    def season(self, key: int | str) -> SeasonRecord:
        """A season by its number or its name (in any case); SeasonNotFound naming the seasons there are."""
        kept = self.seasons()
        for season in kept:
            if season.id == key if isinstance(key, int) else season.name.casefold() == key.strip().casefold():
                return season
        shown = key if isinstance(key, str) else f"number {key}"
        if not kept:
            raise SeasonNotFound(errors.NO_SEASONS_YET.format(season=shown))
        raise SeasonNotFound(errors.NO_SUCH_SEASON.format(season=shown, known=", ".join(repr(s.name) for s in kept)))

    def season_of(self, game_id: int) -> SeasonRecord | None:
        """The season a game counts in, or None."""
        rows = self._read("SELECT season_id FROM season_games WHERE game_id = ?", (game_id,))
        return self.season(int(rows[0][0])) if rows else None

    def new_season(self, name: str) -> SeasonRecord:
        """Make an empty season; SeasonRefused when the name is empty, too long or already a season's."""
        name = season_name(name)
        with self._write() as conn:
            taken = conn.execute("SELECT name FROM seasons WHERE name = ?", (name,)).fetchone()
            if taken is not None:
                raise SeasonRefused(errors.SEASON_NAME_TAKEN.format(name=str(taken[0])))
            season_id = int(conn.execute("INSERT INTO seasons (name, created) VALUES (?, ?)",
                                         (name, _stamp(self._clock()))).lastrowid or 0)
        log.info("new season %d (%s)", season_id, name)
        return self.season(season_id)

    def add_to_season(self, season_id: int, game_ids: Sequence[int]) -> SeasonRecord:
        """Add games at the end of a season, all or none: an unknown game or one counting in another season is
        refused with its sentence and nothing is added.  A game already in this season stays where it is."""
        if not game_ids:
            raise SeasonRefused(errors.NO_GAMES_NAMED)
        season = self.season(season_id)
        with self._write() as conn:
            for game_id in game_ids:
                self._require(conn, game_id)
                row = conn.execute("SELECT s.id, s.name FROM season_games m JOIN seasons s ON s.id = m.season_id "
                                   "WHERE m.game_id = ?", (game_id,)).fetchone()
                if row is not None and int(row[0]) != season.id:
                    raise SeasonRefused(errors.GAME_IN_OTHER_SEASON.format(game=game_id, season=str(row[1])))
            for game_id in dict.fromkeys(game_ids):
                conn.execute("INSERT OR IGNORE INTO season_games (season_id, game_id, position) VALUES (?, ?, "
                             "(SELECT COALESCE(MAX(position), 0) + 1 FROM season_games WHERE season_id = ?))",
                             (season.id, game_id, season.id))
        log.info("season %d (%s): games %s added", season.id, season.name, ", ".join(map(str, game_ids)))
        return self.season(season.id)

    def remove_from_season(self, season_id: int, game_ids: Sequence[int]) -> SeasonRecord:
        """Take games out of a season, all or none (the games themselves are kept); SeasonRefused for one not in it."""
        if not game_ids:
            raise SeasonRefused(errors.NO_GAMES_NAMED)
        season = self.season(season_id)
        missing = [g for g in game_ids if g not in season.games]
        if missing:
            raise SeasonRefused(errors.GAME_NOT_IN_SEASON.format(game=missing[0], season=season.name))
        with self._write() as conn:
            conn.executemany("DELETE FROM season_games WHERE season_id = ? AND game_id = ?",
                             [(season.id, g) for g in game_ids])
        log.info("season %d (%s): games %s removed", season.id, season.name, ", ".join(map(str, game_ids)))
        return self.season(season.id)

    def delete_season(self, season_id: int) -> SeasonRecord:
        """Forget a season (its games are kept, and may then count in another); return what it was."""
        season = self.season(season_id)
        with self._write() as conn:
            conn.execute("DELETE FROM season_games WHERE season_id = ?", (season.id,))
            conn.execute("DELETE FROM seasons WHERE id = ?", (season.id,))
        log.info("season %d (%s) deleted", season.id, season.name)
        return season

    # -- card enrolment --
    def enroll(self, uid: str, card_id: str, *, deck: str = "demo") -> None:
        """Map a tag to a card of a deck; TagAlreadyEnrolled when the tag already means another card."""
        with self._write() as conn:
            row = conn.execute("SELECT card_id FROM enrolments WHERE deck = ? AND uid = ?", (deck, uid)).fetchone()
            if row is not None and row[0] != card_id:
                raise TagAlreadyEnrolled(errors.TAG_ALREADY_ENROLLED.format(uid=uid, card=row[0]))
            if row is None:
                conn.execute(
                    "INSERT INTO enrolments (deck, uid, card_id, created) VALUES (?, ?, ?, ?)",
                    (deck, uid, card_id, _stamp(self._clock())),
                )

    def forget_tag(self, uid: str, *, deck: str = "demo") -> bool:
        """Remove a tag's mapping; True when there was one."""
        with self._write() as conn:
            return conn.execute("DELETE FROM enrolments WHERE deck = ? AND uid = ?", (deck, uid)).rowcount > 0

    def card_for(self, uid: str, *, deck: str = "demo") -> str | None:
        """The card a tag is enrolled as, or None for an unknown tag."""
        rows = self._read("SELECT card_id FROM enrolments WHERE deck = ? AND uid = ?", (deck, uid))
        return str(rows[0][0]) if rows else None

    def enrolments(self, *, deck: str = "demo") -> dict[str, str]:
        """Every tag -> card mapping of a deck."""
        return {str(u): str(c) for u, c in self._read("SELECT uid, card_id FROM enrolments WHERE deck = ? ORDER BY uid", (deck,))}

    # -- settings --
    def setting(self, key: str, default: str | None = None) -> str | None:
        """A stored setting, or ``default``."""
        rows = self._read("SELECT value FROM settings WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else default

    def set_setting(self, key: str, value: str) -> None:
        """Store a setting."""
        with self._write() as conn:
            conn.execute("INSERT INTO settings (key, value) VALUES (?, ?) "
                         "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))

    # -- the page's sessions --
    def web_sessions(self) -> list[tuple[str, str, float, float, int | None, int | None]]:
        """Every kept session of the page: (hash of its token, CSRF token, created, expires, seat, game); the seat
        and game are None for the owner's sessions."""
        rows = self._read("SELECT key, csrf, created, expires, seat, game FROM web_sessions ORDER BY created")
        return [(str(k), str(c), float(a), float(b), None if s is None else int(s), None if g is None else int(g))
                for k, c, a, b, s, g in rows]

    def save_web_session(self, key: str, csrf: str, created: float, expires: float, seat: int | None = None,
                         game: int | None = None) -> None:
        """Keep one session of the page (``seat`` and ``game``: a seat's own page in that game)."""
        with self._write() as conn:
            conn.execute("INSERT OR REPLACE INTO web_sessions (key, csrf, created, expires, seat, game) "
                         "VALUES (?, ?, ?, ?, ?, ?)", (key, csrf, created, expires, seat, game))

    def delete_web_sessions(self, keys: list[str] | None) -> None:
        """End these sessions of the page (None: every one)."""
        with self._write() as conn:
            if keys is None:
                conn.execute("DELETE FROM web_sessions")
            else:
                conn.executemany("DELETE FROM web_sessions WHERE key = ?", [(k,) for k in keys])

    def table_pin(self) -> str:
        """The PIN that unlocks the page's changes; made up (and kept) the first time it is asked for."""
        pin = self.setting(PIN_KEY)
        if pin is None:
            candidate = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
            with self._write() as conn:
                # Another thread may have made one meanwhile: keep the first.
                conn.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", (PIN_KEY, candidate))
            pin = self.setting(PIN_KEY) or candidate
        return pin


_GAME_SELECT = (
    "SELECT g.id, g.created, g.ended, g.seats, g.profile_source, g.status, COUNT(e.seq) "
    "FROM games g LEFT JOIN events e ON e.game_id = g.id"
)


def _game(row: tuple[Any, ...]) -> GameRecord:
    game_id, created, ended, seats, source, status, count = row
    return GameRecord(
        id=int(game_id),
        created=_parse(created) or _now(),
        ended=_parse(ended),
        seats={int(k): str(v) for k, v in json.loads(seats or "{}").items()},
        profile_source=str(source),
        status=status,
        events=int(count),
    )


def _readable_rows(conn: sqlite3.Connection, table: str) -> list[tuple[tuple[str, Any], ...]]:
    """Every row of ``table`` that can still be read from a damaged log, as (column, value) pairs."""
    found: dict[int, tuple[tuple[str, Any], ...]] = {}
    # Read from both ends, one row at a time: a damaged page stops a scan there, not the rows on either side of it.
    for order in ("ASC", "DESC"):
        try:
            cursor = conn.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid {order}")
            names = [d[0] for d in cursor.description][1:]
            while (row := cursor.fetchone()) is not None:
                found[int(row[0])] = tuple(zip(names, row[1:]))
        except sqlite3.Error:
            continue
    return [found[rowid] for rowid in sorted(found)]


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {str(r[1]) for r in conn.execute(f"PRAGMA table_info({table})")}


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (ours hold no semicolons inside strings)."""
    return [s.strip() for s in script.split(";") if s.strip()]


def open_store(path: str | Path) -> EventStore:
    """Open the game log at ``path`` (created when missing, upgraded when older)."""
    return EventStore(path)


def deck_key(config: TableConfig) -> str:
    """The name enrolments are kept under: the owner's deck folder, or "demo" for the shipped deck."""
    return str(config.deck) if config.deck else "demo"
