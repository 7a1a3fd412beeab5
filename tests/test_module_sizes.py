"""Small modules (#28): the store and the rules interpreter are split along their sections
into modules a newcomer can read whole, each named for what it does."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("module", ["companion/store.py", "companion/engine/rules.py"])
def test_the_store_and_the_interpreter_are_read_whole(module: str) -> None:
    lines = (ROOT / module).read_text("utf-8").count("\n")
    assert lines <= 400, f"{module} has {lines} lines: split it along its sections"
