"""Reader figures on the emulated MFRC522 (virtual time, so host speed does not matter).

    .venv/bin/python scripts/bench_hardware.py [--placements 10000] [--seed 1]

Prints SPI transfers per empty poll (adapter vs. the unpatched mfrc522 0.0.7 library), per
7-byte read, and the tap detector's duplicates and misses over noisy placements. A plain
report, not a timed test.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hardware.emulator import Glitches, Mfrc522Chip, VirtualClock, pi_modules  # noqa: E402
from hardware.emulator.timelines import (  # noqa: E402
    Noise,
    Placement,
    PollClock,
    Sample,
    count_taps,
    lifts,
    neighbours,
    table_placements,
    timeline,
)
from hardware.emulator.variants import CHECKS, PROTOCOL, noisy_reads  # noqa: E402
from hardware.nfc import Mfrc522Reader  # noqa: E402
from hardware.taps import TapDetector, TapSettings  # noqa: E402

UID7 = "04A1B2C3D4E5F6"


def transfers_per_call(chip: Mfrc522Chip, fn: object, runs: int) -> float:
    chip.transfers = 0
    for _ in range(runs):
        fn()  # type: ignore[operator]
    return chip.transfers / runs


def spi_figures() -> float:
    """Print the SPI figures; return the virtual time of an empty poll (s)."""
    clock = VirtualClock()
    chip = Mfrc522Chip(clock)
    with pi_modules({(0, 0): chip}):
        reader = Mfrc522Reader(0, 0, 25, sleep=clock.sleep)
        reader.open()
        start = clock.time()
        empty = transfers_per_call(chip, reader.read_uid, 200)
        empty_s = (clock.time() - start) / 200
        chip.place(UID7)
        start = clock.time()
        read7 = transfers_per_call(chip, reader.read_uid, 200)
        read7_ms = (clock.time() - start) / 200 * 1000
        got = reader.read_uid()
        reader.close()
        chip.remove()

        from mfrc522 import MFRC522

        lib = MFRC522(0, 0)
        clock.sleep(0.002)  # its init ran while the crystal started (lost): run it again
        lib.MFRC522_Init()
        lib_empty = transfers_per_call(chip, lambda: lib.MFRC522_Request(lib.PICC_REQIDL), 5)
        chip.place(UID7)

        def lib_read() -> None:
            lib.MFRC522_Request(lib.PICC_REQIDL)
            lib.MFRC522_Anticoll()

        lib_read_n = transfers_per_call(chip, lib_read, 20)
        lib.MFRC522_Request(lib.PICC_REQIDL)
        lib_uid = bytes(lib.MFRC522_Anticoll()[1][:4]).hex().upper()
    print("SPI transfers per empty poll")
    print(f"  adapter (stops at TimerIRq):       {empty:7.1f}   (target <= 40)")
    print(f"  mfrc522 0.0.7 unpatched:           {lib_empty:7.1f}")
    print("SPI transfers per 7-byte UID read")
    print(f"  adapter (WUPA, CL1, CL2, HLTA):    {read7:7.1f}   ({read7_ms:.1f} ms virtual)"
          f" -> {got}")
    print(f"  mfrc522 0.0.7 request+anticoll:    {lib_read_n:7.1f}   -> {lib_uid} (incomplete)")
    print(f"  an empty poll takes {empty_s * 1000:.1f} ms (virtual)")
    return empty_s


def detect(samples: Iterable[Sample], settings: TapSettings) -> list[Sample]:
    detector = TapDetector(settings)
    return [(t, uid) for t, uid in samples if detector.feed(t, uid)]


def silences(samples: list[Sample], spans: list[Placement]) -> tuple[float, float]:
    """Longest silence of a tag lying on the pad, shortest silence of a lift (seconds)."""
    resting, lifted = 0.0, float("inf")
    i, last, last_span = 0, None, -1
    for t, uid in samples:
        if uid is None:
            continue
        while i + 1 < len(spans) and t >= spans[i + 1].start:
            i += 1
        if last is not None:
            if last_span == i:
                resting = max(resting, t - last)
            else:
                lifted = min(lifted, t - last)
        last, last_span = t, i
    return resting, lifted


def tap_figures(n: int, seed: int, settings: TapSettings) -> None:
    rng = random.Random(seed)
    spans = table_placements(n, rng)
    samples = list(timeline(spans, rng))
    counts, stray = count_taps(spans, detect(samples, settings))
    resting, lifted = silences(samples, spans)
    print(f"Tap detector over {n} noisy placements ({len(samples)} polls, one reader)")
    print(f"  duplicates: {sum(c - 1 for c in counts if c > 1) + stray}   "
          f"misses: {counts.count(0)}   (target 0 and 0)")
    print(f"  longest silence of a resting tag: {resting * 1000:.0f} ms   "
          f"shortest silence of a lift: {lifted * 1000:.0f} ms")


def edge_figures(hours: float, seed: int, settings: TapSettings, extra_s: float) -> None:
    print(f"A token resting at the edge of the field for {hours:g} h (spurious re-taps per "
          f"10 h; target <= 1)")
    for miss in (0.3, 0.5):
        row = []
        for readers, extra in ((1, 0.0), (2, extra_s)):
            rng = random.Random(seed)
            spans = [Placement("04EDGE0000000A", 0.5, hours * 3600, miss=miss)]
            counts, stray = count_taps(spans, detect(timeline(spans, rng,
                                                              clock=PollClock(extra_s=extra)),
                                                     settings))
            spurious = counts[0] - 1 + stray
            row.append(f"{readers} reader{'s' if readers > 1 else ''}: "
                       f"{spurious * 10 / hours:7.2f} ({spurious} in all)")
        print(f"  {miss:.0%} lost reads   " + "   ".join(row))


def weak_placement_figures(n: int, seed: int, settings: TapSettings) -> None:
    """Short rests at the edge: the detector has not yet learnt how weak the token is."""
    row = []
    for miss in (0.3, 0.5):
        rng = random.Random(seed)
        spans = [Placement(f"04{k:012X}", 0.5 + 11 * k, 10.5 + 11 * k, miss=miss)
                 for k in range(n)]
        counts, stray = count_taps(spans, detect(timeline(spans, rng), settings))
        row.append(f"{miss:.0%} lost reads: {sum(c - 1 for c in counts if c > 1) + stray}")
    print(f"A token put down at the edge of the field for 10 s, {n} times: spurious re-taps")
    print("  " + "   ".join(row))


def neighbour_figures(n: int, seed: int, settings: TapSettings) -> None:
    rng = random.Random(seed)
    spans = neighbours(n, rng, "04RESTING00001")
    counts, stray = count_taps(spans, detect(timeline(spans, rng), settings))
    print(f"A second token joins a resting one in the field {n} times (read alternately, "
          f"{Noise().collision:.0%} of such polls collide)")
    print(f"  re-taps of the resting token: {counts[0] - 1 + stray}   (target 0)   "
          f"neighbour arrivals seen: {sum(1 for c in counts[1:] if c)} of {n}, "
          f"counted twice: {sum(1 for c in counts[1:] if c > 1)}")


def emulated_neighbours(n: int, seed: int, settings: TapSettings) -> None:
    """The same through the emulated chip and the adapter: the two tags collide there."""
    clock, rng = VirtualClock(), random.Random(seed)
    chip = Mfrc522Chip(clock, glitches=Glitches(drop=0.03, flip=0.02, parity=0.01, seed=seed))
    spans = neighbours(n, rng, "04AA5E5E000001")
    taps: list[Sample] = []
    detector = TapDetector(settings)
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
            clock.sleep(settings.poll_s)
        reader.close()
    counts, stray = count_taps(spans, taps)
    print(f"  through the emulated chip ({n} visits; the tags collide, the adapter selects the "
          f"tag it read last): re-taps of the resting token: {counts[0] - 1 + stray}")


def lift_figures(n: int, seed: int, settings: TapSettings, extra_s: float) -> None:
    print(f"Quick lifts with two readers (the loop spends {extra_s * 1000:.1f} ms on the "
          f"readers per pass): lifts counted (target all)")
    for lift_s in ((0.40, 0.40), (0.40, 0.45), (0.45, 0.6)):
        rng = random.Random(seed)
        spans = lifts(n, rng, "04A1B2C3D4E5F6", lift_s)
        counts, _ = count_taps(spans, detect(timeline(spans, rng,
                                                       clock=PollClock(extra_s=extra_s)),
                                              settings))
        label = f"{lift_s[0]:.2f} s" if lift_s[0] == lift_s[1] else \
            f"{lift_s[0]:.2f}-{lift_s[1]:.2f} s"
        print(f"  lifted {label:11}  {n - 1 - counts[1:].count(0)} of {n - 1}")


def end_to_end(n: int, seed: int, settings: TapSettings) -> None:
    """Two emulated readers polled in turn as the table's loop does (one time stamp per
    pass, then ``poll_s``); a token on reader A is lifted for 0.40-0.45 s between rests of
    0.3-2 s, reader B holds a resting token. Glitches on both chips: 3 % lost answers, 2 %
    flipped bits, 1 % parity errors (about 9 % of reads lost)."""
    clock = VirtualClock()
    chips = {(0, d): Mfrc522Chip(clock, glitches=Glitches(drop=0.03, flip=0.02, parity=0.01,
                                                          seed=seed + d)) for d in (0, 1)}
    rng = random.Random(seed)
    spans, t = [], 0.5
    for _ in range(n):
        rest = rng.uniform(0.3, 2.0)
        spans.append(Placement(UID7, t, t + rest))
        t += rest + rng.uniform(0.40, 0.45)
    taps: list[Sample] = []
    b_taps = 0
    with pi_modules(chips):
        readers = [Mfrc522Reader(0, d, 25, sleep=clock.sleep) for d in (0, 1)]
        detectors = [TapDetector(settings), TapDetector(settings)]
        for reader in readers:
            reader.open()
        chips[(0, 1)].place("04B0B1B2B3B4B5")
        on, k, passes = False, 0, 0
        while clock.time() < t:
            now = clock.time()
            while k < len(spans) and now >= spans[k].end:
                k += 1
            want = k < len(spans) and now >= spans[k].start
            if want != on:
                (chips[(0, 0)].place if want else chips[(0, 0)].remove)(UID7)
                on = want
            for i, (reader, detector) in enumerate(zip(readers, detectors, strict=True)):
                uid = reader.read_uid()
                if detector.feed(now, uid):
                    if i == 0:
                        taps.append((now, uid))
                    else:
                        b_taps += 1
            passes += 1
            clock.sleep(settings.poll_s)
        for reader in readers:
            reader.close()
    counts, stray = count_taps(spans, taps)
    print(f"End to end, two emulated readers (9 % of reads lost): {n} placements on reader A "
          f"lifted for 0.40-0.45 s (a pass every {t / passes * 1000:.0f} ms)")
    print(f"  placements counted: {n - counts.count(0)} of {n}   duplicates: "
          f"{sum(c - 1 for c in counts if c > 1) + stray}   taps of B's resting token: "
          f"{b_taps} (target 1)")


def driver_figures(reads: int, seed: int) -> None:
    print(f"Never a wrong UID: noisy reads on the emulated chip ({reads} for the adapter; "
          f"5 % lost answers, 5 % flipped bits, 2 % each of parity-blind, BCC-blind and "
          f"parity-bit errors; a quarter of the time two tags in the field)")
    print(f"  {'driver':22} {'reads':>6} {'right':>6} {'wrong':>6} {'none':>6} "
          f"{'errors':>6} {'damaged SELECTs':>16}")
    for driver in (Mfrc522Reader, *PROTOCOL, *CHECKS):
        n = reads if driver in (Mfrc522Reader, *CHECKS) else min(reads, 500)
        tally = noisy_reads(driver, n, seed)
        if tally.refused_at_open:
            print(f"  {driver.__name__:22} refused at open: {tally.refused_at_open}")
            continue
        print(f"  {driver.__name__:22} {n:6} {tally.right:6} {tally.wrong:6} {tally.nothing:6} "
              f"{tally.errors:6} {tally.refused_selects:16}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--placements", type=int, default=10_000)
    parser.add_argument("--hours", type=float, default=20.0)
    parser.add_argument("--neighbours", type=int, default=1000)
    parser.add_argument("--lifts", type=int, default=1000)
    parser.add_argument("--end-to-end", type=int, default=300)
    parser.add_argument("--reads", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    settings = TapSettings()
    empty_s = spi_figures()
    tap_figures(args.placements, args.seed, settings)
    edge_figures(args.hours, args.seed, settings, 2 * empty_s)
    weak_placement_figures(2000, args.seed, settings)
    neighbour_figures(args.neighbours, args.seed, settings)
    emulated_neighbours(args.neighbours // 5, args.seed, settings)
    lift_figures(args.lifts, args.seed, settings, 2 * empty_s)
    end_to_end(args.end_to_end, args.seed, settings)
    driver_figures(args.reads, args.seed)


if __name__ == "__main__":
    main()
