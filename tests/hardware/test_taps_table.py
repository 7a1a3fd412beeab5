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


def test_two_emulated_readers_polled_in_turn_count_every_quick_lift() -> None:
    """The table's loop: one time stamp per pass over both readers, then poll_s. Reader A's
    token is lifted for 0.40-0.42 s between rests; B holds a resting token."""
    from hardware.emulator import Glitches, Mfrc522Chip, VirtualClock, pi_modules
    from hardware.nfc import Mfrc522Reader

    clock, rng = VirtualClock(), random.Random(8)
    chips = {(0, d): Mfrc522Chip(clock, glitches=Glitches(drop=0.03, flip=0.02, parity=0.01,
                                                          seed=d)) for d in (0, 1)}
    spans = lifts(30, rng, "04A1B2C3D4E5F6", (0.40, 0.42), rest_s=(0.3, 1.5))
    taps: list[tuple[float, str | None]] = []
    detectors = [TapDetector(), TapDetector()]
    with pi_modules(chips):
        readers = [Mfrc522Reader(0, d, 25, sleep=clock.sleep) for d in (0, 1)]
        for reader in readers:
            reader.open()
        chips[(0, 1)].place("04B0B1B2B3B4B5")
        on = False
        while clock.time() < spans[-1].end + 0.5:
            now = clock.time()
            if on != any(p.start <= now < p.end for p in spans):  # put down or lifted
                on = not on
                chips[(0, 0)].place(spans[0].uid) if on else chips[(0, 0)].remove()
            uid = readers[0].read_uid()
            if detectors[0].feed(now, uid):
                taps.append((now, uid))
            detectors[1].feed(now, readers[1].read_uid())
            clock.sleep(0.05)
    assert detectors[1].present == "04B0B1B2B3B4B5"
    assert count_taps(spans, taps) == ([1] * 30, 0)


def test_a_neighbour_on_an_emulated_reader_never_retaps_the_resting_token() -> None:
    """Through the chip and the adapter: the two tags collide, the adapter selects the one
    it read last, so the resting token reads on and its detector sees no lift."""
    from hardware.emulator import Glitches, Mfrc522Chip, VirtualClock, pi_modules
    from hardware.nfc import Mfrc522Reader

    clock, rng = VirtualClock(), random.Random(9)
    chip = Mfrc522Chip(clock, glitches=Glitches(drop=0.03, flip=0.02, parity=0.01, seed=9))
    spans = neighbours(20, rng, "04AA5E5E000001")
    taps: list[tuple[float, str | None]] = []
    detector = TapDetector()
    with pi_modules({(0, 0): chip}):
        reader = Mfrc522Reader(0, 0, 25, sleep=clock.sleep)
        reader.open()
        inside: set[str] = set()
        while clock.time() < spans[0].end:
            now = clock.time()
            want = {p.uid for p in spans if p.start <= now < p.end}
            for uid in want - inside:
                chip.place(uid)
            for uid in inside - want:
                chip.remove(uid)
            inside = want
            if tap := detector.feed(now, reader.read_uid()):
                taps.append((now, tap))
            clock.sleep(0.05)
    counts, stray = count_taps(spans, taps)
    assert counts[0] == 1 and stray == 0
