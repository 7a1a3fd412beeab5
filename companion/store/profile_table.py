"""The ``box_profiles`` table: each saved box profile's JSON by edition and name (the
statements behind :class:`companion.boxes.profiles.Profiles`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

SCHEMA = """
CREATE TABLE IF NOT EXISTS box_profiles (
    edition TEXT NOT NULL,
    name TEXT NOT NULL,
    body TEXT NOT NULL,
    updated REAL NOT NULL,
    PRIMARY KEY (edition, name)
)
"""


def ensure(conn: sqlite3.Connection) -> None:
    conn.execute(SCHEMA)


def listed(conn: sqlite3.Connection, edition: str | None) -> list[tuple[str, str, float]]:
    """``(edition, name, updated)`` of every profile (of ``edition``), in order."""
    sql, args = "SELECT edition, name, updated FROM box_profiles", []
    if edition:
        sql, args = sql + " WHERE edition = ?", [edition]
    return [(str(e), str(n), float(u))
            for e, n, u in conn.execute(sql + " ORDER BY edition, name", args).fetchall()]


def bodies(conn: sqlite3.Connection, name: str, edition: str | None) -> list[str]:
    """The stored JSON of each profile called ``name`` (of ``edition``)."""
    sql, args = "SELECT body FROM box_profiles WHERE name = ?", [name]
    if edition:
        sql, args = sql + " AND edition = ?", [name, edition]
    return [str(r[0]) for r in conn.execute(sql, args).fetchall()]


def exists(conn: sqlite3.Connection, edition: str, name: str) -> bool:
    return conn.execute("SELECT 1 FROM box_profiles WHERE edition = ? AND name = ?",
                        (edition, name)).fetchone() is not None


def put(conn: sqlite3.Connection, edition: str, name: str, body: str, updated: float) -> None:
    conn.execute("INSERT OR REPLACE INTO box_profiles (edition, name, body, updated) "
                 "VALUES (?, ?, ?, ?)", (edition, name, body, updated))


def delete(conn: sqlite3.Connection, edition: str, name: str) -> None:
    conn.execute("DELETE FROM box_profiles WHERE edition = ? AND name = ?", (edition, name))


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` on a connection in autocommit mode (rolled back
    on any error)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
