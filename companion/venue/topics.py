"""Topic names and payloads (the schema is documented in docs/venue.md).

Under ``companion/<venue>/<table>/``:

- ``status`` (retained): ``{"v", "online", "time"}``; the broker sets ``online: false`` (the
  last will) when the table's connection drops.
- ``summary`` (retained): the table: ``{"v", "venue", "table", "active", "games", "time"}``.
- ``game/<game>`` (retained): the game's digest (:func:`digest`).
- ``game/<game>/event``: one committed event (:func:`event_json`), QoS 0, as it happens (its
  page below carries it with QoS 1).
- ``game/<game>/log/<page>`` (retained): events ``page*PAGE+1 .. (page+1)*PAGE`` of the game,
  so a screen that joins late, or a broker that restarted, still gets every event.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from companion.engine.i18n import Msg
from companion.service.game import UNDONE
from companion.store.database import Row

VERSION = 1
ROOT = "companion"
PAGE = 50
"""Events per retained log page."""


def table_topic(venue: str, table: str, *rest: str) -> str:
    return "/".join((ROOT, venue, table, *rest))


def page_of(seq: int) -> int:
    return (seq - 1) // PAGE


def event_json(game_id: str, row: Row) -> dict[str, Any]:
    """One event as published: what the players' log shows, never the event's data (it can
    hold secrets such as a digital-dice seed); an undo names the step it goes back to."""
    out: dict[str, Any] = {"game": game_id, "seq": row.seq, "cmd": row.cmd, "time": row.time,
                           "type": row.event.type, "say": row.event.say}
    if row.event.type == UNDONE:
        out["to_seq"] = int(row.event.data["to_seq"])
    if isinstance(row.event.say, Msg):  # the screen says it in its own language
        out["msg"] = row.event.say.to_json()
    return out


def message(value: Any) -> dict[str, Any] | None:
    """A text of the view as its message (``{"msg", "args"}``), None when it is plain text."""
    return value.to_json() if isinstance(value, Msg) else None


def page_json(game_id: str, page: int, rows: Iterable[Row]) -> dict[str, Any]:
    return {"v": VERSION, "game": game_id, "page": page,
            "events": [event_json(game_id, r) for r in rows if page_of(r.seq) == page]}


def page_bytes(game_id: str, page: int, events: Iterable[bytes]) -> bytes:
    """:func:`page_json` encoded, from its events already encoded (:func:`encode`)."""
    head = encode({"v": VERSION, "game": game_id, "page": page, "events": []})[:-3]
    return head + b"[" + b",".join(events) + b"]}"


def digest(view: Mapping[str, Any], game_id: str, created: float | None = None) -> dict[str, Any]:
    """What the venue screen shows of one game, from the game's view (public fields only:
    no hands, no actions, no board)."""
    players = []
    for p in view.get("players", []):
        money = p.get("money")
        score = p.get("score") or {}
        if money is not None:
            points, text = int(money), str(p.get("money_text") or money)
        else:
            points = int(score.get("points", 0))
            text = f"{points} PP"
        players.append({"id": p["id"], "name": p["name"], "token": p.get("token"),
                        "points": points, "points_text": text,
                        "is_current": bool(p.get("is_current")),
                        "bankrupt": bool(p.get("bankrupt"))})
    prompt = view.get("prompt")
    prompt_text = prompt.get("text") if isinstance(prompt, Mapping) else None
    end_reason = view.get("end_reason") or ""
    return {
        "v": VERSION, "game": game_id, "edition": view.get("edition"),
        "title": view.get("title"), "version": int(view.get("version", 0)),
        "created": created, "players": players, "current": view.get("current"),
        "prompt": prompt_text, "prompt_msg": message(prompt_text),
        "turn_no": view.get("turn_no"), "last_roll": list(view.get("last_roll") or []),
        "finished": bool(view.get("finished")), "winners": list(view.get("winners") or []),
        "end_reason": end_reason, "end_reason_msg": message(end_reason),
        "points_label": "Power Points" if view.get("currency") is None else "money",
        "currency": view.get("currency"),
    }


def encode(payload: Mapping[str, Any]) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
