"""scripts/uninstall-pi.sh, and the I2C speed line the installer adds to config.txt and the
uninstall takes out again."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
INSTALL, UNINSTALL = SCRIPTS / "install-pi.sh", SCRIPTS / "uninstall-pi.sh"

# /boot/firmware/config.txt as Raspberry Pi OS Bookworm ships it (comments shortened); it ends
# in a [cm5] section, so a line appended without [all] would apply to a CM5 only.
PI_OS_CONFIG = """\
# For more options and information see
# http://rptl.io/configtxt

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=spi=on
dtparam=i2c_arm=on
dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1
disable_overscan=1
arm_boost=1

[cm4]
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host
"""


def step(function: str, config: Path) -> subprocess.CompletedProcess[str]:
    """One function of the installer, run on ``config`` (sourcing the script runs nothing)."""
    return subprocess.run(["bash", "-c", f'source "$1" && {function} "$2"', "test",
                           str(INSTALL), str(config)], capture_output=True, text=True, timeout=600)


def effective_i2c_speed(config: str, model: str = "pi4") -> str | None:
    """The i2c_arm_baudrate the firmware would apply on a ``model`` (sections [all], [pi4],
    [cm5] ... filter the lines after them)."""
    section, speed = "all", None
    for line in config.splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif section in ("all", model) and line.startswith("dtparam=i2c_arm_baudrate="):
            speed = line.split("=", 2)[2]
    return speed


def test_the_install_sets_i2c_to_400_khz_once_for_every_model(tmp_path: Path) -> None:
    config = tmp_path / "config.txt"
    config.write_text(PI_OS_CONFIG)
    assert effective_i2c_speed(PI_OS_CONFIG) is None
    for _ in range(2):  # installing again changes nothing
        done = step("set_i2c_speed", config)
        assert done.returncode == 0, done.stderr
    text = config.read_text()
    assert text.count("i2c_arm_baudrate") == 1
    for model in ("pi3", "pi4", "pi5", "pi02", "cm5"):
        assert effective_i2c_speed(text, model) == "400000", model
    assert text.startswith(PI_OS_CONFIG), "the owner's lines are left as they were"


def test_an_owners_own_i2c_speed_is_kept(tmp_path: Path) -> None:
    config = tmp_path / "config.txt"
    config.write_text(PI_OS_CONFIG.replace("dtparam=spi=on\n\n",
                                           "dtparam=spi=on\ndtparam=i2c_arm_baudrate=100000\n\n"))
    before = config.read_text()
    done = step("set_i2c_speed", config)
    assert done.returncode == 0, done.stderr
    assert "keeping the I2C speed" in done.stdout
    assert config.read_text() == before


def test_the_uninstall_takes_the_line_out_again(tmp_path: Path) -> None:
    config = tmp_path / "config.txt"
    config.write_text(PI_OS_CONFIG)
    assert step("set_i2c_speed", config).returncode == 0
    done = step("remove_i2c_speed", config)
    assert done.returncode == 0, done.stderr
    assert config.read_text() == PI_OS_CONFIG


def test_the_install_dry_run_names_the_i2c_speed(tmp_path: Path) -> None:
    config = tmp_path / "config.txt"
    config.write_text(PI_OS_CONFIG)
    done = subprocess.run(["bash", str(INSTALL), "--dry-run"], capture_output=True, text=True,
                          timeout=600, env={**os.environ, "COMPANION_BOOT_CONFIG": str(config),
                                           "COMPANION_CONFIG": str(tmp_path / "c.toml")})
    assert done.returncode == 0, done.stderr
    assert f"I2C at 400 kHz in {config}" in done.stdout
    assert "would set: dtparam=i2c_arm_baudrate=400000" in done.stdout
    assert config.read_text() == PI_OS_CONFIG


def uninstall(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(UNINSTALL), "--dry-run", *args], capture_output=True,
                          text=True, timeout=600,
                          env={**os.environ, "COMPANION_BACKUP_TO": str(tmp_path)})


def test_uninstall_is_clean_strict_and_executable() -> None:
    assert subprocess.run(["bash", "-n", str(UNINSTALL)]).returncode == 0
    assert "set -euo pipefail" in UNINSTALL.read_text()
    assert os.access(UNINSTALL, os.X_OK)
    if shutil.which("shellcheck"):
        done = subprocess.run(["shellcheck", "-x", str(UNINSTALL)], capture_output=True,
                              text=True, cwd=SCRIPTS.parent)
        assert done.returncode == 0, done.stdout


def test_uninstall_stops_the_service_first_and_keeps_the_games(tmp_path: Path) -> None:
    done = uninstall(tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    stop = out.index("systemctl disable --now companion.service") if shutil.which(
        "systemctl") else out.index("Stopping")
    assert stop < out.index("rm -rf /opt/companion")
    assert "/var/lib/companion /etc/companion" not in out
    assert "Kept: the games in /var/lib/companion" in out


def test_purge_keeps_a_last_copy_before_removing_the_games(tmp_path: Path) -> None:
    done = uninstall(tmp_path, "--purge")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "rm -rf /var/lib/companion /etc/companion" in out
    if Path("/var/lib/companion/companion.db").exists():  # only on a machine with games
        assert out.index(str(tmp_path)) < out.index("rm -rf /var/lib/companion")


def test_uninstall_refuses_unknown_options_and_non_root(tmp_path: Path) -> None:
    done = uninstall(tmp_path, "--frobnicate")
    assert done.returncode != 0 and "unknown option" in done.stderr
    cmd = ["bash", str(UNINSTALL)]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("cannot drop root here")
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode != 0 and "run as root" in done.stderr
