"""Never a wrong UID: the adapter over 10,000 noisy reads, and every broken driver variant
refused by the emulated chip or caught returning wrong UIDs (so the emulator stays strict).

Seeded and in virtual time: the same reads every run, whatever the machine's speed.
"""

from __future__ import annotations

import pytest

from hardware.emulator.variants import (
    IdleIrqOnly,
    NoBccCheck,
    NoChecks,
    NoErrorRegCheck,
    NoSakCrcCheck,
    ShortTimer,
    Spi20MHz,
    TxLastBitsLeftAt7,
    WrongResetPin,
    noisy_reads,
)
from hardware.nfc import Mfrc522Reader

pytestmark = pytest.mark.long(2)


def test_adapter_never_returns_a_wrong_uid_over_10000_noisy_reads() -> None:
    tally = noisy_reads(Mfrc522Reader, 10_000, seed=1)
    assert tally.wrong == 0 and tally.errors == 0
    assert tally.refused_selects == 0  # it never sends a tag a damaged UID
    assert tally.right > 5000  # and still reads through the noise


@pytest.mark.parametrize("driver", [TxLastBitsLeftAt7, IdleIrqOnly, ShortTimer, Spi20MHz])
def test_drivers_the_chip_would_not_accept_never_read_a_tag(
        driver: type[Mfrc522Reader]) -> None:
    tally = noisy_reads(driver, 200, seed=2)
    assert tally.right == 0 and tally.wrong == 0


def test_a_reader_reset_on_the_wrong_pin_stays_powered_down() -> None:
    tally = noisy_reads(WrongResetPin, 10, seed=3)
    assert "no MFRC522 answers" in tally.refused_at_open


def test_waiting_for_idle_irq_in_transceive_hangs_until_the_loop_gives_up() -> None:
    assert noisy_reads(IdleIrqOnly, 100, seed=4).errors > 0


@pytest.mark.parametrize("driver", [NoSakCrcCheck, NoChecks])
def test_without_the_sak_crc_a_damaged_sak_cuts_a_7_byte_uid_short(
        driver: type[Mfrc522Reader]) -> None:
    tally = noisy_reads(driver, 3000, seed=1)
    assert tally.wrong > 0
    assert all(uid.startswith("8804") and len(uid) == 8 for uid in tally.wrong_uids)


@pytest.mark.parametrize("driver", [NoBccCheck, NoErrorRegCheck])
def test_without_bcc_or_error_checks_damaged_uids_reach_the_tag(
        driver: type[Mfrc522Reader]) -> None:
    """The tag's own SELECT check is the last line: these variants send it damaged UIDs
    (which it refuses) where the adapter stops at the BCC or the chip's parity flag."""
    tally = noisy_reads(driver, 2000, seed=1)
    assert tally.refused_selects > 0 and tally.wrong == 0


def test_adapter_refuses_an_spi_clock_above_the_chip_limit() -> None:
    with pytest.raises(ValueError, match="SPI limit"):
        Mfrc522Reader(spi_hz=20_000_000)
