"""The install script's dependency step on a fresh Debian trixie (Python 3.13, no lgpio wheel).

An mmdebstrap chroot stands in for Raspberry Pi OS Trixie: Debian has swig but not lgpio, so the
script must build lgpio from source (PYPI=1, statically linked) and end with lgpio, gpiozero's
lgpio pin factory and rpi-lgpio's RPi.GPIO importable. The base system is made once per machine
and kept (tests/pi/chroots.py: ``$COMPANION_TEST_CACHE``, default ``~/.cache/board-companion``);
every run copies it afresh, so each run installs onto a clean system. Downloaded .deb files,
apt lists and pip's downloads are kept beside it, so a second run takes about a minute.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pi import chroots

SUITE, ARCH = "trixie", chroots.NATIVE

pytestmark = [
    pytest.mark.long(10),
    pytest.mark.skipif(os.geteuid() != 0, reason="mmdebstrap and chroot need root"),
    pytest.mark.skipif(shutil.which("mmdebstrap") is None,
                       reason="mmdebstrap is not installed (scripts/test installs it as root)"),
]


@pytest.fixture(scope="module")
def trixie() -> Iterator[Path]:
    """A fresh copy of the base system (made once per machine, under a lock: two runs at once
    share it safely), with the kept caches moved in and back after; built wheels are not
    kept, so every run really builds lgpio from its source."""
    with chroots.fresh_copy(SUITE, ARCH, kept_wheels=False) as root:
        yield root


def in_chroot(root: Path, *cmd: str, timeout: float = 1500) -> subprocess.CompletedProcess[str]:
    return chroots.run_in(root, ARCH, *cmd, timeout=timeout)


@pytest.fixture(scope="module")
def installed(trixie: Path) -> tuple[Path, subprocess.CompletedProcess[str]]:
    done = in_chroot(trixie, "bash", "/opt/src/scripts/install-pi.sh", "--deps-only")
    return trixie, done


def test_the_dependency_step_succeeds_on_trixie(
        installed: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    root, done = installed
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert "lgpio will be built by pip" in done.stdout, "Debian has no python3-lgpio"
    assert "Building wheel for lgpio" in done.stdout, "lgpio was built from its source"
    assert "with rpi-lgpio" in done.stdout
    assert in_chroot(root, "python3", "-c", "import sys; print(sys.version_info[:2])"
                     ).stdout.strip() == "(3, 13)"


def test_lgpio_pin_factory_is_usable_or_lacks_only_the_gpio_chip(
        installed: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    root, done = installed
    assert done.returncode == 0, done.stderr[-2000:]
    probe = """
import os
os.environ["RPI_LGPIO_REVISION"] = "0xd04170"  # rpi-lgpio asks the device tree otherwise
import importlib.util, lgpio, gpiozero, spidev, mfrc522, RPi.GPIO
from gpiozero.pins.lgpio import LGPIOFactory
assert importlib.util.find_spec("RPi._GPIO") is None, "RPi.GPIO is the old library"
print("rpi-lgpio:", RPi.GPIO.__file__)
try:
    LGPIOFactory(chip=0).close()
    print("factory: ok")
except Exception as exc:
    print("factory:", type(exc).__name__, exc)
"""
    out = in_chroot(root, "/opt/companion/venv/bin/python", "-c", probe)
    assert out.returncode == 0, out.stderr
    assert "rpi-lgpio: /opt/companion/venv/" in out.stdout
    factory = out.stdout.split("factory:", 1)[1].strip()
    assert factory == "ok" or "gpiochip" in factory.lower(), factory


def test_the_uninstall_removes_the_program_and_keeps_the_games(
        installed: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    """The real uninstall on the system the install made (no systemd in a chroot: it says so
    and goes on)."""
    root, done = installed
    assert done.returncode == 0, done.stderr[-2000:]
    games = root / "var" / "lib" / "companion"
    games.mkdir(parents=True, exist_ok=True)
    (games / "companion.db").write_bytes(b"games")
    out = in_chroot(root, "bash", "/opt/src/scripts/uninstall-pi.sh")
    assert out.returncode == 0, out.stdout + out.stderr
    assert not (root / "opt" / "companion").exists()
    assert (games / "companion.db").read_bytes() == b"games"
    assert "Kept: the games in /var/lib/companion" in out.stdout
