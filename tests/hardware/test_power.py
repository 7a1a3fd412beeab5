"""Undervoltage is reported (issue 42, item 9): the Pi's throttled flags, read from the
firmware's sysfs file or ``vcgencmd get_throttled``, go to the journal, the page's device list
and the OLED once per change."""

from __future__ import annotations

import logging
import subprocess
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from companion.engine.i18n import Msg
from hardware import power, screens
from hardware.table import TableHardware


def test_the_flags_come_from_sysfs_else_from_vcgencmd(tmp_path: Path) -> None:
    sysfs = tmp_path / "get_throttled"
    sysfs.write_text("50005\n")
    assert power.read_throttled(sysfs) == 0x50005
    calls: list[Any] = []

    def vcgencmd(args: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
        calls.append(args)
        return subprocess.CompletedProcess(args, 0, "throttled=0x50000\n", "")

    missing = tmp_path / "absent"
    assert power.read_throttled(missing, run=vcgencmd, which=lambda n: "/usr/bin/" + n) \
        == 0x50000
    assert calls == [["/usr/bin/vcgencmd", "get_throttled"]]
    assert power.read_throttled(missing, run=vcgencmd, which=lambda n: None) is None  # no Pi


def test_undervoltage_is_said_once_per_change(caplog: pytest.LogCaptureFixture) -> None:
    now, flags, told = [0.0], [0x0], []
    table = TableHardware.from_config(
        {"readers": [{"role": "bank"}], "display": {"kind": "dummy", "language": "es"}},
        lambda r, u: None, lambda a, x: None, simulate=True, clock=lambda: now[0],
        on_status=lambda part, ok, m: told.append((part, ok)), throttled=lambda: flags[0])

    def run(seconds: float) -> None:
        end = now[0] + seconds
        while now[0] < end:
            now[0] += 0.05
            table.tick()

    caplog.set_level(logging.INFO, logger="hardware")
    try:
        run(3.0)
        assert table.status()["power supply"]["working"] is True
        flags[0] = 0x50005  # under-voltage now (and since boot), throttled
        run(30.0)
        state = table.status()["power supply"]
        assert state["working"] is False and state["undervoltage"] == "now"
        words = Msg("Under-voltage: power supply or cable too weak. Use 5 V 3 A (Pi 5: 5 A).")
        assert state["message"] == words
        image = Image.new("1", (screens.WIDTH, screens.HEIGHT))
        screens.draw_error(ImageDraw.Draw(image), words, lang="es")
        assert table.display.frame().tobytes() == image.tobytes()  # the table is told
        screens.draw_error(ImageDraw.Draw(image), words, lang="en")
        assert table.display.frame().tobytes() != image.tobytes()  # in its language
        flags[0] = 0x50000  # normal again; it happened since boot
        run(30.0)
        state = table.status()["power supply"]
        assert state["working"] is True and state["undervoltage"] == "earlier"
    finally:
        table.stop()
    said = [r for r in caplog.records if "under-voltage" in r.getMessage().lower()]
    assert [r.levelno for r in said] == [logging.WARNING, logging.INFO]
    assert [ok for part, ok in told if part == "power supply"] == [True, False, True]
