"""Store and forward: the log is the outbox; a table plays on without the broker, and what it
owes is delivered, in order and once, when the broker is back."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from venue_helpers import ROOT, SCREEN_PASSWORD, Broker, SimTable, caught_up, wait_until

from companion.service.game_service import GameService
from companion.service.venue_outbox import Outbox
from companion.venue.board import Board
from companion.venue.publisher import VenuePublisher
from companion.venue.settings import VenueSettings
from companion.venue.subscriber import ScreenSubscriber

SCRIPT = ROOT / "examples" / "monopolino-4-players.json"


def screen_on(broker: Broker, cid: str = "outbox-screen") -> tuple[Board, ScreenSubscriber]:
    board = Board()
    sub = ScreenSubscriber(board, "127.0.0.1", broker.port, venue="cafe", username="screen",
                           password=SCREEN_PASSWORD, client_id=cid).start()
    return board, sub


def owed_whole_then_delivered(table: SimTable, broker_off: Broker) -> None:
    """The table owes its whole game; once the broker is up, a screen gets all of it and
    the cursor reaches the end."""
    version = table.service.state(table.game_id)[0]
    wait_until(lambda: table.publisher.owed() == version, what="the game owed whole")
    broker_off.start()
    board, sub = screen_on(broker_off)
    try:
        wait_until(lambda: caught_up(board, [table]), what="delivery")
        wait_until(lambda: table.publisher.owed() == 0, what="the cursor")
    finally:
        sub.stop()


def test_a_table_plays_a_whole_game_without_the_broker_and_delivers_it_later(
        tmp_path: Path, broker_off: Broker) -> None:
    table = SimTable(tmp_path, "t01", broker_off.port, SCRIPT)
    try:
        table.begin()
        table.play()  # nobody listening on the broker's port: the game is not held up
        owed_whole_then_delivered(table, broker_off)
    finally:
        table.close()


def test_a_game_played_while_the_publisher_starts_is_still_sent(
        tmp_path: Path, broker_off: Broker, monkeypatch: pytest.MonkeyPatch) -> None:
    """The publisher's thread first looks at the log only after a whole game was played
    (a slow start on a busy Pi): that game is new to the venue, not one that had finished
    before the table joined, so it is owed whole and delivered when the broker is there."""
    gate = threading.Event()
    real_run = VenuePublisher._run

    def late_run(self: VenuePublisher) -> None:
        gate.wait(30)
        real_run(self)

    monkeypatch.setattr(VenuePublisher, "_run", late_run)
    table = SimTable(tmp_path, "t01", broker_off.port, SCRIPT)
    try:
        table.begin()
        table.play()
        assert table.service.state(table.game_id)[1].finished
        gate.set()
        owed_whole_then_delivered(table, broker_off)
    finally:
        table.close()


class Counter:
    """A raw reader on the broker counting what a table sends, by kind of topic."""

    def __init__(self, broker: Broker) -> None:
        self.kinds: list[str] = []
        self.lock = threading.Lock()
        ready = threading.Event()
        self.c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="counter",
                             protocol=MQTTProtocolVersion.MQTTv5)
        self.c.username_pw_set("screen", SCREEN_PASSWORD)
        self.c.on_connect = lambda c, u, f, r, p: (c.subscribe("companion/cafe/t01/#", 1),
                                                   ready.set())
        self.c.on_message = self._on_message
        self.c.connect_async("127.0.0.1", broker.port)
        self.c.loop_start()
        assert ready.wait(60)

    def _on_message(self, c: object, u: object, msg: mqtt.MQTTMessage) -> None:
        parts = msg.topic.split("/")
        kind = parts[-1] if parts[-2] != "log" else "log"
        if kind == "status" and not json.loads(msg.payload)["online"]:
            kind = "offline"
        with self.lock:
            self.kinds.append(kind if not msg.retain else "retained-" + kind)

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


def test_a_restarted_table_carries_on_from_its_cursor(tmp_path: Path, broker: Broker) -> None:
    table = SimTable(tmp_path, "t01", broker.port, SCRIPT)
    table.begin()
    table.play(10)
    version = table.service.state(table.game_id)[0]
    box = Outbox(table.service, "cafe", "t01")
    # owed() may read 0 before the publisher has seen the new versions: wait for the cursor
    wait_until(lambda: table.publisher.owed() == 0
               and box.cursors().get(table.game_id, (0, False))[0] == version, what="delivery")
    table.publisher.stop()
    settings = table.settings
    assert box.cursors() == {table.game_id: (version, True)}
    box.close()
    counter = Counter(broker)
    try:
        table.publisher = VenuePublisher(table.service, settings).start()
        # after its summary the restarted publisher has done its first pass: it re-sent the
        # retained pages (the broker may have lost them) but no live event twice
        wait_until(lambda: "summary" in counter.kinds, what="the restarted table's summary")
        assert "event" not in counter.kinds
        assert "log" in counter.kinds
        table.play()
        board, sub = screen_on(broker)
        try:
            wait_until(lambda: caught_up(board, [table]), what="the rest of the game")
        finally:
            sub.stop()
    finally:
        counter.close()
        table.close()


def test_a_game_finished_before_joining_the_venue_stays_home(tmp_path: Path,
                                                            broker: Broker) -> None:
    service = GameService(tmp_path / "t01").start()
    data = json.loads(SCRIPT.read_text())
    steps = data.pop("steps")
    old = SimTable.__new__(SimTable)
    old.service, old.steps, old.done, old.name = service, steps, 0, "t01"
    old.game_id = service.create_game(data).game_id
    old.play()
    assert service.state(old.game_id)[1].finished
    tonight = service.create_game(data).game_id
    publisher = VenuePublisher(service, VenueSettings(
        broker="127.0.0.1", port=broker.port, venue="cafe", table="t01", username="t01",
        password="pw-t01")).start()
    board, sub = screen_on(broker)
    try:
        wait_until(lambda: (g := board.game("cafe/t01", tonight)) is not None
                   and g.digest is not None, what="tonight's game")
        box = Outbox(service, "cafe", "t01")
        assert box.cursors()[old.game_id][1] is False
        box.close()
        assert board.game("cafe/t01", old.game_id) is None
    finally:
        sub.stop()
        publisher.stop()
        service.stop()


def test_a_burst_larger_than_the_in_flight_window_is_delivered_whole(
        tmp_path: Path, broker_off: Broker, monkeypatch: object) -> None:
    """Events owed while the window of unacknowledged messages is full are not forgotten."""
    import companion.venue.publisher as publisher_module

    monkeypatch.setattr(publisher_module, "WINDOW", 3)  # type: ignore[attr-defined]
    table = SimTable(tmp_path, "t01", broker_off.port, SCRIPT)
    try:
        table.begin()
        table.play()  # everything owed at once
        broker_off.start()
        board, sub = screen_on(broker_off)
        try:
            wait_until(lambda: caught_up(board, [table]), what="the whole game")
        finally:
            sub.stop()
    finally:
        table.close()


def test_what_the_broker_refuses_is_not_counted_as_delivered(tmp_path: Path,
                                                             broker: Broker) -> None:
    """A table configured under another table's name (the ACL refuses it) plays on, says why
    nothing arrives, and keeps every event owed."""
    service = GameService(tmp_path / "t02").start()
    publisher = VenuePublisher(service, VenueSettings(
        broker="127.0.0.1", port=broker.port, venue="cafe", table="t02", username="t01",
        password="pw-t01")).start()
    try:
        data = json.loads(SCRIPT.read_text())
        data.pop("steps")
        gid = service.create_game(data).game_id
        wait_until(lambda: publisher.refused is not None, what="the refusal")
        assert "ACL" in (publisher.refused or "")
        assert publisher.owed() == service.state(gid)[0]
    finally:
        publisher.stop()
        service.stop()
