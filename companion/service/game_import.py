"""Importing a game's export: the part of the game service that reads one back in."""

from __future__ import annotations

import json
import pickle
import re
import secrets
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from companion.engine.i18n import Msg, said
from companion.plugins.editions import find_edition
from companion.service import join_codes
from companion.service.exports import (
    MAX_IMPORT_EVENTS,
    CheckedImport,
    ImportRefused,
    bounded_lines,
    read_export,
    read_head,
)
from companion.service.game_loading import load_record
from companion.service.game_record import GameRecord, Outcome
from companion.store import log_reads, past_reads
from companion.store.database import Store


class GameImport:
    """Import, as a part of :class:`companion.service.game_service.GameService` (it runs on the
    writer's turn, through ``GameService.import_game``)."""

    store: Store
    clock: Callable[[], float]
    code: str
    _games: dict[str, GameRecord]
    _load_by_id: Callable[[str], GameRecord]

    def _import(self, lines: Iterable[str], unchecked: bool) -> Outcome:
        """Import an export: every command decided again by the rules and its events
        compared with the file's (see :class:`companion.service.exports.CheckedImport`), all in
        one transaction; refused whole at the first difference. A game already here is
        recognised (same id, or same start: setup and time of its first command)."""
        try:
            it = iter(bounded_lines(lines))
            head = read_head(next(it, ""))
            if unchecked:
                return self._import_unchecked(head, list(it))
            return self._import_checked(head, it)
        except ImportRefused as exc:
            return Outcome(False, 0, error=said(exc), code="bad_request")

    def _import_checked(self, head: dict[str, Any], lines: Iterator[str]) -> Outcome:
        known = {g["id"]: g for g in self.store.games()}
        wanted = head.get("game")
        game_id = (wanted if isinstance(wanted, str) and _GAME_ID.fullmatch(wanted)
                   and wanted not in known else secrets.token_hex(4))
        if isinstance(wanted, str) and wanted in known:
            raise ImportRefused(_already(known[wanted], self._version_of(wanted)))
        edition = head["edition"]
        now = self.clock()
        check = CheckedImport(head, lambda: (self.store.rows(game_id),
                                             self.store.commands(game_id)))
        with self.store.transaction() as conn:
            for step in check.steps(lines):
                if step.cmd == 0:
                    if step.state.edition != edition:
                        raise ImportRefused("The first line names another edition than the "
                                            "game's. Nothing was imported.")
                    twin = log_reads.game_started_as(conn, json.dumps(step.body), step.time)
                    if twin is not None:
                        raise ImportRefused(_already(known[twin], self._version_of(twin)))
                    self.store.add_game(conn, game_id, edition, find_edition(edition).title,
                                        now, join_codes.new_code(
                                            {g["join_code"] for g in known.values()}))
                self.store.append(conn, game_id, step.first, step.cmd, step.time, step.events)
                says = [e.say for e in step.events if e.say]
                response = {"ok": True, "version": step.last, "says": says}
                self.store.record_command(conn, game_id, step.cmd, step.time, step.actor,
                                          step.body, None, step.first, step.last, response)
            assert check.state is not None
            if check.state.finished:
                self.store.set_status(conn, game_id, "finished")
        # the next start loads this state, not a replay of the whole log
        self.store.save_snapshot(game_id, check.version, self.code, pickle.dumps(check.state))
        self._load_by_id(game_id)
        return Outcome(True, check.version, game_id=game_id)

    def _version_of(self, game_id: str) -> int:
        rec = self._games.get(game_id)
        if rec is not None:
            return rec.version
        return past_reads.last_seq(self.store.conn, game_id)

    def _import_unchecked(self, head: dict[str, Any], lines: list[str]) -> Outcome:
        """An export from before commands were recorded: whole and in order (count and
        SHA-256), replayed, but not decided again (the banker said to trust the file)."""
        read = read_export([json.dumps(head), *lines])
        if isinstance(read, str):
            return Outcome(False, 0, error=read, code="bad_request")
        head, rows, log_rows, state = read
        if len(log_rows) > MAX_IMPORT_EVENTS:
            return Outcome(False, 0, error=Msg(
                "The export has more than {n} events. Nothing was imported.",
                n=MAX_IMPORT_EVENTS), code="bad_request")
        game_id = secrets.token_hex(4)
        now = self.clock()
        with self.store.transaction() as conn:
            self.store.add_game(conn, game_id, state.edition, str(head.get("title", ""))[:80],
                                now,
                                join_codes.new_code({g["join_code"] for g in self.store.games()}))
            for r, (seq, e) in zip(rows, log_rows, strict=True):
                self.store.append(conn, game_id, seq, int(r.get("cmd", 0)),
                                  float(r.get("time", now)), [e])
            if state.finished:
                self.store.set_status(conn, game_id, "finished")
            row = next(g for g in self.store.games() if g["id"] == game_id)
            try:  # loaded as the next start will load it, before it is committed
                rec = load_record(self.store, self.code, row)
            except Exception as exc:  # noqa: BLE001 - any reason: nothing is kept
                raise ImportRefused(Msg(
                    "The export cannot be replayed ({reason}). Nothing was imported.",
                    reason=f"{type(exc).__name__}: {exc}")) from exc
        self._games[game_id] = rec
        return Outcome(True, log_rows[-1][0] if log_rows else 0, game_id=game_id)


_GAME_ID = re.compile(r"[0-9a-f]{8}")


def _already(row: dict[str, Any], version: int) -> str:
    return (f"This game is already here: {row['title']} (game {row['id']}, at version "
            f"{version}). Nothing was imported.")
