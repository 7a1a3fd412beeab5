"""One guest must not stop the evening (issue 38): slow bodies, half-closed requests, wrong
join codes, seat requests, a seat approved just before a power cut, a short banker PIN.

Each runs a real ``companion run --simulate`` child and attacks it from other loopback
addresses (``127.0.0.x``), then prints what it saw; the checks are counts, times are figures.
"""

from __future__ import annotations

import json
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from reliability.attacks import Address
from reliability.background import InChild, SlowBodies
from reliability.harness import HOST, Phone, Result, Server, new_game


def _try(fn: Any) -> int:
    """The status of ``fn()``'s answer, 0 when the connection failed."""
    try:
        return int(fn().status_code)
    except httpx.HTTPError:
        return 0


def run_slow_bodies(work: Path, seconds: float = 40.0, addresses: int = 70,
                    per_address: int = 48) -> Result:
    """Slow bodies (:class:`SlowBodies`, from a child process) from ``addresses`` ×
    ``per_address`` connections, more than the server's 2,000; meanwhile, every second, a
    new phone joins with the code, the seated phone opens a new connection for its view, and
    the banker on 127.0.0.1 moves over a new connection."""
    figures: dict[str, Any] = {}
    with Server(work / "slow-bodies") as srv, Phone(srv.url) as banker:
        banker.login()
        game, code, players = new_game(banker, 2)
        seated = Address(srv.url, "127.0.0.5")
        assert seated.post("/api/join", {"code": code, "player": players[0]}).status_code == 200
        seat_cookie, bank_cookie = seated.http.cookies["companion"], banker.client.cookies[
            "companion"]
        seated.close()
        figures["RSS before (MB)"] = round(srv.rss_kb() / 1024, 1)
        attack = InChild(SlowBodies(srv.port, addresses, per_address)).start()
        time.sleep(min(5.0, seconds / 4))  # it takes its sockets
        probes = {"new phone joins": [], "seated phone's new connection": [],
                  "banker's new connection moves": []}  # type: dict[str, list[int]]
        times: list[float] = []
        t0, n = time.monotonic(), 0
        while time.monotonic() - t0 < seconds:
            n += 1
            phone = Address(srv.url, f"127.0.1.{1 + n % 250}")
            probes["new phone joins"].append(_try(lambda p=phone: p.post(
                "/api/join", {"code": code})))
            phone.close()
            with httpx.Client(base_url=srv.url, timeout=10, transport=httpx.HTTPTransport(
                    local_address="127.0.0.5")) as again:
                again.cookies.set("companion", seat_cookie)
                probes["seated phone's new connection"].append(
                    _try(lambda c=again: c.get(f"/api/games/{game}")))
            mover = Address(srv.url, HOST, cookie=bank_cookie)
            t = time.perf_counter()
            probes["banker's new connection moves"].append(_try(lambda m=mover: m.post(
                f"/api/games/{game}/commands", {"actor": "banker", "type": "transfer", "args": {
                    "source": "bank", "to": players[1], "amount": 1, "reason": "slow bodies"}})))
            times.append(time.perf_counter() - t)
            mover.close()
            time.sleep(1.0)
        figures["RSS under the attack (MB)"] = round(srv.rss_kb() / 1024, 1)
        held = attack.stop()
        figures.update(held)
        for name, statuses in probes.items():
            figures[name] = f"{statuses.count(200)} of {len(statuses)} answered 200"
        figures["banker's move over a new connection (ms)"] = {
            "p50": round(statistics.median(times) * 1000, 1),
            "max": round(max(times) * 1000, 1)}
        ok = all(s == 200 for statuses in probes.values() for s in statuses) and (
            seconds < 15 or held["closed by the server without an answer"] > 0)
    return Result("slow bodies", ok, figures)


def _raw_command(port: int, cookie: str, csrf: str, game: str, body: bytes,
                 length: int | None = None) -> bytes:
    """Send one command over a raw socket, shut the sending side, read until closed."""
    s = socket.create_connection((HOST, port), timeout=30)
    s.sendall((f"POST /api/games/{game}/commands HTTP/1.1\r\nHost: {HOST}\r\n"
               f"Cookie: companion={cookie}\r\nX-CSRF-Token: {csrf}\r\n"
               f"Content-Type: application/json\r\n"
               f"Content-Length: {len(body) if length is None else length}\r\n\r\n").encode()
              + body)
    s.shutdown(socket.SHUT_WR)
    data = b""
    while chunk := s.recv(65536):
        data += chunk
    s.close()
    return data


def run_half_close(work: Path, rounds: int = 10) -> Result:
    """Commands sent whole, then ``shutdown(SHUT_WR)``; and one whose body is cut short."""
    figures: dict[str, Any] = {}
    with Server(work / "half-close") as srv, Phone(srv.url) as banker:
        banker.login()
        game, _, players = new_game(banker, 2)
        cookie = banker.client.cookies["companion"]
        before = banker.view(game)["version"]
        answered = 0
        for i in range(rounds):
            move = json.dumps({"actor": "banker", "type": "transfer", "args": {
                "source": "bank", "to": players[0], "amount": 1, "reason": f"half {i}"}})
            answer = _raw_command(srv.port, cookie, banker.csrf, game, move.encode())
            answered += answer.startswith(b"HTTP/1.1 200")
        executed = banker.view(game)["version"] - before
        cut = _raw_command(srv.port, cookie, banker.csrf, game, b'{"actor": "banker"',
                           length=200)
        after_cut = banker.view(game)["version"] - before
        figures["half-closed commands answered 200"] = f"{answered} of {rounds}"
        figures["half-closed commands executed"] = executed
        figures["body cut short, then half-closed: answered"] = cut[:12].decode() or "no"
        figures["body cut short: executed"] = after_cut - executed
        ok = answered == executed == rounds and after_cut == executed
    return Result("half-closed requests", ok, figures)


def run_code_flood(work: Path, seconds: float = 60.0, guessers: int = 3) -> Result:
    """Wrong join codes from ``guessers`` addresses for ``seconds``; every few seconds a new
    phone joins with the right code, and a player takes its seat back with its key on a
    new phone (the key it got last time)."""
    figures: dict[str, Any] = {}
    with Server(work / "code-flood") as srv, Phone(srv.url) as banker:
        banker.login()
        game, code, players = new_game(banker, 2)
        owner = Address(srv.url, "127.0.0.40")
        assert owner.post("/api/join", {"code": code, "player": players[0]}).status_code == 200
        key = owner.post(f"/seat/{game}/key", {}).json()["key"]
        owner.close()
        bad = [Address(srv.url, f"127.0.0.{50 + g}") for g in range(guessers)]
        sent = judged = 0
        joins: list[int] = []
        reclaims: list[int] = []
        t0, n = time.monotonic(), 0
        while time.monotonic() - t0 < seconds:
            for g in bad:
                n += 1
                wrong = f"{(int(code) + n * 7919) % 10**6:06d}"
                if wrong != code:
                    sent += 1
                    judged += g.post("/api/join", {"code": wrong}).status_code == 404
            if n % (guessers * 5) == guessers:  # from the first round on, every fifth
                phone = Address(srv.url, f"127.0.1.{1 + len(joins) % 250}")
                joins.append(_try(lambda p=phone: p.post("/api/join", {"code": code})))
                r = phone.post(f"/seat/{game}/reclaim", {"player": players[0], "key": key})
                reclaims.append(r.status_code)
                key = r.json().get("key") or key
                phone.close()
            time.sleep(0.5)
        for g in bad:
            g.close()
        figures["wrong codes sent"] = f"{sent} from {guessers} addresses in {seconds:.0f} s"
        figures["wrong codes judged (not refused 429)"] = judged
        figures["new phones with the right code"] = f"{joins.count(200)} of {len(joins)} in"
        figures["seat taken back with its key"] = f"{reclaims.count(200)} of {len(reclaims)}"
        ok = joins.count(200) == len(joins) > 0 and reclaims.count(200) == len(reclaims)
    return Result("wrong join codes", ok, figures)


def run_seat_flood(work: Path, sessions: int = 12) -> Result:
    """One spectator machine asks for a seat with ``sessions`` sessions, the banker refuses
    them and they ask again at once; the real phone asks; the banker blocks a rude phone."""
    figures: dict[str, Any] = {}
    with Server(work / "seat-flood") as srv, Phone(srv.url) as banker:
        banker.login()
        game, code, players = new_game(banker, 2)
        with Phone(srv.url) as dead:
            dead.join(code, players[0])

        def ask(addr: str) -> httpx.Response:
            p = Address(srv.url, addr)
            p.post("/api/join", {"code": code})
            r = p.post(f"/seat/{game}/reclaim", {"player": players[0]})
            p.close()
            return r

        first = [ask("127.0.0.66").status_code for _ in range(sessions)]
        real = ask("127.0.0.7")
        mine = real.json().get("code")
        for req in banker.get(f"/seat/{game}")["requests"]:
            if req["code"] != mine:
                banker.post(f"/seat/{game}/deny", {"request": req["id"]})
        refill = [ask("127.0.0.66").status_code for _ in range(sessions)]
        ask("127.0.0.88")
        rude = next(r for r in banker.get(f"/seat/{game}")["requests"] if r["code"] != mine)
        banker.post(f"/seat/{game}/block", {"request": rude["id"]})
        blocked = ask("127.0.0.88").status_code
        figures[f"one machine, {sessions} sessions: requests taken"] = first.count(200)
        figures["the real phone's request"] = real.status_code
        figures["after the banker refused them, asked again at once: taken"] = refill.count(200)
        figures["a blocked phone asking again"] = blocked
        ok = (first.count(200) <= 2 and real.status_code == 200 and refill.count(200) == 0
              and blocked == 403)
    return Result("seat request flood", ok, figures)


def run_approve_cut(work: Path, rounds: int = 5) -> Result:
    """The banker approves a seat request and the power goes at once (SIGKILL), ``rounds``
    times: after each restart the phone holds the seat."""
    figures: dict[str, Any] = {}
    srv = Server(work / "approve-cut")
    srv.start()
    kept = 0
    try:
        with Phone(srv.url) as banker:
            banker.login()
            game, code, players = new_game(banker, 2)
            for i in range(rounds):
                seat = players[i % 2]
                with Phone(srv.url) as phone:
                    phone.join(code)
                    phone.post(f"/seat/{game}/reclaim", {"player": seat})
                    [req] = banker.get(f"/seat/{game}")["requests"]
                    banker.post(f"/seat/{game}/approve", {"request": req["id"]})
                    srv.kill()
                    srv.start()
                    kept += phone.get("/api/session")["games"].get(game) == seat
    finally:
        srv.stop()
    figures["seats approved, then SIGKILL"] = rounds
    figures["phones holding their seat after the restart"] = f"{kept} of {rounds}"
    return Result("seat approved before a power cut", kept == rounds, figures)


def run_short_pin(work: Path) -> Result:
    """``companion run --pin`` with a PIN a guest could guess: refused before it starts."""
    figures: dict[str, Any] = {}
    ok = True
    for pin in ("2468", "12345678"):
        state = work / f"pin-{pin}"
        proc = subprocess.run(
            [sys.executable, "-m", "companion.app.cli", "run", "--simulate", "--no-mdns", "--host",
             HOST, "--port", "0", "--state-dir", str(state), "--pin", pin],
            capture_output=True, text=True, timeout=120)
        said = (proc.stderr + proc.stdout).strip().splitlines()
        figures[f"--pin {pin}"] = f"exit {proc.returncode}: {said[-1] if said else ''}"
        ok &= proc.returncode != 0 and not (state / "companion.db").exists()
    return Result("short banker PIN", ok, figures)
