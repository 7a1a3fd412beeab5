"""The game service: one thread owns the engine and the database; every input queues to it.

Commands from the CLI, the phones and the table hardware all arrive through :meth:`submit`
(or :meth:`tap`), are decided in order, committed to SQLite in one transaction, and only then
acknowledged and published. Readers get immutable states and cached views from any thread.
"""

from __future__ import annotations

import logging
import pickle
import secrets
import sqlite3
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from companion.engine import limits
from companion.engine.i18n import Msg, said
from companion.engine.state import BaseState
from companion.engine.story import Reread, story
from companion.engine.types import Command, Event, GameSetup, RuleError
from companion.platform.memory import release_memory
from companion.platform.statelock import StateDirBusy, StateLock
from companion.plugins.editions import find_edition
from companion.service import game, join_codes
from companion.service.exports import check_export, export_lines, log_digest
from companion.service.game_import import GameImport
from companion.service.game_loading import load_record
from companion.service.game_record import (
    RECENT,
    GameDamaged,
    GameNotFound,
    GameRecord,
    Outcome,
    PhoneView,
    _render,
    _view_key,
    code_tag,
    decide_undo,
)
from companion.service.household import Household
from companion.service.port import ServicePort
from companion.service.writer_thread import Listener, WriterThread
from companion.store.database import Store, StoreError, StoreLost

log = logging.getLogger("companion.service.game_service")

DB_NAME = "companion.db"
SNAPSHOT_EVERY = 2000
"""Events between a game's snapshots. A start replays at most this many after the last one
(9 ms for 2,000 events on the bench machine); pickling a late game's state holds the
interpreter about 0.6 ms just after a move's answer, so every 500 events it put one move in
a hundred past the 2 ms budget for a command with its commit (docs/decisions.md)."""

__all__ = ["DB_NAME", "GameDamaged", "GameNotFound", "GameRecord", "GameService", "Listener",
           "Outcome", "PhoneView", "ServicePort", "check_export", "log_digest"]


class GameService(GameImport, Household, WriterThread):
    """The single writer. Start it, submit commands, read states and views."""

    def __init__(self, state_dir: Path, *, clock: Callable[[], float] = time.time,
                 snapshot_every: int = SNAPSHOT_EVERY, lock: bool = True,
                 purpose: str = "companion run") -> None:
        """Open the database and load every open game. ``lock``: hold the state directory
        (one writing process at a time, see companion.platform.statelock); ``purpose`` names this
        program to anyone refused. A game whose log cannot be read is set aside in
        ``damaged`` (the others start) and reported in ``faults``."""
        super().__init__()
        self.state_dir = Path(state_dir)
        self.clock = clock
        self.snapshot_every = snapshot_every
        self._lock = StateLock(self.state_dir, purpose) if lock else None
        self._open_store()
        self.code = code_tag()
        self._games: dict[str, GameRecord] = {}
        self.damaged: dict[str, str] = {}
        """Games set aside at start-up: id -> what is wrong, in a player's words."""
        try:
            opened = self.store.games("open")
        except sqlite3.DatabaseError as exc:
            self.stop()
            raise StoreError(f"The list of games in {self.store.path} is damaged ({exc}). "
                             "Restore a backup with `companion restore` (list them: "
                             "`companion backup --list`).") from exc
        for row in opened:
            self._load_guarded(row)
        try:
            self._active: str | None = self.store.setting("active_game")
            """The newest game created (kept in memory: it is asked after every commit)."""
        except sqlite3.DatabaseError:
            self._active = None

    def _open_store(self) -> None:
        """Take the state directory's lock, then open the database (StoreError if either
        cannot be had, with the reason in a player's words)."""
        from companion.store.database import writable_problem

        if self._lock is not None:
            try:
                self._lock.acquire()
            except StateDirBusy as exc:
                raise StoreError(str(exc), "busy") from exc
            except OSError as exc:
                problem = writable_problem(self.state_dir / DB_NAME)
                raise StoreError(problem or f"The state directory {self.state_dir} cannot be "
                                 f"used ({exc}).", "read_only") from exc
        try:
            self.store = Store(self.state_dir / DB_NAME)
        except StoreError:
            if self._lock is not None:
                self._lock.release()
            raise

    def _load_guarded(self, row: dict[str, Any]) -> None:
        """Load one game; if its log cannot be read, set it aside and say so (the other
        games still start)."""
        try:
            self._load(row)
        except Exception as exc:  # a damaged page, row or pickle: this game only
            log.error("game %s (%s) cannot be loaded: %r", row["id"], row["title"], exc)
            text = (f"{row['title']} (game {row['id']}) is damaged and was not started: "
                    f"{_reason(exc)}. The other games are fine. Restore a backup to get it "
                    "back (companion backup --list).")
            self.damaged[row["id"]] = text
            self.faults.append({"text": text, "level": "error", "game_id": row["id"]})

    def stop(self) -> None:
        self.stop_thread()
        moved = "" if self.store.lost else self.store.moved()
        if moved:  # deleted since the last commit: what the process holds is saved first
            self.store.rescue(moved)
        self.store.close()
        if self._lock is not None:
            self._lock.release()

    def __enter__(self) -> GameService:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- public writes (queued) ---------------------------------------------------------------
    def create_game(self, setup: Any) -> Outcome:
        return self.call(self._guarded, self._create_game, setup)

    def submit(self, game_id: str, command: Any, version: int | None = None,
               key: str | None = None) -> Outcome:
        """Decide and commit one command. ``version`` is the log version the sender saw
        (None: do not check); ``key`` an idempotency key (a retry gets the first answer)."""
        return self.call(self._guarded, self._submit, game_id, command, version, key)

    def undo(self, game_id: str, cmd: int | None = None) -> Outcome:
        """Take back command ``cmd`` and everything after it (None: the last command)."""
        return self.call(self._guarded, self._undo, game_id, cmd)

    def import_game(self, lines: Iterable[str], unchecked: bool = False) -> Outcome:
        """Import an export (see :meth:`_import`); ``unchecked``: an export from before
        commands were recorded, replayed without deciding its commands again."""
        return self.call(self._guarded, self._import, lines, unchecked, timeout=600)

    # -- public reads ---------------------------------------------------------------------
    def games(self) -> list[dict[str, Any]]:
        """Every game in the database; a damaged one has status ``damaged`` and a
        ``problem`` saying what is wrong."""
        out = self.call(self.store.games)
        for g in out:
            if g["id"] in self.damaged:
                g.update(status="damaged", problem=self.damaged[g["id"]])
        return out

    def record(self, game_id: str) -> GameRecord:
        rec = self._games.get(game_id)
        if rec is None:
            if game_id in self.damaged:
                raise GameDamaged(self.damaged[game_id])
            rec = self.call(self._load_by_id, game_id)
        return rec

    def loaded(self, game_id: str) -> bool:
        """Whether the game is in memory (then reading it never waits for the service thread)."""
        return game_id in self._games

    def state(self, game_id: str) -> tuple[int, BaseState]:
        return self.record(game_id).current

    def view(self, game_id: str, viewer: str | None = None) -> PhoneView:
        """The game's view for ``viewer`` (cached per version)."""
        rec = self.record(game_id)
        version, state = rec.current
        rules = find_edition(rec.edition)
        key = _view_key(rules, viewer)
        cached = rec.views.get(key)
        if cached is not None and cached["version"] == version:
            return cached
        recent = tuple(rec.recent)  # one C-level copy: the writer may append meanwhile
        out = _render(rec, rules, version, state, key, recent, rec.cites)
        rec.views[key] = out
        return out

    def view_key(self, game_id: str, viewer: str | None) -> str | None:
        """Whose view ``viewer`` sees: itself, or None when the edition shows every viewer
        the same view (``Rules.view_per_viewer`` False), so one view and one patch per
        version serve every phone."""
        return _view_key(find_edition(self.record(game_id).edition), viewer)

    def history(self, game_id: str, limit: int | None = None,
                before: int | None = None) -> list[dict[str, Any]]:
        """The explained events (``n``-th; all, or the newest ``limit`` before event ``before``),
        oldest first, undone marked; one a rule caused has ``cite`` and ``citation``."""
        rows = self.call(self.store.rows, game_id)
        kept = {seq for seq, _ in game.effective((r.seq, r.event) for r in rows)}
        rules = find_edition(self.record(game_id).edition)
        said = [(n, r) for n, r in enumerate((r for r in rows if r.event.say), 1)
                if before is None or r.seq < before]
        out = []
        for n, r in said[-limit:] if limit else said:
            item = {"n": n, "seq": r.seq, "cmd": r.cmd, "time": r.time, "type": r.event.type,
                    "say": r.event.say,
                    "undone": r.seq not in kept and r.event.type != game.UNDONE}
            citation = rules.citation(r.event.cite)
            if citation is not None:
                item.update(cite=citation["text"], citation=citation)
            out.append(item)
        return out

    def story(self, game_id: str) -> dict[str, Any]:
        """The game's story (engine/story.py), told once per version for the OLED and every
        phone, reading the log a row at a time (a log decoded whole costs ~2 KB an event)."""
        rec = self.record(game_id)
        if rec.told and rec.told[0] == rec.version:
            return rec.told[1]
        return self.call(self._tell_story, game_id)

    def _tell_story(self, game_id: str) -> dict[str, Any]:
        rec = self.record(game_id)
        if rec.told is None or rec.told[0] != rec.version:
            rows = self.store.iter_rows
            log = Reread(lambda: ((r.seq, r.cmd, r.time, r.event) for r in rows(game_id)))
            rec.told = (rec.version, story(log, find_edition))
        return rec.told[1]

    def commands(self, game_id: str) -> list[dict[str, Any]]:
        return self.call(self.store.commands, game_id)

    def export(self, game_id: str) -> Iterator[str]:
        """The game's log as JSON lines. The first line describes the game and says how
        many events follow and their SHA-256 (see :func:`check_export`); the last event's
        sequence number is the version."""
        rec = self.record(game_id)
        commands = {c["cmd"]: c for c in self.call(self.store.commands, game_id)}
        yield from export_lines(rec, self.call(self.store.rows, game_id), commands)

    def wait(self, game_id: str, after: int, timeout: float) -> int:
        """Block until the game's version passes ``after`` (or timeout); returns the version."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                rec = self._games.get(game_id)
                version = rec.version if rec else 0
                left = deadline - time.monotonic()
                if version > after or left <= 0:
                    return version
                self.changed.wait(left)

    # -- the work, on the service thread --------------------------------------------------
    def _guarded(self, fn: Callable[..., Outcome], *args: Any) -> Outcome:
        """Run a write; if the database refuses it (full disk, I/O error), nothing changed:
        say so clearly instead of failing."""
        try:
            return fn(*args)
        except StoreLost as exc:  # the file was deleted under us: rescued (see Store.rescue)
            self._publish("", 0, {"text": str(exc), "level": "error"})
            return Outcome(False, 0, error=str(exc), code="storage")
        except sqlite3.Error as exc:
            log.error("could not save: %s", exc)
            text = (f"The companion could not save ({exc}); nothing changed. Free some disk "
                    "space or check the SD card, then try again.")
            self._publish("", 0, {"text": text, "level": "error"})
            return Outcome(False, 0, error=text, code="storage")

    def _create_game(self, raw: Any) -> Outcome:
        profile = raw.get("profile") if isinstance(raw, dict) else None
        try:
            if isinstance(raw, dict) and raw.get("profile"):  # a box profile's settings
                from companion.boxes.profiles import Profiles
                raw = Profiles(self.store.conn).resolve(raw)
            setup = raw if isinstance(raw, GameSetup) else GameSetup.from_json(raw)
            limits.check_setup(setup, find_edition(setup.edition).setup_info())
            events = game.new_game(setup)
        except RuleError as exc:
            return Outcome(False, 0, error=said(exc), code="illegal")
        except (TypeError, ValueError, KeyError, AttributeError) as exc:  # an edition's own check
            return Outcome(False, 0, error=Msg("That setup is not valid ({why}).", why=str(exc)),
                           code="illegal")
        game_id = secrets.token_hex(4)
        join_code = join_codes.new_code({g["join_code"] for g in self.store.games()})
        now = self.clock()
        title = find_edition(setup.edition).title
        says = [e.say for e in events if e.say]
        response = {"ok": True, "version": len(events), "says": says, "game_id": game_id}
        with self.store.transaction() as conn:
            self.store.add_game(conn, game_id, setup.edition, title, now, join_code)
            last = self.store.append(conn, game_id, 1, 0, now, events)
            self.store.record_command(conn, game_id, 0, now, "banker",
                                      {"type": "new_game", "setup": setup.to_json(),
                                       # the box profile it was set up from (the history)
                                       **({"profile": profile} if profile else {})}, None, 1,
                                      last, response)
            self.store.put_setting(conn, "active_game", game_id)
        self._active = game_id
        state = game.replay(events)
        rec = GameRecord(game_id, setup.edition, title, join_code, (last, state), 1,
                         deque(((i + 1, e.say, e.type) for i, e in enumerate(events) if e.say),
                               maxlen=RECENT))
        rec.history.add(last, state)
        self._games[game_id] = rec
        self._publish(game_id, last)
        return Outcome(True, last, says, game_id=game_id)

    def _submit(self, game_id: str, raw: Any, version: int | None, key: str | None) -> Outcome:
        rec = self._games.get(game_id) or self._load_by_id(game_id)
        if key is not None:
            if not isinstance(key, str) or not 0 < len(key) <= 80:
                return Outcome(False, rec.version, error=Msg(
                    "An idempotency key is 1 to 80 characters."), code="bad_request")
            earlier = self.store.response_for(game_id, key)
            if earlier is not None:
                return Outcome(earlier["ok"], earlier["version"], earlier.get("says", []),
                               game_id=game_id)
        try:
            command = raw if isinstance(raw, Command) else Command.from_json(raw)
            limits.check_command(command)
        except RuleError as exc:
            return Outcome(False, rec.version, error=said(exc), code="bad_request")
        if version is not None and version != rec.version:
            return self._stale(rec, version)
        try:
            events, state = game.step(rec.state, command)
        except RuleError as exc:  # arguments its handler does not declare: a bad request
            code = "bad_request" if isinstance(exc, limits.ArgumentError) else "illegal"
            return Outcome(False, rec.version, error=said(exc), code=code)
        return self._commit(rec, events, state, command.actor, command.to_json(), key)

    def _stale(self, rec: GameRecord, seen: Any) -> Outcome:
        if not isinstance(seen, int) or seen > rec.version or seen < 0:
            return Outcome(False, rec.version, error=Msg(
                "That version of the game never existed; reload the page."), code="bad_request")
        rows = self.store.rows(rec.id, after=seen)
        changes = [r.event.say for r in rows if r.event.say]
        if not changes:
            return Outcome(False, rec.version, error=Msg(
                "The game changed since you looked: it moved on. Check the table and try "
                "again."), code="stale")
        return Outcome(False, rec.version, error=Msg(  # the newest line, in the reader's words
            "The game changed since you looked: {last} Check the table and try again.",
            last=changes[-1]), code="stale")

    def _commit(self, rec: GameRecord, events: list[Event], state: BaseState, actor: str,
                body: dict[str, Any], key: str | None) -> Outcome:
        now = self.clock()
        first = rec.version + 1
        says = [e.say for e in events if e.say]
        last = first + len(events) - 1
        response = {"ok": True, "version": last, "says": says}
        with self.store.transaction() as conn:
            if events:
                self.store.append(conn, rec.id, first, rec.commands, now, events)
            self.store.record_command(conn, rec.id, rec.commands, now, actor, body, key, first,
                                      max(last, rec.version), response)
            if state.finished and not rec.state.finished:
                self.store.set_status(conn, rec.id, "finished")
        # committed: now the new state is real (the log lines first, so no view of the new
        # version can miss them)
        finished_before = rec.state.finished
        for i, e in enumerate(events):
            if e.say:
                rec.recent.append((first + i, e.say, e.type))
            if e.cite:
                rec.cites[first + i] = e.cite
        rec.current = (max(last, rec.version), state)
        rec.commands += 1
        rec.history.add(rec.version, state)
        rec.keep_recent_cites()
        self._publish(rec.id, rec.version)
        if state.finished and not finished_before:  # a copy of the whole file: after the answer
            self._after_answer(lambda: self._backup(f"finished-{rec.edition}"))
        # housekeeping after the phones have the move (and the mover its answer)
        rec.since_snapshot += len(events)
        if rec.since_snapshot >= self.snapshot_every:
            self._after_answer(lambda: self._snapshot(rec))
        if rec.commands % 128 == 0:
            self._after_answer(release_memory)
        if self.store.checkpoint_due():
            self._after_answer(self.store.checkpoint)
        return Outcome(True, rec.version, says, game_id=rec.id, events=[e.type for e in events])

    def _undo(self, game_id: str, cmd: int | None) -> Outcome:
        rec = self._games.get(game_id) or self._load_by_id(game_id)
        rows = self.store.rows(game_id)
        decided = decide_undo(rows, self.store.commands(game_id), cmd)
        if isinstance(decided, str):
            return Outcome(False, rec.version, error=decided, code="illegal")
        event, state, to_seq = decided
        now = self.clock()
        seq = rec.version + 1
        response = {"ok": True, "version": seq, "says": [event.say]}
        with self.store.transaction() as conn:
            self.store.append(conn, game_id, seq, rec.commands, now, [event])
            self.store.record_command(conn, game_id, rec.commands, now, "banker",
                                      {"type": "undo", "cmd": event.data["cmd"]}, None, seq, seq,
                                      response)
            self.store.set_status(conn, game_id, "finished" if state.finished else "open")
        marked = game.effective(((r.seq, r.event) for r in rows), keep_markers=True)
        recent = deque(((s, e.say, e.type) for s, e in marked if s <= to_seq and e.say),
                       maxlen=RECENT)
        recent.append((seq, event.say, event.type))
        rec.recent = recent
        rec.current = (seq, state)
        rec.commands += 1
        rec.cites = {s: e.cite for s, e in marked if s <= to_seq and e.cite}
        rec.keep_recent_cites()
        rec.history.keep_until(to_seq)
        rec.history.add(seq, state)
        self._publish(game_id, seq)
        return Outcome(True, seq, [event.say], game_id=game_id)

    # -- loading and snapshots ------------------------------------------------------------
    def _load_by_id(self, game_id: str) -> GameRecord:
        if game_id in self.damaged:
            raise GameDamaged(self.damaged[game_id])
        for row in self.store.games():
            if row["id"] == game_id:
                self._load_guarded(row)
                if game_id in self.damaged:
                    self._publish(game_id, 0, self.faults[-1])
                    raise GameDamaged(self.damaged[game_id])
                return self._games[game_id]
        raise GameNotFound(f"There is no game {game_id!r}.")

    def _load(self, row: dict[str, Any]) -> GameRecord:
        rec = self._games[row["id"]] = load_record(self.store, self.code, row)
        return rec

    def _backup(self, reason: str) -> None:
        """Export the whole database (after a game ends): a copy to restore from."""
        from companion.platform.backup import BACKUP_SUBDIR, backup_from

        try:  # through this connection: the file is the service's alone (companion.store.database)
            path = backup_from(self.store.conn, self.state_dir / BACKUP_SUBDIR, reason)
            log.info("backup written: %s", path)
        except Exception:  # a backup must never stop the game
            log.exception("backup after the game failed")

    def _snapshot(self, rec: GameRecord) -> None:
        try:
            self.store.save_snapshot(rec.id, rec.version, self.code, pickle.dumps(rec.state))
            rec.since_snapshot = 0
        except Exception:  # a snapshot is only a shortcut
            log.exception("snapshot failed")

    def decide_here(self, game_id: str, command: Any) -> Outcome:
        """Decide and commit ``command`` now, for code already holding the writer's turn
        (the table's tap handler runs on the service thread; anything else uses
        :meth:`submit`)."""
        return self._submit(game_id, command, None, None)

    def notify(self, game_id: str, text: str, level: str) -> None:
        """Tell every listener (the OLED, the LEDs, the page) something that changed
        nothing: a refused tap, an enrolment step."""
        self._publish(game_id, 0, {"text": text, "level": level})

    def serve_game(self, game_id: str) -> None:
        """Make ``game_id`` the game the table hardware talks to (kept across restarts).
        Call it on the writer's turn (:meth:`call`)."""
        self.store.set_setting("active_game", game_id)
        self._active = game_id

    def active_game(self) -> str | None:
        """The game the table hardware talks to: the newest open game."""
        value = self._active
        if value and value in self._games:
            return str(value)
        open_games = [g for g in self._games.values() if not g.state.finished]
        return open_games[-1].id if open_games else value


def _reason(exc: BaseException) -> str:
    if isinstance(exc, sqlite3.DatabaseError):
        return f"its part of the database cannot be read ({exc})"
    return f"its log cannot be replayed ({type(exc).__name__}: {exc})"
