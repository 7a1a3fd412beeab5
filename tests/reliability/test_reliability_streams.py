"""Fifty SSE clients with forced disconnects, and the server's memory after a long game.

Nothing here depends on speed: a run takes as long as the machine needs (the commands per
second are a figure of ``scripts/reliability --only memory``, not a check)."""

from __future__ import annotations

from pathlib import Path

from reliability.memory import TARGET_MB, run_memory
from reliability.soak import run_soak


def test_fifty_streams_with_drops_and_resumes_miss_nothing(tmp_path: Path) -> None:
    r = run_soak(tmp_path, clients=50, seconds=8, rate=5, drop=(0.5, 3.0))
    assert r.figures["commands acknowledged"] > 0
    assert r.figures["forced disconnects and resumes"] >= 50
    assert r.figures["missed events"] == 0, r.figures
    assert r.figures["other errors"] == 0, r.figures
    assert r.figures["server RSS end (MB)"] > 0


def test_memory_after_a_long_game_with_eight_phones_is_under_target(tmp_path: Path) -> None:
    r = run_memory(tmp_path, commands=300, phones=8, time_limit=float("inf"))
    assert r.figures["commands acknowledged"] >= 300
    assert r.figures["phones caught up at the end"] == 8
    assert r.figures["RSS peak sampled (MB)"] < TARGET_MB, r.figures
