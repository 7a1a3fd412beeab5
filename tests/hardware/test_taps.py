import pytest

from hardware.taps import TapDetector, TapSettings

UID = "04A1B2C3D4E5F6"


def run(samples: list[tuple[float, str | None]]) -> list[str]:
    detector = TapDetector(TapSettings(removal_s=0.3, poll_s=0.05))
    return [t for time, uid in samples if (t := detector.feed(time, uid))]


def test_tag_lying_on_the_reader_is_one_tap() -> None:
    assert run([(i * 0.05, UID) for i in range(200)]) == [UID]


def test_missed_reads_shorter_than_the_window_are_not_a_removal() -> None:
    samples = [(i * 0.05, None if i % 7 in (3, 4, 5) else UID) for i in range(100)]
    assert run(samples) == [UID]


def test_quick_genuine_retap_counts_again() -> None:
    on = [(i * 0.05, UID) for i in range(6)]
    off = [(0.3 + i * 0.05, None) for i in range(8)]  # lifted for 0.4 s
    back = [(0.7 + i * 0.05, UID) for i in range(6)]
    assert run(on + off + back) == [UID, UID]


def test_swapping_tokens_is_a_tap_for_the_new_one() -> None:
    assert run([(0.0, UID), (0.05, UID), (0.1, "DEADBEEF")]) == [UID, "DEADBEEF"]


def test_removal_must_outlast_a_poll() -> None:
    with pytest.raises(ValueError):
        TapSettings(removal_s=0.05, poll_s=0.1)
