"""The write-ahead log grown ahead of the first move (see :func:`presize_wal`): a commit's
fsync costs twice as much while the log file grows as when it overwrites blocks it has."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

WAL_HEADER, WAL_FRAME_HEADER = 32, 24
"""Sizes of the write-ahead log's header and of each page's frame header (sqlite.org/walformat)."""
WAL_SPARE = 64
"""Pages beyond the checkpoint size the log is grown to (a commit may overshoot it)."""
PRESIZE_STEP = 1 << 20
"""Bytes of zeros per insert while growing the log."""
ROOM_FACTOR = 16
"""The log is grown only when the file system has this many times its size free."""


def wal_target(conn: sqlite3.Connection) -> int:
    """Bytes the write-ahead log reaches before SQLite checkpoints it (0: never)."""
    page = int(conn.execute("PRAGMA page_size").fetchone()[0])
    pages = int(conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0])
    return 0 if pages <= 0 else WAL_HEADER + (pages + WAL_SPARE) * (page + WAL_FRAME_HEADER)


def presize_wal(conn: sqlite3.Connection, path: Path, wal: Path) -> int:
    """Grow the write-ahead log ``wal`` of the database at ``path``, once, to the size it
    reaches between checkpoints; its size in bytes afterwards.

    A commit's fsync costs twice as much while the log grows (the file system must
    also record the new length) as when it overwrites blocks the log already has, and
    the log starts empty after every start. So a transaction writes zeros until the log
    is long enough and is then rolled back: SQLite writes a large transaction's pages to
    the log before its commit, and a rolled-back transaction is never read back, so
    nothing is stored, the database file does not grow, and later commits overwrite
    those blocks. Only a speed-up: on any failure the log simply grows as before."""

    def size() -> int:
        return wal.stat().st_size if wal.exists() else 0

    try:
        target = wal_target(conn)
        if not target or size() >= target:
            return size()
        room = os.statvfs(path.parent)
        if room.f_bavail * room.f_frsize < target * ROOM_FACTOR:
            return size()  # a nearly full card: the space is better kept for the games
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("CREATE TABLE wal_presize (zeros BLOB)")
            for _ in range(target // PRESIZE_STEP + 8):
                if size() >= target:
                    break
                conn.execute("INSERT INTO wal_presize VALUES (zeroblob(?))", (PRESIZE_STEP,))
        finally:
            conn.execute("ROLLBACK")
        fd = os.open(wal, os.O_RDONLY)
        try:
            os.fsync(fd)  # the new length on disk now, not in the first move's commit
        finally:
            os.close(fd)
        return size()
    except (OSError, sqlite3.Error):
        return 0
