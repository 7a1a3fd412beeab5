"""``[venue]`` in the config: which broker, which credentials, which venue and table; and
``[home_assistant]``, the home's broker (read without loading the MQTT client)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.engine.i18n import LANGUAGES, PSEUDO, SOURCE, Msg

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")
"""Venue and table names: one MQTT topic level, no wildcards, short enough for a screen."""

KEYS = {"broker", "port", "username", "password", "tls", "ca_file", "venue", "table",
        "keepalive"}


class VenueConfigError(ValueError):
    """``[venue]`` is wrong; the message says how to fix it."""


@dataclass(frozen=True)
class VenueSettings:
    """Where and as whom a table publishes."""

    broker: str
    venue: str
    table: str
    port: int = 1883
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca_file: Path | None = None
    keepalive: int = 30

    @property
    def client_id(self) -> str:
        return f"companion-{self.venue}-{self.table}"

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any], section: str = "[venue]",
                  table_key: str = "table") -> VenueSettings:
        """Validate the ``[venue]`` table (a clear message for anything wrong). ``section``
        and ``table_key`` name the section and the table's key in those messages (the
        ``[home_assistant]`` section checks its broker here, its ``name`` as the table)."""
        _check_table(raw, section, KEYS)
        broker = raw.get("broker")
        if not isinstance(broker, str) or not broker.strip():
            raise VenueConfigError(Msg("{section} needs broker = \"host name or address\".",
                                       section=section))
        names: dict[str, str] = {}
        for key in ("venue", "table"):
            value = raw.get(key)
            if not isinstance(value, str) or not NAME.match(value):
                raise VenueConfigError(Msg(
                    "{section} {key} = {value}: use 1 to 32 letters, digits, '-' or '_' "
                    "(it is one level of the MQTT topic).", section=section,
                    key=table_key if key == "table" else key, value=repr(value)))
            names[key] = value
        if names["table"] == "screen":
            raise VenueConfigError(Msg(
                "{section} {key} = \"screen\" is the venue screen's account on the broker; "
                "name the table otherwise.", section=section, key=table_key))
        tls = raw.get("tls", False)
        if not isinstance(tls, bool):
            raise VenueConfigError(Msg("{section} tls is true or false.", section=section))
        port = raw.get("port", 8883 if tls else 1883)
        if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
            raise VenueConfigError(Msg("{section} port = {port}: a number from 1 to 65535.",
                                       section=section, port=repr(port)))
        keepalive = raw.get("keepalive", 30)
        if not isinstance(keepalive, int) or isinstance(keepalive, bool) or keepalive < 5:
            raise VenueConfigError(Msg(
                "{section} keepalive is a number of seconds, at least 5.", section=section))
        creds: dict[str, str | None] = {}
        for key in ("username", "password"):
            value = raw.get(key)
            if value is not None and not isinstance(value, str):
                raise VenueConfigError(Msg("{section} {key} is a string.", section=section,
                                           key=key))
            creds[key] = value
        if creds["password"] is not None and creds["username"] is None:
            raise VenueConfigError(Msg("{section} has a password but no username.",
                                       section=section))
        ca = raw.get("ca_file")
        if ca is not None and (not isinstance(ca, str) or not Path(ca).is_file()):
            raise VenueConfigError(Msg("{section} ca_file = {file} is not a readable file.",
                                       section=section, file=repr(ca)))
        return cls(broker=broker.strip(), venue=names["venue"], table=names["table"],
                   port=port, username=creds["username"], password=creds["password"], tls=tls,
                   ca_file=Path(ca) if ca else None, keepalive=keepalive)


# -- the home's broker ([home_assistant], docs/homeassistant.md) ---------------------------
HOME_KEYS = {"broker", "port", "username", "password", "tls", "ca_file", "name",
             "discovery_prefix", "keepalive", "language"}
HOME_SECTION = "[home_assistant]"
"""The config's section, as its refusals name it."""
HOME_VENUE = "home"
"""The venue level of the table's topics on the home broker (companion/home/<name>/...)."""


@dataclass(frozen=True)
class HomeAssistantSettings:
    mqtt: VenueSettings
    discovery_prefix: str = "homeassistant"
    language: str = SOURCE
    """The language of the entities' names and states (the house's, as the OLED's)."""

    @property
    def name(self) -> str:
        return self.mqtt.table

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any]) -> HomeAssistantSettings:
        """``[home_assistant]`` checked: the broker's settings as in ``[venue]`` (docs/
        venue.md), ``name`` (this companion on the broker, default ``companion``) and
        ``discovery_prefix`` (Home Assistant's, default ``homeassistant``)."""
        _check_table(raw, HOME_SECTION, HOME_KEYS)
        prefix = raw.get("discovery_prefix", "homeassistant")
        if not isinstance(prefix, str) or not NAME.match(prefix):
            raise VenueConfigError(Msg(
                "{section} discovery_prefix = {value}: one topic level of letters, digits, "
                "'-' or '_'.", section=HOME_SECTION, value=repr(prefix)))
        language = raw.get("language", SOURCE)
        if language not in (*LANGUAGES, PSEUDO):
            raise VenueConfigError(Msg("{section} language = {value}: one of {languages}.",
                                       section=HOME_SECTION, value=repr(language),
                                       languages=", ".join(LANGUAGES)))
        venue = {k: v for k, v in raw.items()
                 if k not in ("name", "discovery_prefix", "language")}
        venue.update(venue=HOME_VENUE, table=raw.get("name", "companion"))
        mqtt = VenueSettings.from_toml(venue, HOME_SECTION, table_key="name")
        return cls(mqtt, prefix, language)


def _check_table(raw: Any, section: str, keys: set[str]) -> None:
    """A config section is a table of known keys (else a clear message naming it)."""
    if not isinstance(raw, Mapping):
        raise VenueConfigError(Msg("{section} must be a table of settings.", section=section))
    unknown = set(raw) - keys
    if unknown:
        raise VenueConfigError(Msg("Unknown key(s) in {section}: {keys}. Known: {known}.",
                                   section=section, keys=", ".join(sorted(unknown)),
                                   known=", ".join(sorted(keys))))
