"""Broken variants of the reader adapter: each leaves out one thing the chip or the tag
needs. The emulator must refuse them (no reads, or an error) or show them returning wrong
UIDs; ``tests/hardware/test_driver_variants.py`` keeps each one failing and the bench
prints what each does over noisy reads.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hardware.emulator.chip import Glitches, Mfrc522Chip, VirtualClock
from hardware.emulator.fakes import pi_modules
from hardware.nfc import (
    BIT_FRAMING,
    COMM_IRQ,
    RX_IRQ,
    T_RELOAD_H,
    T_RELOAD_L,
    Mfrc522Reader,
    ReaderError,
)

T_MODE, T_PRESCALER = 0x2A, 0x2B


class TxLastBitsLeftAt7(Mfrc522Reader):
    """Sets TxLastBits = 7 for WUPA and never clears it: anticollision and SELECT go out
    with their last byte cut to 7 bits."""

    _kept = 0

    def _write(self, addr: int, value: int) -> None:
        if addr == BIT_FRAMING:
            self._kept |= value & 0x07
            value |= self._kept
        super()._write(addr, value)


class IdleIrqOnly(Mfrc522Reader):
    """Waits for IdleIRq to end a Transceive (it never does: only RxIRq or the timer)."""

    def _read(self, addr: int) -> int:
        value = super()._read(addr)
        return value & ~RX_IRQ if addr == COMM_IRQ else value


class ShortTimer(Mfrc522Reader):
    """Arms a 0.15 us timer (TPrescaler 0, TReload 1): it fires before any tag can answer."""

    def open(self) -> None:
        super().open()
        self._write(T_MODE, 0x80)  # TAuto, TPrescaler_Hi 0
        self._write(T_PRESCALER, 0)
        self._write(T_RELOAD_H, 0)
        self._write(T_RELOAD_L, 1)


class Spi20MHz(Mfrc522Reader):
    """Clocks SPI at 20 MHz, twice the MFRC522's limit (the adapter itself refuses that)."""

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.spi_hz = 20_000_000


class WrongResetPin(Mfrc522Reader):
    """Drives GPIO24 while the reader's RST (NRSTPD) is wired to GPIO25."""

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.rst_pin = 24


class NoBccCheck(Mfrc522Reader):
    """Takes an anticollision answer without checking its BCC."""

    @staticmethod
    def _uid_part_ok(part: list[int]) -> bool:
        return len(part) == 5


class NoSakCrcCheck(Mfrc522Reader):
    """Takes a SAK without checking its CRC_A."""

    @staticmethod
    def _sak_ok(sak: list[int]) -> bool:
        return len(sak) == 3


class NoErrorRegCheck(Mfrc522Reader):
    """Ignores ErrorReg (parity errors, collisions) and takes whatever the FIFO holds."""

    def _frame_errors(self) -> int:
        return 0


class NoChecks(NoBccCheck, NoSakCrcCheck, NoErrorRegCheck):
    """None of the three checks."""


PROTOCOL = (TxLastBitsLeftAt7, IdleIrqOnly, ShortTimer, Spi20MHz, WrongResetPin)
CHECKS = (NoBccCheck, NoSakCrcCheck, NoErrorRegCheck, NoChecks)


def noisy_glitches(seed: int) -> Glitches:
    """Trouble on the air for the "never a wrong UID" runs: 5 % lost answers, 5 % single
    flipped bits, 2 % each of double flips in a byte, same-bit flips in two bytes and hit
    parity bits."""
    return Glitches(drop=0.05, flip=0.05, flip2=0.02, flip_column=0.02, parity=0.02, seed=seed)


@dataclass
class Tally:
    """What a driver made of ``reads`` noisy reads."""

    reads: int = 0
    right: int = 0
    wrong: int = 0
    nothing: int = 0
    errors: int = 0
    refused_selects: int = 0
    refused_at_open: str = ""
    wrong_uids: tuple[str, ...] = ()


def noisy_reads(driver: type[Mfrc522Reader], reads: int, seed: int = 1) -> Tally:
    """``reads`` polls of ``driver`` on an emulated chip with :func:`noisy_glitches`; every
    20 polls the field gets new tags: one 4- or 7-byte tag, or (a quarter of the time) two;
    half the time the first tag stays (a token resting, a neighbour joining or not).

    A read is right if it is the UID of a tag in the field, wrong otherwise. A ReaderError
    counts as an error and the driver is reopened, as the table's poll loop does.
    """
    clock = VirtualClock()
    chip = Mfrc522Chip(clock, glitches=noisy_glitches(seed))
    rng = random.Random(seed)
    tally, wrong = Tally(reads=reads), []
    uids: list[str] = []
    with pi_modules({(0, 0): chip}):
        reader = driver(0, 0, 25, sleep=clock.sleep)
        try:
            reader.open()
        except ReaderError as exc:
            tally.refused_at_open = str(exc)
            return tally
        for i in range(reads):
            if i % 20 == 0:
                chip.remove()
                keep = uids[:1] if uids and rng.random() < 0.5 else []  # it stays
                total = 2 if rng.random() < 0.25 else 1  # with a neighbour, or alone
                uids = keep + [_random_uid(rng) for _ in range(total - len(keep))]
                for uid in uids:
                    chip.place(uid)
            try:
                got = reader.read_uid()
            except ReaderError:
                tally.errors += 1
                reader.close()
                try:
                    reader.open()
                except ReaderError:
                    pass
                continue
            if got is None:
                tally.nothing += 1
            elif got in uids:
                tally.right += 1
            else:
                tally.wrong += 1
                wrong.append(got)
        reader.close()
    tally.refused_selects = chip.refused_selects
    tally.wrong_uids = tuple(wrong)
    return tally


def _random_uid(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return bytes(rng.randrange(256) for _ in range(4)).hex().upper()
    return "04" + bytes(rng.randrange(256) for _ in range(6)).hex().upper()  # NXP NTAG
