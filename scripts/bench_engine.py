#!/usr/bin/env python3
"""Benchmark of the rules engine and the game service. Prints figures; asserts nothing.

- replay time of a 5,000-event game (target: under 100 ms);
- commands per second through the service, each committed to SQLite (target: >= 200);
- random full games per second through decide/apply, 2 and 4 players for Mario and 4 players
  for every edition (target: >= 20 games/s with 4 players, each edition).

Usage: python scripts/bench_engine.py [--games 40] [--commands 1000] [--editions mario,pokemon]
       [--baseline DIR [--rounds 2]]

``--baseline DIR`` runs this benchmark alternately on this checkout's code and on another
checkout's (``companion`` imported from DIR, e.g. ``../before``, a worktree of the code
before a change), ``--rounds`` times each, so both are measured in the same sitting under the
same load. The per-edition lines also give
CPU time, which other processes on a shared machine change less than the clock.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.engine import game
from companion.engine.editions import EDITIONS
from companion.engine.types import Command, Event, GameSetup, RuleError
from companion.service import GameService


def random_command(rnd: random.Random, actions: list) -> Command:
    pool = [a for a in actions if a.type not in ("end_game", "transfer", "propose_trade")]
    buys = [a for a in pool if a.type == "buy"]
    a = buys[0] if buys and rnd.random() < 0.8 else rnd.choice(pool)
    args = dict(a.args)
    spec = a.input or {}
    if spec.get("kind") == "dice":
        args["dice"] = [rnd.randint(1, 6) for _ in range(spec["count"])]
    elif spec.get("kind") == "amount":
        args["amount"] = spec["min"]
    elif spec.get("kind") == "choice" and spec.get("options"):
        args[spec.get("arg") or "option"] = rnd.choice(spec["options"])["value"]
    elif spec.get("kind") == "trade" and "take" in spec:  # a chip swap a card forces
        other = rnd.choice(spec["with"])
        args.update({"with": other, "give": rnd.choice(spec["give"]),
                     "take": rnd.choice(spec["take"][other])})
    return Command(a.actor, a.type, args)


def random_game(seed: int, players: int = 4, max_commands: int = 5000,
                edition: str = "mario") -> tuple[list[Event], int]:
    """A random legal game to its end; returns the events and the commands decided."""
    rnd = random.Random(seed)
    names = ["Mario", "Luigi", "Peach", "Toad", "Yoshi", "DK"][:players]
    setup = GameSetup.from_json({"edition": edition, "players": names, "dice": "physical",
                                 "seed": seed})
    events = game.new_game(setup)
    state = game.replay(events)
    n = 0
    while not state.finished and n < max_commands:
        actions = game.legal_actions(state)
        for _ in range(8):  # an offered action whose arguments the picker cannot fill
            command = random_command(rnd, actions)
            try:
                new, state = game.step(state, command)
                break
            except RuleError:
                actions = [a for a in actions if a.type != command.type] or actions
        else:
            break
        events += new
        n += 1
    return events, n


def bench_replay() -> tuple[float, int]:
    seed = 0
    events: list[Event] = []
    while len(events) < 5000:
        seed += 1
        events, _ = random_game(seed, players=6, max_commands=3000)
    events = events[:5000]
    times = []
    for _ in range(7):
        t = time.perf_counter()
        game.replay(events)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000, len(events)


def bench_service(commands: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        svc = GameService(Path(tmp)).start()
        rnd = random.Random(3)
        done = 0
        t = time.perf_counter()
        while done < commands:
            gid = svc.create_game({"edition": "mario", "players": ["A", "B", "C", "D"],
                                   "dice": "physical", "seed": done}).game_id
            while done < commands:
                _, state = svc.state(gid)
                if state.finished:
                    break
                out = svc.submit(gid, random_command(rnd, game.legal_actions(state)))
                assert out.ok, out.error
                done += 1
        elapsed = time.perf_counter() - t
        svc.stop()
    return commands / elapsed


def bench_games(n: int, players: int = 4,
                edition: str = "mario") -> tuple[float, float, float, int]:
    """Games per second by the clock, commands per game, games per second in CPU time, and
    how many of the ``n`` games reached their end (the rest stopped at 5,000 commands). One
    untimed game first: the edition's first load (imports, data files, checks) is paid once
    per start, not per game."""
    random_game(999, players=players, edition=edition)
    t, cpu = time.perf_counter(), time.process_time()
    commands = ended = 0
    for seed in range(n):
        events, c = random_game(1000 + seed, players=players, edition=edition)
        commands += c
        ended += any(e.type.split("@", 1)[0] == "finished" for e in events[-3:])
    elapsed, cpu = time.perf_counter() - t, time.process_time() - cpu
    return n / elapsed, commands / n, n / cpu, ended


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--commands", type=int, default=1000)
    parser.add_argument("--editions", default=",".join(EDITIONS),
                        help="comma-separated editions for the 4-player figures")
    parser.add_argument("--baseline", help="another checkout to measure alternately with this one")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if args.baseline:
        alternate(args)
        return
    ms, count = bench_replay()
    print(f"replay of a {count}-event game: {ms:.1f} ms (target < 100 ms)")
    cps = bench_service(args.commands)
    print(f"commands through the service, committed each (synchronous=FULL): {cps:.0f}/s "
          "(target >= 200/s)")
    gps, per_game, _, _ = bench_games(args.games, 2)
    print(f"random full mario games (2 players): {gps:.1f} games/s, {per_game:.0f} commands "
          f"per game on average, {gps * per_game:.0f} commands/s")
    for edition in args.editions.split(","):
        try:
            gps, per_game, cpu_gps, ended = bench_games(args.games, 4, edition)
        except Exception as exc:  # an edition being rewritten must not hide the others
            print(f"random full {edition} games (4 players): failed: {exc!r}")
            continue
        full = ended == args.games
        verdict = ("meets" if gps >= 20 else "below") if full else "not full games: no figure"
        print(f"random full {edition} games (4 players): {gps:.1f} games/s, {per_game:.0f} "
              f"commands per game on average, {1e6 / (gps * per_game):.0f} us per command, "
              f"{ended} of {args.games} games ended ({verdict} against the target of >= 20 "
              f"games/s; CPU time {cpu_gps:.1f} games/s, "
              f"{1e6 / (cpu_gps * per_game):.0f} us per command)", flush=True)


def alternate(args: argparse.Namespace) -> None:
    """This checkout's code and ``args.baseline``'s in turn, ``args.rounds`` times, each in a
    fresh process running this script (its own imports and caches), printing each run's lines
    under its name."""
    here = Path(__file__).resolve().parent.parent
    there = Path(args.baseline).resolve()
    flags = ["--games", str(args.games), "--commands", str(args.commands),
             "--editions", args.editions]
    for n in range(1, args.rounds + 1):
        for name, root in (("this checkout", here), (f"baseline {there}", there)):
            print(f"-- round {n}, {name}", flush=True)
            env = {**os.environ, "PYTHONPATH": str(root)}
            subprocess.run([sys.executable, __file__, *flags], cwd=root, env=env, check=True)


if __name__ == "__main__":
    main()
