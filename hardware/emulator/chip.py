"""A register-level MFRC522 with ISO 14443-A tags in its field, driven over a fake SPI bus.

It is as strict as the NXP datasheet (MFRC522 rev. 3.9) where a driver can go wrong:

- **SPI**: at most 10 Mbit/s, mode 0; a faster or wrong-mode transfer is garbage (writes are
  lost, reads return noise).
- **Reset wiring**: the chip's NRSTPD pin is wired to one GPIO (``rst_pin``, BCM); while it
  is low (the Pi's pull-down at boot), the chip is in hard power-down: SPI reads 0x00, writes
  are lost, the field is off. A rising edge resets every register. A pin left floating
  (``GPIO.cleanup`` leaves it an input without pull) picks up noise: the chip powers down and
  resets at random.
- **Start-up**: after the rising edge the crystal needs ``OSC_STARTUP_S`` (datasheet 8.8.2:
  its start-up time plus 37.74 us), after a SoftReset the reset phase takes ``SOFT_RESET_S``;
  until then ``CommandReg.PowerDown`` reads 1 and writes are lost.
- **FIFO**: 64 bytes; a write beyond sets ``ErrorReg.BufferOvfl`` and is lost, until
  ``FlushBuffer``.
- **Bit framing**: ``BitFramingReg.TxLastBits`` says how many bits of the last byte go out;
  a frame that is neither a 7-bit short frame (REQA/WUPA) nor whole bytes is garbled for the
  tags, which drop back to IDLE (or HALT). Transceive sends only on ``StartSend``.
- **Interrupts** (``ComIrqReg``): TxIRq at the end of sending; RxIRq (and ErrIRq on an error)
  at the end of an answer. Transceive never ends by itself, so it never sets IdleIRq; Transmit
  does. Writing Idle sets nothing; an unknown command goes Idle and sets IdleIRq.
- **Timer**: with ``TModeReg.TAuto`` it starts at the end of sending, runs
  ``(TReload + 1) * (2 * TPrescaler + 1) / 13.56 MHz`` and stops at the 5th bit of an answer:
  a timer shorter than the tag's reply time fires TimerIRq even though a tag answers.
- **ISO/IEC 14443-3**: tags answer REQA/WUPA (ATQA 0x0004, 0x0044 or 0x0084 by UID size),
  anticollision and SELECT at cascade levels 1 to 3 (4-, 7- and 10-byte UIDs, cascade tag
  0x88), a SELECT only with a valid CRC_A and the exact UID bytes and BCC (else silence), SAK
  with CRC_A, HLTA; a tag left ACTIVE ignores the next REQA. Anticollision frames may carry
  known UID bits (NVB, ``TxLastBits`` bits of the last byte): only tags whose UID starts with
  them answer, with the bits that follow, stored from ``BitFramingReg.RxAlign`` on.
  Tags answering at once collide bit by bit: CollErr, ``CollReg.CollPos`` the first colliding
  bit (counted from the first bit of the first byte received; CollPosNotValid beyond 32), the
  answers OR-ed, or cleared from that bit on when ``CollReg.ValuesAfterColl`` is 0.

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
RF_CFG = 0x26
TX_CONTROL = 0x14
CRC_RESULT_M, CRC_RESULT_L = 0x21, 0x22
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x2A, 0x2B, 0x2C, 0x2D
VERSION = 0x37

CMD_IDLE, CMD_CALC_CRC, CMD_TRANSMIT, CMD_TRANSCEIVE, CMD_SOFT_RESET = 0x00, 0x03, 0x04, 0x0C, 0x0F
KNOWN_COMMANDS = {0x00, 0x01, 0x02, 0x03, 0x04, 0x07, 0x08, 0x0C, 0x0E, 0x0F}
TX_IRQ, RX_IRQ, IDLE_IRQ, ERR_IRQ, TIMER_IRQ = 0x40, 0x20, 0x10, 0x02, 0x01
CRC_IRQ = 0x04
PARITY_ERR, COLL_ERR, BUFFER_OVFL = 0x02, 0x08, 0x10
POWER_DOWN = 0x10  # CommandReg: 1 while the chip starts up
VALUES_AFTER_COLL, COLL_POS_NOT_VALID = 0x80, 0x20
OSC_STARTUP_S = 1e-3 + 37.74e-6  # crystal start-up (typ. ~1 ms) + 37.74 us, datasheet 8.8.2
SOFT_RESET_S = 37.74e-6  # SoftReset with the crystal running: the 37.74 us wake-up only

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


def bits_of(data: list[int]) -> list[int]:
    """Bytes as bits, least significant first (the order they go over the air)."""
    return [(byte >> n) & 1 for byte in data for n in range(8)]


def bytes_of(bits: list[int], align: int = 0) -> list[int]:
    """Bits packed into bytes from bit ``align`` of the first (the rest of it zero)."""
    out = [0] * ((align + len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        out[(align + i) // 8] |= bit << ((align + i) % 8)
    return out


class Tag:
    """An ISO 14443-3 type A tag: MIFARE Classic (4-byte UID), NTAG21x (7) or a 10-byte UID."""

    def __init__(self, uid: bytes | str) -> None:
        raw = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        if len(raw) not in (4, 7, 10):
            raise ValueError(f"emulated tags have 4-, 7- or 10-byte UIDs, not {len(raw)}")
        self.uid = raw
        self.levels = {4: 1, 7: 2, 10: 3}[len(raw)]
        self.state = "IDLE"  # IDLE, READY, ACTIVE, HALT
        self.level = 1
        self.from_halt = False  # woken by WUPA from HALT: an error sends it back there

    def __repr__(self) -> str:
        return f"Tag({self.uid.hex().upper()!r})"

    def power_off(self) -> None:
        self.state, self.level, self.from_halt = "IDLE", 1, False

    def parts(self) -> list[list[int]]:
        """The four UID bytes of each cascade level (cascade tag 0x88 before a next level)."""
        u = list(self.uid)
        return {1: [u], 2: [[0x88, *u[:3]], u[3:]],
                3: [[0x88, *u[:3]], [0x88, *u[3:6]], u[6:]]}[self.levels]

    def _level_bytes(self) -> list[int]:
        return self.parts()[self.level - 1]

    def _sak(self) -> int:
        if self.level < self.levels:
            return 0x04  # cascade bit: UID not complete
        return 0x08 if self.levels == 1 else 0x00

    def _error(self) -> None:
        """A frame it does not expect: back to IDLE, or to HALT if woken from there."""
        if self.state != "HALT":
            self.state = "HALT" if self.from_halt else "IDLE"

    def receive(self, frame: list[int], tx_last_bits: int) -> list[int] | None:
        """Answer one frame (as bytes, a partial last byte in its low bits), or None."""
        bits = self.answer(frame, tx_last_bits)
        return None if bits is None else bytes_of(bits)

    def answer(self, frame: list[int], tx_last_bits: int) -> list[int] | None:
        """Answer one frame from the reader as bits, or None for silence; updates the state."""
        if tx_last_bits == 7 and len(frame) == 1 and frame[0] in (0x26, 0x52):
            wakes = ("IDLE", "HALT") if frame[0] == 0x52 else ("IDLE",)
            if self.state in wakes:
                self.from_halt = self.state == "HALT"
                self.state, self.level = "READY", 1
                return bits_of([{1: 0x04, 2: 0x44, 3: 0x84}[self.levels], 0x00])
            self._error()
            return None
        sel = {1: 0x93, 2: 0x95, 3: 0x97}.get(self.level)
        if self.state == "READY" and len(frame) >= 2 and frame[0] == sel:
            part = self._level_bytes()
            if frame[1] == 0x70 and len(frame) == 9 and tx_last_bits == 0 \
                    and frame[7:] == crc_a(frame[:7]):
                if frame[2:7] == [*part, bcc(part)]:
                    sak = self._sak()
                    if sak & 0x04:
                        self.level += 1
                    else:
                        self.state = "ACTIVE"
                    return bits_of([sak, *crc_a([sak])])
                self._error()
                return None
            whole, extra = frame[1] >> 4, frame[1] & 0x0F
            known = (whole - 2) * 8 + extra
            if 2 <= whole <= 6 and extra <= 7 and known < 40 and extra == tx_last_bits \
                    and len(frame) == whole + (1 if extra else 0):
                mine = bits_of([*part, bcc(part)])
                if bits_of(frame[2:])[:known] == mine[:known]:
                    return mine[known:]
                return None  # not its UID: silent, still READY
        if tx_last_bits != 0:  # neither a short frame, an anticollision nor whole bytes
            self._error()
            return None
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
        self.floating = False  # NRSTPD not driven at all
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
        for part in tag.parts():
            self._parts.add((*part, bcc(part)))
        return tag

    def remove(self, uid: bytes | str | None = None) -> None:
        """Take one tag (or every tag) out of the field."""
        raw = None if uid is None else (bytes.fromhex(uid) if isinstance(uid, str) else uid)
        self.tags = [t for t in self.tags if raw is not None and t.uid != raw]

    def unplug(self) -> None:
        """The reader stops answering: MISO reads all zeros from now on."""
        self.connected = False

    def replug(self) -> None:
        """Plugged back: it powers up as from cold (registers reset, the crystal starting,
        field off), so a driver must set it up again."""
        self.connected = True
        self.brown_out()

    def brown_out(self) -> None:
        """The supply dipped: the chip resets as at power-up (every setting lost, antenna
        off) and the tags in its field lose power; SPI answers again once the crystal runs."""
        self._reset(OSC_STARTUP_S)

    def set_nrstpd(self, level: bool | None) -> None:
        """Drive the NRSTPD pin: low is hard power-down, a rising edge a hard reset (the
        crystal then starts), None a floating pin (noise: random power-downs and resets)."""
        self.floating = level is None
        if level is None:
            level = self._noise.random() < 0.5
        if level and not self.powered:
            self._reset(OSC_STARTUP_S)
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
        if self.floating:
            self.set_nrstpd(None)
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
    def _reset(self, startup_s: float = 0.0) -> None:
        self.regs = [0] * 64
        self.regs[COMMAND] = 0x20
        self.regs[COMM_IRQ] = 0x14
        self.regs[TX_CONTROL] = 0x80
        self.regs[COLL] = VALUES_AFTER_COLL | COLL_POS_NOT_VALID
        self.regs[RF_CFG] = 0x48  # RxGain 33 dB
        self._ready_at = self.clock.time() + startup_s
        self.fifo: list[int] = []
        self._answer: tuple[float, list[int], int, int, int] | None = None
        self._timer_at: float | None = None
        self._tx_done_at: float | None = None
        self._idle_at_tx_end = False
        for tag in getattr(self, "tags", []):  # the field is off after a reset
            tag.power_off()

    def _starting(self) -> bool:
        return self.clock.time() < self._ready_at

    def _read(self, addr: int) -> int:
        self._tick()
        if addr == COMMAND and self._starting():
            return self.regs[COMMAND] | POWER_DOWN
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
        if self._starting():
            return  # the oscillator is not running yet
        if addr in (COMM_IRQ, DIV_IRQ):
            bits = value & 0x7F
            self.regs[addr] = self.regs[addr] | bits if value & 0x80 else self.regs[addr] & ~bits
        elif addr == FIFO_DATA:
            if len(self.fifo) < 64:
                self.fifo.append(value)
            else:
                self.regs[ERROR] |= BUFFER_OVFL
        elif addr == FIFO_LEVEL:
            if value & 0x80:  # FlushBuffer
                self.fifo.clear()
                self.regs[ERROR] &= ~BUFFER_OVFL
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
            self._reset(SOFT_RESET_S)
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
        align = (self.regs[BIT_FRAMING] >> 4) & 0x07
        now = self.clock.time()
        bits = len(frame) * 9 - (8 - last_bits if last_bits else 0)  # 8 data + 1 parity
        tx_end = now + bits * BIT_S
        self._tx_done_at = tx_end
        self.regs[ERROR] &= BUFFER_OVFL  # the other error bits are the new command's
        ready = any(t.state == "READY" for t in self.tags)
        answers = [a for t in self.tags if self.field_on and (a := t.answer(frame, last_bits))]
        if ready and not answers and _is_select(frame, last_bits) \
                and tuple(frame[2:7]) not in self._parts:
            self.refused_selects += 1
        self._answer = self._timer_at = None
        timer = tx_end + self._timer_period() if self.regs[T_MODE] & 0x80 else None
        if not expect_answer:
            self._idle_at_tx_end = True
            return
        self._idle_at_tx_end = False
        air = self._air(answers, align)
        if air is not None:
            answer, nbits, errors, coll = air
            first_bits = tx_end + FDT_S + 5 * BIT_S  # TAuto stops the timer at the 5th bit
            if timer is not None and timer >= first_bits:
                timer = None
            ready_at = tx_end + FDT_S + nbits * 9 / 8 * BIT_S
            self._answer = (ready_at, answer, (align + nbits) % 8, errors, coll)
        self._timer_at = timer

    def _air(self, answers: list[list[int]], align: int
             ) -> tuple[list[int], int, int, int] | None:
        """What reaches the FIFO when the tags answer at once, after the glitches: (bytes,
        bits received, ErrorReg, CollReg's CollPos bits)."""
        if not answers:
            return None
        g = self.glitches
        if g.drop and g.rng.random() < g.drop:
            return None
        nbits = max(len(a) for a in answers)
        bits = [max((a[i] for a in answers if i < len(a)), default=0) for i in range(nbits)]
        errors, coll = 0, COLL_POS_NOT_VALID
        clash = next((i for i in range(nbits)
                      if len({a[i] for a in answers if i < len(a)}) > 1), None)
        if clash is not None:
            errors |= COLL_ERR
            pos = align + clash + 1
            coll = (pos % 32) if pos <= 32 else COLL_POS_NOT_VALID
            if not self.regs[COLL] & VALUES_AFTER_COLL:
                bits[clash:] = [0] * (nbits - clash)
        answer = bytes_of(bits, align)
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
        return answer, nbits, errors, coll

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
            _, data, last_bits, errors, coll = self._answer
            self._answer = None
            self.fifo = list(data)
            self.regs[CONTROL] = (self.regs[CONTROL] & 0xF8) | last_bits
            self.regs[ERROR] = (self.regs[ERROR] & BUFFER_OVFL) | errors
            self.regs[COLL] = (self.regs[COLL] & VALUES_AFTER_COLL) | coll
            self.regs[COMM_IRQ] |= RX_IRQ | (ERR_IRQ if errors else 0)
