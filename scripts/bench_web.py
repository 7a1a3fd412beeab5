"""Benchmark the phone page: page bytes, first render in headless Chromium, and the time from
a command to its update on every SSE client, measured as ../shared/peers/bgio/README.md
measures boardgame.io (server in a child process, N players + spectators, closed loop,
W warm-up + R timed moves, nearest-rank percentiles, the 3-invalid + 1-valid sanity check).

    .venv/bin/python scripts/bench_web.py                 # everything, one JSON line on stdout
    .venv/bin/python scripts/bench_web.py --clients 50    # 4 players + 46 spectators
    .venv/bin/python scripts/bench_web.py --no-browser
    .venv/bin/python scripts/bench_web.py --compare       # vs boardgame.io, same sitting
    .venv/bin/python scripts/bench_web.py --no-browser --replay-attack  # a guest cycling replays
    .venv/bin/python scripts/bench_web.py --no-browser --attack slowbody   # quiet / attacked

``--compare`` (``--baseline CHECKOUT`` adds that checkout's figures, e.g. the code before a
change) runs boardgame.io's harness and ours alternately in the same sitting
(scripts/bench_web_compare.py). The phones (readers, the mover, joining) are in
scripts/bench_web_phones.py. ``--attack NAMES`` (scripts/reliability/background.py, e.g.
``slowbody``) measures the moves quiet and with those attacks running on the same server
(from a child process), alternately (``--runs`` attacked sittings, each between quiet
ones), and prints each sitting's percentiles and the median attacked p99 over the quiet.

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
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version as pkg_version
from pathlib import Path
from typing import Any

from bench_web_compare import compare  # scripts/ is on the path when this runs as a script
from bench_web_phones import (
    PIN,
    Session,
    expect_next,
    join_phones,
    new_game,
    open_table,
    server_child,
)
from past_attack import EVENTS, GAMES, ReplayCycler, finished_games
from reliability.background import ATTACKS

RELIABILITY = Path(__file__).resolve().with_name("reliability")

START = 1500
MAX_RENT = 50


def log(*a: Any) -> None:
    print(*a, file=sys.stderr, flush=True)


# -- the child: the server ------------------------------------------------------------------


def serve_child(threads: int, sync: str, past_games: int = 0, past_events: int = 0) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        if past_games:  # the household's past, for --replay-attack
            finished_games(Path(tmp), past_games, past_events)
        serve_on(Path(tmp), threads, sync)


def serve_on(state_dir: Path, threads: int, sync: str) -> None:
    from companion.service.game_service import GameService
    from web import create_app
    from web.process_tuning import settle_garbage
    from web.server import make_server

    with GameService(state_dir) as service:
        service.call(service.store.conn.execute, f"PRAGMA synchronous={sync}")
        app = create_app(service, config={"banker_pin": PIN, "stream_seconds": 3600})
        srv = make_server(app, "127.0.0.1", 0, threads=threads)
        settle_garbage()  # the collector's settings `companion run` serves with (web.server)
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


async def latency(port: int, game: str, seats: list[str], cookies: list[str], banker: Session,
                  warmup: int, moves: int, seed: int) -> dict[str, Any]:
    readers, tasks, mover = await open_table(port, game, cookies, banker)
    turn = 0

    def balances() -> dict[str, int]:
        return {p["id"]: p["money"] for p in readers[0].view["players"]}

    async def timed(to: str, amount: int, src: str,
                    invalid: list[dict[str, Any]] | None = None) -> tuple[int, list[int]]:
        futs = expect_next(readers)
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
    refused = []  # the floor of any move: Flask's checks and the rule, no commit, no frame
    for _ in range(200):
        t0 = time.perf_counter_ns()
        mover.send({"actor": "banker", "type": "transfer", "args": {
            "source": seats[0], "to": seats[1], "amount": START * len(seats) + 1,
            "reason": "more than anyone has"}})
        status, _ = await mover.response()
        assert status == 409, status
        refused.append((time.perf_counter_ns() - t0) / 1e6)
    finals = [json.dumps([r.version, sorted(balances().items())]) for r in readers]
    total = sum(balances().values())
    if total != START * len(seats):
        raise RuntimeError(f"money not conserved: {total}")
    if len({r.version for r in readers}) != 1 or len(set(finals)) != 1:
        raise RuntimeError("clients disagree on the final state")
    for t in tasks:
        t.cancel()
    mover.w.close()
    return {"all": summarize(all_ms), "first": summarize(first_ms), "refused": summarize(refused),
            "rx_bytes_per_move": round((spectator.rx - rx0) / moves),
            "rx_packets_per_move": round((spectator.packets - pk0) / moves, 2),
            "api_get_ms_with_streams_open": under_load}


def setup_game(base: str, players: int, clients: int) -> tuple[str, list[str], list[str], Session]:
    names = [f"P{i + 1}" for i in range(players)]
    banker, game, view = new_game(base, {"edition": "mario", "players": names, "seed": 1})
    seats = [p["id"] for p in view["players"]]
    for p in view["players"]:  # everyone starts with 1500, as in the peer's game
        r = banker.post(f"/api/games/{game}/commands", {"actor": "banker", "type": "transfer",
                        "args": {"source": "bank", "to": p["id"],
                                 "amount": START - p["money"], "reason": "bench start"}})
        assert r.status_code == 200, r.text
    return game, seats, join_phones(base, view["join_code"], seats, clients), banker


def api_under_load(base: str, game: str, banker: Session, n: int = 50) -> dict[str, float]:
    """GET latencies while every stream is open: proof the streams leave threads free."""
    times = []
    for _ in range(n):
        t = time.perf_counter()
        assert banker.http.get(f"/api/games/{game}").status_code == 200
        times.append((time.perf_counter() - t) * 1000)
    return summarize(times)


def page_bytes(base: str) -> int:
    """Bytes a phone downloads to open the page: the page and every script and style sheet
    it links, as a browser asks for them (gzip accepted)."""
    import re

    import httpx

    with httpx.Client(base_url=base, headers={"Accept-Encoding": "gzip"}) as c:
        first = c.get("/")
        linked = re.findall(r"""(?:src|href)=["'](/static/[^"'?#]+)""", first.text)
        return first.num_bytes_downloaded + sum(c.get(p).num_bytes_downloaded
                                                for p in sorted(set(linked)))


PAGE_LIMIT_BYTES = 100 * 1024   # docs/web.md: the page stays under 100 KB on the wire
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
    return round(float(sorted(times)[len(times) // 2]), 1)




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
    ap.add_argument("--threads", type=int, default=16)
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--page-only", action="store_true",
                    help="only the page's size and first render (no latency run)")
    ap.add_argument("--sync", choices=("FULL", "NORMAL"), default="FULL",
                    help="SQLite synchronous mode in the child (NORMAL: diagnosis only)")
    ap.add_argument("--compare", action="store_true",
                    help="alternate with boardgame.io's harness (8 and 50 clients, one core)")
    ap.add_argument("--memory", type=int, metavar="COMMANDS", default=0,
                    help="RSS of `companion run` after COMMANDS commands with 8, then 50 phones")
    ap.add_argument("--runs", type=int, default=3,
                    help="alternating runs per side (--compare), attacked sittings (--attack)")
    ap.add_argument("--baseline", type=Path, default=None, metavar="CHECKOUT",
                    help="--compare also runs this checkout's bench (with this interpreter "
                         "and packages), e.g. the code before a change")
    ap.add_argument("--replay-attack", action="store_true",
                    help="while the moves are timed, a guest who joined with the code cycles "
                         f"the replays of {GAMES} finished games of {EVENTS:,} events "
                         "(issue 38; --past-games, --past-events change them)")
    ap.add_argument("--replay-threads", type=int, default=2,
                    help="the guest's threads asking for replays (--replay-attack)")
    ap.add_argument("--past-games", type=int, default=GAMES, help=argparse.SUPPRESS)
    ap.add_argument("--past-events", type=int, default=EVENTS, help=argparse.SUPPRESS)
    ap.add_argument("--attack", default="", help="measure quiet, then under these background "
                    f"attacks ({', '.join(ATTACKS)}), then quiet again")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.compare:
        return compare(a.moves, a.runs, [8, 50], a.baseline)
    if a.memory:
        return memory(a.memory)
    if a.serve:
        serve_child(a.threads, a.sync, a.past_games if a.replay_attack else 0, a.past_events)
        return 0
    t_start = time.perf_counter()
    flags = ["--threads", str(a.threads), "--sync", a.sync]
    if a.replay_attack:
        flags += ["--replay-attack", "--past-games", str(a.past_games),
                  "--past-events", str(a.past_events)]
    try:
        with server_child(flags, dict(os.environ)) as (child, port):
            return run_latency(a, child.pid, port, t_start)
    except Exception as exc:
        print(json.dumps({"peer": "flask-sse", "error": str(exc)}), flush=True)
        return 1


def _parser() -> str:
    try:
        import httptools  # noqa: F401
    except ImportError:
        return "h11"
    return "httptools"


def run_latency(a: argparse.Namespace, pid: int, port: int, t_start: float) -> int:
    """The page check or the latency run against the server child on ``port``."""
    base = f"http://127.0.0.1:{port}"
    game, seats, cookies, banker = setup_game(base, a.players, a.clients)
    log(f"server child pid {pid} on {base}; {a.clients} SSE clients")
    if a.page_only:
        code = banker.http.get(f"/api/games/{game}").json()["join_code"]
        size, render = page_bytes(base), first_render(base, code)
        print(json.dumps({"page_bytes": size, "page_limit_bytes": PAGE_LIMIT_BYTES,
                          "first_render_ms": render,
                          "first_render_limit_ms": FIRST_RENDER_LIMIT_MS,
                          "within_limits": size <= PAGE_LIMIT_BYTES
                          and render <= FIRST_RENDER_LIMIT_MS}), flush=True)
        return 0
    if a.attack:
        return run_attacked(a, port, game, seats, cookies, banker)
    attack = replay_guest(a, base, banker, game) if a.replay_attack else None
    try:
        res = asyncio.run(latency(port, game, seats, cookies, banker, a.warmup, a.moves,
                                  a.seed))
    finally:
        if attack is not None:
            attack.stop()
    # the streams were closed by the client side; the server notices within a heartbeat
    out: dict[str, Any] = {"peer": "flask-sse", "version": pkg_version("flask"),
                           "clients": a.clients, "moves": a.moves}
    for k in ("p50", "p95", "p99", "max", "mean"):
        out[f"{k}_ms"] = res["all"][k]
    for k in ("p50", "p95", "p99", "max", "mean"):
        out[f"first_{k}_ms"] = res["first"][k]
    out["refused_p50_ms"] = res["refused"]["p50"]  # a refused move's answer to the mover
    out.update(players=a.players, spectators=a.clients - a.players,
               rx_bytes_per_move=res["rx_bytes_per_move"],
               rx_packets_per_move=res["rx_packets_per_move"], warmup=a.warmup,
               transport="sse", server="child", mode="authoritative", interval_ms=0,
               server_software=f"uvicorn {pkg_version('uvicorn')} ({_parser()}), flask "
                               f"on {min(a.threads, 16)} threads",
               durable=f"sqlite WAL synchronous={a.sync}, commit per move",
               python=platform.python_version(), cpus=os.cpu_count(),
               api_get_p99_ms_with_streams_open=res["api_get_ms_with_streams_open"]["p99"],
               sync=a.sync)
    if attack is not None:
        out["replay_attack"] = {"games": a.past_games, "events": a.past_events,
                                "threads": a.replay_threads,
                                "answers": {str(k): v for k, v in attack.answers.items()}}
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


def replay_guest(a: argparse.Namespace, base: str, banker: Session, game: str) -> ReplayCycler:
    """A guest who joined tonight's game with its code, cycling the finished games' replays
    (started; ``.stop()`` it)."""
    past = [g["id"] for g in banker.http.get("/api/games").json() if g["status"] == "finished"]
    guest = Session(base)
    code = banker.http.get(f"/api/games/{game}").json()["join_code"]
    assert guest.post("/api/join", {"code": code}).status_code == 200
    log(f"replay attack on {len(past)} finished games, {a.replay_threads} threads")
    return ReplayCycler(base, past, guest.http.cookies, threads=a.replay_threads).__enter__()


def run_attacked(a: argparse.Namespace, port: int, game: str, seats: list[str],
                 cookies: list[str], banker: Session) -> int:
    """The moves quiet and under ``a.attack``'s background attacks (and a guest cycling
    replays, with ``--replay-attack``), alternately on one
    server (``a.runs`` attacked sittings, each between two quiet ones): each sitting's
    percentiles, and the median attacked p99 over the median quiet p99. The attacks run in
    a child process (``scripts/reliability --attack``) at nice 10: on the table the attacker
    is another device, with its own CPU (and not this process's GIL)."""
    out: dict[str, Any] = {"clients": a.clients, "moves": a.moves, "attacks": a.attack,
                           "quiet": [], "attacked": []}
    for n in range(2 * a.runs + 1):
        name, attacker = ("attacked" if n % 2 else "quiet"), None
        if name == "attacked":
            attacker = subprocess.Popen(
                ["nice", "-n", "10", sys.executable, str(RELIABILITY), "--attack", a.attack,
                 "--port", str(port), "--seconds", "3600"], stdout=subprocess.PIPE, text=True)
            time.sleep(10)  # the attack takes its sockets
        replays = (replay_guest(a, f"http://127.0.0.1:{port}", banker, game)
                   if a.replay_attack and attacker is not None else None)
        res = asyncio.run(latency(port, game, seats, cookies, banker, a.warmup, a.moves,
                                  a.seed + n))
        if replays is not None:
            replays.stop()
            out["replays answered"] = dict(replays.answers)
        if attacker is not None:
            attacker.send_signal(signal.SIGINT)
            said, _ = attacker.communicate(timeout=60)
            out.update(dict(line.strip().split(": ", 1) for line in said.splitlines()
                            if ": " in line))
        out[name].append({k: res["all"][k] for k in ("p50", "p95", "p99", "max")})
        log(f"{name}: p50 {res['all']['p50']} ms p99 {res['all']['p99']} ms")
    p99 = {k: statistics.median(r["p99"] for r in out[k]) for k in ("quiet", "attacked")}
    out["median p99 quiet / attacked (ms)"] = [p99["quiet"], p99["attacked"]]
    out["attacked p99 / quiet p99"] = round(p99["attacked"] / p99["quiet"], 2)
    print(json.dumps(out), flush=True)
    return 0

if __name__ == "__main__":
    sys.exit(main())
