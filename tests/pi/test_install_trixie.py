"""The install script's dependency step on a fresh Debian trixie (Python 3.13, no lgpio wheel).

A debootstrap chroot stands in for Raspberry Pi OS Trixie: Debian has swig but not lgpio, so the
script must build lgpio from source (PYPI=1, statically linked) and end with lgpio, gpiozero's
lgpio pin factory and rpi-lgpio's RPi.GPIO importable. The base system is made once per machine
and kept (``$COMPANION_TEST_CACHE``, default ``~/.cache/board-companion``); every run copies it
afresh, so each run installs onto a clean system. Downloaded .deb files, apt lists and pip's
built wheels are kept beside it, so a second run takes about a minute.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SUITE = "trixie"
MIRROR = "http://deb.debian.org/debian"
# Kept between runs: (path inside the chroot, name in the cache).
KEPT = [("var/cache/apt/archives", "apt-archives"), ("var/lib/apt/lists", "apt-lists"),
        ("root/.cache/pip", "pip-cache")]
PROXY_VARS = ("http_proxy", "https_proxy", "no_proxy")
SOURCES = ["pyproject.toml", "README.md", "companion", "hardware", "web", "seeds", "scripts",
           "systemd", "docs"]

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="debootstrap and chroot need root"),
    pytest.mark.skipif(shutil.which("debootstrap") is None,
                       reason="debootstrap is not installed (scripts/test installs it as root)"),
]


def cache_dir() -> Path:
    env = os.environ.get("COMPANION_TEST_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "board-companion"


def base_system() -> Path:
    """A minimal trixie with python3, made once with debootstrap and then reused."""
    base = cache_dir() / f"{SUITE}-{platform.machine()}"
    if (base / ".complete").exists():
        return base
    partial = base.with_name(base.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["debootstrap", "--variant=minbase", "--include=python3,ca-certificates",
                           SUITE, str(partial), MIRROR],
                          capture_output=True, text=True, timeout=1500)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    shutil.rmtree(base, ignore_errors=True)
    partial.rename(base)
    (base / ".complete").touch()
    return base


@pytest.fixture(scope="module")
def trixie() -> Iterator[Path]:
    """A fresh copy of the base system, with the kept caches moved in (and back after)."""
    base = base_system()
    root = base.with_name(base.name + ".run")
    if (root / "proc").is_mount():  # left by a run that was killed
        subprocess.run(["umount", "-l", str(root / "proc")], check=False)
    shutil.rmtree(root, ignore_errors=True)
    subprocess.run(["cp", "-a", str(base), str(root)], check=True)
    moved: list[tuple[Path, Path]] = []
    # Built wheels are not kept: every run really builds lgpio from its source.
    shutil.rmtree(cache_dir() / "pip-cache" / "wheels", ignore_errors=True)
    for inside, name in KEPT:
        kept, target = cache_dir() / name, root / inside
        kept.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(target, ignore_errors=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        kept.rename(target)
        moved.append((target, kept))
    shutil.copy("/etc/resolv.conf", root / "etc" / "resolv.conf")
    trust_like_the_host(root)
    src = root / "opt" / "src"
    for name in SOURCES:
        item = REPO / name
        if item.is_dir():
            shutil.copytree(item, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            src.mkdir(parents=True, exist_ok=True)
            shutil.copy2(item, src / name)
    proc = subprocess.run(["mount", "-t", "proc", "proc", str(root / "proc")],
                          capture_output=True).returncode == 0
    try:
        yield root
    finally:
        if proc:
            subprocess.run(["umount", "-l", str(root / "proc")], check=False)
        for target, kept in moved:
            if target.exists():
                target.rename(kept)
        shutil.rmtree(root, ignore_errors=True)


def trust_like_the_host(root: Path) -> None:
    """The machine's own extra CA certificates (a company proxy, say) go into the chroot too,
    so pip there reaches the package index the way it does here."""
    extra = Path("/usr/local/share/ca-certificates")
    if extra.is_dir() and any(extra.iterdir()):
        shutil.copytree(extra, root / extra.relative_to("/"), dirs_exist_ok=True)
        in_chroot(root, "update-ca-certificates", timeout=120)


def in_chroot(root: Path, *cmd: str, timeout: float = 1500) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
           "HOME": "/root", "LANG": "C.UTF-8",
           "PIP_CERT": "/etc/ssl/certs/ca-certificates.crt",
           **{k: v for k, v in os.environ.items() if k.lower() in PROXY_VARS}}
    return subprocess.run(["chroot", str(root), *cmd], capture_output=True, text=True,
                          env=env, timeout=timeout)


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
