"""The table side: a thread that sends the event log to the venue's MQTT broker.

It never touches the game: the service's listener only drops the game id in a queue and
wakes this thread (no lock, no I/O on the service thread). The thread reads new events from
its own SQLite connection (the log is the outbox), publishes each with QoS 1, keeps the
retained log pages and digests current, and moves the "delivered up to" cursor when the
broker acknowledges. While the broker is away nothing is published and nothing is lost: on
every new connection the thread re-sends the retained pages (a restarted broker may have
lost them) and carries on from the cursor. The table never subscribes to anything: there
are no banker powers over MQTT.
"""

from __future__ import annotations

import logging
import queue
import ssl
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from companion.service import game
from companion.service.venue_outbox import Outbox
from companion.venue import topics
from companion.venue.settings import VenueSettings

log = logging.getLogger("companion.venue")

WINDOW = 500
"""Events in flight (published, not yet acknowledged) before the thread waits for acks."""
SCAN_EVERY = 10.0
"""Seconds between full looks at the log (new games are normally noticed on commit)."""
GATHER = 0.2
"""Seconds a pass waits after the one before, so that a burst of commits (an auction, a
chain of cards) goes in one pass: one read of the log, one page and one digest sent."""
SAVE_EVERY = 5.0
"""Seconds between writes of the "delivered up to" cursors (a write per move would cost a
table a transaction per command; after a crash the few events since are sent again, and the
screen keys events by game and sequence number)."""


class VenuePublisher:
    """``start()`` after the service; ``stop()`` before it."""

    def __init__(self, service: Any, settings: VenueSettings, *,
                 clock: Callable[[], float] = time.time) -> None:
        self.service = service
        self.settings = settings
        self.clock = clock
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._dirty: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._acks: queue.SimpleQueue[tuple[int, bool]] = queue.SimpleQueue()
        self.refused: str | None = None
        """Why the broker refused this table's messages (its ACL), until the next connection."""
        self.connections = 0
        """Connections made so far (bumped on the network thread; read here)."""
        self.connected = threading.Event()
        self._thread: threading.Thread | None = None
        self._outbox: Outbox | None = None
        self._sent: dict[str, int] = {}
        self._acked: dict[str, int] = {}
        self._flying: dict[str, set[int]] = {}
        self._mids: dict[int, tuple[str, int]] = {}
        self._saved: dict[str, int] = {}
        self._tracked: dict[str, dict[str, Any]] = {}
        self._digests: dict[str, int] = {}
        self._pages: dict[str, tuple[int, int, list[bytes]]] = {}
        """Per game: the page being filled, its last event's seq and its events so far, as
        published (each encoded once)."""
        self._summary: bytes = b""
        self._at_start: frozenset[str] = frozenset()
        """The games in the log when :meth:`start` ran (one finished by then stays home)."""
        self.client = self._make_client()

    # -- the MQTT client (its callbacks run on paho's network thread: they only signal) ------
    def _make_client(self) -> mqtt.Client:
        s = self.settings
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=s.client_id,
                             protocol=MQTTProtocolVersion.MQTTv5)
        if s.username is not None:
            client.username_pw_set(s.username, s.password)
        if s.tls:
            client.tls_set(ca_certs=str(s.ca_file) if s.ca_file else None,
                           cert_reqs=ssl.CERT_REQUIRED)
        client.will_set(self.topic("status"), topics.encode({"v": topics.VERSION,
                                                             "online": False}), 1, True)
        client.reconnect_delay_set(1, 8)
        client.max_inflight_messages_set(100)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        return client

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            log.warning("venue broker refused the connection: %s", reason)
            return
        self.connections += 1
        self.connected.set()
        self._wake.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.connected.clear()
        self._wake.set()

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any,
                    properties: Any) -> None:
        self._acks.put((mid, bool(reason.is_failure)))
        self._wake.set()

    def topic(self, *rest: str) -> str:
        return topics.table_topic(self.settings.venue, self.settings.table, *rest)

    # -- life cycle ---------------------------------------------------------------------------
    def start(self) -> VenuePublisher:
        self._outbox = Outbox(self.service, self.settings.venue, self.settings.table)
        # taken here, not by the thread's first look: a game played to its end while the
        # thread starts is new to this venue and is sent
        self._at_start = frozenset(self._outbox.games())
        self.service.subscribe(self._on_commit)
        props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        props.SessionExpiryInterval = 0
        self.client.connect_async(self.settings.broker, self.settings.port,
                                  keepalive=self.settings.keepalive, clean_start=True,
                                  properties=props)
        self.client.loop_start()
        self._thread = threading.Thread(target=self._run, name="venue-publisher", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None
        if self.connected.is_set():
            info = self.client.publish(self.topic("status"), self._status(False), 1, True)
            info.wait_for_publish(timeout=2)
        self.client.disconnect()
        self.client.loop_stop()
        if self._outbox is not None:
            self._outbox.close()
            self._outbox = None

    def _on_commit(self, game_id: str, version: int, notice: Any) -> None:
        """The service's listener (on the service thread): note the game, wake, return."""
        if notice is None and game_id:
            self._dirty.put(game_id)
            self._wake.set()

    def owed(self) -> int:
        """Events not yet acknowledged by the broker (the cursors on disk, or the ones
        acknowledged since they were last written)."""
        acked = dict(self._acked)
        box = Outbox(self.service, self.settings.venue, self.settings.table)
        return sum(max(0, last - max(delivered, acked.get(gid, 0)))
                   for gid, (last, delivered) in box.owed_by_game().items())

    # -- the thread -------------------------------------------------------------------------------
    def _run(self) -> None:
        assert self._outbox is not None
        box = self._outbox
        for gid, (delivered, tracked) in box.cursors().items():
            if tracked:
                self._acked[gid] = self._sent[gid] = self._saved[gid] = delivered
        self._scan(box)
        epoch, last_scan = 0, time.monotonic()
        last_save = last_pass = last_scan
        while not self._stopping.is_set():
            self._wake.wait(1.0)
            self._stopping.wait(GATHER - (time.monotonic() - last_pass))
            last_pass = time.monotonic()
            self._wake.clear()
            try:
                self._take_acks()
                dirty = self._take_dirty()
                if time.monotonic() - last_scan > SCAN_EVERY:  # a safety net
                    self._scan(box)
                    dirty |= set(self._tracked)
                    last_scan = time.monotonic()
                if dirty - self._tracked.keys():
                    self._scan(box)
                if not self.connected.is_set():
                    continue
                if self.connections != epoch:
                    epoch = self.connections
                    if self.refused is not None:  # start again from what was delivered
                        self.refused = None
                        self._sent.update(self._acked)
                        self._flying.clear()
                        self._mids.clear()
                    self._resend_retained(box)
                    dirty |= set(self._tracked)
                for gid in sorted(dirty & self._tracked.keys()):
                    if self.refused is None:
                        self._send_new(box, gid)
                self._send_summary()
                if time.monotonic() - last_save >= SAVE_EVERY:
                    self._save(box)
                    last_save = time.monotonic()
            except Exception:  # the table plays on; try again on the next wake
                log.exception("venue publisher pass failed")
                self._stopping.wait(1.0)
        self._take_acks()
        self._save(box)

    def _take_dirty(self) -> set[str]:
        out: set[str] = set()
        while True:
            try:
                out.add(self._dirty.get_nowait())
            except queue.Empty:
                return out

    def _take_acks(self) -> None:
        while True:
            try:
                mid, failed = self._acks.get_nowait()
            except queue.Empty:
                return
            hit = self._mids.pop(mid, None)
            if hit is None:
                continue
            if failed:  # not delivered: the cursor stays; sent again on the next connection
                if self.refused is None:
                    self.refused = (f"the broker refuses {self.topic('...')}: check that "
                                    "[venue] table and username match the broker's ACL")
                    log.error("%s", self.refused)
                continue
            gid, seq = hit
            flying = self._flying.setdefault(gid, set())
            flying.discard(seq)
            self._acked[gid] = min(flying) - 1 if flying else self._sent[gid]

    def _scan(self, box: Outbox) -> None:
        """Find games not tracked yet: a game already finished when this table joined the
        venue (in the log at :meth:`start`) stays home; every other is sent from its first
        event."""
        known = box.cursors()
        for gid, row in box.games().items():
            if gid in self._tracked:
                self._tracked[gid] = row
                continue
            if gid not in known:
                box.track(gid, tracked=not (gid in self._at_start
                                            and row["status"] == "finished"))
                known = box.cursors()
            if known[gid][1]:
                self._tracked[gid] = row
                self._sent.setdefault(gid, known[gid][0])
                self._acked.setdefault(gid, known[gid][0])
                self._saved.setdefault(gid, known[gid][0])
                self._dirty.put(gid)
                self._wake.set()

    def _send_new(self, box: Outbox, gid: str) -> None:
        flying = self._flying.setdefault(gid, set())
        if len(self._mids) >= WINDOW:  # come back to this game when acks arrive
            self._dirty.put(gid)
            return
        sent = self._sent.get(gid, 0)
        rows = box.rows(gid, after=sent)
        new = rows[: WINDOW - len(self._mids)]
        filling: int | None = None
        for r in new:
            event = topics.encode(topics.event_json(gid, r))
            # the live feed, QoS 0: the retained page below carries the event with QoS 1,
            # and its acknowledgement moves the cursor (one PUBACK a pass, not one an event)
            self.client.publish(self.topic("game", gid, "event"), event, 0)
            page = topics.page_of(r.seq)
            if filling is not None and page != filling:
                self._send_page(gid, filling, flying)  # a page just filled up: its last version
            filling = page
            self._page_events(box, gid, page, r.seq).append(event)
            self._sent[gid] = r.seq
        if filling is not None:
            self._send_page(gid, filling, flying)
        if len(new) < len(rows):
            self._dirty.put(gid)
            self._wake.set()
        self._send_digest(box, gid)

    def _page_events(self, box: Outbox, gid: str, page: int, seq: int) -> list[bytes]:
        """The events of ``page`` before ``seq`` as published, kept in memory for the page
        being filled (read from the log only after a restart or when a game comes back)."""
        cached = self._pages.get(gid)
        if cached is None or cached[0] != page or cached[1] != seq - 1:
            rows = box.rows(gid, after=page * topics.PAGE) if (seq - 1) % topics.PAGE else []
            cached = (page, seq - 1, [topics.encode(topics.event_json(gid, r)) for r in rows
                                      if r.seq < seq])
        self._pages[gid] = (page, seq, cached[2])
        return cached[2]

    def _send_page(self, gid: str, page: int, flying: set[int]) -> None:
        """The page's retained copy, its events joined as they were published (not encoded
        again at every event); once acknowledged, its events are delivered."""
        _, last, events = self._pages[gid]
        payload = topics.page_bytes(gid, page, events)
        info = self.client.publish(self.topic("game", gid, "log", str(page)), payload, 1, True)
        self._mids[info.mid] = (gid, last)
        flying.add(last)

    def _resend_retained(self, box: Outbox) -> None:
        """After any (re)connection: the broker may have restarted and lost what it kept."""
        self._summary = b""
        self._digests.clear()
        self.client.publish(self.topic("status"), self._status(True), 1, True)
        for gid in self._tracked:
            rows = [r for r in box.rows(gid) if r.seq <= self._sent.get(gid, 0)]
            for page in range(topics.page_of(rows[-1].seq) + 1 if rows else 0):
                self.client.publish(self.topic("game", gid, "log", str(page)),
                                    topics.encode(topics.page_json(gid, page, rows)), 1, True)

    def _send_digest(self, box: Outbox, gid: str) -> None:
        view = self._view(box, gid)
        if view is None or self._digests.get(gid) == view["version"]:
            return
        created = self._tracked[gid].get("created")
        payload = topics.digest(view, gid, float(created) if created is not None else None)
        self.client.publish(self.topic("game", gid), topics.encode(payload), 1, True)
        self._digests[gid] = int(view["version"])

    def _view(self, box: Outbox, gid: str) -> dict[str, Any] | None:
        """The game's view: the service's cached one when the game is in memory (no wait on
        the service thread), else replayed here from the log."""
        if self.service.loaded(gid):
            return dict(self.service.view(gid))
        rows = box.rows(gid)
        if not rows:
            return None
        state = game.replay(e for _, e in game.effective((r.seq, r.event) for r in rows))
        out = game.view(state)
        out["version"] = rows[-1].seq
        return out

    def _send_summary(self) -> None:
        payload = {"v": topics.VERSION, "venue": self.settings.venue,
                   "table": self.settings.table, "active": self.service.active_game(),
                   "games": list(self._tracked)}
        raw = topics.encode(payload)
        if raw != self._summary:
            self.client.publish(self.topic("summary"), raw, 1, True)
            self._summary = raw

    def _status(self, online: bool) -> bytes:
        return topics.encode({"v": topics.VERSION, "online": online, "time": self.clock()})

    def _save(self, box: Outbox) -> None:
        moved = {g: s for g, s in self._acked.items() if s > self._saved.get(g, 0)}
        if moved:
            box.save(moved)
            self._saved.update(moved)
