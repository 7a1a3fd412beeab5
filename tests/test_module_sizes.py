"""Small modules (#28): every production module is one a newcomer can read whole, split
along its sections into modules each named for what it does."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "web", "hardware")
LIMIT = 500
"""Lines a production module may have."""
EXCEPTIONS: dict[str, int] = {
    # module: its lines today (it may shrink, never grow); split it, then drop it from here
}
READ_WHOLE = {"companion/store/database.py": 400, "companion/engine/rules.py": 400}
"""Modules held below the limit: the store and the rules interpreter."""


def _lines(module: str) -> int:
    return (ROOT / module).read_text("utf-8").count("\n")


def test_no_production_module_is_over_the_limit() -> None:
    over = {
        str(path.relative_to(ROOT)): lines
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if (lines := _lines(str(path.relative_to(ROOT)))) > LIMIT
    }
    grown = {m: n for m, n in over.items() if n > EXCEPTIONS.get(m, LIMIT)}
    assert grown == {}, f"split these modules along their sections (limit {LIMIT} lines)"
    stale = sorted(m for m in EXCEPTIONS if m not in over)
    assert stale == [], "these are within the limit now: drop them from EXCEPTIONS"


@pytest.mark.parametrize("module", sorted(READ_WHOLE))
def test_the_store_and_the_interpreter_are_read_whole(module: str) -> None:
    lines = _lines(module)
    assert lines <= READ_WHOLE[module], f"{module} has {lines} lines: split it along its sections"
