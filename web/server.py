"""The production server for the page.

The default backend is the front in web/front.py: an asyncio loop that holds every
connection and live stream and hands only complete requests to a few worker threads, with
header/body deadlines and a per-address connection cap (docs/web.md says why). The
thread-per-connection servers ``waitress`` and ``cheroot`` remain selectable
(``COMPANION_WSGI`` or ``backend=``) for comparison: under them each open stream holds one
pool thread, so ``threads - RESERVE`` streams fit and ``RESERVE`` threads stay free.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Protocol

from flask import Flask

RESERVE = 8
SWITCH_INTERVAL = float(os.environ.get("COMPANION_SWITCH_INTERVAL", "0.001"))


class Server(Protocol):
    effective_port: int

    def run(self) -> None: ...

    def close(self) -> None: ...


def configure(app: Flask, threads: int) -> None:
    """Fit the app's stream limit to a pool of ``threads``, and let Python switch threads
    every millisecond instead of every 5 ms, so a woken stream thread waits less."""
    app.extensions["companion"].streams.capacity = max(1, threads - RESERVE)
    sys.setswitchinterval(SWITCH_INTERVAL)


class _Waitress:
    def __init__(self, app: Flask, host: str, port: int, threads: int) -> None:
        from waitress.server import create_server

        self._srv = create_server(app, host=host, port=port, threads=threads,
                                  connection_limit=max(100, threads * 4), channel_timeout=120,
                                  cleanup_interval=10, ident="companion")
        self.effective_port = int(self._srv.effective_port)
        self._app = app
        self._closing = False

    def run(self) -> None:
        try:
            self._srv.run()
        except (OSError, ValueError):
            # waitress's loop may be inside select() on the sockets close() shuts from
            # another thread (EBADF): that is the server stopping, not a fault
            if not self._closing:
                raise

    def close(self) -> None:
        self._closing = True
        self._app.extensions["companion"].close_streams()
        self._srv.close()


class _Cheroot:
    def __init__(self, app: Flask, host: str, port: int, threads: int) -> None:
        from cheroot import wsgi

        self._srv = wsgi.Server((host, port), app, numthreads=threads, max=threads,
                                request_queue_size=64, timeout=30, server_name="companion",
                                accepted_queue_timeout=5)
        self._srv.prepare()
        self.effective_port = int(self._srv.bind_addr[1])
        self._app = app

    def run(self) -> None:
        self._srv.serve()

    def close(self) -> None:
        self._app.extensions["companion"].close_streams()
        self._srv.stop()


class _Front:
    """web/front.py: an asyncio loop holds the connections and the streams; a pool of
    ``threads`` workers runs whole requests."""

    def __init__(self, app: Flask, host: str, port: int, threads: int) -> None:
        from web.front import Front

        self._srv = Front(app, host, port, threads=min(threads, FRONT_WORKERS))
        self.effective_port = self._srv.effective_port

    def run(self) -> None:
        self._srv.run()

    def close(self) -> None:
        self._srv.close()


FRONT_WORKERS = 16
"""Worker threads under the front: requests are whole and short when they reach one."""
FRONT_STREAMS = 600
"""Open live streams under the front (each costs a socket and a few KB, not a thread)."""


def default_backend() -> str:
    return "front"


def make_server(app: Flask, host: str, port: int, threads: int = 64,
                backend: str | None = None) -> Server:
    """A server bound to ``host:port`` (``port`` 0: a free one); call ``.run()`` to serve."""
    kind = backend or os.environ.get("COMPANION_WSGI") or default_backend()
    configure(app, threads)
    if kind == "front":
        app.extensions["companion"].streams.capacity = FRONT_STREAMS
    cls: Any = {"front": _Front, "waitress": _Waitress, "cheroot": _Cheroot}[kind]
    return cls(app, host, port, threads)  # type: ignore[no-any-return]


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8000, threads: int = 64) -> None:
    """Serve ``app`` until interrupted (blocking). Never Flask's debug server."""
    srv = make_server(app, host, port, threads)
    try:
        srv.run()
    except KeyboardInterrupt:
        pass
    finally:
        srv.close()
