"""The game service: one thread owns the engine and the database; every input queues to it.

Commands from the CLI, the phones and the table hardware all arrive through :meth:`submit`
(or :meth:`tap`), are decided in order, committed to SQLite in one transaction, and only then
acknowledged and published. Readers get immutable states and cached views from any thread.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
import queue
import secrets
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from companion import join_codes, limits
from companion.engine import game
from companion.engine.editions import find_edition
from companion.engine.state import BaseState
from companion.engine.types import Command, Event, GameSetup, RuleError
from companion.memory import release_memory
from companion.statelock import StateDirBusy, StateLock
from companion.store import Row, Store, StoreError

log = logging.getLogger("companion.service")

DB_NAME = "companion.db"
RECENT = 12


@dataclass
class Outcome:
    """The answer to a command: accepted (with the new version and what happened) or not."""

    ok: bool
    version: int
    says: list[str] = field(default_factory=list)
    error: str = ""
    code: str = "ok"
    """``ok``, ``illegal`` (a rule refused it), ``stale`` (the sender's view was out of date),
    ``not_found`` (no such game) or ``bad_request`` (malformed)."""
    game_id: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": self.ok, "version": self.version, "says": self.says}
        if not self.ok:
            out.update(error=self.error, code=self.code)
        if self.game_id:
            out["game_id"] = self.game_id
        return out


class GameNotFound(LookupError):
    """No game with that id in this companion's database."""


class GameDamaged(GameNotFound):
    """The game is in the database but its log cannot be read (a damaged page or row)."""


def _render(rec: GameRecord, rules: Any, version: int, state: BaseState, key: str | None,
            recent: tuple[tuple[int, str], ...], cites: dict[int, str]) -> dict[str, Any]:
    """The view of ``state`` (version ``version``) for ``key`` with the game's log lines."""
    out = game.view(state, key)
    out.update(game_id=rec.id, version=version, join_code=rec.join_code,
               log=[say for _, say in recent],
               log_cites=[_cite_text(rules, cites.get(seq, "")) for seq, _ in recent])
    return out


def _shared_view(rules: Any) -> bool:
    """Whether the edition shows every viewer the same view (``view_per_viewer`` False)."""
    return not getattr(rules, "view_per_viewer", True)


def _view_key(rules: Any, viewer: str | None) -> str | None:
    """Whose view ``viewer`` sees: itself, or None when every viewer sees the same one."""
    return None if _shared_view(rules) else viewer


def _cite_text(rules: Any, rule: str) -> str:
    """The one-line citation of ``rule`` ("" when none); remembered on the rules object (a
    view asks again for the same dozen lines after every move)."""
    if not rule:
        return ""
    cache = getattr(rules, "__dict__", {}).setdefault("_cite_texts", {})
    text = cache.get(rule)
    if text is None:
        found = rules.citation(rule)
        text = cache[rule] = "" if found is None else str(found["text"])
    return str(text)


@dataclass
class GameRecord:
    """A loaded game: its current state and where its log stands."""

    id: str
    edition: str
    title: str
    join_code: str
    current: tuple[int, BaseState]
    """(version, state), replaced in one assignment so readers on other threads never see a
    state with another version's number. The version is the sequence number of the last row
    in the log (undone rows included)."""
    commands: int
    recent: deque[tuple[int, str]]
    since_snapshot: int = 0
    views: dict[str | None, dict[str, Any]] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)
    """Balances after each command, for the page's chart: ``{"version", "money": {...}}``."""
    cites: dict[int, str] = field(default_factory=dict)
    """Citation ids of the logged events, by sequence number (for the view's ``log_cites``)."""

    @property
    def version(self) -> int:
        return self.current[0]

    @property
    def state(self) -> BaseState:
        return self.current[1]


def code_tag() -> str:
    """A fingerprint of the rules code and data: snapshots from other code are not trusted."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for base in (root / "companion", root / "seeds"):
        for path in sorted(base.rglob("*")):
            if path.suffix in (".py", ".toml"):
                h.update(path.as_posix().encode())
                h.update(path.read_bytes())
    return h.hexdigest()[:16]


T = TypeVar("T")
Listener = Callable[[str, int, dict[str, Any] | None], None]


class GameService:
    """The single writer. Start it, submit commands, read states and views."""

    def __init__(self, state_dir: Path, *, clock: Callable[[], float] = time.time,
                 snapshot_every: int = 500, lock: bool = True,
                 purpose: str = "companion run") -> None:
        """Open the database and load every open game. ``lock``: hold the state directory
        (one writing process at a time, see companion.statelock); ``purpose`` names this
        program to anyone refused. A game whose log cannot be read is set aside in
        ``damaged`` (the others start) and reported in ``faults``."""
        self.state_dir = Path(state_dir)
        self.clock = clock
        self.snapshot_every = snapshot_every
        self._lock = StateLock(self.state_dir, purpose) if lock else None
        self._open_store()
        self.code = code_tag()
        self._games: dict[str, GameRecord] = {}
        self._queue: queue.SimpleQueue[
            tuple[Callable[..., Any], tuple[Any, ...], Future[Any], bool] | None]
        self._queue = queue.SimpleQueue()
        """A C queue: putting a move wakes this thread with fewer steps than queue.Queue's
        Python locks and conditions, on the move's critical path both ways."""
        self._thread: threading.Thread | None = None
        self._listeners: list[Listener] = []
        self._first = 0
        """How many listeners at the head of ``_listeners`` subscribed with ``first``."""
        self._later: list[Callable[[], None]] | None = None
        """While a queued item answered early runs (:meth:`enqueue`): what waits until its
        caller has the answer (the listeners not ``first``, housekeeping); else None."""
        self.before_later: list[Callable[[], None]] = []
        """Run on the service thread after an early answer, before the work kept for later:
        a front may wait there briefly until its loop has written the move (the OLED's
        drawing would otherwise hold the GIL the loop needs)."""
        self._ahead: ThreadPoolExecutor | None = None
        """Builds a move's shared view while this thread waits for the disk (the fsync of
        the commit releases the GIL): see :meth:`_view_ahead`."""
        self.ahead_hooks: list[Callable[[str, str | None, dict[str, Any]], None]] = []
        """``hook(game_id, viewer key, view)`` runs on the helper thread with a view built
        ahead, before the commit is known to have succeeded: a hook may prepare work from
        it (a web front's patch) but must not publish anything until the service does."""
        self.changed = threading.Condition()
        self.tap_handler: Callable[[str, str], Outcome] | None = None
        self.damaged: dict[str, str] = {}
        """Games set aside at start-up: id -> what is wrong, in a player's words."""
        self.faults: list[dict[str, Any]] = []
        """Start-up problems as notices (``{"text", "level", "game_id"}``); every new
        listener hears them, so they reach the OLED and the page."""
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
        from companion.store import writable_problem

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
        self.store.presize_wal()  # before anyone else uses the connection: see its docstring

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

    # -- the writer thread ------------------------------------------------------------------
    def start(self) -> GameService:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="game-service", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=10)
            self._thread = None
        if self._ahead is not None:
            self._ahead.shutdown(wait=True)
            self._ahead = None
        self.store.close()
        if self._lock is not None:
            self._lock.release()

    def __enter__(self) -> GameService:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            fn, args, fut, early = item
            if not fut.set_running_or_notify_cancel():
                continue
            later: list[Callable[[], None]] = []
            self._later = later if early else None
            try:
                fut.set_result(fn(*args))
            except BaseException as exc:  # handed to the caller
                fut.set_exception(exc)
            finally:
                self._later = None
            if later:
                self._run_later(later)

    def _run_later(self, later: list[Callable[[], None]]) -> None:
        """After an early answer: let the front write the move, then the rest, in order."""
        for hook in list(self.before_later):
            try:
                hook()
            except Exception:
                log.exception("a before-later hook failed")
        for work in later:
            try:
                work()
            except Exception:  # the move is committed and answered already
                log.exception("work after a move failed")

    def _after_answer(self, work: Callable[[], None]) -> None:
        """Run ``work`` once the current item's caller has its answer if it was queued to be
        answered early, else now (a waiting caller sees it done)."""
        if self._later is not None and threading.current_thread() is self._thread:
            self._later.append(work)
        else:
            work()

    def call(self, fn: Callable[..., T], *args: Any, timeout: float = 30) -> T:
        """Run ``fn(*args)`` on the service thread and wait for its result."""
        if self._thread is None or threading.current_thread() is self._thread:
            return fn(*args)
        fut: Future[T] = Future()
        self._queue.put((fn, args, fut, False))
        return fut.result(timeout=timeout)

    @property
    def running(self) -> bool:
        """Whether the service thread runs (else :meth:`call` runs work in the caller)."""
        return self._thread is not None

    def enqueue(self, fn: Callable[..., T], *args: Any,
                then: Callable[[Future[T]], None] | None = None) -> Future[T] | None:
        """Queue ``fn(*args)`` for the service thread without waiting: its future, or None
        when the thread is not running (then use :meth:`call`). For a front that waits on
        an event loop instead of a thread of its own. ``then(future)`` runs on the service
        thread once it is settled; it is attached before the work is queued, so the caller
        does nothing more after waking the thread.

        The answer comes early: as soon as the listeners subscribed ``first`` (the phones'
        front) have heard of the commit; the other listeners (the table's OLED) and the
        housekeeping run after it, before the next queued item."""
        if self._thread is None:
            return None
        fut: Future[T] = Future()
        if then is not None:
            fut.add_done_callback(then)
        self._queue.put((fn, args, fut, True))
        return fut

    def subscribe(self, listener: Listener, *, first: bool = False) -> None:
        """``listener(game_id, version, notice)`` runs on the service thread after each commit
        (``notice`` is None) or refused tap (``notice`` = ``{"text", "level"}``). A new
        listener first hears the start-up faults (damaged games).

        ``first``: told before the others (in the order they subscribed). The phones' front
        only prepares frames and wakes its loop; the table's OLED takes tens of milliseconds
        on I2C, and the phones should not wait for it."""
        if first:
            self._listeners.insert(self._first, listener)
            self._first += 1
        else:
            self._listeners.append(listener)
        for notice in list(self.faults):
            try:
                listener(notice.get("game_id", ""), 0, notice)
            except Exception:  # a broken display must not stop the game
                log.exception("listener failed")

    def _publish(self, game_id: str, version: int, notice: dict[str, Any] | None = None) -> None:
        with self.changed:
            self.changed.notify_all()
        listeners = list(self._listeners)
        self._tell(listeners[:self._first], game_id, version, notice)
        rest = listeners[self._first:]
        if rest:
            self._after_answer(lambda: self._tell(rest, game_id, version, notice))

    @staticmethod
    def _tell(listeners: list[Listener], game_id: str, version: int,
              notice: dict[str, Any] | None) -> None:
        for listener in listeners:
            try:
                listener(game_id, version, notice)
            except Exception:  # a broken display must not stop the game
                log.exception("listener failed")

    # -- public writes (queued) ---------------------------------------------------------------
    def create_game(self, setup: Any) -> Outcome:
        return self.call(self._guarded, self._create_game, setup)

    def submit(self, game_id: str, command: Any, version: int | None = None,
               key: str | None = None) -> Outcome:
        """Decide and commit one command. ``version`` is the log version the sender saw
        (None: do not check); ``key`` an idempotency key (a retry gets the first answer)."""
        return self.call(self._guarded, self._submit, game_id, command, version, key)

    def submit_later(self, game_id: str, command: Any, version: int | None = None,
                     key: str | None = None,
                     then: Callable[[Future[Outcome]], None] | None = None,
                     ) -> Future[Outcome] | None:
        """:meth:`submit` without waiting: the future of its outcome (decided, committed and
        published in the same order as every other input), or None when the service thread
        is not running. ``then``: as :meth:`enqueue`'s."""
        return self.enqueue(self._guarded, self._submit, game_id, command, version, key,
                            then=then)

    def undo(self, game_id: str, cmd: int | None = None) -> Outcome:
        """Take back command ``cmd`` and everything after it (None: the last command)."""
        return self.call(self._guarded, self._undo, game_id, cmd)

    def import_game(self, lines: list[str]) -> Outcome:
        return self.call(self._guarded, self._import, lines)

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

    def view(self, game_id: str, viewer: str | None = None) -> dict[str, Any]:
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

    def history(self, game_id: str) -> list[dict[str, Any]]:
        """Every explained event of the game, oldest first, with undone ones marked; an
        event an automatic rule caused has ``cite`` (the rule in one line) and ``citation``
        (edition, section and quote, or the reading / house default)."""
        rows = self.call(self.store.rows, game_id)
        kept = {seq for seq, _ in game.effective((r.seq, r.event) for r in rows)}
        rules = find_edition(self.record(game_id).edition)
        out = []
        for r in rows:
            if not r.event.say:
                continue
            item = {"seq": r.seq, "cmd": r.cmd, "time": r.time, "say": r.event.say,
                    "undone": r.seq not in kept and r.event.type != game.UNDONE}
            citation = rules.citation(r.event.cite)
            if citation is not None:
                item.update(cite=citation["text"], citation=citation)
            out.append(item)
        return out

    def commands(self, game_id: str) -> list[dict[str, Any]]:
        return self.call(self.store.commands, game_id)

    def export(self, game_id: str) -> Iterator[str]:
        """The game's log as JSON lines. The first line describes the game and says how
        many events follow and their SHA-256 (see :func:`check_export`); the last event's
        sequence number is the version."""
        import json

        rec = self.record(game_id)
        rows = self.call(self.store.rows, game_id)
        lines = [json.dumps({"seq": r.seq, "cmd": r.cmd, "time": r.time, **r.event.to_json()})
                 for r in rows]
        yield json.dumps({"game": rec.id, "edition": rec.edition, "title": rec.title,
                          "join_code": rec.join_code,
                          "version": rows[-1].seq if rows else 0, "events": len(lines),
                          "sha256": log_digest(lines)})
        yield from lines

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
        except sqlite3.Error as exc:
            log.error("could not save: %s", exc)
            text = (f"The companion could not save ({exc}); nothing changed. Free some disk "
                    "space or check the SD card, then try again.")
            self._publish("", 0, {"text": text, "level": "error"})
            return Outcome(False, 0, error=text, code="storage")

    def _create_game(self, raw: Any) -> Outcome:
        try:
            if isinstance(raw, dict) and raw.get("profile"):  # a box profile's settings
                from companion.boxes.profiles import Profiles
                raw = Profiles(self.store.conn).resolve(raw)
            setup = raw if isinstance(raw, GameSetup) else GameSetup.from_json(raw)
            limits.check_setup(setup, find_edition(setup.edition).setup_info())
            events = game.new_game(setup)
        except RuleError as exc:
            return Outcome(False, 0, error=str(exc), code="illegal")
        except (TypeError, ValueError, KeyError, AttributeError) as exc:  # an edition's own check
            return Outcome(False, 0, error=f"That setup is not valid ({exc}).", code="illegal")
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
                                      {"type": "new_game", "setup": setup.to_json()}, None, 1,
                                      last, response)
            self.store.conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES "
                                    "('active_game', ?)", (game_id,))
        self._active = game_id
        state = game.replay(events)
        rec = GameRecord(game_id, setup.edition, title, join_code, (last, state), 1,
                         deque(((i + 1, e.say) for i, e in enumerate(events) if e.say),
                               maxlen=RECENT))
        rec.history.append(self._balances(last, state))
        self._games[game_id] = rec
        self._publish(game_id, last)
        return Outcome(True, last, says, game_id=game_id)

    def _submit(self, game_id: str, raw: Any, version: int | None, key: str | None) -> Outcome:
        rec = self._games.get(game_id) or self._load_by_id(game_id)
        if key is not None:
            if not isinstance(key, str) or not 0 < len(key) <= 80:
                return Outcome(False, rec.version, error="An idempotency key is 1 to 80 "
                               "characters.", code="bad_request")
            earlier = self.store.response_for(game_id, key)
            if earlier is not None:
                return Outcome(earlier["ok"], earlier["version"], earlier.get("says", []),
                               game_id=game_id)
        try:
            command = raw if isinstance(raw, Command) else Command.from_json(raw)
            limits.check_command(command)
        except RuleError as exc:
            return Outcome(False, rec.version, error=str(exc), code="bad_request")
        if version is not None and version != rec.version:
            return self._stale(rec, version)
        try:
            events, state = game.step(rec.state, command)
        except RuleError as exc:
            return Outcome(False, rec.version, error=str(exc), code="illegal")
        return self._commit(rec, events, state, command.actor, command.to_json(), key)

    def _stale(self, rec: GameRecord, seen: Any) -> Outcome:
        if not isinstance(seen, int) or seen > rec.version or seen < 0:
            return Outcome(False, rec.version, error="That version of the game never existed; "
                           "reload the page.", code="bad_request")
        rows = self.store.rows(rec.id, after=seen)
        changes = [r.event.say for r in rows if r.event.say][-3:]
        what = " ".join(changes) or "The game moved on."
        return Outcome(False, rec.version, error=f"The game changed since you looked: {what} "
                       "Check the table and try again.", code="stale")

    def _commit(self, rec: GameRecord, events: list[Event], state: BaseState, actor: str,
                body: dict[str, Any], key: str | None) -> Outcome:
        now = self.clock()
        first = rec.version + 1
        says = [e.say for e in events if e.say]
        last = first + len(events) - 1
        response = {"ok": True, "version": last, "says": says}
        ahead = None
        with self.store.transaction() as conn:
            if events:
                self.store.append(conn, rec.id, first, rec.commands, now, events)
            self.store.record_command(conn, rec.id, rec.commands, now, actor, body, key, first,
                                      max(last, rec.version), response)
            if state.finished and not rec.state.finished:
                self.store.set_status(conn, rec.id, "finished")
            # a view is built ahead only for a game someone looks at (it has cached views),
            # and started only now: every SQLite call lets the GIL go, so a build started
            # before the inserts ran before them; started here, it runs during the fsync
            if events and rec.views:
                ahead = self._view_ahead(rec, events, state, first)
        # committed: now the new state is real (the log lines first, so no view of the new
        # version can miss them)
        finished_before = rec.state.finished
        for i, e in enumerate(events):
            if e.say:
                rec.recent.append((first + i, e.say))
            if e.cite:
                rec.cites[first + i] = e.cite
        rec.current = (max(last, rec.version), state)
        rec.commands += 1
        if ahead is not None:
            self._take_ahead(rec, ahead)
        rec.history.append(self._balances(rec.version, state))
        if state.finished and not finished_before:
            self._backup(f"finished-{rec.edition}")
        self._publish(rec.id, rec.version)
        # housekeeping after the phones have the move (and the mover its answer)
        rec.since_snapshot += len(events)
        if rec.since_snapshot >= self.snapshot_every:
            self._after_answer(lambda: self._snapshot(rec))
        if rec.commands % 128 == 0:
            self._after_answer(release_memory)
        return Outcome(True, rec.version, says, game_id=rec.id)

    def _view_ahead(self, rec: GameRecord, events: list[Event], state: BaseState,
                    first: int) -> Future[tuple[str | None, dict[str, Any]]] | None:
        """Start building the shared view of the version these events make (the same
        :func:`_render` as :meth:`view`) on a helper thread, while this thread commits: the
        fsync leaves the CPU free, and the view is ready when the phones need it. Nothing
        is published from it before the commit; a failed commit drops it."""
        rules = find_edition(rec.edition)
        if not _shared_view(rules):
            return None  # one view per viewer (Master Trainer's hands): built when asked
        key: str | None = None
        recent = deque(rec.recent, maxlen=RECENT)
        cites = dict(rec.cites) if any(e.cite for e in events) else rec.cites
        for i, e in enumerate(events):
            if e.say:
                recent.append((first + i, e.say))
            if e.cite:
                cites[first + i] = e.cite
        version = max(first + len(events) - 1, rec.version)
        if self._ahead is None:
            self._ahead = ThreadPoolExecutor(1, thread_name_prefix="view-ahead")
        hooks = list(self.ahead_hooks)

        def build() -> tuple[str | None, dict[str, Any]]:
            view = _render(rec, rules, version, state, key, tuple(recent), cites)
            for hook in hooks:
                try:
                    hook(rec.id, key, view)
                except Exception:  # only a head start: the work is done again if needed
                    log.exception("a view-ahead hook failed")
            return key, view

        try:
            return self._ahead.submit(build)
        except RuntimeError:  # shutting down
            return None

    @staticmethod
    def _take_ahead(rec: GameRecord, ahead: Future[tuple[str | None, dict[str, Any]]]) -> None:
        """After the commit: keep the view built ahead if it is of the version now current
        (a view that failed to build is simply built later, when asked for)."""
        try:
            key, view = ahead.result(timeout=5)
        except Exception:  # built again on demand; the move itself is committed
            log.exception("building the view ahead failed")
            return
        if view["version"] == rec.version:
            rec.views[key] = view

    def _undo(self, game_id: str, cmd: int | None) -> Outcome:
        rec = self._games.get(game_id) or self._load_by_id(game_id)
        rows = self.store.rows(game_id)
        kept = game.effective((r.seq, r.event) for r in rows)
        kept_seqs = {seq for seq, _ in kept}
        live = [c for c in self.store.commands(game_id)
                if c["body"].get("type") not in ("undo",) and c["first_seq"] in kept_seqs]
        if not live or live[-1]["cmd"] == 0:
            return Outcome(False, rec.version, error="There is nothing to undo.", code="illegal")
        target = live[-1] if cmd is None else next((c for c in live if c["cmd"] == cmd), None)
        if target is None or target["cmd"] == 0:
            return Outcome(False, rec.version, error="That step cannot be undone (it is the "
                           "start of the game or was already undone).", code="illegal")
        to_seq = target["first_seq"] - 1
        undone_says = [e.say for seq, e in kept if seq > to_seq and e.say]
        event = Event(game.UNDONE, {"to_seq": to_seq, "cmd": target["cmd"]},
                      f"The banker undoes {len(undone_says)} step(s), back to before: "
                      f"{undone_says[0] if undone_says else 'the last command'}")
        state = game.replay(e for seq, e in kept if seq <= to_seq)
        now = self.clock()
        seq = rec.version + 1
        response = {"ok": True, "version": seq, "says": [event.say]}
        with self.store.transaction() as conn:
            self.store.append(conn, game_id, seq, rec.commands, now, [event])
            self.store.record_command(conn, game_id, rec.commands, now, "banker",
                                      {"type": "undo", "cmd": target["cmd"]}, None, seq, seq,
                                      response)
            self.store.set_status(conn, game_id, "finished" if state.finished else "open")
        marked = game.effective(((r.seq, r.event) for r in rows), keep_markers=True)
        recent = deque(((s, e.say) for s, e in marked if s <= to_seq and e.say), maxlen=RECENT)
        recent.append((seq, event.say))
        rec.recent = recent
        rec.current = (seq, state)
        rec.commands += 1
        rec.history = [h for h in rec.history if h["version"] <= to_seq]
        rec.history.append(self._balances(seq, state))
        self._publish(game_id, seq)
        return Outcome(True, seq, [event.say], game_id=game_id)

    def _import(self, lines: list[str]) -> Outcome:
        import json

        try:
            head = json.loads(lines[0])
            if not isinstance(head, dict):
                raise ValueError("the first line does not describe a game")
            body = [line for line in lines[1:] if line.strip()]
            rows = [json.loads(line) for line in body]
            log_rows = [(int(r["seq"]), Event.from_json(r)) for r in rows]
        except (ValueError, KeyError, TypeError, IndexError, RuleError) as exc:
            return Outcome(False, 0, error=f"Not a game export: {exc}", code="bad_request")
        problem = check_export(head, [seq for seq, _ in log_rows], body)
        if problem:
            return Outcome(False, 0, error=f"The export is not whole: {problem} Nothing was "
                           "imported; export the game again.", code="bad_request")
        try:
            state = game.replay(e for _, e in game.effective(log_rows))
        except (ValueError, KeyError, TypeError, IndexError, RuleError) as exc:
            return Outcome(False, 0, error=f"Not a game export: {exc}", code="bad_request")
        game_id = secrets.token_hex(4)
        now = self.clock()
        with self.store.transaction() as conn:
            self.store.add_game(conn, game_id, state.edition, str(head.get("title", "")), now,
                                join_codes.new_code({g["join_code"] for g in self.store.games()}))
            for r, (seq, e) in zip(rows, log_rows, strict=True):
                self.store.append(conn, game_id, seq, int(r.get("cmd", 0)),
                                  float(r.get("time", now)), [e])
            if state.finished:
                self.store.set_status(conn, game_id, "finished")
        self._load_by_id(game_id)
        return Outcome(True, log_rows[-1][0] if log_rows else 0, game_id=game_id)

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
        game_id = row["id"]
        snap = self.store.snapshot(game_id)
        state: BaseState | None = None
        rows: list[Row]
        if snap is not None and snap[1] == self.code:
            rows = self.store.rows(game_id, after=snap[0])
            if all(r.event.type != game.UNDONE or r.event.data["to_seq"] >= snap[0]
                   for r in rows):
                try:
                    state = pickle.loads(snap[2])
                except Exception:  # a damaged snapshot: replay instead
                    state = None
        if state is not None:
            kept = game.effective([(snap[0], Event("snapshot", {}))] + [  # type: ignore[index]
                (r.seq, r.event) for r in rows])
            state = game.replay((e for seq, e in kept[1:]), state)
            recent_rows = self.store.rows(game_id, after=max(0, snap[0] - 400))  # type: ignore[index]
        else:
            rows = self.store.rows(game_id)
            kept = game.effective((r.seq, r.event) for r in rows)
            state = game.replay(e for _, e in kept)
            recent_rows = rows
        kept_recent = game.effective(((r.seq, r.event) for r in recent_rows), keep_markers=True)
        version = self._last_seq(game_id)
        commands = self.store.conn.execute(
            "SELECT COALESCE(MAX(cmd), -1) + 1 FROM commands WHERE game_id = ?",
            (game_id,)).fetchone()[0]
        rec = GameRecord(game_id, row["edition"], row["title"], row["join_code"],
                         (version, state), max(commands, 1),
                         deque(((s, e.say) for s, e in kept_recent if e.say), maxlen=RECENT))
        rec.history.append(self._balances(version, state))
        rec.cites = {s: e.cite for s, e in kept_recent if e.cite}
        self._games[game_id] = rec
        return rec

    def _last_seq(self, game_id: str) -> int:
        row = self.store.conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?",
                                      (game_id,)).fetchone()
        return int(row[0])

    def _backup(self, reason: str) -> None:
        """Export the whole database (after a game ends): a copy to restore from."""
        from companion.backup import BACKUP_SUBDIR, export_db

        try:
            path = export_db(self.store.path, self.state_dir / BACKUP_SUBDIR, reason)
            log.info("backup written: %s", path)
        except Exception:  # a backup must never stop the game
            log.exception("backup after the game failed")

    def _snapshot(self, rec: GameRecord) -> None:
        try:
            self.store.save_snapshot(rec.id, rec.version, self.code, pickle.dumps(rec.state))
            rec.since_snapshot = 0
        except Exception:  # a snapshot is only a shortcut
            log.exception("snapshot failed")

    @staticmethod
    def _balances(version: int, state: BaseState) -> dict[str, Any]:
        players = getattr(state, "players", ())
        money = {p.id: p.money for p in players if hasattr(p, "money")}
        return {"version": version, "money": money}

    def active_game(self) -> str | None:
        """The game the table hardware talks to: the newest open game."""
        value = self._active
        if value and value in self._games:
            return str(value)
        open_games = [g for g in self._games.values() if not g.state.finished]
        return open_games[-1].id if open_games else value


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


def _reason(exc: BaseException) -> str:
    if isinstance(exc, sqlite3.DatabaseError):
        return f"its part of the database cannot be read ({exc})"
    return f"its log cannot be replayed ({type(exc).__name__}: {exc})"
