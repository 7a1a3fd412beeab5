"""Read models of the household's side tables (not a game's log): what the page shows of them."""

from __future__ import annotations

import sqlite3


def tag_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """How many tags are enrolled, per edition."""
    try:
        rows = conn.execute("SELECT edition, COUNT(*) FROM tags GROUP BY edition").fetchall()
    except sqlite3.OperationalError:  # no tag was ever enrolled: no table yet
        return {}
    return {str(edition): int(n) for edition, n in rows}
