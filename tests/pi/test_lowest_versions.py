"""The lowest versions pyproject.toml declares really work: each direct dependency at its
lower bound (the rest as the resolver picks them today, uv's "lowest-direct"), in a fresh
venv, runs a scripted game and serves the page through the real server."""

from __future__ import annotations

import importlib.metadata as md
import os
import re
import socket
import subprocess
import time
import tomllib
import urllib.error
import urllib.request
import venv
from pathlib import Path

import pytest
from packaging.requirements import Requirement

pytestmark = pytest.mark.long(2)

ROOT = Path(__file__).resolve().parent.parent.parent


def lowest_direct() -> list[str]:
    """``name==lower bound`` for each dependency that applies here."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = []
    for text in deps:
        req = Requirement(text)
        if req.marker is not None and not req.marker.evaluate():
            continue
        lower = [s.version for s in req.specifier if s.operator in (">=", "==")]
        assert lower, f"{text}: no lower bound"
        pins.append(f"{req.name}=={lower[0]}")
    return pins


def the_rest(direct: list[str]) -> list[str]:
    """Every package the direct ones pull in, at the version installed here."""
    names = {re.split("==", p)[0].lower().replace("_", "-") for p in direct}
    seen: dict[str, str] = {}
    todo = list(names)
    while todo:
        name = todo.pop()
        try:
            dist = md.distribution(name)
        except md.PackageNotFoundError:
            continue
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue
            key = req.name.lower().replace("_", "-")
            if key not in names and key not in seen:
                seen[key] = md.version(req.name)
                todo.append(key)
    return [f"{k}=={v}" for k, v in sorted(seen.items())]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch(url: str, server: subprocess.Popen[str]) -> bytes:
    """The body of a 200 answer, once the server listens (it prints its address first)."""
    while True:
        try:
            with urllib.request.urlopen(url, timeout=60) as resp:
                assert resp.status == 200
                return bytes(resp.read())
        except urllib.error.URLError as exc:
            if not isinstance(exc.reason, ConnectionRefusedError) or server.poll() is not None:
                raise
            time.sleep(0.2)


def test_the_lowest_declared_versions_play_and_serve(tmp_path: Path) -> None:
    direct = lowest_direct()
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", *direct,
                    *the_rest(direct)], check=True, timeout=600)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("JOURNAL_STREAM", None)
    play = subprocess.run(
        [str(py), "-m", "companion.app.cli", "play", "--script",
         str(ROOT / "examples" / "mario-two-players.json")],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert play.returncode == 0, play.stderr
    server = subprocess.Popen(
        [str(py), "-m", "companion.app.cli", "run", "--simulate", "--no-mdns", "--host",
         "127.0.0.1", "--port", str(free_port()), "--state-dir", str(tmp_path / "state"),
         "--pin", "73915286"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=tmp_path)
    try:
        assert server.stdout is not None
        lines = []
        for line in server.stdout:
            lines.append(line)
            found = re.search(r" on (http://\S+)", line)
            if found:
                url = found.group(1).rstrip("/")
                break
        else:
            raise AssertionError("the server never said where it is:\n" + "".join(lines))
        for path in ("/", "/api/editions"):
            assert fetch(url + path, server), path
    finally:
        server.terminate()
        server.wait(timeout=30)
        if server.stdout is not None:
            server.stdout.close()
