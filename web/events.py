"""Server-Sent Events: one ``view`` event per game version, ``id:`` = the version.

Under the production front (web/front.py) the view only checks who may watch and hands the
stream to the front's event loop, so an open stream holds no thread; under other servers
(Flask's test client, waitress, cheroot) it is a generator on a server thread.

A phone that drops reconnects with ``Last-Event-ID`` (or ``?after=``) and at once gets the
current view if the game moved meanwhile, so it misses nothing. Streams are limited in number
and end after ``stream_seconds`` (the browser reconnects), so they never take every thread.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Blueprint, Response, request, session

from web import access
from web.context import StreamSlots, web
from web.errors import ApiError
from web.front import StreamSpec

bp = Blueprint("events", __name__, url_prefix="/api")

SLICE = 1.0
"""Seconds a stream waits for news before checking whether it should end."""

_cache: dict[tuple[str, str | None], tuple[int, dict[str, Any], bytes]] = {}
_cache_lock = threading.Lock()


def encoded(service: Any, game_id: str, viewer: str | None) -> tuple[int, bytes]:
    """``(version, SSE frame)`` of the game's current view for ``viewer``, serialised once
    per version; viewers who see the same view share one frame."""
    view = service.view(game_id, viewer)
    version = int(view["version"])
    with _cache_lock:
        hit = _cache.get((game_id, viewer))
        if hit is not None and hit[0] == version:
            return version, hit[2]
        same = next((f for (g, _), (v, seen, f) in _cache.items()
                     if g == game_id and v == version and seen == view), None)
    if same is None:
        data = json.dumps(view, separators=(",", ":"), ensure_ascii=False)
        same = f"id: {version}\nevent: view\ndata: {data}\n\n".encode()
    with _cache_lock:
        _cache[(game_id, viewer)] = (version, view, same)
    return version, same


def last_seen() -> int:
    raw = request.headers.get("Last-Event-ID") or request.args.get("after") or ""
    try:
        return int(raw)
    except ValueError:
        return -1


def stream(service: Any, game_id: str, viewer: str | None, after: int, slots: StreamSlots,
           seconds: float, heartbeat: float, gone: Callable[[], bool],
           release: Callable[[], None] | None = None) -> Iterator[bytes]:
    try:
        yield b"retry: 1500\n\n"
        seen = after
        now = time.monotonic()
        end, last_write = now + seconds, now
        while now < end and not gone():
            version, frame = encoded(service, game_id, viewer)
            if version != seen:
                seen, last_write = version, time.monotonic()
                yield frame
                continue
            # wait in short slices so a closing server or a hung-up phone is noticed soon
            service.wait(game_id, seen, max(0.0, min(SLICE, end - now)))
            now = time.monotonic()
            if now - last_write >= heartbeat:
                last_write = now
                yield b": ping\n\n"
    finally:
        (release or slots.give)()


@bp.get("/games/<game_id>/events")
def events(game_id: str) -> Response:
    viewer = access.viewer(game_id)
    w = web()
    sid = session.get("sid")
    owner = (sid, game_id) if sid else None
    superseded = w.streams.take(owner)
    if superseded is None:
        raise ApiError("busy", "Too many live connections; retrying shortly.",
                       headers={"Retry-After": "3"})
    hung_up = request.environ.get("waitress.client_disconnected") or (lambda: False)

    def gone() -> bool:
        return w.closing.is_set() or superseded.is_set() or bool(hung_up())

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    if "companion.front" in request.environ:  # the loop writes the stream: no thread held
        request.environ["companion.stream"] = StreamSpec(
            game_id, viewer, last_seen(), w.settings["stream_seconds"],
            w.settings["heartbeat"], gone, lambda: w.streams.give(owner, superseded),
            frame=lambda: encoded(w.service, game_id, viewer))
        return Response(b"", mimetype="text/event-stream", headers=headers)
    body = stream(w.service, game_id, viewer, last_seen(), w.streams,
                  w.settings["stream_seconds"], w.settings["heartbeat"], gone,
                  release=lambda: w.streams.give(owner, superseded))
    return Response(body, mimetype="text/event-stream", headers=headers)
