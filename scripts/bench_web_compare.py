"""``scripts/bench_web.py --compare``: boardgame.io's harness and ours in the same sitting,
then every budget of issue 40 with its figure.

Copies boardgame.io's harness (../shared/peers/bgio beside the checkout) to a temp dir, runs
``npm ci``, then alternates our bench (``--no-browser``) with ``node bench.js`` twice: with
boardgame.io's own storage (``--db flatfile``, every move written to disk as ours is: the
budget) and in memory (boardgame.io as it ships: a reference, not a target). It does so for 8
and 50 clients, ``runs`` times each, and again pinned to one core (``taskset -c 0``, the
nearest thing to a small Pi here). Prints each run's figures, the ratio of the medians (ours /
theirs) and the range of the ratios of the alternating pairs, which shows how much the machine
moved during the sitting. Then the budgets that have no peer: a 5,000-event replay and a
command with its commit (``bench_engine.py --budgets``), memory with 8 phones after 3,000
commands (``reliability.memory``) and the start to the first page served on one core. Last,
one table of every budget and one JSON line.
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().with_name("bench_web.py")
ENGINE = Path(__file__).resolve().with_name("bench_engine.py")
PEERS = ("flatfile", "memory")
"""boardgame.io with its own storage (the budget), then in memory (a reference)."""
FLATFILE_MOVES = 30
"""boardgame.io's FlatFile takes about a second a move on this machine (983 ms p50, 8 clients,
2026-12-07): 30 timed moves after 5 warm-up ones keep a sitting under half an hour."""
METRICS = ("p50_ms", "p99_ms", "rx_bytes_per_move", "refused_p50_ms")
"""``refused_p50_ms`` is ours only: a refused move's answer (Flask's checks and the rule, no
commit and no frame), the floor of any move through Flask."""


def log(*a: Any) -> None:
    print(*a, file=sys.stderr, flush=True)


def peer_dir() -> Path | None:
    here = Path(__file__).resolve().parents[1]
    for d in (here.parent / "shared" / "peers" / "bgio",
              here.parent.parent / "shared" / "peers" / "bgio"):
        if (d / "bench.js").exists():
            return d
    return None


def last_json(out: str) -> dict[str, Any]:
    for line in reversed(out.strip().splitlines()):
        if line.startswith("{"):
            return dict(json.loads(line))
    raise RuntimeError(f"no JSON line in: {out[-300:]}")


def run_ours(clients: int, moves: int, pin: list[str]) -> dict[str, Any]:
    out = subprocess.run([*pin, sys.executable, str(BENCH), "--no-browser", "--clients",
                          str(clients), "--moves", str(moves)], capture_output=True, text=True,
                         timeout=600)
    return last_json(out.stdout)


def run_baseline(root: Path, clients: int, moves: int, pin: list[str]) -> dict[str, Any]:
    """The same benchmark from another checkout (``--baseline``: the code before a change),
    run by this interpreter with that checkout first on the path: only the code differs."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([*pin, sys.executable, str(root / "scripts" / "bench_web.py"),
                          "--no-browser", "--clients", str(clients), "--moves", str(moves)],
                         cwd=root, capture_output=True, text=True, timeout=600, env=env)
    return last_json(out.stdout)


def run_peer(peer: Path, clients: int, moves: int, pin: list[str], db: str) -> dict[str, Any]:
    warmup = []
    if db == "flatfile":
        moves, warmup = min(moves, FLATFILE_MOVES), ["--warmup", "5"]
    out = subprocess.run([*pin, "node", "bench.js", "--clients", str(clients), "--moves",
                          str(moves), *warmup, "--db", db, "--timeout-s", "600"], cwd=peer,
                         capture_output=True, text=True, timeout=900)
    return last_json(out.stdout)


def engine_budgets() -> dict[str, Any]:
    """A 5,000-event replay and a command with its commit (``bench_engine.py --budgets``)."""
    out = subprocess.run([sys.executable, str(ENGINE), "--budgets", "--commands", "1000"],
                         capture_output=True, text=True, timeout=900)
    return last_json(out.stdout)


def memory_budget(commands: int = 3000) -> float:
    """RSS in MB of ``companion run`` with 8 phones following, after ``commands`` commands."""
    from reliability.memory import run_memory

    with tempfile.TemporaryDirectory() as tmp:
        r = run_memory(Path(tmp), commands=commands, phones=8, time_limit=900)
    return float(r.figures["RSS after the game (MB)"])


def first_page_s(pin: list[str]) -> float:
    """Seconds from starting ``companion run --simulate`` (a fresh state folder) to the page
    served whole (``/`` answered 200)."""
    with tempfile.TemporaryDirectory() as tmp:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        t0 = time.perf_counter()
        child = subprocess.Popen(
            [*pin, sys.executable, "-m", "companion.app.cli", "run", "--simulate", "--no-mdns",
             "--host", "127.0.0.1", "--port", str(port), "--state-dir", tmp],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while True:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                        if r.status == 200:
                            r.read()
                            return time.perf_counter() - t0
                except OSError:
                    if child.poll() is not None:
                        raise RuntimeError("companion run exited before serving") from None
                    time.sleep(0.01)
        finally:
            child.terminate()
            child.wait(30)


def median(xs: list[float]) -> float:
    s = sorted(xs)
    return s[len(s) // 2]


def compare(moves: int, runs: int, clients_list: list[int], baseline: Path | None = None) -> int:
    src = peer_dir()
    if src is None or shutil.which("node") is None or shutil.which("npm") is None:
        log("boardgame.io's harness or node is missing: running ours only")
    with tempfile.TemporaryDirectory() as tmp:
        peer: Path | None = None
        if src is not None and shutil.which("npm"):
            peer = Path(tmp) / "bgio"
            shutil.copytree(src, peer, ignore=shutil.ignore_patterns("node_modules"))
            subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=peer, check=True,
                           capture_output=True, timeout=600)
        pinned = ["taskset", "-c", "0"] if shutil.which("taskset") else []
        plan: list[tuple[int, list[str]]] = [(k, []) for k in clients_list]
        if pinned:
            plan += [(k, pinned) for k in clients_list]
        report = [compare_row(peer, clients, pin, moves, runs, baseline)
                  for clients, pin in plan]
    extra = engine_budgets()
    extra["memory_mb"] = memory_budget()
    extra["first_page_s"] = round(median([first_page_s(pinned) for _ in range(3)]), 2)
    print_budgets(report, extra)
    print(json.dumps({"compare": report, "budgets": extra}), flush=True)
    return 0


def compare_row(peer: Path | None, clients: int, pin: list[str], moves: int, runs: int,
                baseline: Path | None) -> dict[str, Any]:
    """``runs`` alternating runs of each side for ``clients`` clients, printed and returned."""
    ours: list[dict[str, Any]] = []
    theirs: dict[str, list[dict[str, Any]]] = {db: [] for db in PEERS}
    before: list[dict[str, Any]] = []
    for _ in range(runs):  # alternate, so every side sees the same machine
        if peer is not None:
            for db in PEERS:
                theirs[db].append(run_peer(peer, clients, moves, pin, db))
        if baseline is not None:
            before.append(run_baseline(baseline, clients, moves, pin))
        ours.append(run_ours(clients, moves, pin))
    row: dict[str, Any] = {"clients": clients, "pinned": bool(pin), "runs": runs}
    for k in METRICS:
        row[f"ours_{k}"] = [r.get(k) for r in ours]
        a = [x for x in row[f"ours_{k}"] if x is not None]
        if before:
            row[f"before_{k}"] = [r.get(k) for r in before]
            b = [x for x in row[f"before_{k}"] if x is not None]
            if a and b:
                row[f"vs_before_{k}"] = round(median(a) / median(b), 2)
        for db in PEERS:
            if not any(r.get(k) is not None for r in theirs[db]):
                continue
            row[f"{db}_{k}"] = [r.get(k) for r in theirs[db]]
            b = [x for x in row[f"{db}_{k}"] if x is not None]
            if a and b:
                row[f"ratio_{db}_{k}"] = round(median(a) / median(b), 3)
            pairs = sorted(x / y for x, y in zip(row[f"ours_{k}"], row[f"{db}_{k}"],
                                                 strict=True) if x is not None and y)
            if pairs:
                row[f"pairs_{db}_{k}"] = [round(pairs[0], 3), round(pairs[-1], 3)]
    where = "one core" if pin else "all cores"
    print(f"{clients} clients, {where}, {runs} alternating run(s) of {moves} moves "
          f"(boardgame.io FlatFile: {min(moves, FLATFILE_MOVES)}):")
    for k in METRICS:
        line = f"  {k:18} ours {row[f'ours_{k}']}"
        if f"before_{k}" in row:
            line += f"  before {row[f'before_{k}']} (x{row.get(f'vs_before_{k}')})"
        for db in PEERS:
            if f"{db}_{k}" in row:
                line += f"  bgio-{db} {row[f'{db}_{k}']} ratio {row.get(f'ratio_{db}_{k}')}"
                if f"pairs_{db}_{k}" in row:
                    low, high = row[f"pairs_{db}_{k}"]
                    line += f" (pairs {low}-{high})"
        print(line, flush=True)
    return row


def print_budgets(report: list[dict[str, Any]], extra: dict[str, Any]) -> None:
    """One line per budget of issue 40: the figure, the limit, and whether it holds."""
    lines: list[tuple[str, float | None, float, str]] = []
    for row in report:
        who = f"a move to {row['clients']} phones" + (", one core" if row["pinned"] else "")
        p99 = median([x for x in row["ours_p99_ms"] if x is not None])
        if not row["pinned"]:
            for k in ("p50_ms", "p99_ms"):
                lines.append((f"{who}, {k[:3]} ours / boardgame.io FlatFile",
                              row.get(f"ratio_flatfile_{k}"), 1.0, "x"))
        else:
            lines.append((f"{who}, p99", p99, 10.0 if row["clients"] <= 8 else 25.0, "ms"))
    lines += [("a 5,000-event replay", extra["replay_ms"], 50.0, "ms"),
              ("a command with its commit, p99", extra["command_p99_ms"], 2.0, "ms"),
              ("memory, 8 phones after 3,000 commands", extra["memory_mb"], 60.0, "MB"),
              ("start to the first page served, one core", extra["first_page_s"], 1.5, "s")]
    print("\nbudgets (issue 40):")
    for what, got, limit, unit in lines:
        verdict = "no figure" if got is None else ("within" if got <= limit else "OVER")
        print(f"  {what:52} {got!s:>7} {unit:2} (<= {limit:g})  {verdict}", flush=True)
