"""The house knows a game is on: the table's state for Home Assistant, by MQTT discovery.

Optional and off by default (``[home_assistant]`` in the config, docs/homeassistant.md).
It is the venue's publisher (:class:`VenuePublisher`: the event log is the outbox, the game
thread never waits on the network, everything is sent again after a reconnection) pointed
at the home's broker, plus two things: on every connection it publishes Home Assistant's
discovery configs (retained), and after every pass a retained state for the entities: is a
game running, which, whose turn, who leads, the last thing said.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.venue import topics
from companion.venue.publisher import VenuePublisher
from companion.venue.settings import NAME, VenueConfigError, VenueSettings

KEYS = {"broker", "port", "username", "password", "tls", "ca_file", "name",
        "discovery_prefix", "keepalive"}
VENUE = "home"
"""The venue level of the table's topics on the home broker (companion/home/<name>/...)."""
MAX_STATE = 255
"""Home Assistant keeps at most 255 characters of a sensor's state."""


@dataclass(frozen=True)
class HomeAssistantSettings:
    mqtt: VenueSettings
    discovery_prefix: str = "homeassistant"

    @property
    def name(self) -> str:
        return self.mqtt.table

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any]) -> HomeAssistantSettings:
        """``[home_assistant]`` checked: the broker's settings as in ``[venue]`` (docs/
        venue.md), ``name`` (this companion on the broker, default ``companion``) and
        ``discovery_prefix`` (Home Assistant's, default ``homeassistant``)."""
        if not isinstance(raw, Mapping):
            raise VenueConfigError("[home_assistant] must be a table of settings.")
        unknown = set(raw) - KEYS
        if unknown:
            raise VenueConfigError(f"Unknown key(s) in [home_assistant]: "
                                   f"{', '.join(sorted(unknown))}. Known: "
                                   f"{', '.join(sorted(KEYS))}.")
        prefix = raw.get("discovery_prefix", "homeassistant")
        if not isinstance(prefix, str) or not NAME.match(prefix):
            raise VenueConfigError(f"[home_assistant] discovery_prefix = {prefix!r}: one "
                                   "topic level of letters, digits, '-' or '_'.")
        venue = {k: v for k, v in raw.items() if k not in ("name", "discovery_prefix")}
        venue.update(venue=VENUE, table=raw.get("name", "companion"))
        try:
            mqtt = VenueSettings.from_toml(venue)
        except VenueConfigError as exc:
            raise VenueConfigError(str(exc).replace("[venue] table", "[home_assistant] name")
                                   .replace("[venue]", "[home_assistant]")) from None
        return cls(mqtt, prefix)


ENTITIES: tuple[tuple[str, str, str, dict[str, Any]], ...] = (
    ("binary_sensor", "game_running", "Game running",
     {"value_template": "{{ 'ON' if value_json.running else 'OFF' }}",
      "device_class": "running"}),
    ("sensor", "game", "Game", {"value_template": "{{ value_json.game }}",
                                "icon": "mdi:dice-multiple"}),
    ("sensor", "turn", "Whose turn", {"value_template": "{{ value_json.turn }}",
                                      "icon": "mdi:account-arrow-right"}),
    ("sensor", "leader", "Leader", {"value_template": "{{ value_json.leader }}",
                                    "icon": "mdi:trophy"}),
    ("sensor", "last_event", "Last event", {"value_template": "{{ value_json.last }}",
                                            "icon": "mdi:message-text"}),
)
"""Each entity: Home Assistant component, object id, name, its own config keys."""


def discovery(settings: HomeAssistantSettings, state_topic: str,
              status_topic: str) -> dict[str, dict[str, Any]]:
    """Topic -> retained discovery config, one per entity."""
    node = f"companion_{settings.name}"
    device = {"identifiers": [node], "name": f"Board Companion {settings.name}",
              "manufacturer": "Board Companion", "model": "Board Companion table"}
    out = {}
    for component, object_id, name, extra in ENTITIES:
        out[f"{settings.discovery_prefix}/{component}/{node}/{object_id}/config"] = {
            "name": name, "unique_id": f"{node}_{object_id}", "object_id": f"{node}_{object_id}",
            "state_topic": state_topic, "availability_topic": status_topic,
            "availability_template": "{{ 'online' if value_json.online else 'offline' }}",
            "device": device, **extra}
    return out


def house_state(view: Mapping[str, Any] | None) -> dict[str, Any]:
    """What the entities show, from the served game's view (public fields only)."""
    if view is None:
        return {"running": False, "game": "", "turn": "", "leader": "", "last": ""}
    public = topics.digest(view, str(view.get("game_id", "")))
    names = {p["id"]: p["name"] for p in public["players"]}
    ranked = sorted((p for p in public["players"] if not p["bankrupt"]),
                    key=lambda p: -int(p["points"]))
    if public["finished"]:
        leader = " & ".join(names.get(w, w) for w in public["winners"])
    else:
        leader = ranked[0]["name"] if ranked and (
            len(ranked) == 1 or ranked[0]["points"] > ranked[1]["points"]) else ""
    log = view.get("log") or []
    return {"running": not public["finished"], "game": str(public["title"] or "")[:MAX_STATE],
            "turn": "" if public["finished"] else names.get(public["current"] or "", ""),
            "leader": leader[:MAX_STATE],
            "last": str(log[-1])[:MAX_STATE] if log else ""}


class HomeAssistantPublisher(VenuePublisher):
    """The venue publisher for the home's broker, with Home Assistant's entities."""

    def __init__(self, service: Any, settings: HomeAssistantSettings, **kw: Any) -> None:
        self.home = settings
        self._house: bytes = b""
        super().__init__(service, settings.mqtt, **kw)

    def _resend_retained(self, box: Any) -> None:
        super()._resend_retained(box)
        for topic, config in discovery(self.home, self.topic("homeassistant"),
                                       self.topic("status")).items():
            self.client.publish(topic, topics.encode(config), 1, True)
        self._house = b""

    def _send_summary(self) -> None:
        super()._send_summary()
        active = self.service.active_game()
        view = dict(self.service.view(active)) if active else None
        raw = json.dumps(house_state(view), ensure_ascii=False).encode()
        if raw != self._house:
            self.client.publish(self.topic("homeassistant"), raw, 1, True)
            self._house = raw
