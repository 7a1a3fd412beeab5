"""Ways to damage a state directory the way an SD card or a careless copy does."""

from __future__ import annotations

import random
import sqlite3
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_engine import random_command  # noqa: E402

from companion.service import game  # noqa: E402


def play(service: Any, game_id: str, commands: int, seed: int = 1) -> int:
    """Play up to ``commands`` random legal commands; returns how many were accepted."""
    rnd = random.Random(seed)
    done = 0
    for _ in range(commands * 2):
        if done >= commands:
            break
        _, state = service.state(game_id)
        if state.finished:
            break
        done += service.submit(game_id, random_command(rnd, game.legal_actions(state))).ok
    return done


def damage_pages_of(db: Path, marker: str) -> int:
    """Overwrite one page that holds ``marker`` (and so belongs to the rows that contain it)
    with garbage: a bad sector under one game's log. Returns the page number.

    The page picked is the middle one of the events table's pages holding the marker, so it
    is a leaf of that game's events and no other game's rows live there (every page holding
    it when SQLite has no ``dbstat``). The database must be closed (no WAL).
    """
    data = db.read_bytes()
    conn = sqlite3.connect(db)
    page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
    try:
        events = {n - 1 for (n,) in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = 'events'")}
    except sqlite3.OperationalError:  # built without dbstat
        events = set()
    conn.close()
    needle = marker.encode()
    pages = sorted({i // page_size for i in _find_all(data, needle)} - {0})
    pages = [p for p in pages if p in events] or pages
    if not pages:
        raise ValueError(f"{marker!r} is not in {db}")
    page = pages[len(pages) // 2]
    garbage = bytes(random.Random(page).getrandbits(8) for _ in range(page_size))
    with db.open("r+b") as fh:
        fh.seek(page * page_size)
        fh.write(garbage)
    return page + 1


def _find_all(data: bytes, needle: bytes) -> list[int]:
    out, at = [], data.find(needle)
    while at >= 0:
        out.append(at)
        at = data.find(needle, at + 1)
    return out
