"""Join codes: 6 random digits, never one an earlier game had, working only while in use.

A code lets a phone into a game as a spectator (and claim a free seat), so it must be hard
to guess (a million codes against 10 wrong tries a minute per address and 30 from
everywhere), must not let last month's guest into tonight's game, and must stop working
when the game ends or lies untouched for :data:`IDLE_HOURS` (any move wakes it again).
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Collection

DIGITS = 6
IDLE_HOURS = 24.0


def new_code(taken: Collection[str]) -> str:
    """A fresh code that no game in ``taken`` ever used."""
    while True:
        code = f"{secrets.randbelow(10**DIGITS):0{DIGITS}d}"
        if code not in taken:
            return code


def last_move(conn: sqlite3.Connection, game_id: str) -> float | None:
    """When the game last took a command (its creation counts), or None."""
    row = conn.execute("SELECT MAX(time) FROM commands WHERE game_id = ?", (game_id,)).fetchone()
    return None if row is None or row[0] is None else float(row[0])


def refusal(status: str, last: float | None, now: float) -> str | None:
    """Why a game's code no longer lets phones in, or None while it does."""
    if status != "open":
        return "That game has ended; its code no longer works."
    if last is not None and now - last > IDLE_HOURS * 3600:
        return (f"That code expired: the game has not moved for {int(IDLE_HOURS)} hours. "
                "The banker makes a move to wake it.")
    return None
