"""Shared fixtures: emulated readers, a mock pin factory, reference-image comparison."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image, ImageChops

from hardware.emulator import FakeGPIO, Mfrc522Chip, VirtualClock, pi_modules

REFERENCE = Path(__file__).parent / "reference"


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


def assert_matches_reference(image: Image.Image, name: str) -> None:
    """Compare with tests/hardware/reference/<name>.png; UPDATE_REFERENCE=1 rewrites it."""
    path = REFERENCE / f"{name}.png"
    image = image.convert("1")
    if os.environ.get("UPDATE_REFERENCE") == "1" or not path.exists():
        if not os.environ.get("UPDATE_REFERENCE") == "1":
            pytest.fail(f"no reference image {path}; run with UPDATE_REFERENCE=1 and look at it")
        REFERENCE.mkdir(parents=True, exist_ok=True)
        image.save(path)
        return
    expected = Image.open(path).convert("1")
    assert expected.size == image.size
    diff = ImageChops.difference(expected.convert("L"), image.convert("L")).getbbox()
    assert diff is None, f"{name}: pixels differ in box {diff} (UPDATE_REFERENCE=1 to accept)"
