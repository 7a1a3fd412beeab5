from hardware.fake_reader import FakeReader


class Clock:
    t = 0.0

    def __call__(self) -> float:
        return self.t


def test_virtual_taps_queue_with_a_gap_between_them() -> None:
    clock = Clock()
    reader = FakeReader(hold_s=0.2, gap_s=0.4, clock=clock)
    reader.open()
    reader.tap("04aa")
    reader.tap("04aa")
    seen = []
    for i in range(20):
        clock.t = i * 0.05
        seen.append(reader.read_uid())
    assert seen[0] == "04AA" and seen[4] is None
    assert seen[12] == "04AA"  # second tap starts at 0.6 s


def test_placed_tag_stays_until_removed() -> None:
    reader = FakeReader()
    reader.open()
    reader.place("DEADBEEF")
    assert reader.read_uid() == "DEADBEEF"
    reader.remove()
    assert reader.read_uid() is None


def test_two_taps_stay_two_placements_when_the_poll_loop_is_starved() -> None:
    """A loaded machine polls late: each virtual tap is still read, and the gap between two
    taps of one tag still lasts long enough for the detector to see the lift (two taps)."""
    from hardware.taps import TapDetector

    clock = Clock()
    reader = FakeReader(clock=clock)
    reader.open()
    detector = TapDetector()
    reader.tap("04aa")
    reader.tap("04aa")
    taps = []
    for i in range(60):  # polled every 0.5 s: longer than a tap and than its gap
        clock.t = i * 0.5
        if detector.feed(clock.t, reader.read_uid()):
            taps.append(clock.t)
    assert len(taps) == 2
