"""The outbox: the event log itself, plus a "delivered up to" cursor per game for a venue.

The cursor lives in the same SQLite file, in its own table. The service holds that file
alone (exclusive locking, see store.database), so every read and write here runs as a job on
the service's thread, through its connection (a few small writes a second at most; the
screen keys events by game and sequence number, so an event sent twice is ignored). The
statements are the store's (companion/store/venue_outbox.py); the game service's tables are
only read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from companion.store import past_reads, venue_outbox
from companion.store.database import Row, Store

T = TypeVar("T")


class Writer(Protocol):
    """What the outbox needs of the game service: its store, and its thread to run on."""

    store: Store

    def call(self, fn: Callable[..., T], *args: Any, timeout: float = 30) -> T: ...


class Outbox:
    """What a table still owes one venue: the events after each game's cursor."""

    def __init__(self, service: Writer, venue: str, table: str) -> None:
        self.service = service
        self.venue, self.table = venue, table
        service.call(lambda: venue_outbox.ensure(service.store.conn))

    def close(self) -> None:
        """Nothing to close: the connection is the service's."""

    def _run(self, fn: Callable[[Store], T]) -> T:
        return self.service.call(lambda: fn(self.service.store))

    def games(self) -> dict[str, dict[str, object]]:
        """Every game in the log, by id (``id, edition, title, created, status``)."""
        return {g["id"]: g for g in self._run(lambda st: st.games())}

    def cursors(self) -> dict[str, tuple[int, bool]]:
        """``{game: (delivered, tracked)}`` for this venue and table."""
        return self._run(lambda st: venue_outbox.cursors(st.conn, self.venue, self.table))

    def track(self, game_id: str, tracked: bool) -> None:
        """Note a game the first time it is seen: a game that had already finished before
        this table joined the venue is not sent (``tracked`` False); any other is, whole."""
        def write(st: Store) -> None:
            with st.transaction() as conn:
                venue_outbox.track(conn, self.venue, self.table, game_id, tracked)
        self._run(write)

    def marked(self, mark: str) -> bool:
        """Whether something done once for this venue and table (``mark``) was done."""
        return self._run(lambda st: venue_outbox.marked(st.conn, self.venue, self.table, mark))

    def mark(self, mark: str) -> None:
        def write(st: Store) -> None:
            with st.transaction() as conn:
                venue_outbox.mark(conn, self.venue, self.table, mark)
        self._run(write)

    def save(self, delivered: Mapping[str, int]) -> None:
        """Move the cursors forward (never back)."""
        if not delivered:
            return

        def write(st: Store) -> None:
            with st.transaction() as conn:
                venue_outbox.advance(conn, self.venue, self.table, delivered)
        self._run(write)

    def rows(self, game_id: str, after: int = 0) -> list[Row]:
        return self._run(lambda st: st.rows(game_id, after=after))

    def last_seq(self, game_id: str) -> int:
        return self._run(lambda st: past_reads.last_seq(st.conn, game_id))

    def owed_by_game(self) -> dict[str, tuple[int, int]]:
        """``{game: (last seq, delivered)}`` for each tracked game."""
        return self._run(lambda st: venue_outbox.owed_by_game(st.conn, self.venue, self.table))

    def owed(self) -> int:
        """Events of tracked games not yet delivered."""
        return self._run(lambda st: venue_outbox.owed(st.conn, self.venue, self.table))
