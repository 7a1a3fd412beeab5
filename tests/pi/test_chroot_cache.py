"""Two test runs at once share the chroot cache safely: one makes a base system while the
other waits for it, nobody ever uses a half-made one, and a run killed halfway leaves nothing
that passes for complete."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# A run whose debootstrap takes a while: it records that it ran and what it saw.
RUN = textwrap.dedent("""\
    import sys, time
    from pathlib import Path
    from tests.pi import chroots

    def slow(target, suite, arch):
        (target / "etc").mkdir()
        with open(Path(sys.argv[1]) / "builds", "a") as fh:
            fh.write("1\\n")
        time.sleep(float(sys.argv[2]))
        (target / "etc" / "os-release").write_text(suite)
        if sys.argv[3] == "die":
            raise SystemExit(9)

    chroots._debootstrap = slow
    base = chroots.base_system("trixie", "arm64")
    print(base, (base / "etc" / "os-release").read_text(), (base / ".complete").exists())
""")


def start(cache: Path, seconds: float, how: str = "ok") -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", RUN, str(cache), str(seconds), how],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COMPANION_TEST_CACHE": str(cache),
                                 "PYTHONPATH": str(REPO)})


def test_two_runs_at_once_make_one_base_and_both_use_it_whole(tmp_path: Path) -> None:
    first = start(tmp_path, 3)
    second = start(tmp_path, 3)
    outs = [p.communicate(timeout=600) for p in (first, second)]
    assert [p.returncode for p in (first, second)] == [0, 0], outs
    for out, _ in outs:
        assert out.split() == [str(tmp_path / "trixie-arm64"), "trixie", "True"]
    assert (tmp_path / "builds").read_text() == "1\n", "made once; the other run waited"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == [], (
        "no half-made directory left")


def test_a_run_that_dies_halfway_leaves_no_base_and_the_next_makes_one(
        tmp_path: Path) -> None:
    dead = start(tmp_path, 0.1, "die")
    dead.communicate(timeout=600)
    assert dead.returncode != 0
    assert not (tmp_path / "trixie-arm64").exists()
    again = start(tmp_path, 0.1)
    out, err = again.communicate(timeout=600)
    assert again.returncode == 0, err
    assert out.split()[1:] == ["trixie", "True"]
