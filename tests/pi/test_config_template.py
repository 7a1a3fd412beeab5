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


def test_hardware_disabled_as_the_docs_say_runs_without_any_part(tmp_path: Path) -> None:
    """docs/raspberry-pi.md: "Set [hardware] enabled = false to try the page before wiring
    anything": the service starts with virtual taps and the OLED mirror, touching no pin."""
    from companion.platform.config import load_config
    from hardware.table import TableHardware

    text = TEMPLATE.read_text().replace("# enabled = false", "enabled = false")
    assert "\nenabled = false" in text
    path = tmp_path / "config.toml"
    path.write_text(text)
    config = load_config(path)
    taps: list[tuple[str, str]] = []
    hw = TableHardware.from_config(config["hardware"], on_tap=lambda r, u: taps.append((r, u)),
                                   on_action=lambda a, e: None, simulate=False)
    try:
        hw.virtual_tap("table", "04A1B2C3")
        assert hw.frame_png()
    finally:
        hw.stop()


def test_hardware_enabled_must_be_true_or_false(tmp_path: Path) -> None:
    from companion.platform.config import ConfigError, load_config

    path = tmp_path / "config.toml"
    path.write_text("[hardware]\nenabled = \"no\"\n")
    with pytest.raises(ConfigError, match="true or false"):
        load_config(path)
