"""How phones find the companion: an mDNS announcement (companion.local) and the URL to show.

``Announcer`` registers ``<name>._http._tcp.local.`` with the host name ``<name>.local`` through
zeroconf. ``best_url`` picks what to print and put in the QR code: the ``.local`` name while it is
being announced, else the Pi's LAN IPv4 address; ``reachable_url`` first asks whether the server
is bound to an address phones can reach at all. ``NetworkFollower`` follows the network as it
comes and goes (Wi-Fi up late, a new address): it announces again and reports the new URL.
"""

from __future__ import annotations

import ipaddress
import logging
import re
import socket
import threading
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # zeroconf (and asyncio) load only when announcing: ~5 MB on a Pi
    from zeroconf import ServiceInfo, Zeroconf

log = logging.getLogger(__name__)

SERVICE_TYPE = "_http._tcp.local."
NAME = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")
"""An mDNS name: one DNS label, lower case (``[server] name``)."""
FOLLOW_S = 5.0
"""How often :class:`NetworkFollower` looks at the network."""
# Any private address works: connecting a UDP socket only picks a route, it sends nothing.
_PROBE = ("10.255.255.255", 9)


class Announcer:
    """Announces the web page over mDNS; ``start()`` returns False (and logs) if that fails."""

    def __init__(
        self,
        name: str = "companion",
        port: int = 8080,
        addresses: list[str] | None = None,
        *,
        interfaces: Any = None,
    ) -> None:
        self.name = name
        self.port = port
        self.addresses = addresses
        self.interfaces = interfaces
        """zeroconf's ``interfaces`` (None: all of them)."""
        self.info: ServiceInfo | None = None
        self._zc: Zeroconf | None = None

    @property
    def host(self) -> str:
        """The announced host name, e.g. ``companion.local``."""
        return f"{self.name}.local"

    @property
    def announcing(self) -> bool:
        """True between a successful ``start()`` and ``close()``."""
        return self.info is not None

    def start(self) -> bool:
        """Register the service and host name on the network."""
        if self.announcing:
            return True
        from zeroconf import InterfaceChoice, IPVersion, ServiceInfo, Zeroconf

        addresses = self.addresses or [ip for ip in (lan_ipv4(),) if ip]
        if not addresses:
            log.warning("mDNS: no LAN address found; not announcing %s", self.host)
            return False
        info = ServiceInfo(
            SERVICE_TYPE,
            f"{self.name}.{SERVICE_TYPE}",
            port=self.port,
            parsed_addresses=addresses,
            server=f"{self.host}.",
            properties={"path": "/"},
        )
        try:
            interfaces = InterfaceChoice.All if self.interfaces is None else self.interfaces
            self._zc = Zeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
            self._zc.register_service(info, allow_name_change=True)
        except Exception as exc:  # OSError, or zeroconf's own errors
            log.warning("mDNS announcement failed (%s); phones must use the IP address", exc)
            self.close()
            return False
        self.info = info
        log.info("mDNS: announcing http://%s:%d/ at %s", self.host, self.port, addresses)
        return True

    def close(self) -> None:
        """Withdraw the announcement (phones forget the name) and release the sockets."""
        if self._zc is not None:
            try:
                if self.info is not None:
                    self._zc.unregister_service(self.info)
            finally:
                self._zc.close()
        self._zc = None
        self.info = None

    def __enter__(self) -> Announcer:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def lan_ipv4(probe: tuple[str, int] = _PROBE) -> str | None:
    """The IPv4 address this machine uses on its LAN, or None (no network, or only loopback).

    Uses the routing table through a UDP ``connect()``, which sends no packet.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(probe)
            address = str(sock.getsockname()[0])
        except OSError:
            return None
    ip = ipaddress.IPv4Address(address)
    if ip.is_loopback or ip.is_unspecified:
        return None
    return address


def best_url(port: int, announcer: Announcer | None = None) -> str:
    """The address to show players: ``http://companion.local:PORT`` while mDNS announces it,
    otherwise ``http://<LAN IPv4>:PORT``, otherwise ``http://127.0.0.1:PORT`` (no network)."""
    if announcer is not None and announcer.announcing:
        return f"http://{announcer.host}:{port}"
    return f"http://{lan_ipv4() or '127.0.0.1'}:{port}"


def own_names(name: str = "companion") -> list[str]:
    """The names the page answers to: ``<name>.local`` and the Pi's own host name (bare and
    ``.local``), lower case."""
    host = socket.gethostname().lower().split(".")[0]
    return sorted({f"{name}.local", name, host, f"{host}.local"} - {""})


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a bind address) reaches this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _wildcard(host: str) -> bool:
    return host in ("", "0.0.0.0", "::")


def reachable_url(bind: str, port: int, announcer: Announcer | None = None) -> str:
    """An address that reaches a server bound to ``bind``: on loopback only this machine can
    (``http://127.0.0.1:PORT``); bound to one address, that address; bound to every address,
    :func:`best_url`."""
    if is_loopback(bind):
        return f"http://127.0.0.1:{port}"
    if not _wildcard(bind):
        return f"http://[{bind}]:{port}" if ":" in bind else f"http://{bind}:{port}"
    return best_url(port, announcer)


class NetworkFollower:
    """Looks at the LAN address every ``interval`` seconds; when it changes (Wi-Fi came up
    late, went, or got a new address) it announces the name again on the new address and
    calls ``on_url(url)`` with the address to show. ``check()`` is one look (tests call it)."""

    def __init__(self, bind: str, port: int, announcer: Announcer | None,
                 on_url: Callable[[str], None], *, interval: float = FOLLOW_S,
                 lan: Callable[[], str | None] | None = None) -> None:
        self.bind, self.port, self.announcer = bind, port, announcer
        self._on_url = on_url
        self.interval = interval
        self._lan = lan or (lambda: lan_ipv4())
        self._address: str | None = None
        self.url = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def check(self) -> str:
        """Follow the network once; the URL to show now."""
        address = self._lan() if _wildcard(self.bind) else None
        announcer = self.announcer
        if announcer is not None and (address != self._address or not announcer.announcing):
            if address != self._address:
                announcer.close()
            if address is not None and not announcer.announcing:
                announcer.start()
        self._address = address
        url = reachable_url(self.bind, self.port, announcer)
        if url != self.url:
            self.url = url
            log.info("the page is at %s", url)
            try:
                self._on_url(url)
            except Exception:
                log.exception("telling the new address failed")
        return url

    def start(self) -> str:
        """Look once now, then every ``interval`` seconds on a thread; the URL to show."""
        url = self.check()
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="network", daemon=True)
            self._thread.start()
        return url

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.check()
            except Exception:
                log.exception("following the network failed")

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
