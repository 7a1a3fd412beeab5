"""The files under a running store: noticing one deleted or replaced (Linux keeps writing to
a deleted file, which nobody would ever open again) and rescuing every committed page the
open connection still reads into a new database."""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from pathlib import Path
from typing import Protocol

from companion.store.errors import StoreError

log = logging.getLogger("companion.store.database")


def _sync_dir(folder: Path) -> None:
    """fsync a directory: a file just renamed into it is there after a power cut."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class OpenFiles:
    """The database file at ``path`` and its log ``wal`` as this process opened them
    ((device, inode) each)."""

    def __init__(self, path: Path, wal: Path) -> None:
        self.path, self.wal = path, wal
        self.known = self._identities()

    def _identities(self) -> dict[Path, tuple[int, int]]:
        out = {}
        for item in (self.path, self.wal):
            try:
                st = item.stat()
            except OSError:
                continue
            out[item] = (st.st_dev, st.st_ino)
        return out

    def refresh(self) -> None:
        """Take the files now in place as ours (after a rescue put a copy there)."""
        self.known = self._identities()

    def moved(self) -> str:
        """What happened to the files ("" if nothing): deleted or replaced under the
        running service. One ``stat`` per file: microseconds."""
        if self.wal not in self.known and self.wal.exists():
            self.known = {**self.known, **self._identities()}  # the log's first write
        for item, (dev, ino) in self.known.items():
            try:
                st = item.stat()
            except FileNotFoundError:
                return f"{item} was deleted"
            except OSError:
                continue  # an unreadable directory is a different problem (the write says)
            if (st.st_dev, st.st_ino) != (dev, ino):
                return f"{item} was replaced by another file"
        return ""

    def ours_or_absent(self, item: Path) -> bool:
        try:
            st = item.stat()
        except FileNotFoundError:
            return True
        return self.known.get(item) == (st.st_dev, st.st_ino)


class Rescuable(Protocol):
    """What :func:`rescue` needs of a store (:class:`companion.store.database.Store`)."""

    path: Path
    conn: sqlite3.Connection
    lost: str | None
    files: OpenFiles

    @property
    def wal_path(self) -> Path: ...

    def connect(self) -> sqlite3.Connection: ...


def rescue(store: Rescuable, what: str) -> str:
    """Copy every committed page this connection still reads (a deleted file stays
    readable while it is open) into a new database; the message for the journal, the
    page and the OLED. When the database's place holds nothing else now (no file, or
    still this one), the copy takes it and this store goes on with it. Otherwise the
    copy goes beside it and every write is refused until a restart (``lost``): the file
    now in its place is someone's choice."""
    folder = store.path.parent
    shm = store.path.with_name(store.path.name + "-shm")
    in_place = all(store.files.ours_or_absent(item) for item in (store.path, store.wal_path))
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    target = store.path if in_place else folder / f"{store.path.name}.rescued-{stamp}"
    partial = target.with_name(target.name + ".partial")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial.unlink(missing_ok=True)
        copy = sqlite3.connect(partial)
        try:
            store.conn.backup(copy)
        finally:
            copy.close()
        if in_place:
            store.conn.close()  # SQLite deletes its log by name only if the file is ours
            for item in (store.wal_path, shm):
                if store.files.ours_or_absent(item):
                    item.unlink(missing_ok=True)
        os.replace(partial, target)
        _sync_dir(folder)
        if in_place:
            store.conn = store.connect()
            store.files.refresh()
    except (OSError, sqlite3.Error, StoreError) as exc:
        store.lost = (f"The database file {what} while the companion ran, and what it "
                      f"held could not be saved in {target} ({exc}). Nothing more is "
                      "saved. Do not switch the companion off: free the disk or fix the "
                      f"folder (anything saved so far may be in {partial}), then "
                      "restart it.")
        log.error("%s", store.lost)
        return store.lost
    if not in_place:
        store.lost = (f"The database file {what} while the companion ran. Every game it "
                      f"held is saved in {target}; the file now at {store.path} was left "
                      "alone. Nothing more is saved until a restart: stop the companion, "
                      f"put the file you want at {store.path} (the rescued one, or "
                      "`companion restore` a backup), and start it again.")
        log.error("%s", store.lost)
        return store.lost
    text = (f"The database file {what} while the companion ran. Every game it held is "
            f"saved again in {target} and play goes on. The last move was not saved: "
            "make it again.")
    log.error("%s", text)
    return text
