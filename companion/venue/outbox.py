"""The outbox: the event log itself, plus a "delivered up to" cursor per game for a venue.

The cursor lives in the same SQLite file, in its own table, written through this module's
own connection (``synchronous=NORMAL``, a few small writes a second at most): losing the last
cursor update in a power cut only means sending some events again, which the venue screen
ignores (it keys events by game and sequence number). The game service's tables are only
read, through :class:`companion.store.Store`'s read API.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from companion.store import Row, Store

SCHEMA = """
CREATE TABLE IF NOT EXISTS venue_outbox (
    venue TEXT NOT NULL,
    tbl TEXT NOT NULL,
    game_id TEXT NOT NULL,
    delivered INTEGER NOT NULL,
    tracked INTEGER NOT NULL,
    PRIMARY KEY (venue, tbl, game_id)
) WITHOUT ROWID;
"""


class Outbox:
    """What a table still owes one venue: the events after each game's cursor."""

    def __init__(self, db: Path, venue: str, table: str) -> None:
        self.store = Store(db)
        self.store.conn.execute("PRAGMA synchronous=NORMAL")
        self.store.conn.executescript(SCHEMA)
        self.venue, self.table = venue, table

    def close(self) -> None:
        self.store.close()

    def games(self) -> dict[str, dict[str, object]]:
        """Every game in the log, by id (``id, edition, title, created, status``)."""
        return {g["id"]: g for g in self.store.games()}

    def cursors(self) -> dict[str, tuple[int, bool]]:
        """``{game: (delivered, tracked)}`` for this venue and table."""
        cur = self.store.conn.execute(
            "SELECT game_id, delivered, tracked FROM venue_outbox WHERE venue = ? AND tbl = ?",
            (self.venue, self.table))
        return {g: (int(d), bool(t)) for g, d, t in cur.fetchall()}

    def track(self, game_id: str, tracked: bool) -> None:
        """Note a game the first time it is seen: a game that had already finished before
        this table joined the venue is not sent (``tracked`` False); any other is, whole."""
        with self.store.transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO venue_outbox (venue, tbl, game_id, delivered, "
                         "tracked) VALUES (?, ?, ?, 0, ?)",
                         (self.venue, self.table, game_id, int(tracked)))

    def save(self, delivered: Mapping[str, int]) -> None:
        """Move the cursors forward (never back)."""
        if not delivered:
            return
        with self.store.transaction() as conn:
            conn.executemany(
                "UPDATE venue_outbox SET delivered = MAX(delivered, ?) WHERE venue = ? AND "
                "tbl = ? AND game_id = ?",
                [(seq, self.venue, self.table, g) for g, seq in delivered.items()])

    def rows(self, game_id: str, after: int = 0) -> list[Row]:
        return self.store.rows(game_id, after=after)

    def last_seq(self, game_id: str) -> int:
        row = self.store.conn.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)).fetchone()
        return int(row[0])

    def owed(self) -> int:
        """Events of tracked games not yet delivered."""
        row = self.store.conn.execute(
            "SELECT COALESCE(SUM(e.n - o.delivered), 0) FROM venue_outbox o JOIN (SELECT "
            "game_id, MAX(seq) AS n FROM events GROUP BY game_id) e ON e.game_id = o.game_id "
            "WHERE o.venue = ? AND o.tbl = ? AND o.tracked = 1",
            (self.venue, self.table)).fetchone()
        return int(row[0])
