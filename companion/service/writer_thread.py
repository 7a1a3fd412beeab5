"""The single writer: one write at a time, in order, and the listeners told after each commit.

A thread runs every queued write. A caller that waits (:meth:`WriterThread.call`) gets its
answer after every listener has heard; a caller on an event loop (:meth:`WriterThread.enqueue`)
gets it early, once the listeners subscribed ``first`` (the phones' front) have heard, and the
rest (the table's OLED) and the housekeeping run after it on the thread, before the next
queued item. Such a caller may also ask (``now``) to run its write on its own thread when
nothing else is queued or running: a phone's move then skips the two hand-overs between
threads, each of which waits for a sleeping core to wake (docs/web.md). Whichever thread
runs a write holds the writer's turn (a lock), so writes never overlap.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Self, TypeVar

log = logging.getLogger("companion.service.game_service")

T = TypeVar("T")

QUICK_WRITE = 0.003
"""Seconds a move's write may take, on average lately, for :meth:`WriterThread.enqueue` to
run it on the caller's thread (``now``). The caller is the page server's event loop, which
serves no phone while it waits for the fsync: on a disk like this one (a commit in 0.2-0.4
ms) that costs less than the two thread hand-overs it saves, but an SD card's commit can
take many milliseconds, and then the hand-over's 0.1 ms is nothing and the loop stays free."""
WRITE_WEIGHT = 0.25
"""Weight of the newest write in ``write_seconds`` (a slow card shows within a few moves)."""
Listener = Callable[[str, int, dict[str, Any] | None], None]


class WriterThread:
    """The thread, its queue and the listeners (the base of the game service)."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[
            tuple[Callable[..., Any], tuple[Any, ...], Future[Any], bool] | None]
        self._queue = queue.SimpleQueue()
        """A C queue: putting a move wakes this thread with fewer steps than queue.Queue's
        Python locks and conditions, on the move's critical path both ways."""
        self._thread: threading.Thread | None = None
        self._turn = threading.Lock()
        """Held while a write runs, on the service thread or on a caller's (:meth:`enqueue`
        with ``now``): one write at a time, whichever thread runs it."""
        self._holder: int | None = None
        """The thread running a write now (its ``threading.get_ident()``), else None."""
        self.write_seconds = 0.0
        """A moving average of how long the writes queued to be answered early (the phones'
        moves) take, commit and fsync included (see ``QUICK_WRITE``)."""
        self._listeners: list[Listener] = []
        self._first = 0
        """How many listeners at the head of ``_listeners`` subscribed with ``first``."""
        self._later: list[Callable[[], None]] | None = None
        """While a queued item answered early runs (:meth:`enqueue`): what waits until its
        caller has the answer (the listeners not ``first``, housekeeping); else None."""
        self.changed = threading.Condition()
        self.last_commit = 0.0
        """When the last commit (or notice) was published (``time.monotonic()``)."""
        self.faults: list[dict[str, Any]] = []
        """Start-up problems as notices (``{"text", "level", "game_id"}``); every new
        listener hears them, so they reach the OLED and the page."""

    def start(self) -> Self:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="game-service", daemon=True)
            self._thread.start()
        return self

    def stop_thread(self) -> None:
        """Let the thread finish what is queued before this, then end it."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=10)
            with self._turn:  # a write running on a caller's thread finishes first
                self._thread = None
                while True:  # what such a write left for after its answer still runs
                    try:
                        item = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if item is not None:
                        self._run_queued(*item)

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            with self._turn:
                self._run_queued(*item)

    def _run_queued(self, fn: Callable[..., Any], args: tuple[Any, ...], fut: Future[Any],
                    early: bool) -> None:
        """One queued item (``_turn`` held), unless its caller cancelled it, then what it
        left for after its answer."""
        if not fut.set_running_or_notify_cancel():
            return
        later = self._run(fn, args, fut, early)
        if later:
            self._run_later(later)

    def _run(self, fn: Callable[..., Any], args: tuple[Any, ...], fut: Future[Any],
             early: bool) -> list[Callable[[], None]]:
        """Run one write (``_turn`` held) into ``fut``; what waits until its caller has the
        answer (``early``) is returned."""
        later: list[Callable[[], None]] = []
        self._holder = threading.get_ident()
        self._later = later if early else None
        start = time.perf_counter()
        try:
            result = fn(*args)
        except BaseException as exc:  # handed to the caller
            fut.set_exception(exc)
        else:
            fut.set_result(result)
        finally:
            self._later = None
            if early:  # how long a move's write takes on this storage, lately
                spent = time.perf_counter() - start
                self.write_seconds += (spent - self.write_seconds) * WRITE_WEIGHT
            self._holder = None
        return later

    def _run_later(self, later: list[Callable[[], None]]) -> None:
        """After an early answer: the work kept for later, in order."""
        holder, self._holder = self._holder, threading.get_ident()  # it holds the turn:
        try:  # a listener's own call() runs here, not queued behind itself
            for work in later:
                try:
                    work()
                except Exception:  # the move is committed and answered already
                    log.exception("work after a move failed")
        finally:
            self._holder = holder

    def _after_answer(self, work: Callable[[], None]) -> None:
        """Run ``work`` once the current item's caller has its answer if it was queued to be
        answered early, else now (a waiting caller sees it done)."""
        if self._later is not None and self._holder == threading.get_ident():
            self._later.append(work)
        else:
            work()

    def call(self, fn: Callable[..., T], *args: Any, timeout: float = 30) -> T:
        """Run ``fn(*args)`` on the service thread and wait for its result."""
        if self._thread is None or self._holder == threading.get_ident():
            return fn(*args)
        fut: Future[T] = Future()
        self._queue.put((fn, args, fut, False))
        return fut.result(timeout=timeout)

    @property
    def running(self) -> bool:
        """Whether the service thread runs (else :meth:`call` runs work in the caller)."""
        return self._thread is not None

    def enqueue(self, fn: Callable[..., T], *args: Any,
                then: Callable[[Future[T]], None] | None = None,
                now: bool = False) -> Future[T] | None:
        """Queue ``fn(*args)`` for the service thread without waiting: its future, or None
        when the thread is not running (then use :meth:`call`). For a front that waits on
        an event loop instead of a thread of its own. ``then(future)`` runs on the service
        thread once it is settled; it is attached before the work is queued, so the caller
        does nothing more after waking the thread.

        The answer comes early: as soon as the listeners subscribed ``first`` (the phones'
        front) have heard of the commit; the other listeners (the table's OLED) and the
        housekeeping run after it, before the next queued item.

        ``now``: when no write is queued or running and moves' writes have been quick lately
        (``QUICK_WRITE``), run ``fn`` on the calling thread at once (holding the writer's
        turn, so nothing else writes meanwhile) and return its settled future; what waits
        until after the answer is then queued for the service thread, so the caller never
        draws the screen. Otherwise it is queued as without ``now``."""
        if self._thread is None:
            return None
        fut: Future[T] = Future()
        if then is not None:
            fut.add_done_callback(then)
        if (now and self.write_seconds < QUICK_WRITE and self._queue.empty()
                and self._turn.acquire(blocking=False)):
            try:
                if self._thread is None:  # stopped meanwhile
                    return None
                fut.set_running_or_notify_cancel()
                later = self._run(fn, args, fut, True)
            finally:
                self._turn.release()
            if later:
                self._queue.put((self._run_later, (later,), Future(), False))
            return fut
        self._queue.put((fn, args, fut, True))
        return fut

    def subscribe(self, listener: Listener, *, first: bool = False) -> None:
        """``listener(game_id, version, notice)`` runs on the service thread after each commit
        (``notice`` is None) or refused tap (``notice`` = ``{"text", "level"}``). A new
        listener first hears the start-up faults (damaged games).

        ``first``: told before the others (in the order they subscribed). The phones' front
        only prepares frames and wakes its loop; the table's OLED takes tens of milliseconds
        on I2C, and the phones should not wait for it."""
        if first:
            self._listeners.insert(self._first, listener)
            self._first += 1
        else:
            self._listeners.append(listener)
        for notice in list(self.faults):
            try:
                listener(notice.get("game_id", ""), 0, notice)
            except Exception:  # a broken display must not stop the game
                log.exception("listener failed")

    def quiet_for(self, seconds: float) -> bool:
        """Whether no write runs or waits now and nothing was committed in the last
        ``seconds`` (a move's frames go out to the phones just after its commit): when
        reading the past may take the interpreter (companion/service/past.py)."""
        return (self._holder is None and self._queue.empty()
                and time.monotonic() - self.last_commit >= seconds)

    def _publish(self, game_id: str, version: int, notice: dict[str, Any] | None = None) -> None:
        self.last_commit = time.monotonic()
        with self.changed:
            self.changed.notify_all()
        listeners = list(self._listeners)
        self._tell(listeners[:self._first], game_id, version, notice)
        rest = listeners[self._first:]
        if rest:
            self._after_answer(lambda: self._tell(rest, game_id, version, notice))

    @staticmethod
    def _tell(listeners: list[Listener], game_id: str, version: int,
              notice: dict[str, Any] | None) -> None:
        for listener in listeners:
            try:
                listener(game_id, version, notice)
            except Exception:  # a broken display must not stop the game
                log.exception("listener failed")
