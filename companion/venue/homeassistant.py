"""The house knows a game is on: the table's state for Home Assistant, by MQTT discovery.

Optional and off by default (``[home_assistant]`` in the config, docs/homeassistant.md).
It is the venue's publisher (:class:`VenuePublisher`: the game thread never waits on the
network, everything is sent again after a reconnection) pointed at the home's broker, with
what Home Assistant reads only: on every connection Home Assistant's discovery configs
(retained), and after every pass a retained state for the entities: is a game running,
which, whose turn, who leads, the last thing said. No event, log page, digest or summary
goes to the house (no entity reads them); those an earlier version left retained there are
cleared once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from companion import __version__
from companion.engine.i18n import N_, SOURCE, Msg, render
from companion.venue import topics
from companion.venue.publisher import VenuePublisher
from companion.venue.settings import HomeAssistantSettings

MAX_STATE = 255
"""Home Assistant keeps at most 255 characters of a sensor's state."""
ORIGIN = {"name": "Board Companion", "sw_version": __version__}
"""Who sends the discovery configs (Home Assistant shows it in the device's MQTT info)."""
CLEARED = "homeassistant-retained-log-cleared"
"""The outbox's mark: the log pages and digests once retained on the house broker are gone."""


ENTITIES: tuple[tuple[str, str, str, dict[str, Any]], ...] = (
    ("binary_sensor", "game_running", N_("Game running"),
     {"value_template": "{{ 'ON' if value_json.running else 'OFF' }}",
      "device_class": "running"}),
    ("sensor", "game", N_("Game"), {"value_template": "{{ value_json.game }}",
                                "icon": "mdi:dice-multiple"}),
    ("sensor", "turn", N_("Whose turn"), {"value_template": "{{ value_json.turn }}",
                                      "icon": "mdi:account-arrow-right"}),
    ("sensor", "leader", N_("Leader"), {"value_template": "{{ value_json.leader }}",
                                    "icon": "mdi:trophy"}),
    ("sensor", "last_event", N_("Last event"), {"value_template": "{{ value_json.last }}",
                                            "icon": "mdi:message-text"}),
)
"""Each entity: Home Assistant component, object id, name (in the house's language), its own
config keys."""


def discovery(settings: HomeAssistantSettings, state_topic: str, status_topic: str,
              page_url: str | None = None) -> dict[str, dict[str, Any]]:
    """Topic -> retained discovery config, one per entity; ``page_url`` (the table's page)
    is the device's link in Home Assistant."""
    node = f"companion_{settings.name}"
    device: dict[str, Any] = {
        "identifiers": [node], "name": f"Board Companion {settings.name}",
        "manufacturer": "Board Companion", "model": "Board Companion table",
        "sw_version": __version__}
    if page_url:
        device["configuration_url"] = page_url
    out = {}
    for component, object_id, name, extra in ENTITIES:
        out[f"{settings.discovery_prefix}/{component}/{node}/{object_id}/config"] = {
            "name": render(Msg(name), settings.language), "unique_id": f"{node}_{object_id}",
            "default_entity_id": f"{component}.{node}_{object_id}", "origin": ORIGIN,
            "state_topic": state_topic, "availability_topic": status_topic,
            "availability_template": "{{ 'online' if value_json.online else 'offline' }}",
            "device": device, **extra}
    return out


def house_state(view: Mapping[str, Any] | None, lang: str = SOURCE) -> dict[str, Any]:
    """What the entities show, from the served game's view (public fields only); the last
    line in language ``lang``."""
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
            "last": str(render(log[-1], lang))[:MAX_STATE] if log else ""}


class HomeAssistantPublisher(VenuePublisher):
    """The venue publisher for the home's broker, with Home Assistant's entities only."""

    def __init__(self, service: Any, settings: HomeAssistantSettings, **kw: Any) -> None:
        self.home = settings
        self._house: bytes = b""
        self.page_url: str | None = None
        """The table's page, the device's link in Home Assistant (:meth:`follow`)."""
        self._configs: bytes = b""
        super().__init__(service, settings.mqtt, **kw)

    def follow(self, page_url: str) -> None:
        """The page moved (another network): the configs are sent again with the new link."""
        self.page_url = page_url
        self._wake.set()

    def _resend_retained(self, box: Any) -> None:
        self.client.publish(self.topic("status"), self._status(True), 1, True)
        if not box.marked(CLEARED):
            self._clear_old_log(box)
        self._configs = b""
        self._house = b""

    def _clear_old_log(self, box: Any) -> None:
        """Once: what an earlier version retained on the house broker and no entity reads
        (each game's log pages and digest, the summary) is cleared."""
        for gid, (delivered, _) in box.cursors().items():
            self.client.publish(self.topic("game", gid), b"", 1, True)
            for page in range(topics.page_of(delivered) + 1 if delivered else 0):
                self.client.publish(self.topic("game", gid, "log", str(page)), b"", 1, True)
        self.client.publish(self.topic("summary"), b"", 1, True)
        box.mark(CLEARED)

    def _send_new(self, box: Any, gid: str) -> None:
        """Nothing of the log goes to the house: the cursor just follows it."""
        last = box.last_seq(gid)
        self._sent[gid] = self._acked[gid] = max(last, self._sent.get(gid, 0))

    def _send_digest(self, box: Any, gid: str) -> None:
        """No digest either: the entities read the served game's state only."""

    def _send_summary(self) -> None:
        configs = discovery(self.home, self.topic("homeassistant"), self.topic("status"),
                            self.page_url)
        raw_configs = topics.encode(configs)
        if raw_configs != self._configs:
            for topic, config in configs.items():
                self.client.publish(topic, topics.encode(config), 1, True)
            self._configs = raw_configs
        active = self.service.active_game()
        view = dict(self.service.view(active)) if active else None
        raw = json.dumps(house_state(view, self.home.language), ensure_ascii=False).encode()
        if raw != self._house:
            self.client.publish(self.topic("homeassistant"), raw, 1, True)
            self._house = raw
