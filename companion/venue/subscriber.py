"""The venue screen's MQTT client: subscribes to every table of a venue, feeds the board.

It only reads. It keeps a session on the broker (clean start off, an hour's expiry) so the
events published while it was briefly away are queued for it; everything else (a restarted
broker, a screen started late) is covered by the tables' retained messages.
"""

from __future__ import annotations

import logging
import ssl
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from companion.venue.board import Board
from companion.venue.topics import ROOT

log = logging.getLogger("companion.venue.screen")

GAP_CHECK = 5.0
"""Seconds an event may wait for a missing earlier one before the pages are asked again."""


class ScreenSubscriber:
    """``start()`` connects (and reconnects on its own); ``stop()`` disconnects."""

    def __init__(self, board: Board, broker: str, port: int = 1883, *, venue: str = "+",
                 username: str | None = None, password: str | None = None,
                 tls: bool = False, ca_file: Path | None = None,
                 client_id: str = "companion-venue-screen") -> None:
        self.board = board
        self.broker, self.port = broker, port
        self.topic = f"{ROOT}/{venue}/#"
        self.connected = threading.Event()
        self.refused: str | None = None
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                                  protocol=MQTTProtocolVersion.MQTTv5)
        if username is not None:
            self.client.username_pw_set(username, password)
        if tls:
            self.client.tls_set(ca_certs=str(ca_file) if ca_file else None,
                                cert_reqs=ssl.CERT_REQUIRED)
        self.client.reconnect_delay_set(1, 8)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self._stopping = threading.Event()
        self._repair: threading.Thread | None = None

    def _repair_gaps(self) -> None:
        """A message the broker dropped (a full queue) leaves a gap: subscribing again makes
        the broker send every retained log page again, which fills it."""
        while not self._stopping.wait(GAP_CHECK):
            if self.connected.is_set() and self.board.gaps(GAP_CHECK):
                log.info("filling a gap from the retained log pages")
                self.client.subscribe(self.topic, qos=1)

    def start(self) -> ScreenSubscriber:
        self._stopping.clear()
        self._repair = threading.Thread(target=self._repair_gaps, name="venue-gaps",
                                        daemon=True)
        self._repair.start()
        props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        props.SessionExpiryInterval = 3600
        self.client.connect_async(self.broker, self.port, keepalive=30, clean_start=False,
                                  properties=props)
        self.client.loop_start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._repair is not None:
            self._repair.join(timeout=10)
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            self.refused = str(reason)
            log.warning("the broker refused the screen: %s", reason)
            return
        self.refused = None
        client.subscribe(self.topic, qos=1)
        self.connected.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.connected.clear()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        self.board.receive(msg.topic, bytes(msg.payload))
