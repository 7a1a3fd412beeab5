"""The phones of the web benchmarks (scripts/bench_web.py, scripts/bench_web_mt.py): the banker's
session, joining phones to a game, SSE readers following by patches as the page does, and the
banker's connection that sends the moves, all on one asyncio loop."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from orjson import loads  # a native parser, as boardgame.io's clients have (JSON.parse)

from web.events import apply as apply_patch

PIN = "97531864"
"""The banker's PIN of the benchmarks' server child."""
BENCH_WEB = Path(__file__).resolve().with_name("bench_web.py")


@contextmanager
def server_child(flags: list[str], env: dict[str, str] | None = None,
                 ) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """The page server in a child process (``bench_web.py --serve`` with ``flags``) and its
    port, stopped on leaving."""
    child = subprocess.Popen([sys.executable, str(BENCH_WEB), "--serve", *flags],
                             stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert child.stdout is not None
        port = int(json.loads(child.stdout.readline())["port"])
        threading.Thread(target=child.stdout.read, daemon=True).start()
        yield child, port
    finally:
        child.terminate()
        child.wait(10)


class Session:
    """An httpx client with its cookie and CSRF token (setup only, never timed)."""

    def __init__(self, base: str) -> None:
        import httpx

        self.http = httpx.Client(base_url=base, timeout=10)
        self.csrf = self.http.get("/api/session").json()["csrf"]

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})

    @property
    def cookie(self) -> str:
        return f"companion={self.http.cookies['companion']}"


def new_game(base: str, setup: dict[str, Any]) -> tuple[Session, str, dict[str, Any]]:
    """The banker's session, and a game created with ``setup`` and its first view."""
    banker = Session(base)
    assert banker.post("/api/banker/login", {"pin": PIN}).status_code == 200
    game = banker.post("/api/games", setup).json()["game_id"]
    return banker, game, banker.http.get(f"/api/games/{game}").json()


def join_phones(base: str, join_code: str, seats: list[str], clients: int) -> list[str]:
    """A cookie per phone: one claiming each seat first, then spectators."""
    cookies = []
    for i in range(clients):
        s = Session(base)
        body = {"code": join_code, **({"player": seats[i]} if i < len(seats) else {})}
        assert s.post("/api/join", body).status_code == 200
        cookies.append(s.cookie)
    return cookies


# -- SSE readers and the mover on one asyncio loop ---------------------------------------------
class Reader:
    def __init__(self, idx: int) -> None:
        self.idx = idx
        self.version = -1
        self.view: dict[str, Any] = {}
        self.rx = 0
        self.packets = 0
        self.waiter: tuple[int, asyncio.Future[int]] | None = None

    async def run(self, port: int, game: str, cookie: str, ready: asyncio.Event) -> None:
        """Follow the stream until cancelled. A protocol parses the bytes as they arrive
        (no coroutine hop per line), as boardgame.io's clients handle a packet in one
        callback; a frame's time is taken once its JSON is parsed."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        transport, _ = await loop.create_connection(
            lambda: _SSEProtocol(self, ready, done), "127.0.0.1", port)
        transport.write((f"GET /api/games/{game}/events?live=patch HTTP/1.1\r\n"
                         f"Host: 127.0.0.1\r\nCookie: {cookie}\r\n"
                         "Accept: text/event-stream\r\n\r\n").encode())
        try:
            await done
        finally:
            transport.close()

    def on_frame(self, frame: bytes, ready: asyncio.Event) -> None:
        lines = frame.split(b"\n")
        data = [ln[6:] for ln in lines if ln.startswith(b"data: ")]
        if not data:
            return
        self.rx += len(frame) + 2  # the whole SSE event, as bgio counts its whole packet
        self.packets += 1
        body = loads(b"\n".join(data))
        if b"event: patch" in lines:
            if body["from"] != self.version:
                raise RuntimeError(f"patch from {body['from']} onto {self.version}")
            self.view = apply_patch(self.view, body["ops"])
        else:
            self.view = body
        t = time.perf_counter_ns()
        self.version = int(self.view["version"])
        ready.set()
        if self.waiter and self.version > self.waiter[0] and not self.waiter[1].done():
            self.waiter[1].set_result(t)


class _SSEProtocol(asyncio.Protocol):
    """Bytes of one stream -> HTTP head, chunks, SSE frames -> ``Reader.on_frame``."""

    def __init__(self, reader: Reader, ready: asyncio.Event, done: asyncio.Future[None]) -> None:
        self.reader, self.ready, self.done = reader, ready, done
        self.buf = b""
        self.sse = b""
        self.head = True
        self.chunked = False

    def data_received(self, data: bytes) -> None:
        self.buf += data
        try:
            self._parse()
        except Exception as exc:  # a bad stream ends this reader's task with the error
            if not self.done.done():
                self.done.set_exception(exc)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_result(None)

    def _parse(self) -> None:
        if self.head:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head, self.buf = self.buf[:end], self.buf[end + 4:]
            status = head.split(b"\r\n", 1)[0]
            if b" 200 " not in status:
                raise RuntimeError(f"stream {self.reader.idx}: {status!r}")
            self.chunked = b"transfer-encoding: chunked" in head.lower()
            self.head = False
        if not self.chunked:
            self.sse, self.buf = self.sse + self.buf, b""
        else:
            while (nl := self.buf.find(b"\r\n")) >= 0:
                size = int(self.buf[:nl].split(b";")[0].strip() or b"0", 16)
                if len(self.buf) < nl + 4 + size:
                    break
                self.sse += self.buf[nl + 2:nl + 2 + size]
                self.buf = self.buf[nl + 4 + size:]
        while b"\n\n" in self.sse:
            frame, self.sse = self.sse.split(b"\n\n", 1)
            self.reader.on_frame(frame, self.ready)


class Mover:
    """The banker's kept-alive connection that sends the commands."""

    def __init__(self, port: int, game: str, cookie: str, csrf: str) -> None:
        self.port, self.game, self.cookie, self.csrf = port, game, cookie, csrf

    async def open(self) -> None:
        self.r, self.w = await asyncio.open_connection("127.0.0.1", self.port)

    def send(self, body: dict[str, Any]) -> None:
        raw = json.dumps(body).encode()
        self.w.write((f"POST /api/games/{self.game}/commands HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      f"Cookie: {self.cookie}\r\nX-CSRF-Token: {self.csrf}\r\n"
                      f"Content-Type: application/json\r\nContent-Length: {len(raw)}\r\n\r\n"
                      ).encode() + raw)

    async def response(self) -> tuple[int, dict[str, Any]]:
        status = int((await self.r.readline()).split()[1])
        length = 0
        while (line := await self.r.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return status, json.loads(await self.r.readexactly(length))


async def open_table(port: int, game: str, cookies: list[str], banker: Session,
                     ) -> tuple[list[Reader], list[asyncio.Task[None]], Mover]:
    """A reader following each phone's stream (each has its first view) and the banker's
    connection that sends the moves."""
    readers = [Reader(i) for i in range(len(cookies))]
    ready = [asyncio.Event() for _ in readers]
    tasks = [asyncio.create_task(rd.run(port, game, c, ev))
             for rd, c, ev in zip(readers, cookies, ready, strict=True)]
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ready)), 20)
    mover = Mover(port, game, banker.cookie, banker.csrf)
    await mover.open()
    return readers, tasks, mover


def expect_next(readers: list[Reader]) -> list[asyncio.Future[int]]:
    """One future per reader, set to the time it receives a version newer than now."""
    loop = asyncio.get_running_loop()
    before = readers[0].version
    futs: list[asyncio.Future[int]] = [loop.create_future() for _ in readers]
    for rd, fut in zip(readers, futs, strict=True):
        rd.waiter = (before, fut)
    return futs
