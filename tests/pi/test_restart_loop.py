"""A box that cannot start, restarted by systemd all night: each failed start writes little to
the SD card, says why, and the tries come less and less often even on systemd 252 (Raspberry
Pi OS Bookworm), which ignores the unit's RestartSteps."""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion.platform import start_backoff

ROOT = Path(__file__).resolve().parents[2]
COMPANION = Path(sys.executable).with_name("companion")


def _start(state: Path, port: int) -> tuple[subprocess.CompletedProcess[str], int]:
    """``companion run`` once; its result and the bytes it wrote to storage."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_oublock
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET",
                                                             "RUNTIME_DIRECTORY")}
    done = subprocess.run([str(COMPANION), "run", "--simulate", "--no-mdns", "--host",
                           "127.0.0.1", "--port", str(port), "--pin", "73915286",
                           "--state-dir", str(state)], capture_output=True, text=True,
                          timeout=300, env=env)
    return done, (resource.getrusage(resource.RUSAGE_CHILDREN).ru_oublock - before) * 512


def test_a_start_that_fails_writes_little_and_says_why(tmp_path: Path) -> None:
    """Another program holds the port: every start fails after opening the games. It wrote
    4.4-5.4 MB each time (the write-ahead log grown ahead of the first move)."""
    if not COMPANION.exists():
        pytest.skip("the companion command is not installed in this environment")
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = int(holder.getsockname()[1])
        _start(tmp_path, port)  # the first start makes the database
        for _ in range(2):
            done, wrote = _start(tmp_path, port)
            assert done.returncode == 1
            assert wrote < 100_000, f"a failed start wrote {wrote} bytes"
            said = done.stdout + done.stderr
            assert f"port {port}" in said and "another program" in said, said
            assert "Traceback" not in said, said


def _listen(tmp_path: Path) -> tuple[socket.socket, str]:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify")
    sock.bind(path)
    sock.settimeout(5)
    return sock, path


def test_failed_starts_in_a_row_wait_longer_up_to_five_minutes(tmp_path: Path) -> None:
    runtime = tmp_path / "run"
    runtime.mkdir()
    systemd, address = _listen(tmp_path)
    env = {"RUNTIME_DIRECTORY": str(runtime), "NOTIFY_SOCKET": address}
    waited: list[float] = []
    for _ in range(9):
        assert start_backoff.run(lambda: 1, env, waited.append) == 1
    # with systemd's own 5 s: 5, 10, 20, 40, 80, 160, 300, 300, 300 s between tries
    assert waited == [5, 15, 35, 75, 155, 295, 295, 295]
    said = systemd.recv(4096).decode()
    assert "EXTEND_TIMEOUT_USEC=35000000" in said, "systemd waits for the start meanwhile"
    with pytest.raises(RuntimeError):  # a crash counts as a failed start too
        start_backoff.run(lambda: (_ for _ in ()).throw(RuntimeError("boom")), env,
                          waited.append)
    assert waited[-1] == 295

    def serves() -> int:
        start_backoff.started(env)
        return 1  # it served, then failed: the next failure is a first one again
    start_backoff.run(serves, env, waited.append)
    assert len(waited) == 9
    start_backoff.run(lambda: 1, env, waited.append)
    assert waited[-1] == 5
    systemd.close()


def test_away_from_systemd_a_failed_start_exits_at_once(tmp_path: Path) -> None:
    waited: list[float] = []
    for _ in range(3):
        start_backoff.run(lambda: 1, {}, waited.append)
    assert waited == []
