"""The Pi's wall clock jumps (it has no real-time clock; NTP sets it late, at the table):
a real ``companion run`` under Debian's libfaketime, its wall clock moved back 2 minutes,
on 3 days, back 90 days and on 200 days while the monotonic clock runs on, as NTP does.
After each jump the banker is still the banker, the phone keeps its seat and its view, a
move goes through and the join code still lets a new phone in."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from reliability.attacks import faketime_missing, run_clock_jumps  # noqa: E402


def test_sessions_and_join_codes_survive_wall_clock_jumps(tmp_path: Path) -> None:
    why = faketime_missing()
    if why:
        pytest.skip(why)
    r = run_clock_jumps(tmp_path)
    assert r.ok, r.lines()
    assert len(r.figures) == 4
