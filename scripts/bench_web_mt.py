#!/usr/bin/env python3
"""A Master Trainer table's moves to every phone: the edition that builds one view per seat.

Same harness as scripts/bench_web.py (server in a child process, SSE readers following by
patches, closed loop, nearest-rank percentiles), but the moves are a real game's: the
banker's connection sends, for whichever player must act, what the engine bench's Master
Trainer player (``bench_engine.next_move``) picks on a copy of the game kept here. Four
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
import sys
import time
from typing import Any

from bench_engine import next_move  # scripts/ is on the path when this runs as a script
from bench_web import log, summarize
from bench_web_phones import (
    Session,
    expect_next,
    join_phones,
    new_game,
    open_table,
    server_child,
)

from companion.engine.types import GameSetup
from companion.service import game

SETUP: dict[str, Any] = {"edition": "master-trainer", "players": ["P1", "P2", "P3", "P4"],
                         "dice": "physical", "seed": 1, "settings": {"decks": "virtual"}}
"""The game both the server and the copy here play: the engine bench's (the companion shuffles
the decks, so the bench player needs no card names; a new game from the page would ask which
card was drawn from the real pile, which costs a move the same)."""


def join(base: str, clients: int) -> tuple[str, list[str], Session]:
    """A Master Trainer game, and a cookie per phone (four seats first, then spectators)."""
    banker, game_id, view = new_game(base, SETUP)
    seats = [p["id"] for p in view["players"]]
    return game_id, join_phones(base, view["join_code"], seats, clients), banker


async def follow(port: int, game_id: str, cookies: list[str], banker: Session, warmup: int,
                 moves: int) -> dict[str, Any]:
    readers, tasks, mover = await open_table(port, game_id, cookies, banker)
    rnd = random.Random(SETUP["seed"])
    state = game.replay(game.new_game(GameSetup.from_json(SETUP)))
    samples: list[float] = []
    sent = 0
    while len(samples) < warmup + moves and not state.finished:
        found = next_move(rnd, state, "master-trainer")
        if found is None:
            raise RuntimeError("the bench player found no legal command")
        command, _, state = found
        before = readers[0].version
        futs = expect_next(readers)
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
    with server_child([]) as (_, port):
        game_id, cookies, banker = join(f"http://127.0.0.1:{port}", max(4, a.clients))
        res = asyncio.run(follow(port, game_id, cookies, banker, a.warmup, a.moves))
    out = {"edition": "master-trainer", "clients": len(cookies), "moves": res["timed"],
           "sent": res["sent"], **{f"{k}_ms": v for k, v in res["all"].items()}}
    log(f"master-trainer, {len(cookies)} phones: p50 {out['p50_ms']} ms, "
        f"p99 {out['p99_ms']} ms over {res['timed']} moves")
    print(json.dumps(out), flush=True)
    return 0

if __name__ == "__main__":
    sys.exit(main())
