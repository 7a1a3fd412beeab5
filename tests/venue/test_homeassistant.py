"""The house knows a game is on: Home Assistant's MQTT discovery configs and the table's
state, checked on a real Mosquitto as Home Assistant would read them (docs/homeassistant.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from venue_helpers import MOSQUITTO, PASSWD, ROOT, free_port, run_mosquitto, wait_until

from companion.app.config import home_assistant_settings
from companion.platform.config import ConfigError
from companion.service.game_service import GameService
from companion.service.script import parse_step
from companion.venue.homeassistant import HomeAssistantPublisher
from companion.venue.settings import HomeAssistantSettings

ACL = """user companion
topic write companion/home/companion/#
topic write homeassistant/#
user hass
topic read #
"""


@pytest.fixture
def home_broker(tmp_path: Path) -> Iterator[int]:
    """Mosquitto as a home runs it for Home Assistant: accounts for the companion and for
    Home Assistant, the companion allowed to write its own topics and discovery."""
    if not os.path.exists(MOSQUITTO):
        pytest.skip("needs Debian's mosquitto (./scripts/test installs it as root)")
    port = free_port()
    passwd, acl = tmp_path / "passwd", tmp_path / "acl"
    passwd.touch()
    for user in ("companion", "hass"):
        subprocess.run([PASSWD, "-b", str(passwd), user, f"pw-{user}"], check=True,
                       capture_output=True)
    acl.write_text(ACL)
    conf = tmp_path / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous false\n"
                    f"password_file {passwd}\nacl_file {acl}\npersistence false\n"
                    f"log_dest file {tmp_path / 'mosquitto.log'}\n"
                    + ("user root\n" if os.geteuid() == 0 else ""))
    proc = run_mosquitto(conf, tmp_path / "mosquitto.log", port)
    try:
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=10)


class HomeAssistant:
    """What Home Assistant's MQTT integration reads: discovery configs and states."""

    def __init__(self, port: int) -> None:
        self.seen: dict[str, Any] = {}
        self.lock = threading.Lock()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="hass")
        self.client.username_pw_set("hass", "pw-hass")
        self.client.on_connect = lambda c, *a: c.subscribe([("homeassistant/#", 1),
                                                            ("companion/home/#", 1)])
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _message(self, client: Any, userdata: Any, msg: Any) -> None:
        with self.lock:
            self.seen[msg.topic] = json.loads(msg.payload) if msg.payload else None

    def get(self, topic: str) -> Any:
        with self.lock:
            return self.seen.get(topic)

    def state(self, config_topic: str) -> str:
        """An entity's state as Home Assistant renders its value template (the templates
        here are one Jinja expression over ``value_json``)."""
        import jinja2

        config = self.get(config_topic)
        payload = self.get(config["state_topic"])
        return str(jinja2.Template(config["value_template"]).render(value_json=payload))

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


SHOTS = ROOT / ("docs/screens" if os.environ.get("UPDATE_SCREENS") else "artifacts/screenshots")
ENTITY_IDS = [("binary_sensor", "game_running"), ("sensor", "game"), ("sensor", "turn"),
              ("sensor", "leader"), ("sensor", "last_event")]


def shoot_entities(hass: HomeAssistant) -> None:
    """A picture of the entities the discovery messages on the broker create, with their
    states (drawn here from what the broker holds; not Home Assistant's own page)."""
    import html
    import shutil

    if not shutil.which("/usr/bin/chromium"):
        return
    from playwright.sync_api import sync_playwright

    rows = []
    for component, object_id in ENTITY_IDS:
        topic = CONFIGS.format(component, object_id)
        config = hass.get(topic)
        rows.append("<tr><td>{}</td><td><code>{}</code></td><td>{}</td></tr>".format(
            html.escape(config["name"]), html.escape(config["default_entity_id"]),
            html.escape(hass.state(topic))))
    device = hass.get(CONFIGS.format(*ENTITY_IDS[0]))["device"]["name"]
    page_html = (
        "<html><body style='font:15px DejaVu Sans,sans-serif;margin:16px'>"
        f"<h3>MQTT device: {html.escape(device)}</h3><table cellpadding=6 "
        "style='border-collapse:collapse' border=1><tr><th>Entity</th><th>Entity id</th>"
        f"<th>State</th></tr>{''.join(rows)}</table></body></html>")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 760, "height": 200})
        page.set_content(page_html)
        page.screenshot(path=str(SHOTS / "homeassistant-entities.png"), full_page=True)
        browser.close()


SETTINGS = {"broker": "127.0.0.1", "username": "companion", "password": "pw-companion"}
CONFIGS = "homeassistant/{}/companion_companion/{}/config"


def test_discovery_and_state_on_the_broker(tmp_path: Path, home_broker: int) -> None:
    hass = HomeAssistant(home_broker)
    settings = HomeAssistantSettings.from_toml({**SETTINGS, "port": home_broker})
    data = json.loads((ROOT / "examples" / "mario-two-players.json").read_text("utf-8"))
    with GameService(tmp_path / "state") as service:
        publisher = HomeAssistantPublisher(service, settings).start()
        try:
            running = CONFIGS.format("binary_sensor", "game_running")
            wait_until(lambda: hass.get(running) is not None, what="the discovery configs")
            wait_until(lambda: all(hass.get(CONFIGS.format(*e)) is not None
                                   for e in ENTITY_IDS), what="every entity's config")
            config = hass.get(running)
            assert config["unique_id"] == "companion_companion_game_running"
            assert config["device"]["identifiers"] == ["companion_companion"]
            assert config["state_topic"] == "companion/home/companion/homeassistant"
            status = hass.get(config["availability_topic"])
            assert status is not None and status["online"] is True
            wait_until(lambda: hass.get(config["state_topic"]) is not None)
            assert hass.state(running) == "OFF"

            gid = service.create_game({k: v for k, v in data.items() if k != "steps"}).game_id
            for step in data["steps"][:5]:
                cmd = parse_step(service.state(gid)[1], step)
                assert service.submit(gid, {"actor": cmd.actor, "type": cmd.type,
                                            "args": cmd.args}).ok
            view = service.view(gid)
            last = CONFIGS.format("sensor", "last_event")
            wait_until(lambda: hass.state(last) == view["log"][-1], what="the last event")
            assert hass.state(running) == "ON"
            assert hass.state(CONFIGS.format("sensor", "game")) == view["title"]
            turn = next(p["name"] for p in view["players"] if p["id"] == view["current"])
            assert hass.state(CONFIGS.format("sensor", "turn")) == turn
            shoot_entities(hass)

            for step in data["steps"][5:]:
                cmd = parse_step(service.state(gid)[1], step)
                assert service.submit(gid, {"actor": cmd.actor, "type": cmd.type,
                                            "args": cmd.args}).ok
            wait_until(lambda: hass.state(running) == "OFF", what="the game's end")
            assert hass.state(CONFIGS.format("sensor", "leader")) == "Mario"
            assert hass.state(CONFIGS.format("sensor", "turn")) == ""
        finally:
            publisher.stop()
        wait_until(lambda: hass.get(config["availability_topic"])["online"] is False,
                   what="the table going offline")
    (tmp_path / "entities.json").write_text(json.dumps(hass.seen, indent=1))
    hass.close()


def test_it_is_off_unless_configured_and_its_settings_are_checked() -> None:
    assert home_assistant_settings({}) is None
    assert home_assistant_settings({"home_assistant": SETTINGS}).name == "companion"
    with pytest.raises(ConfigError, match=r"Unknown key\(s\) in \[home_assistant\]: brokr"):
        home_assistant_settings({"home_assistant": {"brokr": "x"}})
    with pytest.raises(ConfigError, match=r"\[home_assistant\] name = 'a b'"):
        home_assistant_settings({"home_assistant": {**SETTINGS, "name": "a b"}})
    with pytest.raises(ConfigError, match="discovery_prefix"):
        home_assistant_settings({"home_assistant": {**SETTINGS, "discovery_prefix": "a/b"}})


def retained(port: int) -> dict[str, Any]:
    """What the broker keeps: a client that joins now gets every retained message before a
    message published after it subscribed (the sentinel)."""
    got: dict[str, Any] = {}
    subscribed = threading.Event()
    hass = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="late-hass")
    hass.username_pw_set("hass", "pw-hass")
    hass.on_connect = lambda c, *a: c.subscribe([("homeassistant/#", 1), ("companion/#", 1)])
    hass.on_subscribe = lambda *a: subscribed.set()
    hass.on_message = lambda c, u, m: got.__setitem__(m.topic, m.payload)
    hass.connect("127.0.0.1", port)
    hass.loop_start()
    try:
        wait_until(subscribed.is_set, what="the subscription")
        sender = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="sentinel")
        sender.username_pw_set("companion", "pw-companion")
        sender.connect("127.0.0.1", port)
        sender.loop_start()
        sender.publish("companion/home/companion/sentinel", b"end", 1).wait_for_publish(10)
        sender.loop_stop()
        sender.disconnect()
        wait_until(lambda: "companion/home/companion/sentinel" in got, what="the sentinel")
    finally:
        hass.loop_stop()
        hass.disconnect()
    got.pop("companion/home/companion/sentinel")
    return got


def test_the_house_keeps_only_what_its_entities_read(tmp_path: Path, home_broker: int) -> None:
    """Discovery in Home Assistant's current form (``default_entity_id``, ``origin``, the
    device's version and link to the table's page); on the house broker only the configs,
    the state and the status are retained: a game's log pages, digest and the summary an
    earlier version left there are cleared, once."""
    from companion.service.venue_outbox import Outbox

    settings = HomeAssistantSettings.from_toml({**SETTINGS, "port": home_broker})
    data = json.loads((ROOT / "examples" / "mario-two-players.json").read_text("utf-8"))
    with GameService(tmp_path / "state") as service:
        old = service.create_game({k: v for k, v in data.items() if k != "steps"}).game_id
        for step in data["steps"][:3]:
            cmd = parse_step(service.state(old)[1], step)
            assert service.submit(old, {"actor": cmd.actor, "type": cmd.type,
                                        "args": cmd.args}).ok
        # what an earlier version left: the game's pages and digest, the summary, retained
        box = Outbox(service, "home", "companion")
        box.track(old, tracked=True)
        box.save({old: service.state(old)[0]})
        stale = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="old-companion")
        stale.username_pw_set("companion", "pw-companion")
        stale.connect("127.0.0.1", home_broker)
        stale.loop_start()
        for topic in (f"game/{old}", f"game/{old}/log/0", "summary"):
            stale.publish(f"companion/home/companion/{topic}", b'{"v": 1}', 1,
                          True).wait_for_publish(10)
        stale.loop_stop()
        stale.disconnect()

        publisher = HomeAssistantPublisher(service, settings).start()
        publisher.follow("http://companion.local:8080/")
        try:
            gid = service.create_game({k: v for k, v in data.items() if k != "steps"}).game_id
            for step in data["steps"][:5]:
                cmd = parse_step(service.state(gid)[1], step)
                assert service.submit(gid, {"actor": cmd.actor, "type": cmd.type,
                                            "args": cmd.args}).ok
            last = service.view(gid)["log"][-1]
            wait_until(lambda: json.loads(retained(home_broker).get(
                "companion/home/companion/homeassistant", b"{}")).get("last") == last,
                what="the state after the moves")
            kept = retained(home_broker)
        finally:
            publisher.stop()
    configs = {t: json.loads(p) for t, p in kept.items() if t.startswith("homeassistant/")}
    assert len(configs) == len(ENTITY_IDS)
    for topic, config in configs.items():
        component = topic.split("/")[1]
        assert "object_id" not in config
        assert config["default_entity_id"] == f"{component}.{config['unique_id']}"
        assert config["origin"]["name"] == "Board Companion"
        assert config["device"]["sw_version"] == config["origin"]["sw_version"]
        assert config["device"]["configuration_url"] == "http://companion.local:8080/"
    assert sorted(t for t in kept if t.startswith("companion/")) == [
        "companion/home/companion/homeassistant", "companion/home/companion/status"]


def test_the_house_reads_the_table_in_its_own_language(tmp_path: Path) -> None:
    """``language = "es"`` under [home_assistant]: the last event and the entities' names are
    Spanish (issue 41); a language the companion does not speak is refused, naming the key."""
    from companion.venue.homeassistant import discovery, house_state

    settings = HomeAssistantSettings.from_toml({"broker": "localhost", "language": "es"})
    with GameService(tmp_path) as service:
        gid = str(service.create_game({"edition": "mario", "players": ["Lucía", "Sofía"],
                                       "dice": "physical", "seed": 5,
                                       "settings": {"order": "seated"}}).game_id)
        first = service.view(gid)["current"]
        assert service.submit(gid, {"actor": first, "type": "roll",
                                    "args": {"dice": [3, 1]}}).ok
        view = dict(service.view(gid))
        last = house_state(view, settings.language)["last"]
        assert last and last != str(view["log"][-1]), last
        assert house_state(view)["last"] == str(view["log"][-1])[:255]
    names = {c["unique_id"].rsplit("_", 2)[-1]: c["name"] for c in discovery(
        settings, "s", "t").values()}
    assert names["event"] == "Último suceso" and names["turn"] == "Turno de"
    with pytest.raises(ValueError, match="language"):
        HomeAssistantSettings.from_toml({"broker": "localhost", "language": "xx"})


@pytest.mark.parametrize("name", ["mario-two-players", "pokemon-two-trainers",
                                  "starwars-two-ships", "monopolino-2-players",
                                  "master-trainer-two-players"])
def test_the_houses_entities_show_no_word_outside_the_catalogue(tmp_path: Path,
                                                                 name: str) -> None:
    """Issue 41: a Home Assistant set to the pseudo-language reads every state of a whole game
    of each edition (the last event after every move) and the entities' names decorated."""
    from companion.venue.homeassistant import discovery, house_state
    from tests.i18n import pseudo

    settings = HomeAssistantSettings.from_toml({"broker": "localhost", "language": "qps"})
    data = json.loads((ROOT / "examples" / f"{name}.json").read_text("utf-8"))
    steps = data.pop("steps")
    found: dict[str, int] = {}
    with GameService(tmp_path) as service:
        gid = str(service.create_game(data).game_id)
        words = pseudo.Table(service, service.view(gid)["edition"])
        for config in discovery(settings, "s", "t").values():
            if words.left(config["name"]):
                found.setdefault(config["name"], 0)
        for n, step in enumerate(steps, 1):
            assert service.submit(gid, parse_step(service.state(gid)[1], step)).ok
            words.learn(gid)
            state = house_state(dict(service.view(gid)), settings.language)
            for key in ("last", "turn", "leader"):
                if words.left(state[key]):
                    found.setdefault(state[key], n)
    assert found == {}
