"""Read models of the past: a game's log rows in pages, finished games with their versions,
the box profile each game was set up from, and the kept summaries of the household's
history (table ``game_summaries``: a cache of what companion/service/history.py computes
from the logs, which stay the truth; a backup carries it along, any version can rebuild it)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS game_summaries (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    version INTEGER NOT NULL,
    summary TEXT NOT NULL
) WITHOUT ROWID;
"""

RawRow = tuple[int, int, float, str, str, str, str]
"""An event row as stored: seq, cmd, time, type, data, say, cite (decoded by the reader)."""


def rows_after(conn: sqlite3.Connection, game_id: str, after: int, limit: int) -> list[RawRow]:
    """Up to ``limit`` of the game's event rows after sequence number ``after``, oldest first."""
    return conn.execute("SELECT seq, cmd, time, type, data, say, cite FROM events WHERE "
                        "game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                        (game_id, after, limit)).fetchall()


def last_seq(conn: sqlite3.Connection, game_id: str) -> int:
    """The game's last event's sequence number (0: no such game, or no event)."""
    found = conn.execute("SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,)).fetchone()
    return int(found[0] or 0)


def setup_profiles(conn: sqlite3.Connection) -> dict[str, str]:
    """Per game, the box profile its setup named (games set up without one left out)."""
    rows = conn.execute("SELECT game_id, json_extract(body, '$.profile') FROM commands WHERE "
                        "cmd = 0 AND json_extract(body, '$.profile') IS NOT NULL").fetchall()
    return {str(g): str(p) for g, p in rows}


def kept_summaries(conn: sqlite3.Connection) -> dict[str, tuple[int, dict[str, Any]]]:
    """Per game, the version its kept summary was computed at and the summary."""
    conn.executescript(SCHEMA)
    rows = conn.execute("SELECT game_id, version, summary FROM game_summaries")
    return {g: (int(v), json.loads(s)) for g, v, s in rows.fetchall()}


def keep_summary(conn: sqlite3.Connection, game_id: str, version: int,
                 kept: Mapping[str, Any]) -> None:
    """Keep a game's summary computed at ``version`` (committed when this returns)."""
    conn.executescript(SCHEMA)
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("INSERT OR REPLACE INTO game_summaries VALUES (?, ?, ?)",
                     (game_id, version, json.dumps(kept)))
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
