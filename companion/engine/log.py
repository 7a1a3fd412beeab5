"""A game's log in force: which events an undo took back (pure; no edition involved)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from companion.engine.types import Event

GAME_STARTED = "game_started"
UNDONE = "undone"


def undo_marks(log: Iterable[tuple[int, Event]]) -> list[tuple[int, int]]:
    """Every ``undone`` event of the log: ``(its seq, the last seq it kept)``."""
    return [(seq, int(e.data["to_seq"])) for seq, e in log if e.type == UNDONE]


def taken_back(seq: int, marks: Sequence[tuple[int, int]]) -> bool:
    """Whether an undo took back the event at ``seq``: an ``undone`` event at ``m`` that kept
    up to ``t`` takes back every event between (``marks``: the whole log's
    :func:`undo_marks`, so a log can be read a row at a time after them)."""
    return any(t < seq < m for m, t in marks)


def effective(
    log: Iterable[tuple[int, Event]], keep_markers: bool = False
) -> list[tuple[int, Event]]:
    """The events still in force (:func:`taken_back`). Sequence numbers come from the log;
    nothing is ever deleted there. ``keep_markers`` keeps the ``undone`` events themselves
    that are still in force (for the players' log)."""
    log = list(log)
    marks = undo_marks(log)
    return [(seq, e) for seq, e in log
            if (keep_markers or e.type != UNDONE) and not taken_back(seq, marks)]
