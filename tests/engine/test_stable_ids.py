"""Renaming a method never breaks a saved game: the log stores declared ids, not names."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TASK_METHOD = re.compile(r"\btask_([a-z0-9_]+)")
DECLARED = re.compile(r"^\s*@(?:task|effect|space_kind|prompt_kind|declare)\(.*\n"
                      r"(?:\s*@.*\n)*\s*def (\w+)\(", re.M)


def copy_package(to: Path) -> list[Path]:
    for package in ("companion", "seeds"):
        shutil.copytree(ROOT / package, to / package, ignore=shutil.ignore_patterns("__pycache__"))
    (to / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "playing.py", to / "tests" / "playing.py")  # the golden replayer
    return list((to / "companion").rglob("*.py"))


def replays_golden(copy: Path) -> None:
    """Resume and replay the golden logs with the copied package, in a fresh interpreter."""
    run = subprocess.run(
        [sys.executable, "-c",
         "import companion, sys; from tests.playing import main;"
         f"assert companion.__file__.startswith({str(copy)!r}), companion.__file__;"
         f"sys.exit(main([{str(ROOT / 'tests' / 'golden')!r}]))"],
        cwd=copy, env={"PYTHONPATH": str(copy), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "golden logs replay" in run.stdout


def test_golden_logs_replay_after_every_task_method_is_renamed(tmp_path: Path) -> None:
    renamed = 0
    for path in copy_package(tmp_path):
        text = path.read_text("utf-8")
        new = TASK_METHOD.sub(r"step_\1_renamed", text)
        path.write_text(new, "utf-8")
        renamed += len(re.findall(r"def step_\w+_renamed\(", new))
    assert renamed >= 40  # every task method of every edition
    replays_golden(tmp_path)


def test_golden_logs_replay_after_every_declared_handler_is_renamed(tmp_path: Path) -> None:
    """Space kinds, card effects, prompt kinds, Event Cards and Force faces too: the seed
    files and the log name ids, so the editions still load and the saved games resume."""
    files = copy_package(tmp_path)
    names = {n for path in files for n in DECLARED.findall(path.read_text("utf-8"))}
    assert len(names) >= 100
    pattern = re.compile(r"\b(" + "|".join(sorted(names)) + r")\b")
    for path in files:
        path.write_text(pattern.sub(r"\1_renamed", path.read_text("utf-8")), "utf-8")
    replays_golden(tmp_path)
