"""scripts/crash_test.py proves something only if the child got to answer before each kill."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "crash_test.py"


def crash_test(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), "--state-dir", str(tmp_path), *args],
                          capture_output=True, text=True, timeout=600)


def test_every_child_is_killed_only_after_its_first_acknowledgement(tmp_path: Path) -> None:
    done = crash_test(tmp_path, "--kills", "3", "--min-acks", "3")
    assert done.returncode == 0, done.stdout + done.stderr
    acked = int(re.search(r"acknowledged commands: (\d+)", done.stdout).group(1))  # type: ignore[union-attr]
    assert acked >= 3, "each of the 3 children answered at least once before it was killed"
    assert "acknowledged events lost: 0" in done.stdout


def test_too_few_acknowledgements_fail_the_run(tmp_path: Path) -> None:
    done = crash_test(tmp_path, "--kills", "2", "--min-acks", "1000000")
    assert done.returncode == 1
    assert "minimum acknowledged commands: 1000000 (NOT MET)" in done.stdout
