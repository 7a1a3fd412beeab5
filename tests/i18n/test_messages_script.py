"""``./scripts/messages`` on an unchanged tree changes nothing (issue 41, item 7): a translator
who runs it to see what is new must not get a diff of dates in every catalogue."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WRITTEN = [str(p.relative_to(ROOT)) for p in sorted(
    [*ROOT.glob("companion/locales/**/messages.po*"),
     *ROOT.glob("companion/editions/*/locales/**/messages.po*")])]
"""Every template and catalogue the script writes: companion's and each edition's."""


def test_the_messages_script_leaves_an_unchanged_tree_unchanged(tmp_path: Path) -> None:
    """Run on a copy of this tree, it writes the template and every catalogue back byte for
    byte as they are."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, tmp_path / name)
    if (ROOT / ".venv").is_dir():  # the script's pybabel (else the one on PATH)
        (tmp_path / ".venv").symlink_to(ROOT / ".venv")
    subprocess.run(["./scripts/messages"], cwd=tmp_path, check=True, capture_output=True)
    changed = [name for name in WRITTEN
               if (tmp_path / name).read_bytes() != (ROOT / name).read_bytes()]
    assert changed == [], "./scripts/messages rewrote them: run it and commit the result"


def test_a_msgid_the_template_drops_is_kept_as_retired(tmp_path: Path) -> None:
    """Words changed in the code: the old msgid leaves the template but stays in
    retired.json, so a log that stored that message by id still reads it back."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, tmp_path / name)
    if (ROOT / ".venv").is_dir():
        (tmp_path / ".venv").symlink_to(ROOT / ".venv")
    pot = tmp_path / "companion/locales/messages.pot"
    pot.write_text(pot.read_text("utf-8") + '\nmsgid "Old words: {x}"\nmsgstr ""\n', "utf-8")
    subprocess.run(["./scripts/messages"], cwd=tmp_path, check=True, capture_output=True)
    retired = json.loads((tmp_path / "companion/locales/retired.json").read_text("utf-8"))
    assert ["Old words: {x}", ""] in retired
    assert "Old words" not in pot.read_text("utf-8")
