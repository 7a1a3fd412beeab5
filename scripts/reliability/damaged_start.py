"""Damaged files at start-up: a bad page under one game's log, a damaged list of games, a
read-only state directory. The healthy games must start and every case must be said in
words (the journal, the OLED, the page), never a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.service.game_service import GameService
from reliability.damage import damage_pages_of, play
from reliability.harness import Phone, Result, Server

HEALTHY = {"edition": "mario", "players": ["Mario", "Luigi"], "dice": "physical", "seed": 1}
DOOMED = {"edition": "mario", "players": ["Zorglubina", "Quixotella", "Wolfhilde"],
          "dice": "physical", "seed": 2}


def _prepare(state: Path, healthy_games: int) -> tuple[list[str], str]:
    with GameService(state) as svc:
        healthy = [svc.create_game(HEALTHY).game_id for _ in range(healthy_games)]
        doomed = svc.create_game(DOOMED).game_id
        play(svc, doomed, 150)
        for gid in healthy:
            play(svc, gid, 10, seed=3)
    damage_pages_of(state / "companion.db", "Quixotella")
    return healthy, doomed


def _run_once(state: Path, as_nobody: bool = False) -> subprocess.CompletedProcess[str]:
    """``companion run`` on a state dir that should not start: its exit and its words."""
    cmd = [sys.executable, "-m", "companion.app.cli", "run", "--simulate", "--no-mdns", "--host",
           "127.0.0.1", "--port", "0", "--state-dir", str(state), "--pin", "20461379"]
    if as_nobody:
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])


def run_damaged(work: Path, healthy_games: int = 3) -> Result:
    figures: dict[str, object] = {}
    notes: list[str] = []
    # 1. one game's log has a page of garbage
    state = work / "one-bad-game"
    healthy, doomed = _prepare(state, healthy_games)
    t0 = time.monotonic()
    with Server(state) as srv, Phone(srv.url) as banker:
        figures["start-up with a damaged game (s)"] = round(time.monotonic() - t0, 2)
        banker.login()
        listed = {g["id"]: g["status"] for g in banker.get("/api/games")}
        playable = sum(banker.command(g, "banker", "end_game", {})[0] == 200 for g in healthy)
        journal = srv.journal()
    figures["healthy games started and playable"] = f"{playable} of {healthy_games}"
    figures["damaged game listed as damaged"] = listed.get(doomed) == "damaged"
    figures["journal names the damaged game"] = doomed in journal and "damaged" in journal
    figures["tracebacks in the journal"] = journal.count("Traceback")
    ok = (playable == healthy_games and listed.get(doomed) == "damaged"
          and doomed in journal and "Traceback" not in journal)

    # 2. the list of games itself is damaged: refused in words
    state = work / "bad-schema"
    with GameService(state) as svc:
        svc.create_game(HEALTHY)
    db = state / "companion.db"
    data = bytearray(db.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)
    db.write_bytes(bytes(data))
    done = _run_once(state)
    said = done.stdout + done.stderr
    figures["damaged database: exit / says restore / traceback"] = (
        f"{done.returncode} / {'companion restore' in said} / {'Traceback' in said}")
    ok &= done.returncode != 0 and "companion restore" in said and "Traceback" not in said

    # 3. a read-only state directory: not called damaged
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        figures["read-only state dir"] = "skipped (cannot drop root)"
    else:
        shared = Path(tempfile.mkdtemp(prefix="companion-ro-"))
        try:
            shared.chmod(0o755)
            state = shared / "state"
            with GameService(state) as svc:
                svc.create_game(HEALTHY)
            for item in state.iterdir():
                item.chmod(0o644)
            state.chmod(0o555)
            done = _run_once(state, as_nobody=os.geteuid() == 0)
            said = done.stdout + done.stderr
            called_damaged = "damaged" in said.replace("not damaged", "")
            figures["read-only dir: exit / says read-only / called damaged"] = (
                f"{done.returncode} / {'read-only' in said} / {called_damaged}")
            ok &= done.returncode != 0 and "read-only" in said and not called_damaged
            if not ok:
                notes.append(said[-400:])
        finally:
            shared.chmod(0o755)
            for item in shared.rglob("*"):
                item.chmod(0o755)
            shutil.rmtree(shared)
    return Result("damaged files: the healthy games start, every problem said in words",
                  bool(ok), figures, notes)
