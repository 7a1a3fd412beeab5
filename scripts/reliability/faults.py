"""Bad input and faults: a missing config, a corrupt database, a full disk, an unplugged
reader. Each must give a clear message in the journal (stderr) and on the OLED, exit
non-zero where it cannot run, and lose nothing already acknowledged."""

from __future__ import annotations

import argparse
import logging
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from reliability.harness import Phone, Result, Server, new_game, pick
from reliability.powercut import Ack, check

PNG = b"\x89PNG\r\n\x1a\n"


def _run_cli(args: list[str], timeout: float = 30) -> tuple[int, str]:
    """``companion ARGS`` in a child: (exit code, stdout + stderr)."""
    proc = subprocess.run([sys.executable, "-m", "companion.app.cli", *args], capture_output=True,
                          text=True, timeout=timeout, check=False)
    return proc.returncode, proc.stdout + proc.stderr


@contextmanager
def in_process_runner(on_serve: Callable[[Any], None]) -> Iterator[dict[str, Any]]:
    """Run ``companion.app.runner.run_companion`` in this process with simulated hardware whose
    ``show_error`` texts are recorded (the OLED facade), ``on_serve(hardware)`` in place of
    the web server, and the ``companion`` log captured (the journal)."""
    import web.server
    from hardware.table import TableHardware

    seen: dict[str, Any] = {"oled": [], "journal": [], "hardware": None}
    original, original_serve = TableHardware.from_config, web.server.serve
    original_bound = web.server.serve_bound

    def spy(cls: Any, *args: Any, **kw: Any) -> Any:
        hw = original.__func__(cls, *args, **kw)  # type: ignore[attr-defined]
        show = hw.show_error

        def recorded(text: str) -> None:
            seen["oled"].append(text)
            show(text)

        hw.show_error = recorded
        seen["hardware"] = hw
        return hw

    class Journal(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen["journal"].append(record.getMessage())

    handler = Journal(logging.INFO)
    loggers = [logging.getLogger(name) for name in ("companion", "hardware")]
    old_levels, old_term = [lg.level for lg in loggers], signal.getsignal(signal.SIGTERM)
    for lg in loggers:
        lg.addHandler(handler)
        lg.setLevel(logging.INFO)
    TableHardware.from_config = classmethod(spy)  # type: ignore[method-assign, assignment]
    web.server.serve = lambda app, host, port, **kw: on_serve(seen["hardware"])

    def serve_bound(srv: Any) -> None:  # bound, never served
        try:
            on_serve(seen["hardware"])
        finally:
            srv.sock.close()

    web.server.serve_bound = serve_bound
    try:
        yield seen
    finally:
        TableHardware.from_config = original  # type: ignore[method-assign]
        web.server.serve = original_serve
        web.server.serve_bound = original_bound
        for lg, level in zip(loggers, old_levels, strict=True):
            lg.removeHandler(handler)
            lg.setLevel(level)
        signal.signal(signal.SIGTERM, old_term)


def _runner_args(state_dir: Path) -> argparse.Namespace:
    import socket

    with socket.socket() as free:  # port 0 would mean the default 8080, maybe taken
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    return argparse.Namespace(host="127.0.0.1", port=port, state_dir=state_dir, simulate=True,
                              pin="20461379", no_mdns=True, config=None)


def missing_config(work: Path) -> dict[str, Any]:
    code, out = _run_cli(["run", "--config", "/nonexistent/companion.toml", "--simulate",
                          "--no-mdns", "--port", "1", "--state-dir", str(work / "noconfig")])
    return {"exit": code, "message": out.strip().splitlines()[-1] if out.strip() else "",
            "ok": code != 0 and "does not exist" in out}


def corrupt_database(work: Path) -> dict[str, Any]:
    """A damaged file: the child exits non-zero saying how to recover; in-process the OLED
    shows it too; the file itself is left as it was (a backup can still be tried)."""
    state = work / "corrupt"
    state.mkdir(parents=True, exist_ok=True)
    junk = b"this is not a database " * 200
    (state / "companion.db").write_bytes(junk)
    code, out = _run_cli(["run", "--simulate", "--no-mdns", "--port", "1", "--state-dir",
                          str(state)])
    from companion.app.runner import run_companion

    with in_process_runner(lambda hw: None) as seen:
        in_code = run_companion({}, _runner_args(state))
    kept = (state / "companion.db").read_bytes() == junk
    message = next((line for line in out.splitlines() if "restore" in line), "")
    return {"exit": code, "message": message, "oled": seen["oled"][-1:],
            "file untouched": kept,
            "ok": code != 0 and in_code != 0 and bool(message) and kept
            and any("Database damaged" in t for t in seen["oled"])}


def unplugged_reader(work: Path) -> dict[str, Any]:
    """A reader stops answering while the companion runs (in-process, simulated hardware):
    the journal warns and the OLED says which reader."""
    from companion.app.runner import run_companion

    def serve(hw: Any) -> None:
        role, slot = next(iter(hw._slots.items()))
        slot.reader.fail_opens = 10**6  # it will not come back while the test runs
        slot.reader.close()  # unplugged: the next read fails
        end = time.monotonic() + 10
        while time.monotonic() < end and not seen["oled"]:
            time.sleep(0.05)
        seen["png"] = hw.frame_png()

    with in_process_runner(serve) as seen:
        code = run_companion({}, _runner_args(work / "unplug"))
    warned = [m for m in seen["journal"] if m.startswith("reader ") and "retrying" in m]
    return {"exit": code, "journal": warned[:1], "oled": seen["oled"][:1],
            "ok": bool(warned) and any("Reader" in t for t in seen["oled"])
            and seen.get("png", b"").startswith(PNG)}


def _mount_tmpfs(path: Path, size_kb: int) -> bool:
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return False
    res = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(path)],
                         capture_output=True, timeout=10, check=False)
    return res.returncode == 0


def _fill(path: Path, leave_kb: int) -> Path:
    """Take all but ``leave_kb`` of the file system's free space."""
    st = os.statvfs(path)
    free = st.f_bavail * st.f_frsize
    filler = path / "filler"
    with filler.open("wb") as fh:
        fh.write(b"\0" * max(0, free - leave_kb * 1024))
    return filler


def full_disk(work: Path, max_commands: int = 3000) -> dict[str, Any]:
    """``companion run`` with its state on a tiny tmpfs (root only), filled up: commands are
    refused with code ``storage`` and a clear message, the journal says so, and after
    space is freed the game goes on with every acknowledged command kept."""
    mount = work / "tinyfs"
    if not _mount_tmpfs(mount, 4096):
        return {"ok": None, "skipped": "mounting a tmpfs needs root; tests/service covers a "
                "full database with PRAGMA max_page_count"}
    rnd = random.Random(6)
    acks: list[Ack] = []
    refused: dict[str, Any] = {}
    srv = Server(mount / "state", log_dir=work / "tinyfs-logs")
    try:
        srv.start()
        with Phone(srv.url) as banker:
            banker.login()
            game, _, _ = new_game(banker, 4, seed=6)
            filler = _fill(mount, 48)
            for _ in range(max_commands):
                view = banker.view(game)
                cmd = pick(view, None, rnd)
                if cmd is None:
                    break
                key = f"f{rnd.getrandbits(60):x}"
                png_before = banker.client.get("/api/oled.png")
                status, body = banker.command(game, cmd["actor"], cmd["type"], cmd["args"],
                                              version=view["version"], key=key)
                if status == 200:
                    acks.append(Ack(game, key, body["version"], tuple(body["says"])))
                elif body.get("code") == "storage":
                    refused = {"status": status, **body}
                    break
            # the refusal on the OLED? It is drawn just after the phone has its answer, so
            # look as a player glancing at the box would: within a couple of seconds
            for _ in range(40):
                png_after = banker.client.get("/api/oled.png")
                if png_after.content != png_before.content:
                    break
                time.sleep(0.05)
            stuck = banker.view(game)["version"]
            filler.unlink()
            view = banker.view(game)
            cmd = pick(view, None, rnd) or {}
            status, body = banker.command(game, cmd.get("actor", ""), cmd.get("type", ""),
                                          cmd.get("args", {}), version=view["version"],
                                          key="after-free")
            if status == 200:
                acks.append(Ack(game, "after-free", body["version"], tuple(body["says"])))
        srv.kill()
        found = check(srv.state_dir, acks)
        journal = [line for line in srv.journal().splitlines() if "could not save" in line]
    finally:
        srv.kill()
        subprocess.run(["umount", "-l", str(mount)], capture_output=True, timeout=10,
                       check=False)
    oled_changed = png_after.content != png_before.content
    return {"acknowledged before full": len(acks) - (status == 200),
            "refused": {k: refused.get(k) for k in ("status", "code", "error")},
            "version unchanged while full": stuck == (acks[-2].version if status == 200
                                                      and len(acks) > 1 else stuck),
            "accepted after freeing space": status == 200, "journal": journal[:1],
            "OLED mirror is a PNG": png_after.content.startswith(PNG),
            "OLED changed on the refusal": oled_changed,
            "acknowledged lost": found["lost"], "integrity": found["integrity"],
            "ok": bool(refused) and "could not save" in str(refused.get("error"))
            and bool(journal) and status == 200 and found["lost"] == 0
            and found["integrity"] == "ok" and png_after.content.startswith(PNG),
            "oled_ok": oled_changed}


def run_faults(work: Path) -> Result:
    checks = {"missing config": missing_config, "corrupt database": corrupt_database,
              "unplugged reader": unplugged_reader, "full disk": full_disk}
    figures: dict[str, Any] = {}
    notes: list[str] = []
    ok = True
    for name, fn in checks.items():
        out = fn(work)
        verdict = out.pop("ok")
        if "oled_ok" in out:
            oled = out.pop("oled_ok")
            verdict = verdict and oled
            if not oled:
                notes.append(f"{name}: the OLED does not show the refusal of a phone's command")
        if verdict is None:
            notes.append(f"{name}: skipped, {out['skipped']}")
            continue
        ok &= bool(verdict)
        figures[name] = f"{'ok' if verdict else 'FAIL'} {out}"
    return Result("faults: clear messages, non-zero exits, nothing acknowledged lost", ok,
                  figures, notes)
