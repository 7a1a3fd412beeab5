"""mDNS announcement and the URL shown to players. Everything stays on loopback."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from zeroconf import AddressResolver, IPVersion, Zeroconf

from companion import discovery
from companion.discovery import Announcer, best_url, lan_ipv4

LOOPBACK = ["127.0.0.1"]


@pytest.fixture
def phone() -> Iterator[Zeroconf]:
    """A second mDNS stack, like a phone's, listening on loopback only."""
    zc = Zeroconf(interfaces=LOOPBACK, ip_version=IPVersion.V4Only)
    yield zc
    zc.close()


def test_phone_finds_the_page_and_companion_local(phone: Zeroconf) -> None:
    with Announcer(port=8123, addresses=LOOPBACK, interfaces=LOOPBACK) as announcer:
        assert announcer.announcing
        info = phone.get_service_info(
            "_http._tcp.local.", "companion._http._tcp.local.", timeout=3000
        )
        assert info is not None, "the service was not seen over multicast on loopback"
        assert info.port == 8123
        assert info.server == "companion.local."
        assert info.parsed_addresses() == ["127.0.0.1"]
        resolver = AddressResolver("companion.local.")
        assert resolver.request(phone, 3000)
        assert resolver.parsed_addresses() == ["127.0.0.1"]
        assert best_url(8123, announcer) == "http://companion.local:8123"
    assert not announcer.announcing
    # The goodbye packets make the phone forget the page at once.
    assert phone.get_service_info(
        "_http._tcp.local.", "companion._http._tcp.local.", timeout=500
    ) is None


def test_without_any_lan_address_nothing_is_announced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discovery, "lan_ipv4", lambda: None)
    announcer = Announcer(port=8080, interfaces=LOOPBACK)
    assert announcer.start() is False
    assert best_url(8080, announcer) == "http://127.0.0.1:8080"
    announcer.close()


def test_best_url_falls_back_to_the_lan_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discovery, "lan_ipv4", lambda: "192.168.1.23")
    assert best_url(8080) == "http://192.168.1.23:8080"
    assert best_url(8080, Announcer(port=8080)) == "http://192.168.1.23:8080"  # never started


def test_lan_ipv4_never_offers_loopback() -> None:
    # Phones cannot reach 127.0.0.1, so a loopback route means "no LAN address".
    assert lan_ipv4(("127.0.0.1", 9)) is None


def test_lan_ipv4_is_a_real_address_or_none() -> None:
    found = lan_ipv4()  # connect() on a UDP socket picks a route and sends nothing
    assert found is None or (found.count(".") == 3 and not found.startswith("127."))
