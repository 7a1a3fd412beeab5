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

# A run whose base system takes a while to make: it records that it ran and what it saw.
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

    chroots._bootstrap = slow
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


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting needs root")
def test_a_killed_runs_leftover_with_mounts_is_removed_without_reaching_through_them(
        tmp_path: Path) -> None:
    """A bootstrap killed halfway leaves its directory with /proc still mounted in it: the next
    run removes the leftover, unmounting first, and deletes nothing on the mounted system."""
    cache = tmp_path / "cache"
    host = tmp_path / "host"  # stands in for the host's /proc
    host.mkdir()
    (host / "precious").write_text("kept")
    dead = cache / ".trixie-armhf-killed"
    (dead / "proc").mkdir(parents=True)
    subprocess.run(["mount", "--bind", str(host), str(dead / "proc")], check=True)
    try:
        run = start(cache, "trixie-armhf", 0.1)
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0, err
        assert out.split()[1:] == ["trixie-armhf", "True"]
        assert (host / "precious").read_text() == "kept"
        assert not dead.exists(), "the killed run's leftover is gone"
    finally:
        subprocess.run(["umount", "-l", str(dead / "proc")], capture_output=True)


def test_a_killed_runs_downloads_are_kept_for_the_next_run(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A run killed while the target's caches were moved into its copy: the next run finds
    the downloads there (not an empty cache), and the dead copy is removed."""
    from tests.pi import chroots

    def made(target: Path, suite: str, arch: str) -> None:
        (target / "etc").mkdir()

    monkeypatch.setenv("COMPANION_TEST_CACHE", str(tmp_path))
    monkeypatch.setattr(chroots, "_bootstrap", made)
    monkeypatch.setattr(chroots, "SOURCES", ["pyproject.toml"])
    dead = tmp_path / "run-trixie-armhf-killed"
    (dead / "var" / "cache" / "apt" / "archives").mkdir(parents=True)
    (dead / "var" / "cache" / "apt" / "archives" / "gcc_armhf.deb").write_text("deb")
    (dead / "root" / ".cache" / "pip" / "wheels").mkdir(parents=True)
    (dead / "root" / ".cache" / "pip" / "wheels" / "lgpio.whl").write_text("whl")
    with chroots.fresh_copy("trixie", "armhf") as root:
        assert (root / "var" / "cache" / "apt" / "archives" / "gcc_armhf.deb").exists()
        assert (root / "root" / ".cache" / "pip" / "wheels" / "lgpio.whl").exists()
        assert not dead.exists()
    kept = tmp_path / "trixie-armhf-caches"
    assert (kept / "apt-archives" / "gcc_armhf.deb").read_text() == "deb"
