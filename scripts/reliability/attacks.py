"""Getting in, or locking the real people out (issue 26): a PIN flood from many addresses,
a seat key used twice, a seat request hijacked, and the Pi's clock jumping.

Each runs a real ``companion run --simulate`` child, attacks it over HTTP from loopback
addresses (``127.0.0.x``) and prints what it saw; the checks are counts, times are figures.
"""

from __future__ import annotations

import math
import os
import shutil
import time
from pathlib import Path
from typing import Any

import httpx

from reliability.harness import Phone, Result, Server, new_game

FAKETIME_LIB = next(iter(sorted(Path("/usr/lib").glob("*/faketime/libfaketimeMT.so.1"))),
                    Path("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1"))
"""Debian's libfaketime (package ``faketime``), for this machine's architecture."""
WRONG = "Someone is trying many PINs"


class Address:
    """One phone from its own loopback address, with its own cookies and CSRF token."""

    def __init__(self, url: str, addr: str, cookie: str | None = None) -> None:
        self.http = httpx.Client(base_url=url, timeout=10,
                                 transport=httpx.HTTPTransport(local_address=addr))
        if cookie:
            self.http.cookies.set("companion", cookie)
        self.csrf = self.http.get("/api/session").json()["csrf"]
        self.url = url

    def post(self, path: str, body: Any) -> httpx.Response:
        return self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf,
                                                        "Origin": self.url})

    def close(self) -> None:
        self.http.close()


def run_pin_flood(work: Path, seconds: float = 75.0, per_address: int = 4) -> Result:
    """Wrong PINs from ever new addresses (``per_address`` each, under the per-address
    limit) for ``seconds``, against the PIN the companion made up; meanwhile the banker's
    own phone (it logged in before) logs in 13 times and a phone that never did tries once."""
    figures: dict[str, Any] = {}
    with Server(work / "pin-flood", pin="") as srv:
        pin = srv.printed_pin()
        figures["default PIN digits"] = len(pin)
        own = Address(srv.url, "127.0.0.2")
        assert own.post("/api/banker/login", {"pin": pin}).status_code == 200
        own.post("/api/banker/logout", {})
        judged = sent = n = 0
        banker_ok, banker_tries = 0, 0
        t0 = time.monotonic()
        while time.monotonic() - t0 < seconds:
            guesser = Address(srv.url, f"127.0.{10 + n // 200}.{1 + n % 200}")
            n += 1
            for _ in range(per_address):
                r = guesser.post("/api/banker/login", {"pin": f"{n * 7919 % 10**8:08d}"})
                sent += 1
                judged += r.status_code == 401
            guesser.close()
            if n % 10 == 0 and banker_tries < 13:  # the real banker, during the flood
                banker_tries += 1
                ok = own.post("/api/banker/login", {"pin": pin}).status_code == 200
                banker_ok += ok
                if ok:
                    own.post("/api/banker/logout", {})
        took = time.monotonic() - t0
        newcomer = Address(srv.url, "127.0.0.3")
        r = newcomer.post("/api/banker/login", {"pin": pin})
        rate = judged / took * 60
        figures["flood"] = f"{sent} wrong PINs from {n} addresses in {took:.0f} s"
        figures["wrong PINs judged (not refused 429)"] = judged
        figures["judged per minute"] = round(rate, 1)
        expected = 10 ** len(pin) / 2 / max(rate, 1e-9) / 60 / 24 / 365
        figures["expected time to guess at that rate (years)"] = round(expected, 1)
        figures["banker's own phone, right PIN during the flood"] = \
            f"{banker_ok} of {banker_tries} accepted"
        figures["new phone, right PIN during the flood"] = r.status_code
        figures["new phone is told"] = r.json().get("error", "")[:90]
        own.close()
        newcomer.close()
        ok = (banker_ok == banker_tries > 0 and len(pin) >= 8 and r.status_code == 429
              and WRONG in r.json().get("error", "") and
              (took < 60 or expected >= 1))
    return Result("PIN flood", ok, figures)


def run_seat_key_reuse(work: Path) -> Result:
    """A thief uses a seat key it saw; the owner tries to take the seat back with the same
    key, upper and lower case; the thief tries again."""
    figures: dict[str, Any] = {}
    with Server(work / "seat-key") as srv, Phone(srv.url) as banker:
        banker.login()
        game, code, players = new_game(banker, 2)
        seat = players[1]
        with Phone(srv.url) as owner, Phone(srv.url) as thief, Phone(srv.url) as back:
            owner.join(code, seat)
            key = owner.post(f"/seat/{game}/key", {})["key"]
            thief.join(code)
            back.join(code)
            took, answer = thief.post_raw(f"/seat/{game}/reclaim", {"player": seat, "key": key})
            figures["thief with the key it saw"] = took
            reuses = [back.post_raw(f"/seat/{game}/reclaim", {"player": seat, "key": k})[0]
                      for k in (key, key.lower(), key.upper())]
            reuses.append(thief.post_raw(f"/seat/{game}/reclaim",
                                         {"player": seat, "key": key.lower()})[0])
            figures["the spent key used again (4 tries)"] = reuses
            fresh = answer.get("key") if isinstance(answer, dict) else None
            figures["new key shown only to the phone that took the seat"] = bool(fresh)
            again = back.post_raw(f"/seat/{game}/reclaim", {"player": seat, "key": fresh})[0]
            figures["the new key, once"] = again
            ok = took == 200 and all(s == 401 for s in reuses) and again == 200
    return Result("seat key reuse", ok, figures)


def run_request_hijack(work: Path, spectators: int = 3) -> Result:
    """The real new phone asks for a seat without a key; ``spectators`` other phones ask for
    the same seat; the banker approves the request whose code the real phone shows."""
    figures: dict[str, Any] = {}
    with Server(work / "hijack") as srv, Phone(srv.url) as banker:
        banker.login()
        game, code, players = new_game(banker, 2)
        seat = players[0]
        with Phone(srv.url) as dead:
            dead.join(code, seat)
        real = Phone(srv.url)
        others = [Phone(srv.url) for _ in range(spectators)]
        try:
            real.join(code)
            mine = real.post(f"/seat/{game}/reclaim", {"player": seat})["code"]
            for o in others:
                o.join(code)
                o.post(f"/seat/{game}/reclaim", {"player": seat})
            requests = banker.get(f"/seat/{game}")["requests"]
            codes = {r["code"] for r in requests}
            figures["phones asking for one seat"] = 1 + spectators
            figures["requests the banker sees"] = len(requests)
            figures["distinct codes"] = len(codes)
            pick = next(r for r in requests if r["code"] == mine)
            banker.post(f"/seat/{game}/approve", {"request": pick["id"]})
            holders = [p for p in [real, *others]
                       if p.get(f"/seat/{game}")["granted"] == seat]
            figures["phones given the seat"] = len(holders)
            figures["the real phone got it"] = holders == [real]
            ok = len(requests) == 1 + spectators == len(codes) and holders == [real]
        finally:
            for p in [real, *others]:
                p.close()
    return Result("seat request hijack", ok, figures)


SITE = '''"""Python 3.11 sleeps with clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME), which
libfaketime 0.9.10 breaks when it leaves the monotonic clock alone (its issue 426)."""
import select
import time

time.sleep = lambda seconds: select.select([], [], [], max(0.0, seconds)) and None
'''


def faketime_env(work: Path) -> tuple[dict[str, str], Path]:
    """The environment that runs a child under libfaketime with the wall clock's offset read
    from a file (the monotonic clock left real, as NTP leaves it): ``(env, that file)``."""
    work.mkdir(parents=True, exist_ok=True)
    offset = work / "faketime.rc"
    offset.write_text("+0\n")
    (work / "sitecustomize.py").write_text(SITE)
    return {"LD_PRELOAD": str(FAKETIME_LIB), "FAKETIME_TIMESTAMP_FILE": str(offset),
            "FAKETIME_CACHE_DURATION": "1", "FAKETIME_DONT_FAKE_MONOTONIC": "1",
            "PYTHONPATH": os.pathsep.join([str(work), os.environ.get("PYTHONPATH", "")])
            }, offset


def faketime_missing() -> str | None:
    """Why the clock scenario cannot run here, or None."""
    if not FAKETIME_LIB.exists():
        return (f"libfaketime is not installed ({FAKETIME_LIB}); "
                "apt-get install faketime")
    if shutil.which("faketime") is None:
        return "the faketime package is not installed (apt-get install faketime)"
    return None


JUMPS = (("-2 min", "-120"), ("+3 days", "+3d"), ("-90 days", "-90d"), ("+200 days", "+200d"))
"""Offsets from the real time, in order, each from where the last one left the clock."""


def run_clock_jumps(work: Path, jumps: tuple[tuple[str, str], ...] = JUMPS) -> Result:
    """``companion run`` under libfaketime: a banker, a seated phone and a spectator, then the
    wall clock jumps (back 2 minutes, on 3 days, back 90 days, on 200 days: an NTP sync) and
    after each jump: is the banker still the banker, does the phone still hold its seat and
    move, does the join code still let a new phone in."""
    why = faketime_missing()
    if why:
        return Result("clock jumps", False, notes=[why])
    env, offset = faketime_env(work / "faketime")
    figures: dict[str, Any] = {}
    srv = Server(work / "clock", env=env)
    srv.start(timeout=300)  # libfaketime slows the start (each clock read is checked)
    try:
        ok = _jumps(srv, offset, jumps, figures)
    finally:
        srv.stop()
    return Result("clock jumps", ok, figures)


def _jumps(srv: Server, offset: Path, jumps: tuple[tuple[str, str], ...],
           figures: dict[str, Any]) -> bool:
    ok = True
    with Phone(srv.url) as banker, Phone(srv.url) as player:
        banker.login()
        game, code, players = new_game(banker, 2)
        player.join(code, players[0])
        for name, spec in jumps:
            offset.write_text(f"{spec}\n")
            time.sleep(1.5)  # libfaketime reads the file at most once a second
            banker_kept = banker.get("/api/session")["banker"]
            seat_kept = player.get("/api/session")["games"].get(game) == players[0]
            status, _ = banker.command(game, "banker", "transfer", {
                "source": "bank", "to": players[0], "amount": 1, "reason": name})
            view = player.client.get(f"/api/games/{game}").status_code
            shift = (_last_command_time(banker, game) - time.time()) if banker_kept \
                else math.nan
            with Phone(srv.url) as newcomer:
                joined = newcomer.post_raw("/api/join", {"code": code})[0]
            figures[f"after {name} (server clock {shift / 86400:+.2f} d)"] = (
                f"banker kept {banker_kept}, seat kept {seat_kept}, move {status} "
                f"(the phone's view {view}), join code {joined}")
            ok &= banker_kept and seat_kept and status == view == joined == 200
    return ok


def _last_command_time(banker: Phone, game: str) -> float:
    """When the server's wall clock says the game's last command was taken."""
    return float(banker.get(f"/api/games/{game}/commands")[-1]["time"])
