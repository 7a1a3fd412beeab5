#!/usr/bin/env python3
"""Benchmark of the rules engine and the game service. Prints figures; asserts nothing.

- replay time of a 5,000-event game (budget, issue 28: at most 50 ms);
- every phone's view of each state of a game, per edition (one shared view, or one per
  viewer where hands are hidden);
- commands through the service, each committed to SQLite, submitted as a phone's move is:
  per second, and one command's p50 and p99 at a table's pace (budget, issue 28: p99 at most
  2 ms), and its p99 back to back;
- random full games per second through decide/apply, 2 and 4 players for Mario and 4 players
  for every edition (target: >= 20 games/s with 4 players, each edition); per edition also
  the engine alone: the same games' commands played again (legal actions and ``game.step``
  each, in CPU time), without the bench player's picking, which costs Master Trainer's
  player about as much as the engine's own work. A game is played to its end or stopped at
  ``GAME_CAP`` commands; the figures and the verdict are over the games that ended (full
  games), and how many did not is printed beside them.

The games' player picks uniformly among the legal actions, except Master Trainer's
(``mt_command``): a uniform picker fields a random Pokémon without Attack Bonus cards and so
never beats a Pokémon Master, so that player is still random but plays to win where a real
player obviously would (strongest Pokémon, best Attack Bonus cards in the Final Battle,
Potions, catching). The other editions' games are the same as before it (same events).

Every figure is taken with the garbage collector settled as the page server settles it
(``web.process_tuning``), the process the engine runs in on the table; ``--python-gc`` keeps
Python's defaults instead.

Usage: python scripts/bench_engine.py [--games 40] [--commands 1000] [--editions mario,pokemon]
       [--baseline DIR [--rounds 2]] [--python-gc]

``--baseline DIR`` runs this benchmark alternately on this checkout's code and on another
checkout's (``companion`` imported from DIR, e.g. ``../before``, a worktree of the code
before a change), ``--rounds`` times each, so both are measured in the same sitting under the
same load. The per-edition lines also give
CPU time, which other processes on a shared machine change less than the clock.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from profile_engine import play  # scripts/ is on the path when this runs as a script

from companion.editions.master_trainer import base as mt_base
from companion.editions.master_trainer import data as mt_data
from companion.engine.types import BANKER, Command, Event, GameSetup, RuleError
from companion.plugins.editions import find_edition, known
from companion.service import game
from companion.service.game_service import GameService
from web.process_tuning import settle_garbage


def random_command(rnd: random.Random, actions: list[Any]) -> Command:
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


BONUS = ("bonus_5", "bonus_4", "bonus_3", "bonus_2", "bonus_1")
"""Attack Bonus cards, strongest first."""


def mt_strength(state: Any, pid: str, chip: str) -> int:
    """A Master Trainer chip's Attack Strength in ``pid``'s team, Evolution Bonus included."""
    data = mt_base.data_of(state)
    team = state.trainer(pid).team
    return data.chips[chip].strength + mt_data.evolution_bonuses(team, data).get(chip, 0)


def mt_command(rnd: random.Random, state: Any, actions: list[Any]) -> Command:
    """Master Trainer's bench player: random like :func:`random_command`, except where a
    real player obviously plays to win. In a battle it fields its strongest Pokémon, and in
    the Final Battle adds its two best Attack Bonus cards; in a dice window it re-rolls its
    own die with a Time Machine only when that die loses its battle, and otherwise keeps the
    dice; it revives its strongest knocked-out Pokémon with a Potion or at a Pokémon
    Center; it turns over every chip it finds and tries to catch it with its strongest Poké
    Ball; it accepts a trade offered to it only when the trade gains it Power Points; at the
    hand limit it discards its least useful card (Attack Bonus cards last). Where it comes
    to its move, a challenge or a trade of its own, it picks uniformly."""
    by_type: dict[str, list[Any]] = {}
    for a in actions:
        by_type.setdefault(a.type, []).append(a)
    revives = [a for a in actions if a.type in ("use", "revive") and a.args.get("item") != "fly"
               and a.input and a.input.get("arg") == "chip"]
    if revives:
        a = revives[0]
        chip = max((o["value"] for o in a.input["options"]),
                   key=lambda c: mt_strength(state, a.actor, c))
        return Command(a.actor, a.type, {**a.args, "chip": chip})
    battle = state.battle
    if "fight" in by_type:
        a = rnd.choice(by_type["fight"])
        spec = a.input
        chip = max((o["value"] for o in spec["options"]),
                   key=lambda c: mt_strength(state, a.actor, c))
        cards = [c for c in BONUS for _ in range(spec["bonus"]["cards"].count(c))]
        bonus = cards[:spec["bonus"]["max"]] if battle is not None and battle.kind == "final" \
            else []
        return Command(a.actor, "fight", {"chip": chip, "bonus": bonus})
    if "keep" in by_type:
        if battle is not None and state.dice is not None and state.dice.purpose in (
                "battle", "final"):
            for a in by_type.get("time_machine", ()):
                if a.args["target"] == a.actor and mt_losing(state, a.actor):
                    return Command(a.actor, "time_machine",
                                   {"target": a.actor, "dice": [rnd.randint(1, 6)]})
        a = by_type["keep"][0]
        return Command(a.actor, "keep", {})
    if "reveal" in by_type or "catch" in by_type:  # turn the chip over and try to catch it
        a = (by_type.get("reveal") or by_type["catch"])[0]
        spec = a.input
        if a.type == "reveal":
            if spec.get("optional"):  # the companion turns over a face-down chip
                return Command(a.actor, "reveal", {})
            if not spec["options"]:
                return Command(a.actor, "skip", {})
            return Command(a.actor, "reveal", {"chip": rnd.choice(spec["options"])["value"]})
        return Command(a.actor, "catch", {"ball": spec["options"][-1]["value"]})
    if "offer" == getattr(state.prompt, "kind", "") and "accept" in by_type:
        offer = state.offer  # a trade offered to it: accepted when it gains Power Points
        a = by_type["accept"][0]
        data = mt_base.data_of(state)
        gain = data.chips[offer.give].power - data.chips[offer.take].power
        return Command(a.actor, "accept" if gain > 0 else "decline", {})
    if "discard" in by_type:
        a = by_type["discard"][0]
        held = [o["value"] for o in a.input["options"]]
        rest = [c for c in held if c not in BONUS]
        card = rnd.choice(rest) if rest else next(c for c in reversed(BONUS) if c in held)
        return Command(a.actor, "discard", {"item": card})
    return random_command(rnd, actions)


def mt_losing(state: Any, pid: str) -> bool:
    """Whether ``pid``'s die, as rolled, loses (or ties) the battle being fought."""
    rules: Any = find_edition("master-trainer")
    b, rolls = state.battle, state.dice.rolls
    mine, _ = rules.side_total(state, pid, rolls[pid])
    other = b.defender if pid == b.challenger else b.challenger
    if b.kind == "final":
        theirs, _ = rules.master_total(state, rolls[other])
    else:
        theirs, _ = rules.side_total(state, other, rolls[other])
    return bool(mine <= theirs)


def game_setup(seed: int, players: int, edition: str) -> GameSetup:
    names = ["Mario", "Luigi", "Peach", "Toad", "Yoshi", "DK"][:players]
    return GameSetup.from_json({"edition": edition, "players": names, "dice": "physical",
                                "seed": seed})


def next_move(rnd: random.Random, state: Any, edition: str,
              ) -> tuple[Command, list[Event], Any] | None:
    """The bench player's next command (Master Trainer's by :func:`mt_command`, every other
    edition's by :func:`random_command`), its events and the state after it; None when no
    offered action could be filled in."""
    actions = game.legal_actions(state)
    for _ in range(8):  # an offered action whose arguments the picker cannot fill
        command = (mt_command(rnd, state, actions) if edition == "master-trainer"
                   else random_command(rnd, actions))
        try:
            new, after = game.step(state, command)
            return command, new, after
        except RuleError:
            actions = [a for a in actions if a.type != command.type] or actions
    return None


def random_game(seed: int, players: int = 4, max_commands: int = 5000,
                edition: str = "mario", played: list[Command] | None = None,
                ) -> tuple[list[Event], int]:
    """A random legal game to its end (:func:`next_move` each command); returns the events
    and the number of commands decided, which ``played`` gets too."""
    rnd = random.Random(seed)
    setup = game_setup(seed, players, edition)
    events = game.new_game(setup)
    state = game.replay(events)
    n = 0
    while not state.finished and n < max_commands:
        found = next_move(rnd, state, edition)
        if found is None:
            break
        command, new, state = found
        events += new
        n += 1
        if played is not None:
            played.append(command)
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


def bench_views(edition: str, seed: int = 1001, commands: int = 1500) -> tuple[float, int, int]:
    """Every phone's view of each state of a random 4-player game (up to ``commands``
    commands): µs per state, views per state, states. An edition that shows every viewer
    the same view builds one (the page server shares it); one with hidden hands (Master
    Trainer) builds one per seat, the spectators', the banker's and the whole table's."""
    played: list[Command] = []
    random_game(seed, 4, edition=edition, played=played, max_commands=commands)
    state = game.replay(game.new_game(game_setup(seed, 4, edition)))
    per_viewer = getattr(find_edition(edition), "view_per_viewer", True)
    seats = [p.id for p in state.setup.players]
    viewers = [*seats, "", BANKER, None] if per_viewer else [None]
    spent = 0.0
    for command in played:
        _, state = game.step(state, command)
        t = time.process_time()
        for viewer in viewers:
            game.view(state, viewer)
        spent += time.process_time() - t
    return spent / max(1, len(played)) * 1e6, len(viewers), len(played)


def bench_service(commands: int) -> tuple[float, float, float, float]:
    """Commands per second through the service, each committed (synchronous=FULL), and one
    command's p50 and p99 in ms, submitted as a phone's move is (``submit``, answered once
    decided, committed and published): p50 and p99 at a table's pace (the writer idle
    when the command comes, as moves seconds apart find it), then the p99 back to back (each
    command also waits for the previous one's housekeeping: snapshot, checkpoint)."""
    paced: list[float] = []
    rushed: list[float] = []
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
                command = random_command(rnd, game.legal_actions(state))
                at_table = done % 2 == 0
                if at_table:
                    svc.call(lambda: None)  # the writer idle: the last move's work is done
                t0 = time.perf_counter()
                submit_later = getattr(svc, "submit_later", None)  # a baseline's fast path
                later = submit_later(gid, command) if submit_later else None
                out = later.result() if later is not None else svc.submit(gid, command)
                (paced if at_table else rushed).append(time.perf_counter() - t0)
                assert out.ok, out.error
                done += 1
        elapsed = time.perf_counter() - t
        svc.stop()
    paced.sort()
    rushed.sort()
    return (commands / elapsed, pct_ms(paced, 50), pct_ms(paced, 99), pct_ms(rushed, 99))


def pct_ms(ascending: list[float], p: float) -> float:
    """The nearest-rank percentile ``p`` of seconds, in ms."""
    n = len(ascending)
    return ascending[min(n - 1, max(0, math.ceil(n * p / 100) - 1))] * 1000


GAME_CAP = 20_000
"""Commands after which a bench game is stopped unfinished. Every Master Trainer game of the
bench ends within it (the longest of 40 at 7,108 commands); four of 40 4-player Mario games
never end under random play (docs/architecture.md, "Mario's capped games")."""


@dataclass
class GamesFigures:
    """``bench_games``' figures, all over the games that ended (the full games)."""

    games: int
    ended: int
    commands: float
    """Commands per full game."""
    gps: float
    """Full games per second by the clock, the bot's picking included."""
    cpu_gps: float
    """The same in CPU time."""
    engine_gps: float
    """Full games per second of the engine alone, in CPU time."""
    lost: int
    """Final Battles lost in all (Master Trainer)."""


def bench_games(n: int, players: int = 4, edition: str = "mario") -> GamesFigures:
    """``n`` random games, each to its end or to ``GAME_CAP`` commands, timed one by one:
    games per second by the clock and in CPU time, and of the engine alone in CPU time (the
    same games' commands again, each with the legal actions a table lists and
    ``game.step``, the bot's picking left out: ``profile_engine.play``). The figures are
    over the games that ended, the only full games; a game stopped at the cap is counted
    apart. One untimed game first: the edition's first load (imports, data files, checks) is
    paid once per start, not per game."""
    random_game(999, players=players, edition=edition)
    wall = cpu = engine = 0.0
    commands = ended = lost = 0
    for seed in range(n):
        played: list[Command] = []
        t, c = time.perf_counter(), time.process_time()
        events, count = random_game(1000 + seed, players=players, edition=edition,
                                    max_commands=GAME_CAP, played=played)
        t, c = time.perf_counter() - t, time.process_time() - c
        if not any(e.type.split("@", 1)[0] == "finished" for e in events[-3:]):
            continue
        start = time.process_time()
        play(game_setup(1000 + seed, players, edition), played)
        engine += time.process_time() - start
        wall, cpu, commands, ended = wall + t, cpu + c, commands + count, ended + 1
        lost += sum(e.cite == "final-lose" for e in events)
    if not ended:
        return GamesFigures(n, 0, 0.0, 0.0, 0.0, 0.0, lost)
    return GamesFigures(n, ended, commands / ended, ended / wall, ended / cpu,
                        ended / engine, lost)


def settle(editions: list[str], python_gc: bool) -> None:
    """Run the engine as the server runs it: every edition loaded, then the garbage
    collector settled as the server settles it once started (``web.process_tuning``: what
    exists frozen out of its reach, young collections every 5,000 allocations). A young
    collection every 700 allocations, Python's default, costs a move about a tenth more;
    ``--python-gc`` keeps that default."""
    for edition in dict.fromkeys(["mario", *editions]):
        if edition in known():  # an unknown name gets its own line below
            game.new_game(game_setup(999, 4, edition))
    if python_gc:
        print("garbage collection: Python's defaults (--python-gc)")
        return
    settle_garbage()
    print("garbage collection: the server's settings (web.process_tuning.settle_garbage)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--commands", type=int, default=1000)
    parser.add_argument("--editions", default=",".join(known()),
                        help="comma-separated editions for the 4-player figures")
    parser.add_argument("--baseline", help="another checkout to measure alternately with this one")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--python-gc", action="store_true",
                        help="Python's default garbage collection, not the server's settings")
    parser.add_argument("--budgets", action="store_true",
                        help="only the replay and the committed command, as one JSON line "
                             "(bench_web.py --compare)")
    args = parser.parse_args()
    if args.budgets:
        settle(args.editions.split(",")[:1], args.python_gc)
        ms, count = bench_replay()
        _, p50, p99, _ = bench_service(args.commands)
        print(json.dumps({"replay_ms": round(ms, 1), "replay_events": count,
                          "command_p50_ms": round(p50, 2), "command_p99_ms": round(p99, 2)}))
        return
    if args.baseline:
        alternate(args)
        return
    settle(args.editions.split(","), args.python_gc)
    ms, count = bench_replay()
    print(f"replay of a {count}-event game: {ms:.1f} ms (budget <= 50 ms)")
    cps, p50, p99, rushed = bench_service(args.commands)
    print(f"commands through the service, committed each (synchronous=FULL): {cps:.0f}/s, "
          f"one phone's command at a table's pace p50 {p50:.2f} ms, p99 {p99:.2f} ms (budget: "
          f"p99 <= 2 ms); back to back p99 {rushed:.2f} ms")
    for edition in args.editions.split(","):
        us, views, states = bench_views(edition)
        print(f"views of {edition}: {us:.0f} us per state for {views} view(s) "
              f"(every phone's; {states} states of a 4-player game, CPU time)")
    two = bench_games(args.games, 2)
    print(f"random full mario games (2 players): {two.gps:.1f} games/s, {two.commands:.0f} "
          f"commands per game on average, {two.gps * two.commands:.0f} commands/s "
          f"({two.ended} of {two.games} ended within {GAME_CAP:,} commands)")
    for edition in args.editions.split(","):
        try:
            f = bench_games(args.games, 4, edition)
        except Exception as exc:  # an edition being rewritten must not hide the others
            print(f"random full {edition} games (4 players): failed: {exc!r}")
            continue
        if not f.ended:
            print(f"random full {edition} games (4 players): none of {f.games} ended within "
                  f"{GAME_CAP:,} commands")
            continue
        verdict = "meets" if f.engine_gps >= 20 else "below"
        apart = "" if f.ended == f.games else (
            f"; {f.games - f.ended} more did not end within {GAME_CAP:,} commands and are "
            "left out")
        print(f"random full {edition} games (4 players), over the {f.ended} of {f.games} that "
              f"ended{apart}: {f.gps:.1f} games/s, {f.commands:.0f} commands per game on "
              f"average, {1e6 / (f.gps * f.commands):.0f} us per command (CPU time "
              f"{f.cpu_gps:.1f} games/s, {1e6 / (f.cpu_gps * f.commands):.0f} us per command "
              f"with the bot's picking; the engine alone {f.engine_gps:.1f} games/s, "
              f"{1e6 / (f.engine_gps * f.commands):.0f} us per command: {verdict} against "
              "the target of >= 20 games/s)", flush=True)
        if edition == "master-trainer":
            print(f"  master-trainer: played by mt_command (plays to win where a real player "
                  f"obviously would); {f.lost / f.ended:.1f} Final Battles lost per full "
                  "game", flush=True)


def alternate(args: argparse.Namespace) -> None:
    """This checkout's code and ``args.baseline``'s in turn, ``args.rounds`` times, each in a
    fresh process running this script (its own imports and caches), printing each run's lines
    under its name."""
    here = Path(__file__).resolve().parent.parent
    there = Path(args.baseline).resolve()
    flags = ["--games", str(args.games), "--commands", str(args.commands),
             "--editions", args.editions, *(["--python-gc"] if args.python_gc else [])]
    for n in range(1, args.rounds + 1):
        for name, root in (("this checkout", here), (f"baseline {there}", there)):
            print(f"-- round {n}, {name}", flush=True)
            env = {**os.environ, "PYTHONPATH": str(root)}
            subprocess.run([sys.executable, __file__, *flags], cwd=root, env=env, check=True)


if __name__ == "__main__":
    main()
