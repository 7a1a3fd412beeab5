"""A real Mosquitto with the shipped config and ACL, and simulated tables that play scripts."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.service import game
from companion.service.game_service import GameService
from companion.service.script import parse_step
from companion.venue import topics
from companion.venue.board import Board
from companion.venue.publisher import VenuePublisher
from companion.venue.settings import VenueSettings

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "systemd" / "mosquitto"
MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
VENUE = "cafe"
SCREEN_PASSWORD = "screen-secret"
FOUR_PLAYERS = ["monopolino-4-players.json", "pokemon-four-trainers.json",
                "starwars-digital.json"]
WAIT = 120.0
"""Generous: conditions are waited for, never timed."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until(check: Callable[[], bool], timeout: float = WAIT, what: str = "",
               every: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what or check}")
        time.sleep(every)


def run_mosquitto(conf: Path, log: Path, port: int) -> subprocess.Popen[bytes]:
    """Mosquitto with ``conf`` (which writes its log to ``log`` and listens on ``port``),
    once it says it is running:
    a connection alone could reach another test's broker on the same port."""
    seen = log.stat().st_size if log.exists() else 0  # a restart appends
    proc = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)

    def up() -> bool:
        said = log.read_bytes()[seen:].decode("utf-8", "replace") if log.exists() else ""
        if proc.poll() is not None:
            raise AssertionError("mosquitto exited: " + said[-2000:])
        if " running" not in said:
            return False
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            return False

    wait_until(up, what="mosquitto to listen")
    return proc


class Broker:
    """Mosquitto on a loopback port, with the shipped config, ACL and a password file."""

    def __init__(self, workdir: Path, users: dict[str, str]) -> None:
        self.dir = workdir
        self.port = free_port()
        self.users = users
        self.proc: subprocess.Popen[bytes] | None = None
        passwd = workdir / "companion.passwd"
        passwd.touch()
        for user, password in users.items():
            subprocess.run([PASSWD, "-b", str(passwd), user, password], check=True,
                           capture_output=True)
        lines = []
        for line in (SHIPPED / "companion-venue.conf").read_text().splitlines():
            word = line.split(" ", 1)[0]
            if word == "listener":
                line = f"listener {self.port} 127.0.0.1"
            elif word == "password_file":
                line = f"password_file {passwd}"
            elif word == "acl_file":
                line = f"acl_file {SHIPPED / 'companion.acl'}"
            lines.append(line)
        lines += ["persistence false", f"log_dest file {workdir / 'mosquitto.log'}"]
        if os.geteuid() == 0:
            lines.append("user root")
        self.conf = workdir / "mosquitto.conf"
        self.conf.write_text("\n".join(lines) + "\n")

    def start(self) -> None:
        self.proc = run_mosquitto(self.conf, self.dir / "mosquitto.log", self.port)

    def kill(self) -> None:
        """SIGKILL: whatever the broker held in memory is gone."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.proc = None


class SimTable:
    """A companion: its own GameService on its own SQLite file, publishing to the venue."""

    def __init__(self, workdir: Path, name: str, port: int, script: Path) -> None:
        self.name = name
        self.service = GameService(workdir / name).start()
        self.settings = VenueSettings(broker="127.0.0.1", port=port, venue=VENUE, table=name,
                                      username=name, password=f"pw-{name}")
        self.publisher = VenuePublisher(self.service, self.settings).start()
        data = json.loads(script.read_text())
        self.steps: list[Any] = data.pop("steps")
        self.setup = data
        self.game_id = ""
        self.done = 0

    @property
    def key(self) -> str:
        return f"{VENUE}/{self.name}"

    def begin(self) -> None:
        out = self.service.create_game(self.setup)
        assert out.ok, out.error
        self.game_id = out.game_id

    def play(self, upto: int | None = None) -> None:
        """Play the script's steps up to step ``upto`` (all by default)."""
        end = len(self.steps) if upto is None else min(upto, len(self.steps))
        while self.done < end:
            _, state = self.service.state(self.game_id)
            out = self.service.submit(self.game_id, parse_step(state, self.steps[self.done]))
            assert out.ok, f"{self.name} step {self.done + 1}: {out.error}"
            self.done += 1

    def close(self) -> None:
        self.publisher.stop()
        self.service.stop()

    # -- the table's own truth ----------------------------------------------------------------
    def lines(self, gid: str) -> dict[int, tuple[str, str, bool]]:
        rows = self.service.call(self.service.store.rows, gid)
        kept = {seq for seq, _ in game.effective((r.seq, r.event) for r in rows)}
        return {r.seq: (r.event.type, r.event.say,
                        r.seq not in kept and r.event.type != game.UNDONE) for r in rows}

    def digest(self, gid: str) -> dict[str, Any]:
        created = next(g["created"] for g in self.service.games() if g["id"] == gid)
        return topics.digest(self.service.view(gid), gid, created)


def screen_lines(board: Board, key: str, gid: str) -> dict[int, tuple[str, str, bool]]:
    g = board.game(key, gid)
    if g is None:
        return {}
    with board.changed:
        return {s: (ln["type"], ln["say"], ln["undone"]) for s, ln in g.lines.items()}


def caught_up(board: Board, tables: list[SimTable]) -> bool:
    """The screen shows every table exactly as the table itself has it."""
    for t in tables:  # cheap first: has every event arrived?
        g = board.game(t.key, t.game_id)
        if g is None or g.shown < t.service.state(t.game_id)[0]:
            return False
    for t in tables:
        for g in t.service.games():
            gid = g["id"]
            seen = board.game(t.key, gid)
            if seen is None or seen.digest is None:
                return False
            if screen_lines(board, t.key, gid) != t.lines(gid):
                return False
            if seen.digest != t.digest(gid):
                return False
    return True


def run_all(tables: list[SimTable], fn: Callable[[SimTable], None]) -> None:
    """``fn(table)`` for every table at once (one thread each, like real tables)."""
    errors: list[BaseException] = []

    def one(t: SimTable) -> None:
        try:
            fn(t)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(t,)) for t in tables]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    if errors:
        raise errors[0]


class ScreenServer:
    """The venue screen's page served for real (the page's server, on a free loopback port)."""

    def __init__(self, board: Board, language: str = "en") -> None:
        from web.server import make_venue_server
        from web.venue import create_venue_app

        self.app = create_venue_app(board, title="Café", heartbeat=1, language=language)
        self.server = make_venue_server(self.app, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.server.effective_port}"
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.close()
        self.thread.join(timeout=10)


class StreamWatcher:
    """Reads the page's live stream as the browser would and counts every log line shown."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.shown: dict[tuple[str, str, int], int] = {}
        self.states = 0
        self.stop = threading.Event()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        import httpx

        with httpx.Client(timeout=httpx.Timeout(30, read=30)) as client, client.stream(
                "GET", self.url + "/api/venue/events") as resp:
            kind = ""
            for line in resp.iter_lines():
                if self.stop.is_set():
                    return
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
                    if kind == "state":
                        self.states += 1
                        self.ready.set()
                    elif kind == "changes":
                        for ch in data:
                            if ch["kind"] == "log":
                                k = (ch["key"], ch["game"], ch["line"]["seq"])
                                self.shown[k] = self.shown.get(k, 0) + 1

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=10)
