"""Restore and import while ``companion run`` is serving a game: both must be refused (the
running service would go on writing to the old database: an export once jumped from event 223
to 235), the game must go on untouched, and an export cut or edited must not import."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

from reliability.harness import Phone, Result, Server, drive, new_game


def _companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.app.cli", *args], capture_output=True,
                          text=True, timeout=300)


def run_restore_running(work: Path, attempts: int = 5, commands: int = 40,
                        seed: int = 11) -> Result:
    """``attempts`` restores and imports while the banker plays ``commands`` commands."""
    rnd = random.Random(seed)
    state = work / "state"
    export = work / "game.jsonl"
    refused_restore = refused_import = acked = 0
    refusal_ms: list[float] = []
    from companion.service.game_service import GameService

    GameService(state).stop()  # an empty database to back up: the running service holds
    made = _companion("backup", "--state-dir", str(state))  # its file alone, so before
    backup = made.stdout.split("Backup written to ", 1)[-1].strip()
    with Server(state) as srv, Phone(srv.url) as banker:
        banker.login()
        game, _, _ = new_game(banker, 3, seed=seed)
        backup_running = _companion("backup", "--state-dir", str(state))
        for i in range(commands):
            status, _ = drive(banker, game, rnd)
            acked += status == 200
            if i % max(1, commands // attempts) == 0:
                t0 = time.monotonic()
                done = _companion("restore", backup, "--state-dir", str(state))
                refusal_ms.append((time.monotonic() - t0) * 1000)
                refused_restore += done.returncode != 0 and "refused" in done.stdout
                export.write_text(banker.client.get(f"/api/games/{game}/export").text)
                done = _companion("import", str(export), "--state-dir", str(state))
                refused_import += done.returncode != 0 and "refused" in done.stderr
        final = banker.view(game)["version"]
        export.write_text(banker.client.get(f"/api/games/{game}/export").text)
        still_one_game = len(banker.get("/api/games")) == 1
    lines = export.read_text().splitlines()
    seqs = [json.loads(line)["seq"] for line in lines[1:]]
    gaps = sum(1 for a, b in zip(seqs, seqs[1:], strict=False) if b != a + 1)
    cut = work / "cut.jsonl"
    cut.write_text("\n".join(lines[:10] + lines[14:]) + "\n")
    imported_cut = _companion("import", str(cut), "--state-dir", str(work / "cut-state"))
    again = _companion("import", str(export), "--state-dir", str(state))
    whole = _companion("import", str(export), "--state-dir", str(work / "elsewhere"))
    restored = _companion("restore", backup, "--state-dir", str(state))
    figures = {
        "commands acknowledged": acked,
        "restores tried while running / refused": f"{attempts} / {refused_restore}",
        "imports tried while running / refused": f"{attempts} / {refused_import}",
        "refusal time, slowest (ms)": round(max(refusal_ms or [0.0]), 1),
        "games after the refusals": 1 if still_one_game else "more than 1",
        "events exported": len(seqs),
        "last version / last event exported": f"{final} / {seqs[-1] if seqs else 0}",
        "gaps in the export": gaps,
        "cut export (events 10-13 removed) refused": imported_cut.returncode != 0,
        "backup by hand while running refused, saying why": backup_running.returncode == 1
        and "backup by itself" in backup_running.stdout,
        "whole export imported again where it is: recognised": "already here" in again.stderr,
        "whole export imported elsewhere after stopping": whole.returncode == 0,
        "restore after stopping": restored.returncode == 0,
    }
    ok = (refused_restore == refused_import == attempts and still_one_game and gaps == 0
          and seqs and seqs[-1] == final and imported_cut.returncode != 0
          and "missing" in imported_cut.stderr and whole.returncode == 0
          and "already here" in again.stderr and backup_running.returncode == 1
          and restored.returncode == 0)
    notes = [] if ok else [imported_cut.stderr.strip()[-300:], whole.stderr.strip()[-300:],
                           restored.stdout.strip()[-300:]]
    return Result("restore-while-running: refused, the game goes on, the log stays whole",
                  bool(ok), figures, notes=[n for n in notes if n])
