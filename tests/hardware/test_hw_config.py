import pytest

from hardware.config import HardwareConfigError, load_hardware_config


def test_empty_table_gives_one_table_reader_on_ce0_and_i2c_oled() -> None:
    cfg = load_hardware_config({})
    assert [(r.role, r.bus, r.device, r.rst_pin) for r in cfg.readers] == [("table", 0, 0, 25)]
    assert (cfg.display.i2c_port, cfg.display.i2c_address) == (1, 0x3C)
    assert cfg.taps.removal_s == pytest.approx(0.38) and cfg.taps.removal_polls == 6


def test_two_readers_with_roles() -> None:
    cfg = load_hardware_config({"readers": [{"role": "bank"}, {"role": "catch", "device": 1}],
                                "taps": {"removal_ms": 400, "poll_ms": 40, "removal_polls": 8}})
    assert [(r.role, r.device) for r in cfg.readers] == [("bank", 0), ("catch", 1)]
    assert cfg.taps.poll_s == pytest.approx(0.04) and cfg.taps.removal_polls == 8


@pytest.mark.parametrize(("raw", "message"), [
    ({"readers": [{"role": "a"}, {"role": "a", "device": 1}]}, "roles must differ"),
    ({"readers": [{"role": "a"}, {"role": "b"}]}, "same bus and device"),
    ({"readers": [{"role": "a", "kind": "pn532"}]}, r"kind must be one of"),
    ({"buttons": {"ok": 16}}, "already used by"),
    ({"buttons": {"prev": 2}}, "I2C1 SDA"),
    ({"feedback": {"red": 8}}, "SPI0 CE0"),
    ({"buttons": {"ok": 40}}, "0..27"),
    ({"display": {"i2c_address": "0x3C"}}, "i2c_address"),
    ({"display": {"colour": "blue"}}, "unknown key"),
    ({"taps": {"removal_ms": 20, "poll_ms": 50}}, "poll_s < removal_s"),
    ({"taps": {"removal_polls": 1.5}}, "removal_polls must be an integer"),
    ({"taps": {"poll_ms": 100}}, "must not exceed removal_s"),
    ({"readers": [{"role": "a", "spi_hz": 20_000_000}]}, r"spi_hz must be an integer"),
    ({"readers": [{"role": "a", "gain_db": 40}]}, "gain_db must be one of 18, 23, 33"),
    ({"readers": [{"role": "a", "timeout_ms": 0}]}, "timeout_ms"),
    ({"buttons": {"press_ms": 1}}, "press_ms"),
])
def test_bad_values_are_named(raw: dict, message: str) -> None:
    with pytest.raises(HardwareConfigError, match=message):
        load_hardware_config(raw)


def test_the_readers_spi_speed_gain_and_timeout_reach_the_chip() -> None:
    """Long wires want a slower SPI clock, a weak antenna more gain: the config sets them."""
    from hardware.emulator import Mfrc522Chip, VirtualClock, pi_modules
    from hardware.table import TableHardware

    chip = Mfrc522Chip(VirtualClock())
    cfg = {"readers": [{"role": "table", "spi_hz": 500_000, "gain_db": 48,
                        "timeout_ms": 20}], "display": {"kind": "none"},
           "buttons": {"kind": "none"}, "feedback": {"kind": "none"}}
    with pi_modules({(0, 0): chip}):
        table = TableHardware.from_config(cfg, lambda r, u: None, lambda a, x: None)
        try:
            reader = table._slots["table"].reader
            reader.open()
            assert reader.spi_hz == 500_000  # type: ignore[attr-defined]
            assert chip.regs[0x26] == 0x70  # RxGain 48 dB
            ticks = chip.regs[0x2C] << 8 | chip.regs[0x2D]
            assert 38 <= ticks <= 40  # 20 ms at ~0.5 ms a tick
        finally:
            table.stop()


def test_a_second_reader_on_spi1_has_its_own_miso_and_its_pins_are_guarded() -> None:
    """Two RC522 boards sharing SPI0's MISO corrupt each other (cheap boards do not release
    it; miguelbalboa/rfid #290, #377): the second goes on SPI1 (dtoverlay=spi1-1cs), whose
    pins the config now refuses for anything else (a LED on SPI1's MISO was accepted)."""
    from hardware.emulator import Mfrc522Chip, VirtualClock, pi_modules
    from hardware.table import TableHardware

    two = {"readers": [{"role": "bank"}, {"role": "catch", "bus": 1, "device": 0,
                                          "rst_pin": 24}]}
    for pins, words in (({"feedback": {"green": 19}}, "SPI1 MISO"),
                        ({"buttons": {"ok": 18}}, "SPI1 CE0"),
                        ({"feedback": {"buzzer": 21}}, "SPI1 SCLK")):
        with pytest.raises(HardwareConfigError, match=words):
            load_hardware_config({**two, **pins})
    cfg = {**two, "display": {"kind": "none"}, "buttons": {"kind": "none"},
           "feedback": {"kind": "none"}}
    assert [(r.bus, r.device, r.rst_pin) for r in load_hardware_config(cfg).readers] == [
        (0, 0, 25), (1, 0, 24)]
    clock, taps = VirtualClock(), []
    bank, catch = Mfrc522Chip(clock), Mfrc522Chip(clock, rst_pin=24)
    with pi_modules({(0, 0): bank, (1, 0): catch}):
        table = TableHardware.from_config(cfg, lambda r, u: taps.append((r, u)),
                                          lambda a, x: None, clock=clock.time)
        for slot in table._slots.values():
            slot.reader._sleep = clock.sleep  # type: ignore[attr-defined]
        try:
            bank.place("04A1B2C3D4E5F6")
            catch.place("DEADBEEF")
            for _ in range(10):
                table.poll_once()
                clock.sleep(0.05)
        finally:
            table.stop()
    assert sorted(taps) == [("bank", "04A1B2C3D4E5F6"), ("catch", "DEADBEEF")]
