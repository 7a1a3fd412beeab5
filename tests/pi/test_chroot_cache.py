"""Two test runs at once share the chroot cache safely, for every target the install is
proven on (tests/pi/test_install_qemu.py): one makes a base system while the other waits for
it, nobody ever uses a half-made one, and a run killed halfway (or an old half-made base)
leaves nothing that passes for complete."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.pi.test_install_qemu import TARGETS

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
        (target / "etc" / "os-release").write_text(suite + "-" + arch)
        if sys.argv[3] == "die":
            raise SystemExit(9)

    chroots._debootstrap = slow
    base = chroots.base_system(*sys.argv[4].split("-"))
    print(base, (base / "etc" / "os-release").read_text(), (base / ".complete").exists())
""")


def start(cache: Path, target: str, seconds: float, how: str = "ok"
          ) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", RUN, str(cache), str(seconds), how, target],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COMPANION_TEST_CACHE": str(cache),
                                 "PYTHONPATH": str(REPO)})


@pytest.mark.parametrize("target", TARGETS)
def test_two_runs_at_once_make_one_base_and_both_use_it_whole(tmp_path: Path,
                                                               target: str) -> None:
    first = start(tmp_path, target, 2)
    second = start(tmp_path, target, 2)
    outs = [p.communicate(timeout=600) for p in (first, second)]
    assert [p.returncode for p in (first, second)] == [0, 0], outs
    for out, _ in outs:
        assert out.split() == [str(tmp_path / target), target, "True"]
    assert (tmp_path / "builds").read_text() == "1\n", "made once; the other run waited"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == [], (
        "no half-made directory left")


@pytest.mark.parametrize("target", TARGETS)
def test_a_run_that_dies_halfway_leaves_no_base_and_the_next_makes_one(
        tmp_path: Path, target: str) -> None:
    dead = start(tmp_path, target, 0.1, "die")
    dead.communicate(timeout=600)
    assert dead.returncode != 0
    assert not (tmp_path / target).exists()
    again = start(tmp_path, target, 0.1)
    out, err = again.communicate(timeout=600)
    assert again.returncode == 0, err
    assert out.split()[1:] == [target, "True"]


@pytest.mark.parametrize("target", TARGETS)
def test_a_half_made_base_in_place_is_made_again_never_used(tmp_path: Path,
                                                             target: str) -> None:
    half = tmp_path / target  # as an older harness left it when killed: no .complete
    (half / "etc").mkdir(parents=True)
    (half / "etc" / "os-release").write_text("half")
    run = start(tmp_path, target, 0.1)
    out, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    assert out.split() == [str(half), target, "True"]
    assert (tmp_path / "builds").read_text() == "1\n"
