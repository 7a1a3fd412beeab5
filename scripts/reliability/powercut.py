"""Power cut over HTTP: phones post commands to ``companion run``, which is SIGKILLed at a
random moment and restarted; every acknowledged response must be in the reopened log with
the same version and words, the database must pass integrity_check, and the reopened state
must equal a replay of the log from scratch.

(scripts/crash_test.py does the same one level down, against GameService in a child.)
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from companion.service import game as engine
from companion.service.game_service import GameService
from reliability.harness import Phone, Refused, Result, Server, new_game, pick


@dataclass(frozen=True)
class Ack:
    """A command the server answered 200 to: the phone told its player it happened."""

    game: str
    key: str
    version: int
    says: tuple[str, ...]


def _play(phone: Phone, rnd: random.Random, stop: threading.Event, acks: list[Ack],
          lock: threading.Lock, max_commands: int = 10_000) -> None:
    """Post legal commands for this phone's player until stopped or the server dies."""
    for _ in range(max_commands):
        if stop.is_set():
            return
        try:
            view = phone.view()
            if view.get("finished"):
                return
            cmd = pick(view, {phone.player or ""}, rnd)
            if cmd is None:
                time.sleep(0.01)
                continue
            key = f"p{rnd.getrandbits(60):x}"
            status, body = phone.command(phone.game, cmd["actor"], cmd["type"], cmd["args"],
                                         version=view["version"], key=key)
        except (httpx.HTTPError, Refused, ValueError):
            return  # the power went (or the server is refusing): stop like a phone would
        if status == 200:
            with lock:
                acks.append(Ack(phone.game, key, int(body["version"]), tuple(body["says"])))


def check(state_dir: Path, acks: list[Ack]) -> dict[str, int | str]:
    """Reopen the database in-process and compare it with what was acknowledged."""
    svc = GameService(state_dir)
    try:
        integrity = svc.store.integrity()
        lost = differ = 0
        for ack in acks:
            earlier = svc.store.response_for(ack.game, ack.key)
            on_disk = svc.state(ack.game)[0]
            if earlier is None or on_disk < ack.version:
                lost += 1
            elif earlier["version"] != ack.version or tuple(earlier["says"]) != ack.says:
                differ += 1
        replay_diffs = 0
        for gid in {a.game for a in acks}:
            rows = svc.store.rows(gid)
            kept = engine.effective((r.seq, r.event) for r in rows)
            replay_diffs += engine.replay(e for _, e in kept) != svc.state(gid)[1]
    finally:
        svc.stop()
    return {"lost": lost, "differ": differ, "replay_diffs": replay_diffs,
            "integrity": integrity}


def run_powercut(work: Path, kills: int = 200, players: int = 4, seed: int = 1,
                 min_s: float = 0.3, max_s: float = 1.2, time_limit: float = 1200) -> Result:
    """Kill ``companion run`` ``kills`` times while ``players`` phones post commands."""
    rnd = random.Random(seed)
    srv = Server(work / "powercut")
    phones: list[Phone] = []
    game = ""
    all_acks: list[Ack] = []
    lost = differ = replay_diffs = bad_integrity = cycles = 0
    t0 = time.monotonic()
    try:
        for _ in range(kills):
            if time.monotonic() - t0 > time_limit:
                break
            srv.start()
            banker = Phone(srv.url).login()
            with banker:
                if not game or banker.view(game).get("finished"):
                    for p in phones:
                        p.close()
                    game, code, ids = new_game(banker, players, seed=rnd.randrange(10**6))
                    phones = [Phone(srv.url) for _ in ids]
                    for p, pid in zip(phones, ids, strict=True):
                        p.join(code, pid)
                else:
                    for p in phones:
                        p.rebase(srv.url)
                        p.session()
            acks: list[Ack] = []
            lock, stop = threading.Lock(), threading.Event()
            threads = [threading.Thread(target=_play, args=(p, random.Random(rnd.random()),
                                                            stop, acks, lock), daemon=True)
                       for p in phones]
            for t in threads:
                t.start()
            time.sleep(rnd.uniform(min_s, max_s))
            srv.kill()
            stop.set()
            for t in threads:
                t.join(timeout=15)
            cycles += 1
            with lock:
                acks = list(acks)
            all_acks += acks
            found = check(srv.state_dir, acks)
            lost += int(found["lost"])
            differ += int(found["differ"])
            replay_diffs += int(found["replay_diffs"])
            bad_integrity += found["integrity"] != "ok"
        final = check(srv.state_dir, all_acks) if all_acks else {"lost": 0, "differ": 0}
    finally:
        srv.kill()
        for p in phones:
            p.close()
    figures = {"kills": cycles, "seconds": round(time.monotonic() - t0),
               "acknowledged commands": len(all_acks),
               "acknowledged events lost": lost + int(final["lost"]),
               "acknowledged answers differing after restart": differ + int(final["differ"]),
               "integrity_check not ok": bad_integrity,
               "reopened state differs from a full replay": replay_diffs}
    ok = cycles > 0 and len(all_acks) > 0 and lost == differ == replay_diffs == 0 \
        and bad_integrity == 0 and final["lost"] == final["differ"] == 0
    return Result("power cut over HTTP: SIGKILL companion run while phones post", ok, figures)
