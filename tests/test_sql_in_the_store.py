"""SQL lives in the store package (companion/store) alone: no other module of the product
runs a statement or holds one; the service, the page and the table ask the store's read
models through typed methods (issue 40, "One front door")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "web", "hardware")
STORE = ROOT / "companion" / "store"
STATEMENT = re.compile(r"\b(SELECT\b[\s\S]+\bFROM|INSERT\s+(OR\s+\w+\s+)?INTO|DELETE\s+FROM|"
                       r"UPDATE\s+\w+\s+SET|CREATE\s+(TABLE|INDEX)|PRAGMA\s+\w+|BEGIN\s+"
                       r"IMMEDIATE|ROLLBACK|COMMIT)\b")
"""A statement in a string (an NFC reader's SELECT command is no SQL: it has no FROM)."""
RUNS = {"execute", "executemany", "executescript"}

STILL_OUTSIDE: dict[str, int] = {
    # module: SQL sites it has today (it may shrink, never grow); move them to the store
    "companion/platform/backup.py": 7,  # PRAGMAs on a backup's copy of the file
}


def sql_sites(path: Path) -> int:
    """Statements in strings and calls that run one, in ``path``."""
    found = 0
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += bool(STATEMENT.search(node.value))
        elif isinstance(node, ast.Attribute) and node.attr in RUNS:
            found += 1
    return found


def test_no_module_outside_the_store_holds_sql() -> None:
    found = {str(p.relative_to(ROOT)): n for package in PACKAGES
             for p in sorted((ROOT / package).rglob("*.py"))
             if STORE not in p.parents and (n := sql_sites(p))}
    grown = {m: n for m, n in found.items() if n > STILL_OUTSIDE.get(m, 0)}
    assert grown == {}, f"SQL outside companion/store: {grown}"


def test_the_check_sees_sql() -> None:
    assert sql_sites(STORE / "household.py") >= 2
    assert sql_sites(ROOT / "hardware" / "nfc.py") == 0
