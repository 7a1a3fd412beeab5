"""Slow connections, unbounded input and guessing against a real ``companion run`` (counts
only: the figures the scenarios print are not judged here)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from reliability.guard import run_bounds, run_lockout, run_slow  # noqa: E402


def test_slow_and_idle_connections_and_many_streams_leave_the_page_answering(
        tmp_path: Path) -> None:
    r = run_slow(tmp_path, idle=60, slow=60, spectators=80, per_address=20)
    assert r.figures["moves answered while held"] == "20 of 20", r.figures
    assert r.figures["spectator streams open"] == "80 of 80", r.figures
    assert r.ok, r.figures


def test_unbounded_inputs_are_refused_with_a_4xx(tmp_path: Path) -> None:
    r = run_bounds(tmp_path)
    assert r.figures["view afterwards"] == 200
    assert r.ok, r.figures


def test_locks_hold_against_many_addresses(tmp_path: Path) -> None:
    r = run_lockout(tmp_path, addresses=10)
    assert r.figures["right PIN from a new address during the flood"] == 429, r.figures
    assert r.figures["join codes guessed before the lock"] <= 10
    assert r.ok, r.figures
