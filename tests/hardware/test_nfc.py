"""The real reader adapter against the emulated chip."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hardware.emulator import FakeGPIO, Glitches, Mfrc522Chip, VirtualClock, pi_modules
from hardware.nfc import Mfrc522Reader, ReaderError


def open_reader(clock: VirtualClock, **kw: object) -> Mfrc522Reader:
    reader = Mfrc522Reader(0, 0, 25, sleep=clock.sleep, **kw)  # type: ignore[arg-type]
    reader.open()
    return reader


def test_reads_7_byte_uid_in_full(chip: Mfrc522Chip, clock: VirtualClock, gpio: FakeGPIO) -> None:
    reader = open_reader(clock)
    chip.place("04A1B2C3D4E5F6")
    assert reader.read_uid() == "04A1B2C3D4E5F6"


def test_reads_4_byte_uid(chip: Mfrc522Chip, clock: VirtualClock, gpio: FakeGPIO) -> None:
    reader = open_reader(clock)
    chip.place("DEADBEEF")
    assert reader.read_uid() == "DEADBEEF"


def test_stickers_sharing_first_bytes_are_told_apart(
    chip: Mfrc522Chip, clock: VirtualClock, gpio: FakeGPIO
) -> None:
    reader = open_reader(clock)
    seen = []
    for uid in ("04A1B2C3D4E5F6", "04A1B2FFFFFFFF"):
        chip.remove()
        chip.place(uid)
        seen.append(reader.read_uid())
    assert seen == ["04A1B2C3D4E5F6", "04A1B2FFFFFFFF"]


def test_empty_poll_stops_at_the_chip_timer(
    chip: Mfrc522Chip, clock: VirtualClock, gpio: FakeGPIO
) -> None:
    reader = open_reader(clock)
    chip.transfers = 0
    assert reader.read_uid() is None
    assert chip.transfers <= 40


def test_resting_tag_is_read_on_every_poll(
    chip: Mfrc522Chip, clock: VirtualClock, gpio: FakeGPIO
) -> None:
    reader = open_reader(clock)
    chip.place("04A1B2C3D4E5F6")
    assert [reader.read_uid() for _ in range(10)] == ["04A1B2C3D4E5F6"] * 10


def test_noise_gives_misses_never_a_wrong_uid(clock: VirtualClock) -> None:
    chip = Mfrc522Chip(clock, glitches=Glitches(drop=0.05, flip=0.05, parity=0.05, seed=7))
    with pi_modules({(0, 0): chip}):
        reader = open_reader(clock)
        chip.place("04A1B2C3D4E5F6")
        reads = [reader.read_uid() for _ in range(300)]
    assert set(reads) == {"04A1B2C3D4E5F6", None}
    assert reads.count(None) < 150  # most reads survive: a glitch mid-read is retried


def test_two_different_tags_at_once_read_as_nothing(
    chip: Mfrc522Chip, clock: VirtualClock, gpio: FakeGPIO
) -> None:
    reader = open_reader(clock)
    chip.place("04A1B2C3D4E5F6")
    chip.place("04B1B2C3D4E5F6")
    assert reader.read_uid() is None


def test_close_frees_only_the_reset_pin(
    chip: Mfrc522Chip, clock: VirtualClock, gpio: FakeGPIO
) -> None:
    gpio.setmode(gpio.BCM)
    gpio.setup(17, gpio.OUT)  # someone else's pin
    reader = open_reader(clock)
    assert gpio.pins[25] == 1
    reader.close()
    assert 25 not in gpio.pins and 17 in gpio.pins
    assert None not in gpio.cleanup_calls


def test_shared_reset_pin_stays_until_last_reader_closes(clock: VirtualClock) -> None:
    chips = {(0, 0): Mfrc522Chip(clock), (0, 1): Mfrc522Chip(clock)}
    with pi_modules(chips) as gpio:
        a = Mfrc522Reader(0, 0, 25, sleep=clock.sleep)
        b = Mfrc522Reader(0, 1, 25, sleep=clock.sleep)
        a.open()
        b.open()
        a.close()
        assert 25 in gpio.pins
        b.close()
        assert 25 not in gpio.pins


def test_missing_spi_device_is_a_reader_error(clock: VirtualClock) -> None:
    with pi_modules({}):
        with pytest.raises(ReaderError, match="SPI0 CE1"):
            Mfrc522Reader(0, 1, sleep=clock.sleep).open()


def test_silent_chip_is_a_reader_error(chip: Mfrc522Chip, clock: VirtualClock,
                                       gpio: FakeGPIO) -> None:
    chip.unplug()
    with pytest.raises(ReaderError, match="no MFRC522"):
        open_reader(clock)
    assert 25 not in gpio.pins


def test_unplugged_while_polling_raises_instead_of_hanging(
    chip: Mfrc522Chip, clock: VirtualClock, gpio: FakeGPIO
) -> None:
    reader = open_reader(clock)
    chip.unplug()
    with pytest.raises(ReaderError, match="stopped answering"):
        reader.read_uid()


def test_importing_the_facade_loads_no_pi_driver() -> None:
    code = ("import sys, hardware.table, hardware.nfc; "
            "bad = [m for m in ('RPi', 'spidev', 'mfrc522') if m in sys.modules]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_resting_tag_keeps_reading_while_a_neighbour_collides_with_it(
    chip: Mfrc522Chip, clock: VirtualClock, gpio: FakeGPIO
) -> None:
    reader = open_reader(clock)
    chip.place("04A1B2C3D4E5F6")
    assert reader.read_uid() == "04A1B2C3D4E5F6"
    chip.place("04B1B2C3D4E5F6")  # a second token slides into the field
    assert [reader.read_uid() for _ in range(5)] == ["04A1B2C3D4E5F6"] * 5
    chip.remove("04A1B2C3D4E5F6")  # the first one is lifted: the neighbour reads alone
    assert reader.read_uid() == "04B1B2C3D4E5F6"
