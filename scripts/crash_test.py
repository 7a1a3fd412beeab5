#!/usr/bin/env python3
"""Power-cut test: a scripted game in a subprocess, SIGKILLed at random points, reopened each
time. Prints acknowledged events lost (must be 0), the integrity_check results, and whether
the reopened state equals a replay of the log from scratch.

Usage: python scripts/crash_test.py [--kills 200] [--state-dir DIR] [--seed 1] [--min-acks N]

The child plays random legal commands through the real GameService (SQLite on disk, WAL,
synchronous=FULL, snapshots every 40 events) and prints ``ACK <game> <version> <digest>`` only
after each command is acknowledged. The parent waits for the child's first acknowledgement
(so a slow start on a busy machine cannot eat the run), then kills it with SIGKILL at a random
moment, and checks that every acknowledged version is on disk with exactly the acknowledged
state. A run that acknowledged fewer than ``--min-acks`` commands (default: 5 per kill) proved
nothing and fails.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO

from companion.engine.state import BaseState
from companion.service import game
from companion.service.game_service import GameService


def digest(state: BaseState) -> str:
    return hashlib.sha256(repr(state).encode()).hexdigest()[:16]


def child(state_dir: Path, seed: int) -> None:
    """Play until killed, printing each acknowledged version."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_engine import random_command

    svc = GameService(state_dir, snapshot_every=40).start()
    rnd = random.Random(seed)
    while True:
        gid = svc.active_game()
        if gid is None or svc.state(gid)[1].finished or svc.state(gid)[0] > 20_000:
            out = svc.create_game({"edition": "mario", "players": ["A", "B", "C"],
                                   "dice": "physical", "seed": rnd.randrange(10**6)})
            gid = out.game_id
            print(f"ACK {gid} {out.version} {digest(svc.state(gid)[1])}", flush=True)
        _, state = svc.state(gid)
        out = svc.submit(gid, random_command(rnd, game.legal_actions(state)),
                         key=f"k{rnd.getrandbits(48)}")
        if out.ok:
            print(f"ACK {gid} {out.version} {digest(svc.state(gid)[1])}", flush=True)


def check(state_dir: Path, acks: list[tuple[str, int, str]]) -> tuple[int, str, bool, bool]:
    """(acknowledged versions lost, integrity_check, acked state matches, state == replay)."""
    svc = GameService(state_dir)
    try:
        integrity = svc.store.integrity()
        lost = 0
        matches = True
        same_as_replay = True
        by_game: dict[str, tuple[int, str]] = {}
        for gid, version, dig in acks:
            by_game[gid] = (version, dig)
        for gid, (version, dig) in by_game.items():
            on_disk, live = svc.state(gid)
            if on_disk < version:
                lost += sum(1 for g, v, _ in acks if g == gid and v > on_disk)
                continue
            rows = svc.store.rows(gid)
            kept = game.effective((r.seq, r.event) for r in rows)
            at_ack = game.replay(e for s, e in kept if s <= version)
            matches &= digest(at_ack) == dig
            same_as_replay &= game.replay(e for _, e in kept) == live
    finally:
        svc.stop()
    return lost, integrity, matches, same_as_replay


FIRST_ACK_TIMEOUT_S = 120.0
"""How long a child may take to acknowledge its first command (start-up on a busy Pi Zero)."""


def read_acks(stream: IO[str], acks: list[tuple[str, int, str]],
              first: threading.Event) -> None:
    """Collect ``ACK`` lines from the child as they come; set ``first`` at the first one."""
    for line in stream:
        parts = line.split()
        if len(parts) == 4 and parts[0] == "ACK":
            acks.append((parts[1], int(parts[2]), parts[3]))
            first.set()
    first.set()  # the child ended: stop waiting


def run_child(state_dir: Path, seed: int, delay: float) -> tuple[list[tuple[str, int, str]],
                                                                  int | None, str]:
    """One child: wait for its first acknowledgement, then SIGKILL it ``delay`` s later.

    Returns (acknowledgements, exit status, stderr); the status is -SIGKILL after a kill."""
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", "--state-dir", str(state_dir), "--seed",
         str(seed)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    acks: list[tuple[str, int, str]] = []
    first = threading.Event()
    reader = threading.Thread(target=read_acks, args=(proc.stdout, acks, first), daemon=True)
    reader.start()
    errors: list[str] = []
    stderr = proc.stderr
    assert stderr is not None
    drain = threading.Thread(target=lambda: errors.append(stderr.read()), daemon=True)
    drain.start()
    first.wait(FIRST_ACK_TIMEOUT_S)
    time.sleep(delay)
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    reader.join()
    drain.join()
    return acks, proc.returncode, "".join(errors)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--state-dir", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-acks", type=int, default=None,
                        help="fail below this many acknowledged commands (default: 5 per kill)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.state_dir, args.seed)
        return 0
    tmp = tempfile.TemporaryDirectory()
    state_dir = args.state_dir or Path(tmp.name)
    rnd = random.Random(args.seed)
    total_acks = lost_total = 0
    bad_integrity = mismatches = replay_diffs = 0
    t0 = time.time()
    for i in range(args.kills):
        acks, status, err = run_child(state_dir, rnd.randrange(10**9),
                                      rnd.uniform(0.05, 0.9))
        if status != -signal.SIGKILL:
            print(f"child {i} ended by itself (status {status}) before the kill:\n{err}",
                  file=sys.stderr)
            return 1
        if not acks:
            print(f"child {i} acknowledged nothing in {FIRST_ACK_TIMEOUT_S:.0f} s:\n{err}",
                  file=sys.stderr)
            return 1
        total_acks += len(acks)
        lost, integrity, matches, same = check(state_dir, acks)
        lost_total += lost
        bad_integrity += integrity != "ok"
        mismatches += not matches
        replay_diffs += not same
        if (i + 1) % 20 == 0:
            print(f"  {i + 1} kills, {total_acks} acknowledged, {lost_total} lost", flush=True,
                  file=sys.stderr)
    print(f"kills: {args.kills} in {time.time() - t0:.0f} s, acknowledged commands: {total_acks}")
    print(f"acknowledged events lost: {lost_total}")
    print(f"integrity_check not ok: {bad_integrity} of {args.kills}")
    print(f"acknowledged state differs after reopening: {mismatches} of {args.kills}")
    print(f"reopened state differs from a full replay: {replay_diffs} of {args.kills}")
    min_acks = 5 * args.kills if args.min_acks is None else args.min_acks
    enough = total_acks >= min_acks
    print(f"minimum acknowledged commands: {min_acks} ({'met' if enough else 'NOT MET'})")
    held = lost_total == bad_integrity == mismatches == replay_diffs == 0
    return 0 if held and enough else 1


if __name__ == "__main__":
    sys.exit(main())
