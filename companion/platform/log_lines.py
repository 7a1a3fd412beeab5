"""Log lines for a terminal or for systemd's journal.

Under systemd (``JOURNAL_STREAM`` names the very stream the lines go to) every line starts
with its syslog priority, ``<4>`` for a warning, ``<3>`` for an error, which journald reads
(``SyslogLevelPrefix=`` is on by default), so ``journalctl -u companion -p warning`` shows
warnings and errors only. Elsewhere the lines are plain.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from typing import IO

FORMAT = "%(levelname)s %(name)s: %(message)s"
RUN_LEVEL = logging.INFO
"""What ``companion run`` logs: what the service does (a device lost and back, the page's
address, backups), warnings and errors; ``journalctl -p warning`` keeps the last two."""


def priority(levelno: int) -> int:
    """The syslog priority of a Python log level (debug 7 ... critical 2)."""
    if levelno >= logging.CRITICAL:
        return 2
    if levelno >= logging.ERROR:
        return 3
    if levelno >= logging.WARNING:
        return 4
    if levelno >= logging.INFO:
        return 6
    return 7


class JournalFormatter(logging.Formatter):
    """Each line of a record (a traceback's too) prefixed with the record's priority."""

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines())


def to_journal(stream: IO[str], environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``stream`` is the journal's stream that systemd handed this process."""
    expected = (os.environ if environ is None else environ).get("JOURNAL_STREAM", "")
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return expected == f"{st.st_dev}:{st.st_ino}"


def configure(level: int, fmt: str = FORMAT, stream: IO[str] | None = None) -> None:
    """Send log lines at ``level`` and above to ``stream`` (stderr), journal-aware."""
    out = stream or sys.stderr
    handler = logging.StreamHandler(out)
    handler.setFormatter(JournalFormatter(fmt) if to_journal(out) else logging.Formatter(fmt))
    logging.basicConfig(level=level, handlers=[handler])
