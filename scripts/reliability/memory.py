"""Memory: resident size of ``companion run`` (simulated hardware) after a long game with
eight phones following it by SSE as the page does (the whole view, then patches). Target:
under 60 MB."""

from __future__ import annotations

import random
import time
from pathlib import Path

from reliability.harness import Phone, Result, Server, drive, new_game
from reliability.restart import Follower

TARGET_MB = 60.0


def run_memory(work: Path, commands: int = 3000, phones: int = 8, seed: int = 5,
               time_limit: float = 600, target_mb: float = TARGET_MB) -> Result:
    """Play ``commands`` acknowledged commands (a new game when one ends) while ``phones``
    phones follow; RSS before, after and the peak seen every 100 commands."""
    rnd = random.Random(seed)
    with Server(work / "memory") as srv, Phone(srv.url) as banker:
        banker.login()
        game, code, _ = new_game(banker, 4, seed=seed)
        rss_idle = srv.rss_kb()
        watchers = [Phone(srv.url) for _ in range(phones)]
        followers = [Follower(p, patches=True) for p in watchers]  # as the page follows
        for p in watchers:
            p.join(code)
        for f in followers:
            f.start()
        done = games = 0
        peak = rss_idle
        t0 = time.monotonic()
        try:
            for i in range(commands * 3):
                if done >= commands or time.monotonic() - t0 > time_limit:
                    break
                status, _ = drive(banker, game, rnd)
                done += status == 200
                if status != 200 and banker.view(game).get("finished"):
                    game, code, _ = new_game(banker, 4, seed=rnd.randrange(10**6))
                    games += 1
                    for p, f in zip(watchers, followers, strict=True):
                        f.stop()
                        p.join(code)
                        f.last = -1
                        f.views.clear()
                        f.start()
                if i % 100 == 0:
                    peak = max(peak, srv.rss_kb())
            version = banker.view(game)["version"]
            caught_up = sum(f.wait_for(version, 10) for f in followers)
            rss_end = srv.rss_kb()
        finally:
            for f in followers:
                f._stop.set()
            for f in followers:
                f.stop()
            for p in watchers:
                p.close()
        seconds = time.monotonic() - t0
    peak = max(peak, rss_end)
    figures = {"commands acknowledged": done, "games": games + 1, "phones following": phones,
               "phones caught up at the end": caught_up,
               "live updates": "patches (?live=patch, as the page)",
               "patch frames received": sum(p.patch_frames for p in watchers),
               "commands per second (HTTP, committed)": round(done / seconds, 1),
               "RSS idle (MB)": round(rss_idle / 1024, 1),
               "RSS after the game (MB)": round(rss_end / 1024, 1),
               "RSS peak sampled (MB)": round(peak / 1024, 1),
               "target (MB)": target_mb}
    patched = figures["patch frames received"]
    ok = done >= commands and caught_up == phones and peak / 1024 < target_mb and \
        isinstance(patched, int) and patched >= done  # every phone got patches, not views
    return Result(f"memory: RSS after {done} commands with {phones} phones on SSE", ok, figures)
