#!/usr/bin/env python3
"""The engine's work per command, counted rather than timed: Python bytecodes executed and
Python function calls made, per edition, on the same games ``bench_engine.py`` plays (its
players, 4 players, seeds from 1000). Prints figures; asserts nothing.

A count does not move with the machine's load, so a change to the engine shows in it even
when the clock's scatter is as large as the change. Each command is counted as the bench's
"engine alone" times it: the legal actions a table lists, then ``game.step``. Also printed:
the functions that execute the most bytecodes, the cost per kind of command, and the
bytecodes per command 20 games/s would allow at this machine's measured rate.

Usage: python scripts/count_engine_work.py [--games 40] [--traced 3]
       [--editions mario,master-trainer] [--top 12]

``--games`` full games give the commands per game (as ``bench_engine.py --games 40`` does:
games that reach its cap are left out); the first ``--traced`` of them are counted.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from types import FrameType
from typing import Any

from bench_engine import GAME_CAP, game_setup, random_game  # scripts/ is on the path as a script
from profile_engine import play

from companion.engine.types import Command, GameSetup
from companion.plugins.editions import available
from companion.service import game
from web.process_tuning import settle_garbage

Key = tuple[str, int, str]


class Counts:
    """Bytecodes and calls per function (``sys.settrace`` with opcode events)."""

    def __init__(self) -> None:
        self.ops: Counter[Key] = Counter()
        self.calls: Counter[Key] = Counter()

    def trace(self, frame: FrameType, event: str, arg: Any) -> Any:
        code = frame.f_code
        key = (code.co_filename, code.co_firstlineno, code.co_qualname)
        if event == "call":
            self.calls[key] += 1
            frame.f_trace_opcodes = True
            frame.f_trace_lines = False
        elif event == "opcode":
            self.ops[key] += 1
        return self.trace


def recorded(edition: str, games: int) -> list[tuple[GameSetup, list[Command]]]:
    """The bench's full games (those that end within its cap) and their commands."""
    out = []
    for seed in range(1000, 1000 + games):
        played: list[Command] = []
        _, n = random_game(seed, 4, GAME_CAP, edition, played)
        if n < GAME_CAP:
            out.append((game_setup(seed, 4, edition), played))
    return out


def count(played: list[tuple[GameSetup, list[Command]]]) -> tuple[Counts, Counter[str],
                                                                   Counter[str]]:
    """Every command's legal actions and step under the tracer: the counts per function,
    and bytecodes and commands per kind of command."""
    counts = Counts()
    by_kind: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for setup, commands in played:
        state = game.replay(game.new_game(setup))
        for command in commands:
            before = counts.ops.total()
            sys.settrace(counts.trace)
            game.legal_actions(state)
            _, state = game.step(state, command)
            sys.settrace(None)
            by_kind[command.type] += counts.ops.total() - before
            kinds[command.type] += 1
    return counts, by_kind, kinds


def rate(played: list[tuple[GameSetup, list[Command]]], ops_per_command: float) -> float:
    """Nanoseconds per bytecode here: the same games untraced, best of three, CPU time."""
    commands = sum(len(c) for _, c in played)
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        for setup, moves in played:
            play(setup, moves)
        best = min(best, time.process_time() - t)
    return best / commands / ops_per_command * 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--traced", type=int, default=3)
    parser.add_argument("--editions", default=",".join(available()))
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    settle_garbage()
    for edition in args.editions.split(","):
        full = recorded(edition, args.games)
        per_game = sum(len(c) for _, c in full) / len(full)
        played = full[:args.traced]
        commands = sum(len(c) for _, c in played)
        counts, by_kind, kinds = count(played)
        ops = counts.ops.total() / commands
        ns = rate(played, ops)
        budget = 1e9 / 20 / per_game / ns  # bytecodes per command at 20 games/s
        print(f"{edition}: {ops:,.0f} bytecodes and {counts.calls.total() / commands:.0f} "
              f"Python calls per command (the first {len(played)} of {len(full)} full games, "
              f"{commands:,} commands); {per_game:,.0f} commands per full game and "
              f"{ns:.1f} ns per bytecode here, so 20 games/s allows {budget:,.0f} bytecodes "
              "per command", flush=True)
        for kind, n in kinds.most_common(6):
            print(f"  {kind:14s} {n / commands:5.1%} of commands, "
                  f"{by_kind[kind] / n:6,.0f} bytecodes each")
        engine = sum(n for key, n in counts.ops.items() if "/companion/engine/" in key[0])
        print(f"  the engine's own modules (companion/engine): {engine / commands:,.0f} "
              f"bytecodes per command; the edition and the rest: "
              f"{(counts.ops.total() - engine) / commands:,.0f}")
        cheapest = min(kinds, key=lambda k: by_kind[k] / kinds[k])
        print(f"  the cheapest kind of command: {cheapest}, "
              f"{by_kind[cheapest] / kinds[cheapest]:,.0f} bytecodes each")
        for key, n in counts.ops.most_common(args.top):
            path = key[0].split("/companion/")[-1] if "/companion/" in key[0] else key[0]
            print(f"  {n / commands:7.1f} bytecodes {counts.calls[key] / commands:5.2f} calls"
                  f"  {path}:{key[1]} {key[2]}")


if __name__ == "__main__":
    main()
