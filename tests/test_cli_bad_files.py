"""Files that are not what they claim get a one-line error from ``companion``, never a
traceback: a number of 5,000 digits, JSON nested 50,000 or 100,000 deep, a binary file, a
lone surrogate."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PROFILE_HEAD = '{"format": 1, "edition": "mario", "name": "x", "note": "", "settings": '
BAD = {
    "huge-number": (PROFILE_HEAD + '{"seed": ' + "7" * 5000 + "}}").encode(),
    "deep": ("[" * 50_000 + "]" * 50_000).encode(),
    "binary": bytes(range(256)) * 8,
    "surrogate": (PROFILE_HEAD + '{}, "tags": {}, "note": "\\ud800"}').encode(),
}


def companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.app.cli", *args], capture_output=True,
                          text=True, timeout=120)


def one_line_error(run: subprocess.CompletedProcess[str]) -> str:
    assert run.returncode == 2, (run.returncode, run.stderr[-2000:])
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion: "), run.stderr[-2000:]
    return lines[0]


@pytest.mark.parametrize("kind", sorted(BAD))
def test_profile_import_of_a_bad_file_is_one_line(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "profile.json"
    path.write_bytes(BAD[kind])
    line = one_line_error(companion("profile", "import", str(path), "--state-dir",
                                    str(tmp_path / "state")))
    assert "profile.json" in line
    listed = companion("profile", "list", "--state-dir", str(tmp_path / "state"))
    assert listed.returncode == 0 and listed.stdout == ""


@pytest.mark.parametrize("kind", ["deep", "binary", "huge-number"])
def test_play_of_a_bad_script_is_one_line(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "script.json"
    data = BAD[kind] if kind != "deep" else ("[" * 100_000 + "]" * 100_000).encode()
    path.write_bytes(data)
    assert "script.json" in one_line_error(companion("play", "--script", str(path)))


def test_play_with_a_deep_profile_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "box.json").write_bytes(BAD["deep"])
    path = tmp_path / "script.json"
    path.write_text('{"edition": "mario", "players": ["A", "B"], "profile": "box.json", '
                    '"steps": []}')
    assert "box.json" in one_line_error(companion("play", "--script", str(path)))
