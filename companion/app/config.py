"""The config as the companion runs it: the platform's sections (companion.platform.config)
and the venue adapters' ``[venue]`` and ``[home_assistant]``, each checked at load so a wrong
value stops the start with the fix, not a later thread."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.engine.i18n import said
from companion.platform import config as platform
from companion.platform.config import ConfigError
from companion.venue.settings import HomeAssistantSettings, VenueConfigError, VenueSettings


def load_config(path: str | Path | None) -> dict[str, Any]:
    """The parsed and checked config, or defaults when no path is given."""
    data = platform.load_config(path)
    venue_settings(data)
    home_assistant_settings(data)
    return data


def home_assistant_settings(config: dict[str, Any]) -> HomeAssistantSettings | None:
    """``[home_assistant]`` checked, or None (off by default; docs/homeassistant.md)."""
    if "home_assistant" not in config:
        return None
    try:
        return HomeAssistantSettings.from_toml(config["home_assistant"])
    except VenueConfigError as exc:
        raise ConfigError(said(exc)) from None


def venue_settings(config: dict[str, Any]) -> VenueSettings | None:
    """``[venue]`` checked (a VenueSettings), or None when the table is not in a venue."""
    if "venue" not in config:
        return None
    try:
        return VenueSettings.from_toml(config["venue"])
    except VenueConfigError as exc:
        raise ConfigError(said(exc)) from None
