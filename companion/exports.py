"""A game's export (JSON lines: a first line describing the game, then its events) written,
read and checked: whole, in order, and matching its first line's count, last version and
SHA-256."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

from companion.engine import game
from companion.engine.state import BaseState
from companion.engine.types import Event, RuleError
from companion.game_record import GameRecord
from companion.store import Row


def export_lines(rec: GameRecord, rows: list[Row]) -> Iterator[str]:
    """The game's log as JSON lines. The first line describes the game and says how many
    events follow and their SHA-256 (see :func:`check_export`); the last event's sequence
    number is the version."""
    lines = [json.dumps({"seq": r.seq, "cmd": r.cmd, "time": r.time, **r.event.to_json()})
             for r in rows]
    yield json.dumps({"game": rec.id, "edition": rec.edition, "title": rec.title,
                      "join_code": rec.join_code,
                      "version": rows[-1].seq if rows else 0, "events": len(lines),
                      "sha256": log_digest(lines)})
    yield from lines


def read_export(lines: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]],
                                           list[tuple[int, Event]], BaseState] | str:
    """An export's first line, its event rows, the events by sequence number and the state
    they replay to; or, if it is not a whole game export, what is wrong, in words."""
    try:
        head = json.loads(lines[0])
        if not isinstance(head, dict):
            raise ValueError("the first line does not describe a game")
        body = [line for line in lines[1:] if line.strip()]
        rows = [json.loads(line) for line in body]
        log_rows = [(int(r["seq"]), Event.from_json(r)) for r in rows]
    except (ValueError, KeyError, TypeError, IndexError, RuleError) as exc:
        return f"Not a game export: {exc}"
    problem = check_export(head, [seq for seq, _ in log_rows], body)
    if problem:
        return (f"The export is not whole: {problem} Nothing was imported; export the game "
                "again.")
    try:
        state = game.replay(e for _, e in game.effective(log_rows))
    except (ValueError, KeyError, TypeError, IndexError, RuleError) as exc:
        return f"Not a game export: {exc}"
    return head, rows, log_rows, state


def log_digest(lines: list[str]) -> str:
    """SHA-256 of an export's event lines (each followed by a newline)."""
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


def check_export(head: dict[str, Any], seqs: list[int], lines: list[str]) -> str:
    """What is wrong with an export's log ("" if it is whole): sequence numbers must run
    1, 2, 3... without a gap, and the count, last version and SHA-256 in the first line
    (older exports may lack some) must match what follows."""
    if not seqs:
        return "it has no events."
    problems: list[str] = []
    missing: list[str] = []
    expected = 1
    for seq in seqs:
        if seq > expected:
            missing.append(f"{expected}" if seq == expected + 1 else f"{expected} to {seq - 1}")
        elif seq < expected:
            problems.append(f"event {seq} is out of order or repeated")
        expected = max(expected, seq + 1)
    if missing:
        problems.append(f"event(s) {', '.join(missing[:5])} are missing")
    count = head.get("events")
    if count is not None and count != len(seqs):
        problems.append(f"the first line says {count} events but {len(seqs)} follow")
    version = head.get("version")
    if isinstance(version, int) and version != seqs[-1]:
        if version > seqs[-1]:
            problems.append(f"events {seqs[-1] + 1} to {version} are missing at the end")
        else:
            problems.append(f"the game was at version {version} but events run to {seqs[-1]}")
    digest = head.get("sha256")
    if digest is not None and not problems and digest != log_digest(lines):
        problems.append("the events differ from the ones exported (their SHA-256 does not "
                        "match)")
    return "; ".join(problems) + "." if problems else ""
