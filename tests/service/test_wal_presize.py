"""The write-ahead log is grown once at start (Store.presize_wal) and stores nothing."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.service import GameService
from companion.store import Store
from companion.store_wal import PRESIZE_STEP, wal_target

SETUP = {"edition": "mario", "players": ["Mario", "Дмитрий"], "dice": "physical", "seed": 5,
         "settings": {"order": "seated"}}


def tables(db: Path) -> set[str]:
    conn = sqlite3.connect(db)
    try:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        conn.close()


def test_a_started_service_has_its_log_grown_and_no_trace_of_it(tmp_path: Path) -> None:
    with GameService(tmp_path) as svc:
        store = svc.store
        assert store.wal_path.stat().st_size >= wal_target(store.conn) > 1_000_000
        pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
        out = svc.create_game(SETUP)
        assert out.ok, out.error
        roll = svc.submit(out.game_id, {"actor": "mario", "type": "roll",
                                        "args": {"dice": [3, 1]}})
        assert roll.ok, roll.error
        # the database file did not take the zeros: it grew by the game's few pages only
        assert store.conn.execute("PRAGMA page_count").fetchone()[0] < pages + 40
    assert "wal_presize" not in tables(tmp_path / "companion.db")
    with GameService(tmp_path) as again:
        assert again.state(out.game_id)[0] == roll.version


def test_a_power_cut_while_the_log_grows_keeps_every_game_and_no_zeros(tmp_path: Path) -> None:
    """The grow is an uncommitted transaction: a copy of the files taken in the middle of it
    (as a power cut would leave them) opens with every committed game and without the
    throwaway table."""
    with GameService(tmp_path) as svc:
        gid = svc.create_game(SETUP).game_id
        assert svc.submit(gid, {"actor": "mario", "type": "roll",
                                "args": {"dice": [2, 2]}}).ok
        version = svc.state(gid)[0]
        conn = svc.store.conn

        def grow_and_cut() -> None:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("CREATE TABLE wal_presize (zeros BLOB)")
            for _ in range(4):
                conn.execute("INSERT INTO wal_presize VALUES (zeroblob(?))", (PRESIZE_STEP,))
            cut = tmp_path / "cut"
            cut.mkdir()
            for name in ("companion.db", "companion.db-wal"):
                shutil.copy(tmp_path / name, cut / name)
            conn.execute("ROLLBACK")

        svc.call(grow_and_cut)
    cut = tmp_path / "cut"
    assert (cut / "companion.db-wal").stat().st_size > 2 * PRESIZE_STEP  # zeros reached it
    store = Store(cut / "companion.db")
    try:
        assert store.integrity() == "ok"
        assert max(r.seq for r in store.rows(gid)) == version
    finally:
        store.close()
    assert "wal_presize" not in tables(cut / "companion.db")


def test_a_log_already_long_enough_is_left_as_it_is(tmp_path: Path) -> None:
    store = Store(tmp_path / "companion.db")
    try:
        size = store.presize_wal()
        assert size >= wal_target(store.conn)
        assert store.presize_wal() == size
    finally:
        store.close()


def test_a_database_reopened_without_its_log_gets_it_grown_again(tmp_path: Path) -> None:
    """A clean stop removes the log; the next start grows it again, and the games are kept."""
    with GameService(tmp_path) as svc:
        gid = svc.create_game(SETUP).game_id
    assert not (tmp_path / "companion.db-wal").exists()
    with GameService(tmp_path) as again:
        assert again.store.wal_path.stat().st_size >= wal_target(again.store.conn)
        assert again.state(gid)[0] >= 1


def test_a_nearly_full_card_keeps_its_space_for_the_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With little free space the log is not grown (it would take the last megabytes a full
    SD card has); the games are saved as before."""
    import os

    real = os.statvfs

    def nearly_full(path: object) -> os.statvfs_result:
        st = real(path)  # type: ignore[arg-type]
        fields = list(st)
        fields[4] = 2_000_000 // st.f_frsize  # f_bavail: about 2 MB left
        return os.statvfs_result(fields)

    monkeypatch.setattr(os, "statvfs", nearly_full)
    with GameService(tmp_path) as svc:
        assert svc.store.wal_path.stat().st_size < wal_target(svc.store.conn) // 4
        gid = svc.create_game(SETUP).game_id
        assert svc.submit(gid, {"actor": "mario", "type": "roll",
                                "args": {"dice": [1, 2]}}).ok
