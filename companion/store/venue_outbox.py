"""The venue's outbox tables: per venue and table, a "delivered up to" cursor per game and
the marks of what was done once (companion/service/venue_outbox.py runs these on the service's
thread, through its connection)."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

SCHEMA = """
CREATE TABLE IF NOT EXISTS venue_outbox (
    venue TEXT NOT NULL,
    tbl TEXT NOT NULL,
    game_id TEXT NOT NULL,
    delivered INTEGER NOT NULL,
    tracked INTEGER NOT NULL,
    PRIMARY KEY (venue, tbl, game_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS venue_marks (
    venue TEXT NOT NULL,
    tbl TEXT NOT NULL,
    mark TEXT NOT NULL,
    PRIMARY KEY (venue, tbl, mark)
) WITHOUT ROWID;
"""

_OWED = ("FROM venue_outbox o JOIN (SELECT game_id, MAX(seq) AS n FROM events GROUP BY "
         "game_id) e ON e.game_id = o.game_id WHERE o.venue = ? AND o.tbl = ? AND o.tracked = 1")


def ensure(conn: sqlite3.Connection) -> None:
    conn.executescript(SCHEMA)


def cursors(conn: sqlite3.Connection, venue: str, tbl: str) -> dict[str, tuple[int, bool]]:
    """``{game: (delivered, tracked)}``."""
    rows = conn.execute("SELECT game_id, delivered, tracked FROM venue_outbox WHERE venue = ? "
                        "AND tbl = ?", (venue, tbl)).fetchall()
    return {str(g): (int(d), bool(t)) for g, d, t in rows}


def track(conn: sqlite3.Connection, venue: str, tbl: str, game_id: str, tracked: bool) -> None:
    """Note a game (once; within a transaction)."""
    conn.execute("INSERT OR IGNORE INTO venue_outbox (venue, tbl, game_id, delivered, tracked) "
                 "VALUES (?, ?, ?, 0, ?)", (venue, tbl, game_id, int(tracked)))


def marked(conn: sqlite3.Connection, venue: str, tbl: str, mark: str) -> bool:
    return conn.execute("SELECT 1 FROM venue_marks WHERE venue = ? AND tbl = ? AND mark = ?",
                        (venue, tbl, mark)).fetchone() is not None


def mark(conn: sqlite3.Connection, venue: str, tbl: str, mark: str) -> None:
    """Note ``mark`` done (within a transaction)."""
    conn.execute("INSERT OR IGNORE INTO venue_marks (venue, tbl, mark) VALUES (?, ?, ?)",
                 (venue, tbl, mark))


def advance(conn: sqlite3.Connection, venue: str, tbl: str,
            delivered: Mapping[str, int]) -> None:
    """Move the cursors forward, never back (within a transaction)."""
    conn.executemany("UPDATE venue_outbox SET delivered = MAX(delivered, ?) WHERE venue = ? "
                     "AND tbl = ? AND game_id = ?",
                     [(seq, venue, tbl, g) for g, seq in delivered.items()])


def owed_by_game(conn: sqlite3.Connection, venue: str, tbl: str) -> dict[str, tuple[int, int]]:
    """``{game: (last seq, delivered)}`` for each tracked game."""
    rows = conn.execute("SELECT o.game_id, e.n, o.delivered " + _OWED, (venue, tbl)).fetchall()
    return {str(g): (int(n), int(d)) for g, n, d in rows}


def owed(conn: sqlite3.Connection, venue: str, tbl: str) -> int:
    """Events of tracked games not yet delivered."""
    row = conn.execute("SELECT COALESCE(SUM(e.n - o.delivered), 0) " + _OWED,
                       (venue, tbl)).fetchone()
    return int(row[0])
