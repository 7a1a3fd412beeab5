"""Loading a game from the database into a :class:`~companion.service.game_record.GameRecord`."""

from __future__ import annotations

import pickle
from collections import deque
from typing import Any

from companion.engine.state import BaseState
from companion.engine.types import Event
from companion.service import game
from companion.service.game_record import RECENT, GameRecord
from companion.store import log_reads, past_reads
from companion.store.database import Row, Store


def load_record(store: Store, code: str, row: dict[str, Any]) -> GameRecord:
    """A game from the database: its snapshot (if taken by this code and still valid) plus
    the events after it, else its whole log replayed; with its recent log lines."""
    game_id = row["id"]
    snap = store.snapshot(game_id)
    state: BaseState | None = None
    rows: list[Row]
    if snap is not None and snap[1] == code:
        rows = store.rows(game_id, after=snap[0])
        if all(r.event.type != game.UNDONE or r.event.data["to_seq"] >= snap[0]
               for r in rows):
            try:
                state = pickle.loads(snap[2])
            except Exception:  # a damaged snapshot: replay instead
                state = None
    if state is not None:
        kept = game.effective([(snap[0], Event("snapshot", {}))] + [  # type: ignore[index]
            (r.seq, r.event) for r in rows])
        state = game.replay((e for seq, e in kept[1:]), state)
        recent_rows = store.rows(game_id, after=max(0, snap[0] - 400))  # type: ignore[index]
    else:
        rows = store.rows(game_id)
        kept = game.effective((r.seq, r.event) for r in rows)
        state = game.replay(e for _, e in kept)
        recent_rows = rows
    kept_recent = game.effective(((r.seq, r.event) for r in recent_rows), keep_markers=True)
    version = past_reads.last_seq(store.conn, game_id)
    commands = log_reads.next_command(store.conn, game_id)
    rec = GameRecord(game_id, row["edition"], row["title"], row["join_code"],
                     (version, state), max(commands, 1),
                     deque(((s, e.say, e.type) for s, e in kept_recent if e.say),
                           maxlen=RECENT))
    rec.history.add(version, state)
    rec.cites = {s: e.cite for s, e in kept_recent if e.cite}
    return rec
