"""systemd readiness and watchdog notifications (the sd_notify datagram protocol, no dependency).

systemd passes a socket path in ``$NOTIFY_SOCKET`` (a leading ``@`` means a Linux abstract socket);
each notification is one datagram of ``KEY=VALUE`` lines. With no ``$NOTIFY_SOCKET`` (a laptop, a
test, a plain terminal) every call is a silent no-op, so callers never check where they run.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from typing import Any

log = logging.getLogger(__name__)


class Notifier:
    """Sends notifications to the service manager; a no-op when ``address`` is None."""

    def __init__(self, address: str | None) -> None:
        self.address = address
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Notifier:
        """A notifier for ``$NOTIFY_SOCKET`` (unset or empty: a no-op notifier)."""
        env = os.environ if environ is None else environ
        return cls(env.get("NOTIFY_SOCKET") or None)

    @property
    def enabled(self) -> bool:
        """True when notifications go somewhere."""
        return self.address is not None

    def notify(self, **fields: str | int) -> bool:
        """Send ``KEY=VALUE`` fields in one datagram; False if disabled or the send failed."""
        if self.address is None:
            return False
        lines = (f"{key}={_one_line(str(value))}" for key, value in fields.items())
        payload = "\n".join(lines).encode()
        try:
            with self._lock:
                if self._sock is None:
                    self._sock = socket.socket(
                        socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC
                    )
                self._sock.sendto(payload, _sockaddr(self.address))
        except OSError as exc:
            # A notification must never take the service down; the watchdog will notice anyway.
            log.warning("sd_notify to %s failed: %s", self.address, exc)
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """Tell systemd start-up finished (Type=notify units are 'activating' until then)."""
        if status is None:
            return self.notify(READY=1)
        return self.notify(READY=1, STATUS=status)

    def status(self, text: str) -> bool:
        """A one-line status shown by ``systemctl status companion``."""
        return self.notify(STATUS=text)

    def watchdog_ping(self) -> bool:
        """Tell the watchdog the service is healthy."""
        return self.notify(WATCHDOG=1)

    def stopping(self) -> bool:
        """Tell systemd a clean shutdown has begun."""
        return self.notify(STOPPING=1)

    def close(self) -> None:
        """Close the socket (sending again reopens it)."""
        with self._lock:
            if self._sock is not None:
                self._sock.close()
                self._sock = None


def watchdog_interval(
    environ: Mapping[str, str] | None = None, pid: int | None = None
) -> float | None:
    """The watchdog timeout in seconds, or None if no watchdog is expected from this process.

    systemd sets ``WATCHDOG_USEC`` and ``WATCHDOG_PID``; a PID that is not ours means the variables
    were inherited from a parent, and the watchdog is not ours to feed. Ping at least twice per
    interval.
    """
    env = os.environ if environ is None else environ
    raw_pid = env.get("WATCHDOG_PID")
    if raw_pid:
        try:
            if int(raw_pid) != (os.getpid() if pid is None else pid):
                return None
        except ValueError:
            return None
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    return usec / 1_000_000 if usec > 0 else None


class WatchdogPinger:
    """A daemon thread that pings the watchdog every half interval while ``healthy()`` is true.

    When ``healthy()`` returns False (say, the game service thread died or its queue is stuck),
    pinging stops and systemd restarts the service after ``WatchdogSec``.
    """

    def __init__(
        self, notifier: Notifier, interval: float | None, healthy: Callable[[], bool]
    ) -> None:
        self.notifier = notifier
        self.period = interval / 2 if interval else None
        self.healthy = healthy
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start pinging; does nothing when no watchdog is configured."""
        if self.period is None or not self.notifier.enabled or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop pinging and wait for the thread."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        assert self.period is not None
        while True:
            try:
                ok = self.healthy()
            except Exception:  # a crashing health check is an unhealthy service
                log.exception("health check failed")
                ok = False
            if ok:
                self.notifier.watchdog_ping()
            else:
                log.warning("service unhealthy: not pinging the watchdog")
            if self._stop.wait(self.period):
                return


class WriterTurns:
    """A health check that the single writer still turns, for :class:`WatchdogPinger`.

    Each check queues a no-op on the writer (``enqueue(fn)``, as
    ``WriterThread.enqueue``) once the previous one has run. The writer is healthy while the
    no-op it was last given has run, or has waited less than ``patience_s``: a writer thread
    that is alive but stuck (a deadlock, a write that never returns) stops the pings, and
    systemd restarts the service.
    """

    def __init__(self, enqueue: Callable[[Callable[[], None]], Future[Any] | None],
                 patience_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._enqueue = enqueue
        self.patience_s = patience_s
        self._clock = clock
        self._probe: Future[Any] | None = None
        self._since = 0.0

    def __call__(self) -> bool:
        now = self._clock()
        if self._probe is not None and not self._probe.done():
            if now - self._since < self.patience_s:
                return True
            log.error("the game writer has not turned for %.0f s", now - self._since)
            return False
        probe = self._enqueue(_nothing)
        if probe is None:  # the writer thread is not running
            return False
        self._probe, self._since = probe, now
        return True


def _nothing() -> None:
    """What the watchdog asks the writer to do."""


def _sockaddr(address: str) -> str | bytes:
    if address.startswith("@"):
        return b"\0" + address[1:].encode()
    return address


def _one_line(text: str) -> str:
    return " ".join(text.splitlines())
