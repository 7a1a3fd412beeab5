"""The event log on disk: SQLite (standard library), WAL, synchronous=FULL.

Only the game service's thread writes. Every command's events are appended in one
``BEGIN IMMEDIATE`` transaction together with the command itself, so a command is either wholly
on disk or not at all, and it is acknowledged only after the commit returns.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.engine.i18n import data_from_stored, from_stored, stored, stored_data
from companion.engine.types import Event
from companion.store.errors import StoreError as StoreError
from companion.store.errors import StoreLost as StoreLost
from companion.store.errors import writable_problem as writable_problem
from companion.store.rescue import OpenFiles, rescue

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    edition TEXT NOT NULL,
    title TEXT NOT NULL,
    created REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'open',
    join_code TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    cmd INTEGER NOT NULL,
    time REAL NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    say TEXT NOT NULL,
    cite TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS commands (
    game_id TEXT NOT NULL REFERENCES games(id),
    cmd INTEGER NOT NULL,
    time REAL NOT NULL,
    actor TEXT NOT NULL,
    body TEXT NOT NULL,
    key TEXT,
    first_seq INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    response TEXT NOT NULL,
    PRIMARY KEY (game_id, cmd)
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS commands_key ON commands (game_id, key) WHERE key IS NOT NULL;
CREATE TABLE IF NOT EXISTS snapshots (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    seq INTEGER NOT NULL,
    code TEXT NOT NULL,
    state BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class Row:
    """One stored event."""

    seq: int
    cmd: int
    time: float
    event: Event


CHECKPOINT_EVERY = 64
"""Commits between the checkpoints the service runs after a move's answer (a few hundred
pages, well under SQLite's own threshold, which stays as the safety net)."""


class Store:
    """The SQLite file behind the service."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"The state directory {path.parent} cannot be created ({exc}).",
                             "read_only") from exc
        problem = writable_problem(path)
        if problem:
            raise StoreError(problem, "read_only")
        self.conn = self.connect()
        self.commits_since_checkpoint = 0
        """Commits since :meth:`checkpoint` last ran (the service runs it after answers)."""
        self.lost: str | None = None
        """Set when the file was deleted or replaced and could not be rescued in its place:
        why every write is refused until a restart."""
        self.files = OpenFiles(path, self.wal_path)
        """The database file and its log as this process opened them."""

    def connect(self) -> sqlite3.Connection:
        """A connection to the database, set up for the one writer (its log in memory)."""
        path = self.path
        conn: sqlite3.Connection | None = None
        try:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            # before WAL is first used: the log's index then lives in this process's memory,
            # not in a companion.db-shm file mapped into it (a write to a mapped page the
            # file no longer backs, as on a card remounted read-only, is a SIGBUS that kills
            # the process with nothing in the log). The price: the file is this connection's
            # alone while it is open (the service is the single writer anyway).
            conn.execute("PRAGMA locking_mode=EXCLUSIVE")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=5000")
            conn.execute("PRAGMA cache_size=-1024")  # 1 MB: a Pi Zero has 512 MB in all
            conn.executescript(SCHEMA)
            columns = {row[1] for row in conn.execute("PRAGMA table_info(events)")}
            if "cite" not in columns:  # a database from before citations (issue 11)
                conn.execute("ALTER TABLE events ADD COLUMN cite TEXT NOT NULL DEFAULT ''")
        except sqlite3.DatabaseError as exc:
            if conn is not None:
                conn.close()
            if "locked" in str(exc):
                raise StoreError(
                    f"Another program holds the database {path}: the running companion keeps "
                    "it to itself. Export a game from the page (or GET /api/games/<id>/"
                    "export); the companion backs itself up after every game. For anything "
                    "else stop it first (on a Pi: sudo systemctl stop companion).",
                    "busy") from exc
            problem = writable_problem(path)
            if problem or "readonly" in str(exc) or "unable to open" in str(exc):
                raise StoreError(problem or f"The database {path} cannot be written ({exc}). "
                                 "Check the SD card and the file's permissions.",
                                 "read_only") from exc
            raise StoreError(
                f"The database {path} is damaged and cannot be opened ({exc}). Restore a "
                "backup with `companion restore` (list them: `companion backup --list`), or "
                "move the file away to start afresh."
            ) from exc
        return conn

    def close(self) -> None:
        self.conn.close()

    @property
    def wal_path(self) -> Path:
        return self.path.with_name(self.path.name + "-wal")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` (rolled back on any error)."""
        if self.lost:
            raise StoreLost(self.lost)
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
            moved = self.moved()
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        if moved:
            self.conn.execute("ROLLBACK")
            raise StoreLost(self.rescue(moved))
        self.conn.execute("COMMIT")
        self.commits_since_checkpoint += 1

    def moved(self) -> str:
        """What happened to the files this connection writes ("" if nothing):
        :meth:`OpenFiles.moved`."""
        return self.files.moved()

    def rescue(self, what: str) -> str:
        """Copy what this connection holds to a new database (:func:`companion.store.rescue.
        rescue`); the message for the journal, the page and the OLED."""
        return rescue(self, what)

    def checkpoint_due(self) -> bool:
        return self.commits_since_checkpoint >= CHECKPOINT_EVERY

    def checkpoint(self) -> None:
        """Copy the log's committed pages into the database file (``PASSIVE``: never waits
        for a reader), so the next commits overwrite the log from its start.

        SQLite would otherwise do this inside the commit that crosses ``wal_autocheckpoint``
        pages: writing hundreds of pages to the database file and two fsyncs, tens of
        milliseconds on an SD card, added to one move's answer. The service runs it after
        a move's answer instead (see ``GameService._commit``). The commits are durable in
        the log either way: a failure here loses nothing, and SQLite's own threshold stays
        as the safety net."""
        self.commits_since_checkpoint = 0
        try:
            self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error as exc:  # the log keeps the commits; tried again 64 later
            log.warning("checkpoint of %s failed (tried again later): %s", self.path, exc)

    def integrity(self) -> str:
        return str(self.conn.execute("PRAGMA integrity_check").fetchone()[0])

    # -- writing (inside a transaction) ---------------------------------------------------
    def add_game(
        self,
        conn: sqlite3.Connection,
        game_id: str,
        edition: str,
        title: str,
        created: float,
        join_code: str,
    ) -> None:
        conn.execute(
            "INSERT INTO games (id, edition, title, created, join_code) VALUES (?, ?, ?, ?, ?)",
            (game_id, edition, title, created, join_code),
        )

    def append(
        self,
        conn: sqlite3.Connection,
        game_id: str,
        first_seq: int,
        cmd: int,
        time: float,
        events: list[Event],
    ) -> int:
        """Append events from ``first_seq``; returns the last sequence number written."""
        rows = [
            (
                game_id,
                first_seq + i,
                cmd,
                time,
                e.type,
                stored_data(e.data),
                stored(e.say),
                e.cite,
            )
            for i, e in enumerate(events)
        ]
        conn.executemany(
            "INSERT INTO events (game_id, seq, cmd, time, type, data, say, cite) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        return first_seq + len(events) - 1

    def record_command(
        self,
        conn: sqlite3.Connection,
        game_id: str,
        cmd: int,
        time: float,
        actor: str,
        body: dict[str, Any],
        key: str | None,
        first_seq: int,
        last_seq: int,
        response: dict[str, Any],
    ) -> None:
        conn.execute(
            "INSERT INTO commands (game_id, cmd, time, actor, body, key, first_seq, "
            "last_seq, response) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                cmd,
                time,
                actor,
                json.dumps(body),
                key,
                first_seq,
                last_seq,
                json.dumps(response),
            ),
        )

    def set_status(self, conn: sqlite3.Connection, game_id: str, status: str) -> None:
        conn.execute("UPDATE games SET status = ? WHERE id = ?", (status, game_id))

    def save_snapshot(self, game_id: str, seq: int, code: str, blob: bytes) -> None:
        with self.transaction() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO snapshots (game_id, seq, code, state) VALUES (?, ?, ?, ?)",
                (game_id, seq, code, blob),
            )

    # -- reading --------------------------------------------------------------------------
    def games(self, status: str | None = None) -> list[dict[str, Any]]:
        sql = "SELECT id, edition, title, created, status, join_code FROM games"
        args: tuple[Any, ...] = ()
        if status:
            sql += " WHERE status = ?"
            args = (status,)
        cur = self.conn.execute(sql + " ORDER BY created", args)
        keys = ("id", "edition", "title", "created", "status", "join_code")
        return [dict(zip(keys, row, strict=True)) for row in cur.fetchall()]

    def rows(self, game_id: str, after: int = 0) -> list[Row]:
        return list(self.iter_rows(game_id, after))

    def iter_rows(self, game_id: str, after: int = 0) -> Iterator[Row]:
        """The rows one at a time, as the cursor reads them: a whole log decoded costs about
        2 KB an event. Iterate on the store's own thread, before anything else uses it."""
        cur = self.conn.execute(
            "SELECT seq, cmd, time, type, data, say, cite FROM events WHERE "
            "game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after),
        )
        for seq, cmd, t, typ, data, say, cite in cur:
            yield Row(seq, cmd, t, Event(typ, data_from_stored(data), from_stored(say), cite))

    def commands(self, game_id: str) -> list[dict[str, Any]]:
        cur = self.conn.execute(
            "SELECT cmd, time, actor, body, key, first_seq, last_seq FROM "
            "commands WHERE game_id = ? ORDER BY cmd",
            (game_id,),
        )
        return [
            {
                "cmd": c,
                "time": t,
                "actor": a,
                "body": json.loads(b),
                "key": k,
                "first_seq": f,
                "last_seq": la,
            }
            for c, t, a, b, k, f, la in cur.fetchall()
        ]

    def response_for(self, game_id: str, key: str) -> dict[str, Any] | None:
        row = self.conn.execute(
            "SELECT response FROM commands WHERE game_id = ? AND key = ?", (game_id, key)
        ).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def snapshot(self, game_id: str) -> tuple[int, str, bytes] | None:
        row = self.conn.execute(
            "SELECT seq, code, state FROM snapshots WHERE game_id = ?", (game_id,)
        ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), bytes(row[2]))

    def setting(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            self.put_setting(conn, key, value)

    @staticmethod
    def put_setting(conn: sqlite3.Connection, key: str, value: str) -> None:
        """Store a setting within a transaction (:meth:`transaction`)."""
        conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))
