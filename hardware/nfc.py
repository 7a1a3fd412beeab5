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
CONTROL, BIT_FRAMING, COLL, MODE, TX_CONTROL, TX_ASK = 0x0C, 0x0D, 0x0E, 0x11, 0x14, 0x15
RF_CFG, T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x26, 0x2A, 0x2B, 0x2C, 0x2D
VERSION = 0x37
CMD_IDLE, CMD_TRANSMIT, CMD_TRANSCEIVE, CMD_SOFT_RESET = 0x00, 0x04, 0x0C, 0x0F
POWER_DOWN = 0x10  # CommandReg: still starting up
TX_IRQ, RX_IRQ, IDLE_IRQ, TIMER_IRQ = 0x40, 0x20, 0x10, 0x01
ERRORS = 0x1B  # BufferOvfl, CollErr, ParityErr, ProtocolErr
COLL_ERR = 0x08
COLL_POS_NOT_VALID = 0x20
GAINS_DB = {18: 0, 23: 1, 33: 4, 38: 5, 43: 6, 48: 7}
"""RFCfgReg.RxGain: receiver gain in dB -> register value (2 and 3 repeat 18 and 23)."""
LAST_GONE_POLLS = 3
"""Polls in a row in which tags collide and the tag read last does not answer its SELECT
before the collision is resolved to read another tag."""
START_S = 0.1  # at most this long for the crystal to start (typically ~1 ms)
WUPA, HLTA, SEL_CL = 0x52, 0x50, (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
TIMER_TICK_S = (2 * 0xD3E + 1) / 13.56e6  # the prescaler MFRC522_Init sets: ~0.5 ms
MAX_SPI_HZ = 10_000_000  # MFRC522 datasheet: SPI up to 10 Mbit/s

_rst_users: weakref.WeakKeyDictionary[Any, dict[int, int]] = weakref.WeakKeyDictionary()
"""GPIO module -> reset pin -> open readers using it. Keyed by the module object itself (not
its id(), which a later module may reuse once the first is gone)."""


def _level_part(uid: list[int], level: int) -> list[int]:
    """The four bytes and BCC a tag with ``uid`` answers at cascade ``level`` (0, 1, 2)."""
    parts = {4: [uid], 7: [[CASCADE_TAG, *uid[:3]], uid[3:7]],
             10: [[CASCADE_TAG, *uid[:3]], [CASCADE_TAG, *uid[3:6]], uid[6:10]]}
    levels = parts.get(len(uid), [])
    part = levels[level] if level < len(levels) else []
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
        gain_db: int = 33,
        irq_poll_s: float = 0.001,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not 0 < spi_hz <= MAX_SPI_HZ:
            raise ValueError(f"spi_hz must be 1..{MAX_SPI_HZ} (the MFRC522's SPI limit), "
                             f"got {spi_hz}")
        if gain_db not in GAINS_DB:
            raise ValueError(f"gain_db must be one of {sorted(GAINS_DB)}, got {gain_db}")
        self.bus, self.device, self.rst_pin = bus, device, rst_pin
        self.spi_hz = spi_hz
        self.gain_db = gain_db
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
        self._last_missed = 0  # polls in a row a collision hid it and its SELECT failed
        self._hidden = False  # this poll: tags collided and the one read last did not answer
        self._coll_level = 0  # the cascade level of the last collision
        self.crowded = False
        """The last read heard more than one tag answer: the tag read last is read while it
        stays, and the others only once it is lifted (the table says so)."""

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
        try:
            self._init()
        except ReaderError:
            self.close()
            raise
        log.info("MFRC522 version 0x%02X on %s", version, self.where)

    def _init(self) -> None:
        """Set the chip up (the library's init runs while the crystal may still be starting
        after the reset pin's rising edge, and every write of it is lost then): wait for the
        crystal, soft-reset, wait again, then timer, modulation, CRC preset, receiver gain,
        collisions cleared after the colliding bit, antenna on; check that it took."""
        self._await_start()
        self._write(COMMAND, CMD_SOFT_RESET)
        self._await_start()
        ticks = max(1, round(self.timeout_s / TIMER_TICK_S) - 1)
        settings = [(T_MODE, 0x8D), (T_PRESCALER, 0x3E), (T_RELOAD_H, ticks >> 8),
                    (T_RELOAD_L, ticks & 0xFF), (TX_ASK, 0x40), (MODE, 0x3D),
                    (RF_CFG, GAINS_DB[self.gain_db] << 4), (COLL, 0x00)]
        for addr, value in settings:
            self._write(addr, value)
        self._write(TX_CONTROL, self._read(TX_CONTROL) | 0x03)  # antenna on
        if any(self._read(addr) != value for addr, value in settings[:4]):
            raise ReaderError(f"the MFRC522 on {self.where} does not keep its settings")

    def _await_start(self) -> None:
        """Wait until CommandReg.PowerDown reads 0: the crystal runs, the reset is over."""
        for _ in range(int(START_S / self.irq_poll_s) + 1):
            if not self._read(COMMAND) & POWER_DOWN:
                return
            self._sleep(self.irq_poll_s)
        raise ReaderError(f"the MFRC522 on {self.where} does not start (PowerDown stays 1)")

    def close(self) -> None:
        """Close SPI and, unless another open reader still uses the reset pin, leave that pin
        an input pulled low: the chip in hard power-down, its field off. (RPi.GPIO's
        ``cleanup`` would leave it an input without pull: floating, the chip resetting at
        random.)"""
        chip, self._chip = self._chip, None
        if chip is None:
            return
        try:
            chip.spi.close()
        finally:
            gpio = self._gpio
            users = _rst_users.setdefault(gpio, {})
            left = users.get(self.rst_pin, 1) - 1
            if left <= 0:
                users.pop(self.rst_pin, None)
                gpio.setup(self.rst_pin, gpio.IN, pull_up_down=gpio.PUD_DOWN)
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
        self._hidden = False
        for _ in range(2):
            answered, uid = self._select()
            if uid is not None or not answered:
                break
            self._halt()  # a tag answered but a later frame was damaged: retry once
        self._unsure = uid is None
        self.crowded = self._collided
        self._last_missed = self._last_missed + 1 if uid is None and self._hidden else 0
        return uid

    def _select(self) -> tuple[bool, str | None]:
        """(a tag answered WUPA, its full UID or None); halts the tag after a clean read.

        Tags answering WUPA together collide (an NTAG's ATQA 0x0044 and a MIFARE Classic's
        0x0004), as ISO/IEC 14443-3 expects: the read goes on to anticollision. When the
        anticollision answers collide, the tag read last is selected by its UID (ISO/IEC
        14443-3 allows a SELECT of a known UID): only it can answer, so a token resting on the
        reader keeps reading while a neighbour shares the field. Otherwise the collision is
        resolved bit by bit (CollReg's position, the bit set to 1) and one tag is read.
        """
        self._damaged = self._collided = False
        if not self._wake():
            return self._damaged, None
        last = self._last
        uid = self._cascade(stop_on_collision=last is not None)
        if uid is None and self._collided and last is not None:
            # Tags READY at a later cascade level than the first go back and wake again.
            if self._coll_level == 0 or self._rewake():
                uid = self._cascade(last)
            if uid is None:
                self._hidden = True
                # A glitch may hide the tag read last for a poll: resolve (and read another
                # tag) only once it has been missing for a few polls in a row.
                if self._last_missed >= LAST_GONE_POLLS and self._rewake():
                    uid = self._cascade()
        if uid is None:
            return True, None
        self._halt()
        self._last = uid
        return True, bytes(uid).hex().upper()

    def _rewake(self) -> bool:
        """Send every tag back to IDLE or HALT (an unexpected HLTA does that to a READY tag)
        and wake them again."""
        self._halt()
        return self._wake()

    def _wake(self) -> bool:
        """WUPA: whether a tag answered (ATQAs of different tags may collide)."""
        answer = self._exchange([WUPA], tx_last_bits=7)
        return answer is not None and len(answer[0]) == 2

    def _cascade(self, known: list[int] | None = None, *,
                 stop_on_collision: bool = False) -> list[int] | None:
        """Anticollision and SELECT through the cascade levels (or SELECT ``known``)."""
        uid: list[int] = []
        for level, sel in enumerate(SEL_CL):
            if known is None:
                part = self._anticollision(sel, stop_on_collision)
                if part is None:
                    self._coll_level = level
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

    def _anticollision(self, sel: int, stop_on_collision: bool) -> list[int] | None:
        """The four UID bytes and BCC of one tag at this cascade level, colliding answers
        resolved bit by bit (ISO/IEC 14443-3 6.5.3), or None."""
        part, known = [0] * 5, 0
        for _ in range(33):
            whole, bits = divmod(known, 8)
            frame = [sel, (2 + whole) << 4 | bits, *part[:whole + (1 if bits else 0)]]
            answer = self._exchange(frame, tx_last_bits=bits, rx_align=bits)
            if answer is None:
                return None
            data, coll = answer
            if len(data) != 5 - whole:
                return None
            part[whole] = part[whole] & ((1 << bits) - 1) | data[0] & (0xFF << bits & 0xFF)
            part[whole + 1:] = data[1:]
            if coll is None:
                return part if self._uid_part_ok(part) else None
            self._collided = True
            if stop_on_collision or coll & COLL_POS_NOT_VALID:
                return None
            at = whole * 8 + ((coll & 0x1F) or 32)  # the colliding bit, 1-based
            if not known < at <= 32:
                return None
            byte, bit = divmod(at - 1, 8)
            part[byte] = part[byte] & ((1 << bit) - 1) | 1 << bit  # take the tags with a 1
            part[byte + 1:] = [0] * (4 - byte)
            known = at
        return None

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

    def _start(self, data: list[int], command: int, framing: int) -> None:
        self._write(COMMAND, CMD_IDLE)
        self._write(COMM_IRQ, 0x7F)  # Set1=0: clear every interrupt bit
        self._write(FIFO_LEVEL, 0x80)  # flush (clears BufferOvfl too)
        self._chip.spi.xfer2([(FIFO_DATA << 1) & 0x7E, *data])  # burst write to the FIFO
        self._write(BIT_FRAMING, framing)
        self._write(COMMAND, command)

    def _transceive(self, data: list[int], tx_last_bits: int = 0) -> list[int] | None:
        """Send a frame and return the answer, or None on timeout, a damaged answer or a
        collision."""
        answer = self._exchange(data, tx_last_bits)
        return None if answer is None or answer[1] is not None else answer[0]

    def _exchange(self, data: list[int], tx_last_bits: int = 0, rx_align: int = 0
                  ) -> tuple[list[int], int | None] | None:
        """Send a frame, ``tx_last_bits`` bits of its last byte (0: all), the answer stored
        from bit ``rx_align`` on: (the answer, CollReg if tags collided), or None on a
        timeout or a damaged answer."""
        framing = rx_align << 4 | tx_last_bits
        self._start(data, CMD_TRANSCEIVE, framing)
        self._write(BIT_FRAMING, 0x80 | framing)  # StartSend
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
        if errors & ~COLL_ERR:
            return None
        coll = self._read(COLL) if errors & COLL_ERR else None
        if coll is not None:
            self._collided = True
        count = self._read(FIFO_LEVEL)
        if count == 0 or count > 64 or self._read(CONTROL) & 0x07:
            return None
        self._damaged = False
        reply = self._chip.spi.xfer2([((FIFO_DATA << 1) & 0x7E) | 0x80] * count + [0])
        return [int(b) for b in reply[1:]], coll

    def _read(self, addr: int) -> int:
        return int(self._chip.Read_MFRC522(addr))

    def _write(self, addr: int, value: int) -> None:
        self._chip.Write_MFRC522(addr, value)
