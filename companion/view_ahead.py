"""A move's shared view, built on a helper thread while the service thread waits for the
commit's fsync (which releases the GIL), and kept once the commit has succeeded."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from companion.engine.editions import find_edition
from companion.engine.state import BaseState
from companion.engine.types import Event
from companion.game_record import RECENT, GameRecord, _render, _shared_view

log = logging.getLogger("companion.service")

Hook = Callable[[str, str | None, dict[str, Any]], None]
"""``hook(game_id, viewer key, view)``, on the helper thread with a view built ahead."""


def start(pool: ThreadPoolExecutor, hooks: list[Hook], rec: GameRecord, events: list[Event],
          state: BaseState, first: int) -> Future[tuple[str | None, dict[str, Any]]] | None:
    """Start building the shared view of the version these events make (the same
    :func:`_render` as ``GameService.view``) on ``pool``'s thread, while the service
    thread commits: the fsync leaves the CPU free, and the view is ready when the phones
    need it. ``hooks`` then see it (a front prepares its patch). Nothing is published
    from it before the commit; a failed commit drops it. None when the edition shows each
    viewer its own view (built when asked)."""
    rules = find_edition(rec.edition)
    if not _shared_view(rules):
        return None  # one view per viewer (Master Trainer's hands): built when asked
    key: str | None = None
    recent = deque(rec.recent, maxlen=RECENT)
    cites = dict(rec.cites) if any(e.cite for e in events) else rec.cites
    for i, e in enumerate(events):
        if e.say:
            recent.append((first + i, e.say))
        if e.cite:
            cites[first + i] = e.cite
    version = max(first + len(events) - 1, rec.version)

    def build() -> tuple[str | None, dict[str, Any]]:
        view = _render(rec, rules, version, state, key, tuple(recent), cites)
        for hook in hooks:
            try:
                hook(rec.id, key, view)
            except Exception:  # only a head start: the work is done again if needed
                log.exception("a view-ahead hook failed")
        return key, view

    try:
        return pool.submit(build)
    except RuntimeError:  # shutting down
        return None

def take(rec: GameRecord, ahead: Future[tuple[str | None, dict[str, Any]]]) -> None:
    """After the commit: keep the view built ahead if it is of the version now current
    (a view that failed to build is simply built later, when asked for)."""
    try:
        key, view = ahead.result(timeout=5)
    except Exception:  # built again on demand; the move itself is committed
        log.exception("building the view ahead failed")
        return
    if view["version"] == rec.version:
        rec.views[key] = view
