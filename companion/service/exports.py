"""A game's export (JSON lines: a first line describing the game, then its events) written,
read and checked: whole, in order, and matching its first line's count, last version and
SHA-256."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.engine import json_text, limits
from companion.engine.event_format import upcast
from companion.engine.state import BaseState
from companion.engine.types import Command, Event, GameSetup, RuleError
from companion.plugins.editions import find_edition
from companion.service import game
from companion.service.game_record import GameRecord, decide_undo
from companion.store.database import Row


def export_lines(rec: GameRecord, rows: list[Row],
                 commands: Mapping[int, dict[str, Any]] | None = None) -> Iterator[str]:
    """The game's log as JSON lines. The first line describes the game and says how many
    events follow and their SHA-256 (see :func:`check_export`); the last event's sequence
    number is the version. The first event of each command carries the command as it was
    recorded (``command``: its body), so an import can decide it again with the rules."""
    commands = commands or {}
    lines: list[str] = []
    previous: int | None = None
    for r in rows:
        row: dict[str, Any] = {"seq": r.seq, "cmd": r.cmd, "time": r.time, **r.event.to_json()}
        if r.cmd != previous and r.cmd in commands:
            row["command"] = commands[r.cmd]["body"]
        previous = r.cmd
        lines.append(json.dumps(row))
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
        head = json_text.loads(lines[0])
        if not isinstance(head, dict):
            raise ValueError("the first line does not describe a game")
        body = [line for line in lines[1:] if line.strip()]
        rows = [json_text.loads(line) for line in body]
        log_rows = [(int(r["seq"]), Event.from_json(r)) for r in rows]
    except (ValueError, KeyError, TypeError, IndexError, RuleError) as exc:
        return f"Not a game export: {exc}. Nothing was imported."
    problem = check_export(head, [seq for seq, _ in log_rows], body)
    if problem:
        return (f"The export is not whole: {problem} Nothing was imported; export the game "
                "again.")
    try:
        state = game.replay(e for _, e in game.effective(log_rows))
    except (ValueError, KeyError, TypeError, IndexError, RuleError) as exc:
        return f"Not a game export: {exc}. Nothing was imported."
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


MAX_IMPORT_BYTES = 16 << 20
"""The largest export ``companion import`` reads (a long evening's game is well under 2 MB)."""
MAX_IMPORT_EVENTS = 50_000
"""The most events an imported game may have."""


class ImportRefused(ValueError):
    """An export that is not imported; the message says why, in a player's words."""


@dataclass
class Step:
    """One command of an export, decided again by the rules: its events matched the file."""

    cmd: int
    time: float
    actor: str
    body: dict[str, Any]
    first: int
    events: list[Event]
    state: BaseState

    @property
    def last(self) -> int:
        return self.first + len(self.events) - 1


@dataclass
class CheckedImport:
    """Read an export line by line and decide each recorded command again with the rules:
    :meth:`steps` yields each command whose events are exactly what the rules produce now,
    and raises :class:`ImportRefused` at the first line that is not. Nothing but the current
    state and one command's lines is held (the caller stores each step as it comes).
    ``so_far()`` gives the rows and commands stored so far (an undo is decided over them)."""

    head: dict[str, Any]
    so_far: Callable[[], tuple[list[Row], list[dict[str, Any]]]]
    state: BaseState | None = None
    version: int = 0
    events: int = 0
    _digest: Any = field(default_factory=hashlib.sha256)

    def steps(self, lines: Iterable[str]) -> Iterator[Step]:
        group: list[dict[str, Any]] = []
        for line in lines:
            if not line.strip():
                continue
            row = self._row(line)
            if group and row["cmd"] != group[0]["cmd"]:
                yield self._decide(group)
                group = []
            group.append(row)
        if group:
            yield self._decide(group, at_end=True)
        self._finish()

    def _row(self, line: str) -> dict[str, Any]:
        try:
            row = json_text.loads(line)
            if not isinstance(row, dict):
                raise ValueError("a line is not an event")
            seq, cmd, when = row["seq"], row["cmd"], row["time"]
            if not (isinstance(seq, int) and isinstance(cmd, int)
                    and isinstance(when, int | float) and math.isfinite(when)):
                raise ValueError(f"event {seq!r} has a bad sequence, command or time")
            Event.from_json(row)
        except (ValueError, KeyError, TypeError, RuleError) as exc:
            raise ImportRefused(f"Not a game export: {exc}. Nothing was imported.") from exc
        expected = self.events + 1
        if seq != expected:
            if seq > expected:
                gap = f"{expected}" if seq == expected + 1 else f"{expected} to {seq - 1}"
                raise ImportRefused(f"The export is not whole: event(s) {gap} are missing. "
                                    "Nothing was imported; export the game again.")
            raise ImportRefused(f"The export is not whole: event {seq} is out of order or "
                                "repeated. Nothing was imported; export the game again.")
        self.events += 1
        if self.events > MAX_IMPORT_EVENTS:
            raise ImportRefused(f"The export has more than {MAX_IMPORT_EVENTS:,} events: no "
                                "game is that long. Nothing was imported.")
        self._digest.update(line.encode("utf-8") + b"\n")
        return row

    def _decide(self, group: list[dict[str, Any]], at_end: bool = False) -> Step:
        first = group[0]
        cmd, when = int(first["cmd"]), float(first["time"])
        body = first.get("command")
        if not isinstance(body, dict):
            raise ImportRefused(
                f"Event {first['seq']} does not say which command made it (an export made "
                "before commands were recorded, or an edited one), so it cannot be checked "
                "against the rules. Nothing was imported. (An old export you trust: "
                "companion import --unchecked.)")
        try:
            if self.state is None:
                if cmd != 0 or body.get("type") != "new_game":
                    raise ImportRefused("The export does not begin with the start of a game. "
                                        "Nothing was imported.")
                setup = GameSetup.from_json(body.get("setup"))
                limits.check_setup(setup, find_edition(setup.edition).setup_info())
                made = game.new_game(setup)
                state = game.replay(made)
                actor = "banker"
            elif body.get("type") == "undo":
                rows, commands = self.so_far()
                decided = decide_undo(rows, commands, body.get("cmd"))
                if isinstance(decided, str):
                    raise RuleError(decided)
                made, state, actor = [decided[0]], decided[1], "banker"
            else:
                command = Command.from_json(body)
                limits.check_command(command)
                made, state = game.step(self.state, command)
                actor = command.actor
        except ImportRefused:
            raise
        except (RuleError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ImportRefused(f"Command {cmd} of the export (event {first['seq']}) is "
                                f"refused by the rules: {exc}. Nothing was imported.") from exc
        for i, (row, event) in enumerate(zip(group, made, strict=False)):
            if _norm(Event.from_json(row)) != _norm(event):
                raise ImportRefused(
                    f"Event {row['seq']} differs from what the rules decide for its command "
                    f"({event.say or event.type!r} by the rules, {row.get('say') or row['type']!r} "
                    "in the file): the log was edited. Nothing was imported.")
            if i and row.get("command") is not None:
                raise ImportRefused(f"Event {row['seq']} carries a second command. Nothing "
                                    "was imported.")
        if len(made) != len(group):
            version = self.head.get("version")
            if at_end and isinstance(version, int) and version > self.events:
                raise ImportRefused(f"The export is not whole: events {self.events + 1} to "
                                    f"{version} are missing at the end. Nothing was "
                                    "imported; export the game again.")
            raise ImportRefused(
                f"Command {cmd} makes {len(made)} event(s) by the rules but the file has "
                f"{len(group)} (from event {first['seq']}): the log was edited or cut. "
                "Nothing was imported.")
        step = Step(cmd, when, actor, body, self.version + 1, made, state)
        self.state = state
        self.version += len(made)
        return step

    def _finish(self) -> None:
        if self.state is None:
            raise ImportRefused("Not a game export: it has no events.")
        count, version = self.head.get("events"), self.head.get("version")
        problems = []
        if isinstance(version, int) and version > self.version:
            problems.append(f"events {self.version + 1} to {version} are missing at the end")
        elif isinstance(version, int) and version != self.version:
            problems.append(f"the game was at version {version} but events run to "
                            f"{self.version}")
        if count is not None and count != self.events:
            problems.append(f"the first line says {count} events but {self.events} follow")
        digest = self.head.get("sha256")
        if digest is not None and not problems and digest != self._digest.hexdigest():
            problems.append("the events differ from the ones exported (their SHA-256 does "
                            "not match)")
        if problems:
            raise ImportRefused(f"The export is not whole: {'; '.join(problems)}. Nothing "
                                "was imported; export the game again.")


def _norm(event: Event) -> tuple[str, str, str, str]:
    """An event as compared on import: its current tag and data (an export from an earlier
    version is upcast like a stored log), as JSON, with its words and citation."""
    tag, data = upcast(event.type, dict(event.data))
    say = "" if tag == game.UNDONE else event.say  # an undo's words changed (#29 item 10)
    return tag, json.dumps(data, sort_keys=True), say, event.cite


def read_head(line: str) -> dict[str, Any]:
    """An export's first line (ImportRefused if it does not describe a game)."""
    try:
        head = json_text.loads(line)
    except ValueError as exc:
        raise ImportRefused(f"Not a game export: {exc}. Nothing was imported.") from exc
    if not isinstance(head, dict) or not isinstance(head.get("edition"), str):
        raise ImportRefused("Not a game export: the first line does not describe a game.")
    return head


def bounded_lines(lines: Iterable[str], limit: int = MAX_IMPORT_BYTES) -> Iterator[str]:
    """``lines`` until more than ``limit`` characters have come (then ImportRefused)."""
    total = 0
    for line in lines:
        total += len(line) + 1
        if total > limit:
            raise ImportRefused(f"The export is larger than {limit >> 20} MB: no game is that "
                                "long. Nothing was imported.")
        yield line
