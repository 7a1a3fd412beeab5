"""MFRC522 reader adapter: full 4/7-byte UIDs, a wait that stops at the chip's timer.

It wraps ``mfrc522.MFRC522`` (0.0.7) for what that does right (SPI set-up, reset pin,
``MFRC522_Init``, register access) and replaces the rest:

- the library's wait loop ignores ``TimerIRq`` (``~`` on booleans is always true) and spins
  2,000 SPI reads on an empty poll; :meth:`Mfrc522Reader._transceive` stops at the timer bit
  and sleeps between reads, so an empty poll is about 27 transfers;
- the library stops after cascade level 1, so a 7-byte UID (NTAG21x) comes back as
  ``88 b0 b1 b2``; :meth:`Mfrc522Reader.read_uid` runs cascade level 2 (SEL 0x95) too;
- the library's close calls ``GPIO.cleanup()`` on every pin; :meth:`close` frees only the
  reset pin, and only when no other open reader shares it.

A read wakes the tag with WUPA and halts it afterwards (HLTA), so a tag resting on the reader
answers every poll instead of every other one. ``RPi.GPIO``, ``spidev`` and ``mfrc522`` are
imported by :meth:`open`, never at module import.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Callable
from typing import Any, Protocol

from hardware.crc import bcc, crc_a

log = logging.getLogger(__name__)

COMMAND, COMM_IRQ, ERROR, FIFO_DATA, FIFO_LEVEL = 0x01, 0x04, 0x06, 0x09, 0x0A
CONTROL, BIT_FRAMING, T_RELOAD_H, T_RELOAD_L, VERSION = 0x0C, 0x0D, 0x2C, 0x2D, 0x37
CMD_IDLE, CMD_TRANSMIT, CMD_TRANSCEIVE = 0x00, 0x04, 0x0C
TX_IRQ, RX_IRQ, IDLE_IRQ, TIMER_IRQ = 0x40, 0x20, 0x10, 0x01
ERRORS = 0x1B  # BufferOvfl, CollErr, ParityErr, ProtocolErr
COLL_ERR = 0x08
WUPA, HLTA, SEL_CL = 0x52, 0x50, (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
TIMER_TICK_S = (2 * 0xD3E + 1) / 13.56e6  # the prescaler MFRC522_Init sets: ~0.5 ms
MAX_SPI_HZ = 10_000_000  # MFRC522 datasheet: SPI up to 10 Mbit/s

_rst_users: weakref.WeakKeyDictionary[Any, dict[int, int]] = weakref.WeakKeyDictionary()
"""GPIO module -> reset pin -> open readers using it. Keyed by the module object itself (not
its id(), which a later module may reuse once the first is gone)."""


def _level_part(uid: list[int], level: int) -> list[int]:
    """The four bytes and BCC a tag with ``uid`` answers at cascade ``level`` (0, 1)."""
    if len(uid) == 4:
        part = uid if level == 0 else []
    else:
        part = [CASCADE_TAG, *uid[:3]] if level == 0 else uid[3:7]
    return [*part, bcc(part)]


class ReaderError(RuntimeError):
    """A reader is missing or stopped answering (not: no tag in the field)."""


class TagReader(Protocol):
    """What the polling loop needs from a reader, real or fake."""

    def open(self) -> None: ...

    def read_uid(self) -> str | None: ...

    def close(self) -> None: ...


class Mfrc522Reader:
    """One MFRC522 on SPI ``bus``/``device`` (chip select CE``device``), reset on ``rst_pin``.

    ``rst_pin`` is a BCM number. ``timeout_s`` is the chip's receive timeout, ``irq_poll_s``
    the pause between interrupt-register reads. ``sleep`` is injectable for the emulator.
    """

    def __init__(
        self,
        bus: int = 0,
        device: int = 0,
        rst_pin: int = 25,
        *,
        spi_hz: int = 1_000_000,
        timeout_s: float = 0.010,
        irq_poll_s: float = 0.001,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not 0 < spi_hz <= MAX_SPI_HZ:
            raise ValueError(f"spi_hz must be 1..{MAX_SPI_HZ} (the MFRC522's SPI limit), "
                             f"got {spi_hz}")
        self.bus, self.device, self.rst_pin = bus, device, rst_pin
        self.spi_hz = spi_hz
        self.timeout_s = timeout_s
        self.irq_poll_s = irq_poll_s
        self._sleep = sleep
        self._chip: Any = None
        self._gpio: Any = None
        self._max_polls = int(3 * timeout_s / irq_poll_s) + 5
        self._unsure = True  # the last read failed: a tag may be stuck in READY
        self._damaged = False  # the last frame got an answer, but a damaged one
        self._collided = False  # an answer had a collision: more than one tag answered
        self._last: list[int] | None = None  # the UID read last

    def __repr__(self) -> str:
        return f"Mfrc522Reader(bus={self.bus}, device={self.device}, rst_pin={self.rst_pin})"

    @property
    def where(self) -> str:
        return f"SPI{self.bus} CE{self.device}"

    # -- life cycle ---------------------------------------------------------------------
    def open(self) -> None:
        """Reset and initialise the chip; raise ReaderError if nothing answers."""
        if self._chip is not None:
            return
        try:
            import RPi.GPIO as GPIO  # noqa: N814 - the module's own name
            from mfrc522 import MFRC522
        except (ImportError, RuntimeError) as exc:
            raise ReaderError(f"cannot load the MFRC522 driver: {exc}") from exc
        mode = GPIO.getmode()
        if mode is None:
            GPIO.setmode(GPIO.BCM)
        elif mode != GPIO.BCM:
            raise ReaderError("GPIO is in BOARD numbering; the reader needs BCM pin numbers")
        try:
            chip = MFRC522(bus=self.bus, device=self.device, spd=self.spi_hz,
                           pin_mode=GPIO.BCM, pin_rst=self.rst_pin)
        except OSError as exc:
            raise ReaderError(f"no SPI device for {self.where} (is SPI enabled?): {exc}") from exc
        handlers = chip.logger.handlers
        if len(handlers) > 1:  # the library adds a StreamHandler per instance
            chip.logger.removeHandler(handlers[-1])
        self._chip, self._gpio = chip, GPIO
        users = _rst_users.setdefault(GPIO, {})
        users[self.rst_pin] = users.get(self.rst_pin, 0) + 1
        version = self._read(VERSION)
        if version in (0x00, 0xFF):
            self.close()
            raise ReaderError(f"no MFRC522 answers on {self.where} (version 0x{version:02X})")
        ticks = max(1, round(self.timeout_s / TIMER_TICK_S) - 1)
        self._write(T_RELOAD_H, ticks >> 8)
        self._write(T_RELOAD_L, ticks & 0xFF)
        log.info("MFRC522 version 0x%02X on %s", version, self.where)

    def close(self) -> None:
        """Close SPI and free the reset pin unless another open reader still uses it."""
        chip, self._chip = self._chip, None
        if chip is None:
            return
        try:
            chip.spi.close()
        finally:
            users = _rst_users.setdefault(self._gpio, {})
            left = users.get(self.rst_pin, 1) - 1
            if left <= 0:
                users.pop(self.rst_pin, None)
                self._gpio.cleanup(self.rst_pin)
            else:
                users[self.rst_pin] = left

    # -- reading ------------------------------------------------------------------------
    def read_uid(self) -> str | None:
        """The UID of the tag in the field as upper-case hex, or None if none reads cleanly.

        Raises ReaderError if the chip itself stops answering.
        """
        if self._chip is None:
            raise ReaderError(f"reader on {self.where} is not open")
        if self._unsure:
            # The last read failed: a tag whose answer got lost may wait in READY and would
            # ignore WUPA. An unexpected frame (HLTA, sent without waiting) puts it to IDLE.
            self._halt()
        uid = None
        for _ in range(2):
            answered, uid = self._select()
            if uid is not None or not answered:
                break
            self._halt()  # a tag answered but a later frame was damaged: retry once
        self._unsure = uid is None
        return uid

    def _select(self) -> tuple[bool, str | None]:
        """(a tag answered WUPA, its full UID or None); halts the tag after a clean read.

        When the anticollision answers collide (two tags in the field), the tag read last is
        selected by its UID directly (ISO/IEC 14443-3 allows a SELECT of a known UID): only
        that tag can answer it, with a SAK the CRC_A checks, so a token resting on the reader
        keeps reading while a neighbour shares the field.
        """
        self._damaged = self._collided = False
        atqa = self._transceive([WUPA], tx_last_bits=7)
        if atqa is None or len(atqa) != 2:
            return self._damaged, None
        uid = self._cascade()
        if uid is None and self._collided and self._last is not None:
            uid = self._cascade(self._last)
        if uid is None:
            return True, None
        self._halt()
        self._last = uid
        return True, bytes(uid).hex().upper()

    def _cascade(self, known: list[int] | None = None) -> list[int] | None:
        """Anticollision and SELECT through the cascade levels (or SELECT ``known``)."""
        uid: list[int] = []
        for level, sel in enumerate(SEL_CL):
            if known is None:
                part = self._transceive([sel, 0x20])
                if part is None or not self._uid_part_ok(part):
                    return None
            else:
                part = _level_part(known, level)
            frame = [sel, 0x70, *part]
            sak = self._transceive([*frame, *crc_a(frame)])
            if sak is None or not self._sak_ok(sak):
                return None
            if not sak[0] & 0x04:
                uid += part[:4]
                break
            if part[0] != CASCADE_TAG:
                return None
            uid += part[1:4]
        else:
            return None
        return uid if known is None or uid == known else None

    @staticmethod
    def _uid_part_ok(part: list[int]) -> bool:
        """An anticollision answer: four UID bytes and their BCC."""
        return len(part) == 5 and bcc(part[:4]) == part[4]

    @staticmethod
    def _sak_ok(sak: list[int]) -> bool:
        """A SELECT answer: SAK and its CRC_A."""
        return len(sak) == 3 and crc_a(sak[:1]) == sak[1:]

    def _frame_errors(self) -> int:
        """The receive errors the chip flagged (BufferOvfl, CollErr, ParityErr, ProtocolErr)."""
        return self._read(ERROR) & ERRORS

    def _halt(self) -> None:
        """Send HLTA without waiting for the answer a halted tag never gives."""
        self._start([HLTA, 0x00, *crc_a([HLTA, 0x00])], CMD_TRANSMIT, 0)
        for _ in range(self._max_polls):
            if self._read(COMM_IRQ) & (TX_IRQ | IDLE_IRQ):
                return
            self._sleep(self.irq_poll_s)

    def _start(self, data: list[int], command: int, tx_last_bits: int) -> None:
        self._write(COMMAND, CMD_IDLE)
        self._write(COMM_IRQ, 0x7F)  # Set1=0: clear every interrupt bit
        self._write(FIFO_LEVEL, 0x80)  # flush
        self._chip.spi.xfer2([(FIFO_DATA << 1) & 0x7E, *data])  # burst write to the FIFO
        self._write(BIT_FRAMING, tx_last_bits)
        self._write(COMMAND, command)

    def _transceive(self, data: list[int], tx_last_bits: int = 0) -> list[int] | None:
        """Send a frame and return the answer, or None on timeout or a damaged answer."""
        self._start(data, CMD_TRANSCEIVE, tx_last_bits)
        self._write(BIT_FRAMING, 0x80 | tx_last_bits)  # StartSend
        pause = self.irq_poll_s / 5  # answers to short frames arrive within ~0.3 ms
        for _ in range(self._max_polls):
            irq = self._read(COMM_IRQ)
            if irq == 0xFF:
                raise ReaderError(f"reader on {self.where} reads all ones: disconnected?")
            if irq & RX_IRQ:  # Transceive never goes Idle by itself: RxIRq ends an answer
                break
            if irq & TIMER_IRQ:
                return None
            self._sleep(pause)
            pause = self.irq_poll_s
        else:
            raise ReaderError(f"reader on {self.where} stopped answering (no IRQ, no timer)")
        self._damaged = True
        errors = self._frame_errors()
        if errors:
            self._collided = self._collided or bool(errors & COLL_ERR)
            return None
        count = self._read(FIFO_LEVEL)
        if count == 0 or count > 64 or self._read(CONTROL) & 0x07:
            return None
        self._damaged = False
        reply = self._chip.spi.xfer2([((FIFO_DATA << 1) & 0x7E) | 0x80] * count + [0])
        return [int(b) for b in reply[1:]]

    def _read(self, addr: int) -> int:
        return int(self._chip.Read_MFRC522(addr))

    def _write(self, addr: int, value: int) -> None:
        self._chip.Write_MFRC522(addr, value)
