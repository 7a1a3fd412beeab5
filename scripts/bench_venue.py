"""Benchmark a venue: 20 tables of four on a real Mosquitto, and what publishing costs a table.

    .venv/bin/python scripts/bench_venue.py                  # 20 tables, one JSON line
    .venv/bin/python scripts/bench_venue.py --tables 40 --pace 0.5

Delay: each table (its own GameService and SQLite file, in this process) plays a four-player
example script with ``--pace`` seconds between its commands; for every event, the time from
its commit timestamp to the moment the venue screen's board shows it (after the broker, the
screen's MQTT client and its ordering), nearest-rank p50/p99/max.

Table cost: one table playing the same scripts in a child process with and without the
publisher (to a live broker), the process's CPU seconds (user+sys) and its resident memory
at the end; the difference is what ``[venue]`` adds to a companion.
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "venue"))
sys.path.insert(0, str(ROOT))

from venue_helpers import (  # type: ignore[import-not-found]  # noqa: E402
    FOUR_PLAYERS,
    SCREEN_PASSWORD,
    Broker,
    SimTable,
    caught_up,
    run_all,
    wait_until,
)

from companion.venue.board import Board  # noqa: E402
from companion.venue.subscriber import ScreenSubscriber  # noqa: E402


def log(*a: Any) -> None:
    print(*a, file=sys.stderr, flush=True)


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[max(0, math.ceil(p / 100 * len(s)) - 1)]


class TimedBoard(Board):
    """The screen's board, noting when each event is shown."""

    def __init__(self) -> None:
        super().__init__()
        self.shown_at: dict[tuple[str, str, int], float] = {}

    def _note(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "log":
            self.shown_at[(data["key"], data["game"], data["line"]["seq"])] = time.time()
        super()._note(kind, data)


def users(n: int) -> dict[str, str]:
    return {"screen": SCREEN_PASSWORD, **{f"t{i:02d}": f"pw-t{i:02d}" for i in range(1, n + 1)}}


def paced(pace: float) -> Any:
    def play(t: SimTable) -> None:
        while t.done < len(t.steps):
            t.play(t.done + 1)
            if pace:
                time.sleep(pace)
    return play


def delay(n: int, pace: float, work: Path) -> dict[str, Any]:
    (work / "broker").mkdir()
    broker = Broker(work / "broker", users(n))
    broker.start()
    board = TimedBoard()
    sub = ScreenSubscriber(board, "127.0.0.1", broker.port, venue="cafe", username="screen",
                           password=SCREEN_PASSWORD, client_id="bench-screen").start()
    wait_until(sub.connected.is_set)
    tables = [SimTable(work, f"t{i:02d}", broker.port,
                       ROOT / "examples" / FOUR_PLAYERS[(i - 1) % len(FOUR_PLAYERS)])
              for i in range(1, n + 1)]
    try:
        for t in tables:
            t.begin()
        started = time.monotonic()
        run_all(tables, paced(pace))
        played = time.monotonic() - started
        wait_until(lambda: caught_up(board, tables), timeout=600, every=0.5)
        delays = []
        for t in tables:
            for r in t.service.call(t.service.store.rows, t.game_id):
                delays.append(board.shown_at[(t.key, t.game_id, r.seq)] - r.time)
        commands = sum(t.done for t in tables)
        return {"tables": n, "players_per_table": 4, "pace_s": pace, "commands": commands,
                "events": len(delays), "play_seconds": round(played, 2),
                "delay_ms": {"p50": round(pct(delays, 50) * 1000, 1),
                             "p99": round(pct(delays, 99) * 1000, 1),
                             "max": round(max(delays) * 1000, 1)}}
    finally:
        for t in tables:
            t.close()
        sub.stop()
        broker.stop()


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def child(mode: str, port: int, rounds: int, work: Path) -> None:
    """One table playing every four-player script ``rounds`` times (in a child process)."""
    from companion.service.game_service import GameService
    from companion.venue.publisher import VenuePublisher
    from companion.venue.settings import VenueSettings

    scripts = [json.loads((ROOT / "examples" / s).read_text()) for s in FOUR_PLAYERS]
    service = GameService(work).start()
    publisher = None
    if mode == "with":
        publisher = VenuePublisher(service, VenueSettings(
            broker="127.0.0.1", port=port, venue="cafe", table="t01", username="t01",
            password="pw-t01")).start()
        wait_until(publisher.connected.is_set)
    from companion.service.script import parse_step

    before = resource.getrusage(resource.RUSAGE_SELF)
    commands = 0
    for _ in range(rounds):
        for data in scripts:
            setup = {k: v for k, v in data.items() if k != "steps"}
            gid = service.create_game(setup).game_id
            for step in data["steps"]:
                out = service.submit(gid, parse_step(service.state(gid)[1], step))
                assert out.ok, out.error
                commands += 1
    if publisher is not None:
        wait_until(lambda: publisher.owed() == 0, timeout=600)
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(json.dumps({"cpu_s": cpu, "rss_kb": rss_kb(), "commands": commands}))
    if publisher is not None:
        publisher.stop()
    service.stop()


def table_cost(rounds: int, work: Path) -> dict[str, Any]:
    (work / "cost-broker").mkdir()
    broker = Broker(work / "cost-broker", users(1))
    broker.start()
    try:
        out: dict[str, Any] = {}
        for mode in ("without", "with"):
            res = subprocess.run([sys.executable, __file__, "--child", mode, "--port",
                                  str(broker.port), "--rounds", str(rounds), "--work",
                                  str(work / f"cost-{mode}")], capture_output=True, text=True)
            if res.returncode:
                log(res.stderr)
                raise SystemExit(f"the table-cost child ({mode}) failed")
            out[mode] = json.loads(res.stdout.strip().splitlines()[-1])
        w, wo = out["with"], out["without"]
        return {"commands": w["commands"], "cpu_s_without": round(wo["cpu_s"], 3),
                "cpu_s_with": round(w["cpu_s"], 3),
                "extra_cpu_ms_per_command": round((w["cpu_s"] - wo["cpu_s"]) * 1000
                                                  / w["commands"], 3),
                "extra_cpu_percent": round(100 * (w["cpu_s"] - wo["cpu_s"]) / wo["cpu_s"], 1),
                "rss_mb_without": round(wo["rss_kb"] / 1024, 1),
                "rss_mb_with": round(w["rss_kb"] / 1024, 1),
                "extra_rss_mb": round((w["rss_kb"] - wo["rss_kb"]) / 1024, 1)}
    finally:
        broker.stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--pace", type=float, default=0.1,
                    help="seconds between one table's commands (0: as fast as it can)")
    ap.add_argument("--rounds", type=int, default=3, help="script rounds for the table cost")
    ap.add_argument("--child", choices=["with", "without"], help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.port, args.rounds, args.work)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        log(f"{args.tables} tables, a command every {args.pace}s per table ...")
        result: dict[str, Any] = {"delay": delay(args.tables, args.pace, work)}
        log(json.dumps(result["delay"]))
        log("one table with and without the publisher ...")
        result["table_cost"] = table_cost(args.rounds, work)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
