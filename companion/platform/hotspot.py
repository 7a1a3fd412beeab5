"""The Pi's own Wi-Fi where no known network is in reach (a venue, a holiday house).

At boot ``companion-hotspot.service`` (root) runs ``python -m companion.platform.hotspot``: when the
Wi-Fi is not connected to a known network and none is in reach, NetworkManager turns the Pi
into an access point ("shared" mode: DHCP and DNS on 10.42.0.1), every name phones look up
answers with the Pi (systemd/companion-captive.conf) and port 80 leads to the page (an nft
redirect), so a phone that joins lands on the page. It writes what phones need to join
(:data:`STATUS`); the companion service reads it to show the Wi-Fi's QR code on the OLED and
the page. Everything goes through nmcli (:class:`Nmcli`), so a fake can stand in for it.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

log = logging.getLogger("companion.platform.hotspot")

PROFILE = "companion-hotspot"
"""NetworkManager's connection profile for the access point."""
ADDRESS = "10.42.0.1"
"""The Pi's address on its own Wi-Fi (NetworkManager's shared mode hands out 10.42.0.x)."""
STATUS = Path("/run/companion-hotspot/status.json")
"""Written while the access point is up, for the companion service (gone at reboot)."""
PAGE_PORT = 8080
NFT_TABLE = ("inet", "companion_hotspot")
PASSWORD_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
"""No 0/o, 1/l: a password read off the OLED is typed right the first time."""
QR_ROOM = 53
"""Bytes a version 3 QR code holds at its lowest correction: the largest the 128x64 OLED
shows at 2 pixels a module (hardware.screens.qr_matrix)."""
WAIT_FOR_KNOWN = 45.0
"""Seconds NetworkManager gets at boot to join a known network by itself."""


class NmcliError(RuntimeError):
    """nmcli failed: its exit status (see nmcli(1), "EXIT STATUS") and what it said."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"nmcli exited with {status}: {message.strip()}")
        self.status = status


class Nmcli(Protocol):
    """Runs ``nmcli ARGS`` and returns its standard output; NmcliError when it fails."""

    def __call__(self, *args: str) -> str: ...


def run_nmcli(*args: str) -> str:
    """The real nmcli."""
    done = subprocess.run(["nmcli", *args], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise NmcliError(done.returncode, done.stderr or done.stdout)
    return done.stdout


def terse_fields(line: str) -> list[str]:
    """One line of ``nmcli -t`` split at its colons (a colon or backslash inside a value comes
    escaped with a backslash)."""
    fields, current, escaped = [], [], False
    for ch in line:
        if escaped:
            current.append(ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == ":":
            fields.append("".join(current))
            current = []
        else:
            current.append(ch)
    fields.append("".join(current))
    return fields


def unescape(value: str) -> str:
    """One value of ``nmcli -g`` as it is (backslash escapes undone)."""
    out, escaped = [], False
    for ch in value:
        if escaped or ch != "\\":
            out.append(ch)
            escaped = False
        else:
            escaped = True
    return "".join(out)


def wifi_qr(ssid: str, password: str) -> str:
    """The text of a Wi-Fi join QR code (phones' cameras offer to join): special characters
    (backslash, ``;``, ``,``, ``:`` and ``"``) escaped with a backslash."""

    def esc(value: str) -> str:
        return "".join("\\" + c if c in '\\;,:"' else c for c in value)

    return f"WIFI:S:{esc(ssid)};T:WPA;P:{esc(password)};;"


@dataclass(frozen=True)
class Hotspot:
    """What a phone needs to join the Pi's own Wi-Fi, and the page's address there."""

    ssid: str
    password: str
    address: str = ADDRESS
    port: int = PAGE_PORT

    @property
    def qr_text(self) -> str:
        return wifi_qr(self.ssid, self.password)

    @property
    def page_url(self) -> str:
        return f"http://{self.address}:{self.port}/"


def read_status(path: Path | None = None) -> Hotspot | None:
    """The access point the hotspot service brought up, or None (not up, or unreadable)."""
    try:
        data = json.loads((path or STATUS).read_text("utf-8"))
        return Hotspot(str(data["ssid"]), str(data["password"]), str(data["address"]),
                       int(data["port"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_status(hotspot: Hotspot | None, path: Path | None = None, group: str = "companion"
                 ) -> None:
    """Publish ``hotspot`` for the companion service (None: remove it). Readable by root and
    the service's group only: it holds the Wi-Fi password."""
    path = path or STATUS
    if hotspot is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(asdict(hotspot)), "utf-8")
    os.chmod(tmp, 0o640)
    try:
        import grp

        os.chown(tmp, -1, grp.getgrnam(group).gr_gid)
    except (KeyError, PermissionError):
        pass  # no such group (a test), or not root
    os.replace(tmp, path)


@dataclass(frozen=True)
class Settings:
    """``[hotspot]`` in the config: ``enabled`` (default true), ``ssid`` and ``password``
    (default: "Companion" and the end of the Wi-Fi's hardware address, and a password
    made up once and kept in NetworkManager's profile), ``wait_s``."""

    enabled: bool = True
    ssid: str | None = None
    password: str | None = None
    wait_s: float = WAIT_FOR_KNOWN

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Settings:
        section = dict(config.get("hotspot", {}))
        unknown = set(section) - {"enabled", "ssid", "password", "wait_s"}
        if unknown:
            raise ValueError(f"unknown key(s) in [hotspot]: {', '.join(sorted(unknown))}")
        out = cls(**section)
        if not isinstance(out.enabled, bool):
            raise ValueError("[hotspot] enabled is true or false")
        if out.ssid is not None and not 1 <= len(str(out.ssid).encode()) <= 32:
            raise ValueError("[hotspot] ssid is 1 to 32 bytes long")
        if out.password is not None and not (8 <= len(str(out.password)) <= 63
                                             and str(out.password).isascii()):
            raise ValueError("[hotspot] password is 8 to 63 plain ASCII characters (WPA2)")
        qr = wifi_qr(out.ssid or default_ssid("00:00"), out.password or make_password())
        if len(qr.encode()) > QR_ROOM:
            raise ValueError("[hotspot] ssid and password are too long together for the OLED's "
                             f"QR code ({len(qr.encode())} bytes with the rest, at most "
                             f"{QR_ROOM}): shorten one of them")
        return out


class Network:
    """The questions and orders this module puts to NetworkManager, through nmcli."""

    def __init__(self, nmcli: Nmcli) -> None:
        self.nmcli = nmcli

    def _rows(self, *args: str) -> list[list[str]]:
        return [terse_fields(line) for line in self.nmcli("-t", *args).splitlines() if line]

    def wifi_device(self) -> str | None:
        """The first Wi-Fi interface NetworkManager manages (wlan0 on a Pi), or None."""
        for device, kind, state in self._rows("-f", "DEVICE,TYPE,STATE", "device", "status"):
            if kind == "wifi" and state != "unmanaged":
                return device
        return None

    def active_on(self, device: str) -> str | None:
        """The connection profile active on ``device``, or None."""
        for name, dev in self._rows("-f", "NAME,DEVICE", "connection", "show", "--active"):
            if dev == device:
                return name
        return None

    def known_networks(self) -> dict[str, str]:
        """Wi-Fi client profiles: SSID -> profile name (not the access point's)."""
        out: dict[str, str] = {}
        for name, kind in self._rows("-f", "NAME,TYPE", "connection", "show"):
            if kind != "802-11-wireless" or name == PROFILE:
                continue
            ssid, mode = (self.nmcli("-g", "802-11-wireless.ssid,802-11-wireless.mode",
                                     "connection", "show", "id", name).splitlines() + ["", ""])[:2]
            if mode in ("", "infrastructure") and ssid:
                out.setdefault(unescape(ssid), name)
        return out

    def in_reach(self, device: str) -> set[str]:
        """The SSIDs the Wi-Fi hears now (a fresh scan)."""
        return {row[0] for row in self._rows("-f", "SSID", "device", "wifi", "list", "--rescan",
                                             "yes", "ifname", device) if row and row[0]}

    def hardware_address(self, device: str) -> str:
        return unescape(self.nmcli("-g", "GENERAL.HWADDR", "device", "show", device).strip())

    def stored_password(self) -> str | None:
        """The access point's password kept in its profile (root may read secrets)."""
        try:
            value = unescape(self.nmcli("-s", "-g", "802-11-wireless-security.psk", "connection",
                                        "show", "id", PROFILE).rstrip("\n"))
        except NmcliError as exc:
            if exc.status == 10:  # no such profile yet
                return None
            raise
        return value or None

    def start_access_point(self, device: str, ssid: str, password: str) -> None:
        """(Re)write the access point's profile and bring it up on ``device``."""
        settings = ["connection.interface-name", device, "connection.autoconnect", "no",
                    "802-11-wireless.ssid", ssid, "802-11-wireless.mode", "ap",
                    "802-11-wireless.band", "bg", "802-11-wireless-security.key-mgmt", "wpa-psk",
                    "802-11-wireless-security.psk", password,
                    # WPA2 only: WPA1/TKIP confuses phones and Pi firmware alike
                    "802-11-wireless-security.proto", "rsn",
                    "802-11-wireless-security.pairwise", "ccmp",
                    "802-11-wireless-security.group", "ccmp", "ipv4.method", "shared",
                    "ipv4.addresses", f"{ADDRESS}/24", "ipv6.method", "disabled"]
        try:
            self.nmcli("connection", "modify", "id", PROFILE, *settings)
        except NmcliError as exc:
            if exc.status != 10:
                raise
            self.nmcli("connection", "add", "type", "wifi", "con-name", PROFILE, *settings)
        self.nmcli("connection", "up", "id", PROFILE, "ifname", device)

    def join(self, profile: str, device: str) -> bool:
        try:
            self.nmcli("connection", "up", "id", profile, "ifname", device)
        except NmcliError as exc:
            log.info("joining %s failed: %s", profile, exc)
            return False
        return True

    def stop_access_point(self) -> None:
        try:
            self.nmcli("connection", "down", "id", PROFILE)
        except NmcliError as exc:
            if exc.status not in (10, 5):  # not there, or not active
                raise


def default_ssid(hardware_address: str) -> str:
    """"Companion 3F2A": the end of the Wi-Fi's address tells two tables apart (and the name
    fits two lines beside the OLED's QR code)."""
    tail = hardware_address.replace(":", "")[-4:].upper()
    return f"Companion {tail}" if tail else "Companion"


def make_password() -> str:
    return "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(10))


@dataclass(frozen=True)
class Outcome:
    """What :func:`ensure_network` did: "connected" (to ``network``), "hotspot" (up, see
    ``hotspot``), "no-wifi" (no Wi-Fi interface) or "disabled"."""

    state: str
    network: str | None = None
    hotspot: Hotspot | None = None


def ensure_network(net: Network, settings: Settings, *,
                   sleep: Callable[[float], None] = time.sleep,
                   clock: Callable[[], float] = time.monotonic) -> Outcome:
    """Stay on a known Wi-Fi if there is one in reach, else become an access point."""
    if not settings.enabled:
        return Outcome("disabled")
    device = net.wifi_device()
    if device is None:
        return Outcome("no-wifi")
    deadline = clock() + settings.wait_s
    while True:  # at boot NetworkManager joins a known network by itself: give it time
        active = net.active_on(device)
        if active is not None and active != PROFILE:
            return Outcome("connected", network=active)
        if clock() >= deadline:
            break
        sleep(3.0)
    known = net.known_networks()
    for ssid in sorted(net.in_reach(device) & set(known)):
        if net.join(known[ssid], device):
            return Outcome("connected", network=known[ssid])
    ssid = settings.ssid or default_ssid(net.hardware_address(device))
    password = settings.password or net.stored_password() or make_password()
    net.start_access_point(device, ssid, password)
    return Outcome("hotspot", hotspot=Hotspot(ssid, password))


def redirect_port_80(device: str, run: Callable[[Sequence[str], str], None] | None = None
                     ) -> None:
    """Send phones' captive-portal checks (port 80) on ``device`` to the page's port."""
    family, table = NFT_TABLE
    rules = (f"table {family} {table}\ndelete table {family} {table}\n"
             f"table {family} {table} {{\n  chain prerouting {{\n"
             f"    type nat hook prerouting priority dstnat; policy accept;\n"
             f"    iifname \"{device}\" tcp dport 80 redirect to :{PAGE_PORT}\n  }}\n}}\n")
    (run or _nft)(["nft", "-f", "-"], rules)


def _nft(cmd: Sequence[str], rules: str) -> None:
    subprocess.run(list(cmd), input=rules, text=True, check=True, timeout=30)


def main(argv: list[str] | None = None) -> int:
    """``python -m companion.platform.hotspot [--config FILE]``: run once at boot, as root."""
    import argparse

    from companion.platform.config import ConfigError, load_config

    parser = argparse.ArgumentParser(prog="companion-hotspot", description=__doc__)
    parser.add_argument("--config", default="/etc/companion/config.toml")
    args = parser.parse_args(argv)
    from companion.platform.log_lines import configure

    configure(logging.INFO, "%(message)s")
    try:
        settings = Settings.from_config(load_config(args.config)
                                        if Path(args.config).exists() else {})
    except (ConfigError, ValueError) as exc:
        print(f"companion-hotspot: {exc}", file=sys.stderr)
        return 2
    net = Network(run_nmcli)
    try:
        outcome = ensure_network(net, settings)
        if outcome.hotspot is not None:
            device = net.wifi_device() or "wlan0"
            redirect_port_80(device)
    except (NmcliError, OSError, subprocess.SubprocessError) as exc:
        print(f"companion-hotspot: {exc}", file=sys.stderr)
        write_status(None)
        return 1
    write_status(outcome.hotspot)
    if outcome.hotspot is not None:
        log.info("No known Wi-Fi in reach: access point %r is up; the page is %s",
                 outcome.hotspot.ssid, outcome.hotspot.page_url)
    else:
        log.info("Wi-Fi: %s%s", outcome.state, f" ({outcome.network})" if outcome.network else "")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
