"""The log is checkpointed into the database file after a move's answer, not inside a move's
commit: a phone never waits for it, and the moves reach the database file all the same."""

from __future__ import annotations

import random
import shutil
import sqlite3
import sys
import threading
from pathlib import Path

import pytest

from companion.service import game
from companion.service.game_service import GameService
from companion.store import database as store_mod
from companion.store.database import Store

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from bench_engine import random_command  # noqa: E402

SETUP = {"edition": "mario", "players": ["Mario", "Дмитрий"], "dice": "physical", "seed": 5,
         "settings": {"order": "seated"}}



def wal_target(conn: sqlite3.Connection) -> int:
    """Bytes the write-ahead log reaches before SQLite checkpoints it (sqlite.org/walformat:
    a 32-byte header, then a 24-byte header per page; a commit may overshoot by 64 pages)."""
    page = int(conn.execute("PRAGMA page_size").fetchone()[0])
    pages = int(conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0])
    return 32 + (pages + 64) * (page + 24)

def a_legal_move(svc: GameService, gid: str, rnd: random.Random) -> dict[str, object]:
    """A legal command of the game as it stands (the benchmark's random player, never going
    bankrupt on purpose)."""
    state = svc.state(gid)[1]
    actions = [a for a in game.legal_actions(state) if a.type != "declare_bankruptcy"]
    return random_command(rnd, actions).to_json()


def events_in_database_file(db: Path, into: Path) -> int:
    """Events stored in the database file alone (a copy without its log)."""
    into.mkdir()
    shutil.copy(db, into / db.name)
    conn = sqlite3.connect(into / db.name)
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        if "events" not in tables:  # even the schema is still in the log only
            return 0
        return int(conn.execute("SELECT count(*) FROM events").fetchone()[0])
    finally:
        conn.close()


def test_a_move_is_answered_while_the_checkpoint_still_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_mod, "CHECKPOINT_EVERY", 2)  # the game's start, then one move
    started, release = threading.Event(), threading.Event()
    real = Store.checkpoint

    def slow_checkpoint(self: Store) -> None:  # as on a slow SD card
        started.set()
        release.wait(30)
        real(self)

    monkeypatch.setattr(Store, "checkpoint", slow_checkpoint)
    with GameService(tmp_path) as svc:
        gid = svc.create_game(SETUP).game_id
        answered = threading.Event()
        outs = []
        threading.Thread(target=lambda: (outs.append(svc.submit(gid, {
            "actor": "mario", "type": "roll", "args": {"dice": [3, 1]}})), answered.set()),
            daemon=True).start()
        assert started.wait(10), "no checkpoint ran after the move"
        assert answered.wait(10), "the phone's answer waited for the checkpoint"
        out = outs[0]
        assert out.ok, out.error
        release.set()
        svc.call(lambda: None)  # the checkpoint finished before the next queued item
        assert svc.store.commits_since_checkpoint == 0
        assert svc.state(gid)[0] == out.version


def test_moves_reach_the_database_file_long_before_sqlites_own_threshold(
        tmp_path: Path) -> None:
    """Without the service's checkpoints, a few dozen moves stay in the log only (SQLite
    copies them at about 1,000 pages); with them, the database file alone holds them."""
    rnd = random.Random(7)
    with GameService(tmp_path) as svc:
        gid = svc.create_game(SETUP).game_id
        moves = 0
        while moves < store_mod.CHECKPOINT_EVERY + 5:
            out = svc.submit(gid, a_legal_move(svc, gid, rnd))
            assert out.ok, out.error
            moves += 1
        version = svc.state(gid)[0]
        stored = events_in_database_file(tmp_path / "companion.db", tmp_path / "copy")
        assert stored > version // 2, (stored, version)
        log_size = svc.store.wal_path.stat().st_size
        assert log_size <= wal_target(svc.store.conn)
    with GameService(tmp_path) as again:  # and nothing is lost by it
        assert again.state(gid)[0] == version
