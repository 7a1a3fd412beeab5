"""Checking the editions' citations at load reads their source, and must not keep it: the
companion runs for hours on a Pi with little memory, and ``linecache`` keeps every file it
reads for good (half a megabyte for the five editions)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import linecache
from companion.plugins.editions import known, find_edition
for name in list(known()):
    find_edition(name)
held = [f for f in linecache.cache if "/companion/" in f]
print(len(known()), len(held))
"""


def test_loading_every_edition_keeps_no_source_file_in_memory() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=True).stdout.split()
    editions, held = int(out[0]), int(out[1])
    assert editions >= 5
    assert held == 0
