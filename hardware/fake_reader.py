"""An in-memory tag reader fed by tests or by the page's "virtual tap" button."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class FakeReader:
    """Reports the UIDs of tags placed on it; a virtual tap is a short placement.

    Taps queue up: a second tap of the same tag starts only after the first has been off
    the reader for ``gap_s``, so the tap detector sees two placements, as with a real tag.
    """

    def __init__(self, *, hold_s: float = 0.25, gap_s: float = 0.45,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.hold_s, self.gap_s = hold_s, gap_s
        self._last_end = float("-inf")
        self._clock = clock
        self._lock = threading.Lock()
        self._windows: list[tuple[float, float, str]] = []  # (start, end, uid)
        self._resting: str | None = None
        self.is_open = False
        self.fail_opens = 0
        """Tests: this many calls to open() raise, as a missing reader would."""

    def open(self) -> None:
        if self.fail_opens > 0:
            self.fail_opens -= 1
            from hardware.nfc import ReaderError

            raise ReaderError("fake reader told to be missing")
        self.is_open = True

    def close(self) -> None:
        self.is_open = False

    def tap(self, uid: str) -> None:
        """Put ``uid`` on the reader for ``hold_s``, after any taps still queued."""
        with self._lock:
            now = self._clock()
            start = max(now, self._last_end + self.gap_s)
            self._last_end = start + self.hold_s
            self._windows.append((start, self._last_end, uid.upper()))

    def place(self, uid: str) -> None:
        """Leave ``uid`` lying on the reader until :meth:`remove`."""
        self._resting = uid.upper()

    def remove(self) -> None:
        self._resting = None

    def read_uid(self) -> str | None:
        if not self.is_open:
            from hardware.nfc import ReaderError

            raise ReaderError("fake reader is not open")
        now = self._clock()
        with self._lock:
            self._windows = [w for w in self._windows if w[1] > now]
            for start, _, uid in self._windows:
                if start <= now:
                    return uid
        return self._resting
