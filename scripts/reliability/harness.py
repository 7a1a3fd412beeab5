"""What every scenario shares: a ``companion run`` child process, phones over HTTP, results."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from web.events import apply as apply_patch

PIN = "20461379"
HOST = "127.0.0.1"
SKIP_TYPES = frozenset({"end_game", "transfer", "propose_trade", "undo"})
"""Actions the random players never pick (they end or stall a game, or need a trade form)."""


@dataclass
class Result:
    """One scenario's outcome: ``ok`` (its checks held) and the figures it measured."""

    name: str
    ok: bool
    figures: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"[{'ok' if self.ok else 'FAIL'}] {self.name}"]
        out += [f"    {k}: {v}" for k, v in self.figures.items()]
        out += [f"    note: {n}" for n in self.notes]
        return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def rss_kb(pid: int) -> int:
    """Resident size of process ``pid`` in kB (VmRSS in /proc/PID/status), 0 if gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class PortTaken(RuntimeError):
    """``companion run`` exited because its port was taken."""


class Server:
    """``companion run --simulate`` in a child process; stdout/stderr go to files (the
    journal)."""

    def __init__(self, state_dir: Path, port: int | None = None, pin: str = PIN,
                 extra: tuple[str, ...] = (), log_dir: Path | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.state_dir = Path(state_dir)
        self.port = port or free_port()
        self.port_was_free = port is None
        """The port was picked here (so another may be picked if it is taken meanwhile)."""
        self.pin = pin
        """The ``--pin`` to start with; "": none (the companion makes one up and prints it:
        :meth:`printed_pin`)."""
        self.extra = extra
        self.env = env or {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.log_dir = log_dir or self.state_dir.parent / f"{self.state_dir.name}-logs"

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def argv(self) -> list[str]:
        return [sys.executable, "-m", "companion.app.cli", "run", "--simulate", "--no-mdns",
                "--host", HOST, "--port", str(self.port), "--state-dir", str(self.state_dir),
                *(["--pin", self.pin] if self.pin else []), *self.extra]

    def start(self, timeout: float = 300) -> Server:
        """Start and wait until the API answers (or raise with the journal's tail). The
        limit is generous: a loaded machine (a test run on several workers) starts slowly,
        and a companion that cannot start exits, which is seen at once.

        The API is asked only once the child has printed its address, which it does after
        binding the port: another test's companion that took the same free port between
        :func:`free_port` and the bind must never be mistaken for this one. A first start
        that finds the port taken tries another port."""
        for _ in range(5):
            try:
                return self._start(timeout)
            except PortTaken:
                if self.starts > 1 or not self.port_was_free:
                    raise
                self.port = free_port()
                self.starts = 0
        raise PortTaken(f"no free port for companion run: {self.journal()[-2000:]}")

    def _start(self, timeout: float) -> Server:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.starts += 1
        out_path = self.log_dir / f"stdout-{self.starts}.log"
        out = out_path.open("wb")
        err = (self.log_dir / f"stderr-{self.starts}.log").open("wb")
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        env.pop("NOTIFY_SOCKET", None)
        env.pop("WATCHDOG_USEC", None)
        with out, err:
            self.proc = subprocess.Popen(self.argv(), stdout=out, stderr=err, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                said = self.journal()[-2000:]
                if "is used by another program" in out_path.read_text("utf-8", "replace"):
                    raise PortTaken(said)
                raise RuntimeError(f"companion run exited {self.proc.returncode}: {said}")
            if "Board Companion (" not in out_path.read_text("utf-8", "replace"):
                time.sleep(0.05)  # not bound yet: whoever answers on the port is not ours
                continue
            try:
                httpx.get(f"{self.url}/api/session", timeout=1)
                return self
            except httpx.HTTPError:
                time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"companion run did not answer in {timeout} s")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def rss_kb(self) -> int:
        return rss_kb(self.pid) if self.proc is not None else 0

    def printed_pin(self) -> str:
        """The banker PIN ``companion run`` printed at its last start."""
        for line in reversed(self.journal().splitlines()):
            if line.startswith("Banker PIN: "):
                return line.split(": ", 1)[1].strip()
        raise RuntimeError("companion run printed no banker PIN")

    def journal(self) -> str:
        """Everything the runs so far wrote to stderr and stdout."""
        parts = []
        for path in sorted(self.log_dir.glob("*.log")):
            parts.append(path.read_text("utf-8", "replace"))
        return "\n".join(parts)

    def kill(self) -> None:
        """SIGKILL: a power cut as far as the process can tell."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(timeout=10)

    def stop(self, timeout: float = 10) -> int | None:
        """SIGTERM and wait (SIGKILL after ``timeout``); returns the exit code."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.proc.returncode

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Refused(Exception):
    """The server answered a request with an error status."""

    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"{status}: {body}")
        self.status, self.body = status, body


class Phone:
    """One browser session: its own cookie jar and CSRF token, like a phone at the table."""

    def __init__(self, url: str, timeout: float = 10) -> None:
        self.url = url
        self.client = httpx.Client(base_url=url, timeout=timeout)
        self.csrf = ""
        self.game = ""
        self.player: str | None = None
        self.patch_frames = 0
        """Patches received by :meth:`events` (when following as the page does)."""

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> Phone:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def rebase(self, url: str) -> None:
        """Point at a restarted server, keeping the cookies (the session survives)."""
        cookies = self.client.cookies
        self.client.close()
        self.url = url
        self.client = httpx.Client(base_url=url, timeout=self.client.timeout, cookies=cookies)

    def session(self) -> dict[str, Any]:
        data = self.get("/api/session")
        self.csrf = data["csrf"]
        return data  # type: ignore[no-any-return]

    def get(self, path: str) -> Any:
        r = self.client.get(path)
        if r.status_code >= 400:
            raise Refused(r.status_code, _body(r))
        return r.json()

    def post_raw(self, path: str, body: Any) -> tuple[int, Any]:
        if not self.csrf:
            self.session()
        r = self.client.post(path, json=body, headers={"X-CSRF-Token": self.csrf,
                                                       "Origin": self.url})
        return r.status_code, _body(r)

    def post(self, path: str, body: Any) -> Any:
        status, data = self.post_raw(path, body)
        if status >= 400:
            raise Refused(status, data)
        return data

    def login(self, pin: str = PIN) -> Phone:
        self.post("/api/banker/login", {"pin": pin})
        return self

    def join(self, code: str, player: str | None = None) -> str:
        data = self.post("/api/join", {"code": code, "player": player})
        self.game, self.player = data["game_id"], player
        return str(data["game_id"])

    def view(self, game: str | None = None) -> dict[str, Any]:
        return self.get(f"/api/games/{game or self.game}")  # type: ignore[no-any-return]

    def command(self, game: str, actor: str, type_: str, args: dict[str, Any] | None = None,
                version: int | None = None, key: str | None = None) -> tuple[int, Any]:
        body: dict[str, Any] = {"actor": actor, "type": type_, "args": args or {}}
        if version is not None:
            body["version"] = version
        if key is not None:
            body["key"] = key
        return self.post_raw(f"/api/games/{game}/commands", body)

    def events(self, game: str, last_id: int | None = None, read_timeout: float = 5,
               base: dict[str, Any] | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
        """Yield ``(id, view)`` from the game's SSE stream until the caller stops or the
        server ends it; resumes after ``last_id`` with Last-Event-ID. With ``base`` (the
        view at ``last_id``, or ``{}`` to start afresh) it follows as the page does
        (``?live=patch``): the whole view first, then patches applied to it in place (the
        same object is yielded each time); ``patch_frames`` counts them."""
        headers = {"Accept": "text/event-stream"}
        if last_id is not None and last_id >= 0:
            headers["Last-Event-ID"] = str(last_id)
        timeout = httpx.Timeout(10, read=read_timeout)
        path = f"/api/games/{game}/events" + ("?live=patch" if base is not None else "")
        with self.client.stream("GET", path, headers=headers, timeout=timeout) as r:
            if r.status_code != 200:
                r.read()
                raise Refused(r.status_code, _body(r))
            ident, data, kind = -1, "", ""
            view = base
            for line in r.iter_lines():
                if line.startswith("id:"):
                    ident = int(line[3:].strip())
                elif line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:"):
                    data += line[5:].strip()
                elif line == "" and data:
                    body = json.loads(data)
                    if kind == "patch" and view is not None:
                        if body["from"] != view.get("version"):
                            raise Refused(0, f"patch from {body['from']} onto "
                                          f"{view.get('version')}")
                        view = apply_patch(view, body["ops"])
                        self.patch_frames += 1
                    else:
                        view = body
                    yield ident, view
                    ident, data, kind = -1, "", ""


def _body(r: httpx.Response) -> Any:
    try:
        return r.json()
    except ValueError:
        return r.text


def new_game(banker: Phone, players: int = 4, edition: str = "mario",
             seed: int = 1) -> tuple[str, str, list[str]]:
    """Start a game as the banker: ``(game_id, join_code, player ids)``."""
    names = ["Mario", "Luigi", "Peach", "Toad", "Yoshi", "Daisy"][:players]
    out = banker.post("/api/games", {"edition": edition, "players": names, "dice": "digital",
                                     "seed": seed})
    game = str(out["game_id"])
    view = banker.view(game)
    return game, str(view["join_code"]), [p["id"] for p in view["players"]]


def pick(view: dict[str, Any], actors: set[str] | None, rnd: random.Random,
         skip: frozenset[str] = SKIP_TYPES) -> dict[str, Any] | None:
    """A random legal command for one of ``actors`` (None: anyone) from the view's actions,
    preferring to buy; digital dice are left to the companion."""
    pool = [a for a in view.get("actions", [])
            if a["type"] not in skip and (actors is None or a["actor"] in actors)]
    if not pool:
        return None
    buys = [a for a in pool if a["type"] == "buy"]
    a = buys[0] if buys and rnd.random() < 0.8 else rnd.choice(pool)
    args = dict(a.get("args") or {})
    spec = a.get("input") or {}
    kind = spec.get("kind")
    if kind == "dice" and not spec.get("optional"):
        args["dice"] = [rnd.randint(1, 6) for _ in range(int(spec.get("count", 1)))]
    elif kind == "amount":
        args["amount"] = spec.get("min", 0)
    elif kind == "choice":
        options = spec.get("options") or []
        if not options:
            return None
        args[spec.get("arg", "choice")] = rnd.choice(options)["value"]
    elif kind in ("trade", "transfer"):
        return None
    return {"actor": a["actor"], "type": a["type"], "args": args}


def transfer(view: dict[str, Any], rnd: random.Random) -> dict[str, Any] | None:
    """The banker moves 1 from the richest player to another (never ends a game)."""
    players = [p for p in view.get("players", []) if not p.get("bankrupt")]
    if len(players) < 2:
        return None
    rich = max(players, key=lambda p: p.get("money", 0))
    if rich.get("money", 0) < 1:
        return None
    to = rnd.choice([p for p in players if p["id"] != rich["id"]])
    return {"actor": "banker", "type": "transfer",
            "args": {"source": rich["id"], "to": to["id"], "amount": 1, "reason": "rent"}}


def drive(banker: Phone, game: str, rnd: random.Random) -> tuple[int, Any]:
    """One banker-sent command: a legal player move, else a transfer. ``(status, body)``."""
    view = banker.view(game)
    cmd = None if view.get("finished") else pick(view, None, rnd)
    cmd = cmd or transfer(view, rnd)
    if cmd is None:
        return 409, {"error": "nothing to do"}
    return banker.command(game, cmd["actor"], cmd["type"], cmd["args"],
                          version=view["version"], key=f"d{rnd.getrandbits(60):x}")
