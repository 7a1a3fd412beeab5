"""Races, retries, power cuts and restarts against a real ``companion run`` over HTTP."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.powercut import run_powercut
from reliability.races import run_races, run_retries
from reliability.restart import run_restart

pytestmark = pytest.mark.long(3)


def test_four_phones_buying_one_location_make_one_sale(tmp_path: Path) -> None:
    r = run_races(tmp_path / "state", rounds=3, time_limit=float("inf"))
    assert r.figures["rounds"] == 3
    assert r.figures["double sales"] == 0
    assert r.figures["rounds with exactly one sale"] == 3, r.figures
    assert r.ok


def test_one_idempotency_key_is_applied_once(tmp_path: Path) -> None:
    r = run_retries(tmp_path / "state", rounds=2, copies=8,
                    time_limit=float("inf"))
    assert r.figures["rounds"] == 2
    assert r.figures["rounds not applied exactly once"] == 0, r.figures
    assert r.figures["answers differing from the first"] == 0, r.figures
    assert r.ok


def test_power_cuts_lose_no_acknowledged_command(tmp_path: Path) -> None:
    r = run_powercut(tmp_path, kills=4, time_limit=float("inf"))
    assert r.figures["kills"] == 4 and r.figures["acknowledged commands"] > 0
    assert r.figures["acknowledged events lost"] == 0, r.figures
    assert r.figures["acknowledged answers differing after restart"] == 0, r.figures
    assert r.figures["integrity_check not ok"] == 0
    assert r.figures["reopened state differs from a full replay"] == 0
    assert r.ok


def test_phones_see_the_same_state_after_a_restart_under_load(tmp_path: Path) -> None:
    r = run_restart(tmp_path, restarts=2, spectators=2)
    assert r.figures["restarts"] >= 1 and r.figures["commands acknowledged"] > 0
    assert r.figures["phones seeing different versions after a restart"] == 0, r.figures
    assert r.figures["acknowledged versions missing after restart"] == 0, r.figures
    assert r.figures["views compared with the same version before the cut"] > 0
    assert r.figures["views differing"] == 0, r.figures
    assert r.figures["resumed streams missing the next move"] == 0, r.figures
    assert r.ok
