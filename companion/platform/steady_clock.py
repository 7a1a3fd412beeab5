"""Time that the wall clock's jumps do not move, for logins, cookies and join codes.

A Raspberry Pi has no real-time clock: it boots with the time it last saved (or 1970) and
jumps, by minutes or months, when NTP reaches a time server, often in the middle of a game
night. Anything that expires by the wall clock would then expire at once (a jump forward) or
be judged "from the future" (a jump back). :class:`SteadyClock` reads the wall clock once per
boot, at the companion's first start, and carries it on with the monotonic clock (the
kernel's, counted from boot, so a restart of the companion keeps the same line). Its seconds
look like Unix time, but no jump after that first start moves them. Across a reboot the wall
clock is read again: a stamp from the last boot that lies in the future counts as now.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

SETTING = "clock.boot"
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")


def boot_id() -> str:
    """This boot's id (Linux), or "" where there is none (then the line is per process)."""
    try:
        return BOOT_ID.read_text().strip()
    except OSError:
        return ""


class SteadyClock:
    """``clock()``: seconds on this boot's steady line (see the module docstring). The offset
    from the monotonic clock is kept in the settings table, so every start in one boot
    shares it."""

    def __init__(self, service: Any = None) -> None:
        boot = boot_id()
        kept: dict[str, Any] = {}
        if service is not None and boot:
            raw = service.setting(SETTING)
            try:
                kept = json.loads(raw) if raw else {}
            except ValueError:
                kept = {}
        if isinstance(kept, dict) and kept.get("boot") == boot and isinstance(
                kept.get("offset"), (int, float)):
            self.offset = float(kept["offset"])
        else:
            self.offset = time.time() - time.monotonic()
            if service is not None and boot:
                try:
                    service.set_setting(SETTING, json.dumps({"boot": boot,
                                                             "offset": self.offset}))
                except sqlite3.Error:  # a full disk: this process keeps its own line
                    pass

    def __call__(self) -> float:
        return time.monotonic() + self.offset
