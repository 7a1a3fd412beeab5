"""Taps from a real table: an edge-of-field token, a neighbour in the field, two readers.

Seeded timelines from :mod:`hardware.emulator.timelines`; the bench prints the rates over
many hours, these tests pin down one seeded stretch of each case.
"""

from __future__ import annotations

import random

from hardware.emulator.timelines import (
    Noise,
    Placement,
    PollClock,
    count_taps,
    lifts,
    neighbours,
    timeline,
)
from hardware.taps import TapDetector

TWO_READERS = PollClock(extra_s=0.025)  # the loop spends ~25 ms on both readers per pass


def taps(spans: list[Placement], seed: int, clock: PollClock | None = None,
         noise: Noise | None = None) -> tuple[list[int], int]:
    detector = TapDetector()
    samples = timeline(spans, random.Random(seed), noise, clock)
    return count_taps(spans, [(t, uid) for t, uid in samples if detector.feed(t, uid)])


def test_token_resting_at_the_edge_of_the_field_for_an_hour_is_one_tap() -> None:
    spans = [Placement("04EDGE00000001", 0.5, 3600.0, miss=0.3)]
    assert taps(spans, seed=3) == ([1], 0)


def test_token_resting_at_the_edge_with_two_readers_is_one_tap() -> None:
    spans = [Placement("04EDGE00000001", 0.5, 3600.0, miss=0.3)]
    assert taps(spans, seed=4, clock=TWO_READERS) == ([1], 0)


def test_a_neighbour_in_the_field_never_retaps_the_resting_token() -> None:
    spans = neighbours(60, random.Random(5), "04RESTING00001")
    counts, stray = taps(spans, seed=5)
    assert counts[0] == 1 and stray == 0
    assert counts[1:] == [1] * 60  # each neighbour's arrival is one tap of its own


def test_every_quick_lift_counts_with_two_readers() -> None:
    spans = lifts(40, random.Random(6), "04A1B2C3D4E5F6", (0.40, 0.42))
    counts, stray = taps(spans, seed=6, clock=TWO_READERS)
    assert counts == [1] * 40 and stray == 0


def test_a_lift_while_a_neighbour_stays_counts_once_it_lasts_long_enough() -> None:
    # two tags share the field: the first is lifted for 2 s and put back
    a, b = "04AAAAAAAAAAAA", "04BBBBBBBBBBBB"
    spans = [Placement(b, 0.5, 20.0), Placement(a, 0.5, 8.0), Placement(a, 10.0, 20.0)]
    assert taps(spans, seed=7) == ([1, 1, 1], 0)


def test_the_detector_learns_the_poll_interval_of_a_slow_loop() -> None:
    detector = TapDetector()
    for i in range(100):
        detector.feed(i * 0.075, None)
    assert 0.07 < detector.interval < 0.08
