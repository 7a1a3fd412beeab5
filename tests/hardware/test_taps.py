"""What players notice: one tap per placement, whatever the reader does meanwhile."""

import random

import pytest

from hardware.taps import TapDetector, TapSettings

UID = "04A1B2C3D4E5F6"
POLL = 0.05


def run(samples: list[tuple[float, str | None]], settings: TapSettings | None = None) -> list[str]:
    detector = TapDetector(settings or TapSettings())
    return [t for time, uid in samples if (t := detector.feed(time, uid))]


def polls(start: float, end: float, uid: str | None,
          step: float = POLL) -> list[tuple[float, str | None]]:
    n = round((end - start) / step)
    return [(start + i * step, uid) for i in range(n)]


def test_defaults_sit_between_lost_reads_and_the_quickest_lift() -> None:
    s = TapSettings()
    assert (s.poll_s, s.removal_s, s.removal_polls) == (0.05, 0.38, 6)


def test_tag_lying_on_the_reader_is_one_tap() -> None:
    assert run(polls(0, 10, UID)) == [UID]


def test_a_burst_of_misses_is_not_a_removal() -> None:
    # 6 lost reads in a row (0.35 s silent): longer than the old 0.3 s window allowed
    samples = polls(0, 1, UID) + polls(1, 1.3, None) + polls(1.3, 2, UID)
    assert run(samples) == [UID]


def test_misses_all_the_time_are_not_removals() -> None:
    samples = [(i * POLL, None if i % 7 in (3, 4, 5, 6) else UID) for i in range(200)]
    assert run(samples) == [UID]


def test_a_stalled_poll_loop_is_not_a_removal() -> None:
    # the loop stalls for 0.5 s, then one read is lost: the tag never left
    samples = [(0.0, UID), (0.05, UID), (0.55, None), (0.6, UID), (0.65, UID)]
    assert run(samples) == [UID]


@pytest.mark.parametrize("step", [0.04, 0.05, 0.06])
def test_quick_genuine_retap_counts_again(step: float) -> None:
    # lifted for 0.4 s, the quickest lift-and-replace, whatever the poll jitter
    samples = polls(0, 0.3, UID, step) + polls(0.3, 0.7, None, step) + polls(0.7, 1.0, UID, step)
    assert run(samples) == [UID, UID]


def test_quick_retap_with_wobbly_edges_counts_again() -> None:
    going = [(0.30, None), (0.35, UID), (0.40, None)]  # half in the field on the way out
    coming = [(0.85, UID), (0.90, None), (0.95, UID)]  # and on the way back
    samples = polls(0, 0.3, UID) + going + polls(0.45, 0.85, None) + coming + polls(1, 1.5, UID)
    assert run(samples) == [UID, UID]


def test_swapping_tokens_is_a_tap_for_the_new_one() -> None:
    assert run([(0.0, UID), (0.05, UID), (0.1, "DEADBEEF")]) == [UID, "DEADBEEF"]


def test_noisy_resting_tags_and_quick_retaps_over_many_placements() -> None:
    rng = random.Random(7)
    samples: list[tuple[float, str | None]] = []
    t, expected = 0.0, 0
    for _ in range(300):
        start = t + rng.uniform(0.4, 0.8)  # off the pad, then back on
        end = start + rng.uniform(0.5, 2.0)
        expected += 1
        burst = 0
        while t < end:
            t += POLL * rng.uniform(0.8, 1.2)
            if t < start:
                seen = False
            elif burst:
                seen, burst = False, burst - 1
            elif rng.random() < 0.02:
                seen, burst = False, rng.randint(1, 3)  # up to 4 lost reads
            else:
                seen = rng.random() > 0.05
            samples.append((t, UID if seen and t < end else None))
    assert len(run(samples)) == expected


def test_reset_forgets_the_tag() -> None:
    detector = TapDetector()
    assert detector.feed(0.0, UID) == UID
    detector.reset()
    assert detector.present is None and detector.feed(0.05, UID) == UID


@pytest.mark.parametrize("kwargs", [
    {"removal_s": 0.05, "poll_s": 0.1},           # window shorter than a poll
    {"removal_polls": 0},
    {"removal_polls": 10},                        # 10 x 50 ms > 380 ms
    {"poll_s": 0.1, "removal_s": 0.38},           # 6 x 100 ms > 380 ms
])
def test_inconsistent_windows_are_refused(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        TapSettings(**kwargs)
