"""Read models of where a game's log stands: its counts, and a game an import would repeat."""

from __future__ import annotations

import sqlite3
from typing import Any


def next_command(conn: sqlite3.Connection, game_id: str) -> int:
    """The number the game's next command gets (0 for a game with none)."""
    row = conn.execute("SELECT COALESCE(MAX(cmd), -1) + 1 FROM commands WHERE game_id = ?",
                       (game_id,)).fetchone()
    return int(row[0])


def game_started_as(conn: sqlite3.Connection, body: str, time: float) -> str | None:
    """The game whose first command is ``body`` (its stored JSON) at ``time``, if any."""
    row = conn.execute("SELECT game_id FROM commands WHERE cmd = 0 AND body = ? AND time = ?",
                       (body, time)).fetchone()
    return None if row is None else str(row[0])


def last_command_times(conn: sqlite3.Connection) -> dict[str, float]:
    """Per game, the wall-clock time of its last command."""
    rows: list[Any] = conn.execute(
        "SELECT game_id, MAX(time) FROM commands GROUP BY game_id").fetchall()
    return {str(g): float(t) for g, t in rows if t is not None}
