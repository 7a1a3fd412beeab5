"""Backups of the SQLite database: export while the service runs, rotate, verify, restore.

Copies go through SQLite's online backup API, so a copy is consistent even while the service is
writing (WAL and all), and a restore writes through SQLite too: no stale ``-wal`` file from the old
database can ever be replayed onto the restored one.
"""

from __future__ import annotations

import argparse
import os
import re
import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from companion.platform.config import state_dir_of

DB_NAME = "companion.db"
BACKUP_SUBDIR = "backups"
DEFAULT_KEEP = 10
_PREFIX = "companion-"
_STAMP = "%Y%m%dT%H%M%S.%fZ"
_NAME = re.compile(r"^companion-(\d{8}T\d{6}\.\d{6}Z)-([a-z0-9-]+)\.db$")


class BackupError(Exception):
    """A backup or restore that cannot go ahead; the message says why and what to do."""


def export_db(
    db_path: Path | str,
    backup_dir: Path | str,
    reason: str = "manual",
    keep: int = DEFAULT_KEEP,
    now: datetime | None = None,
) -> Path:
    """Copy the live database to ``backup_dir/companion-<UTC time>-<reason>.db``.

    Keeps the newest ``keep`` backups in the directory and deletes older ones (files not named
    like a backup are never touched). Returns the new file.
    """
    from companion.platform.statelock import StateDirBusy, StateLock

    db_path = Path(db_path)
    if not db_path.is_file():
        raise BackupError(f"No database at {db_path}: nothing to back up.")
    try:
        with StateLock(db_path.parent, "companion backup"), _open(db_path, "ro") as src:
            return backup_from(src, backup_dir, reason, keep, now)
    except StateDirBusy as exc:
        # the service holds the file alone (companion.store.database): SQLite could not copy it
        raise BackupError(
            f"{exc.holder} holds {db_path} to itself, so another program cannot copy it. It "
            "writes a backup by itself every time a game ends; for one now, stop it (on a "
            "Pi: sudo systemctl stop companion), back up, and start it again.") from exc
    except OSError as exc:
        raise BackupError(f"{db_path.parent} cannot be used ({exc}).") from exc


def backup_from(
    source: sqlite3.Connection,
    backup_dir: Path | str,
    reason: str = "manual",
    keep: int = DEFAULT_KEEP,
    now: datetime | None = None,
) -> Path:
    """:func:`export_db` through an open connection (the running service's own: it holds
    the file alone)."""
    backup_dir = Path(backup_dir)
    backup_dir.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.now(UTC)).astimezone(UTC).strftime(_STAMP)
    target = backup_dir / f"{_PREFIX}{stamp}-{_slug(reason)}.db"
    partial = target.with_name(target.name + ".partial")
    # what a backup killed mid-way left (backups never overlap: the state directory's lock)
    for stale in backup_dir.glob(f"{_PREFIX}*.db.partial*"):
        if _NAME.match(stale.name.split(".partial", 1)[0]):
            stale.unlink(missing_ok=True)
    try:
        with _open(partial) as dst:
            source.backup(dst)
            # One self-contained file: no -wal beside it to lose when copying it elsewhere.
            dst.execute("PRAGMA journal_mode=DELETE")
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, target)  # a half-written copy never looks like a backup
    prune(backup_dir, keep)
    return target


def list_backups(backup_dir: Path | str) -> list[Path]:
    """Backups in the directory, newest first."""
    folder = Path(backup_dir)
    if not folder.is_dir():
        return []
    found = [p for p in folder.iterdir() if p.is_file() and _NAME.match(p.name)]
    return sorted(found, key=lambda p: _NAME.match(p.name).group(1), reverse=True)  # type: ignore[union-attr]


def prune(backup_dir: Path | str, keep: int = DEFAULT_KEEP) -> list[Path]:
    """Delete all but the newest ``keep`` backups; returns the deleted files."""
    if keep < 1:
        raise ValueError("keep must be at least 1")
    old = list_backups(backup_dir)[keep:]
    for path in old:
        path.unlink()
    return old


def check_integrity(path: Path | str) -> None:
    """Raise BackupError unless ``PRAGMA integrity_check`` says ``ok``."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"{path} does not exist.")
    try:
        with _open(path, "ro") as conn:
            rows = [row[0] for row in conn.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a usable SQLite database ({exc}).") from exc
    if rows != ["ok"]:
        detail = "; ".join(str(r) for r in rows[:3])
        raise BackupError(f"{path} failed the integrity check ({detail}). Pick another backup.")


def restore_db(backup_file: Path | str, db_path: Path | str) -> Path | None:
    """Replace the database with a verified backup; refused while the service runs.

    The state directory's lock (companion.platform.statelock) is held throughout, so the service can
    neither be running (it would go on writing to the old database and lose or mix events)
    nor start half-way. The current database is first saved as ``<db>.before-restore``
    (returned; None if there was no database). A corrupt backup is refused before anything is
    changed.
    """
    from companion.platform.statelock import StateDirBusy, StateLock

    backup_file, db_path = Path(backup_file), Path(db_path)
    check_integrity(backup_file)
    try:
        with StateLock(db_path.parent, "companion restore"):
            return _restore_locked(backup_file, db_path)
    except StateDirBusy as exc:
        raise BackupError(f"the database is in use. {exc}") from exc
    except OSError as exc:
        raise BackupError(f"{db_path.parent} cannot be written ({exc}).") from exc


def _restore_locked(backup_file: Path, db_path: Path) -> Path | None:
    saved: Path | None = None
    if db_path.exists():
        saved = db_path.with_name(db_path.name + ".before-restore")
        saved.unlink(missing_ok=True)
        _copy(db_path, saved)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    with _open(backup_file, "ro") as src, _open(db_path) as dst:
        src.backup(dst)
    check_integrity(db_path)
    return saved


def register_cli(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion backup`` and ``companion restore FILE``; each sets ``func(args) -> int``."""
    state_help = "state directory (default: $COMPANION_STATE_DIR or ~/.local/state/companion)"
    backup = subparsers.add_parser("backup", help="export a consistent copy of the database")
    backup.add_argument("--state-dir", type=Path, default=None, help=state_help)
    backup.add_argument("--reason", default="manual", help="word added to the file name")
    backup.add_argument("--keep", type=int, default=DEFAULT_KEEP, help="backups to keep")
    backup.add_argument("--list", action="store_true", help="list backups instead")
    backup.set_defaults(func=cmd_backup)

    restore = subparsers.add_parser("restore", help="restore the database from a backup file")
    restore.add_argument("file", type=Path, help="backup file (see: companion backup --list)")
    restore.add_argument("--state-dir", type=Path, default=None, help=state_help)
    restore.set_defaults(func=cmd_restore)


def cmd_backup(args: argparse.Namespace) -> int:
    """``companion backup``: export (or list) backups and print where they are."""
    state = state_dir_of(args)
    folder = state / BACKUP_SUBDIR
    try:
        if args.list:
            for path in list_backups(folder):
                print(path)
            return 0
        path = export_db(state / DB_NAME, folder, args.reason, args.keep)
    except (BackupError, ValueError) as exc:
        print(f"companion backup: {exc}")
        return 1
    print(f"Backup written to {path}")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """``companion restore FILE``: verify then restore, keeping the old database."""
    db_path = state_dir_of(args) / DB_NAME
    try:
        saved = restore_db(args.file, db_path)
    except BackupError as exc:
        print(f"companion restore: refused: {exc}")
        return 1
    print(f"Restored {db_path} from {args.file}.")
    if saved:
        print(f"The previous database is kept as {saved}.")
    return 0


def _copy(source: Path, target: Path) -> None:
    with _open(source, "ro") as src, _open(target) as dst:
        src.backup(dst)
        # One self-contained file: no -wal beside it to lose when copying it elsewhere.
        dst.execute("PRAGMA journal_mode=DELETE")


def _open(path: Path, mode: str = "rwc") -> closing[sqlite3.Connection]:
    """A connection closed (not just committed) at the end of its ``with`` block."""
    uri = f"{path.absolute().as_uri()}?mode={mode}"
    return closing(sqlite3.connect(uri, uri=True, timeout=10))


def _slug(reason: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", reason.lower()).strip("-")
    return slug[:40] or "manual"
