"""A box that cannot start tries again, less and less often (a restart loop overnight must
not wear the SD card out nor flood the journal).

systemd restarts the service ``RestartSec`` (5 s) after a failure. Its growing delays
(``RestartSteps``) need systemd 254; Raspberry Pi OS Bookworm has 252, which ignores them and
restarts every 5 s for ever. So the companion waits itself before it exits from a failed
start: nothing after the first failure, then 5, 15, 35 ... up to 295 s more, the reason on
the OLED meanwhile. The count of failures in a row is kept in systemd's runtime directory
(RAM: ``RuntimeDirectory=companion``, kept across restarts by
``RuntimeDirectoryPreserve=restart``) and cleared once the page is served. Away from
systemd (no ``$RUNTIME_DIRECTORY``) a failed start exits at once."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from companion.platform.notify import Notifier

log = logging.getLogger(__name__)

COUNT_FILE = "failed-starts"
RESTART_SEC = 5.0
"""systemd's own pause (``RestartSec`` in systemd/companion.service)."""
LONGEST = 300.0
"""The longest time between two tries."""


def _count_file(environ: Mapping[str, str]) -> Path | None:
    runtime = environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    return Path(runtime) / COUNT_FILE if runtime else None


def pause_for(failures: int) -> float:
    """Seconds to wait before exiting after ``failures`` failed starts in a row (systemd's
    own 5 s come on top: 5, 10, 20, 40 ... 300 s between tries)."""
    return max(0.0, min(RESTART_SEC * 2.0 ** (failures - 1), LONGEST) - RESTART_SEC)


def run(start: Callable[[], int], environ: Mapping[str, str] | None = None,
        sleep: Callable[[float], None] = time.sleep) -> int:
    """``start()`` (which calls :func:`started` once it serves); if it fails before, count
    the failure and wait :func:`pause_for` before returning its exit code or raising."""
    env = os.environ if environ is None else environ
    path = _count_file(env)
    ok = False
    try:
        code = start()
        ok = code == 0
        return code
    except KeyboardInterrupt:
        ok = True
        raise
    finally:
        if not ok and path is not None and path.parent.is_dir():
            _pause(path, env, sleep)


def started(environ: Mapping[str, str] | None = None) -> None:
    """The page is served: the next failure is a first one again."""
    path = _count_file(os.environ if environ is None else environ)
    if path is not None:
        path.unlink(missing_ok=True)


def _pause(path: Path, environ: Mapping[str, str], sleep: Callable[[float], None]) -> None:
    try:
        failures = int(path.read_text() or 0) + 1
    except (OSError, ValueError):
        failures = 1
    try:
        path.write_text(str(failures))
    except OSError as exc:
        log.warning("cannot count failed starts in %s: %s", path, exc)
    wait = pause_for(failures)
    if wait <= 0:
        return
    log.warning("start failed %d times in a row: trying again in %d s", failures,
                wait + RESTART_SEC)
    notifier = Notifier.from_env(environ)  # systemd waits for the start longer meanwhile
    notifier.notify(EXTEND_TIMEOUT_USEC=int((wait + 30) * 1e6),
                    STATUS=f"Start failed {failures} times in a row; next try in "
                           f"{wait + RESTART_SEC:.0f} s")
    notifier.close()
    sleep(wait)
