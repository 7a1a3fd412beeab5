"""The ``tags`` table (UID -> edition and object) and the box profiles' tag listings: the
statements behind :class:`companion.service.tags.TagRegistry` and
companion/boxes/card_tags.py. Nothing here commits."""

from __future__ import annotations

import json
import sqlite3

SCHEMA = """
CREATE TABLE IF NOT EXISTS tags (
    uid TEXT PRIMARY KEY,
    edition TEXT NOT NULL,
    object TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    enrolled_at REAL NOT NULL,
    UNIQUE (edition, object)
)
"""


def ensure(conn: sqlite3.Connection) -> None:
    conn.execute(SCHEMA)


def enrolled(conn: sqlite3.Connection, uid: str) -> tuple[str, str, str] | None:
    """``(edition, object, label)`` the tag is enrolled as (its label as stored), or None."""
    row = conn.execute("SELECT edition, object, label FROM tags WHERE uid = ?",
                       (uid,)).fetchone()
    return None if row is None else (str(row[0]), str(row[1]), str(row[2]))


def tag_of(conn: sqlite3.Connection, edition: str, obj: str) -> str | None:
    """The UID enrolled as ``obj`` of ``edition``, or None."""
    row = conn.execute("SELECT uid FROM tags WHERE edition = ? AND object = ?",
                       (edition, obj)).fetchone()
    return None if row is None else str(row[0])


def put(conn: sqlite3.Connection, uid: str, edition: str, obj: str, label: str,
        at: float) -> None:
    """Make ``uid`` stand for ``obj`` alone (any other tag of the object, and any other
    object of the tag, forgotten)."""
    conn.execute("DELETE FROM tags WHERE uid = ? OR (edition = ? AND object = ?)",
                 (uid, edition, obj))
    conn.execute("INSERT INTO tags (uid, edition, object, label, enrolled_at) "
                 "VALUES (?, ?, ?, ?, ?)", (uid, edition, obj, label, at))


def forget(conn: sqlite3.Connection, uid: str) -> bool:
    """Remove a tag; True if it was enrolled."""
    return conn.execute("DELETE FROM tags WHERE uid = ?", (uid,)).rowcount > 0


def objects_with_tags(conn: sqlite3.Connection, edition: str) -> set[str]:
    """The objects of ``edition`` that have a tag."""
    return {str(r[0]) for r in conn.execute("SELECT object FROM tags WHERE edition = ?",
                                            (edition,))}


def setup_profile(conn: sqlite3.Connection, game_id: str) -> str:
    """The name of the box profile the game was set up with ("" for none)."""
    row = conn.execute("SELECT json_extract(body, '$.profile') FROM commands WHERE "
                       "game_id = ? AND cmd = 0", (game_id,)).fetchone()
    return str(row[0]) if row and isinstance(row[0], str) else ""


def profile_listings(conn: sqlite3.Connection, uid: str) -> set[tuple[str, str, str]]:
    """``(edition, profile, object)`` for every saved box profile listing ``uid`` (none when
    no profile was ever saved)."""
    out: set[tuple[str, str, str]] = set()
    try:
        rows = conn.execute("SELECT edition, name, body FROM box_profiles "
                            "WHERE instr(body, ?) > 0", (uid,)).fetchall()
    except sqlite3.OperationalError:  # no profile was ever saved: no table yet
        return out
    for edition, name, body in rows:
        obj = dict(json.loads(body)).get("tags", {}).get(uid)
        if isinstance(obj, str):
            out.add((str(edition), str(name), obj))
    return out
