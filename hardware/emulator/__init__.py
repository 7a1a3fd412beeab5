"""An MFRC522 emulator and fake Pi driver modules, for tests, the benchmark and demos."""

from hardware.emulator.chip import Glitches, Mfrc522Chip, Tag, VirtualClock
from hardware.emulator.fakes import FakeGPIO, FakeSpiDev, pi_modules

__all__ = ["FakeGPIO", "FakeSpiDev", "Glitches", "Mfrc522Chip", "Tag", "VirtualClock", "pi_modules"]
