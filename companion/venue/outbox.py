"""The outbox: the event log itself, plus a "delivered up to" cursor per game for a venue.

The cursor lives in the same SQLite file, in its own table. The service holds that file
alone (exclusive locking, see store.database), so every read and write here runs as a job on
the service's thread, through its connection (a few small writes a second at most; the
screen keys events by game and sequence number, so an event sent twice is ignored). The game
service's tables are only read, through :class:`companion.store.database.Store`'s read API.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from companion.store.database import Row, Store

T = TypeVar("T")


class Writer(Protocol):
    """What the outbox needs of the game service: its store, and its thread to run on."""

    store: Store

    def call(self, fn: Callable[..., T], *args: Any, timeout: float = 30) -> T: ...

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


class Outbox:
    """What a table still owes one venue: the events after each game's cursor."""

    def __init__(self, service: Writer, venue: str, table: str) -> None:
        self.service = service
        self.venue, self.table = venue, table
        service.call(lambda: service.store.conn.executescript(SCHEMA))

    def close(self) -> None:
        """Nothing to close: the connection is the service's."""

    def _run(self, fn: Callable[[Store], T]) -> T:
        return self.service.call(lambda: fn(self.service.store))

    def games(self) -> dict[str, dict[str, object]]:
        """Every game in the log, by id (``id, edition, title, created, status``)."""
        return {g["id"]: g for g in self._run(lambda st: st.games())}

    def cursors(self) -> dict[str, tuple[int, bool]]:
        """``{game: (delivered, tracked)}`` for this venue and table."""
        rows = self._run(lambda st: st.conn.execute(
            "SELECT game_id, delivered, tracked FROM venue_outbox WHERE venue = ? AND tbl = ?",
            (self.venue, self.table)).fetchall())
        return {g: (int(d), bool(t)) for g, d, t in rows}

    def track(self, game_id: str, tracked: bool) -> None:
        """Note a game the first time it is seen: a game that had already finished before
        this table joined the venue is not sent (``tracked`` False); any other is, whole."""
        def write(st: Store) -> None:
            with st.transaction() as conn:
                conn.execute("INSERT OR IGNORE INTO venue_outbox (venue, tbl, game_id, "
                             "delivered, tracked) VALUES (?, ?, ?, 0, ?)",
                             (self.venue, self.table, game_id, int(tracked)))
        self._run(write)

    def marked(self, mark: str) -> bool:
        """Whether something done once for this venue and table (``mark``) was done."""
        return bool(self._run(lambda st: st.conn.execute(
            "SELECT 1 FROM venue_marks WHERE venue = ? AND tbl = ? AND mark = ?",
            (self.venue, self.table, mark)).fetchone()))

    def mark(self, mark: str) -> None:
        def write(st: Store) -> None:
            with st.transaction() as conn:
                conn.execute("INSERT OR IGNORE INTO venue_marks (venue, tbl, mark) "
                             "VALUES (?, ?, ?)", (self.venue, self.table, mark))
        self._run(write)

    def save(self, delivered: Mapping[str, int]) -> None:
        """Move the cursors forward (never back)."""
        if not delivered:
            return
        rows = [(seq, self.venue, self.table, g) for g, seq in delivered.items()]

        def write(st: Store) -> None:
            with st.transaction() as conn:
                conn.executemany(
                    "UPDATE venue_outbox SET delivered = MAX(delivered, ?) WHERE venue = ? AND "
                    "tbl = ? AND game_id = ?", rows)
        self._run(write)

    def rows(self, game_id: str, after: int = 0) -> list[Row]:
        return self._run(lambda st: st.rows(game_id, after=after))

    def last_seq(self, game_id: str) -> int:
        row = self._run(lambda st: st.conn.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?",
            (game_id,)).fetchone())
        return int(row[0])

    def owed_by_game(self) -> dict[str, tuple[int, int]]:
        """``{game: (last seq, delivered)}`` for each tracked game."""
        rows = self._run(lambda st: st.conn.execute(
            "SELECT o.game_id, e.n, o.delivered FROM venue_outbox o JOIN (SELECT game_id, "
            "MAX(seq) AS n FROM events GROUP BY game_id) e ON e.game_id = o.game_id "
            "WHERE o.venue = ? AND o.tbl = ? AND o.tracked = 1",
            (self.venue, self.table)).fetchall())
        return {g: (int(n), int(d)) for g, n, d in rows}

    def owed(self) -> int:
        """Events of tracked games not yet delivered."""
        row = self._run(lambda st: st.conn.execute(
            "SELECT COALESCE(SUM(e.n - o.delivered), 0) FROM venue_outbox o JOIN (SELECT "
            "game_id, MAX(seq) AS n FROM events GROUP BY game_id) e ON e.game_id = o.game_id "
            "WHERE o.venue = ? AND o.tbl = ? AND o.tracked = 1",
            (self.venue, self.table)).fetchone())
        return int(row[0])
