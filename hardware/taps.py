"""Turning reader polls into taps: one tap per placement, whatever the reader does meanwhile.

A tag lying on the reader is read on most polls; reads get lost now and then, alone or a few
in a row (a corrupted frame, a hand passing over the antenna), and while a token goes on or
comes off it wobbles at the edge of the field. A player who lifts a token and puts it back
leaves it off the pad for at least about 0.4 s.

So a tag counts as removed only after a silence that is both

- at least ``removal_s`` long (0.38 s: longer than a resting tag's lost reads, just short of
  the quickest lift, so every lift of 0.4 s or more is a new tap), and
- at least ``removal_polls`` empty polls in a row (6): a poll loop that stalled (a busy Pi,
  a slow reader reopen) and then misses one read has not seen the tag leave.

A different UID is a new tap at once (tokens swapped). The detector is pure: it is fed
``(time, uid or None)`` samples and never reads a clock.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TapSettings:
    """Timing of the reader loop and of the removal window."""

    removal_s: float = 0.38
    """A tag silent for this long (and ``removal_polls`` polls) has been lifted."""
    poll_s: float = 0.05
    """Pause between two polls of the same reader."""
    removal_polls: int = 6
    """Empty polls in a row needed, too, before a tag counts as lifted."""

    def __post_init__(self) -> None:
        if not 0 < self.poll_s < self.removal_s:
            raise ValueError(
                f"need 0 < poll_s < removal_s, got poll_s={self.poll_s}, removal_s={self.removal_s}"
            )
        n = self.removal_polls
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"removal_polls must be a whole number >= 1, got {n!r}")
        if self.removal_polls * self.poll_s > self.removal_s + 1e-9:
            raise ValueError(
                f"removal_polls x poll_s must not exceed removal_s (else a lift of removal_s is "
                f"missed), got {self.removal_polls} x {self.poll_s} > {self.removal_s}"
            )


class TapDetector:
    """Fed ``(time, uid or None)`` samples from one reader; says when a new tap happens."""

    def __init__(self, settings: TapSettings | None = None) -> None:
        self.settings = settings or TapSettings()
        self._uid: str | None = None
        self._last_seen = 0.0
        self._missed = 0

    def __repr__(self) -> str:
        return f"TapDetector({self.settings!r})"

    @property
    def present(self) -> str | None:
        """The UID believed to be on the reader (possibly through a few missed reads)."""
        return self._uid

    def feed(self, t: float, uid: str | None) -> str | None:
        """Take one poll result at time ``t`` (seconds); return the UID if it is a new tap."""
        if uid is None:
            self._missed += 1
            if self._lifted(t):
                self._uid = None
            return None
        if self._lifted(t):  # silent long enough before this read: it was lifted
            self._uid = None
        new = uid != self._uid
        self._uid, self._last_seen, self._missed = uid, t, 0
        return uid if new else None

    def _lifted(self, t: float) -> bool:
        s = self.settings
        return (self._uid is not None and self._missed >= s.removal_polls
                and t - self._last_seen >= s.removal_s)

    def reset(self) -> None:
        """Forget what is on the reader (after the reader was reopened)."""
        self._uid = None
        self._missed = 0
