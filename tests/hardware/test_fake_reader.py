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
