"""The event log on disk: SQLite (standard library), WAL, synchronous=FULL.

Only the game service's thread writes. Every command's events are appended in one
``BEGIN IMMEDIATE`` transaction together with the command itself, so a command is either wholly
on disk or not at all, and it is acknowledged only after the commit returns.
"""

from __future__ import annotations

import getpass
import json
import logging
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.engine.types import Event
from companion.i18n import data_from_stored, from_stored, stored, stored_data

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


class StoreError(RuntimeError):
    """The database cannot be used (corrupt, unreadable, full disk).

    ``kind`` is ``damaged`` (the file is not a sound database), ``read_only`` (the state
    directory or the file cannot be written: permissions or a read-only SD card; the games
    are fine) or ``busy`` (another process holds the state directory); ``screen`` is the
    short text for the OLED."""

    def __init__(self, message: str, kind: str = "damaged", screen: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.screen = screen or {
            "damaged": "Database damaged: restore a backup (see the journal).",
            "read_only": "Cannot save: the state folder is read-only (see the journal).",
            "busy": "Another companion program is using the games (see the journal).",
        }.get(kind, message)


class StoreLost(StoreError):
    """The database file was deleted or replaced while the service ran: a commit would go to
    a file nobody will ever open again. Raised instead of committing (nothing of that write
    is kept); the message says where what the process held was rescued to."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "lost",
                         "Database file deleted: games rescued, see the journal.")


def writable_problem(path: Path) -> str | None:
    """Why the database at ``path`` cannot be written, or None if nothing stops it."""
    folder = path.parent
    who = _user()
    if not os.access(folder, os.W_OK | os.X_OK):
        return (f"The state directory {folder} is read-only for user {who} (permissions, or "
                "a read-only file system): the companion cannot save games there. The games "
                f"in it are not damaged. Make it writable (on a Pi: sudo chown -R companion: "
                f"{folder}), or check the SD card, then start again.")
    for name in (path.name, path.name + "-wal", path.name + "-shm"):
        item = folder / name
        if item.exists() and not os.access(item, os.R_OK | os.W_OK):
            return (f"{item} cannot be written by user {who}: the companion cannot save "
                    "games. The file is not damaged. Fix its owner or permissions (on a Pi: "
                    f"sudo chown -R companion: {folder}), then start again.")
    return None


def _sync_dir(folder: Path) -> None:
    """fsync a directory: a file just renamed into it is there after a power cut."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return str(os.getuid())

WAL_HEADER, WAL_FRAME_HEADER = 32, 24
"""Sizes of the write-ahead log's header and of each page's frame header (sqlite.org/walformat)."""
WAL_SPARE = 64
"""Pages beyond the checkpoint size the log is grown to (a commit may overshoot it)."""
PRESIZE_STEP = 1 << 20
"""Bytes of zeros per insert while growing the log."""
ROOM_FACTOR = 16
"""The log is grown only when the file system has this many times its size free."""
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
        self.conn = self._connect()
        self.commits_since_checkpoint = 0
        """Commits since :meth:`checkpoint` last ran (the service runs it after answers)."""
        self.lost: str | None = None
        """Set when the file was deleted or replaced and could not be rescued in its place:
        why every write is refused until a restart."""
        self._files = self._identities()

    def _connect(self) -> sqlite3.Connection:
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

    def wal_target(self) -> int:
        """Bytes the write-ahead log reaches before SQLite checkpoints it (0: never)."""
        page = int(self.conn.execute("PRAGMA page_size").fetchone()[0])
        pages = int(self.conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0])
        return 0 if pages <= 0 else WAL_HEADER + (pages + WAL_SPARE) * (page + WAL_FRAME_HEADER)

    def presize_wal(self) -> int:
        """Grow the write-ahead log, once, to the size it reaches between checkpoints; its
        size in bytes afterwards.

        A commit's fsync costs twice as much while the log grows (the file system must
        also record the new length) as when it overwrites blocks the log already has, and
        the log starts empty after every start. So a transaction writes zeros until the log
        is long enough and is then rolled back: SQLite writes a large transaction's pages to
        the log before its commit, and a rolled-back transaction is never read back, so
        nothing is stored, the database file does not grow, and later commits overwrite
        those blocks. Only a speed-up: on any failure the log simply grows as before."""
        wal = self.wal_path

        def size() -> int:
            return wal.stat().st_size if wal.exists() else 0

        try:
            target = self.wal_target()
            if not target or size() >= target:
                return size()
            room = os.statvfs(self.path.parent)
            if room.f_bavail * room.f_frsize < target * ROOM_FACTOR:
                return size()  # a nearly full card: the space is better kept for the games
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                self.conn.execute("CREATE TABLE wal_presize (zeros BLOB)")
                for _ in range(target // PRESIZE_STEP + 8):
                    if size() >= target:
                        break
                    self.conn.execute("INSERT INTO wal_presize VALUES (zeroblob(?))",
                                      (PRESIZE_STEP,))
            finally:
                self.conn.execute("ROLLBACK")
            fd = os.open(wal, os.O_RDONLY)
            try:
                os.fsync(fd)  # the new length on disk now, not in the first move's commit
            finally:
                os.close(fd)
            return size()
        except (OSError, sqlite3.Error):
            return 0

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

    def _identities(self) -> dict[Path, tuple[int, int]]:
        """(device, inode) of the database file and its log as this process opened them."""
        out = {}
        for item in (self.path, self.wal_path):
            try:
                st = item.stat()
            except OSError:
                continue
            out[item] = (st.st_dev, st.st_ino)
        return out

    def moved(self) -> str:
        """What happened to the files this connection writes ("" if nothing): a file
        deleted or replaced under the running service (Linux keeps writing to the deleted
        one, which nobody would ever open again). One ``stat`` per file: microseconds."""
        if self.wal_path not in self._files and self.wal_path.exists():
            self._files = {**self._files, **self._identities()}  # the log's first write
        for item, (dev, ino) in self._files.items():
            try:
                st = item.stat()
            except FileNotFoundError:
                return f"{item} was deleted"
            except OSError:
                continue  # an unreadable directory is a different problem (the write says)
            if (st.st_dev, st.st_ino) != (dev, ino):
                return f"{item} was replaced by another file"
        return ""

    def rescue(self, what: str) -> str:
        """Copy every committed page this connection still reads (a deleted file stays
        readable while it is open) into a new database; the message for the journal, the
        page and the OLED. When the database's place holds nothing else now (no file, or
        still this one), the copy takes it and this store goes on with it. Otherwise the
        copy goes beside it and every write is refused until a restart (``lost``): the file
        now in its place is someone's choice."""
        folder = self.path.parent
        shm = self.path.with_name(self.path.name + "-shm")
        in_place = all(self._ours_or_absent(item) for item in (self.path, self.wal_path))
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
        target = self.path if in_place else folder / f"{self.path.name}.rescued-{stamp}"
        partial = target.with_name(target.name + ".partial")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            partial.unlink(missing_ok=True)
            copy = sqlite3.connect(partial)
            try:
                self.conn.backup(copy)
            finally:
                copy.close()
            if in_place:
                self.conn.close()  # SQLite deletes its log by name only if the file is ours
                for item in (self.wal_path, shm):
                    if self._ours_or_absent(item):
                        item.unlink(missing_ok=True)
            os.replace(partial, target)
            _sync_dir(folder)
            if in_place:
                self.conn = self._connect()
                self._files = self._identities()
        except (OSError, sqlite3.Error, StoreError) as exc:
            self.lost = (f"The database file {what} while the companion ran, and what it "
                         f"held could not be saved in {target} ({exc}). Nothing more is "
                         "saved. Do not switch the companion off: free the disk or fix the "
                         f"folder (anything saved so far may be in {partial}), then "
                         "restart it.")
            log.error("%s", self.lost)
            return self.lost
        if not in_place:
            self.lost = (f"The database file {what} while the companion ran. Every game it "
                         f"held is saved in {target}; the file now at {self.path} was left "
                         "alone. Nothing more is saved until a restart: stop the companion, "
                         f"put the file you want at {self.path} (the rescued one, or "
                         "`companion restore` a backup), and start it again.")
            log.error("%s", self.lost)
            return self.lost
        text = (f"The database file {what} while the companion ran. Every game it held is "
                f"saved again in {target} and play goes on. The last move was not saved: "
                "make it again.")
        log.error("%s", text)
        return text

    def _ours_or_absent(self, item: Path) -> bool:
        try:
            st = item.stat()
        except FileNotFoundError:
            return True
        return self._files.get(item) == (st.st_dev, st.st_ino)

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
        cur = self.conn.execute(
            "SELECT seq, cmd, time, type, data, say, cite FROM events WHERE "
            "game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after),
        )
        return [
            Row(seq, cmd, t, Event(typ, data_from_stored(data), from_stored(say), cite))
            for seq, cmd, t, typ, data, say, cite in cur.fetchall()
        ]

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
            conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))
