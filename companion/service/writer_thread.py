"""The single writer: one service thread, one queue, one write at a time, in order.

Every write is queued to the thread; a caller waits for its answer (:meth:`WriterThread.call`)
or takes its future (:meth:`WriterThread.enqueue`). What a commit leaves for after its answer
is queued behind it as items of their own, in order: telling the listeners (the phones' front
first, then the table's OLED, which takes tens of milliseconds on I2C), then the housekeeping
(a snapshot, a checkpoint, a backup). So the mover is answered first, and the next write
waits for them all.
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

Listener = Callable[[str, int, dict[str, Any] | None], None]


class WriterThread:
    """The thread, its queue and the listeners (the base of the game service)."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[tuple[Callable[..., Any], tuple[Any, ...], Future[Any]]
                                       | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._busy = False
        """Whether the thread runs an item now."""
        self._listeners: list[Listener] = []
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
        """Let the thread finish what is queued before this, then end it; what those items
        queued behind it (housekeeping) runs here."""
        thread = self._thread
        if thread is not None:
            self._queue.put(None)
            thread.join(timeout=10)
            self._thread = None
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    self._run(*item)

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            self._busy = True
            try:
                self._run(*item)
            finally:
                self._busy = False

    @staticmethod
    def _run(fn: Callable[..., Any], args: tuple[Any, ...], fut: Future[Any]) -> None:
        """One queued item into its future, unless its caller cancelled it."""
        if not fut.set_running_or_notify_cancel():
            return
        try:
            result = fn(*args)
        except BaseException as exc:  # handed to the caller
            fut.set_exception(exc)
        else:
            fut.set_result(result)

    def _on_thread(self) -> bool:
        return self._thread is None or threading.current_thread() is self._thread

    def call(self, fn: Callable[..., T], *args: Any, timeout: float = 30) -> T:
        """Run ``fn(*args)`` on the service thread and wait for its result (at once when
        called on that thread, or when it does not run)."""
        if self._on_thread():
            return fn(*args)
        return self.enqueue(fn, *args).result(timeout=timeout)

    @property
    def running(self) -> bool:
        """Whether the service thread runs (else :meth:`call` runs work in the caller)."""
        return self._thread is not None

    def enqueue(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """Queue ``fn(*args)`` for the service thread without waiting: its future (settled
        at once when the thread does not run)."""
        fut: Future[T] = Future()
        if self._thread is None:
            self._run(fn, args, fut)
        else:
            self._queue.put((fn, args, fut))
        return fut

    def _after_answer(self, work: Callable[[], None]) -> None:
        """What a write leaves (telling the listeners, housekeeping): queued behind it on
        the service thread (its caller has the answer first), or run now when the thread
        does not run."""
        def guarded() -> None:
            try:
                work()
            except Exception:  # the move is committed and answered already
                log.exception("work after a move failed")
        if self._thread is None:
            guarded()
        else:
            self._queue.put((guarded, (), Future()))

    def subscribe(self, listener: Listener, *, first: bool = False) -> None:
        """``listener(game_id, version, notice)`` runs on the service thread after each commit
        (``notice`` is None) or refused tap (``notice`` = ``{"text", "level"}``), in the order
        the listeners subscribed, after the commit's answer; ``first`` puts it ahead of those
        (the phones' front, which only wakes its loop, ahead of the table's OLED). A new
        listener first hears the start-up faults."""
        self._listeners.insert(0, listener) if first else self._listeners.append(listener)
        for notice in list(self.faults):
            try:
                listener(notice.get("game_id", ""), 0, notice)
            except Exception:  # a broken display must not stop the game
                log.exception("listener failed")

    def quiet_for(self, seconds: float) -> bool:
        """Whether no write runs or waits now and nothing was committed in the last
        ``seconds`` (a move's frames go out to the phones just after its commit): when
        reading the past may take the interpreter (companion/service/past.py)."""
        return (not self._busy and self._queue.empty()
                and time.monotonic() - self.last_commit >= seconds)

    def _publish(self, game_id: str, version: int, notice: dict[str, Any] | None = None) -> None:
        self.last_commit = time.monotonic()
        with self.changed:
            self.changed.notify_all()
        self._after_answer(lambda: self._tell(list(self._listeners), game_id, version, notice))

    @staticmethod
    def _tell(listeners: list[Listener], game_id: str, version: int,
              notice: dict[str, Any] | None) -> None:
        for listener in listeners:
            try:
                listener(game_id, version, notice)
            except Exception:  # a broken display must not stop the game
                log.exception("listener failed")
