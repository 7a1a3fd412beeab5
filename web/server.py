"""The production server: waitress, with threads for the page and for live event streams.

Waitress runs each request on a pool thread; an open event stream holds one. ``serve`` sizes
the pool so ``threads - reserve`` streams fit and ``reserve`` threads always stay free for
commands and page loads; a stream beyond that is refused with 503 and the page retries.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

RESERVE = 8


def configure(app: Flask, threads: int) -> None:
    """Fit the app's stream limit to a pool of ``threads``."""
    app.extensions["companion"].streams.capacity = max(1, threads - RESERVE)


def make_server(app: Flask, host: str, port: int, threads: int = 64, **kw: Any) -> Any:
    """A waitress server bound to ``host:port`` (``port`` 0: a free one); call ``.run()``."""
    from waitress.server import create_server

    configure(app, threads)
    return create_server(app, host=host, port=port, threads=threads,
                         connection_limit=max(100, threads * 4), channel_timeout=120,
                         cleanup_interval=10, ident="companion", clear_untrusted_proxy_headers=True,
                         **kw)


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8000, threads: int = 64) -> None:
    """Serve ``app`` until interrupted (blocking)."""
    make_server(app, host, port, threads).run()
