"""A NetworkManager behind a fake ``nmcli``, as strict as the real one where our code can go
wrong (nmcli(1), NetworkManager 1.42 on Raspberry Pi OS Bookworm, 1.52 on Trixie):

- terse output (``-t``/``-g``) escapes ``:`` and ``\\`` inside values with a backslash;
- exit statuses: 2 bad input, 4 activation failed, 8 NetworkManager not running, 10 no such
  connection or device; the messages are nmcli's;
- properties are checked as NetworkManager does: an SSID is 1-32 bytes, a WPA passphrase 8-63
  printable ASCII characters (or 64 hex digits), a mode, band, method or key management
  outside its list is refused, an unknown property is refused;
- changes need root (polkit refuses others: "Insufficient privileges"), and secrets show only
  with ``-s`` as root;
- a client profile comes up only if its SSID is in the air; an access point needs a Wi-Fi
  device that can be one; ``device wifi list`` takes its options in nmcli's documented order.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from companion.platform.hotspot import NmcliError

ALIASES = {
    "type": "connection.type", "con-name": "connection.id", "ifname":
    "connection.interface-name", "autoconnect": "connection.autoconnect",
    "ssid": "802-11-wireless.ssid", "mode": "802-11-wireless.mode",
    "band": "802-11-wireless.band",
}
SETTING_ALIASES = {"wifi": "802-11-wireless", "wifi-sec": "802-11-wireless-security",
                   "con": "connection"}
CHOICES = {
    "connection.type": {"802-11-wireless", "wifi", "802-3-ethernet", "ethernet"},
    "connection.autoconnect": {"yes", "no", "true", "false"},
    "802-11-wireless.mode": {"infrastructure", "ap", "adhoc", "mesh"},
    "802-11-wireless.band": {"a", "bg"},
    "802-11-wireless-security.key-mgmt": {"none", "ieee8021x", "wpa-psk", "wpa-eap", "sae",
                                          "owe", "wpa-eap-suite-b-192"},
    "802-11-wireless-security.proto": {"wpa", "rsn"},
    "802-11-wireless-security.pairwise": {"tkip", "ccmp"},
    "802-11-wireless-security.group": {"wep40", "wep104", "tkip", "ccmp"},
    "ipv4.method": {"auto", "manual", "shared", "link-local", "disabled"},
    "ipv6.method": {"auto", "dhcp", "manual", "ignore", "link-local", "disabled", "shared"},
}
FREE = {"connection.id", "connection.interface-name", "802-11-wireless.ssid",
        "802-11-wireless-security.psk", "ipv4.addresses"}


def esc(value: str) -> str:
    return value.replace("\\", "\\\\").replace(":", "\\:")


@dataclass
class Profile:
    props: dict[str, str]

    @property
    def name(self) -> str:
        return self.props["connection.id"]

    @property
    def type(self) -> str:
        kind = self.props.get("connection.type", "")
        return {"wifi": "802-11-wireless", "ethernet": "802-3-ethernet"}.get(kind, kind)


@dataclass
class FakeNetworkManager:
    """``nm(*args)`` answers like ``nmcli args``. ``air``: SSIDs in reach; ``joins_after``:
    polls of the active connections before NetworkManager has joined a known network in the
    air by itself (None: it never does, autoconnect off)."""

    wifi: str | None = "wlan0"
    hwaddr: str = "DC:A6:32:01:3F:2A"
    ap_capable: bool = True
    air: set[str] = field(default_factory=set)
    root: bool = True
    running: bool = True
    joins_after: int | None = 0
    profiles: list[Profile] = field(default_factory=list)
    active: dict[str, str] = field(default_factory=dict)  # device -> profile name
    calls: list[tuple[str, ...]] = field(default_factory=list)
    _polls: int = 0
    _paths: itertools.count[int] = field(default_factory=lambda: itertools.count(3))

    def known(self, name: str, ssid: str) -> FakeNetworkManager:
        self.profiles.append(Profile({"connection.id": name, "connection.type": "802-11-wireless",
                                      "802-11-wireless.ssid": ssid,
                                      "802-11-wireless.mode": "infrastructure",
                                      "connection.autoconnect": "yes"}))
        return self

    def profile(self, name: str) -> Profile | None:
        return next((p for p in self.profiles if p.name == name), None)

    # ---- nmcli ----
    def __call__(self, *args: str) -> str:
        self.calls.append(args)
        if not self.running:
            raise NmcliError(8, "Error: NetworkManager is not running.")
        opts = {"terse": False, "secrets": False, "fields": None, "get": None}
        rest = list(args)
        while rest and rest[0].startswith("-"):
            opt = rest.pop(0)
            if opt == "-t":
                opts["terse"] = True
            elif opt == "-s":
                opts["secrets"] = True
            elif opt in ("-f", "-g"):
                if not rest:
                    raise NmcliError(2, f"Error: option '{opt}' requires an argument.")
                opts["fields" if opt == "-f" else "get"] = rest.pop(0)
            else:
                raise NmcliError(2, f"Error: Option '{opt}' is unknown, try 'nmcli -help'.")
        if opts["fields"] and not opts["terse"]:
            raise NmcliError(2, "Error: this fake only speaks terse output (-t or -g).")
        if rest[:2] == ["device", "status"]:
            return self._device_status(opts)
        if rest[:3] == ["device", "wifi", "list"]:
            return self._wifi_list(rest[3:], opts)
        if rest[:2] == ["device", "show"]:
            return self._device_show(rest[2:], opts)
        if rest[:2] == ["connection", "show"]:
            return self._connection_show(rest[2:], opts)
        if rest[:2] == ["connection", "add"]:
            return self._add(rest[2:])
        if rest[:2] == ["connection", "modify"]:
            return self._modify(rest[2:])
        if rest[:2] == ["connection", "up"]:
            return self._up(rest[2:])
        if rest[:2] == ["connection", "down"]:
            return self._down(rest[2:])
        raise NmcliError(2, f"Error: argument '{' '.join(rest)}' not understood.")

    def _select(self, opts: dict[str, object], rows: list[dict[str, str]], known: list[str]
                ) -> str:
        wanted = str(opts["fields"] or ",".join(known)).split(",")
        for name in wanted:
            if name not in known:
                raise NmcliError(2, f"Error: invalid field '{name}'; allowed fields: "
                                    f"{','.join(known)}.")
        return "".join(":".join(esc(row[n]) for n in wanted) + "\n" for row in rows)

    def _devices(self) -> list[dict[str, str]]:
        rows = []
        if self.wifi:
            state = "connected" if self.wifi in self.active else "disconnected"
            rows.append({"DEVICE": self.wifi, "TYPE": "wifi", "STATE": state,
                         "CONNECTION": self.active.get(self.wifi, "--")})
            rows.append({"DEVICE": f"p2p-dev-{self.wifi}", "TYPE": "wifi-p2p",
                         "STATE": "disconnected", "CONNECTION": "--"})
        rows.append({"DEVICE": "eth0", "TYPE": "ethernet", "STATE": "unavailable",
                     "CONNECTION": "--"})
        rows.append({"DEVICE": "lo", "TYPE": "loopback", "STATE": "unmanaged",
                     "CONNECTION": "--"})
        return rows

    def _device_status(self, opts: dict[str, object]) -> str:
        return self._select(opts, self._devices(), ["DEVICE", "TYPE", "STATE", "CONNECTION"])

    def _need_device(self, name: str) -> None:
        if name != self.wifi:
            raise NmcliError(10, f"Error: Device '{name}' not found.")

    def _wifi_list(self, rest: list[str], opts: dict[str, object]) -> str:
        if rest[:2] == ["--rescan", "yes"] or rest[:2] == ["--rescan", "no"]:
            rest = rest[2:]
        if rest[:1] == ["ifname"] and len(rest) >= 2:
            self._need_device(rest[1])
            rest = rest[2:]
        if rest:
            raise NmcliError(2, f"Error: invalid extra argument '{rest[0]}'.")
        if not self.wifi:
            raise NmcliError(10, "Error: No Wi-Fi device found.")
        heard = set() if self.active.get(self.wifi) == "companion-hotspot" else self.air
        rows = [{"SSID": s, "SIGNAL": "70"} for s in sorted(heard)]
        return self._select(opts, rows, ["SSID", "SIGNAL"])

    def _device_show(self, rest: list[str], opts: dict[str, object]) -> str:
        if len(rest) != 1:
            raise NmcliError(2, "Error: 'device show' takes one device.")
        self._need_device(rest[0])
        values = {"GENERAL.HWADDR": self.hwaddr,
                  "GENERAL.CONNECTION": self.active.get(rest[0], "")}
        return self._get(opts, values)

    def _get(self, opts: dict[str, object], values: dict[str, str]) -> str:
        if not opts["get"]:
            raise NmcliError(2, "Error: this fake answers 'show' with -g only.")
        out = []
        for name in str(opts["get"]).split(","):
            if name not in values:
                raise NmcliError(2, f"Error: invalid field '{name}'.")
            out.append(esc(values[name]))
        return "".join(v + "\n" for v in out)

    def _find(self, rest: list[str]) -> tuple[Profile, list[str]]:
        if rest[:1] == ["id"]:
            rest = rest[1:]
        if not rest:
            raise NmcliError(2, "Error: No connection specified.")
        found = self.profile(rest[0])
        if found is None:
            raise NmcliError(10, f"Error: {rest[0]} - no such connection profile.")
        return found, rest[1:]

    def _connection_show(self, rest: list[str], opts: dict[str, object]) -> str:
        if rest == ["--active"]:
            self.poll()
        if not rest or rest == ["--active"]:
            rows = [{"NAME": p.name, "TYPE": p.type, "DEVICE": self._device_of(p.name)}
                    for p in self.profiles if rest != ["--active"] or self._device_of(p.name)
                    != "--"]
            return self._select(opts, rows, ["NAME", "TYPE", "DEVICE"])
        found, extra = self._find(rest)
        if extra:
            raise NmcliError(2, f"Error: invalid extra argument '{extra[0]}'.")
        values = dict(found.props)
        if not (opts["secrets"] and self.root):
            values = {k: ("" if k.endswith(".psk") else v) for k, v in values.items()}
        for key in ("802-11-wireless.mode", "802-11-wireless-security.psk"):
            values.setdefault(key, "")
        return self._get(opts, values)

    def _device_of(self, name: str) -> str:
        return next((dev for dev, prof in self.active.items() if prof == name), "--")

    def _props(self, rest: list[str], aliases: bool) -> dict[str, str]:
        """``connection add`` takes the short aliases (type, con-name, ifname ...); modify
        takes setting.property names (with a setting alias such as wifi-sec)."""
        if len(rest) % 2:
            raise NmcliError(2, f"Error: value for '{rest[-1]}' is missing.")
        out = {}
        for key, value in zip(rest[::2], rest[1::2], strict=True):
            key = ALIASES.get(key, key) if aliases else key
            setting, _, prop = key.partition(".")
            key = f"{SETTING_ALIASES.get(setting, setting)}.{prop}" if prop else key
            if key not in CHOICES and key not in FREE:
                raise NmcliError(2, f"Error: invalid property '{key}'.")
            if key in CHOICES and value not in CHOICES[key]:
                raise NmcliError(2, f"Error: failed to modify {key}: '{value}' not among "
                                    f"[{', '.join(sorted(CHOICES[key]))}].")
            out[key] = value
        return out

    def _check(self, props: dict[str, str], verb: str, name: str) -> None:
        def bad(prop: str) -> NmcliError:
            return NmcliError(2, f"Error: Failed to {verb} '{name}' connection: {prop}: "
                                 "property is invalid")

        ssid = props.get("802-11-wireless.ssid", "")
        if not 1 <= len(ssid.encode()) <= 32:
            raise bad("802-11-wireless.ssid")
        psk = props.get("802-11-wireless-security.psk")
        if psk is not None:
            hex64 = len(psk) == 64 and all(c in "0123456789abcdefABCDEF" for c in psk)
            if not hex64 and not (8 <= len(psk) <= 63 and psk.isascii() and psk.isprintable()):
                raise bad("802-11-wireless-security.psk")
            if props.get("802-11-wireless-security.key-mgmt") != "wpa-psk":
                raise bad("802-11-wireless-security.key-mgmt")
        if props.get("802-11-wireless.mode") == "ap" and props.get("ipv4.method") not in (
                "shared", "manual"):
            raise bad("ipv4.method")

    def _privileged(self, verb: str, name: str) -> None:
        if not self.root:
            raise NmcliError(1, f"Error: Failed to {verb} '{name}' connection: Insufficient "
                                "privileges")

    def _add(self, rest: list[str]) -> str:
        props = self._props(rest, aliases=True)
        name = props.get("connection.id", "wifi")
        self._privileged("add", name)
        if props.get("connection.type") not in ("wifi", "802-11-wireless"):
            raise NmcliError(2, "Error: 'type' argument is required.")
        self._check(props, "add", name)
        props["connection.type"] = "802-11-wireless"
        self.profiles.append(Profile(props))
        return f"Connection '{name}' (8a1b-fake) successfully added.\n"

    def _modify(self, rest: list[str]) -> str:
        found, rest = self._find(rest)
        self._privileged("modify", found.name)
        props = {**found.props, **self._props(rest, aliases=False)}
        self._check(props, "modify", found.name)
        found.props = props
        return ""

    def _up(self, rest: list[str]) -> str:
        found, rest = self._find(rest)
        device = self.wifi
        if rest[:1] == ["ifname"] and len(rest) == 2:
            self._need_device(rest[1])
            device = rest[1]
        elif rest:
            raise NmcliError(2, f"Error: invalid extra argument '{rest[0]}'.")
        self._privileged("activate", found.name)
        if device is None:
            raise NmcliError(10, "Error: no device found for connection.")
        bound = found.props.get("connection.interface-name")
        if bound and bound != device:
            raise NmcliError(4, "Error: Connection activation failed: the connection is "
                                f"bound to {bound}")
        if found.props.get("802-11-wireless.mode") == "ap":
            if not self.ap_capable:
                raise NmcliError(4, "Error: Connection activation failed: The device does "
                                    "not support Access Point mode")
        elif found.props.get("802-11-wireless.ssid") not in self.air:
            raise NmcliError(4, "Error: Connection activation failed: The Wi-Fi network "
                                "could not be found")
        self.active[device] = found.name
        return ("Connection successfully activated (D-Bus active path: /org/freedesktop/"
                f"NetworkManager/ActiveConnection/{next(self._paths)})\n")

    def _down(self, rest: list[str]) -> str:
        found, rest = self._find(rest)
        device = self._device_of(found.name)
        if device == "--":
            raise NmcliError(10, f"Error: '{found.name}' is not an active connection.")
        del self.active[device]
        return f"Connection '{found.name}' successfully deactivated.\n"

    # ---- what NetworkManager does by itself ----
    def poll(self) -> None:
        """Called where our code asks for the active connections: after ``joins_after`` polls
        NetworkManager has joined a known network in the air (autoconnect)."""
        self._polls += 1
        if (self.wifi and self.wifi not in self.active and self.joins_after is not None
                and self._polls > self.joins_after):
            for p in self.profiles:
                if (p.props.get("802-11-wireless.mode") == "infrastructure"
                        and p.props.get("802-11-wireless.ssid") in self.air
                        and p.props.get("connection.autoconnect", "yes") == "yes"):
                    self.active[self.wifi] = p.name
                    return
