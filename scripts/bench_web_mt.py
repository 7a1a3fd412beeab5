#!/usr/bin/env python3
"""A Master Trainer table's moves to every phone: the edition that builds one view per seat.

Same harness as scripts/bench_web.py (server in a child process, SSE readers following by
patches, closed loop, nearest-rank percentiles), but the moves are a real game's: the
banker's connection sends, for whichever player must act, what the engine bench's Master
Trainer player (``bench_engine.mt_command``) picks on a copy of the game kept here. Four
seats and four spectators follow; a move is timed from its request to the new version on
every phone (moves that change nothing visible are sent but not timed). Prints figures;
asserts nothing but that the server accepts every move the local copy accepts.

    .venv/bin/python scripts/bench_web_mt.py [--moves 300] [--clients 8]

To compare with other code in the same sitting, run it alternately with that checkout first
on the path (``PYTHONPATH=../before``, from outside this checkout): the server child and
the local copy then both run that code.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from bench_engine import mt_command  # scripts/ is on the path when this runs as a script
from bench_web import Mover, Reader, Session, log, summarize

from companion.engine import game
from companion.engine.types import Command, GameSetup, RuleError

BENCH_WEB = Path(__file__).resolve().with_name("bench_web.py")
PIN = "9753"
SETUP = {"edition": "master-trainer", "players": ["P1", "P2", "P3", "P4"], "dice": "physical",
         "seed": 1, "settings": {"decks": "virtual"}}
"""The game both the server and the copy here play: the engine bench's (the companion shuffles
the decks, so the bench player needs no card names; a new game from the page would ask which
card was drawn from the real pile, which costs a move the same)."""


def join(base: str, clients: int) -> tuple[str, list[str], Session]:
    """A Master Trainer game, and a cookie per phone (four seats first, then spectators)."""
    banker = Session(base)
    assert banker.post("/api/banker/login", {"pin": PIN}).status_code == 200
    out = banker.post("/api/games", SETUP).json()
    game_id = out["game_id"]
    view = banker.http.get(f"/api/games/{game_id}").json()
    seats = [p["id"] for p in view["players"]]
    cookies = []
    for i in range(clients):
        s = Session(base)
        body = {"code": view["join_code"], **({"player": seats[i]} if i < len(seats) else {})}
        assert s.post("/api/join", body).status_code == 200
        cookies.append(s.cookie)
    return game_id, cookies, banker


def next_command(rnd: random.Random, state: Any) -> tuple[Command, Any]:
    """What the bench player does now, and the state after it (as ``random_game`` picks)."""
    actions = game.legal_actions(state)
    for _ in range(8):
        command = mt_command(rnd, state, actions)
        try:
            _, after = game.step(state, command)
            return command, after
        except RuleError:
            actions = [a for a in actions if a.type != command.type] or actions
    raise RuntimeError("the bench player found no legal command")


async def follow(port: int, game_id: str, cookies: list[str], banker: Session, warmup: int,
                 moves: int) -> dict[str, Any]:
    readers = [Reader(i) for i in range(len(cookies))]
    ready = [asyncio.Event() for _ in readers]
    tasks = [asyncio.create_task(rd.run(port, game_id, c, ev))
             for rd, c, ev in zip(readers, cookies, ready, strict=True)]
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ready)), 20)
    mover = Mover(port, game_id, banker.cookie, banker.csrf)
    await mover.open()
    loop = asyncio.get_running_loop()
    rnd = random.Random(SETUP["seed"])
    state = game.replay(game.new_game(GameSetup.from_json(SETUP)))
    samples: list[float] = []
    sent = 0
    while len(samples) < warmup + moves and not state.finished:
        command, state = next_command(rnd, state)
        before = readers[0].version
        futs = [loop.create_future() for _ in readers]
        for rd, fut in zip(readers, futs, strict=True):
            rd.waiter = (before, fut)
        t0 = time.perf_counter_ns()
        mover.send({"actor": command.actor, "type": command.type, "args": command.args})
        status, out = await mover.response()
        sent += 1
        if status != 200:
            raise RuntimeError(f"move {sent} refused ({command}): {out}")
        if out["version"] <= before:  # nothing the phones see changed
            continue
        ats = await asyncio.wait_for(asyncio.gather(*futs), 5)
        samples.append((max(ats) - t0) / 1e6)
    for t in tasks:
        t.cancel()
    mover.w.close()
    timed = samples[warmup:]
    if not timed:
        raise RuntimeError("the game ended before any move was timed")
    return {"all": summarize(timed), "timed": len(timed), "sent": sent}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=8, help="phones: four seats, then spectators")
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--warmup", type=int, default=20)
    a = ap.parse_args()
    child = subprocess.Popen([sys.executable, str(BENCH_WEB), "--serve"],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        port = json.loads(child.stdout.readline())["port"]
        threading.Thread(target=child.stdout.read, daemon=True).start()
        game_id, cookies, banker = join(f"http://127.0.0.1:{port}", max(4, a.clients))
        res = asyncio.run(follow(port, game_id, cookies, banker, a.warmup, a.moves))
        out = {"edition": "master-trainer", "clients": len(cookies), "moves": res["timed"],
               "sent": res["sent"], **{f"{k}_ms": v for k, v in res["all"].items()}}
        log(f"master-trainer, {len(cookies)} phones: p50 {out['p50_ms']} ms, "
            f"p99 {out['p99_ms']} ms over {res['timed']} moves")
        print(json.dumps(out), flush=True)
        return 0
    finally:
        child.terminate()
        child.wait(10)


if __name__ == "__main__":
    sys.exit(main())
