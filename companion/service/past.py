"""Reading the past (a game's replay and story, the household's history) off the table's
move path (docs/history.md, "Reading the past never slows a move").

One worker thread does all of it, one job at a time; :data:`WAITING` jobs may wait behind it
and any more are refused (:class:`PastBusy`), so a guest asking for many replays at once
costs one worker, never a thread per request. A game's log is read from the database in
short turns of the single writer (:data:`ROWS_PER_TURN` raw rows each, decoded on the worker,
never on the writer), so a move waits behind at most one such turn. The worker paces itself
(:class:`Pacer`): after :data:`WORK_SLICE` seconds of work it rests as long, so it takes at
most half a core, and it waits while the table is moving, so a move's thread has the
interpreter to itself. Replays are kept while their events total at
most :data:`KEPT_EVENTS` (a bigger game is built, answered and dropped). Nothing here loads
a finished game into the service's memory.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any, TypeVar

from companion.engine.i18n import data_from_stored, from_stored
from companion.engine.story import Reread, Row, story
from companion.engine.types import Event
from companion.plugins.editions import find_edition
from companion.service import game
from companion.service.history import FORMAT, summary
from companion.service.port import ServicePort
from companion.service.replay import Replay

log = logging.getLogger("companion.service.past")

T = TypeVar("T")

WAITING = 3
"""Jobs that may wait behind the one running; more are refused with :class:`PastBusy`."""
ROWS_PER_TURN = 200
"""Rows of a log read in one turn of the writer (a few hundred microseconds)."""
WORK_SLICE = 0.002
"""Seconds the worker works before it rests as long."""
AFTER_MOVE = 0.05
"""Seconds after a commit during which the worker does not work (the move's frames)."""
MOVES_FIRST = 0.25
"""The longest the worker waits at once for the table to be quiet."""
KEPT_EVENTS = 6_000
"""Events of all the replays kept (about 2 KB each decoded: some 12 MB)."""
KEPT_STORIES = 16
"""Stories kept (each a few kilobytes)."""
KEPT_LOGS = 4
"""Games' explained logs kept (a line each event that said something)."""
ANSWER_SECONDS = 60.0
"""How long a request waits for its job before it is told the companion is busy."""



class PastBusy(RuntimeError):
    """Too many readings of the past asked for at once: try again in a moment."""


class Pacer:
    """Called often by the worker. After :data:`WORK_SLICE` seconds of work it rests as long,
    then, moves first, waits while the table is moving (a write running or waiting, or a
    commit within :data:`AFTER_MOVE` seconds: its frames are going out), at most
    :data:`MOVES_FIRST` seconds at a time, so a guest's reading still ends."""

    def __init__(self, quiet: Callable[[float], bool] = lambda _: True,
                 work: float = WORK_SLICE) -> None:
        self.quiet = quiet
        self.work = work
        self.since = time.perf_counter()

    def __call__(self) -> None:
        spent = time.perf_counter() - self.since
        if spent >= self.work:
            time.sleep(min(spent, 2 * self.work))
            until = time.monotonic() + MOVES_FIRST
            while not self.quiet(AFTER_MOVE) and time.monotonic() < until:
                time.sleep(self.work)
            self.since = time.perf_counter()

    def restart(self) -> None:
        """A job begins: its work is counted from now."""
        self.since = time.perf_counter()


class Past:
    """The worker and what it keeps, for one game service."""

    def __init__(self, service: ServicePort, *, waiting: int = WAITING,
                 kept_events: int = KEPT_EVENTS) -> None:
        self.service = service
        self.kept_events = kept_events
        self._jobs: queue.Queue[tuple[Callable[..., Any], tuple[Any, ...], Future[Any]]]
        self._jobs = queue.Queue(maxsize=waiting)
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        self._replays: OrderedDict[tuple[str, int], Replay] = OrderedDict()
        self._stories: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._lines: OrderedDict[tuple[str, int], list[dict[str, Any]]] = OrderedDict()
        self.pace = Pacer(service.quiet_for)
        self.on_worker = threading.local()

    # -- the worker ---------------------------------------------------------------------------
    def run(self, fn: Callable[..., T], *args: Any, timeout: float = ANSWER_SECONDS) -> T:
        """``fn(*args)`` on the worker, in turn; PastBusy if too many jobs wait already (or
        it is not done within ``timeout``)."""
        if getattr(self.on_worker, "yes", False):
            return fn(*args)
        fut: Future[T] = Future()
        try:
            self._jobs.put_nowait((fn, args, fut))
        except queue.Full:
            raise PastBusy from None
        self._ensure_thread()
        try:
            return fut.result(timeout=timeout)
        except TimeoutError:
            fut.cancel()
            raise PastBusy from None

    def _ensure_thread(self) -> None:
        with self._start:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="past-reader",
                                                daemon=True)
                self._thread.start()

    def _loop(self) -> None:
        self.on_worker.yes = True
        while True:
            fn, args, fut = self._jobs.get()
            if not fut.set_running_or_notify_cancel():
                continue
            self.pace.restart()
            try:
                fut.set_result(fn(*args))
            except BaseException as exc:  # handed to the asker
                fut.set_exception(exc)

    # -- reading the log ----------------------------------------------------------------------
    def rows(self, game_id: str) -> Iterator[Row]:
        """The game's log, oldest first, read in short turns of the writer, decoded here."""
        after = 0
        while True:
            raw = self.service.past_rows(game_id, after, ROWS_PER_TURN)
            for seq, cmd, when, kind, data, say, cite in raw:
                self.pace()
                yield seq, cmd, when, Event(kind, data_from_stored(data), from_stored(say), cite)
            if len(raw) < ROWS_PER_TURN:
                return
            after = raw[-1][0]

    def version(self, game_id: str) -> int:
        """The game's last event's sequence number (0: no such game, or no event)."""
        return self.service.last_seq(game_id)

    # -- what is read -------------------------------------------------------------------------
    def replay(self, game_id: str) -> Replay:
        """The game's replay as it stands (on the worker: call it through :meth:`run`)."""
        key = (game_id, self.version(game_id))
        found = self._replays.get(key)
        if found is not None:
            self._replays.move_to_end(key)
            return found
        made = Replay.of(game_id, list(self.rows(game_id)), pace=self.pace)
        self._replays[key] = made
        while sum(len(r.events) for r in self._replays.values()) > self.kept_events:
            self._replays.popitem(last=False)
        return made

    def story(self, game_id: str) -> dict[str, Any]:
        """The game's story as it stands (on the worker), read a turn of rows at a time."""
        key = (game_id, self.version(game_id))
        found = self._stories.get(key)
        if found is None:
            found = self._stories[key] = story(Reread(lambda: self.rows(game_id)), find_edition)
            while len(self._stories) > KEPT_STORIES:
                self._stories.popitem(last=False)
        return found

    def kept(self) -> int:
        """Events held by the replays kept."""
        return sum(len(r.events) for r in self._replays.values())

    def log_lines(self, game_id: str, edition: str) -> list[dict[str, Any]]:
        """What ``GameService.history`` gives (every explained event, ``n``-th, oldest first),
        read a turn of rows at a time on the worker; kept for the game's version."""
        key = (game_id, self.version(game_id))
        found = self._lines.get(key)
        if found is not None:
            return found
        rules = find_edition(edition)
        rows = list(self.rows(game_id))
        kept = {seq for seq, _ in game.effective((seq, e) for seq, _, _, e in rows)}
        out: list[dict[str, Any]] = []
        for seq, cmd, when, event in rows:
            self.pace()
            if not event.say:
                continue
            item = {"n": len(out) + 1, "seq": seq, "cmd": cmd, "time": when, "type": event.type,
                    "say": event.say, "undone": seq not in kept and event.type != game.UNDONE}
            citation = rules.citation(event.cite)
            if citation is not None:
                item.update(cite=citation["text"], citation=citation)
            out.append(item)
        self._lines[key] = out
        while len(self._lines) > KEPT_LOGS:
            self._lines.popitem(last=False)
        return out

    def summaries(self) -> list[dict[str, Any]]:
        """Every finished game's summary (companion/service/history.py), computed from its log the
        first time it is asked for and kept in the database (again if the game changed
        since, e.g. an undo). On the worker; each game's log read a turn of rows at a time."""
        service = self.service
        have = service.kept_summaries()
        out = []
        profiles: dict[str, str] | None = None
        for g, version in service.finished_games():
            known = have.get(g["id"])
            if known is not None and known[0] == version and known[1].get("format") == FORMAT:
                out.append(known[1])
                continue
            if profiles is None:  # the box profile each game was set up from, read once
                profiles = service.setup_profiles()
            try:
                made = summary(g, list(self.rows(g["id"])), str(profiles.get(g["id"]) or ""))
            except Exception:  # noqa: BLE001 - a damaged game is left out, never the history
                log.warning("game %s left out of the history", g["id"], exc_info=True)
                continue
            service.keep_summary(g["id"], version, made)
            out.append(made)
        return out
