"""Trying to break it from the Wi-Fi: slow connections, unbounded input, PIN and code guessing.

Each scenario runs a real ``companion run --simulate`` child and attacks it over HTTP from
other loopback addresses (``127.0.0.x``: the Pi's own 127.0.0.1 is not limited per
address), then prints what it saw. The checks are counts (every answer a 4xx, the phone
got its stream, the lock held); times are figures only.
"""

from __future__ import annotations

import json
import socket
import statistics
import time
from pathlib import Path
from typing import Any

import httpx

from reliability.harness import HOST, PIN, Phone, Result, Server, new_game


def _connect(port: int, addr: str) -> socket.socket:
    return socket.create_connection((HOST, port), timeout=10, source_address=(addr, 0))


def _status(s: socket.socket) -> int:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            return 0
        data += chunk
    return int(data.split()[1])


def _ms(samples: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(samples) * 1000, 1),
            "max": round(max(samples) * 1000, 1)}


def run_slow(work: Path, idle: int = 250, slow: int = 250, spectators: int = 200,
             per_address: int = 25) -> Result:
    """``idle`` connections that send nothing and ``slow`` that send a header line every
    so often, no login; then ``spectators`` live streams; meanwhile the banker plays and a
    seated phone opens its own stream."""
    figures: dict[str, Any] = {}
    held: list[socket.socket] = []
    ok = True
    with Server(work / "slow") as srv, Phone(srv.url) as banker:
        banker.login()
        game, code, players = new_game(banker, 2)
        figures["RSS before (MB)"] = round(srv.rss_kb() / 1024, 1)
        try:
            for n in range(idle + slow):
                s = _connect(srv.port, f"127.0.0.{10 + n // per_address}")
                if n >= idle:
                    s.sendall(b"GET /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                held.append(s)
            times, answered = [], 0
            for i in range(20):
                for s in held[idle:]:
                    s.sendall(b"X-Slow: %d\r\n" % i)
                t = time.perf_counter()
                status, _ = banker.command(game, "banker", "transfer", {
                    "source": "bank", "to": players[0], "amount": 1, "reason": "slow test"})
                times.append(time.perf_counter() - t)
                answered += status == 200
            figures["connections held (idle + slow)"] = idle + slow
            figures["moves answered while held"] = f"{answered} of 20"
            figures["move time while held (ms)"] = _ms(times)
            ok &= answered == 20
            figures["RSS with them held (MB)"] = round(srv.rss_kb() / 1024, 1)
            streams = 0
            visitor = httpx.Client(base_url=srv.url, timeout=10)
            for n in range(spectators):
                visitor.cookies.clear()
                csrf = visitor.get("/api/session").json()["csrf"]
                visitor.post("/api/join", json={"code": code}, headers={"X-CSRF-Token": csrf})
                # ten spectators a machine: within a machine's share of the stream slots
                s = _connect(srv.port, f"127.0.0.{100 + n // 10}")
                s.sendall(f"GET /api/games/{game}/events HTTP/1.1\r\nHost: {HOST}\r\n"
                          f"Cookie: companion={visitor.cookies['companion']}\r\n\r\n".encode())
                streams += _status(s) == 200
                held.append(s)
            visitor.close()
            figures["spectator streams open"] = f"{streams} of {spectators}"
            with Phone(srv.url) as phone:
                phone.join(code, players[0])
                t = time.perf_counter()
                first = next(phone.events(game))
                figures["seated phone's stream: first view (ms)"] = round(
                    (time.perf_counter() - t) * 1000, 1)
                ok &= first[0] > 0 and streams == spectators
            figures["RSS with streams open (MB)"] = round(srv.rss_kb() / 1024, 1)
        finally:
            for s in held:
                s.close()
    return Result("slow connections", ok, figures)


def run_bounds(work: Path) -> Result:
    """The unbounded inputs of issue 12: each must be a 4xx, and nothing may be stored."""
    figures: dict[str, Any] = {}
    with Server(work / "bounds") as srv, Phone(srv.url) as banker:
        banker.login()
        game, code, players = new_game(banker, 2)
        db = srv.state_dir / "companion.db"
        size = db.stat().st_size + sum(p.stat().st_size for p in srv.state_dir.glob("*-wal"))
        statuses: dict[str, int] = {}
        t = time.perf_counter()
        statuses["setup with 10**9 potions"] = banker.post_raw("/api/games", {
            "edition": "master-trainer", "players": ["Ash", "Misty"],
            "settings": {"item_deck": {"potion": 10**9}}})[0]
        figures["huge-deck refusal (ms)"] = round((time.perf_counter() - t) * 1000, 1)
        statuses["board settings of the wrong type"] = banker.post_raw("/api/games", {
            "edition": "mario", "players": ["A", "B"], "settings": {"board": {"spaces": [1]}}})[0]
        with Phone(srv.url) as player:
            player.join(code, players[0])
            junk = {"to": players[1], "give": {"money": 1}, "take": {}, "junk": "x" * 10_000}
            statuses["trade with 10 KB of junk arguments"] = player.command(
                game, players[0], "propose_trade", junk)[0]
            junk["junk"] = "x" * 250_000
            statuses["trade with 250 KB of junk arguments"] = player.command(
                game, players[0], "propose_trade", junk)[0]
        worst = 0
        for _ in range(10):
            worst = max(worst, banker.command(game, "banker", "transfer", {
                "source": "bank", "to": players[0], "amount": 10**4299, "reason": "x"})[0])
        statuses["ten transfers of 10**4299 (worst)"] = worst
        r = banker.client.post(f"/api/games/{game}/commands", content="[" * 2000 + "]" * 2000,
                               headers={"X-CSRF-Token": banker.csrf,
                                        "Content-Type": "application/json"})
        statuses["JSON nested 2000 deep"] = r.status_code
        view = banker.client.get(f"/api/games/{game}").status_code
        after = db.stat().st_size + sum(p.stat().st_size for p in srv.state_dir.glob("*-wal"))
        figures.update(statuses)
        figures["view afterwards"] = view
        figures["database growth (bytes)"] = after - size
        ok = all(400 <= s < 500 for s in statuses.values()) and view == 200
    return Result("bounds", ok, figures)


def run_lockout(work: Path, addresses: int = 40) -> Result:
    """Wrong PINs from many addresses, join-code guessing, and a copied banker cookie."""
    figures: dict[str, Any] = {}
    with Server(work / "lockout") as srv, Phone(srv.url) as banker:
        banker.login()
        _, code, _ = new_game(banker, 2)
        figures["join code length"] = len(code)
        wrong_accepted = 0
        for n in range(addresses):
            with httpx.Client(base_url=srv.url, timeout=10, transport=httpx.HTTPTransport(
                    local_address=f"127.0.0.{10 + n}")) as c:
                csrf = c.get("/api/session").json()["csrf"]
                for _ in range(4):
                    r = c.post("/api/banker/login", json={"pin": "0000"},
                               headers={"X-CSRF-Token": csrf})
                    wrong_accepted += r.status_code == 401
        figures["wrong PINs judged before the lock"] = wrong_accepted
        with httpx.Client(base_url=srv.url, timeout=10, transport=httpx.HTTPTransport(
                local_address="127.0.0.250")) as c:
            csrf = c.get("/api/session").json()["csrf"]
            right = c.post("/api/banker/login", json={"pin": PIN},
                           headers={"X-CSRF-Token": csrf}).status_code
        figures["right PIN from a new address during the flood"] = right
        guesses = 0
        with httpx.Client(base_url=srv.url, timeout=10, transport=httpx.HTTPTransport(
                local_address="127.0.0.251")) as c:
            csrf = c.get("/api/session").json()["csrf"]
            for i in range(100):
                guess = f"{i:06d}"
                if guess == code:
                    continue
                r = c.post("/api/join", json={"code": guess}, headers={"X-CSRF-Token": csrf})
                if r.status_code == 429:
                    break
                guesses += 1
        figures["join codes guessed before the lock"] = guesses
        cookie = banker.client.cookies["companion"]
        banker.post("/api/banker/logout", {})
        with httpx.Client(base_url=srv.url, timeout=10) as thief:
            thief.cookies.set("companion", cookie)
            figures["copied cookie after logout is banker"] = json.dumps(
                thief.get("/api/session").json()["banker"])
        ok = (right == 429 and wrong_accepted <= 30 and guesses <= 10
              and figures["copied cookie after logout is banker"] == "false" and len(code) >= 6)
    return Result("lockout", ok, figures)
