"""sd_notify over a real AF_UNIX datagram socket, as systemd would receive it."""

from __future__ import annotations

import os
import socket
import tempfile
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.platform.notify import Notifier, WatchdogPinger, watchdog_interval


def _receiver(address: str | bytes) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.settimeout(2)
    return sock


@pytest.fixture
def path_socket() -> Iterator[tuple[str, socket.socket]]:
    # A short directory: AF_UNIX paths are limited to 107 bytes.
    with tempfile.TemporaryDirectory(prefix="nfy") as tmp:
        path = str(Path(tmp) / "notify")
        sock = _receiver(path)
        yield path, sock
        sock.close()


def test_ready_reaches_systemd_over_a_path_socket(path_socket: tuple[str, socket.socket]) -> None:
    path, sock = path_socket
    notifier = Notifier.from_env({"NOTIFY_SOCKET": path})
    assert notifier.ready(status="Serving on port 8080")
    assert sock.recv(4096) == b"READY=1\nSTATUS=Serving on port 8080"
    notifier.close()


def test_abstract_socket_address_with_at_sign() -> None:
    name = f"companion-test-{uuid.uuid4().hex}"
    sock = _receiver(b"\0" + name.encode())
    try:
        notifier = Notifier.from_env({"NOTIFY_SOCKET": "@" + name})
        assert notifier.watchdog_ping()
        assert notifier.stopping()
        assert sock.recv(4096) == b"WATCHDOG=1"
        assert sock.recv(4096) == b"STOPPING=1"
        notifier.close()
    finally:
        sock.close()


def test_status_text_stays_one_line(path_socket: tuple[str, socket.socket]) -> None:
    # A newline in the text would otherwise inject a second assignment such as READY=1.
    path, sock = path_socket
    notifier = Notifier(path)
    notifier.status("Game over\nREADY=1")
    assert sock.recv(4096) == b"STATUS=Game over READY=1"
    notifier.close()


def test_without_notify_socket_everything_is_a_quiet_no_op() -> None:
    notifier = Notifier.from_env({})
    assert not notifier.enabled
    assert notifier.ready() is False
    assert notifier.watchdog_ping() is False


def test_a_vanished_socket_does_not_crash_the_service() -> None:
    notifier = Notifier("/nonexistent/dir/notify")
    assert notifier.ready() is False
    notifier.close()


def test_watchdog_interval_is_read_for_our_own_pid_only() -> None:
    env = {"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}
    assert watchdog_interval(env) == 30.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 30.0
    assert watchdog_interval({**env, "WATCHDOG_PID": "1"}, pid=4242) is None
    assert watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None


def test_pinger_pings_only_while_healthy(path_socket: tuple[str, socket.socket]) -> None:
    path, sock = path_socket
    healthy = threading.Event()
    healthy.set()
    notifier = Notifier(path)
    pinger = WatchdogPinger(notifier, interval=0.1, healthy=healthy.is_set)
    pinger.start()
    try:
        assert sock.recv(4096) == b"WATCHDOG=1"
        healthy.clear()
        sock.settimeout(0.3)
        drained = 0
        with pytest.raises(TimeoutError):
            while True:  # at most one ping can already be in flight
                sock.recv(4096)
                drained += 1
                assert drained <= 1
    finally:
        pinger.stop()
        notifier.close()


def test_pinger_does_nothing_without_a_watchdog() -> None:
    pinger = WatchdogPinger(Notifier("/nonexistent"), interval=None, healthy=lambda: True)
    pinger.start()
    assert pinger._thread is None
    pinger.stop()


def test_a_stuck_writer_stops_the_watchdog_pings() -> None:
    """A writer thread that is alive but stuck (a deadlock, a write that never returns) used
    to keep the watchdog fed: only the thread's liveness was checked."""
    from companion.platform.notify import WriterTurns
    from companion.service.writer_thread import WriterThread

    now = [0.0]
    writer = WriterThread().start()
    turns = WriterTurns(writer.enqueue, patience_s=15, clock=lambda: now[0])
    release = threading.Event()
    try:
        assert turns()
        writer.call(lambda: None)  # the writer turns: the no-op queued before has run
        now[0] += 20
        assert turns()
        writer.enqueue(release.wait)  # the writer gets stuck
        now[0] += 1
        assert turns()  # the no-op it was given has run; a new one waits behind the stuck write
        now[0] += 10
        assert turns()  # patience
        now[0] += 10
        assert writer._thread is not None and writer._thread.is_alive()
        assert not turns()
        release.set()
        writer.call(lambda: None)
        now[0] += 1
        assert turns()
    finally:
        release.set()
        writer.stop_thread()
