"""Seeded noisy poll timelines of one reader at a real table, for the tap detector.

A timeline is what one reader's poll loop sees: ``(time, uid or None)`` per poll. Tags are
placed on the pad for spans of time (:class:`Placement`); placements may overlap (a
neighbour's token in the field too). Per poll, a tag in the field goes unread when

- a disturbance covers the reader: a hand or a token passing over the antenna, starting at
  ``hand_rate`` per second (a Poisson process) and lasting ``hand_s``; disturbances may
  overlap, one may start while another is under way;
- the token wobbles on its way in or out (the first and last ``edge_s`` of a placement):
  read on ``edge_read`` of the polls;
- its own reads get lost: ``miss`` of the polls (5 % for a centred token, 30 % or more for
  one resting at the edge of the field), independently.

Two readable tags answer one at a time, alternating (after a read the tag is halted and the
other one answers), except that ``collision`` of such polls read nothing. The poll clock is
``poll_s`` +-20 % plus ``extra_s``: the time the loop spends on the other readers.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

Sample = tuple[float, str | None]


@dataclass(frozen=True, slots=True)
class Noise:
    """The table's trouble, per reader."""

    miss: float = 0.05
    edge_s: float = 0.12
    edge_read: float = 0.6
    hand_rate: float = 0.2
    hand_s: tuple[float, float] = (0.08, 0.15)
    collision: float = 0.2


@dataclass(frozen=True, slots=True)
class Placement:
    """``uid`` lies in the field from ``start`` to ``end``; ``miss`` overrides the noise's."""

    uid: str
    start: float
    end: float
    miss: float | None = None


@dataclass(frozen=True, slots=True)
class PollClock:
    """When the loop polls this reader: every ``poll_s`` +-``jitter`` plus ``extra_s``."""

    poll_s: float = 0.05
    extra_s: float = 0.0
    jitter: float = 0.2

    def step(self, rng: random.Random) -> float:
        return self.poll_s * rng.uniform(1 - self.jitter, 1 + self.jitter) + self.extra_s


def timeline(placements: Iterable[Placement], rng: random.Random, noise: Noise | None = None,
             clock: PollClock | None = None, *, until: float | None = None) -> Iterator[Sample]:
    """Poll samples over ``placements`` (sorted by start) until the last one ends."""
    noise, clock = noise or Noise(), clock or PollClock()
    pending = sorted(placements, key=lambda p: p.start)
    end = until if until is not None else max((p.end for p in pending), default=0.0) + 1.0
    active: list[Placement] = []
    t, dark_until, last = 0.0, -1.0, None
    i = 0
    while t < end:
        step = clock.step(rng)
        if noise.hand_rate and rng.random() < 1 - math.exp(-noise.hand_rate * step):
            begin = t + rng.random() * step  # a disturbance starts in this interval
            dark_until = max(dark_until, begin + rng.uniform(*noise.hand_s))
        t += step
        while i < len(pending) and pending[i].start <= t:
            active.append(pending[i])
            i += 1
        active = [p for p in active if p.end > t]
        if t < dark_until or not active:
            yield t, None
            continue
        readable = [p.uid for p in active if _reads(p, t, noise, rng)]
        if not readable:
            uid = None
        elif len(readable) == 1:
            uid = readable[0]
        elif rng.random() < noise.collision:
            uid = None
        else:
            others = [u for u in readable if u != last]
            uid = others[0] if others else readable[0]
        last = uid if uid is not None else last
        yield t, uid


def _reads(p: Placement, t: float, noise: Noise, rng: random.Random) -> bool:
    if t - p.start < noise.edge_s or p.end - t < noise.edge_s:
        return rng.random() < noise.edge_read
    return rng.random() >= (noise.miss if p.miss is None else p.miss)


def table_placements(n: int, rng: random.Random) -> list[Placement]:
    """``n`` placements one after another, as players tap tokens and cards.

    A quarter are quick re-taps (the same token back after 0.4-0.8 s off the pad, the quickest
    lift-and-replace); the rest come 0.4-2 s after the previous one, half of them the same
    token. Each lies on the pad for 0.3-3 s.
    """
    out: list[Placement] = []
    t, previous = 0.0, "04000000000001"
    for _ in range(n):
        if rng.random() < 0.25:
            gap, uid = rng.uniform(0.4, 0.8), previous
        else:
            gap = rng.uniform(0.4, 2.0)
            uid = previous if rng.random() < 0.5 else f"04{rng.randrange(16**12):012X}"
        start = t + gap
        t = start + rng.uniform(0.3, 3.0)
        out.append(Placement(uid, start, t))
        previous = uid
    return out


def lifts(n: int, rng: random.Random, uid: str, lift_s: tuple[float, float],
          rest_s: tuple[float, float] = (1.0, 3.0)) -> list[Placement]:
    """One token put down ``n`` times, lifted for ``lift_s`` between placements."""
    out, t = [], 0.5
    for _ in range(n):
        end = t + rng.uniform(*rest_s)
        out.append(Placement(uid, t, end))
        t = end + rng.uniform(*lift_s)
    return out


def neighbours(n: int, rng: random.Random, resting: str) -> list[Placement]:
    """``resting`` lies on the pad throughout; ``n`` times a second token joins it in the
    field for 2-10 s (placed on the next space), then goes, 2-5 s before the next one."""
    out, t = [], 1.0
    for k in range(n):
        start = t + rng.uniform(2.0, 5.0)
        t = start + rng.uniform(2.0, 10.0)
        out.append(Placement(f"05{k:012X}", start, t))
    return [Placement(resting, 0.0, t + 2.0), *out]


def count_taps(placements: Iterable[Placement],
               taps: Iterable[Sample]) -> tuple[list[int], int]:
    """(taps per placement, taps outside every placement of their UID): a tap belongs to the
    placement of its UID under way at its time."""
    ps = list(placements)
    by_uid: dict[str, list[tuple[float, int]]] = {}
    for k, p in enumerate(ps):
        by_uid.setdefault(p.uid, []).append((p.start, k))
    for spans in by_uid.values():
        spans.sort()
    counts, stray = [0] * len(ps), 0
    for t, uid in taps:
        spans = by_uid.get(uid or "", [])
        j = bisect.bisect_right(spans, (t, len(ps))) - 1
        if j >= 0 and t < ps[spans[j][1]].end + 1e-9:
            counts[spans[j][1]] += 1
        else:
            stray += 1
    return counts, stray
