"""The page's server: uvicorn holds every connection on one asyncio loop; Flask answers.

uvicorn (httptools, or h11 where httptools has no wheel) parses HTTP/1.1, keeps connections
alive and times idle ones out. :class:`Front` is the ASGI app it serves: it reads a request's
body on the loop (at most ``MAX_CONTENT_LENGTH``), then runs the Flask app on one of a few
worker threads with the whole request, so every request passes Flask's one set of checks and
no thread ever waits for a slow phone. :class:`web.guard.Guard` adds what uvicorn does not
do: deadlines for a request's head and body, a size limit for the head, and caps on
connections that strangers cannot use to lock the table out.

Live streams (``/api/games/<id>/events``) are checked by the Flask view like any request;
the view then hands the stream to the loop (``environ["companion.stream"]``), where a
coroutine per stream writes a frame for every game version the service publishes. A stream
holds no thread, so hundreds of spectators leave the workers free.
"""

from __future__ import annotations

import asyncio
import io
import logging
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from web.streams import StreamSpec

if TYPE_CHECKING:
    from companion.service.game_service import ServicePort

log = logging.getLogger("web.front")

TICK = 1.0
"""Seconds between a stream's checks whether it must end (hand-over, server closing)."""
FAILED = (500, [("Content-Type", "application/json")],
          b'{"error": "Something went wrong on the companion.", "code": "server_error"}')

Answer = tuple[int, list[tuple[str, str]], bytes, Any]


class HungUp(Exception):
    """The phone went before its request's body was whole."""


class Front:
    """The ASGI app: Flask on ``threads`` workers, live streams on the loop."""

    def __init__(self, app: Any, threads: int = 16) -> None:
        self.app = app
        self.max_body = int(app.config.get("MAX_CONTENT_LENGTH") or 1024 * 1024)
        self.pool = ThreadPoolExecutor(max(1, threads), thread_name_prefix="web")
        self.loop: asyncio.AbstractEventLoop | None = None
        self._news: set[asyncio.Event] = set()
        self._memo: dict[tuple[Any, int], tuple[int, bytes | None]] = {}
        self._ticking: asyncio.TimerHandle | None = None
        """One event per open stream, set when it has something to write."""
        self.streams = 0
        service: ServicePort = app.extensions["companion"].service
        service.subscribe(self._published, first=True)  # before the OLED's redraw

    # -- the service's side ---------------------------------------------------------------------
    def _published(self, game_id: str, version: int, notice: Any) -> None:
        """After a commit (any thread): every open stream writes its next frame."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(self.wake)
        except RuntimeError:  # the loop ended meanwhile
            return

    def wake(self) -> None:
        """On the loop: wake every stream (a new version, or the server closing)."""
        self._memo.clear()
        for news in self._news:
            news.set()

    def _tick(self) -> None:
        """Every ``TICK`` seconds while streams are open: each checks its heartbeat and end
        (one timer for all, instead of one per stream and wait)."""
        for news in self._news:
            news.set()
        self._ticking = self.loop.call_later(TICK, self._tick) if (
            self._news and self.loop is not None) else None

    def _frame(self, spec: StreamSpec, seen: int) -> tuple[int, bytes | None]:
        """``spec.frame(seen)``, looked up once per kind of stream between two versions."""
        if spec.share is None:
            return spec.frame(seen)
        key = (spec.share, seen)
        found = self._memo.get(key)
        if found is None:
            if len(self._memo) >= 256:  # streams resuming from many versions: start afresh
                self._memo.clear()
            found = self._memo[key] = spec.frame(seen)
        return found

    # -- ASGI -----------------------------------------------------------------------------------
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
        try:
            body = await self._body(scope, receive)
        except HungUp:  # a body cut short is never executed: nobody would hear the answer
            return
        if body is None:
            await _answer(send, 413, [("Content-Type", "application/json")],
                          b'{"error": "The request is too large.", "code": "too_large"}')
            return
        environ = _environ(scope, body)
        environ["companion.front"] = self
        status, headers, data, spec = await self.loop.run_in_executor(
            self.pool, self._call_app, environ)
        if spec is not None and status == 200:
            await self._stream(receive, send, headers, spec)
        else:
            if spec is not None:
                spec.release()
            await _answer(send, status, headers, data)

    async def _body(self, scope: dict[str, Any], receive: Any) -> bytes | None:
        """The request's whole body, or None when it is larger than ``max_body``; raises
        :class:`HungUp` when the phone went before it was whole."""
        for name, value in scope["headers"]:
            if name == b"content-length" and value.isdigit() and int(value) > self.max_body:
                return None
        out = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                raise HungUp
            out += message.get("body", b"")
            if len(out) > self.max_body:
                return None
            if not message.get("more_body"):
                return bytes(out)

    def _call_app(self, environ: dict[str, Any]) -> Answer:
        """On a worker thread: the Flask app's whole answer (or the stream its view handed
        over)."""
        started: list[Any] = []

        def start_response(status: str, headers: list[tuple[str, str]],
                           exc_info: Any = None) -> Callable[[bytes], None]:
            started[:] = [status, headers]
            return lambda data: None

        try:
            result = self.app(environ, start_response)
            try:
                spec = environ.get("companion.stream")
                body = b"" if spec is not None else b"".join(result)
            finally:
                if hasattr(result, "close"):
                    result.close()
            return int(started[0][:3]), list(started[1]), body, spec
        except Exception:
            log.exception("the app failed")
            return (*FAILED, None)

    # -- live streams ---------------------------------------------------------------------------
    async def _stream(self, receive: Any, send: Any, headers: list[tuple[str, str]],
                      spec: StreamSpec) -> None:
        """Keep one stream open: its next frame whenever :meth:`wake` says there is news, a
        heartbeat after ``spec.heartbeat`` quiet seconds, the end after ``spec.seconds``, on
        a hand-over, when the phone hangs up or when the server closes."""
        news = asyncio.Event()
        hung_up = asyncio.ensure_future(receive())  # http.disconnect, when it comes
        hung_up.add_done_callback(lambda _: news.set())
        self._news.add(news)
        if self._ticking is None and self.loop is not None:
            self._ticking = self.loop.call_later(TICK, self._tick)
        self.streams += 1
        try:
            await send({"type": "http.response.start", "status": 200,
                        "headers": _raw(headers)})
            await _chunk(send, b"retry: 1500\n\n")
            seen, now = spec.after, time.monotonic()
            end, last_write = now + spec.seconds, now
            while now < end and not hung_up.done() and not spec.gone():
                news.clear()
                version, data = self._frame(spec, seen)
                if data is not None:
                    await _chunk(send, data)
                    seen, last_write = version, time.monotonic()
                elif now - last_write >= spec.heartbeat:
                    await _chunk(send, b": ping\n\n")
                    last_write = now
                await news.wait()  # a new version, the tick, a hang-up or the close
                now = time.monotonic()
            if not hung_up.done():
                await send({"type": "http.response.body", "body": b""})
        finally:
            self._news.discard(news)
            self.streams -= 1
            hung_up.cancel()
            spec.release()


def _environ(scope: dict[str, Any], body: bytes) -> dict[str, Any]:
    """The WSGI environ (PEP 3333) of an ASGI request whose body is whole."""
    path = scope["path"].encode("utf-8").decode("latin-1")
    root = scope.get("root_path", "").encode("utf-8").decode("latin-1")
    server, port = scope.get("server") or ("localhost", 80)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"], "SCRIPT_NAME": root,
        "PATH_INFO": path[len(root):] if path.startswith(root) else path,
        "QUERY_STRING": scope["query_string"].decode("ascii"),
        "SERVER_NAME": server, "SERVER_PORT": str(port or 0),
        "SERVER_PROTOCOL": f"HTTP/{scope['http_version']}",
        "wsgi.version": (1, 0), "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr,
        "wsgi.multithread": True, "wsgi.multiprocess": False, "wsgi.run_once": False}
    if scope.get("client"):
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = scope["client"][0], str(scope["client"][1])
    for raw, value in scope["headers"]:
        name = raw.decode("latin-1").upper().replace("-", "_")
        if name == "TRANSFER_ENCODING":
            continue  # the body is whole: its length is known
        if name not in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            name = f"HTTP_{name}"
        text = value.decode("latin-1")
        environ[name] = f"{environ[name]},{text}" if name in environ else text
    if body or "CONTENT_LENGTH" in environ:
        environ["CONTENT_LENGTH"] = str(len(body))
    return environ


async def _answer(send: Any, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
    """A whole answer, with its length (uvicorn leaves out the body of a HEAD)."""
    raw = _raw(headers)
    raw.append((b"content-length", b"%d" % len(body)))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


async def _chunk(send: Any, data: bytes) -> None:
    await send({"type": "http.response.body", "body": data, "more_body": True})


def _raw(headers: list[tuple[str, str]]) -> list[tuple[bytes, bytes]]:
    return [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers
            if k.lower() not in ("content-length", "connection", "transfer-encoding", "date")]
# (uvicorn adds its own Date: werkzeug's, on a file, would be a second one)
