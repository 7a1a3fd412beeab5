"""The production server for the page, uvicorn serving :class:`web.front.Front` (docs/web.md
says why), and for the venue screen, the same server serving
:class:`web.venue.live.VenueFront` (docs/venue.md)."""

from __future__ import annotations

import os
import socket
from typing import Any

import uvicorn
from flask import Flask

from web.front import Front
from web.guard import Guard
from web.process_tuning import raise_open_files, settle_garbage
from web.venue.live import VenueFront

WORKERS = 16
"""Threads that run Flask: requests are whole and short when they reach one."""
STREAMS = 600
"""Open live streams (each costs a socket and a few KB on the loop, not a thread)."""


class Server:
    """uvicorn on a socket bound at construction; ``run`` serves until ``close``."""

    def __init__(self, app: Flask, host: str, port: int, threads: int = WORKERS, *,
                 head_timeout: float = 10.0, body_timeout: float = 10.0, keepalive: int = 30,
                 per_address: int = 32, max_connections: int = 2000,
                 http: str | None = None, venue: bool = False) -> None:
        """The page's app, or with ``venue`` the venue screen's (``create_venue_app``)."""
        if venue:
            self.front: Front | VenueFront = VenueFront(app, threads)
            self._closing: Any = app.extensions["venue"]["closing"].set
        else:
            app.extensions["companion"].streams.capacity = STREAMS
            self.front = Front(app, threads)
            self._closing = app.extensions["companion"].close_streams
        raise_open_files(max_connections + 100)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.create_server((host, port), family=family, backlog=1024)
        self.effective_port = int(self.sock.getsockname()[1])
        self.guard = Guard(head_timeout, body_timeout, per_address, max_connections,
                           http or os.environ.get("COMPANION_HTTP") or "auto")
        config = uvicorn.Config(self.guard.app(self.front), http=self.guard.protocol,
                                loop="asyncio", lifespan="off", proxy_headers=False,
                                interface="asgi3", timeout_keep_alive=keepalive,
                                timeout_graceful_shutdown=3, log_config=None,
                                access_log=False, server_header=False, ws="none")
        self.uvicorn = uvicorn.Server(config)

    def run(self) -> None:
        self.uvicorn.run(sockets=[self.sock])

    def close(self) -> None:
        """Stop serving: open streams end, connections close, ``run`` returns."""
        self._closing()
        loop = self.front.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self.front.wake)
            except RuntimeError:  # the loop ended meanwhile
                pass
        self.uvicorn.should_exit = True


def make_server(app: Flask, host: str, port: int, threads: int = WORKERS,
                **limits: Any) -> Server:
    """A server bound to ``host:port`` (``port`` 0: a free one); call ``.run()`` to serve."""
    return Server(app, host, port, min(threads, WORKERS), **limits)


def make_venue_server(app: Flask, host: str, port: int) -> Server:
    """The venue screen's server (``app`` from ``web.venue.create_venue_app``), bound to
    ``host:port``; call ``.run()`` to serve."""
    return Server(app, host, port, 8, venue=True)


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8000, threads: int = WORKERS) -> None:
    """Serve ``app`` until interrupted (blocking). Never Flask's debug server."""
    serve_bound(make_server(app, host, port, threads))


def serve_bound(srv: Server) -> None:
    """Serve on the bound server ``srv`` until interrupted (blocking)."""
    settle_garbage()
    try:
        srv.run()
    except KeyboardInterrupt:
        pass
    finally:
        srv.close()
