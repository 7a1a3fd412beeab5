"""A screen left unchanged while nobody plays (the join screens) wears an OLED: its lit pixels
burn in. :class:`IdleScreen` draws it at one of four places a pixel apart, moving every
``SHIFT_S``, and dims the panel after ``DIM_S``; any other screen brings it back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

IDLE_SHIFTS = ((0, 0), (1, 0), (1, -1), (0, -1))
"""Where the idle screen is drawn in turn, a pixel apart ..."""
SHIFT_S, DIM_S = 60.0, 300.0
"""... moving every minute, dimmed after five."""

Draw = Callable[[Any], None]


class IdleScreen:
    """The idle screen being shown (``draw``), where it is, since when; the caller locks."""

    def __init__(self) -> None:
        self.draw: Draw | None = None
        self._since = self._moved_at = 0.0
        self._moves = 0

    @property
    def shift(self) -> tuple[int, int]:
        return IDLE_SHIFTS[self._moves % len(IDLE_SHIFTS)]

    def shown(self, draw: Draw, now: float) -> None:
        if self.draw is None:
            self._since = self._moved_at = now
        self.draw = draw

    def due(self, now: float) -> tuple[bool, bool]:
        """(move it now, keep it dim) for the idle screen at ``now``."""
        if self.draw is None:
            return False, False
        move = now - self._moved_at >= SHIFT_S
        if move:
            self._moves, self._moved_at = self._moves + 1, now
        return move, now - self._since >= DIM_S

    def left(self) -> bool:
        """Another screen is shown: whether the idle one was (so the panel may be dim)."""
        was, self.draw = self.draw is not None, None
        return was
