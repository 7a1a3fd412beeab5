"""The companion's config file (TOML): server, hardware, banker PIN."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """The config file is missing or wrong; the message says how to fix it."""


def load_config(path: str | Path | None) -> dict[str, Any]:
    """The parsed config, or defaults when no path is given."""
    if path is None:
        return {}
    p = Path(path)
    try:
        with p.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(
            f"Config file {p} does not exist. Copy systemd/config.example.toml "
            "there, or start without --config to use the defaults."
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"Config file {p} is not valid TOML: {exc}") from None
    unknown = set(data) - {"server", "hardware", "banker", "state", "venue"}
    if unknown:
        raise ConfigError(
            f"Unknown section(s) in {p}: {', '.join(sorted(unknown))}. "
            "Known: server, hardware, banker, state, venue."
        )
    if isinstance(data.get("hardware"), dict) and "enabled" in data["hardware"]:
        data["hardware"] = _hardware_switch(dict(data["hardware"]), p)
    if "venue" in data:
        venue_settings(data)
    return data


def venue_settings(config: dict[str, Any]) -> Any:
    """``[venue]`` checked (a VenueSettings), or None when the table is not in a venue."""
    if "venue" not in config:
        return None
    from companion.venue.settings import VenueConfigError, VenueSettings

    try:
        return VenueSettings.from_toml(config["venue"])
    except VenueConfigError as exc:
        raise ConfigError(str(exc)) from None


SIMULATED_HARDWARE: dict[str, Any] = {
    "readers": [{"role": "table", "kind": "fake"}],
    "display": {"kind": "dummy"},
    "buttons": {"kind": "mock"},
    "feedback": {"kind": "mock"},
}
"""What ``[hardware] enabled = false`` stands for: virtual taps, the OLED mirror and the
buttons on the page, no GPIO, SPI or I2C touched."""


def _hardware_switch(section: dict[str, Any], path: Path) -> dict[str, Any]:
    """``enabled = true`` keeps the section as it is; ``false`` swaps every part for its
    simulation (tap timing settings are kept)."""
    enabled = section.pop("enabled")
    if not isinstance(enabled, bool):
        raise ConfigError(f"[hardware] enabled in {path} is true or false, not {enabled!r}.")
    if enabled:
        return section
    out = {k: v for k, v in section.items() if k == "taps"}
    out.update({k: v for k, v in SIMULATED_HARDWARE.items()})
    return out


def default_state_dir() -> Path:
    """``$COMPANION_STATE_DIR``, else ``~/.local/state/companion``."""
    env = os.environ.get("COMPANION_STATE_DIR")
    return Path(env) if env else Path.home() / ".local" / "state" / "companion"


def on_raspberry_pi() -> bool:
    try:
        return (
            "raspberry pi" in Path("/proc/device-tree/model").read_text("utf-8", "ignore").lower()
        )
    except OSError:
        return False
