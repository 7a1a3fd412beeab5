"""The companion's config file (TOML): server, hardware, banker PIN."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from companion.engine.i18n import Msg


class ConfigError(ValueError):
    """The config file is missing or wrong; the message says how to fix it."""


def load_config(path: str | Path | None) -> dict[str, Any]:
    """The parsed config, or defaults when no path is given; the sections of the venue
    adapters are checked by the composition root (``companion.app.config``)."""
    if path is None:
        return {}
    p = Path(path)
    try:
        with p.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(Msg(
            "Config file {file} does not exist. Copy systemd/config.example.toml "
            "there, or start without --config to use the defaults.", file=str(p))) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(Msg("Config file {file} is not valid TOML: {reason}", file=str(p),
                              reason=str(exc))) from None
    unknown = set(data) - {"server", "hardware", "banker", "state", "venue", "home_assistant",
                           "hotspot"}
    if unknown:
        raise ConfigError(Msg(
            "Unknown section(s) in {file}: {sections}. "
            "Known: server, hardware, banker, state, venue, home_assistant, hotspot.",
            file=str(p), sections=", ".join(sorted(unknown))))
    if isinstance(data.get("hardware"), dict) and "enabled" in data["hardware"]:
        data["hardware"] = _hardware_switch(dict(data["hardware"]), p)
    if isinstance(data.get("server"), dict):
        server_name(data)
    return data


def server_name(config: dict[str, Any]) -> str:
    """``[server] name``: the mDNS name phones open as ``http://<name>.local``; "companion"
    by default. One DNS label: lower-case letters, digits and inner hyphens."""
    from companion.platform.discovery import NAME

    name = config.get("server", {}).get("name", "companion")
    if not isinstance(name, str) or not NAME.match(name):
        raise ConfigError(Msg(
            "[server] name = {name}: use lower-case letters, digits and hyphens (at most "
            "63, not first or last), e.g. \"companion\" or \"table-2\"; phones open "
            "http://<name>.local.", name=repr(name)))
    return name


SIMULATED_HARDWARE: dict[str, Any] = {
    "readers": [{"role": "table", "kind": "fake"}],
    "display": {"kind": "dummy"},
    "buttons": {"kind": "mock"},
    "feedback": {"kind": "mock"},
}
"""What ``[hardware] enabled = false`` stands for: virtual taps, the OLED mirror and the
buttons on the page, no GPIO, SPI or I2C touched."""


def _hardware_switch(section: dict[str, Any], path: Path) -> dict[str, Any]:
    """``enabled = true`` keeps the section as it is; ``false`` swaps every part for its
    simulation (tap timing settings are kept)."""
    enabled = section.pop("enabled")
    if not isinstance(enabled, bool):
        raise ConfigError(Msg("[hardware] enabled in {file} is true or false, not {value}.",
                              file=str(path), value=repr(enabled)))
    if enabled:
        return section
    out = {k: v for k, v in section.items() if k == "taps"}
    out.update({k: v for k, v in SIMULATED_HARDWARE.items()})
    return out


def default_state_dir() -> Path:
    """``$COMPANION_STATE_DIR``, else ``~/.local/state/companion``."""
    env = os.environ.get("COMPANION_STATE_DIR")
    return Path(env) if env else Path.home() / ".local" / "state" / "companion"


def state_dir_of(args: Any) -> Path:
    """The state directory a command line names (``--state-dir``), else the default."""
    given = getattr(args, "state_dir", None)
    return Path(given) if given else default_state_dir()


def on_raspberry_pi() -> bool:
    try:
        return (
            "raspberry pi" in Path("/proc/device-tree/model").read_text("utf-8", "ignore").lower()
        )
    except OSError:
        return False


MOUNTINFO = Path("/proc/self/mountinfo")
"""Where the kernel lists this process's mounts (a test points it at a copy)."""
VOLATILE_FS = {"tmpfs", "ramfs"}
"""File systems that live in memory: everything on them is gone after a reboot."""


def _mounts(mountinfo: Path) -> list[tuple[str, str, str]]:
    """(mount point, file system type, super options) per line of ``/proc/self/mountinfo``."""
    out = []
    for line in mountinfo.read_text("utf-8", "replace").splitlines():
        fields, _, tail = line.partition(" - ")
        parts, rest = fields.split(), tail.split()
        if len(parts) >= 5 and rest:
            point = parts[4].encode().decode("unicode_escape")  # "\040" is a space
            out.append((point, rest[0], rest[2] if len(rest) > 2 else ""))
    return out


def _holder(path: str, mounts: list[tuple[str, str, str]]) -> tuple[str, str, str] | None:
    """The mount ``path`` lives on: the last listed one whose point is its longest prefix."""
    best: tuple[str, str, str] | None = None
    for mount in mounts:
        point = mount[0].rstrip("/") + "/"
        if (path.rstrip("/") + "/").startswith(point) and (
                best is None or len(mount[0]) >= len(best[0])):
            best = mount
    return best


def volatile_state_problem(state_dir: Path, mountinfo: Path | None = None) -> str | None:
    """Why games kept in ``state_dir`` would be gone after a reboot, or None.

    True of a directory in memory (tmpfs) and of one on an overlay whose writable layer is in
    memory: Raspberry Pi OS's overlay file system (raspi-config, "Overlay File System") puts
    the whole root there, and the partitions in /etc/fstab too unless ``overlayroot`` is told
    ``recurse=0``. A directory under the system's temporary directory is taken as meant to be
    temporary (a developer's trial run)."""
    import tempfile

    path = os.path.realpath(state_dir)
    temp = os.path.realpath(tempfile.gettempdir())
    if (path + "/").startswith(temp.rstrip("/") + "/"):
        return None
    try:
        mounts = _mounts(mountinfo or MOUNTINFO)
    except OSError:
        return None  # no /proc: nothing to tell
    holder = _holder(path, mounts)
    if holder is None:
        return None
    point, fstype, options = holder
    upper = next((o.split("=", 1)[1] for o in options.split(",") if o.startswith("upperdir=")),
                 None)
    under = _holder(upper, mounts) if fstype == "overlay" and upper else None
    if fstype not in VOLATILE_FS and not (under is not None and under[1] in VOLATILE_FS):
        return None
    where = (f"in memory ({fstype} on {point})" if under is None
             else f"on an overlay whose changes are kept in memory ({point}, the read-only "
                  "root of Raspberry Pi OS's overlay file system)")
    return (f"The state directory {state_dir} is {where}: every game saved there would be "
            "lost at the next reboot, so the companion does not start. Keep the games on a "
            "writable partition mounted there (docs/raspberry-pi.md, \"Read-only root\"), or "
            "turn the overlay file system off (sudo raspi-config nonint do_overlayfs 1).")
