"""Backups and restores with real SQLite files on disk."""

from __future__ import annotations

import argparse
import sqlite3
import threading
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.platform import backup
from companion.platform.backup import BackupError, export_db, list_backups, restore_db


def _make_db(path: Path, rows: int = 3) -> None:
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, type TEXT)")
        conn.executemany("INSERT INTO events (type) VALUES (?)", [("RentPaid",)] * rows)
        conn.commit()


def _count(path: Path) -> int:
    with closing(sqlite3.connect(path)) as conn:
        return int(conn.execute("SELECT count(*) FROM events").fetchone()[0])


def test_export_copies_the_games_into_a_named_file(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    _make_db(db, rows=5)
    when = datetime(2026, 11, 29, 11, 23, 6, tzinfo=UTC)
    path = export_db(db, tmp_path / "backups", "Before update!", now=when)
    assert path.name == "companion-20261129T112306.000000Z-before-update.db"
    assert _count(path) == 5
    assert not list((tmp_path / "backups").glob("*-wal")), "a backup must be one file"


def test_export_while_the_service_holds_uncheckpointed_writes(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    _make_db(db, rows=1)
    with closing(sqlite3.connect(db)) as live:
        live.execute("PRAGMA wal_autocheckpoint=0")  # the new rows stay in the -wal file
        live.executemany("INSERT INTO events (type) VALUES (?)", [("DiceRolled",)] * 50)
        live.commit()
        assert Path(f"{db}-wal").stat().st_size > 0
        path = export_db(db, tmp_path / "backups")
    assert _count(path) == 51


def test_export_during_concurrent_writes_is_consistent(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    _make_db(db, rows=0)
    stop = threading.Event()

    def writer() -> None:
        with closing(sqlite3.connect(db, timeout=10)) as conn:
            while not stop.is_set():
                with conn:  # two rows per transaction: a torn copy would hold an odd count
                    conn.executemany("INSERT INTO events (type) VALUES (?)", [("A",), ("B",)])

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        copies = [export_db(db, tmp_path / "backups", keep=50) for _ in range(5)]
    finally:
        stop.set()
        thread.join()
    for copy in copies:
        backup.check_integrity(copy)
        assert _count(copy) % 2 == 0


def test_rotation_keeps_the_newest_and_ignores_other_files(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    _make_db(db)
    folder = tmp_path / "backups"
    folder.mkdir()
    notes = folder / "notes.txt"
    notes.write_text("keep me")
    start = datetime(2026, 1, 1, tzinfo=UTC)
    made = [export_db(db, folder, keep=3, now=start + timedelta(hours=h)) for h in range(5)]
    assert list_backups(folder) == [made[4], made[3], made[2]]
    assert not made[0].exists()
    assert notes.exists()


def test_missing_database_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="No database"):
        export_db(tmp_path / "companion.db", tmp_path / "backups")
    assert not (tmp_path / "companion.db").exists(), "exporting must not create an empty database"


def test_restore_brings_back_the_backup_and_keeps_the_replaced_file(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    _make_db(db, rows=2)
    saved_copy = export_db(db, tmp_path / "backups")
    with closing(sqlite3.connect(db)) as conn:
        conn.executemany("INSERT INTO events (type) VALUES (?)", [("Mistake",)] * 7)
        conn.commit()
    before = restore_db(saved_copy, db)
    assert _count(db) == 2
    assert before == tmp_path / "companion.db.before-restore"
    assert _count(before) == 9


def test_restore_onto_a_fresh_state_directory(tmp_path: Path) -> None:
    src = tmp_path / "old.db"
    _make_db(src, rows=4)
    target = tmp_path / "new-pi" / "companion.db"
    assert restore_db(src, target) is None
    assert _count(target) == 4


def test_corrupt_backup_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    db = tmp_path / "companion.db"
    _make_db(db, rows=3)
    good = export_db(db, tmp_path / "backups")
    bad = tmp_path / "bad.db"
    data = bytearray(good.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # smash the table's page
    bad.write_bytes(bytes(data))
    with pytest.raises(BackupError, match="integrity check|not a usable"):
        restore_db(bad, db)
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(BackupError, match="not a usable"):
        restore_db(garbage, db)
    assert _count(db) == 3
    assert not (tmp_path / "companion.db.before-restore").exists()


def _cli(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="companion")
    backup.register_cli(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(argv)


def test_cli_backup_and_restore_use_the_state_dir_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path))
    _make_db(tmp_path / "companion.db", rows=6)
    args = _cli("backup", "--reason", "nightly")
    assert args.func(args) == 0
    [made] = list_backups(tmp_path / "backups")
    assert str(made) in capsys.readouterr().out

    args = _cli("restore", str(made))
    assert args.func(args) == 0
    assert "before-restore" in capsys.readouterr().out

    args = _cli("restore", str(tmp_path / "nope.db"))
    assert args.func(args) == 1
    assert "refused" in capsys.readouterr().out


def test_a_backup_removes_the_partial_copies_of_killed_backups(tmp_path: Path) -> None:
    """A ``companion backup`` killed mid-way leaves its ``.partial`` (30 MB on a real evening's
    database); the next backup removes it (issue 38 item 8). Nothing else is touched."""
    db = tmp_path / "companion.db"
    _make_db(db)
    folder = tmp_path / "backups"
    folder.mkdir()
    killed = folder / "companion-20261129T112306.000000Z-manual.db.partial"
    killed.write_bytes(b"SQLite format 3\x00" + bytes(1 << 20))
    journal = folder / (killed.name + "-journal")
    journal.write_bytes(b"half")
    mine = folder / "notes.db.partial"
    mine.write_text("not a backup's")
    path = export_db(db, folder)
    assert not killed.exists() and not journal.exists()
    assert mine.exists() and _count(path) == 3
    assert sorted(p.name for p in folder.iterdir()) == sorted([path.name, mine.name])
