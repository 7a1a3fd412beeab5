"""Turning reader polls into taps: one tap per placement, whatever the reader does meanwhile.

A tag lying on the reader is read on every poll; a read now and then misses. A tag counts as
removed only once it has been absent for ``removal_s``; then putting it back is a new tap.
``removal_s`` must be longer than the longest run of missed reads (a few polls) and shorter
than the quickest genuine lift-and-put-back (about 0.4 s): 0.3 s at 20 polls a second.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TapSettings:
    """Timing of the reader loop."""

    removal_s: float = 0.3
    """A tag unseen for this long has been lifted; seeing it again is a new tap."""
    poll_s: float = 0.05
    """Pause between two polls of the same reader."""

    def __post_init__(self) -> None:
        if not 0 < self.poll_s < self.removal_s:
            raise ValueError(
                f"need 0 < poll_s < removal_s, got poll_s={self.poll_s}, removal_s={self.removal_s}"
            )


class TapDetector:
    """Fed ``(time, uid or None)`` samples from one reader; says when a new tap happens."""

    def __init__(self, settings: TapSettings | None = None) -> None:
        self.settings = settings or TapSettings()
        self._uid: str | None = None
        self._last_seen = 0.0

    def __repr__(self) -> str:
        return f"TapDetector({self.settings!r})"

    @property
    def present(self) -> str | None:
        """The UID believed to be on the reader (possibly through a few missed reads)."""
        return self._uid

    def feed(self, t: float, uid: str | None) -> str | None:
        """Take one poll result at time ``t`` (seconds); return the UID if it is a new tap."""
        if self._uid is not None and t - self._last_seen >= self.settings.removal_s:
            self._uid = None  # absent long enough: lifted
        if uid is None:
            return None
        new = uid != self._uid
        self._uid, self._last_seen = uid, t
        return uid if new else None

    def reset(self) -> None:
        """Forget what is on the reader (after the reader was reopened)."""
        self._uid = None
