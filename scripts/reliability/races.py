"""Races and retries over HTTP: four phones buy the same location with the same version
(double sales must be 0), and one idempotency key sent many times, concurrently too, is
applied once."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

from reliability.harness import Phone, Result, Server, new_game, pick

CLIENTS = 4


def _owned(view: dict[str, Any]) -> int:
    return sum(1 for s in view["board"]["spaces"] if s.get("owner"))


def _at_once(fns: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released together by a barrier."""
    barrier = threading.Barrier(len(fns))

    def go(fn: Callable[[], Any]) -> Any:
        barrier.wait(timeout=10)
        return fn()

    with ThreadPoolExecutor(len(fns)) as pool:
        return list(pool.map(go, fns))


def _send_all(phones: list[Phone], game: str, cmd: dict[str, Any], version: int,
              keys: list[str]) -> list[tuple[int, Any]]:
    """Phone ``i % len(phones)`` sends ``cmd`` with ``keys[i]``, all released together."""
    def send(i: int) -> tuple[int, Any]:
        return phones[i % len(phones)].command(game, cmd["actor"], cmd["type"], cmd["args"],
                                               version=version, key=keys[i])

    return _at_once([partial(send, i) for i in range(len(keys))])


def _to_buy_prompt(banker: Phone, game: str, rnd: random.Random,
                   max_steps: int = 300) -> dict[str, Any] | None:
    """Play non-buy moves until someone may buy; the view then, or None (game over)."""
    for _ in range(max_steps):
        view = banker.view(game)
        if view.get("finished"):
            return None
        if any(a["type"] == "buy" for a in view["actions"]):
            return view
        cmd = pick(view, None, rnd, skip=frozenset({"end_game", "transfer", "propose_trade",
                                                    "buy"}))
        if cmd is None:
            return None
        banker.command(game, cmd["actor"], cmd["type"], cmd["args"], version=view["version"])
    return None


def run_races(state_dir: Path, rounds: int = 40, seed: int = 1,
              time_limit: float = 120) -> Result:
    """``rounds`` buy races, each between CLIENTS banker sessions sending the same version."""
    rnd = random.Random(seed)
    accepted_per_round: list[int] = []
    double = stale_ok = deeds_wrong = refused_409 = 0
    deadline = time.monotonic() + time_limit
    with Server(state_dir) as srv:
        phones = [Phone(srv.url).login() for _ in range(CLIENTS)]
        try:
            banker = phones[0]
            game, _, _ = new_game(banker, seed=seed)
            while len(accepted_per_round) < rounds and time.monotonic() < deadline:
                view = _to_buy_prompt(banker, game, rnd)
                if view is None:
                    game, _, _ = new_game(banker, seed=rnd.randrange(10**6))
                    continue
                buy = next(a for a in view["actions"] if a["type"] == "buy")
                cmd = {"actor": buy["actor"], "type": "buy", "args": {}}
                version, owned = view["version"], _owned(view)
                tag = rnd.getrandbits(40)
                answers = _send_all(phones, game, cmd, version,
                                    [f"r{tag:x}-{i}" for i in range(CLIENTS)])
                ok = sum(1 for status, _ in answers if status == 200)
                refused_409 += sum(1 for status, _ in answers if status == 409)
                accepted_per_round.append(ok)
                double += max(0, ok - 1)
                after = banker.view(game)
                deeds_wrong += _owned(after) != owned + (1 if ok else 0)
                # the same stale version again, all at once: nothing may be accepted
                again = _send_all(phones, game, cmd, version,
                                  [f"s{tag:x}-{i}" for i in range(CLIENTS)])
                stale_ok += sum(1 for status, _ in again if status == 200)
        finally:
            for p in phones:
                p.close()
    rounds_run = len(accepted_per_round)
    figures = {"rounds": rounds_run, "clients per round": CLIENTS,
               "double sales": double + stale_ok + deeds_wrong,
               "rounds with exactly one sale": sum(1 for n in accepted_per_round if n == 1),
               "refused as stale (409)": refused_409}
    ok = rounds_run > 0 and double == stale_ok == deeds_wrong == 0 and all(
        n == 1 for n in accepted_per_round)
    return Result("races: 4 phones buy one location with the same version", ok, figures)


def run_retries(state_dir: Path, rounds: int = 10, copies: int = 20, seed: int = 2,
                time_limit: float = 120) -> Result:
    """Each round: one command sent ``copies`` times in a row and ``copies`` times at once
    (four sessions), all with one idempotency key; it must be applied once."""
    rnd = random.Random(seed)
    applied_twice = wrong_answers = rounds_run = sent = 0
    deadline = time.monotonic() + time_limit
    with Server(state_dir) as srv:
        phones = [Phone(srv.url).login() for _ in range(CLIENTS)]
        try:
            banker = phones[0]
            game, _, _ = new_game(banker, seed=seed)
            while rounds_run < rounds and time.monotonic() < deadline:
                view = banker.view(game)
                cmd = None if view.get("finished") else pick(view, None, rnd)
                if cmd is None:
                    game, _, _ = new_game(banker, seed=rnd.randrange(10**6))
                    continue
                before = len(banker.get(f"/api/games/{game}/commands"))
                key = f"retry-{rnd.getrandbits(48):x}"
                answers = [banker.command(game, cmd["actor"], cmd["type"], cmd["args"],
                                          version=view["version"], key=key)
                           for _ in range(copies)]
                answers += _send_all(phones, game, cmd, view["version"], [key] * copies)
                sent += len(answers)
                first = answers[0]
                wrong_answers += sum(1 for a in answers
                                     if a[0] != first[0] or a[1].get("version")
                                     != first[1].get("version"))
                after = len(banker.get(f"/api/games/{game}/commands"))
                applied = after - before
                applied_twice += applied != (1 if first[0] == 200 else 0)
                rounds_run += 1
        finally:
            for p in phones:
                p.close()
    figures = {"rounds": rounds_run, "requests with one key per round": 2 * copies,
               "requests sent": sent, "rounds not applied exactly once": applied_twice,
               "answers differing from the first": wrong_answers}
    ok = rounds_run > 0 and applied_twice == wrong_answers == 0
    return Result("retries: one idempotency key sent many times, concurrently too", ok,
                  figures)
