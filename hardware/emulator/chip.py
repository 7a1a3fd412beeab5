"""A register-level MFRC522 with ISO 14443-A tags in its field, driven over a fake SPI bus.

It is as strict as the NXP datasheet (MFRC522 rev. 3.9) where a driver can go wrong:

- **SPI**: at most 10 Mbit/s, mode 0; a faster or wrong-mode transfer is garbage (writes are
  lost, reads return noise).
- **Reset wiring**: the chip's NRSTPD pin is wired to one GPIO (``rst_pin``, BCM); while it
  is low or not driven (the Pi's pull-down), the chip is in hard power-down: SPI reads 0x00,
  writes are lost, the field is off. A rising edge resets every register.
- **Bit framing**: ``BitFramingReg.TxLastBits`` says how many bits of the last byte go out;
  a frame that is neither a 7-bit short frame (REQA/WUPA) nor whole bytes is garbled for the
  tags, which drop back to IDLE (or HALT). Transceive sends only on ``StartSend``.
- **Interrupts** (``ComIrqReg``): TxIRq at the end of sending; RxIRq (and ErrIRq on an error)
  at the end of an answer. Transceive never ends by itself, so it never sets IdleIRq; Transmit
  does. Writing Idle sets nothing; an unknown command goes Idle and sets IdleIRq.
- **Timer**: with ``TModeReg.TAuto`` it starts at the end of sending, runs
  ``(TReload + 1) * (2 * TPrescaler + 1) / 13.56 MHz`` and stops at the 5th bit of an answer:
  a timer shorter than the tag's reply time fires TimerIRq even though a tag answers.
- **ISO/IEC 14443-3**: tags answer REQA/WUPA, anticollision and SELECT at cascade levels 1
  and 2 (7-byte UIDs: cascade tag 0x88), a SELECT only with a valid CRC_A and the exact UID
  bytes and BCC (else silence), SAK with CRC_A, HLTA; a tag left ACTIVE ignores the next REQA.
  Two tags answering at once collide (CollErr, the answers OR-ed).

Time is virtual: each SPI transfer advances a :class:`VirtualClock` by ``transfer_s`` and the
adapter's ``sleep`` may advance it too, so transfer counts do not depend on the host's speed.
Glitches (a lost answer, flipped bits, a parity error) come from a seeded generator.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hardware.crc import bcc, crc_a

# Registers (datasheet section 9) and the bits the emulator gives meaning to.
COMMAND, COMM_IRQ, DIV_IRQ, ERROR = 0x01, 0x04, 0x05, 0x06
FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x09, 0x0A, 0x0C, 0x0D, 0x0E
TX_CONTROL = 0x14
CRC_RESULT_M, CRC_RESULT_L = 0x21, 0x22
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x2A, 0x2B, 0x2C, 0x2D
VERSION = 0x37

CMD_IDLE, CMD_CALC_CRC, CMD_TRANSMIT, CMD_TRANSCEIVE, CMD_SOFT_RESET = 0x00, 0x03, 0x04, 0x0C, 0x0F
KNOWN_COMMANDS = {0x00, 0x01, 0x02, 0x03, 0x04, 0x07, 0x08, 0x0C, 0x0E, 0x0F}
TX_IRQ, RX_IRQ, IDLE_IRQ, ERR_IRQ, TIMER_IRQ = 0x40, 0x20, 0x10, 0x02, 0x01
CRC_IRQ = 0x04
PARITY_ERR, COLL_ERR = 0x02, 0x08

BIT_S = 1 / 106_000  # one bit at 106 kbit/s
FDT_S = 86e-6  # a tag answers ~86 us (1172 carrier cycles) after the end of the reader's frame
MAX_SPI_HZ = 10_000_000  # datasheet: SPI up to 10 Mbit/s


class VirtualClock:
    """Seconds that pass only when told to: by SPI transfers and by ``sleep``."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def time(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)


@dataclass
class Glitches:
    """Per-answer probabilities of trouble between tag and reader.

    ``drop``: the answer never arrives (the chip's timer fires); ``flip``: one bit of the
    answer is flipped, which the chip's parity check sees (ParityErr); ``flip2``: two bits of
    one byte are flipped, so the parity still fits and only BCC or CRC_A can tell;
    ``flip_column``: the same bit of two bytes is flipped (a periodic interference): the
    parity sees both, an XOR check byte (BCC) sees neither; ``parity``: the parity bit
    itself is hit (ParityErr, the data is right).
    """

    drop: float = 0.0
    flip: float = 0.0
    parity: float = 0.0
    flip2: float = 0.0
    flip_column: float = 0.0
    seed: int = 0
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)


class Tag:
    """An ISO 14443-3 type A tag (MIFARE Classic 4-byte UID or NTAG21x 7-byte UID)."""

    def __init__(self, uid: bytes | str) -> None:
        raw = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        if len(raw) not in (4, 7):
            raise ValueError(f"emulated tags have 4- or 7-byte UIDs, not {len(raw)}")
        self.uid = raw
        self.state = "IDLE"  # IDLE, READY, ACTIVE, HALT
        self.level = 1
        self.from_halt = False  # woken by WUPA from HALT: an error sends it back there

    def __repr__(self) -> str:
        return f"Tag({self.uid.hex().upper()!r})"

    def power_off(self) -> None:
        self.state, self.level, self.from_halt = "IDLE", 1, False

    def _level_bytes(self) -> list[int]:
        if len(self.uid) == 4:
            return list(self.uid)
        return [0x88, *self.uid[:3]] if self.level == 1 else list(self.uid[3:])

    def _sak(self) -> int:
        if len(self.uid) == 7 and self.level == 1:
            return 0x04  # cascade bit: UID not complete
        return 0x00 if len(self.uid) == 7 else 0x08

    def _error(self) -> None:
        """A frame it does not expect: back to IDLE, or to HALT if woken from there."""
        if self.state != "HALT":
            self.state = "HALT" if self.from_halt else "IDLE"

    def receive(self, frame: list[int], tx_last_bits: int) -> list[int] | None:
        """Answer one frame from the reader, or None for silence; updates the tag state."""
        if tx_last_bits == 7 and len(frame) == 1 and frame[0] in (0x26, 0x52):
            wakes = ("IDLE", "HALT") if frame[0] == 0x52 else ("IDLE",)
            if self.state in wakes:
                self.from_halt = self.state == "HALT"
                self.state, self.level = "READY", 1
                return [0x44 if len(self.uid) == 7 else 0x04, 0x00]
            self._error()
            return None
        if tx_last_bits != 0:  # neither a short frame nor whole bytes: garbled
            self._error()
            return None
        sel = {1: 0x93, 2: 0x95}.get(self.level)
        if self.state == "READY" and len(frame) >= 2 and frame[0] == sel:
            part = self._level_bytes()
            if frame[1] == 0x20 and len(frame) == 2:
                return [*part, bcc(part)]
            if frame[1] == 0x70 and len(frame) == 9 and frame[7:] == crc_a(frame[:7]):
                if frame[2:7] == [*part, bcc(part)]:
                    sak = self._sak()
                    if sak & 0x04:
                        self.level = 2
                    else:
                        self.state = "ACTIVE"
                    return [sak, *crc_a([sak])]
        if self.state == "ACTIVE" and frame[:2] == [0x50, 0x00] and frame[2:] == crc_a(frame[:2]):
            self.state = "HALT"
            return None
        self._error()
        return None


def _is_select(frame: list[int], last_bits: int) -> bool:
    return (last_bits == 0 and len(frame) == 9 and frame[0] in (0x93, 0x95, 0x97)
            and frame[1] == 0x70 and frame[7:] == crc_a(frame[:7]))


class Mfrc522Chip:
    """One MFRC522 on one SPI chip select; ``xfer2`` is the whole bus interface.

    ``rst_pin``: the BCM GPIO its NRSTPD pin is wired to (see :func:`pi_modules`); a chip
    used without fake GPIO modules is powered up as if that pin were high.
    """

    VERSION_ID = 0x92

    def __init__(
        self,
        clock: VirtualClock | None = None,
        *,
        transfer_s: float = 40e-6,
        glitches: Glitches | None = None,
        rst_pin: int = 25,
    ) -> None:
        self.clock = clock or VirtualClock()
        self.transfer_s = transfer_s
        self.glitches = glitches or Glitches()
        self.rst_pin = rst_pin
        self.tags: list[Tag] = []
        self.connected = True
        self.powered = True  # NRSTPD high
        self.transfers = 0
        self.refused_selects = 0  # SELECTs for a UID no tag ever placed has (a damaged one)
        self._parts: set[tuple[int, ...]] = set()  # every UID part + BCC ever placed
        self.garbled = 0  # SPI transfers too fast (or in the wrong mode) to make sense of
        self._noise = random.Random(0x522)
        self._reset()

    # -- the physical world -------------------------------------------------------------
    def place(self, uid: bytes | str) -> Tag:
        """Put a tag in the field (it powers up IDLE)."""
        tag = Tag(uid)
        self.tags.append(tag)
        raw = list(tag.uid)
        for part in ([raw] if len(raw) == 4 else [[0x88, *raw[:3]], raw[3:]]):
            self._parts.add((*part, bcc(part)))
        return tag

    def remove(self, uid: bytes | str | None = None) -> None:
        """Take one tag (or every tag) out of the field."""
        raw = None if uid is None else (bytes.fromhex(uid) if isinstance(uid, str) else uid)
        self.tags = [t for t in self.tags if raw is not None and t.uid != raw]

    def unplug(self) -> None:
        """The reader stops answering: MISO reads all zeros from now on."""
        self.connected = False

    def set_nrstpd(self, level: bool) -> None:
        """Drive the NRSTPD pin: low is hard power-down, a rising edge a hard reset."""
        if level and not self.powered:
            self._reset()
        if not level:
            for tag in self.tags:  # the field goes off
                tag.power_off()
        self.powered = bool(level)

    @property
    def field_on(self) -> bool:
        return self.powered and bool(self.regs[TX_CONTROL] & 0x03)

    # -- SPI ----------------------------------------------------------------------------
    def xfer2(self, data: list[int], speed_hz: int = 1_000_000, mode: int = 0) -> list[int]:
        """One SPI transaction: ``[addr|0x80, ...]`` reads, ``[addr, value, ...]`` writes."""
        self.transfers += 1
        self.clock.sleep(self.transfer_s)
        if not self.connected or not self.powered:
            return [0] * len(data)
        if speed_hz > MAX_SPI_HZ or mode != 0:
            self.garbled += 1  # bits sampled on the wrong edge or too late: nothing lands
            return [self._noise.randrange(256) for _ in data]
        if data[0] & 0x80:
            return [0, *(self._read((b >> 1) & 0x3F) for b in data[:-1])]
        addr = (data[0] >> 1) & 0x3F
        for value in data[1:]:
            self._write(addr, value & 0xFF)
        return [0] * len(data)

    # -- registers ----------------------------------------------------------------------
    def _reset(self) -> None:
        self.regs = [0] * 64
        self.regs[COMMAND] = 0x20
        self.regs[COMM_IRQ] = 0x14
        self.regs[TX_CONTROL] = 0x80
        self.fifo: list[int] = []
        self._answer: tuple[float, list[int], int, int] | None = None
        self._timer_at: float | None = None
        self._tx_done_at: float | None = None
        self._idle_at_tx_end = False
        for tag in getattr(self, "tags", []):  # the field is off after a reset
            tag.power_off()

    def _read(self, addr: int) -> int:
        self._tick()
        if addr == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if addr == FIFO_LEVEL:
            return len(self.fifo)
        if addr == VERSION:
            return self.VERSION_ID
        if addr in (COMM_IRQ, DIV_IRQ):
            return self.regs[addr] & 0x7F
        return self.regs[addr]

    def _write(self, addr: int, value: int) -> None:
        self._tick()
        if addr in (COMM_IRQ, DIV_IRQ):
            bits = value & 0x7F
            self.regs[addr] = self.regs[addr] | bits if value & 0x80 else self.regs[addr] & ~bits
        elif addr == FIFO_DATA:
            if len(self.fifo) < 64:
                self.fifo.append(value)
        elif addr == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
        elif addr == COMMAND:
            self._command(value & 0x0F)
        elif addr == BIT_FRAMING:
            self.regs[addr] = value
            if value & 0x80 and self.regs[COMMAND] & 0x0F == CMD_TRANSCEIVE:
                self._transmit(expect_answer=True)
        elif addr == TX_CONTROL:
            self.regs[addr] = value
            if not value & 0x03:
                for tag in self.tags:  # no field: tags lose power
                    tag.power_off()
        else:
            self.regs[addr] = value

    def _command(self, cmd: int) -> None:
        if cmd == CMD_SOFT_RESET:
            self._reset()
            return
        self._answer = self._timer_at = self._tx_done_at = None  # a new command cancels
        if cmd not in KNOWN_COMMANDS:
            self.regs[COMMAND] &= 0xF0
            self.regs[COMM_IRQ] |= IDLE_IRQ
            return
        self.regs[COMMAND] = (self.regs[COMMAND] & 0xF0) | cmd
        if cmd == CMD_CALC_CRC:
            low, high = crc_a(self.fifo)
            self.fifo.clear()
            self.regs[CRC_RESULT_L], self.regs[CRC_RESULT_M] = low, high
            self.regs[DIV_IRQ] |= CRC_IRQ
        elif cmd == CMD_TRANSMIT:
            self._transmit(expect_answer=False)

    def _timer_period(self) -> float:
        prescaler = ((self.regs[T_MODE] & 0x0F) << 8) | self.regs[T_PRESCALER]
        reload = (self.regs[T_RELOAD_H] << 8) | self.regs[T_RELOAD_L]
        return (reload + 1) * (2 * prescaler + 1) / 13.56e6

    def _transmit(self, *, expect_answer: bool) -> None:
        frame, self.fifo = list(self.fifo), []
        last_bits = self.regs[BIT_FRAMING] & 0x07
        now = self.clock.time()
        bits = len(frame) * 9 - (8 - last_bits if last_bits else 0)  # 8 data + 1 parity
        tx_end = now + bits * BIT_S
        self._tx_done_at = tx_end
        self.regs[ERROR] = 0
        ready = any(t.state == "READY" for t in self.tags)
        answers = [a for t in self.tags if self.field_on and (a := t.receive(frame, last_bits))]
        if ready and not answers and _is_select(frame, last_bits) \
                and tuple(frame[2:7]) not in self._parts:
            self.refused_selects += 1
        self._answer = self._timer_at = None
        timer = tx_end + self._timer_period() if self.regs[T_MODE] & 0x80 else None
        if not expect_answer:
            self._idle_at_tx_end = True
            return
        self._idle_at_tx_end = False
        answer, errors = self._air(answers)
        if answer is not None:
            first_bits = tx_end + FDT_S + 5 * BIT_S  # TAuto stops the timer at the 5th bit
            if timer is not None and timer >= first_bits:
                timer = None
            ready_at = tx_end + FDT_S + len(answer) * 9 * BIT_S
            self._answer = (ready_at, answer, 0, errors)  # answers here are whole bytes
        self._timer_at = timer

    def _air(self, answers: list[list[int]]) -> tuple[list[int] | None, int]:
        """What reaches the chip when the tags answer at once, after the glitches."""
        if not answers:
            return None, 0
        g = self.glitches
        if g.drop and g.rng.random() < g.drop:
            return None, 0
        answer, errors = list(answers[0]), 0
        for other in answers[1:]:
            if other != answers[0]:
                errors |= COLL_ERR
                answer = [a | b for a, b in zip(answer, other, strict=False)]
        if g.flip and g.rng.random() < g.flip:
            bit = g.rng.randrange(len(answer) * 8)
            answer[bit // 8] ^= 1 << (bit % 8)
            errors |= PARITY_ERR  # one flipped bit breaks that byte's odd parity
        if g.flip2 and g.rng.random() < g.flip2:
            byte = g.rng.randrange(len(answer))
            a, b = g.rng.sample(range(8), 2)
            answer[byte] ^= (1 << a) | (1 << b)  # the parity still fits
        if g.flip_column and len(answer) > 1 and g.rng.random() < g.flip_column:
            bit = 1 << g.rng.randrange(8)
            for byte in g.rng.sample(range(len(answer)), 2):
                answer[byte] ^= bit
            errors |= PARITY_ERR
        if g.parity and g.rng.random() < g.parity:
            errors |= PARITY_ERR
        return answer, errors

    def _tick(self) -> None:
        now = self.clock.time()
        if self._tx_done_at is not None and now >= self._tx_done_at:
            self.regs[COMM_IRQ] |= TX_IRQ
            if self._idle_at_tx_end:  # Transmit ends by itself; Transceive goes on receiving
                self.regs[COMM_IRQ] |= IDLE_IRQ
                self.regs[COMMAND] &= 0xF0
            self._tx_done_at = None
        if self._timer_at is not None and now >= self._timer_at:
            self._timer_at = None
            self.regs[COMM_IRQ] |= TIMER_IRQ
        if self._answer is not None and now >= self._answer[0]:
            _, data, last_bits, errors = self._answer
            self._answer = None
            self.fifo = list(data)
            self.regs[CONTROL] = (self.regs[CONTROL] & 0xF8) | last_bits
            self.regs[ERROR] = errors
            self.regs[COLL] = 0x00 if not errors & COLL_ERR else 0x01
            self.regs[COMM_IRQ] |= RX_IRQ | (ERR_IRQ if errors else 0)
