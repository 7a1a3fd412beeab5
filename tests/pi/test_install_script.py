"""scripts/install-pi.sh: valid shell, clean for shellcheck, and a dry run that shows the plan."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.long(4)

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "install-pi.sh"


def _dry_run(tmp_path: Path, model: str, *args: str) -> subprocess.CompletedProcess[str]:
    model_file = tmp_path / "model"
    model_file.write_bytes(model.encode() + b"\0")  # the device tree ends strings with NUL
    env = {
        **os.environ,
        "COMPANION_MODEL_FILE": str(model_file),
        "COMPANION_CONFIG": str(tmp_path / "config.toml"),
    }
    return subprocess.run(
        ["bash", str(SCRIPT), "--dry-run", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def test_script_is_valid_bash() -> None:
    done = subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed")
def test_shellcheck_is_clean() -> None:
    done = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_script_is_strict_and_executable() -> None:
    assert "set -euo pipefail" in SCRIPT.read_text()
    assert os.access(SCRIPT, os.X_OK), "chmod +x scripts/install-pi.sh"


def test_dry_run_shows_every_step_and_changes_nothing(tmp_path: Path) -> None:
    done = _dry_run(tmp_path, "Raspberry Pi 4 Model B Rev 1.5")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for expected in [
        "would run: apt-get update",
        "python3-venv",
        "would run: raspi-config nonint do_spi 0" if shutil.which("raspi-config") else "SPI",
        "/opt/companion/venv/bin/pip install " + str(SCRIPT.parents[1]) + "\\[pi\\]",
        "PYPI=1",
        "swig",
        "i2c-tools",
        "--system-site-packages",
        "systemd/config.example.toml " + str(tmp_path / "config.toml"),
        "systemd/companion.service /etc/systemd/system/companion.service",
        "would run: systemctl enable companion-hotspot.service companion.service",
    ]:
        assert expected in out, expected
    assert not (tmp_path / "config.toml").exists()


@pytest.mark.parametrize("model", ["Raspberry Pi 3 Model B Plus Rev 1.3",
                                   "Raspberry Pi 4 Model B Rev 1.5",
                                   "Raspberry Pi 5 Model B Rev 1.0",
                                   "Raspberry Pi Zero 2 W Rev 1.0"])
def test_every_model_uses_lgpio_through_rpi_lgpio(tmp_path: Path, model: str) -> None:
    """RPi.GPIO cannot add edge detection on kernels >= 6.6 (32-bit Bookworm) nor drive a
    Pi 5: every model gets rpi-lgpio, reinstalled after RPi.GPIO (pulled in by mfrc522) is
    removed, since uninstalling RPi.GPIO deletes the files the two share."""
    done = _dry_run(tmp_path, model)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    install = next(i for i, line in enumerate(lines) if "pip install /" in line)
    uninstall = next(i for i, line in enumerate(lines) if "uninstall -y RPi.GPIO" in line)
    lgpio = next(i for i, line in enumerate(lines) if line.endswith("rpi-lgpio"))
    assert install < uninstall < lgpio
    assert f"GPIO through lgpio on {model}" in done.stdout
    assert "lgpio, gpiozero, spidev" in done.stdout, "the install ends by checking the imports"


def test_deps_only_installs_packages_and_python_but_no_service(tmp_path: Path) -> None:
    done = _dry_run(tmp_path, "Raspberry Pi 4 Model B Rev 1.5", "--deps-only")
    assert done.returncode == 0, done.stderr
    assert "would run: apt-get update" in done.stdout
    assert "\\[pi\\]" in done.stdout
    for absent in ("systemctl", "useradd", "config.example.toml", "raspi-config"):
        assert absent not in done.stdout, absent


def test_existing_config_is_kept(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("[server]\nport = 9000\n")
    done = _dry_run(tmp_path, "Raspberry Pi 4 Model B Rev 1.5")
    assert done.returncode == 0, done.stderr
    assert "keeping the existing" in done.stdout
    assert "config.example.toml" not in done.stdout


def test_unknown_option_is_refused(tmp_path: Path) -> None:
    done = _dry_run(tmp_path, "Raspberry Pi 4", "--frobnicate")
    assert done.returncode != 0
    assert "unknown option" in done.stderr


@pytest.mark.skipif(
    os.geteuid() == 0 and shutil.which("setpriv") is None, reason="cannot drop root here"
)
def test_real_install_refuses_without_root() -> None:
    cmd = ["bash", str(SCRIPT)]
    if os.geteuid() == 0:
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode != 0
    assert "run as root" in done.stderr
