"""Live streams under attack (issue 26, items 4 and 9): filling every stream slot with one
join code, and memory while streams are opened and closed again and again.

Both run a real ``companion run --simulate`` child and open streams from other loopback
addresses (``127.0.0.x``) over raw sockets; the checks are counts and megabytes, times are
figures only.
"""

from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import Any

import httpx

from reliability.harness import HOST, Phone, Result, Server, new_game

CHURN_SLACK_MB = 10.0
"""How far the resident size may move between 200 and the last churned stream."""


def _connect(port: int, addr: str) -> socket.socket:
    return socket.create_connection((HOST, port), timeout=10, source_address=(addr, 0))


def _head(s: socket.socket) -> tuple[int, bytes]:
    """The answer's status and what came with its head (0 when closed first)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            return 0, data
        data += chunk
    return int(data.split()[1]), data


def open_stream(port: int, addr: str, game: str, cookie: str, patches: bool = True,
                until: bytes = b"event: view") -> tuple[int, socket.socket]:
    """A stream of ``game`` for the session ``cookie`` from ``addr``: its status, and the
    socket once ``until`` arrived (a refused one is closed)."""
    s = _connect(port, addr)
    query = "?live=patch" if patches else ""
    s.sendall(f"GET /api/games/{game}/events{query} HTTP/1.1\r\nHost: {HOST}\r\n"
              f"Cookie: companion={cookie}\r\n\r\n".encode())
    status, data = _head(s)
    if status != 200:
        s.close()
        return status, s
    while until not in data:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    return status, s


def spectator(url: str, code: str, player: str | None = None) -> str:
    """A new session that joined the game with its code (seated when ``player``): its
    cookie."""
    with httpx.Client(base_url=url, timeout=10) as c:
        csrf = c.get("/api/session").json()["csrf"]
        r = c.post("/api/join", json={"code": code, "player": player},
                   headers={"X-CSRF-Token": csrf, "Origin": url})
        if r.status_code != 200:
            raise RuntimeError(f"join: {r.status_code} {r.text}")
        return str(c.cookies["companion"])


def run_slots(work: Path, streams: int = 600, addresses: int = 15) -> Result:
    """One join code, ``streams`` spectator streams from ``addresses`` machines (each its
    own session); then a seated phone opens its stream and a move reaches it."""
    figures: dict[str, Any] = {}
    held: list[socket.socket] = []
    ok = True
    with Server(work / "slots") as srv, Phone(srv.url) as banker:
        banker.login()
        game, code, players = new_game(banker, 2)
        statuses: dict[int, int] = {}
        per_addr: dict[str, int] = {}
        t0 = time.monotonic()
        try:
            for n in range(streams):
                addr = f"127.0.0.{20 + n % addresses}"
                status, s = open_stream(srv.port, addr, game, spectator(srv.url, code))
                statuses[status] = statuses.get(status, 0) + 1
                if status == 200:
                    held.append(s)
                    per_addr[addr] = per_addr.get(addr, 0) + 1
            figures["spectator streams asked"] = f"{streams} from {addresses} addresses"
            figures["answers"] = dict(sorted(statuses.items()))
            figures["most streams one address holds"] = max(per_addr.values(), default=0)
            figures["took to open them (s)"] = round(time.monotonic() - t0, 1)
            figures["RSS with them open (MB)"] = round(srv.rss_kb() / 1024, 1)
            cookie = spectator(srv.url, code, players[0])
            t = time.perf_counter()
            status, mine = open_stream(srv.port, "127.0.0.200", game, cookie)
            figures["seated phone's stream"] = status
            figures["its first view (ms)"] = round((time.perf_counter() - t) * 1000, 1)
            ok &= status == 200
            if status == 200:
                held.append(mine)
                out = banker.post(f"/api/games/{game}/commands", {
                    "actor": "banker", "type": "transfer", "args": {
                        "source": "bank", "to": players[0], "amount": 1, "reason": "slots"}})
                marker, data = f"id: {out['version']}".encode(), b""
                mine.settimeout(10)
                while marker not in data:
                    chunk = mine.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                figures["the move reached the seated phone"] = marker in data
                ok &= marker in data
        finally:
            for s in held:
                s.close()
    return Result("slots (one join code vs every stream slot)", ok, figures)


def run_churn(work: Path, streams: int = 24000, sessions: int = 40,
              addresses: int = 10, report: tuple[int, ...] = (200, 2000, 12000)) -> Result:
    """Open a stream, read its first view, hang up; ``streams`` times from ``sessions``
    joined phones on ``addresses`` machines. Resident size after 200 and at the end (and at
    each of ``report``) must stay within ``CHURN_SLACK_MB``."""
    figures: dict[str, Any] = {}
    with Server(work / "churn") as srv, Phone(srv.url) as banker:
        banker.login()
        game, code, _ = new_game(banker, 2)
        cookies = [spectator(srv.url, code) for _ in range(sessions)]
        figures["RSS idle (MB)"] = round(srv.rss_kb() / 1024, 1)
        refused = 0
        marks: dict[int, float] = {}
        t0 = time.monotonic()
        for n in range(1, streams + 1):
            status, s = open_stream(srv.port, f"127.0.0.{20 + n % addresses}", game,
                                    cookies[n % sessions])
            refused += status != 200
            s.close()
            if n in report or n == streams:
                time.sleep(0.5)  # let the server notice the last hang-ups
                marks[n] = srv.rss_kb() / 1024
        took = time.monotonic() - t0
        for n, mb in marks.items():
            figures[f"RSS after {n} streams (MB)"] = round(mb, 1)
        figures["streams refused"] = refused
        figures["streams a second"] = round(streams / took, 1)
        grew = marks[streams] - marks.get(200, marks[streams])
        figures[f"growth from 200 to {streams} (MB)"] = round(grew, 1)
        ok = refused == 0 and grew <= CHURN_SLACK_MB
    return Result("churn (streams opened and closed)", ok, figures)
