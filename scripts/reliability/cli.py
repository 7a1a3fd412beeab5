"""Run the whole suite (or some of it) and print a summary of the figures."""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from reliability.attacks import (
    run_clock_jumps,
    run_pin_flood,
    run_request_hijack,
    run_seat_key_reuse,
)
from reliability.background import ATTACKS, run_attack
from reliability.damaged_start import run_damaged
from reliability.faults import run_faults
from reliability.guard import run_bounds, run_lockout, run_slow
from reliability.guests import (
    run_approve_cut,
    run_code_flood,
    run_half_close,
    run_seat_flood,
    run_short_pin,
    run_slow_bodies,
)
from reliability.harness import Result
from reliability.memory import run_memory
from reliability.past_reading import run_forged_width, run_replay_cycling
from reliability.powercut import run_powercut
from reliability.races import run_races, run_retries
from reliability.restart import run_restart
from reliability.restore_running import run_restore_running
from reliability.soak import run_soak
from reliability.storage import run_deleted, run_forged, run_shm
from reliability.streams import run_churn, run_slots


def scenarios(quick: bool, soak_seconds: float | None,
              kills: int | None) -> dict[str, Callable[[Path], Result]]:
    q = quick
    return {
        "powercut": lambda w: run_powercut(w, kills=kills or (20 if q else 200)),
        "races": lambda w: run_races(w / "races", rounds=10 if q else 40),
        "retries": lambda w: run_retries(w / "retries", rounds=4 if q else 10),
        "soak": lambda w: run_soak(w, seconds=soak_seconds or (15 if q else 60)),
        "restart": lambda w: run_restart(w, restarts=3 if q else 8),
        "memory": lambda w: run_memory(w, commands=1000 if q else 3000),
        "faults": run_faults,
        "slow": lambda w: run_slow(w, spectators=100 if q else 200),
        "bounds": run_bounds,
        "lockout": run_lockout,
        "restore": lambda w: run_restore_running(w, attempts=3 if q else 5),
        "damaged": run_damaged,
        "slots": lambda w: run_slots(w, streams=300 if q else 600),
        "churn": lambda w: run_churn(w, streams=3000 if q else 24000),
        "deleted": run_deleted,
        "shm": run_shm,
        "forged": lambda w: run_forged(w / "forged", big=30_000 if q else 300_000),
        "pinflood": lambda w: run_pin_flood(w, seconds=15 if q else 75),
        "seatkey": run_seat_key_reuse,
        "hijack": run_request_hijack,
        "clock": run_clock_jumps,
        "replays": lambda w: run_replay_cycling(w, moves=30 if q else 60),
        "widths": run_forged_width,
        "slowbody": lambda w: run_slow_bodies(w, seconds=15 if q else 40),
        "halfclose": run_half_close,
        "codeflood": lambda w: run_code_flood(w, seconds=20 if q else 60),
        "seatflood": run_seat_flood,
        "approvecut": lambda w: run_approve_cut(w, rounds=2 if q else 5),
        "shortpin": run_short_pin,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Board Companion reliability suite")
    parser.add_argument("--quick", action="store_true", help="short runs (about 2 minutes)")
    parser.add_argument("--only", default="", help="comma-separated: powercut, races, "
                        "retries, soak, restart, memory, faults, slow, bounds, lockout, "
                        "restore, damaged, slots, churn, deleted, shm, forged, "
                        "pinflood, seatkey, hijack, clock, replays, widths, slowbody, "
                        "halfclose, codeflood, seatflood, approvecut, shortpin")
    parser.add_argument("--soak-seconds", type=float, help="soak length (default 60, quick 15)")
    parser.add_argument("--kills", type=int, help="power cuts (default 200, quick 20)")
    parser.add_argument("--work", type=Path, help="keep state and journals here")
    parser.add_argument("--attack", default="", help="no scenarios: run these background "
                        f"attacks ({', '.join(ATTACKS)}) against --port on 127.0.0.1")
    parser.add_argument("--port", type=int, help="the server --attack attacks")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long --attack runs")
    args = parser.parse_args(argv)
    if args.attack:
        names = [n.strip() for n in args.attack.split(",") if n.strip()]
        if set(names) - set(ATTACKS) or not args.port:
            parser.error(f"--attack takes {', '.join(ATTACKS)} and needs --port")
        for k, v in run_attack(names, args.port, args.seconds).items():
            print(f"    {k}: {v}")
        return 0
    chosen = scenarios(args.quick, args.soak_seconds, args.kills)
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(chosen)
    unknown = set(names) - set(chosen)
    if unknown:
        parser.error(f"unknown scenario(s): {', '.join(sorted(unknown))}")
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="reliability-") as tmp:
        work = args.work or Path(tmp)
        for name in names:
            t0 = time.monotonic()
            try:
                result = chosen[name](work / name)
            except Exception as exc:  # one broken scenario must not hide the others
                result = Result(name, False, notes=[f"crashed: {exc!r}"])
            result.figures["took (s)"] = round(time.monotonic() - t0, 1)
            results.append(result)
            print("\n".join(result.lines()), flush=True)
    failed = [r.name for r in results if not r.ok]
    print(f"\nsummary: {len(results) - len(failed)} of {len(results)} scenarios held"
          + (f"; failed: {'; '.join(failed)}" if failed else ""))
    return 1 if failed else 0
