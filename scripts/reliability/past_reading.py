"""Issue 38's attacks on the past: a guest cycling the replays of long finished games while
the banker moves (``replays``), and a forged export line that asked for gigabytes
(``widths``)."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from past_attack import EVENTS, GAMES, ReplayCycler, finished_games

from reliability.harness import Phone, Refused, Result, Server, new_game, transfer

START = 300


def _move_ms(banker: Phone, game: str, rnd: random.Random) -> tuple[int, float]:
    """One banker transfer: its status and how long its answer took (ms)."""
    view = banker.view(game)
    cmd = transfer(view, rnd)
    assert cmd is not None
    t0 = time.perf_counter()
    status, _ = banker.command(game, cmd["actor"], cmd["type"], cmd["args"],
                               version=view["version"])
    return status, (time.perf_counter() - t0) * 1000


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, max(0, int(p * len(ordered) + 0.5) - 1))], 1)


def run_replay_cycling(work: Path, games: int = GAMES, events: int = EVENTS,
                       moves: int = 60, seed: int = 38) -> Result:
    """``games`` finished games of ``events`` events; a stranger (no code, no PIN) asks for
    the household's past; then a guest who joined tonight's game cycles their replays on 3
    threads while the banker makes ``moves`` moves (and as many before, quiet)."""
    rnd = random.Random(seed)
    t0 = time.monotonic()
    past = finished_games(work / "state", games, events)
    made_s = time.monotonic() - t0
    srv = Server(work / "state").start(timeout=START)
    try:
        with Phone(srv.url) as banker, Phone(srv.url) as stranger, Phone(srv.url) as guest:
            banker.login()
            game, code, _ = new_game(banker, 2, seed=seed)
            refused = 0
            for path in ("/api/history", f"/api/games/{past[0]}/story",
                         f"/api/games/{past[0]}/replay"):
                try:
                    stranger.get(path)
                except Refused as exc:
                    refused += exc.status == 403
            guest.join(code)
            quiet = [_move_ms(banker, game, rnd) for _ in range(moves)]
            rss_quiet = srv.rss_kb()
            peak = [rss_quiet]
            watching = threading.Event()

            def watch() -> None:
                while not watching.wait(0.2):
                    peak.append(srv.rss_kb())

            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            with ReplayCycler(srv.url, past, guest.client.cookies, threads=3) as attack:
                time.sleep(1.0)  # the replays are being rebuilt
                loud = [_move_ms(banker, game, rnd) for _ in range(moves)]
            watching.set()
            watcher.join()
    finally:
        srv.stop()
    ok_moves = sum(s == 200 for s, _ in quiet + loud)
    quiet_ms, loud_ms = [ms for _, ms in quiet], [ms for _, ms in loud]
    grew_mb = (max(peak) - rss_quiet) / 1024
    figures: dict[str, Any] = {
        f"{games} finished games of {events:,} events made in (s)": round(made_s, 1),
        "stranger's reads of the past refused 403": f"{refused} of 3",
        "banker moves answered 200": f"{ok_moves} of {2 * moves}",
        "move p50 / p99 quiet (ms)": f"{_pct(quiet_ms, 0.5)} / {_pct(quiet_ms, 0.99)}",
        "move p50 / p99 with replays cycling (ms)": f"{_pct(loud_ms, 0.5)} / "
                                                    f"{_pct(loud_ms, 0.99)}",
        "VmRSS quiet / peak under the attack (MB)": f"{rss_quiet / 1024:.1f} / "
                                                    f"{max(peak) / 1024:.1f}",
        **attack.figures(),
    }
    ok = (refused == 3 and ok_moves == 2 * moves and attack.answers[200] > 0
          and grew_mb < 40
          and _pct(loud_ms, 0.5) <= 5 * _pct(quiet_ms, 0.5) + 20)
    return Result("replays of the past cycled by a guest: moves not slowed", ok, figures)


def _forge(head: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    lines = [json.dumps(r) for r in rows]
    digest = hashlib.sha256("".join(line + "\n" for line in lines).encode()).hexdigest()
    return "\n".join([json.dumps({**head, "events": len(lines), "version": rows[-1]["seq"],
                                  "sha256": digest}), *lines]) + "\n"


def _import_child(path: Path, state: Path, *extra: str) -> tuple[int, str, int, float]:
    """``companion import`` in a child: exit code, stderr, peak RSS (kB), seconds."""
    t0 = time.monotonic()
    child = subprocess.Popen([sys.executable, "-m", "companion.app.cli", "import", str(path),
                              "--state-dir", str(state), *extra],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert child.stderr is not None
    with child.stderr:
        err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return child.returncode, err, usage.ru_maxrss, time.monotonic() - t0


def run_forged_width(work: Path) -> Result:
    """A real export with its first line's message given a format width of 10**9 (and
    recomputed hash), imported checked and ``--unchecked``; an ``--unchecked`` export with a
    NaN amount; then the clean export, for its memory."""
    from companion.service.game_service import GameService

    root = Path(__file__).resolve().parents[2]
    with GameService(work / "home") as service:
        script = json.loads((root / "examples" / "mario-two-players.json").read_text())
        from companion.service.script import parse_step

        gid = service.create_game({k: v for k, v in script.items() if k != "steps"}).game_id
        for step in script["steps"]:
            cmd = parse_step(service.state(gid)[1], step)
            service.submit(gid, {"actor": cmd.actor, "type": cmd.type, "args": cmd.args})
        lines = list(service.export(gid))
    head, rows = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    wide = json.loads(json.dumps(rows))
    say = json.loads(wide[0]["say"])
    say["msg"] = say["msg"].replace("{title}", "{title:>1000000000}")
    wide[0]["say"] = json.dumps(say)
    nan = [{k: v for k, v in r.items() if k != "command"} for r in rows]
    paid = next(r for r in nan if r["type"] == "money_paid")
    paid["data"]["amount"] = float("nan")
    files = {"width 10**9": (_forge(head, wide), ()),
             "width 10**9, --unchecked": (_forge(head, wide), ("--unchecked",)),
             "NaN amount, --unchecked": (_forge(head, nan), ("--unchecked",)),
             "the clean export": ("\n".join(lines) + "\n", ())}
    figures: dict[str, Any] = {}
    ok = True
    for n, (name, (text, extra)) in enumerate(files.items()):
        path = work / f"export-{n}.jsonl"
        path.write_text(text)
        state = work / f"state-{n}"
        code, err, peak_kb, took = _import_child(path, state, *extra)
        clean = name == "the clean export"
        with GameService(state) as service:
            listed = len(service.games())
        figures[name] = (f"exit {code}, {peak_kb / 1024:.0f} MB peak, {took:.1f} s, "
                         f"{listed} game(s) listed" + ("" if clean else f": {err.strip()[:140]}"))
        if clean:
            ok = ok and code == 0 and listed == 1
        else:
            ok = ok and (code == 2 and "Traceback" not in err and listed == 0
                         and peak_kb < 150_000 and "Nothing was imported" in err)
    return Result("forged export lines refused early, with little memory", ok, figures)
