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


def test_two_tags_put_down_at_once_read_as_one_of_them_whole(
    chip: Mfrc522Chip, clock: VirtualClock, gpio: FakeGPIO
) -> None:
    """Their answers collide: the collision is resolved bit by bit (CollReg), never mixed."""
    reader = open_reader(clock)
    chip.place("04A1B2C3D4E5F6")
    chip.place("04B1B2C3D4E5F6")
    assert [reader.read_uid() for _ in range(3)] == ["04B1B2C3D4E5F6"] * 3  # 0xB1: bit 4 is 1
    chip.remove("04B1B2C3D4E5F6")
    assert reader.read_uid() == "04A1B2C3D4E5F6"


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


NTAG, CLASSIC = "04A1B2C3D4E5F6", "DEADBEEF"


@pytest.mark.parametrize(("resting", "joining"), [(NTAG, CLASSIC), (CLASSIC, NTAG)])
def test_an_ntag_and_a_classic_share_a_reader(
    chip: Mfrc522Chip, clock: VirtualClock, gpio: FakeGPIO, resting: str, joining: str
) -> None:
    """Their ATQAs (0x0044, 0x0004) collide, as ISO 14443-3 expects: the resting token keeps
    reading when the other joins (it read None five times), and the other reads once it is
    lifted."""
    reader = open_reader(clock)
    chip.place(resting)
    assert reader.read_uid() == resting
    chip.place(joining)
    assert [reader.read_uid() for _ in range(5)] == [resting] * 5
    chip.remove(resting)
    assert reader.read_uid() == joining


def test_an_ntag_and_a_classic_put_down_together_read_as_one(
    chip: Mfrc522Chip, clock: VirtualClock, gpio: FakeGPIO
) -> None:
    reader = open_reader(clock)
    chip.place(NTAG)
    chip.place(CLASSIC)
    first = reader.read_uid()
    assert first in (NTAG, CLASSIC)
    chip.remove(first)
    assert reader.read_uid() == ({NTAG, CLASSIC} - {first}).pop()


TRIPLE = "04A1B2C3D4E5F60708A9"


def test_a_10_byte_uid_reads_whole_and_keeps_reading_beside_a_neighbour(
    chip: Mfrc522Chip, clock: VirtualClock, gpio: FakeGPIO
) -> None:
    """Three cascade levels; the select fallback of a resting tag covers them too."""
    reader = open_reader(clock)
    chip.place(TRIPLE)
    assert reader.read_uid() == TRIPLE
    chip.place(NTAG)
    assert [reader.read_uid() for _ in range(5)] == [TRIPLE] * 5
    chip.remove(TRIPLE)
    assert reader.read_uid() == NTAG


def test_the_reader_waits_for_the_crystal_after_the_reset_pin_rises(
    chip: Mfrc522Chip, clock: VirtualClock, gpio: FakeGPIO
) -> None:
    """The library drives RST high and writes its settings at once: the crystal is still
    starting and every write is lost (no timer, antenna off). The adapter waits for
    CommandReg.PowerDown to clear and sets the chip up itself, gain included."""
    reader = open_reader(clock, gain_db=48)
    assert chip.regs[0x2A] == 0x8D and chip.regs[0x14] & 0x03 == 0x03
    assert chip.regs[0x26] == 0x70
    chip.place(NTAG)
    assert reader.read_uid() == NTAG


def test_a_closed_reader_leaves_its_chip_powered_down_not_floating(
    chip: Mfrc522Chip, clock: VirtualClock, gpio: FakeGPIO
) -> None:
    """GPIO.cleanup leaves the reset pin an input without pull: the chip resets at random and
    its field may stay on. Closed, the pin is pulled low; reopened, the reader works."""
    reader = open_reader(clock)
    reader.close()
    assert not chip.floating and not chip.powered and not chip.field_on
    reader.open()
    chip.place(NTAG)
    assert reader.read_uid() == NTAG


def test_a_fifo_left_overflowing_by_another_driver_still_reads(
    chip: Mfrc522Chip, clock: VirtualClock, gpio: FakeGPIO
) -> None:
    reader = open_reader(clock)
    chip.xfer2([(0x09 << 1) & 0x7E, *range(70)])  # 70 bytes into the 64-byte FIFO
    assert chip.regs[0x06] & 0x10  # BufferOvfl
    chip.place(NTAG)
    assert reader.read_uid() == NTAG


def test_spi_speed_gain_and_timeout_are_checked() -> None:
    with pytest.raises(ValueError, match="gain_db"):
        Mfrc522Reader(gain_db=40)
    with pytest.raises(ValueError, match="spi_hz"):
        Mfrc522Reader(spi_hz=12_000_000)
