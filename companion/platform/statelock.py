"""One writer per state directory: an advisory lock (``flock``) on ``companion.lock``.

The running service holds it for as long as it runs; ``companion restore`` and
``companion import`` need it too, so they are refused while the service runs instead of
writing under it. The kernel drops the lock when its process dies (even by SIGKILL), so a
crash never leaves a stale lock behind. Within one process the lock is shared: several
services in one test, or the CLI's own service, never lock each other out.
"""

from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path

LOCK_NAME = "companion.lock"

_mutex = threading.Lock()
_held: dict[Path, tuple[int, int]] = {}
"""Lock file path -> (open descriptor, users in this process)."""


class StateDirBusy(RuntimeError):
    """Another process (the running service, a restore) holds the state directory."""

    def __init__(self, state_dir: Path, holder: str) -> None:
        self.state_dir = state_dir
        self.holder = holder
        super().__init__(
            f"{holder} is using {state_dir} (it holds {LOCK_NAME}). Stop it first "
            "(on a Pi: sudo systemctl stop companion), then try again, and start it afterwards."
        )


class StateLock:
    """The state directory's writer lock; ``acquire`` raises StateDirBusy if it is taken."""

    def __init__(self, state_dir: Path, purpose: str = "companion run") -> None:
        self.path = (Path(state_dir) / LOCK_NAME).absolute()
        self.purpose = purpose
        self.held = False

    def acquire(self) -> StateLock:
        """Take the lock now (never waits). OSError if the directory cannot be written."""
        with _mutex:
            if self.held:
                return self
            if self.path in _held:
                fd, users = _held[self.path]
                _held[self.path] = (fd, users + 1)
                self.held = True
                return self
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _read_holder(fd)
                os.close(fd)
                raise StateDirBusy(self.path.parent, holder) from None
            except OSError:
                os.close(fd)
                raise
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()} {self.purpose}\n".encode(), 0)
            _held[self.path] = (fd, 1)
            self.held = True
            return self

    def release(self) -> None:
        with _mutex:
            if not self.held:
                return
            self.held = False
            fd, users = _held[self.path]
            if users > 1:
                _held[self.path] = (fd, users - 1)
                return
            del _held[self.path]
            os.close(fd)  # closing the last descriptor drops the flock

    def __enter__(self) -> StateLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read_holder(fd: int) -> str:
    """``"companion run (process 1234)"`` from the lock file, or a plain description."""
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    pid, _, purpose = text.partition(" ")
    if pid.isdigit():
        return f"{purpose or 'another companion'} (process {pid})"
    return "another companion process"
