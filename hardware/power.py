"""The Pi's power supply: undervoltage from the firmware's throttled flags.

The flags come from ``/sys/devices/platform/soc/soc:firmware/get_throttled`` (hex; readable
under the service's hardening), else from ``vcgencmd get_throttled`` (``throttled=0x50005``).
Bit 0 is under-voltage now, bit 16 under-voltage since boot; bits 1-2 and 17-18 are the
frequency cap and throttling it causes. :class:`PowerWatch` reads them every ``CHECK_S`` and
reports a change once: ``report(working, message, undervoltage)``.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.engine.i18n import Msg

log = logging.getLogger("hardware.power")

SYSFS = Path("/sys/devices/platform/soc/soc:firmware/get_throttled")
CHECK_S = 2.0
"""Seconds between two reads of the flags (the firmware updates them every 2 s)."""
UNDERVOLTAGE_NOW, UNDERVOLTAGE_SINCE_BOOT = 1 << 0, 1 << 16

Reader = Callable[[], "int | None"]
Report = Callable[[bool, str, str], None]


def read_throttled(sysfs: Path = SYSFS, run: Callable[..., Any] = subprocess.run,
                   which: Callable[[str], str | None] = shutil.which) -> int | None:
    """The throttled flags, or None where there are none to read (not a Pi)."""
    try:
        return int(sysfs.read_text("ascii").strip(), 16)
    except (OSError, ValueError):
        pass
    tool = which("vcgencmd")
    if tool is None:
        return None
    try:
        out = run([tool, "get_throttled"], capture_output=True, text=True, timeout=5).stdout
        return int(str(out).strip().rpartition("=")[2], 16)
    except (OSError, ValueError, subprocess.SubprocessError):
        return None


def undervoltage(flags: int) -> str:
    """"now", "earlier" (since boot, not now) or "" (never since boot)."""
    if flags & UNDERVOLTAGE_NOW:
        return "now"
    return "earlier" if flags & UNDERVOLTAGE_SINCE_BOOT else ""


WORDS = {
    "now": Msg("Under-voltage: power supply or cable too weak. Use 5 V 3 A (Pi 5: 5 A)."),
    "earlier": Msg("Under-voltage since boot: check the power supply and its cable."),
    "": Msg("power supply fine"),
}


class PowerWatch:
    """Reads the flags now and then; says each change of the undervoltage state once."""

    def __init__(self, read: Reader, report: Report) -> None:
        self._read, self._report = read, report
        self._next = 0.0
        self.state: str | None = None  # None: not read yet (or nothing to read)
        self.flags: int | None = None

    def tick(self, now: float) -> None:
        if now < self._next:
            return
        self._next = now + CHECK_S
        flags = self._read()
        if flags is None:
            return
        self.flags = flags
        state = undervoltage(flags)
        if state == self.state:
            return
        self.state = state
        if state == "now":
            log.warning("power supply: under-voltage now (throttled=0x%x): %s", flags,
                        WORDS[state])
        elif state == "earlier":
            log.info("power supply: under-voltage over, it happened since boot "
                     "(throttled=0x%x)", flags)
        else:
            log.info("power supply: fine (throttled=0x%x)", flags)
        self._report(state != "now", WORDS[state], state)

    def status(self) -> dict[str, Any]:
        """As the table's ``status()`` gives a device, with the state and the flags."""
        return {"working": self.state != "now", "message": WORDS[self.state or ""],
                "undervoltage": self.state, "flags": f"0x{self.flags or 0:x}"}
