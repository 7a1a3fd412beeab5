"""Issue 38's attacks against a real ``companion run``, bounded (counts only: the figures
the scenarios print are not judged here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from reliability.guests import (  # noqa: E402
    run_approve_cut,
    run_code_flood,
    run_half_close,
    run_seat_flood,
    run_short_pin,
    run_slow_bodies,
)

pytestmark = pytest.mark.long(3)


def test_slow_bodies_leave_a_new_phone_the_seated_phone_and_the_banker_answered(
        tmp_path: Path) -> None:
    r = run_slow_bodies(tmp_path, seconds=3, addresses=20, per_address=48)
    assert r.ok, r.figures


def test_a_half_closed_command_is_answered_and_a_cut_one_is_not_executed(
        tmp_path: Path) -> None:
    r = run_half_close(tmp_path, rounds=3)
    assert r.figures["body cut short: executed"] == 0
    assert r.ok, r.figures


def test_wrong_codes_never_keep_the_right_code_or_seat_key_out(tmp_path: Path) -> None:
    r = run_code_flood(tmp_path, seconds=8)
    assert r.ok, r.figures


def test_one_machine_cannot_fill_the_seat_requests(tmp_path: Path) -> None:
    r = run_seat_flood(tmp_path)
    assert r.ok, r.figures


def test_a_seat_approved_before_a_power_cut_is_kept(tmp_path: Path) -> None:
    r = run_approve_cut(tmp_path, rounds=1)
    assert r.ok, r.figures


def test_a_short_pin_is_refused_before_the_companion_starts(tmp_path: Path) -> None:
    r = run_short_pin(tmp_path)
    assert r.ok, r.figures
