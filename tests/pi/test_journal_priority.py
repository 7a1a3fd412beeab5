"""Log lines under systemd carry their priority: ``journalctl -p warning`` finds warnings."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import pytest

SNIPPET = """
import logging
from companion.app.cli import main
main(["editions"])  # sets up logging as every companion command does
log = logging.getLogger("companion.service.table")
log.warning("reader 'bank': not found")
try:
    1 / 0
except ZeroDivisionError:
    log.exception("showing the game failed")
"""


def run(journal: bool) -> list[str]:
    """The lines the snippet writes to its stderr, a pipe systemd's way when ``journal``."""
    read, write = os.pipe()
    st = os.fstat(write)
    env = {k: v for k, v in os.environ.items() if k != "JOURNAL_STREAM"}
    if journal:
        env["JOURNAL_STREAM"] = f"{st.st_dev}:{st.st_ino}"
    with os.fdopen(read) as out:
        proc = subprocess.Popen([sys.executable, "-c", SNIPPET], stderr=write, env=env,
                                stdout=subprocess.DEVNULL)
        os.close(write)
        text = out.read()
    assert proc.wait(timeout=60) == 0, text
    return text.splitlines()


def test_under_systemd_each_line_starts_with_its_syslog_priority() -> None:
    lines = run(journal=True)
    assert lines[0] == "<4>WARNING companion.service.table: reader 'bank': not found"
    assert lines[1] == "<3>ERROR companion.service.table: showing the game failed"
    # the traceback's lines are errors too, not "info" entries in the journal
    assert len(lines) > 2 and all(line.startswith("<3>") for line in lines[1:])
    assert lines[-1] == "<3>ZeroDivisionError: division by zero"


def test_at_a_terminal_the_lines_are_plain() -> None:
    lines = run(journal=False)
    assert lines[0] == "WARNING companion.service.table: reader 'bank': not found"
    assert not any(line.startswith("<") for line in lines)


def test_a_device_lost_and_back_is_logged_once_each_way(
        caplog: pytest.LogCaptureFixture) -> None:
    """A reader missing at start, found, unplugged, replugged: the journal of ``companion
    run`` has one line per change, a warning when it goes, a line when it is back."""
    from companion.app.runner import device_changed
    from companion.platform.log_lines import RUN_LEVEL
    from hardware.config import load_hardware_config
    from hardware.fake_reader import FakeReader
    from hardware.table import TableHardware

    now = [0.0]
    reader = FakeReader(clock=lambda: now[0])
    reader.fail_opens = 1
    shown: list[str] = []
    table = TableHardware(
        load_hardware_config({}), {"bank": reader}, None, None,  # type: ignore[arg-type]
        on_tap=lambda r, u: None,
        on_status=lambda part, ok, m: device_changed(shown.append, part, ok, m),
        clock=lambda: now[0])
    caplog.set_level(RUN_LEVEL)
    for t in (0.0, 1.0):
        now[0] = t
        table.poll_once()  # missing, then found
    reader.close()  # unplugged: the next read fails
    for t in (1.5, 2.5):
        now[0] = t
        table.poll_once()  # missing, then back
    lines = [(r.levelno, r.getMessage()) for r in caplog.records if "bank" in r.getMessage()]
    assert [level for level, _ in lines] == [
        logging.WARNING, logging.INFO, logging.WARNING, logging.INFO], lines
    assert len(shown) == 2  # the OLED says so each time it goes
