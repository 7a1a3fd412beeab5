"""Why the event log cannot be used: the store's errors, each with the words for the OLED,
and the check of whether the state directory can be written at all."""

from __future__ import annotations

import getpass
import os
from pathlib import Path

from companion.engine.i18n import Msg


class StoreError(RuntimeError):
    """The database cannot be used (corrupt, unreadable, full disk).

    ``kind`` is ``damaged`` (the file is not a sound database), ``read_only`` (the state
    directory or the file cannot be written: permissions or a read-only SD card; the games
    are fine) or ``busy`` (another process holds the state directory); ``screen`` is the
    short message for the OLED (one page of it in every language)."""

    def __init__(self, message: str, kind: str = "damaged", screen: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.screen = screen or {
            "damaged": Msg("Database damaged: restore a backup (see the journal)."),
            "read_only": Msg("Cannot save: the state folder is read-only (see the journal)."),
            "busy": Msg("Another companion program is using the games (see the journal)."),
        }.get(kind, message)


class StoreLost(StoreError):
    """The database file was deleted or replaced while the service ran: a commit would go to
    a file nobody will ever open again. Raised instead of committing (nothing of that write
    is kept); the message says where what the process held was rescued to."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "lost",
                         Msg("Database file deleted: games rescued, see the journal."))


def writable_problem(path: Path) -> str | None:
    """Why the database at ``path`` cannot be written, or None if nothing stops it."""
    folder = path.parent
    who = _user()
    if not os.access(folder, os.W_OK | os.X_OK):
        return (f"The state directory {folder} is read-only for user {who} (permissions, or "
                "a read-only file system): the companion cannot save games there. The games "
                f"in it are not damaged. Make it writable (on a Pi: sudo chown -R companion: "
                f"{folder}), or check the SD card, then start again.")
    for name in (path.name, path.name + "-wal", path.name + "-shm"):
        item = folder / name
        if item.exists() and not os.access(item, os.R_OK | os.W_OK):
            return (f"{item} cannot be written by user {who}: the companion cannot save "
                    "games. The file is not damaged. Fix its owner or permissions (on a Pi: "
                    f"sudo chown -R companion: {folder}), then start again.")
    return None


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return str(os.getuid())
