"""Benchmark the phone page: page bytes, first render in headless Chromium, and the time from
a command to its update on every SSE client, measured as ../shared/peers/bgio/README.md
measures boardgame.io (server in a child process, N players + spectators, closed loop,
W warm-up + R timed moves, nearest-rank percentiles, the 3-invalid + 1-valid sanity check).

    .venv/bin/python scripts/bench_web.py                 # everything, one JSON line on stdout
    .venv/bin/python scripts/bench_web.py --clients 50    # 4 players + 46 spectators
    .venv/bin/python scripts/bench_web.py --no-browser
    .venv/bin/python scripts/bench_web.py --compare       # vs boardgame.io, same sitting

``--compare`` (``--baseline CHECKOUT`` adds that checkout's figures, e.g. the code before a
change) runs boardgame.io's harness and ours alternately in the same sitting
(scripts/bench_web_compare.py); ``--stamps`` prints where a move's time goes inside the server
(scripts/bench_web_stamps.py).

The move is the banker's ``transfer`` (the "pay" equivalent): the mover pays rent of
``1 + floor(u*50)`` (capped at its balance) to the poorest other seat; every command is
committed to SQLite (WAL, synchronous=FULL) before it is published.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from importlib.metadata import version as pkg_version
from pathlib import Path
from typing import Any

from bench_web_compare import compare  # scripts/ is on the path when this runs as a script
from bench_web_stamps import install_stamps

from web.events import apply as apply_patch

try:  # the readers parse with a native parser, as boardgame.io's clients do (JSON.parse)
    from orjson import loads
except ImportError:  # pragma: no cover - orjson is a dependency
    from json import loads

PIN = "9753"
START = 1500
MAX_RENT = 50


def log(*a: Any) -> None:
    print(*a, file=sys.stderr, flush=True)


# -- the child: the server ------------------------------------------------------------------


def serve_child(threads: int, sync: str, stamps: bool = False) -> None:
    from companion.service import GameService
    from web import create_app
    from web.server import make_server

    report = install_stamps() if stamps else None
    if report is not None:
        import signal

        def on_term(*_: Any) -> None:
            report()
            os._exit(0)
        signal.signal(signal.SIGTERM, on_term)
    with tempfile.TemporaryDirectory() as tmp, GameService(Path(tmp)) as service:
        service.call(service.store.conn.execute, f"PRAGMA synchronous={sync}")
        app = create_app(service, config={"banker_pin": PIN, "stream_seconds": 3600})
        srv = make_server(app, "127.0.0.1", 0, threads=threads)
        print(json.dumps({"port": srv.effective_port}), flush=True)
        srv.run()


# -- helpers ---------------------------------------------------------------------------------
def pct(sorted_: list[float], p: float) -> float:
    """Nearest rank: the value at index ceil(p/100*n)-1 of the ascending list."""
    n = len(sorted_)
    return sorted_[min(n - 1, max(0, math.ceil(p / 100 * n) - 1))]


def summarize(samples: list[float]) -> dict[str, float]:
    s = sorted(samples)
    return {"p50": round(pct(s, 50), 3), "p95": round(pct(s, 95), 3),
            "p99": round(pct(s, 99), 3), "max": round(s[-1], 3),
            "mean": round(sum(s) / len(s), 3)}


def mulberry32(seed: int) -> Any:
    a = seed & 0xFFFFFFFF

    def imul(x: int, y: int) -> int:
        return (x * y) & 0xFFFFFFFF

    def rand() -> float:
        nonlocal a
        a = (a + 0x6D2B79F5) & 0xFFFFFFFF
        t = a
        t = imul(t ^ (t >> 15), t | 1)
        t ^= (t + imul(t ^ (t >> 7), t | 61)) & 0xFFFFFFFF
        return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296

    return rand


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


async def latency(port: int, game: str, seats: list[str], cookies: list[str], banker: Session,
                  warmup: int, moves: int, seed: int) -> dict[str, Any]:
    readers = [Reader(i) for i in range(len(cookies))]
    ready = [asyncio.Event() for _ in readers]
    tasks = [asyncio.create_task(rd.run(port, game, c, ev))
             for rd, c, ev in zip(readers, cookies, ready, strict=True)]
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ready)), 20)
    mover = Mover(port, game, banker.cookie, banker.csrf)
    await mover.open()
    loop = asyncio.get_running_loop()
    turn = 0

    def balances() -> dict[str, int]:
        return {p["id"]: p["money"] for p in readers[0].view["players"]}

    async def timed(to: str, amount: int, src: str,
                    invalid: list[dict[str, Any]] | None = None) -> tuple[int, list[int]]:
        before = readers[0].version
        futs = [loop.create_future() for _ in readers]
        for rd, fut in zip(readers, futs, strict=True):
            rd.waiter = (before, fut)
        for bad in invalid or []:
            mover.send({"actor": "banker", "type": "transfer", "args": bad})
            status, _ = await mover.response()
            assert status == 409, status
        t0 = time.perf_counter_ns()
        mover.send({"actor": "banker", "type": "transfer",
                    "args": {"source": src, "to": to, "amount": amount, "reason": "rent"}})
        status, out = await mover.response()
        if status != 200:
            raise RuntimeError(f"move refused: {out}")
        ats = await asyncio.wait_for(asyncio.gather(*futs), 5)
        return t0, list(ats)

    rand = mulberry32(seed)

    def next_move() -> tuple[str, str, int]:
        nonlocal turn
        me = seats[turn % len(seats)]
        bal = balances()
        to = None
        for d in range(1, len(seats)):
            pid = seats[(turn + d) % len(seats)]
            if to is None or bal[pid] < bal[to]:
                to = pid
        amount = min(1 + math.floor(rand() * MAX_RENT), bal[me])
        if amount <= 0:
            raise RuntimeError(f"{me} is broke; the move generator stalled")
        turn += 1
        assert to is not None
        return me, to, amount

    # sanity check: three invalid pays, then one valid; only the valid one lands
    me, other = seats[0], seats[1]
    bal0, v0 = balances(), readers[0].version
    await timed(other, 7, me, invalid=[
        {"source": me, "to": other, "amount": bal0[me] + 1, "reason": "too much"},
        {"source": me, "to": me, "amount": 1, "reason": "to oneself"},
        {"source": me, "to": other, "amount": 0, "reason": "nothing"}])
    bal1 = balances()
    if not (bal1[me] == bal0[me] - 7 and bal1[other] == bal0[other] + 7
            and readers[0].version > v0):
        raise RuntimeError("sanity check failed")
    turn = 1
    for _ in range(warmup):
        src, to, amount = next_move()
        await timed(to, amount, src)
    spectator = readers[-1]
    rx0, pk0 = spectator.rx, spectator.packets
    all_ms, first_ms = [], []
    for _ in range(moves):
        src, to, amount = next_move()
        t0, ats = await timed(to, amount, src)
        all_ms.append((max(ats) - t0) / 1e6)
        first_ms.append((min(ats) - t0) / 1e6)
    under_load = api_under_load(f"http://127.0.0.1:{port}", game, banker)
    finals = [json.dumps([r.version, sorted(balances().items())]) for r in readers]
    total = sum(balances().values())
    if total != START * len(seats):
        raise RuntimeError(f"money not conserved: {total}")
    if len({r.version for r in readers}) != 1 or len(set(finals)) != 1:
        raise RuntimeError("clients disagree on the final state")
    for t in tasks:
        t.cancel()
    mover.w.close()
    return {"all": summarize(all_ms), "first": summarize(first_ms),
            "rx_bytes_per_move": round((spectator.rx - rx0) / moves),
            "rx_packets_per_move": round((spectator.packets - pk0) / moves, 2),
            "api_get_ms_with_streams_open": under_load}


def setup_game(base: str, players: int, clients: int) -> tuple[str, list[str], list[str], Session]:
    banker = Session(base)
    assert banker.post("/api/banker/login", {"pin": PIN}).status_code == 200
    names = [f"P{i + 1}" for i in range(players)]
    out = banker.post("/api/games", {"edition": "mario", "players": names, "seed": 1}).json()
    game = out["game_id"]
    view = banker.http.get(f"/api/games/{game}").json()
    seats = [p["id"] for p in view["players"]]
    for p in view["players"]:  # everyone starts with 1500, as in the peer's game
        r = banker.post(f"/api/games/{game}/commands", {"actor": "banker", "type": "transfer",
                        "args": {"source": "bank", "to": p["id"],
                                 "amount": START - p["money"], "reason": "bench start"}})
        assert r.status_code == 200, r.text
    cookies = []
    for i in range(clients):
        s = Session(base)
        body = {"code": view["join_code"], **({"player": seats[i]} if i < players else {})}
        assert s.post("/api/join", body).status_code == 200
        cookies.append(s.cookie)
    return game, seats, cookies, banker


def api_under_load(base: str, game: str, banker: Session, n: int = 50) -> dict[str, float]:
    """GET latencies while every stream is open: proof the streams leave threads free."""
    times = []
    for _ in range(n):
        t = time.perf_counter()
        assert banker.http.get(f"/api/games/{game}").status_code == 200
        times.append((time.perf_counter() - t) * 1000)
    return summarize(times)


def page_bytes(base: str) -> int:
    import httpx

    return sum(len(httpx.get(base + p).content) for p in ("/", "/static/dom.js",
                                                          "/static/app.js", "/static/live.js",
                                                          "/static/app.css"))


PAGE_LIMIT_BYTES = 100 * 1024   # docs/web.md: the page stays under 100 KB uncompressed
FIRST_RENDER_LIMIT_MS = 300


def first_render(base: str, code: str, loads: int = 5) -> float:
    """Median ms from navigation start to the game first drawn (at a glance, the board and
    the players; the page's ``window.__drawn``), for a joined spectator on a 390×844 phone."""
    from playwright.sync_api import sync_playwright

    args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"]
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        ctx = b.new_context(viewport={"width": 390, "height": 844})
        page = ctx.new_page()
        page.goto(f"{base}/?code={code}")
        page.get_by_role("button", name="Join", exact=True).click()
        page.wait_for_selector(".seats .seat")
        times = []
        for _ in range(loads):
            page.goto(base + "/")
            page.wait_for_selector(".glance")
            page.wait_for_selector(".players")
            # the page notes when it first drew a game (Playwright's polling is not counted)
            times.append(page.evaluate("window.__drawn"))
        b.close()
    return round(sorted(times)[len(times) // 2], 1)




def memory(commands: int) -> int:
    """scripts/reliability's memory scenario with 8 and with 50 phones following."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from reliability.memory import run_memory

    for phones in (8, 50):
        with tempfile.TemporaryDirectory() as tmp:
            r = run_memory(Path(tmp), commands=commands, phones=phones, time_limit=900)
        print(json.dumps({"memory": r.figures}), flush=True)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--moves", type=int, default=500)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=64)
    ap.add_argument("--wsgi", choices=("front", "cheroot", "waitress"), default=None)
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--page-only", action="store_true",
                    help="only the page's size and first render (no latency run)")
    ap.add_argument("--sync", choices=("FULL", "NORMAL"), default="FULL",
                    help="SQLite synchronous mode in the child (NORMAL: diagnosis only)")
    ap.add_argument("--compare", action="store_true",
                    help="alternate with boardgame.io's harness (8 and 50 clients, one core)")
    ap.add_argument("--memory", type=int, metavar="COMMANDS", default=0,
                    help="RSS of `companion run` after COMMANDS commands with 8, then 50 phones")
    ap.add_argument("--runs", type=int, default=3, help="alternating runs per side (--compare)")
    ap.add_argument("--baseline", type=Path, default=None, metavar="CHECKOUT",
                    help="--compare also runs this checkout's bench (with this interpreter "
                         "and packages), e.g. the code before a change")
    ap.add_argument("--stamps", action="store_true",
                    help="print where a move's time goes inside the server (stderr)")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.compare:
        return compare(a.moves, a.runs, [8, 50], a.baseline)
    if a.memory:
        return memory(a.memory)
    if a.serve:
        serve_child(a.threads, a.sync, a.stamps)
        return 0
    t_start = time.perf_counter()
    from web.server import default_backend

    wsgi = a.wsgi or os.environ.get("COMPANION_WSGI") or default_backend()
    child = subprocess.Popen([sys.executable, __file__, "--serve", "--threads", str(a.threads),
                              "--sync", a.sync, *(["--stamps"] if a.stamps else [])],
                             stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "COMPANION_WSGI": wsgi})
    try:
        assert child.stdout is not None
        port = json.loads(child.stdout.readline())["port"]
        threading.Thread(target=child.stdout.read, daemon=True).start()
        base = f"http://127.0.0.1:{port}"
        game, seats, cookies, banker = setup_game(base, a.players, a.clients)
        log(f"server child pid {child.pid} on {base}; {a.clients} SSE clients")
        if a.page_only:
            code = banker.http.get(f"/api/games/{game}").json()["join_code"]
            size, render = page_bytes(base), first_render(base, code)
            print(json.dumps({"page_bytes": size, "page_limit_bytes": PAGE_LIMIT_BYTES,
                              "first_render_ms": render,
                              "first_render_limit_ms": FIRST_RENDER_LIMIT_MS,
                              "within_limits": size <= PAGE_LIMIT_BYTES
                              and render <= FIRST_RENDER_LIMIT_MS}), flush=True)
            return 0
        res = asyncio.run(latency(port, game, seats, cookies, banker, a.warmup, a.moves,
                                  a.seed))
        # the streams were closed by the client side; the server notices within a heartbeat
        out: dict[str, Any] = {"peer": "flask-sse", "version": pkg_version("flask"),
                               "clients": a.clients, "moves": a.moves}
        for k in ("p50", "p95", "p99", "max", "mean"):
            out[f"{k}_ms"] = res["all"][k]
        for k in ("p50", "p95", "p99", "max", "mean"):
            out[f"first_{k}_ms"] = res["first"][k]
        out.update(players=a.players, spectators=a.clients - a.players,
                   rx_bytes_per_move=res["rx_bytes_per_move"],
                   rx_packets_per_move=res["rx_packets_per_move"], warmup=a.warmup,
                   transport="sse", server="child", mode="authoritative", interval_ms=0,
                   wsgi=f"{wsgi} {pkg_version(wsgi) if wsgi != 'front' else 'asyncio'} "
                        f"threads={a.threads}",
                   durable=f"sqlite WAL synchronous={a.sync}, commit per move",
                   python=platform.python_version(), cpus=os.cpu_count(),
                   api_get_p99_ms_with_streams_open=res["api_get_ms_with_streams_open"]["p99"],
                   sync=a.sync)
        view = banker.http.get(f"/api/games/{game}").json()
        if not a.no_browser:
            out["page_bytes"] = page_bytes(base)
            out["first_render_ms"] = first_render(base, view["join_code"])
            out["page_within_limits"] = (out["page_bytes"] <= PAGE_LIMIT_BYTES
                                         and out["first_render_ms"] <= FIRST_RENDER_LIMIT_MS)
        out["wall_s"] = round(time.perf_counter() - t_start, 1)
        log(f"all {a.clients}: p50 {out['p50_ms']} ms p99 {out['p99_ms']} max {out['max_ms']}; "
            f"first p50 {out['first_p50_ms']}")
        print(json.dumps(out), flush=True)
        return 0
    except Exception as exc:
        print(json.dumps({"peer": "flask-sse", "error": str(exc)}), flush=True)
        return 1
    finally:
        child.terminate()
        child.wait(10)


if __name__ == "__main__":
    sys.exit(main())
