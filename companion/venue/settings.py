"""``[venue]`` in the config: which broker, which credentials, which venue and table."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    def from_toml(cls, raw: Mapping[str, Any]) -> VenueSettings:
        """Validate the ``[venue]`` table (a clear message for anything wrong)."""
        if not isinstance(raw, Mapping):
            raise VenueConfigError("[venue] must be a table of settings.")
        unknown = set(raw) - KEYS
        if unknown:
            raise VenueConfigError(f"Unknown key(s) in [venue]: {', '.join(sorted(unknown))}. "
                                   f"Known: {', '.join(sorted(KEYS))}.")
        broker = raw.get("broker")
        if not isinstance(broker, str) or not broker.strip():
            raise VenueConfigError("[venue] needs broker = \"host name or address\".")
        names: dict[str, str] = {}
        for key in ("venue", "table"):
            value = raw.get(key)
            if not isinstance(value, str) or not NAME.match(value):
                raise VenueConfigError(
                    f"[venue] {key} = {value!r}: use 1 to 32 letters, digits, '-' or '_' "
                    "(it is one level of the MQTT topic).")
            names[key] = value
        if names["table"] == "screen":
            raise VenueConfigError("[venue] table = \"screen\" is the venue screen's account "
                                   "on the broker; name the table otherwise.")
        tls = raw.get("tls", False)
        if not isinstance(tls, bool):
            raise VenueConfigError("[venue] tls is true or false.")
        port = raw.get("port", 8883 if tls else 1883)
        if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
            raise VenueConfigError(f"[venue] port = {port!r}: a number from 1 to 65535.")
        keepalive = raw.get("keepalive", 30)
        if not isinstance(keepalive, int) or isinstance(keepalive, bool) or keepalive < 5:
            raise VenueConfigError("[venue] keepalive is a number of seconds, at least 5.")
        creds: dict[str, str | None] = {}
        for key in ("username", "password"):
            value = raw.get(key)
            if value is not None and not isinstance(value, str):
                raise VenueConfigError(f"[venue] {key} is a string.")
            creds[key] = value
        if creds["password"] is not None and creds["username"] is None:
            raise VenueConfigError("[venue] has a password but no username.")
        ca = raw.get("ca_file")
        if ca is not None and (not isinstance(ca, str) or not Path(ca).is_file()):
            raise VenueConfigError(f"[venue] ca_file = {ca!r} is not a readable file.")
        return cls(broker=broker.strip(), venue=names["venue"], table=names["table"],
                   port=port, username=creds["username"], password=creds["password"], tls=tls,
                   ca_file=Path(ca) if ca else None, keepalive=keepalive)
