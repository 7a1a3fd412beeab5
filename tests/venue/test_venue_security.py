"""The shipped ACL on a real Mosquitto: credentials required, a table writes only under its
own topic, the screen only reads."""

from __future__ import annotations

import threading
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from venue_helpers import SCREEN_PASSWORD, Broker, wait_until

from companion.venue.board import Board
from companion.venue.subscriber import ScreenSubscriber


class Client:
    def __init__(self, broker: Broker, user: str | None, password: str | None,
                 cid: str) -> None:
        self.connack: Any = None
        self.acks: dict[int, Any] = {}
        self.ready = threading.Event()
        self.c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=cid,
                             protocol=MQTTProtocolVersion.MQTTv5)
        if user is not None:
            self.c.username_pw_set(user, password)
        self.c.on_connect = self._on_connect
        self.c.on_publish = lambda c, u, mid, rc, p: self.acks.__setitem__(mid, rc)
        self.c.connect_async("127.0.0.1", broker.port)
        self.c.loop_start()
        assert self.ready.wait(60)

    def _on_connect(self, c: Any, u: Any, flags: Any, reason: Any, props: Any) -> None:
        self.connack = reason
        self.ready.set()

    def publish(self, topic: str, payload: bytes) -> Any:
        mid = self.c.publish(topic, payload, qos=1).mid
        wait_until(lambda: mid in self.acks, what="the broker's answer")
        return self.acks[mid]

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


@pytest.mark.parametrize("user,password", [(None, None), ("t01", "wrong"), ("nobody", "x")])
def test_the_broker_refuses_anyone_without_a_valid_account(broker: Broker, user: str | None,
                                                          password: str | None) -> None:
    c = Client(broker, user, password, "intruder")
    try:
        assert c.connack.is_failure
    finally:
        c.close()


SUMMARY = b'{"v":1,"venue":"cafe","table":"t02","active":null,"games":[]}'


def test_a_table_cannot_write_under_another_table(broker: Broker,
                                                  screen: tuple[Board, ScreenSubscriber]
                                                  ) -> None:
    board, _ = screen
    t01 = Client(broker, "t01", "pw-t01", "t01-rogue")
    try:
        assert not t01.connack.is_failure
        refused = t01.publish("companion/cafe/t02/summary", SUMMARY)
        assert refused.is_failure  # MQTT 5: the broker says "not authorized"
        ok = t01.publish("companion/cafe/t01/status", b'{"v":1,"online":true}')
        assert not ok.is_failure
        # the broker keeps one client's messages in order: once t01's own status is on the
        # screen, the refused one would have been too
        wait_until(lambda: "cafe/t01" in board.tables, what="t01's own status")
        assert "cafe/t02" not in board.tables
    finally:
        t01.close()


def test_the_screen_account_cannot_write_anything(broker: Broker) -> None:
    s = Client(broker, "screen", SCREEN_PASSWORD, "rogue-screen")
    try:
        assert not s.connack.is_failure
        for topic in ("companion/cafe/t01/summary", "companion/cafe/t01/command",
                      "companion/cafe/screen/status"):
            assert s.publish(topic, SUMMARY).is_failure, topic
    finally:
        s.close()


def test_a_table_cannot_knock_another_offline_by_taking_its_client_id(broker: Broker) -> None:
    """t02's account connects with t01's (guessable) client id: t01 stays connected, and
    what it publishes afterwards still reaches the broker on the same connection."""
    drops: list[Any] = []
    t01 = Client(broker, "t01", "pw-t01", "companion-cafe-t01")
    t01.c.on_disconnect = lambda c, u, flags, reason, props: drops.append(reason)
    try:
        assert not t01.connack.is_failure
        rogue = Client(broker, "t02", "pw-t02", "companion-cafe-t01")
        try:
            assert not rogue.connack.is_failure  # the broker answered the rogue's CONNECT
            # sent after the takeover would have happened: a kicked t01 sees the broker
            # close its socket before this message's acknowledgement can arrive
            assert not t01.publish("companion/cafe/t01/status", b'{"v":1}').is_failure
            assert drops == [], f"t01 was disconnected: {drops}"
        finally:
            rogue.close()
    finally:
        t01.close()
