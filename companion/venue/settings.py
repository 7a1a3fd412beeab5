"""``[venue]`` in the config: which broker, which credentials, which venue and table."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.engine.i18n import Msg

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
        if not isinstance(raw, Mapping):
            raise VenueConfigError(Msg("{section} must be a table of settings.",
                                       section=section))
        unknown = set(raw) - KEYS
        if unknown:
            raise VenueConfigError(Msg("Unknown key(s) in {section}: {keys}. Known: {known}.",
                                       section=section, keys=", ".join(sorted(unknown)),
                                       known=", ".join(sorted(KEYS))))
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
