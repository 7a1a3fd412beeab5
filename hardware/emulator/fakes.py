"""Fake ``spidev`` and ``RPi.GPIO`` modules wired to emulated MFRC522 chips.

:func:`pi_modules` installs them in ``sys.modules`` (and drops any cached ``mfrc522``) for
the duration of a ``with`` block, so the real adapter and the unmodified ``mfrc522`` library
run against the emulator. Calls the fakes do not know fail with AttributeError.

Each chip's NRSTPD pin is wired to the fake GPIO pin ``chip.rst_pin`` (BCM; a driver in
BOARD numbering reaches it by its physical pin): until a driver sets that pin up as an
output and drives it high, the chip stays in hard power-down, as on a real Pi (pull-down at
boot). ``cleanup`` leaves a pin an input without pull, as RPi.GPIO does: it floats.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from hardware.emulator.chip import Mfrc522Chip

# Physical header pin -> BCM number (40-pin header), for drivers in BOARD numbering.
BOARD_TO_BCM = {3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23,
                18: 24, 19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5,
                31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21}


class FakeGPIO(types.ModuleType):
    """The parts of RPi.GPIO the mfrc522 library and the adapter call; records pin use."""

    BOARD, BCM, OUT, IN, LOW, HIGH = 10, 11, 0, 1, 0, 1
    PUD_OFF, PUD_DOWN, PUD_UP = 20, 21, 22

    def __init__(self) -> None:
        super().__init__("RPi.GPIO")
        self.mode: int | None = None
        self.pins: dict[int, int] = {}  # pin -> last output level, for pins set up
        self.inputs: dict[int, int] = {}  # BCM pin -> its pull, for pins made inputs
        self.cleanup_calls: list[object] = []
        self._wires: dict[int, list[Callable[[bool | None], None]]] = {}  # BCM pin -> inputs

    def wire(self, bcm: int, listener: Callable[[bool | None], None]) -> None:
        """Connect an input (a chip's NRSTPD) to BCM pin ``bcm``; it sees the level now."""
        self._wires.setdefault(bcm, []).append(listener)
        listener(self.level(bcm))

    def level(self, bcm: int) -> bool | None:
        """The level on BCM pin ``bcm``: its output if set up as one, else its pull (low at
        boot); None when it floats."""
        for pin, value in self.pins.items():
            if self._bcm(pin) == bcm:
                return bool(value)
        pull = self.inputs.get(bcm, self.PUD_DOWN)
        return None if pull == self.PUD_OFF else pull == self.PUD_UP

    def _bcm(self, pin: int) -> int | None:
        return BOARD_TO_BCM.get(pin) if self.mode == self.BOARD else pin

    def _changed(self, pins: list[int]) -> None:
        for bcm in {self._bcm(p) for p in pins}:
            if bcm is None:
                continue
            for listener in self._wires.get(bcm, []):
                listener(self.level(bcm))

    def getmode(self) -> int | None:
        return self.mode

    def setmode(self, mode: int) -> None:
        if self.mode is not None and mode != self.mode:
            raise ValueError("A different mode has already been set!")
        self.mode = mode

    def setwarnings(self, flag: bool) -> None:
        pass

    def setup(self, pin: int, direction: int, pull_up_down: int = 20,
              initial: int = -1) -> None:
        """As RPi.GPIO: without ``initial`` an output keeps the level it already drives; an
        input takes ``pull_up_down`` (PUD_OFF: it floats)."""
        if self.mode is None:
            raise RuntimeError("Please set pin numbering mode using GPIO.setmode")
        bcm = self._bcm(pin)
        if direction == self.IN:
            self.pins.pop(pin, None)
            if bcm is not None:
                self.inputs[bcm] = pull_up_down
        else:
            if bcm is not None:
                self.inputs.pop(bcm, None)
            self.pins[pin] = self.pins.get(pin, 0) if initial == -1 else int(initial)
        self._changed([pin])

    def output(self, pin: int, value: int) -> None:
        if pin not in self.pins:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        self.pins[pin] = int(value)
        self._changed([pin])

    def cleanup(self, channel: int | list[int] | None = None) -> None:
        self.cleanup_calls.append(channel)
        released = list(self.pins) if channel is None else (
            channel if isinstance(channel, list) else [channel])
        bcms = [self._bcm(p) for p in released]
        for pin in released:
            self.pins.pop(pin, None)
        for bcm in bcms:  # RPi.GPIO: an input without pull, so the pin floats
            if bcm is not None:
                self.inputs[bcm] = self.PUD_OFF
        if channel is None or not self.pins:
            self.mode = None
        for bcm in bcms:
            for listener in self._wires.get(bcm, []) if bcm is not None else []:
                listener(None)


class FakeSpiDev:
    """``spidev.SpiDev`` talking to the chip registered for (bus, device)."""

    def __init__(self, chips: Mapping[tuple[int, int], Mfrc522Chip]) -> None:
        self._chips = chips
        self.chip: Mfrc522Chip | None = None
        self.max_speed_hz = 500_000
        self.mode = 0

    def open(self, bus: int, device: int) -> None:
        if (bus, device) not in self._chips:
            raise FileNotFoundError(2, "No such file or directory", f"/dev/spidev{bus}.{device}")
        self.chip = self._chips[(bus, device)]

    def xfer2(self, data: list[int], speed_hz: int = 0, delay_usecs: int = 0,
              bits_per_word: int = 0) -> list[int]:
        if self.chip is None:
            raise OSError(9, "Bad file descriptor")
        return self.chip.xfer2(list(data), speed_hz or self.max_speed_hz, self.mode)

    def close(self) -> None:
        self.chip = None


def spidev_module(chips: Mapping[tuple[int, int], Mfrc522Chip]) -> types.ModuleType:
    """A module with ``SpiDev`` whose instances reach ``chips``."""
    module = types.ModuleType("spidev")
    module.SpiDev = lambda: FakeSpiDev(chips)  # type: ignore[attr-defined]
    return module


_DRIVERS = ("spidev", "RPi", "RPi.GPIO")


@contextmanager
def pi_modules(
    chips: Mapping[tuple[int, int], Mfrc522Chip], gpio: FakeGPIO | None = None
) -> Iterator[FakeGPIO]:
    """Install fake ``spidev`` and ``RPi.GPIO`` for a ``with`` block; yields the fake GPIO."""
    gpio = gpio or FakeGPIO()
    for chip in chips.values():
        gpio.wire(chip.rst_pin, chip.set_nrstpd)
    rpi = types.ModuleType("RPi")
    rpi.GPIO = gpio  # type: ignore[attr-defined]
    saved = {name: sys.modules.get(name) for name in (*_DRIVERS, *_mfrc522_names())}
    for name in _mfrc522_names():
        sys.modules.pop(name, None)
    sys.modules.update({"spidev": spidev_module(chips), "RPi": rpi, "RPi.GPIO": gpio})
    try:
        yield gpio
    finally:
        for name in {*saved, *_mfrc522_names()}:
            sys.modules.pop(name, None)
        sys.modules.update({k: v for k, v in saved.items() if v is not None})


def _mfrc522_names() -> list[str]:
    return [n for n in sys.modules if n == "mfrc522" or n.startswith("mfrc522.")]
