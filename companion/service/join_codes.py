"""Join codes: 6 random digits, never one an earlier game had, working only while in use.

A code lets a phone into a game as a spectator (and claim a free seat), so it must be hard
to guess (a million codes against 10 wrong tries a minute per address and 30 from
everywhere), must not let last month's guest into tonight's game, and must stop working
when the game ends or lies untouched for :data:`IDLE_HOURS` (any move wakes it again).
Idle time is measured on a steady clock (:class:`LastMoves`), so a jump of the Pi's wall
clock (NTP setting it, months late) neither expires every code nor wakes an old one.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

from companion.engine.i18n import Msg, Msgs

if TYPE_CHECKING:
    from companion.service.port import ServicePort

DIGITS = 6
IDLE_HOURS = 24.0


def new_code(taken: Collection[str]) -> str:
    """A fresh code that no game in ``taken`` ever used."""
    while True:
        code = f"{secrets.randbelow(10**DIGITS):0{DIGITS}d}"
        if code not in taken:
            return code


def refusal(status: str, idle: float | None) -> str | None:
    """Why a game's code no longer lets phones in (``idle``: seconds since its last move,
    None: unknown), or None while it does."""
    if status != "open":
        return Msg("That game has ended; its code no longer works.")
    if idle is not None and idle > IDLE_HOURS * 3600:
        return Msgs("That code expired: the game has not moved for {n} hour. The banker "
                    "makes a move to wake it.", "That code expired: the game has not moved for "
                    "{n} hours. The banker makes a move to wake it.", int(IDLE_HOURS))
    return None


class LastMoves:
    """When each game last took a command, on ``clock`` (a steady one): the service tells it
    of every commit; a game that has not moved since the companion started counts from its
    last command's wall-clock time as read at start (a time in the future counts as now)."""

    def __init__(self, service: ServicePort, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        now, wall = clock(), float(service.clock())
        self._at = {g: now - max(0.0, wall - t) for g, t in service.last_command_times().items()}
        service.subscribe(self._moved, first=True)

    def _moved(self, game_id: str, version: int, notice: Any) -> None:
        if notice is None and game_id:
            with self._lock:
                self._at[game_id] = self.clock()

    def idle(self, game_id: str) -> float | None:
        """Seconds since the game's last move, or None if it never moved."""
        with self._lock:
            at = self._at.get(game_id)
        return None if at is None else max(0.0, self.clock() - at)
