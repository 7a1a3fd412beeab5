"""Shared fixtures: emulated readers and a mock pin factory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.emulator import FakeGPIO, Mfrc522Chip, VirtualClock, pi_modules


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()


@pytest.fixture
def chip(clock: VirtualClock) -> Mfrc522Chip:
    return Mfrc522Chip(clock)


@pytest.fixture
def gpio(chip: Mfrc522Chip) -> Iterator[FakeGPIO]:
    with pi_modules({(0, 0): chip}) as fake:
        yield fake


@pytest.fixture
def pins() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()
