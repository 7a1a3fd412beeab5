"""How phones find the companion: an mDNS announcement (companion.local) and the URL to show.

``Announcer`` registers ``<name>._http._tcp.local.`` with the host name ``<name>.local`` through
zeroconf. ``best_url`` picks what to print and put in the QR code: the ``.local`` name while it is
being announced, else the Pi's LAN IPv4 address.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from types import TracebackType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # zeroconf (and asyncio) load only when announcing: ~5 MB on a Pi
    from zeroconf import ServiceInfo, Zeroconf

log = logging.getLogger(__name__)

SERVICE_TYPE = "_http._tcp.local."
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
