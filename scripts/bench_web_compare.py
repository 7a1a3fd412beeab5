"""``scripts/bench_web.py --compare``: boardgame.io's harness and ours in the same sitting.

Copies boardgame.io's harness (../shared/peers/bgio beside the checkout) to a temp dir, runs
``npm ci``, then alternates ``node bench.js --clients K --moves R`` with our bench
(``--no-browser``) for 8 and 50 clients, ``runs`` times each, and as many times pinned to
one core (``taskset -c 0``, the nearest thing to a small Pi here). Prints each run's figures,
the ratio of the medians (ours / theirs) and the range of the ratios of the alternating
pairs, which shows how much the machine moved during the sitting; then one JSON line.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().with_name("bench_web.py")
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


def run_peer(peer: Path, clients: int, moves: int, pin: list[str]) -> dict[str, Any]:
    out = subprocess.run([*pin, "node", "bench.js", "--clients", str(clients), "--moves",
                          str(moves)], cwd=peer, capture_output=True, text=True, timeout=600)
    return last_json(out.stdout)


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
        plan: list[tuple[int, list[str], int]] = [(k, [], runs) for k in clients_list]
        if pinned:
            plan.append((clients_list[0], pinned, runs))
        report = []
        for clients, pin, n in plan:
            ours, theirs, before = [], [], []
            for _ in range(n):  # alternate, so both see the same machine
                if peer is not None:
                    theirs.append(run_peer(peer, clients, moves, pin))
                if baseline is not None:
                    before.append(run_baseline(baseline, clients, moves, pin))
                ours.append(run_ours(clients, moves, pin))
            row: dict[str, Any] = {"clients": clients, "pinned": bool(pin), "runs": n}
            for k in METRICS:
                row[f"ours_{k}"] = [r.get(k) for r in ours]
                a = sorted(x for x in row[f"ours_{k}"] if x is not None)
                if before:
                    row[f"before_{k}"] = [r.get(k) for r in before]
                    b = sorted(x for x in row[f"before_{k}"] if x is not None)
                    if a and b:
                        row[f"vs_before_{k}"] = round(a[len(a) // 2] / b[len(b) // 2], 2)
                if any(r.get(k) is not None for r in theirs):
                    row[f"bgio_{k}"] = [r.get(k) for r in theirs]
                    b = sorted(x for x in row[f"bgio_{k}"] if x is not None)
                    if a and b:
                        row[f"ratio_{k}"] = round(a[len(a) // 2] / b[len(b) // 2], 2)
                    pairs = sorted(x / y for x, y in zip(row[f"ours_{k}"], row[f"bgio_{k}"],
                                                         strict=True) if x is not None and y)
                    if pairs:
                        row[f"pair_ratios_{k}"] = [round(pairs[0], 2), round(pairs[-1], 2)]
            report.append(row)
            where = "one core" if pin else "all cores"
            print(f"{clients} clients, {where}, {n} alternating run(s) of {moves} moves:")
            for k in METRICS:
                line = f"  {k:18} ours {row[f'ours_{k}']}"
                if f"before_{k}" in row:
                    line += f"  before {row[f'before_{k}']} (x{row.get(f'vs_before_{k}')})"
                if f"bgio_{k}" in row:
                    line += f"  bgio {row[f'bgio_{k}']}  ratio of medians {row.get(f'ratio_{k}')}"
                    if f"pair_ratios_{k}" in row:
                        low, high = row[f"pair_ratios_{k}"]
                        line += f" (pairs {low}-{high})"
                print(line, flush=True)
        print(json.dumps({"compare": report}), flush=True)
    return 0
