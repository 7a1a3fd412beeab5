"""The database file attacked under a running ``companion run`` (issue #26 items 5, 6, 8):
deleted while it runs, its ``-shm`` cut short, and forged exports imported.

Each prints what it measured; each fails when an acknowledged move is lost, the server dies,
or a forged export imports.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from reliability.harness import Phone, Result, Server, drive, new_game, rss_kb

START = 180.0
"""Seconds a start may take: generous, since the machine may be shared (never a check)."""


def _acked_versions(banker: Phone, game: str, rnd: random.Random, commands: int
                    ) -> tuple[list[int], list[tuple[int, Any]]]:
    """Send ``commands`` banker commands: the versions answered 200, and the rest."""
    acked: list[int] = []
    other: list[tuple[int, Any]] = []
    for _ in range(commands):
        status, body = drive(banker, game, rnd)
        if status == 200:
            acked.append(int(body["version"]))
        else:
            other.append((status, body))
    return acked, other


def _version_after_restart(srv: Server, game: str) -> int:
    srv.kill()
    srv.start(timeout=START)
    with Phone(srv.url) as banker:
        banker.login()
        try:
            return int(banker.view(game)["version"])
        except Exception:  # the game is gone
            return 0


def run_deleted(work: Path, before: int = 30, after: int = 30, seed: int = 5) -> Result:
    """``rm companion.db*`` under a running server between moves, then keep playing."""
    rnd = random.Random(seed)
    srv = Server(work / "deleted")
    srv.start(timeout=START)
    try:
        with Phone(srv.url) as banker:
            banker.login()
            game, _, _ = new_game(banker, 3, seed=seed)
            acked, _ = _acked_versions(banker, game, rnd, before)
            for name in ("companion.db", "companion.db-wal", "companion.db-shm"):
                (srv.state_dir / name).unlink(missing_ok=True)
            later, refused = _acked_versions(banker, game, rnd, after)
        storage = [b for s, b in refused if s == 503 and isinstance(b, dict)
                   and b.get("code") == "storage"]
        journal = srv.journal()
        last = max(acked + later)
        on_restart = _version_after_restart(srv, game)
    finally:
        srv.kill()
    figures = {
        "moves acknowledged before the deletion": len(acked),
        "moves acknowledged after it": len(later),
        "refused 503 storage": len(storage),
        "journal says deleted and saved again": "was deleted" in journal
        and "saved again" in journal,
        "last acknowledged version / version after a restart": f"{last} / {on_restart}",
        "acknowledged versions lost": max(0, last - on_restart),
    }
    ok = bool(acked) and len(storage) >= 1 and on_restart >= last and bool(later)
    return Result("deleted database: noticed, rescued, nothing acknowledged lost", ok, figures)


def run_shm(work: Path, commands: int = 30, seed: int = 6) -> Result:
    """Cut ``companion.db-shm`` to nothing (as a card remounted read-only may leave it
    unwritable) under a running server, then keep playing."""
    rnd = random.Random(seed)
    srv = Server(work / "shm")
    srv.start(timeout=START)
    shm = srv.state_dir / "companion.db-shm"
    try:
        with Phone(srv.url) as banker:
            banker.login()
            game, _, _ = new_game(banker, 3, seed=seed)
            acked, _ = _acked_versions(banker, game, rnd, commands)
            had_shm = shm.exists()
            if had_shm:
                os.truncate(shm, 0)
            try:
                later, _ = _acked_versions(banker, game, rnd, commands)
            except Exception:  # the server died
                later = []
        assert srv.proc is not None
        alive = srv.proc.poll() is None
        exit_code = srv.proc.returncode
        last = max(acked + later)
        on_restart = _version_after_restart(srv, game)
    finally:
        srv.kill()
    figures = {"-shm file present while running": had_shm, "server alive after": alive,
               "exit code if it died": exit_code, "moves acknowledged after": len(later),
               "acknowledged versions lost": max(0, last - on_restart)}
    ok = alive and bool(later) and on_restart >= last
    return Result("unwritable -shm: the service never dies of it", ok, figures)


def _forge(head: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    """An export with a first line recomputed to match ``rows`` (as a forger would)."""
    lines = [json.dumps(r) for r in rows]
    digest = hashlib.sha256("".join(line + "\n" for line in lines).encode()).hexdigest()
    return "\n".join([json.dumps({**head, "events": len(lines), "version": rows[-1]["seq"],
                                  "sha256": digest}), *lines]) + "\n"


def _import(path: Path, state: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "companion.app.cli", "import", str(path),
                           "--state-dir", str(state)], capture_output=True, text=True,
                          timeout=600)
    return done, time.monotonic() - t0


def _start_figures(state: Path) -> tuple[float, int]:
    """Seconds until a server on ``state`` answers, and its VmRSS then (kB)."""
    srv = Server(state)
    t0 = time.monotonic()
    srv.start(timeout=START)
    took = time.monotonic() - t0
    assert srv.proc is not None
    rss = rss_kb(srv.proc.pid)
    srv.kill()
    return took, rss


def run_forged(work: Path, commands: int = 120, seed: int = 8, big: int = 300_000) -> Result:
    """A real export, then forged ones: an edited balance with its SHA-256 recomputed, two
    events swapped, a command cut short, the same file three times, ``big`` events."""
    rnd = random.Random(seed)
    srv = Server(work / "home")
    srv.start(timeout=START)
    try:
        with Phone(srv.url) as banker:
            banker.login()
            game, _, _ = new_game(banker, 3, seed=seed)
            _acked_versions(banker, game, rnd, commands)
            text = banker.client.get(f"/api/games/{game}/export").text
    finally:
        srv.kill()
    lines = text.splitlines()
    head, rows = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    forged: dict[str, str] = {}
    edited = json.loads(json.dumps(rows))
    target = next(r for r in edited if any(isinstance(v, int) and not isinstance(v, bool)
                                           for v in r["data"].values()) and r["seq"] > 5)
    for k, v in target["data"].items():
        if isinstance(v, int) and not isinstance(v, bool):
            target["data"][k] = -999_969
    forged["edited balance, SHA-256 recomputed"] = _forge(head, edited)
    swapped = json.loads(json.dumps(rows))
    i = next(n for n in range(5, len(swapped) - 1) if swapped[n]["cmd"] != swapped[n + 1]["cmd"])
    swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
    for n, r in enumerate(swapped, 1):
        r["seq"] = n
    forged["two events swapped, head forged"] = _forge(head, swapped)
    cut = len(rows) - 1
    while rows[cut - 1]["cmd"] != rows[cut]["cmd"]:
        cut -= 1
    forged["cut inside a command, head forged"] = _forge(head, rows[:cut])
    refused = 0
    for n, body in enumerate(forged.values()):
        path = work / f"forged-{n}.jsonl"
        path.write_text(body)
        done, _ = _import(path, work / "forged-state")
        refused += done.returncode != 0 and "Nothing was imported" in done.stderr
    whole = work / "whole.jsonl"
    whole.write_text(text)
    runs = [_import(whole, work / "away") for _ in range(3)]
    made = sum(done.returncode == 0 for done, _ in runs)
    huge = work / "huge.jsonl"
    with huge.open("w") as f:
        f.write(json.dumps({**head, "events": big, "version": big}) + "\n")
        last = rows[-1]
        for n in range(1, big + 1):
            f.write(json.dumps({**(rows[n - 1] if n <= len(rows) else last), "seq": n}) + "\n")
    huge_done, huge_s = _import(huge, work / "huge-state")
    peer_s, peer_rss = _start_figures(work / "empty")
    start_s, start_rss = _start_figures(work / "away")
    figures = {
        "events in the real export": len(rows),
        "forged imports refused": f"{refused} of {len(forged)}",
        "games made by importing the same export 3 times": made,
        f"{big:,}-event file ({huge.stat().st_size >> 20} MB)": "refused"
        if huge_done.returncode != 0 else "IMPORTED",
        f"{big:,}-event file refused in (s)": round(huge_s, 2),
        "first import of the real export (s)": round(runs[0][1], 2),
        "start with the imported game / empty: seconds": f"{start_s:.2f} / {peer_s:.2f}",
        "start with the imported game / empty: VmRSS (MB)":
            f"{start_rss / 1024:.1f} / {peer_rss / 1024:.1f}",
    }
    ok = refused == len(forged) and made == 1 and huge_done.returncode != 0
    notes = [] if ok else [huge_done.stderr[-300:]] + [d.stderr[-300:] for d, _ in runs]
    return Result("forged imports: decided again by the rules, refused", ok, figures,
                  notes=[n for n in notes if n])
