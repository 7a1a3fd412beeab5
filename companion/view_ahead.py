"""A move's views, built on a helper thread while the service thread waits for the commit's
fsync (which releases the GIL), and kept once the commit has succeeded: the one view every
phone shares, or, for an edition with hidden hands, the view of each viewer watching."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from companion.engine.editions import find_edition
from companion.engine.state import BaseState
from companion.engine.types import Event
from companion.game_record import RECENT, GameRecord, PhoneView, _render, _shared_view

log = logging.getLogger("companion.service")

Hook = Callable[[str, str | None, PhoneView], None]
"""``hook(game_id, viewer key, view)``, on the helper thread with a view built ahead."""


Built = list[tuple[str | None, PhoneView]]
"""The views built ahead: (viewer key, view) each."""


def start(pool: ThreadPoolExecutor, hooks: list[Hook], rec: GameRecord, events: list[Event],
          state: BaseState, first: int) -> Future[Built] | None:
    """Start building the views of the version these events make (the same :func:`_render`
    as ``GameService.view``) on ``pool``'s thread, while the service thread commits: the
    fsync leaves the CPU free, and the views are ready when the phones need them. That is
    the shared view, or, for an edition that shows each viewer their own view (Master
    Trainer's hands), one per viewer already looking (the keys of ``rec.views``). ``hooks``
    then see each (a front prepares its patch). Nothing is published from them before the
    commit; a failed commit drops them. None when nobody looks."""
    rules = find_edition(rec.edition)
    keys: list[str | None] = [None] if _shared_view(rules) else list(rec.views)
    if not keys:
        return None
    recent = deque(rec.recent, maxlen=RECENT)
    cites = dict(rec.cites) if any(e.cite for e in events) else rec.cites
    for i, e in enumerate(events):
        if e.say:
            recent.append((first + i, e.say))
        if e.cite:
            cites[first + i] = e.cite
    version = max(first + len(events) - 1, rec.version)
    lines = tuple(recent)

    def build() -> Built:
        built: Built = []
        for key in keys:
            view = _render(rec, rules, version, state, key, lines, cites)
            for hook in hooks:
                try:
                    hook(rec.id, key, view)
                except Exception:  # only a head start: the work is done again if needed
                    log.exception("a view-ahead hook failed")
            built.append((key, view))
        return built

    try:
        return pool.submit(build)
    except RuntimeError:  # shutting down
        return None


def take(rec: GameRecord, ahead: Future[Built]) -> None:
    """After the commit: keep the views built ahead that are of the version now current (a
    view that failed to build is simply built later, when asked for)."""
    try:
        built = ahead.result(timeout=5)
    except Exception:  # built again on demand; the move itself is committed
        log.exception("building the view ahead failed")
        return
    for key, view in built:
        if view["version"] == rec.version:
            rec.views[key] = view
