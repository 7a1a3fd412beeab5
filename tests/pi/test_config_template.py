"""systemd/config.example.toml: what a fresh Pi starts with must load."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

TEMPLATE = Path(__file__).resolve().parents[2] / "systemd" / "config.example.toml"


def _load() -> dict[str, object]:
    with TEMPLATE.open("rb") as f:
        return tomllib.load(f)


def test_phones_on_the_wifi_can_reach_the_page() -> None:
    server = _load()["server"]
    assert server == {"host": "0.0.0.0", "port": 8080}


def test_hardware_section_is_accepted_by_the_hardware_loader() -> None:
    config = pytest.importorskip("hardware.config")
    hardware = config.load_hardware_config(_load()["hardware"])
    assert [r.kind for r in hardware.readers] == ["mfrc522"]
    assert hardware.display.i2c_address == 0x3C
