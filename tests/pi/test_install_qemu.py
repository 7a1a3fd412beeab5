"""The install's dependency step and ``companion --help`` on the architectures owners have:
arm64 (Pi 3, 4, 5, Zero 2 W with a 64-bit image) and armhf (32-bit images), Debian Bookworm
and Trixie, in mmdebstrap chroots under qemu user emulation, with the real ``pi`` extra
(lgpio, rpi-lgpio, spidev and mfrc522 built or from wheels).

Slow: everything in the chroot is emulated, at the lowest CPU priority. Each target runs once
per machine and per version of its inputs (scripts/install-pi.sh, pyproject.toml, this file
and tests/pi/chroots.py); a proven target is then skipped with the date and the figures of its
proof. The base systems, downloaded .debs, apt lists and pip's downloads and built wheels are
kept (tests/pi/chroots.py), so a second run downloads and compiles nothing.
Not in the default run (``./scripts/test``, the CI): from an empty cache a target takes tens of
minutes (docs/raspberry-pi.md has the figures), more than the CI's 20 minutes leave.
``COMPANION_PI_TARGETS=all`` (or "bookworm-armhf,trixie-arm64") runs them.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from tests.pi import chroots

HERE = Path(__file__).resolve()
TARGETS = ["trixie-arm64", "bookworm-armhf", "bookworm-arm64", "trixie-armhf"]
MACHINE = {"arm64": "aarch64", "armhf": "armv7l"}
PYTHON = {"bookworm": "(3, 11)", "trixie": "(3, 13)"}


def chosen() -> list[str]:
    env = os.environ.get("COMPANION_PI_TARGETS", "")
    if env == "all":
        return TARGETS
    return [t for t in env.split(",") if t]


def proof_file(target: str) -> Path:
    digest = chroots.inputs_digest(HERE, HERE.with_name("chroots.py"))
    return chroots.cache_dir() / f"proven-{target}-{digest}.json"


@pytest.mark.skipif(os.geteuid() != 0, reason="mmdebstrap and chroot need root")
@pytest.mark.skipif(shutil.which("mmdebstrap") is None,
                    reason="mmdebstrap is not installed (scripts/test installs it as root)")
@pytest.mark.parametrize("target", TARGETS)
def test_install_deps_and_companion_help_under_qemu(target: str) -> None:
    suite, arch = target.split("-")
    proof = proof_file(target)
    if proof.exists():
        pytest.skip(f"proven on this machine for these inputs: {proof.read_text()}")
    if target not in chosen():
        pytest.skip(f"slow ({target} under qemu, tens of minutes from an empty cache) and not "
                    f"proven here for these inputs: COMPANION_PI_TARGETS=all (or {target}) "
                    "runs it")
    how = chroots.emulation(arch)
    if how is None:
        pytest.skip(f"cannot run {arch} here: install qemu-user-static (and proot where "
                    "binfmt_misc is missing); scripts/test does as root")
    started = time.monotonic()
    with chroots.fresh_copy(suite, arch) as root:
        ready = time.monotonic()
        assert chroots.run_in(root, arch, "uname", "-m").stdout.strip() == MACHINE[arch]
        done, steps = chroots.run_steps(root, arch, "bash", "/opt/src/scripts/install-pi.sh",
                                        "--deps-only", timeout=3 * 3600)
        proof.with_suffix(".log").write_text(done.stdout)  # the whole output, kept to read
        assert done.returncode == 0, done.stdout[-6000:]
        assert "with rpi-lgpio" in done.stdout
        installed = time.monotonic()
        assert chroots.run_in(root, arch, "python3", "-c", "import sys; print(sys.version_info"
                              "[:2])").stdout.strip() == PYTHON[suite]
        helped = chroots.run_in(root, arch, "/opt/companion/venv/bin/companion", "--help")
        assert helped.returncode == 0, helped.stderr
        assert "usage: companion" in helped.stdout and "run" in helped.stdout
        probe = chroots.run_in(root, arch, "/opt/companion/venv/bin/python", "-c", """
import os, platform
os.environ["RPI_LGPIO_REVISION"] = "0xd04170"  # rpi-lgpio asks the device tree otherwise
import importlib.metadata as m, importlib.util, lgpio, gpiozero, spidev, mfrc522, RPi.GPIO, PIL
from gpiozero.pins.lgpio import LGPIOFactory
assert importlib.util.find_spec("RPi._GPIO") is None, "RPi.GPIO is the old library"
print(platform.machine(), platform.python_version(), RPi.GPIO.__file__, spidev.__file__,
      PIL.__file__, *(p + "=" + m.version(p) for p in
      ("lgpio", "rpi-lgpio", "spidev", "mfrc522", "pillow", "gpiozero", "luma.oled")))
""")
        assert probe.returncode == 0, probe.stderr
        assert "/opt/companion/venv/" in probe.stdout
    record = json.dumps({
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "emulation": how,
        "base_s": round(ready - started), "install_s": round(installed - ready),
        "steps_s": steps, "versions": probe.stdout.split()})
    proof.write_text(record)
    print(target, "proven:", record)
