"""An in-memory tag reader fed by tests or by the page's "virtual tap" button."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable


class FakeReader:
    """Reports the UIDs of tags placed on it; a virtual tap is a short placement.

    Taps queue up. A tap lies on the reader for ``hold_s`` and is read at least
    ``hold_reads`` times; the next one starts after ``gap_s`` *and* ``gap_reads`` empty
    reads. Counting reads as well as time keeps two taps two placements on a loaded machine,
    where the poll loop runs late: time alone could pass between two polls.
    """

    def __init__(self, *, hold_s: float = 0.25, gap_s: float = 0.45, hold_reads: int = 2,
                 gap_reads: int = 8, clock: Callable[[], float] = time.monotonic) -> None:
        self.hold_s, self.gap_s = hold_s, gap_s
        self.hold_reads, self.gap_reads = hold_reads, gap_reads
        self._clock = clock
        self._lock = threading.Lock()
        self._queue: deque[str] = deque()
        self._on: tuple[str, float] | None = None  # the tap on the reader: (uid, since)
        self._reads = gap_reads  # reads of the tap on the reader, or empty reads since one
        self._off_since = float("-inf")
        self._resting: str | None = None
        self.is_open = False
        self.fail_opens = 0
        """Tests: this many calls to open() raise, as a missing reader would."""
        self.crowded = False
        """Tests: another tag shares the field, hidden by the one read (as Mfrc522Reader's)."""

    def open(self) -> None:
        if self.fail_opens > 0:
            self.fail_opens -= 1
            from hardware.nfc import ReaderError

            raise ReaderError("fake reader told to be missing")
        self.is_open = True

    def close(self) -> None:
        self.is_open = False

    def tap(self, uid: str) -> None:
        """Put ``uid`` on the reader for one short placement, after any taps still queued."""
        with self._lock:
            self._queue.append(uid.upper())

    def place(self, uid: str) -> None:
        """Leave ``uid`` lying on the reader until :meth:`remove`."""
        self._resting = uid.upper()

    def remove(self) -> None:
        self._resting = None

    def read_uid(self) -> str | None:
        if not self.is_open:
            from hardware.nfc import ReaderError

            raise ReaderError("fake reader is not open")
        with self._lock:
            return self._read(self._clock()) or self._resting

    def _read(self, now: float) -> str | None:
        """The queued taps' answer to one read at ``now``."""
        if self._on is not None:
            uid, since = self._on
            if self._reads < self.hold_reads or now - since < self.hold_s:
                self._reads += 1
                return uid
            self._on, self._reads, self._off_since = None, 0, now
        if self._queue and self._reads >= self.gap_reads and now - self._off_since >= self.gap_s:
            self._on, self._reads = (self._queue.popleft(), now), 1
            return self._on[0]
        self._reads += 1
        return None
