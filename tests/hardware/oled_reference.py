"""Comparing OLED frames with the reviewed reference PNGs in tests/hardware/reference/."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

REFERENCE = Path(__file__).parent / "reference"


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
