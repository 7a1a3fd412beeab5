"""Attacks that run in the background against any server on 127.0.0.1 (a ``companion run``
child, or the benchmark's server), so a measurement can be taken while they run.

    .venv/bin/python scripts/reliability --attack slowbody --port 8080 --seconds 60
    .venv/bin/python scripts/bench_web.py --no-browser --attack slowbody   # quiet, then under it

Run from another process (the benchmark starts the first line as a child, at a lower
priority: on the table the attacker is another device, with its own CPU and GIL).

:class:`SlowBodies` is issue 38's first attack: from each of ``addresses`` loopback addresses
(``127.0.2.x`` on: the Pi's own 127.0.0.1 is never one), ``per_address`` connections each
send ``POST /api/join`` with ``Content-Length: 1000`` and 7 body bytes, then nothing; a
connection the server closes (or refuses) is opened again after ``retry`` seconds, as a
hostile guest's script would.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import selectors
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

HEAD = (b"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n" + b'{"code"')


def attacker_address(n: int) -> str:
    """The ``n``-th attacking address (127.0.2.1, 127.0.2.2, … 127.0.3.1, …)."""
    return f"127.0.{2 + n // 250}.{1 + n % 250}"


@dataclass
class SlowBodies:
    """The slow-body attack on ``127.0.0.1:port`` in a thread (:meth:`start`, :meth:`stop`)."""

    port: int
    addresses: int = 45
    per_address: int = 48
    retry: float = 1.0
    opened: int = 0
    """Connections opened (each sent its head and 7 body bytes)."""
    closed_by_server: int = 0
    """Connections the server closed without an answer (a deadline, or room made)."""
    refused: int = 0
    """Connections the server answered (503 busy: too many from that address)."""
    most_held: int = 0
    """The most connections held open at once."""
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> SlowBodies:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = self.addresses * self.per_address + 200
        if soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
        self._thread = threading.Thread(target=self._run, name="slow-bodies", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(30)

    def figures(self) -> dict[str, Any]:
        return {"attack": f"{self.addresses} addresses x {self.per_address} slow bodies",
                "attack connections opened": self.opened,
                "attack sockets open at once (its side, refused ones too)": self.most_held,
                "closed by the server without an answer": self.closed_by_server,
                "refused 503 (per address)": self.refused}

    def _open(self, sel: selectors.BaseSelector, addr: str) -> bool:
        s = socket.socket()
        try:
            s.bind((addr, 0))
            s.connect(("127.0.0.1", self.port))
            s.sendall(HEAD)
        except OSError:
            s.close()
            return False
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, addr)
        self.opened += 1
        return True

    def _run(self) -> None:
        sel = selectors.DefaultSelector()
        due: list[tuple[float, str]] = [(0.0, attacker_address(n))
                                        for n in range(self.addresses)
                                        for _ in range(self.per_address)]
        try:
            while not self._stop.is_set():
                now = time.monotonic()
                ready = [a for t, a in due if t <= now]
                due = [(t, a) for t, a in due if t > now]
                for addr in ready:
                    if not self._stop.is_set() and not self._open(sel, addr):
                        due.append((now + self.retry, addr))
                self.most_held = max(self.most_held, len(sel.get_map()))
                for key, _ in sel.select(timeout=0.2):
                    s: socket.socket = key.fileobj  # type: ignore[assignment]
                    try:
                        data = s.recv(4096)
                    except OSError:
                        data = b""
                    if data.startswith(b"HTTP/1.1 "):
                        self.refused += 1
                    else:
                        self.closed_by_server += 1
                    sel.unregister(s)
                    s.close()
                    due.append((time.monotonic() + self.retry, key.data))
        finally:
            for key in list(sel.get_map().values()):
                key.fileobj.close()  # type: ignore[union-attr]
            sel.close()


class InChild:
    """An attack run in a forked child at nice 10 (:meth:`start`, :meth:`stop` gives its
    figures): on the table the attacker is another device, with its own CPU, and its thread
    must not take the measuring process's GIL."""

    def __init__(self, attack: Any) -> None:
        ctx = multiprocessing.get_context("fork")
        self._stop = ctx.Event()
        self._out: Any = ctx.Queue()
        self._proc = ctx.Process(target=self._run, args=(attack,), daemon=True)

    def _run(self, attack: Any) -> None:
        os.nice(10)
        attack.start()
        self._stop.wait()
        attack.stop()
        self._out.put(attack.figures())

    def start(self) -> InChild:
        self._proc.start()
        return self

    def stop(self) -> dict[str, Any]:
        self._stop.set()
        figures: dict[str, Any] = self._out.get(timeout=60)
        self._proc.join(30)
        return figures


ATTACKS: dict[str, Callable[[int], Any]] = {"slowbody": lambda port: SlowBodies(port)}
"""Background attacks by name: each takes the server's port, has ``start``, ``stop`` and
``figures``."""


def run_attack(names: list[str], port: int, seconds: float) -> dict[str, Any]:
    """Run the named attacks against ``127.0.0.1:port`` for ``seconds`` (or until SIGINT):
    their figures."""
    running = [ATTACKS[n](port).start() for n in names]
    try:
        time.sleep(seconds)
    except KeyboardInterrupt:
        pass
    finally:
        for attack in running:
            attack.stop()
    return {k: v for attack in running for k, v in attack.figures().items()}
