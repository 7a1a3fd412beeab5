#!/usr/bin/env python3
"""Engine speed per edition: random full 4-player games through ``game.step``. Prints figures;
asserts nothing (target: >= 20 games/s for every edition).

Each game is played by a bot first (capped at 5,000 commands; the share that ended is printed),
then its commands are sent again and timed: per command, the legal actions a table would list
and ``game.step``. Printed per edition: games/s and µs per command in CPU time (other processes
on a shared machine count little; the wall-clock figure is shown too), commands per game, the
parts (setup per game, legal actions and step per command), and with ``--profile`` cProfile's
top entries (call counts do not depend on the machine's load).

Two bots: ``random`` picks any legal action (buying when it can, 80% of the time, as
scripts/bench_engine.py does); ``person`` plays like a person would: buys what it can afford,
catches, answers prompts, ends its turn rather than wandering through optional actions, and
heads for Master Trainer's Final Battle when the dice allow it.

Usage: python scripts/profile_engine.py [--games 10] [--players 4] [--bot random|person|both]
       [--edition mario] [--profile] [--top 25]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from collections.abc import Callable

from companion.engine.types import Action, Command, GameSetup
from companion.plugins.editions import available
from companion.service import game

RARE = ("end_game", "transfer", "propose_trade")
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
FILLED = (None, "dice", "amount", "choice", "trade")
Bot = Callable[[random.Random, list[Action]], Command]


GOALS = ("final", "plateau")
"""Where a person heads on Master Trainer's track once the dice allow it (the game ends only
at the Final Battle on Indigo Plateau, reached from Cinnabar Island)."""


def pick(rnd: random.Random, options: list[dict[str, object]], goals: tuple[str, ...]) -> object:
    """An option's value: the first goal offered, else any."""
    for goal in goals:
        for o in options:
            if str(o["value"]).startswith(goal):
                return o["value"]
    return rnd.choice(options)["value"]


def _fill(rnd: random.Random, a: Action, goals: tuple[str, ...] = ()) -> Command:
    """The command of action ``a`` with its input filled with a valid value."""
    args = dict(a.args)
    spec = a.input or {}
    kind = spec.get("kind")
    if kind == "dice":
        args["dice"] = [rnd.randint(1, 6) for _ in range(spec["count"])]
    elif kind == "amount":
        args["amount"] = spec["min"]
    elif kind == "choice":
        args[spec.get("arg", "option")] = pick(rnd, spec["options"], goals)
    elif kind == "trade" and "take" in spec:  # a Master Trainer chip swap
        other = rnd.choice(spec["with"])
        args.update({"with": other, "give": rnd.choice(spec["give"]),
                     "take": rnd.choice(spec["take"][other])})
    return Command(a.actor, a.type, args)


def playable(actions: list[Action]) -> list[Action]:
    """The actions a bot can fill in (no trades to compose), rare ones left out."""
    simple = [a for a in actions if (a.input or {}).get("kind") in FILLED
              and ((a.input or {}).get("kind") != "trade" or "take" in (a.input or {}))]
    return [a for a in simple if a.type not in RARE] or simple


def random_bot(rnd: random.Random, actions: list[Action]) -> Command:
    """Any legal action (the policy of scripts/bench_engine.py)."""
    pool = playable(actions)
    buys = [a for a in pool if a.type == "buy"]
    a = buys[0] if buys and rnd.random() < 0.8 else rnd.choice(pool)
    return _fill(rnd, a)


PREFER = ("buy", "catch", "reveal", "take", "roll", "choose", "pay", "end_turn")
"""What a person does first when it is offered (a prompt's answer before anything optional)."""


def person_bot(rnd: random.Random, actions: list[Action]) -> Command:
    """Buy when offered, answer the prompt, end the turn; optional actions only now and then."""
    pool = playable(actions)
    if rnd.random() < 0.9:
        for kind in PREFER:
            same = [a for a in pool if a.type == kind]
            if same:
                return _fill(rnd, rnd.choice(same), GOALS)
    return _fill(rnd, rnd.choice(pool), GOALS)


BOTS: dict[str, Bot] = {"random": random_bot, "person": person_bot}


def record(edition: str, seed: int, players: int, bot: Bot,
           max_commands: int = 5000) -> tuple[GameSetup, list[Command], bool]:
    """One game played by ``bot``: its setup, the commands decided and whether it ended."""
    rnd = random.Random(seed)
    setup = GameSetup.from_json({"edition": edition, "players": NAMES[:players],
                                 "dice": "physical", "seed": seed,
                                 "settings": {"order": "seated"}})
    state = game.replay(game.new_game(setup))
    commands: list[Command] = []
    while not state.finished and len(commands) < max_commands:
        commands.append(bot(rnd, game.legal_actions(state)))
        _, state = game.step(state, commands[-1])
    return setup, commands, state.finished


def play(setup: GameSetup, commands: list[Command], spent: list[float] | None = None) -> None:
    """The engine's work for one game, the bot's choices given: start it, and for each
    command list the legal actions (a table shows them) and decide and apply it.
    ``spent`` (CPU seconds) gets the setup, the legal actions and the steps added; without
    it the clock is not read per command (a CPU clock read is a system call, about a
    microsecond: three per command would add some 5% to what is timed)."""
    if spent is None:
        state = game.replay(game.new_game(setup))
        for command in commands:
            game.legal_actions(state)
            _, state = game.step(state, command)
        return
    clock = time.process_time
    t0 = clock()
    state = game.replay(game.new_game(setup))
    t1 = clock()
    listing = stepping = 0.0
    for command in commands:
        a = clock()
        game.legal_actions(state)
        b = clock()
        _, state = game.step(state, command)
        listing += b - a
        stepping += clock() - b
    spent[0] += t1 - t0
    spent[1] += listing
    spent[2] += stepping


def measure(edition: str, games: int, players: int, bot: Bot,
            prof: cProfile.Profile | None = None) -> dict[str, float]:
    """Games recorded first, then timed through the engine alone (CPU time, so other
    processes on the machine count little; the bot's own time is left out). A second pass
    times each part (setup per game, legal actions and step per command)."""
    played = [record(edition, 1000 + seed, players, bot) for seed in range(games)]
    commands = sum(len(c) for _, c, _ in played)
    if prof is not None:
        prof.enable()
    cpu, wall = time.process_time(), time.perf_counter()
    for setup, moves, _ in played:
        play(setup, moves)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    if prof is not None:
        prof.disable()
    spent = [0.0, 0.0, 0.0]
    for setup, moves, _ in played:
        play(setup, moves, spent)
    return {"games_s": games / cpu, "wall_games_s": games / wall,
            "commands": commands / games, "us": cpu / commands * 1e6,
            "finished": sum(done for _, _, done in played) / games,
            "setup_ms": spent[0] / games * 1e3, "legal_us": spent[1] / commands * 1e6,
            "step_us": spent[2] / commands * 1e6}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", choices=[*BOTS, "both"], default="both")
    parser.add_argument("--edition", action="append", help="default: every edition")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top entries")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    editions = args.edition or available()
    bots = list(BOTS) if args.bot == "both" else [args.bot]
    for name in bots:
        for edition in editions:
            prof = cProfile.Profile() if args.profile else None
            r = measure(edition, args.games, args.players, BOTS[name], prof)
            print(f"{edition:15s} {name:6s} bot, {args.players} players: "
                  f"{r['games_s']:6.1f} games/s (CPU time; {r['wall_games_s']:.1f} by the "
                  f"clock), {r['commands']:6.0f} commands per game, {r['us']:6.1f} µs per command, "
                  f"{r['finished']:.0%} finished (target >= 20 games/s)", flush=True)
            print(f"  {'':22s} setup {r['setup_ms']:.2f} ms per game; per command: legal "
                  f"actions {r['legal_us']:.1f} µs, step {r['step_us']:.1f} µs", flush=True)
            if prof is not None:
                stats = pstats.Stats(prof)
                print(f"  total calls: {stats.total_calls:,}")  # type: ignore[attr-defined]
                stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
