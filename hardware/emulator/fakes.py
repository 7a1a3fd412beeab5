"""Fake ``spidev`` and ``RPi.GPIO`` modules wired to emulated MFRC522 chips.

:func:`pi_modules` installs them in ``sys.modules`` (and drops any cached ``mfrc522``) for
the duration of a ``with`` block, so the real adapter and the unmodified ``mfrc522`` library
run against the emulator. Calls the fakes do not know fail with AttributeError.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from hardware.emulator.chip import Mfrc522Chip


class FakeGPIO(types.ModuleType):
    """The parts of RPi.GPIO the mfrc522 library and the adapter call; records pin use."""

    BOARD, BCM, OUT, IN, LOW, HIGH = 10, 11, 0, 1, 0, 1

    def __init__(self) -> None:
        super().__init__("RPi.GPIO")
        self.mode: int | None = None
        self.pins: dict[int, int] = {}  # pin -> last output level, for pins set up
        self.cleanup_calls: list[object] = []

    def getmode(self) -> int | None:
        return self.mode

    def setmode(self, mode: int) -> None:
        if self.mode is not None and mode != self.mode:
            raise ValueError("A different mode has already been set!")
        self.mode = mode

    def setwarnings(self, flag: bool) -> None:
        pass

    def setup(self, pin: int, direction: int, initial: int = 0) -> None:
        if self.mode is None:
            raise RuntimeError("Please set pin numbering mode using GPIO.setmode")
        self.pins[pin] = initial

    def output(self, pin: int, value: int) -> None:
        if pin not in self.pins:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        self.pins[pin] = int(value)

    def cleanup(self, channel: int | list[int] | None = None) -> None:
        self.cleanup_calls.append(channel)
        if channel is None:
            self.pins.clear()
            self.mode = None
            return
        for pin in channel if isinstance(channel, list) else [channel]:
            self.pins.pop(pin, None)
        if not self.pins:
            self.mode = None


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

    def xfer2(self, data: list[int]) -> list[int]:
        if self.chip is None:
            raise OSError(9, "Bad file descriptor")
        return self.chip.xfer2(list(data))

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
