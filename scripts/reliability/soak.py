"""Soak: many SSE clients on one game for a bounded time while the banker plays, each
dropping its stream at random and resuming with Last-Event-ID.

A stream sends one ``view`` per version and, by design, only the newest view when a phone
was away or slow (versions in between are *coalesced*, the view carries the whole state). So
a missed event here is: a frame whose id is not its view's version, a frame not newer than
the one before it (a replay or regression after a resume), or a client that never reaches an
acknowledged version by the end. Server RSS (VmRSS) is read at start and end.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from reliability.harness import Phone, Refused, Result, Server, drive, new_game


@dataclass
class Watch:
    """What one SSE client saw."""

    frames: int = 0
    last: int = -1
    bad: int = 0
    """Frames whose id differs from the view's version, or not newer than the last one."""
    reconnects: int = 0
    busy: int = 0
    errors: int = 0
    versions: set[int] = field(default_factory=set)


def _watch(phone: Phone, game: str, w: Watch, rnd: random.Random, done: threading.Event,
           target: list[int], drop: tuple[float, float], deadline: float) -> None:
    """Follow the stream; drop it every ``drop`` seconds (uniform); stop once ``done`` and
    the final version (``target[0]``) arrived, or at ``deadline``."""
    for _ in range(100_000):
        if time.monotonic() > deadline or (done.is_set() and w.last >= target[0]):
            return
        drop_at = time.monotonic() + rnd.uniform(*drop)
        try:
            for ident, view in phone.events(game, w.last, read_timeout=2):
                w.frames += 1
                if ident != view.get("version") or ident <= w.last:
                    w.bad += 1
                w.last = max(w.last, ident)
                w.versions.add(ident)
                if done.is_set() and w.last >= target[0]:
                    return
                if time.monotonic() >= drop_at or time.monotonic() > deadline:
                    break  # a forced disconnect: the phone walks out of Wi-Fi range
        except Refused as exc:
            w.busy += exc.status == 503
            w.errors += exc.status != 503
            time.sleep(0.5)
        except httpx.HTTPError:
            pass  # read timeout (nothing new) or a dropped connection: resume
        w.reconnects += 1


def run_soak(work: Path, clients: int = 50, seconds: float = 60, rate: float = 5,
             drop: tuple[float, float] = (1.0, 8.0), seed: int = 3) -> Result:
    """``clients`` spectators follow one game for ``seconds`` while the banker sends
    ``rate`` commands a second."""
    rnd = random.Random(seed)
    with Server(work / "soak") as srv, Phone(srv.url) as banker:
        banker.login()
        game, code, _ = new_game(banker, 4, seed=seed)
        rss_start = srv.rss_kb()
        phones = [Phone(srv.url) for _ in range(clients)]
        watches = [Watch() for _ in phones]
        done, target = threading.Event(), [0]
        deadline = time.monotonic() + seconds + 30
        try:
            for p in phones:
                p.join(code)
            threads = [threading.Thread(target=_watch, daemon=True, args=(
                p, game, w, random.Random(rnd.random()), done, target, drop, deadline))
                for p, w in zip(phones, watches, strict=True)]
            for t in threads:
                t.start()
            acked: list[int] = []
            t0 = time.monotonic()
            while time.monotonic() - t0 < seconds:
                status, body = drive(banker, game, rnd)
                if status == 200:
                    acked.append(int(body["version"]))
                time.sleep(max(0.0, 1 / rate - 0.005))
            target[0] = banker.view(game)["version"]
            done.set()
            for t in threads:
                t.join(timeout=max(1.0, deadline - time.monotonic()))
            rss_end = srv.rss_kb()
        finally:
            for p in phones:
                p.close()
    behind = sum(1 for w in watches if w.last < target[0])
    bad = sum(w.bad for w in watches)
    coalesced = sum(len([v for v in acked if v not in w.versions]) for w in watches)
    figures = {"clients": clients, "seconds": seconds, "commands acknowledged": len(acked),
               "frames received": sum(w.frames for w in watches),
               "forced disconnects and resumes": sum(w.reconnects for w in watches),
               "missed events": behind + bad,
               "clients behind the final version": behind,
               "frames out of order or mislabelled": bad,
               "versions coalesced into a newer view": coalesced,
               "busy (503) answers": sum(w.busy for w in watches),
               "other errors": sum(w.errors for w in watches),
               "server RSS start (MB)": round(rss_start / 1024, 1),
               "server RSS end (MB)": round(rss_end / 1024, 1)}
    ok = len(acked) > 0 and behind == bad == 0 and sum(w.errors for w in watches) == 0
    return Result(f"soak: {clients} SSE clients with forced disconnects and resumes", ok,
                  figures)
