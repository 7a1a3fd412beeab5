"""systemd/companion.service: valid for systemd, and hardened as an admin expects.

``systemd-analyze verify`` refuses a unit whose ExecStart binary is missing, and
/opt/companion/venv/bin/companion exists only on an installed Pi, so the verify tests check a copy
of the unit whose ExecStart points at this Python interpreter (same arguments). Everything else in
the copy is byte for byte the shipped unit.
"""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "companion.service"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(
    ANALYZE is None, reason="systemd-analyze not installed (apt-get install systemd)"
)


def _directives() -> dict[str, list[str]]:
    """Every ``Key=value`` in the unit; keys may repeat (DeviceAllow, Environment)."""
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


NEWER_KEYS = ("RestartSteps", "RestartMaxDelaySec")
"""systemd 254+; an older one (Debian bookworm's 252) ignores them with a warning."""


def _systemd_version() -> int:
    out = subprocess.run([str(ANALYZE), "--version"], capture_output=True, text=True).stdout
    match = re.match(r"systemd (\d+)", out)
    return int(match.group(1)) if match else 0


def _runnable_copy(tmp_path: Path) -> Path:
    text = UNIT.read_text()
    text, count = re.subn(
        r"^ExecStart=/opt/companion/venv/bin/companion ",
        f"ExecStart={sys.executable} ",
        text,
        flags=re.M,
    )
    assert count == 1, "ExecStart no longer runs /opt/companion/venv/bin/companion"
    copy = tmp_path / "companion.service"
    copy.write_text(text)
    return copy


@needs_analyze
def test_systemd_accepts_every_line(tmp_path: Path) -> None:
    copy = _runnable_copy(tmp_path)
    done = subprocess.run(
        [ANALYZE, "verify", str(copy)], capture_output=True, text=True, timeout=600, cwd=tmp_path
    )
    # A misspelt key or a bad value is only a warning for systemd ("ignoring"), so the
    # messages about our file must be empty too, not just the exit code.
    complaints = [line for line in done.stderr.splitlines() if "companion.service" in line
                  and not (_systemd_version() < 254 and "'Restart" in line
                           and any(k in line for k in NEWER_KEYS))]
    assert done.returncode == 0, done.stderr
    assert complaints == []


@needs_analyze
def test_security_exposure_stays_low(tmp_path: Path) -> None:
    copy = _runnable_copy(tmp_path)
    done = subprocess.run(
        [ANALYZE, "security", "--offline=yes", "--threshold=25", "--no-pager", str(copy)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    if "offline" in done.stderr and "unrecognized" in done.stderr:
        pytest.skip("systemd-analyze security --offline needs systemd 250 or newer")
    # systemd rates exposure 0-10 (10 = wide open); the threshold 25 means 2.5: "OK".
    assert done.returncode == 0, done.stdout[-1500:] + done.stderr


def test_runs_the_companion_as_its_own_user_with_hardware_groups() -> None:
    unit = _directives()
    assert unit["ExecStart"] == [
        "/opt/companion/venv/bin/companion run --config /etc/companion/config.toml"
    ]
    assert unit["User"] == ["companion"]
    assert set(unit["SupplementaryGroups"][0].split()) == {"gpio", "spi", "i2c"}
    assert unit["StateDirectory"] == ["companion"]
    assert unit["ConfigurationDirectory"] == ["companion"]
    assert "COMPANION_STATE_DIR=%S/companion" in unit["Environment"]


def test_restarts_and_has_a_watchdog() -> None:
    unit = _directives()
    assert unit["Type"] == ["notify"]
    assert unit["NotifyAccess"] == ["main"]
    assert unit["Restart"] == ["on-failure"]
    watchdog = unit["WatchdogSec"][0]
    assert watchdog.endswith("s") and 10 <= int(watchdog[:-1]) <= 120
    assert unit["WantedBy"] == ["multi-user.target"]


def test_an_unattended_box_never_stops_retrying_and_backs_off() -> None:
    """StartLimitBurst=5 in 300 s left the box down until someone typed reset-failed. The
    back-off is the companion's own (companion/platform/start_backoff.py: systemd 252 ignores
    RestartSteps): it counts failed starts in the runtime directory, kept across restarts."""
    unit = _directives()
    assert unit["StartLimitIntervalSec"] == ["0"] and "StartLimitBurst" not in unit
    assert unit["RestartSec"] == ["5s"] and not set(NEWER_KEYS) & set(unit)
    assert unit["RuntimeDirectory"] == ["companion"]
    assert unit["RuntimeDirectoryPreserve"] == ["restart"]


HARDENING = {
    "NoNewPrivileges": "yes",
    "ProtectSystem": "strict",
    "ProtectHome": "yes",
    "PrivateTmp": "yes",
    "ProtectKernelTunables": "yes",
    "ProtectKernelModules": "yes",
    "ProtectKernelLogs": "yes",
    "ProtectControlGroups": "yes",
    "LockPersonality": "yes",
    "RestrictRealtime": "yes",
    "RestrictSUIDSGID": "yes",
    "SystemCallArchitectures": "native",
    "MemoryDenyWriteExecute": "yes",
    "CapabilityBoundingSet": "",
    "DevicePolicy": "closed",
}


@pytest.mark.parametrize("key", sorted(HARDENING))
def test_hardening_directive(key: str) -> None:
    assert _directives().get(key) == [HARDENING[key]]


def test_network_is_limited_to_what_the_page_and_mdns_need() -> None:
    families = _directives()["RestrictAddressFamilies"][0].split()
    assert sorted(families) == ["AF_INET", "AF_INET6", "AF_NETLINK", "AF_UNIX"]


def test_devices_hidden_except_spi_i2c_and_gpio() -> None:
    unit = _directives()
    assert unit.get("PrivateDevices", ["no"]) == ["no"], "PrivateDevices hides /dev/spidev*"
    rules = [value.split() for value in unit["DeviceAllow"]]
    patterns = []
    for spec, access in rules:
        assert access == "rw"
        if spec.startswith("/dev/"):
            # systemd stat()s a /dev path once at start: a glob there silently matches nothing.
            assert not set(spec) & set("*?["), f"{spec}: globs only work in char-<name> form"
        else:
            assert spec.startswith("char-"), spec
            patterns.append(spec.removeprefix("char-"))
    # Driver names as a Pi's /proc/devices lists them (spidev registers "spi").
    for driver in ["spi", "i2c", "gpiochip", "bcm2835-gpiomem", "rpi-gpiomem"]:
        assert any(fnmatch.fnmatchcase(driver, p) for p in patterns), f"{driver} not allowed"
    for other in ["mem", "tty", "input", "hidraw", "watchdog"]:
        assert not any(fnmatch.fnmatchcase(other, p) for p in patterns), f"{other} allowed"
