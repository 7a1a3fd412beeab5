"""The emulator reproduces the library's real behaviour (so the adapter's fixes mean something)."""

from hardware.crc import bcc, crc_a
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
        clock.sleep(0.002)  # the crystal starts: the library's own init was lost meanwhile
        lib.MFRC522_Init()
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


# -- as strict as the datasheet --------------------------------------------------------------
COMMAND, COMM_IRQ, FIFO_DATA, BIT_FRAMING = 0x01, 0x04, 0x09, 0x0D
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, TX_CONTROL = 0x2A, 0x2B, 0x2C, 0x2D, 0x14
TX, RX, IDLE, TIMER = 0x40, 0x20, 0x10, 0x01


def write(chip: Mfrc522Chip, addr: int, *values: int, hz: int = 1_000_000) -> None:
    chip.xfer2([(addr << 1) & 0x7E, *values], hz)


def read(chip: Mfrc522Chip, addr: int, hz: int = 1_000_000) -> int:
    return chip.xfer2([((addr << 1) & 0x7E) | 0x80, 0], hz)[1]


def ready_chip(clock: VirtualClock, timer_ticks: int = 20, prescaler: int = 0xD3E) -> Mfrc522Chip:
    chip = Mfrc522Chip(clock)
    write(chip, T_MODE, 0x80 | prescaler >> 8)
    write(chip, T_PRESCALER, prescaler & 0xFF)
    write(chip, T_RELOAD_H, timer_ticks >> 8)
    write(chip, T_RELOAD_L, timer_ticks & 0xFF)
    write(chip, TX_CONTROL, 0x83)  # antenna on
    return chip


def transceive(chip: Mfrc522Chip, clock: VirtualClock, frame: list[int], last_bits: int) -> int:
    write(chip, COMMAND, 0x00)
    write(chip, COMM_IRQ, 0x7F)
    write(chip, FIFO_DATA, *frame)
    write(chip, BIT_FRAMING, last_bits)
    write(chip, COMMAND, 0x0C)
    write(chip, BIT_FRAMING, 0x80 | last_bits)
    clock.sleep(0.02)
    return read(chip, COMM_IRQ)


def test_an_answer_to_transceive_sets_rx_irq_never_idle_irq(clock: VirtualClock) -> None:
    chip = ready_chip(clock)
    chip.place("DEADBEEF")
    irq = transceive(chip, clock, [0x52], 7)
    assert irq & RX and irq & TX and not irq & IDLE and not irq & TIMER
    assert read(chip, COMMAND) & 0x0F == 0x0C  # Transceive goes on until told otherwise


def test_transmit_ends_by_itself_with_idle_irq(clock: VirtualClock) -> None:
    chip = ready_chip(clock)
    write(chip, FIFO_DATA, 0x50, 0x00, 0x57, 0xCD)
    write(chip, COMMAND, 0x04)
    clock.sleep(0.001)
    assert read(chip, COMM_IRQ) & (TX | IDLE) == TX | IDLE


def test_an_unknown_command_goes_idle_with_idle_irq(clock: VirtualClock) -> None:
    chip = ready_chip(clock)
    write(chip, COMM_IRQ, 0x7F)
    write(chip, COMMAND, 0x05)
    assert read(chip, COMM_IRQ) & IDLE and read(chip, COMMAND) & 0x0F == 0


def test_the_timer_fires_on_silence_and_stops_when_a_tag_answers(clock: VirtualClock) -> None:
    chip = ready_chip(clock)
    assert transceive(chip, clock, [0x52], 7) & (TIMER | RX) == TIMER
    chip.place("DEADBEEF")
    assert transceive(chip, clock, [0x52], 7) & (TIMER | RX) == RX


def test_a_timer_shorter_than_the_reply_time_fires_although_a_tag_answers(
        clock: VirtualClock) -> None:
    chip = ready_chip(clock, timer_ticks=1, prescaler=0)  # 0.15 us
    chip.place("DEADBEEF")
    assert transceive(chip, clock, [0x52], 7) & TIMER


def test_a_select_sent_with_tx_last_bits_7_is_garbled(clock: VirtualClock) -> None:
    chip = ready_chip(clock)
    chip.place("DEADBEEF")
    assert transceive(chip, clock, [0x52], 7) & RX
    assert not transceive(chip, clock, [0x93, 0x20], 7) & RX  # 15 bits: no tag answers
    assert transceive(chip, clock, [0x52], 7) & RX  # back to IDLE, so WUPA wakes it


def test_spi_above_10_mhz_loses_writes_and_reads_noise(clock: VirtualClock) -> None:
    chip = ready_chip(clock)
    write(chip, T_RELOAD_L, 0x42, hz=20_000_000)
    assert read(chip, T_RELOAD_L) == 20
    assert chip.garbled == 1
    write(chip, T_RELOAD_L, 0x42, hz=10_000_000)
    assert read(chip, T_RELOAD_L) == 0x42


def test_nrstpd_low_is_power_down_and_its_rising_edge_a_reset(clock: VirtualClock) -> None:
    chip = Mfrc522Chip(clock, rst_pin=25)
    with pi_modules({(0, 0): chip}) as gpio:
        assert read(chip, 0x37) == 0x00  # the pin is not driven: pull-down, power-down
        gpio.setmode(gpio.BCM)
        gpio.setup(25, gpio.OUT)
        gpio.output(25, 1)
        assert read(chip, 0x37) == 0x92
        write(chip, T_RELOAD_L, 0x42)
        gpio.output(25, 0)
        write(chip, T_RELOAD_L, 0x10)  # lost: the chip is powered down
        gpio.output(25, 1)
        assert read(chip, T_RELOAD_L) == 0x00  # reset to its default


def test_a_board_numbered_driver_reaches_nrstpd_by_its_physical_pin(clock: VirtualClock) -> None:
    chip = Mfrc522Chip(clock, rst_pin=25)
    with pi_modules({(0, 0): chip}) as gpio:
        gpio.setmode(gpio.BOARD)
        gpio.setup(22, gpio.OUT)  # physical pin 22 is GPIO25
        gpio.output(22, 1)
        assert chip.powered
        gpio.cleanup(22)
        assert chip.floating  # RPi.GPIO's cleanup leaves the pin an input without pull



def test_a_10_byte_tag_goes_through_three_cascade_levels() -> None:
    tag = Tag("04A1B2C3D4E5F60708A9")
    assert tag.receive([0x52], 7) == [0x84, 0x00]  # ATQA: triple-size UID
    for sel, part, sak in ((0x93, [0x88, 0x04, 0xA1, 0xB2], 0x04),
                           (0x95, [0x88, 0xC3, 0xD4, 0xE5], 0x04),
                           (0x97, [0xF6, 0x07, 0x08, 0xA9], 0x00)):
        whole = [*part, bcc(part)]
        assert tag.receive([sel, 0x20], 0) == whole
        frame = [sel, 0x70, *whole]
        assert tag.receive([*frame, *crc_a(frame)], 0) == [sak, *crc_a([sak])]
    assert tag.state == "ACTIVE"


def test_writes_are_lost_while_the_crystal_starts(clock: VirtualClock) -> None:
    chip = Mfrc522Chip(clock, rst_pin=25)
    with pi_modules({(0, 0): chip}) as gpio:
        gpio.setmode(gpio.BCM)
        gpio.setup(25, gpio.OUT)
        gpio.output(25, 1)
        assert read(chip, COMMAND) & 0x10  # PowerDown: still starting
        write(chip, T_RELOAD_L, 0x42)
        assert read(chip, T_RELOAD_L) == 0
        clock.sleep(0.002)
        assert not read(chip, COMMAND) & 0x10
        write(chip, T_RELOAD_L, 0x42)
        assert read(chip, T_RELOAD_L) == 0x42


def test_a_floating_reset_pin_resets_the_chip_at_random(clock: VirtualClock) -> None:
    chip = Mfrc522Chip(clock, rst_pin=25)
    with pi_modules({(0, 0): chip}) as gpio:
        gpio.setmode(gpio.BCM)
        gpio.setup(25, gpio.OUT)
        gpio.output(25, 1)
        gpio.cleanup(25)
        versions = {read(chip, 0x37) for _ in range(50)}
    assert versions == {0x00, 0x92}


def test_a_fifo_overflow_sets_buffer_ovfl_until_flushed(clock: VirtualClock) -> None:
    chip = ready_chip(clock)
    write(chip, FIFO_DATA, *range(65))
    assert read(chip, 0x0A) == 64 and read(chip, 0x06) & 0x10
    write(chip, 0x0A, 0x80)  # FlushBuffer
    assert read(chip, 0x0A) == 0 and not read(chip, 0x06) & 0x10


def test_colliding_answers_give_the_first_colliding_bit_in_coll_reg(clock: VirtualClock) -> None:
    chip = ready_chip(clock)
    chip.place("DEADBEEF")
    chip.place("DEADBEAF")  # the 4th byte differs in bit 4 (0xEF ^ 0xAF = 0x40 -> bit 7)
    assert transceive(chip, clock, [0x52], 7) & RX
    write(chip, 0x0E, 0x00)  # ValuesAfterColl = 0: bits after the collision cleared
    write(chip, 0x0A, 0x80)  # flush the ATQA
    assert transceive(chip, clock, [0x93, 0x20], 0) & RX
    assert read(chip, 0x06) & 0x08  # CollErr
    assert read(chip, 0x0E) & 0x3F == 31  # bit 31 of 40 (byte 4, bit 7 counted from 1)
    fifo = [read(chip, FIFO_DATA) for _ in range(5)]
    assert fifo[:3] == [0xDE, 0xAD, 0xBE] and fifo[3] == 0x2F and fifo[4] == 0
    # With bits 1-31 known (bit 31 chosen 1), only DEADBEEF answers, from bit 32 on.
    write(chip, 0x0E, 0x00)
    frame = [0x93, 0x57, 0xDE, 0xAD, 0xBE, 0x6F]  # NVB: 5 whole bytes and 7 bits
    write(chip, COMM_IRQ, 0x7F)
    write(chip, 0x0A, 0x80)
    write(chip, FIFO_DATA, *frame)
    write(chip, COMMAND, 0x0C)
    write(chip, BIT_FRAMING, 0x80 | 0x70 | 0x07)  # StartSend, RxAlign 7, TxLastBits 7
    clock.sleep(0.002)
    assert read(chip, COMM_IRQ) & RX and not read(chip, 0x06) & 0x08
    rest = [read(chip, FIFO_DATA) for _ in range(2)]
    assert rest[0] == 0xEF & 0x80 and rest[1] == bcc([0xDE, 0xAD, 0xBE, 0xEF])
