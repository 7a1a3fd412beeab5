"""Renaming a method never breaks a saved game: the log stores declared ids, not names."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TASK_METHOD = re.compile(r"\btask_([a-z0-9_]+)")


def test_golden_logs_replay_after_every_task_method_is_renamed(tmp_path: Path) -> None:
    for package in ("companion", "seeds"):
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    renamed = 0
    for path in (tmp_path / "companion").rglob("*.py"):
        text = path.read_text("utf-8")
        new, n = TASK_METHOD.subn(r"step_\1_renamed", text)
        path.write_text(new, "utf-8")
        renamed += len(re.findall(r"def step_\w+_renamed\(", new))
    assert renamed >= 40  # every task method of every edition
    run = subprocess.run(
        [sys.executable, "-c",
         "import companion, sys; from companion.testing import main;"
         f"assert companion.__file__.startswith({str(tmp_path)!r}), companion.__file__;"
         f"sys.exit(main([{str(ROOT / 'tests' / 'golden')!r}]))"],
        cwd=tmp_path, env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "golden logs replay" in run.stdout
