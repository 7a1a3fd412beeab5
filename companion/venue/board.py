"""The venue screen's picture of every table, built from what the broker delivers.

Messages may come twice (a table re-sends after a reconnect), late, or out of order (a
retained log page after the live events); the board keys every event by (table, game,
sequence number) and shows each exactly once, in order: an event after a gap waits until
the gap is filled (every event also reaches a retained log page). Every change is written to
a journal with a growing revision number, which the page's live stream follows.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from companion.service.game import UNDONE
from companion.venue.topics import ROOT

log = logging.getLogger("companion.venue.board")

RECENT = 8
"""Lines with words kept per game for the page (the whole log is kept for checks)."""
JOURNAL = 20_000


@dataclass
class GameLog:
    """One game as the screen knows it."""

    digest: dict[str, Any] | None = None
    shown: int = 0
    """Every event up to this sequence number has been shown."""
    lines: dict[int, dict[str, Any]] = field(default_factory=dict)
    waiting: dict[int, dict[str, Any]] = field(default_factory=dict)
    shown_count: dict[int, int] = field(default_factory=dict)
    gap_since: float | None = None
    """When events started waiting for a missing one (None: no gap)."""


@dataclass
class TableView:
    venue: str
    table: str
    online: bool = False
    seen: float = 0.0
    summary: dict[str, Any] = field(default_factory=dict)
    games: dict[str, GameLog] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.venue}/{self.table}"

    def game(self, gid: str) -> GameLog:
        return self.games.setdefault(gid, GameLog())

    def active(self) -> str | None:
        gid = self.summary.get("active")
        if isinstance(gid, str) and gid in self.games:
            return gid
        dated = [(g.digest.get("created") or 0, gid) for gid, g in self.games.items()
                 if g.digest]
        return max(dated)[1] if dated else None


class Board:
    """Thread-safe: the MQTT thread writes, the page's streams read and wait."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.tables: dict[str, TableView] = {}
        self.revision = 0
        self.journal: deque[tuple[int, str, dict[str, Any]]] = deque(maxlen=JOURNAL)
        self.changed = threading.Condition()
        self.ignored = 0
        self._listeners: list[Callable[[], None]] = []

    def listen(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` (on the receiving thread) after every message taken in."""
        self._listeners.append(listener)

    # -- input ----------------------------------------------------------------------------
    def receive(self, topic: str, payload: bytes) -> None:
        """One message from the broker (anything malformed is counted and ignored)."""
        parts = topic.split("/")
        try:
            if len(parts) < 4 or parts[0] != ROOT:
                raise ValueError("not a companion topic")
            body = json.loads(payload) if payload else None
            if body is not None and not isinstance(body, dict):
                raise ValueError("not an object")
            with self.changed:
                self._route(parts[1], parts[2], parts[3:], body)
                self.changed.notify_all()
        except (ValueError, KeyError, TypeError) as exc:
            self.ignored += 1
            log.warning("ignored a message on %s: %s", topic, exc)
            return
        for listener in self._listeners:
            listener()

    def _route(self, venue: str, table: str, rest: list[str], body: Any) -> None:
        key = f"{venue}/{table}"
        tv = self.tables.get(key)
        if tv is None:
            tv = self.tables[key] = TableView(venue, table)
        if body is None:  # a retained message cleared
            return
        kind = rest[0]
        if kind == "status" and len(rest) == 1:
            tv.online, tv.seen = bool(body["online"]), self.clock()
            self._note("table", {"key": key})
        elif kind == "summary" and len(rest) == 1:
            tv.summary, tv.seen = dict(body), self.clock()
            self._note("table", {"key": key})
        elif kind == "game" and len(rest) == 2:
            if body.get("game") != rest[1]:
                raise ValueError("digest for another game")
            g = tv.game(rest[1])
            if g.digest is None or int(body["version"]) >= int(g.digest["version"]):
                g.digest = dict(body)
                self._note("table", {"key": key})
        elif kind == "game" and len(rest) == 3 and rest[2] == "event":
            self._add(tv, rest[1], [body])
        elif kind == "game" and len(rest) == 4 and rest[2] == "log":
            events = body["events"]
            if not isinstance(events, list):
                raise ValueError("a page's events are a list")
            self._add(tv, rest[1], events)
        else:
            raise ValueError("unknown topic")

    def _add(self, tv: TableView, gid: str, events: list[Any]) -> None:
        g = tv.game(gid)
        for ev in events:
            if not isinstance(ev, Mapping) or ev.get("game") != gid:
                raise ValueError("an event of another game")
            seq = int(ev["seq"])
            if seq > g.shown and seq not in g.waiting:
                g.waiting[seq] = {"seq": seq, "type": str(ev["type"]), "say": str(ev["say"]),
                                  "time": float(ev["time"]), "undone": False,
                                  "to_seq": ev.get("to_seq")}
                if isinstance(ev.get("msg"), Mapping):  # the line as a message (schema v1+)
                    g.waiting[seq]["msg"] = dict(ev["msg"])
        while g.shown + 1 in g.waiting:
            line = g.waiting.pop(g.shown + 1)
            g.shown += 1
            g.lines[line["seq"]] = line
            g.shown_count[line["seq"]] = g.shown_count.get(line["seq"], 0) + 1
            self._note("log", {"key": tv.key, "game": gid, "line": dict(line)})
            if line["type"] == UNDONE and line["to_seq"] is not None:
                self._undo(tv, gid, g, int(line["to_seq"]), line["seq"])
        if not g.waiting:
            g.gap_since = None
        elif g.gap_since is None:
            g.gap_since = self.clock()

    def _undo(self, tv: TableView, gid: str, g: GameLog, to_seq: int, at: int) -> None:
        """Strike through what an undo takes back (as the table's own history does)."""
        struck = [s for s, ln in g.lines.items()
                  if to_seq < s < at and not ln["undone"] and ln["type"] != UNDONE]
        for s in struck:
            g.lines[s]["undone"] = True
        if struck:
            self._note("undo", {"key": tv.key, "game": gid, "seqs": sorted(struck)})

    def _note(self, kind: str, data: dict[str, Any]) -> None:
        self.revision += 1
        self.journal.append((self.revision, kind, data))

    # -- output -------------------------------------------------------------------------------
    def table_json(self, tv: TableView) -> dict[str, Any]:
        active = tv.active()
        g = tv.games.get(active) if active else None
        recent = [] if g is None else [ln for _, ln in sorted(g.lines.items())
                                       if ln["say"]][-RECENT:]
        finished = sum(1 for x in tv.games.values() if x.digest and x.digest["finished"])
        return {"key": tv.key, "venue": tv.venue, "table": tv.table, "online": tv.online,
                "seen": tv.seen, "active": active, "game": g.digest if g else None,
                "recent": recent, "games_finished": finished, "games": len(tv.games)}

    def standings(self) -> list[dict[str, Any]]:
        """Per edition: every player at every table, by wins, then points in their table's
        latest game of that edition."""
        editions: dict[str, dict[str, Any]] = {}
        for tv in self.tables.values():
            games = sorted((g.digest for g in tv.games.values() if g.digest),
                           key=lambda d: (d.get("created") or 0, d["game"]))
            for d in games:
                ed = editions.setdefault(str(d["edition"]), {
                    "edition": d["edition"], "title": d["title"], "rows": {},
                    "label": d.get("points_label"), "currency": d.get("currency"),
                    "games": 0, "finished": 0})
                ed["games"] += 1
                ed["finished"] += bool(d["finished"])
                for p in d["players"]:
                    row = ed["rows"].setdefault((tv.key, p["name"]), {
                        "table": tv.table, "key": tv.key, "name": p["name"], "wins": 0})
                    row["points"], row["points_text"] = p["points"], p["points_text"]
                    if d["finished"] and p["id"] in d["winners"]:
                        row["wins"] += 1
        out = []
        for ed in sorted(editions.values(), key=lambda e: str(e["title"])):
            rows = sorted(ed.pop("rows").values(),
                          key=lambda r: (-r["wins"], -r["points"], r["table"], r["name"]))
            out.append({**ed, "rows": rows})
        return out

    def snapshot(self) -> dict[str, Any]:
        with self.changed:
            return {"revision": self.revision,
                    "tables": [self.table_json(t) for _, t in sorted(self.tables.items())],
                    "standings": self.standings()}

    def changes_since(self, revision: int, timeout: float) -> tuple[int, list[dict[str, Any]]
                                                                     | None]:
        """``(revision, changes)`` after ``revision``, waiting up to ``timeout`` for one;
        ``changes`` is None when the journal no longer reaches back that far (start over
        from a snapshot). Table changes come as the table's whole picture."""
        with self.changed:
            if self.revision <= revision:
                self.changed.wait(timeout)
            if self.revision <= revision:
                return self.revision, []
            if self.journal and self.journal[0][0] > revision + 1:
                return self.revision, None
            out: list[dict[str, Any]] = []
            tables: set[str] = set()
            start = max(0, revision + 1 - self.journal[0][0]) if self.journal else 0
            for _, kind, data in islice(self.journal, start, None):
                if kind == "table":
                    tables.add(data["key"])
                else:
                    out.append({"kind": kind, **data})
            for key in sorted(tables):
                out.append({"kind": "table", "table": self.table_json(self.tables[key])})
            if tables:
                out.append({"kind": "standings", "standings": self.standings()})
            return self.revision, out

    def gaps(self, older_than: float) -> bool:
        """Whether some game has waited this long for a missing event (the subscriber then
        asks the broker for the retained log pages again)."""
        now = self.clock()
        with self.changed:
            return any(g.gap_since is not None and now - g.gap_since >= older_than
                       for tv in self.tables.values() for g in tv.games.values())

    def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Block until ``predicate()`` (called under the board's lock) holds, or timeout."""
        with self.changed:
            return self.changed.wait_for(predicate, timeout)

    def game(self, key: str, gid: str) -> GameLog | None:
        with self.changed:
            tv = self.tables.get(key)
            return None if tv is None else tv.games.get(gid)
