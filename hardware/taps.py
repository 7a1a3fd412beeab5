"""Turning reader polls into taps: one tap per placement, whatever the reader does meanwhile.

A tag lying on the reader is read on most polls; reads get lost now and then, alone or a few
in a row (a corrupted frame, a hand passing over the antenna), and while a token goes on or
comes off it wobbles at the edge of the field. A player who lifts a token and puts it back
leaves it off the pad for at least about 0.4 s. A token resting at the edge of the field may
lose a third of its reads or more, and two tags in the field answer one at a time.

So the detector keeps a **set of present tags**, each with its own miss budget, and a tag
counts as lifted (its next read is a new tap) only after a silence that is all of

- ``removal_s`` long (0.38 s) in *covered* time: each gap between two polls counts for at
  most 1.5 observed poll intervals, so a stalled poll loop (a busy Pi, a slow reader reopen)
  that then misses one read has not seen the tag leave;
- as many empty polls as fit in that window at the **observed** poll rate (at most
  ``removal_polls``): with two readers polled in turn a reader is polled about every 70 ms,
  not every 50, and a 0.4 s lift must still count;
- for a tag that misses often (its miss rate, learnt per tag, clearly above 15 %): enough
  polls in a row that its own misses would produce such a run less than once in 10^8 polls.
  A token at the edge with 30 % lost reads needs 16 silent polls (0.8 s); while two tags
  share the field (each read on about every other poll) each needs 27. The rate is learnt
  from the tag's last ~256 polls, after its first 0.15 s (the wobble into place), a run of
  lost reads counting for at most two (a hand over the antenna is one event), and starts at
  5 %: in its first seconds a weak token is not known as weak yet (the bench counts the
  re-taps that costs).

A poll that returns another tag counts as a miss for every present tag but that one: the
reader sees one tag at a time. The detector is pure: it is fed ``(time, uid or None)``
samples from one reader and never reads a clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.engine.i18n import Msg


@dataclass(frozen=True, slots=True)
class TapSettings:
    """Timing of the reader loop and of the removal window."""

    removal_s: float = 0.38
    """A tag silent for this long (covered by polls) may have been lifted."""
    poll_s: float = 0.05
    """Pause between two polls of the same reader (the first guess of the poll interval)."""
    removal_polls: int = 6
    """Empty polls in a row needed too, at most; fewer when the reader is polled slower."""

    def __post_init__(self) -> None:
        if not 0 < self.poll_s < self.removal_s:
            raise ValueError(Msg(
                "need 0 < poll_s < removal_s, got poll_s={poll}, removal_s={removal}",
                poll=str(self.poll_s), removal=str(self.removal_s)))
        n = self.removal_polls
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(Msg("removal_polls must be a whole number >= 1, got {value}",
                                 value=repr(n)))
        if self.removal_polls * self.poll_s > self.removal_s + 1e-9:
            raise ValueError(Msg(
                "removal_polls x poll_s must not exceed removal_s (else a lift of removal_s is "
                "missed), got {polls} x {poll} > {removal}", polls=str(self.removal_polls),
                poll=str(self.poll_s), removal=str(self.removal_s)))


FALSE_LIFT_ODDS = 1e-8
"""A weak tag's own misses may look like a lift at most this often per poll."""
WEAK_MISS_RATE = 0.15
"""Above this estimated miss rate a tag gets a budget from its rate, not only the window."""
WEAK_MARGIN = 1.0
"""A tag is weak only when its rate, less one standard error, is above WEAK_MISS_RATE."""
PRIOR_RATE, PRIOR_POLLS, RATE_WINDOW, RUN_CAP = 0.05, 20.0, 256.0, 2
"""The miss rate starts at 5 % weighed as 20 polls, and follows the last ~256 polls."""
SETTLE_S = 0.15
"""Misses in a tag's first 0.15 s on the reader (it wobbles into place) teach nothing."""
GAP_CAP = 1.5
"""A gap between polls counts for at most this many poll intervals of silence."""


def budget(miss_rate: float, base: int) -> int:
    """Empty polls in a row after which a tag with this miss rate counts as lifted."""
    if miss_rate < WEAK_MISS_RATE:
        return base
    if miss_rate >= 1.0:
        return 10**9
    return max(base, math.ceil(math.log(FALSE_LIFT_ODDS) / math.log(miss_rate)))


class _Presence:
    """One tag believed to be on the reader."""

    __slots__ = ("budget", "covered", "misses", "polls", "settled_at", "silent")

    def __init__(self, t: float, base: int) -> None:
        self.settled_at = t + SETTLE_S
        self.misses, self.polls = PRIOR_RATE * PRIOR_POLLS, PRIOR_POLLS
        self.silent = 0  # polls since it was last read
        self.covered = 0.0  # silence since then, each gap capped
        self.budget = base  # fixed at the last read: its own silence must not raise it

    @property
    def miss_rate(self) -> float:
        """Share of polls that missed it; a run of lost reads counts for at most
        ``RUN_CAP``: a hand over the antenna is one event, not a weak tag."""
        return self.misses / self.polls

    def seen(self, t: float, base: int, sharing: int) -> None:
        """Read again after a silence that was not a lift: learn from that silence.

        ``sharing``: tags present on the reader, this one included; they answer in turn, so
        each misses at least ``1 - 1/sharing`` of the polls.
        """
        if t >= self.settled_at:  # not while it wobbles into place
            self.misses += min(self.silent, RUN_CAP)
            self.polls += min(self.silent, RUN_CAP) + 1
        if self.polls > RATE_WINDOW:
            self.misses *= RATE_WINDOW / self.polls
            self.polls = RATE_WINDOW
        self.silent, self.covered = 0, 0.0
        rate = self.miss_rate
        if rate - WEAK_MARGIN * math.sqrt(rate * (1 - rate) / self.polls) < WEAK_MISS_RATE:
            rate = 0.0  # not clearly weak: a wobble on its way out is no reason to wait
        self.budget = budget(max(rate, 1 - 1 / sharing), base)


class TapDetector:
    """Fed ``(time, uid or None)`` samples from one reader; says when a new tap happens."""

    def __init__(self, settings: TapSettings | None = None) -> None:
        self.settings = settings or TapSettings()
        self._tags: dict[str, _Presence] = {}
        self._last_uid: str | None = None
        self._last_t: float | None = None
        self._interval = self.settings.poll_s

    def __repr__(self) -> str:
        return f"TapDetector({self.settings!r})"

    @property
    def present(self) -> str | None:
        """The tag read last, if still believed on the reader (through a few missed reads)."""
        return self._last_uid if self._last_uid in self._tags else None

    @property
    def present_uids(self) -> frozenset[str]:
        """Every tag believed to be on the reader."""
        return frozenset(self._tags)

    @property
    def interval(self) -> float:
        """The poll interval this reader is actually polled at (smoothed)."""
        return self._interval

    def miss_rate(self, uid: str) -> float | None:
        """The estimated share of polls that miss ``uid``, or None if it is not present."""
        tag = self._tags.get(uid)
        return None if tag is None else tag.miss_rate

    def feed(self, t: float, uid: str | None) -> str | None:
        """Take one poll result at time ``t`` (seconds); return the UID if it is a new tap."""
        covered = self._tick(t)
        base = self._base()
        s = self.settings
        for other, presence in list(self._tags.items()):
            presence.covered += covered
            if other != uid:
                presence.silent += 1
            if presence.silent >= presence.budget and presence.covered >= s.removal_s:
                del self._tags[other]  # silent long enough: it was lifted
        if uid is None:
            return None
        self._last_uid = uid
        tag = self._tags.get(uid)
        new = tag is None
        if tag is None:
            tag = self._tags[uid] = _Presence(t, base)
        tag.seen(t, base, len(self._tags))
        return uid if new else None

    def _tick(self, t: float) -> float:
        """Advance to ``t``; return how much of the gap counts as covered silence."""
        last, self._last_t = self._last_t, t
        if last is None:
            return 0.0
        gap = max(0.0, t - last)
        self._interval += (min(gap, 2 * self._interval) - self._interval) / 16
        return min(gap, GAP_CAP * self._interval)

    def _base(self) -> int:
        """Empty polls that fit in the removal window at the observed poll rate."""
        s = self.settings
        fit = math.floor(s.removal_s / self._interval + 1e-9) - 1
        return max(1, min(s.removal_polls, fit))

    def reset(self) -> None:
        """Forget what is on the reader (after the reader was reopened)."""
        self._tags.clear()
        self._last_uid = None
        self._last_t = None
        self._interval = self.settings.poll_s
