"""The venue screen's ASGI app, served by the page's server (web/server.py, uvicorn).

The live stream (``/api/venue/events``) runs on the loop: a full ``state`` first (unless
resuming from ``Last-Event-ID``), then ``changes`` batches as the board reports them, a
heartbeat after quiet seconds; it holds no thread and ends at once when the screen hangs up.
Every other route is the Flask app (``create_venue_app``) through a2wsgi's ``WSGIMiddleware``.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any
from urllib.parse import parse_qs

from a2wsgi import WSGIMiddleware
from flask import Flask

EVENTS = "/api/venue/events"
HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"),
           (b"cache-control", b"no-store"), (b"x-accel-buffering", b"no"),
           (b"x-content-type-options", b"nosniff")]


def frame(kind: str, revision: int, data: Any) -> bytes:
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"id: {revision}\nevent: {kind}\ndata: {body}\n\n".encode()


class VenueFront:
    """The ASGI app: the stream on the loop, the rest by Flask on ``workers`` threads."""

    def __init__(self, app: Flask, workers: int = 8) -> None:
        self.settings: dict[str, Any] = app.extensions["venue"]
        self.board = self.settings["board"]
        self.wsgi = WSGIMiddleware(app, workers=workers)  # type: ignore[arg-type]
        self.loop: asyncio.AbstractEventLoop | None = None
        self._news: set[asyncio.Event] = set()
        self.board.listen(self._changed)

    def _changed(self) -> None:
        """The board changed (the MQTT thread): every stream writes what is new."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self.wake)
            except RuntimeError:  # the loop ended meanwhile
                pass

    def wake(self) -> None:
        """On the loop: every stream looks at the board (a change, or the server closing)."""
        for news in self._news:
            news.set()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
        if scope["path"] == EVENTS and scope["method"] == "GET":
            await self._stream(scope, receive, send)
        else:
            await self.wsgi(scope, receive, send)  # type: ignore[arg-type]

    async def _stream(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        raw = dict(scope["headers"]).get(b"last-event-id", b"").decode("latin-1") or next(
            iter(parse_qs(scope["query_string"].decode("latin-1")).get("after", [])), "")
        seen = int(raw) if raw.lstrip("-").isdigit() else -1
        board, closing = self.board, self.settings["closing"]
        while (await receive()).get("more_body"):
            pass  # the request's (empty) body: what comes next is the hang-up
        news = asyncio.Event()
        hung_up = asyncio.ensure_future(receive())  # http.disconnect, when it comes
        hung_up.add_done_callback(lambda _: news.set())
        self._news.add(news)
        try:
            await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
            await _chunk(send, b"retry: 1500\n\n")
            if seen < 0 or seen > board.revision:
                snap = board.snapshot()
                seen = snap["revision"]
                await _chunk(send, frame("state", seen, snap))
            now = last = time.monotonic()
            end = now + self.settings["stream_seconds"]
            while now < end and not hung_up.done() and not closing.is_set():
                news.clear()
                revision, changes = board.changes_since(seen, 0)
                if changes is None:
                    snap = board.snapshot()
                    seen = snap["revision"]
                    await _chunk(send, frame("state", seen, snap))
                    last = now
                elif changes:
                    seen = revision
                    await _chunk(send, frame("changes", seen, changes))
                    last = now
                elif now - last >= self.settings["heartbeat"]:
                    await _chunk(send, b": ping\n\n")
                    last = now
                try:  # a change, a hang-up, the close, or time for a heartbeat
                    await asyncio.wait_for(news.wait(), self.settings["heartbeat"])
                except TimeoutError:
                    pass
                now = time.monotonic()
            if not hung_up.done():
                await send({"type": "http.response.body", "body": b""})
        finally:
            self._news.discard(news)
            hung_up.cancel()


async def _chunk(send: Any, data: bytes) -> None:
    await send({"type": "http.response.body", "body": data, "more_body": True})
