"""The HTTP front: one asyncio loop holds every connection; workers only see whole requests.

A connection costs the loop a socket and a few KB, never a thread: the loop reads a request's
head (within ``header_timeout``) and body (within ``body_timeout``, at most ``max_body``
bytes), then hands the complete request to a small pool of WSGI worker threads, and writes
the answer back itself. So idle, slow or half-sent connections cannot take the threads that
answer phones. Each address may hold ``per_address`` connections (the Pi's own loopback is
not limited); past that, or past ``max_connections``, a connection is answered 503 and
closed.

Live streams (``/api/games/<id>/events``) are checked by the Flask view like any request;
the view then hands the stream to the loop (``environ["companion.stream"]``), which writes a
frame per game version to every open stream. A stream holds no thread, so hundreds of
spectators leave the pool free. Moves are still committed (fsync) by the game service
before it publishes them; the loop only forwards what was published.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from web.http_request import MAX_HEAD, BadRequest, head_bytes, read_request, within
from web.process_tuning import raise_open_files, settle_garbage

log = logging.getLogger("web.front")

BACKLOG = 256 * 1024
"""Bytes a stream may have unsent before it is skipped until drained (a slow phone)."""
LOOP_GRACE = 0.005
"""Seconds the service thread waits, after answering a move, for the loop to write it before
the OLED's redraw takes the GIL (Python's own switch interval: never longer than the GIL
would make the loop wait anyway)."""
LOOPBACK = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})


@dataclass
class StreamSpec:
    """What the events view hands the loop: whose view of which game, from which version."""

    game_id: str
    viewer: str | None
    after: int
    seconds: float
    heartbeat: float
    gone: Callable[[], bool]
    """True when the stream must end (server closing, slot handed to a newer stream)."""
    release: Callable[[], None]
    frame: Callable[[int], tuple[int, bytes | None]] = field(default=lambda seen: (0, None))
    """``frame(seen)``: ``(version, what a stream holding version seen needs next)``, the
    frame None when it is up to date."""
    share: Any = None
    """Streams with equal ``share`` (not None) get equal frames for the same version seen
    (the same game, viewer's view and kind of updates)."""


@dataclass(eq=False)
class _Live:
    """An open stream on the loop and the version it was last sent."""

    spec: StreamSpec
    writer: asyncio.StreamWriter
    seen: int
    last_write: float


def chunk(data: bytes) -> bytes:
    """``data`` as one HTTP/1.1 chunk."""
    return b"%x\r\n%s\r\n" % (len(data), data)


class Front:
    """An HTTP/1.1 server for one WSGI app (see the module docstring)."""

    def __init__(self, app: Any, host: str, port: int, threads: int = 16, *,
                 header_timeout: float = 10.0, body_timeout: float = 30.0,
                 keepalive: float = 30.0, write_timeout: float = 30.0,
                 per_address: int = 48, max_connections: int = 2000,
                 max_body: int | None = None) -> None:
        self.app = app
        self.header_timeout, self.body_timeout = header_timeout, body_timeout
        self.keepalive, self.write_timeout = keepalive, write_timeout
        self.per_address, self.max_connections = per_address, max_connections
        limit = app.config.get("MAX_CONTENT_LENGTH") if hasattr(app, "config") else None
        self.max_body = max_body or int(limit or 1024 * 1024)
        raise_open_files(max_connections + 100)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.create_server((host, port), family=family, backlog=1024)
        self.sock.setblocking(False)
        self.host, self.effective_port = host, int(self.sock.getsockname()[1])
        self.pool = ThreadPoolExecutor(max(1, threads), thread_name_prefix="web")
        self.open: Counter[str] = Counter()
        self.streams = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self._loop_ident: int | None = None
        """The loop's thread (set when it runs)."""
        self._stop: asyncio.Event | None = None
        self._live: set[_Live] = set()
        self._waking = False
        self._wake_due = False
        self._posted: deque[Callable[[], None]] = deque()
        self._drained = threading.Event()
        """Set while nothing posted waits for the loop."""
        self._drained.set()
        self._chunked: tuple[bytes, bytes] = (b"", b"")
        self._started = threading.Event()
        self._running = False
        self._writers: set[asyncio.StreamWriter] = set()
        service = app.extensions["companion"].service if hasattr(app, "extensions") else None
        self.native: Any = None
        if service is not None:
            service.subscribe(self._published, first=True)  # before the OLED's redraw
            if hasattr(service, "submit_later"):
                from web.native import NativeCommands

                self.native = NativeCommands(app, self.post)
            if hasattr(service, "ahead_hooks"):
                service.ahead_hooks.append(self._ahead)
            if hasattr(service, "before_later"):
                service.before_later.append(self._let_loop_write)

    # -- running --------------------------------------------------------------------------
    def run(self) -> None:
        self._running = True
        asyncio.run(self._main())

    async def _main(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._loop_ident = threading.get_ident()
        self._stop = asyncio.Event()
        server = await asyncio.start_server(self._connection, sock=self.sock, limit=MAX_HEAD)
        settle_garbage()
        self._started.set()
        try:
            await self._stop.wait()
        finally:
            server.close()
            for w in list(self._writers):
                w.close()
            await asyncio.sleep(0)
            self.pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop serving: open streams end, connections close, ``run`` returns."""
        ext = getattr(self.app, "extensions", {}).get("companion")
        if ext is not None:
            ext.close_streams()
        if self._running:
            self._started.wait(5)  # closing right after start: let the loop come up first
        loop, stop = self.loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:  # the loop ended meanwhile
                pass
        else:
            self.sock.close()

    def _published(self, game_id: str, version: int, notice: Any) -> None:
        """After a commit. On the service thread: wake the loop, then build each watching
        viewer's frames once while the loop's thread wakes up (it gets the GIL only when
        this thread waits again), so the loop only writes them. On the loop's own thread (a
        move it decided itself), with nothing posted before: write every stream's frame now."""
        if self._on_loop() and not self._posted:
            self._wake()
            return
        if not self._wake_due:
            self._wake_due = True  # commits before the loop wakes share one wake
            if not self.post(self._wake):
                self._wake_due = False
        if notice is None:
            try:
                lives = list(self._live)
            except RuntimeError:  # the loop changed the set meanwhile: it builds them itself
                lives = []
            warmed = set()
            for live in lives:
                key = live.spec.share or (live.spec.game_id, live.spec.viewer)
                if live.spec.game_id == game_id and key not in warmed:
                    warmed.add(key)
                    try:
                        live.spec.frame(live.seen)
                    except Exception:
                        log.exception("could not build a stream's frame")

    def _ahead(self, game_id: str, key: str | None, view: dict[str, Any]) -> None:
        """On the service's helper thread, during a move's commit: prepare the patch of the
        view built ahead if a stream watches that game (web/events.py keeps it unseen until
        the service publishes the version)."""
        try:
            watched = any(live.spec.game_id == game_id for live in list(self._live))
        except RuntimeError:  # the loop changed the set meanwhile
            watched = True
        if watched:
            from web.events import prepare

            prepare(game_id, key, view)

    def post(self, fn: Callable[[], None]) -> bool:
        """Run ``fn`` on the loop soon (from any thread). What is posted before the loop
        wakes runs in that one wake, in order: a commit's frames, then the mover's answer.
        On the loop's own thread, with nothing posted before it, ``fn`` runs at once (the
        same order, one turn of the loop sooner). False when no loop runs (then ``fn`` is
        dropped)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return False
        if not self._posted and self._on_loop():  # nothing waits before it: run it now
            try:
                fn()
            except Exception:
                log.exception("a posted callback failed")
            return True
        self._posted.append(fn)
        if not self._waking:
            self._drained.clear()
            self._waking = True
            try:
                loop.call_soon_threadsafe(self._run_posted)
            except RuntimeError:  # the loop ended meanwhile
                self._waking = False
                self._drained.set()
                return False
        return True

    def _on_loop(self) -> bool:
        """Whether this runs on the loop's own thread (a move the loop decides itself,
        ``WriterThread.enqueue(now=True)``): then what would be posted runs at once, with
        no wake-up of the loop and no extra turn of it."""
        return threading.get_ident() == self._loop_ident

    def _let_loop_write(self) -> None:
        """On the service thread, after a move's answer and before the OLED's redraw: wait
        (at most ``LOOP_GRACE``) until the loop has written what was posted. Blocking here
        hands the GIL to the loop at once; drawing first, the loop would wait for it."""
        if not self._drained.is_set():
            self._drained.wait(LOOP_GRACE)

    def _run_posted(self) -> None:
        self._waking = False  # before draining: a post from now on wakes the loop again
        while self._posted:
            fn = self._posted.popleft()
            try:
                fn()
            except Exception:
                log.exception("a posted callback failed")
        if not self._waking:
            self._drained.set()

    def _wake(self) -> None:
        """On the loop, once per commit: every open stream gets its frame now."""
        self._wake_due = False
        memo: dict[tuple[Any, int], tuple[int, bytes | None]] = {}
        for live in list(self._live):
            try:
                self._push(live, memo)
            except Exception:  # one broken stream must not starve the others
                log.exception("stream write failed")

    # -- one connection ---------------------------------------------------------------------
    async def _connection(self, reader: asyncio.StreamReader,
                          writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        addr = str(peer[0]) if peer else "?"
        limited = addr not in LOOPBACK
        if (limited and self.open[addr] >= self.per_address) or \
                sum(self.open.values()) >= self.max_connections:
            await self._refuse(writer, 503, "Too many connections from this address.")
            return
        self.open[addr] += 1
        self._writers.add(writer)
        try:
            await self._serve(reader, writer, addr, peer)
        except (ConnectionError, asyncio.IncompleteReadError, TimeoutError, OSError):
            pass
        except asyncio.CancelledError:
            # the server is closing: the connection ends with it (returning, rather than
            # re-raising, spares asyncio's "exception in callback" traceback per stream)
            return
        except Exception:
            log.exception("connection failed")
        finally:
            self._writers.discard(writer)
            self.open[addr] -= 1
            if self.open[addr] <= 0:
                del self.open[addr]
            writer.close()

    async def _refuse(self, writer: asyncio.StreamWriter, status: int, text: str) -> None:
        code = {413: "too_large", 431: "too_large", 503: "busy"}.get(status, "bad_request")
        body = f'{{"error": "{text}", "code": "{code}"}}'.encode()
        writer.write(head_bytes(status, [("Content-Type", "application/json"),
                                         ("Retry-After", "5")], len(body), False) + body)
        try:
            await within(writer.drain(), 2)
        except (ConnectionError, TimeoutError, OSError):
            pass
        writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     addr: str, peer: Any) -> None:
        deadline = self.header_timeout
        while True:
            try:
                head = await within(reader.readuntil(b"\r\n\r\n"), deadline)
            except asyncio.LimitOverrunError:
                await self._refuse(writer, 431, "The request's headers are too large.")
                return
            except (asyncio.IncompleteReadError, TimeoutError):
                return  # idle, too slow, or gone: close without a word
            try:
                environ, keep = await self._request(head, reader, writer, addr, peer)
            except BadRequest as bad:
                await self._refuse(writer, bad.status, bad.text)
                return
            game = self.native.game(environ) if self.native is not None else None
            if game is not None:  # a move: answered on the loop (web/native.py)
                status, headers, body = await self._native(environ, game)
                spec = None
            else:
                status, headers, body, spec = await asyncio.get_running_loop(
                    ).run_in_executor(self.pool, self._call_app, environ)
            if spec is not None:
                await self._stream(reader, writer, status, headers, spec)
                return
            if environ["REQUEST_METHOD"] == "HEAD":
                body = b""
            writer.write(head_bytes(status, headers, len(body), keep) + body)
            await within(writer.drain(), self.write_timeout)
            if not keep:
                return
            deadline = self.keepalive

    async def _request(self, head: bytes, reader: asyncio.StreamReader,
                       writer: asyncio.StreamWriter, addr: str,
                       peer: Any) -> tuple[dict[str, Any], bool]:
        environ, keep = await read_request(
            head, reader, writer, addr, peer, host=self.host, port=self.effective_port,
            max_body=self.max_body, body_timeout=self.body_timeout)
        environ["companion.front"] = self
        return environ, keep

    async def _native(self, environ: dict[str, Any],
                      game: str) -> tuple[str, list[tuple[str, str]], bytes]:
        try:
            answer: tuple[str, list[tuple[str, str]], bytes] = await self.native.answer(
                environ, game)
            return answer
        except Exception:
            log.exception("the app failed")
            body = b'{"error": "Something went wrong on the companion.", "code": "server_error"}'
            return "500 Internal Server Error", [("Content-Type", "application/json")], body

    def _call_app(self, environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]], bytes,
                                                          StreamSpec | None]:
        """On a worker thread: the whole answer (or the stream the view handed over)."""
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
            return started[0], list(started[1]), body, spec
        except Exception:
            log.exception("the app failed")
            body = b'{"error": "Something went wrong on the companion.", "code": "server_error"}'
            return "500 Internal Server Error", [("Content-Type", "application/json")], body, None

    # -- live streams -----------------------------------------------------------------------
    def _push(self, live: _Live,
              memo: dict[tuple[Any, int], tuple[int, bytes | None]] | None = None) -> None:
        """Write what ``live`` needs next (a patch or the whole view), if anything. ``memo``
        keeps, for one wake, the frame of each kind of stream (``spec.share``) per version
        seen, so fifty spectators cost one look-up, not fifty."""
        transport = live.writer.transport
        if transport.is_closing() or transport.get_write_buffer_size() > BACKLOG:
            return  # a slow phone: it catches up with the whole view once drained
        share = live.spec.share
        if memo is not None and share is not None:
            found = memo.get((share, live.seen))
            if found is None:
                found = memo[(share, live.seen)] = live.spec.frame(live.seen)
            version, data = found
        else:
            version, data = live.spec.frame(live.seen)
        if data is not None:
            last = self._chunked
            if last[0] is not data:  # streams of one viewer share the frame: chunk it once
                last = self._chunked = (data, chunk(data))
            live.writer.write(last[1])
            live.seen, live.last_write = version, time.monotonic()

    async def _stream(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                      status: str, headers: list[tuple[str, str]], spec: StreamSpec) -> None:
        """Keep one stream: the loop's wake (:meth:`_wake`, once per commit) writes the
        frames of every stream at once; this only drains, sends heartbeats and ends it."""
        self.streams += 1
        live: _Live | None = None
        try:
            if not status.startswith("200"):
                writer.write(head_bytes(status, headers, 0, False))
                return
            writer.write(head_bytes(status, headers, None, False) + chunk(b"retry: 1500\n\n"))
            live = _Live(spec, writer, spec.after, time.monotonic())
            self._live.add(live)
            self._push(live)
            now = time.monotonic()
            end = now + spec.seconds
            while now < end and not spec.gone() and not reader.at_eof():
                if writer.transport.get_write_buffer_size():
                    await within(writer.drain(), self.write_timeout)
                    self._push(live)  # drained: catch up if it fell behind
                await asyncio.sleep(max(0.0, min(1.0, end - now)))
                now = time.monotonic()
                if now - live.last_write >= spec.heartbeat:
                    live.last_write = now
                    writer.write(chunk(b": ping\n\n"))
            writer.write(b"0\r\n\r\n")
            await within(writer.drain(), self.write_timeout)
        finally:
            if live is not None:
                self._live.discard(live)
            self.streams -= 1
            spec.release()
