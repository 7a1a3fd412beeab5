"""Restart under load: players post commands and phones follow the live stream while
``companion run`` is SIGKILLed and started again on the same port. Every phone must come
back (same cookies, same seat), see one version no older than anything acknowledged, and,
where it saw that version before the cut, exactly the same view; a stream resumed with
Last-Event-ID must then deliver the next move."""

from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

import httpx

from reliability.harness import Phone, Refused, Result, Server, drive, new_game
from reliability.powercut import Ack, _play

KEEP = 64


class Follower:
    """A phone following the stream in a thread, keeping its latest views by version."""

    def __init__(self, phone: Phone, patches: bool = False) -> None:
        """``patches``: follow as the page does (whole view, then patches; only the latest
        view is kept, as the page keeps it)."""
        self.phone = phone
        self.patches = patches
        self.views: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self.last = -1
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        for _ in range(10_000):
            if self._stop.is_set():
                return
            try:
                base = None
                if self.patches:  # resume from the view held, or start afresh
                    held = self.views.get(self.last)
                    base = held if held is not None else {}
                    if held is None:
                        self.last = -1
                for ident, view in self.phone.events(self.phone.game, self.last,
                                                     read_timeout=1, base=base):
                    if self.patches:
                        self.views.clear()  # the same object, patched in place
                    self.views[ident] = view
                    while len(self.views) > KEEP:
                        self.views.popitem(last=False)
                    self.last = max(self.last, ident)
                    if self._stop.is_set():
                        return
            except (httpx.HTTPError, Refused):
                time.sleep(0.05)

    def wait_for(self, version: int, timeout: float = 10) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.last >= version:
                return True
            time.sleep(0.02)
        return False


def run_restart(work: Path, restarts: int = 5, players: int = 4, spectators: int = 4,
                seed: int = 4) -> Result:
    rnd = random.Random(seed)
    srv = Server(work / "restart")
    srv.start()
    banker = Phone(srv.url).login()
    game, code, ids = new_game(banker, players, seed=seed)
    seated = [Phone(srv.url) for _ in ids]
    for p, pid in zip(seated, ids, strict=True):
        p.join(code, pid)
    watchers = [Phone(srv.url) for _ in range(spectators)]
    for p in watchers:
        p.join(code)
    phones = seated + watchers
    acks: list[Ack] = []
    older = split = views_differ = compared = not_resumed = lost = 0
    rounds = 0
    try:
        for n in range(restarts):
            followers = [Follower(p) for p in phones]
            for f in followers:
                f.start()
            stop, lock = threading.Event(), threading.Lock()
            threads = [threading.Thread(target=_play, daemon=True, args=(
                p, random.Random(rnd.random()), stop, acks, lock)) for p in seated]
            for t in threads:
                t.start()
            time.sleep(rnd.uniform(0.5, 1.5))
            if n == restarts - 1:
                # The last cut comes between moves, once every phone holds the newest view:
                # a cut under load may land after a commit whose frames were not yet sent,
                # and then no phone holds the version it gets back to compare with.
                stop.set()
                for t in threads:
                    t.join(timeout=10)
                newest = int(banker.view(game)["version"])
                for f in followers:
                    f.wait_for(newest)
            srv.kill()
            stop.set()
            for f in followers:
                f._stop.set()
            for t in threads:
                t.join(timeout=10)
            for f in followers:
                f.stop()
            srv.start()  # same port, same state directory
            banker.rebase(srv.url)
            banker.session()
            after = []
            for p in phones:
                p.rebase(srv.url)
                p.session()
                after.append(p.view())
            rounds += 1
            versions = {v["version"] for v in after}
            split += len(versions) != 1
            top = max(versions)
            older += sum(1 for a in acks if a.game == game and a.version > top)
            for f, view in zip(followers, after, strict=True):
                seen = f.views.get(view["version"])
                if seen is not None:
                    compared += 1
                    views_differ += seen != view
            # the resumed streams must carry the next move
            for f in followers:
                f.last = max(f.last, top)
                f.start()
            status, body = drive(banker, game, rnd)
            if status == 200:
                nxt = int(body["version"])
                not_resumed += sum(1 for f in followers if not f.wait_for(nxt))
            for f in followers:
                f.stop()
            if banker.view(game).get("finished"):
                break
        lost = sum(1 for a in acks if a.game == game and a.version > banker.view(game)["version"])
    finally:
        srv.kill()
        for p in phones + [banker]:
            p.close()
    figures = {"restarts": rounds, "phones": len(phones), "commands acknowledged": len(acks),
               "phones seeing different versions after a restart": split,
               "acknowledged versions missing after restart": older + lost,
               "views compared with the same version before the cut": compared,
               "views differing": views_differ,
               "resumed streams missing the next move": not_resumed}
    ok = rounds > 0 and len(acks) > 0 and compared > 0 and split == older == lost == 0 \
        and views_differ == not_resumed == 0
    return Result("restart under load: phones reconnect and see the same state", ok, figures)
