"""The replay-cycling attack of issue 38 (item 3), shared by ``scripts/reliability`` (scenario
``replays``) and ``scripts/bench_web.py --replay-attack``: a guest asks, over and over, for
the replays of more long finished games than the companion keeps, so each is rebuilt.

:func:`finished_games` writes the games into a state directory (in-process, before the
server starts); :class:`ReplayCycler` is the guest, on threads of its own, until stopped.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

GAMES = 5
EVENTS = 2_010
"""As issue 38 measured: five finished games of 2,010 events."""


def finished_games(state_dir: Path, games: int = GAMES, events: int = EVENTS) -> list[str]:
    """``games`` finished Mario games of about ``events`` events each (the banker's transfers,
    then the banker ends the game), written into ``state_dir``'s database."""
    from companion.service.game_service import GameService

    made = []
    with GameService(state_dir) as service:
        service.call(service.store.conn.execute, "PRAGMA synchronous=OFF")  # setup only
        for n in range(games):
            gid = service.create_game({"edition": "mario", "players": ["Ann", "Bo"],
                                       "dice": "digital", "seed": n + 1}).game_id

            def fill(gid: str = gid) -> None:
                for i in range(max(1, events - 4)):
                    src, to = ("ann", "bo") if i % 2 else ("bo", "ann")
                    out = service.decide_here(gid, {"actor": "banker", "type": "transfer",
                                                    "args": {"source": src, "to": to,
                                                             "amount": 1, "reason": "rent"}})
                    assert out.ok, out.error
                out = service.decide_here(gid, {"actor": "banker", "type": "end_game",
                                                "args": {}})
                assert out.ok, out.error

            service.call(fill, timeout=1200)
            made.append(gid)
        service.call(service.store.conn.execute, "PRAGMA synchronous=FULL")
    return made


class ReplayCycler:
    """A guest cycling the games' replays (a different step each time) on ``threads``
    threads, from a session that joined a game here with its code (``cookies``); counts the
    answers by status."""

    def __init__(self, base: str, games: list[str], cookies: httpx.Cookies | dict[str, str],
                 threads: int = 2) -> None:
        self.base, self.games, self.cookies = base, games, cookies
        self.answers: Counter[int] = Counter()
        self.errors = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._loop, args=(n,), daemon=True)
                         for n in range(threads)]

    def __enter__(self) -> ReplayCycler:
        for t in self._threads:
            t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(timeout=90)

    def _loop(self, n: int) -> None:
        with httpx.Client(base_url=self.base, cookies=self.cookies, timeout=60) as client:
            i = n
            while not self._stop.is_set():
                game = self.games[i % len(self.games)]
                try:
                    r = client.get(f"/api/games/{game}/replay", params={"step": i % 40})
                    status = r.status_code
                except httpx.HTTPError:
                    status = 0
                with self._lock:
                    self.answers[status] += 1
                if status == 503:
                    time.sleep(0.05)  # as a page would, not a tight loop on a refusal
                i += 1

    def figures(self) -> dict[str, Any]:
        return {f"replay answers {status or 'failed'}": count
                for status, count in sorted(self.answers.items())}
