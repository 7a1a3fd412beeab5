"""The emulator reproduces the library's real behaviour (so the adapter's fixes mean something)."""

from hardware.emulator import FakeGPIO, Mfrc522Chip, Tag, VirtualClock, pi_modules


def test_tag_goes_through_both_cascade_levels_and_halts() -> None:
    tag = Tag("04A1B2C3D4E5F6")
    assert tag.receive([0x26], 7) == [0x44, 0x00]
    part1 = tag.receive([0x93, 0x20], 0)
    assert part1 == [0x88, 0x04, 0xA1, 0xB2, 0x88 ^ 0x04 ^ 0xA1 ^ 0xB2]


def test_active_tag_ignores_reqa_once_as_real_tags_do() -> None:
    tag = Tag("DEADBEEF")
    tag.state = "ACTIVE"
    assert tag.receive([0x26], 7) is None
    assert tag.receive([0x26], 7) == [0x04, 0x00]


def test_unpatched_library_spins_and_reads_only_level_one(clock: VirtualClock) -> None:
    chip = Mfrc522Chip(clock)
    with pi_modules({(0, 0): chip}):
        from mfrc522 import MFRC522

        lib = MFRC522(0, 0)
        chip.transfers = 0
        status, _ = lib.MFRC522_Request(lib.PICC_REQIDL)
        assert status == lib.MI_ERR
        assert chip.transfers > 1900  # the ~2,000-read wait loop
        chip.place("04A1B2C3D4E5F6")
        assert lib.MFRC522_Request(lib.PICC_REQIDL)[0] == lib.MI_OK
        status, uid = lib.MFRC522_Anticoll()
        assert uid[0] == 0x88  # cascade tag: the library stops at three UID bytes


def test_fake_gpio_records_a_full_cleanup() -> None:
    gpio = FakeGPIO()
    gpio.setmode(gpio.BCM)
    gpio.setup(17, gpio.OUT)
    gpio.cleanup()
    assert gpio.pins == {} and gpio.cleanup_calls == [None]


def test_missing_spi_device_fails_like_spidev() -> None:
    with pi_modules({}):
        import spidev

        dev = spidev.SpiDev()
        try:
            dev.open(0, 1)
        except FileNotFoundError as exc:
            assert "/dev/spidev0.1" in str(exc)
        else:
            raise AssertionError("open should fail without a chip")
