"""mDNS announcement and the URL shown to players. Everything stays on loopback, and each test
announces a name of its own, so a companion running on the same machine (./scripts/start)
cannot answer in its place."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
from zeroconf import AddressResolver, IPVersion, Zeroconf

from companion.platform import discovery
from companion.platform.discovery import Announcer, best_url, lan_ipv4

LOOPBACK = ["127.0.0.1"]


@pytest.fixture
def phone() -> Iterator[Zeroconf]:
    """A second mDNS stack, like a phone's, listening on loopback only."""
    zc = Zeroconf(interfaces=LOOPBACK, ip_version=IPVersion.V4Only)
    yield zc
    zc.close()


@pytest.fixture
def name() -> str:
    """A service and host name no other companion on this machine uses."""
    return f"companion-test-{secrets.token_hex(4)}"


def test_phone_finds_the_page_and_its_local_name(phone: Zeroconf, name: str) -> None:
    with Announcer(name, port=8123, addresses=LOOPBACK, interfaces=LOOPBACK) as announcer:
        assert announcer.announcing
        info = phone.get_service_info("_http._tcp.local.", f"{name}._http._tcp.local.",
                                      timeout=3000)
        assert info is not None, "the service was not seen over multicast on loopback"
        assert info.port == 8123
        assert info.server == f"{name}.local."
        assert info.parsed_addresses() == ["127.0.0.1"]
        resolver = AddressResolver(f"{name}.local.")
        assert resolver.request(phone, 3000)
        assert resolver.parsed_addresses() == ["127.0.0.1"]
        assert best_url(8123, announcer) == f"http://{name}.local:8123"
    assert not announcer.announcing
    # The goodbye packets make the phone forget the page at once.
    assert phone.get_service_info("_http._tcp.local.", f"{name}._http._tcp.local.",
                                  timeout=500) is None


def test_another_companion_on_the_same_machine_does_not_answer_for_ours(
        phone: Zeroconf, name: str) -> None:
    """As when ./scripts/start runs beside the tests: the default "companion" is taken."""
    with Announcer(port=8080, addresses=LOOPBACK, interfaces=LOOPBACK) as running, \
            Announcer(name, port=8124, addresses=LOOPBACK, interfaces=LOOPBACK) as ours:
        assert running.announcing and ours.announcing
        info = phone.get_service_info("_http._tcp.local.", f"{name}._http._tcp.local.",
                                      timeout=3000)
        assert info is not None and info.port == 8124


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


def test_a_server_bound_to_loopback_shows_an_address_that_reaches_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Bound to 127.0.0.1 it showed the LAN address (http://192.0.2.2:...), which phones
    could not reach."""
    from companion.platform.discovery import reachable_url

    monkeypatch.setattr(discovery, "lan_ipv4", lambda: "192.0.2.2")
    assert reachable_url("127.0.0.1", 8080) == "http://127.0.0.1:8080"
    assert reachable_url("localhost", 8080) == "http://127.0.0.1:8080"
    assert reachable_url("192.168.1.5", 8080) == "http://192.168.1.5:8080"
    assert reachable_url("0.0.0.0", 8080) == "http://192.0.2.2:8080"


def test_wifi_up_late_is_followed_and_announced(
        monkeypatch: pytest.MonkeyPatch, phone: Zeroconf, name: str) -> None:
    """The address was read once at start: with Wi-Fi up late the QR pointed at 127.0.0.1
    and mDNS never started. Now both follow the network as it comes and goes."""
    from companion.platform.discovery import NetworkFollower

    network: list[str | None] = [None]
    monkeypatch.setattr(discovery, "lan_ipv4", lambda: network[0])
    urls: list[str] = []
    announcer = Announcer(name, port=8125, interfaces=LOOPBACK)
    follower = NetworkFollower("0.0.0.0", 8125, announcer, urls.append)
    try:
        assert follower.check() == "http://127.0.0.1:8125" and not announcer.announcing
        network[0] = "127.0.0.1"  # the Wi-Fi comes up (on loopback here)
        assert follower.check() == f"http://{name}.local:8125"
        assert announcer.announcing
        info = phone.get_service_info("_http._tcp.local.", f"{name}._http._tcp.local.",
                                      timeout=3000)
        assert info is not None and info.parsed_addresses() == ["127.0.0.1"]
        network[0] = None  # and goes
        assert follower.check() == "http://127.0.0.1:8125" and not announcer.announcing
    finally:
        announcer.close()
    assert urls == ["http://127.0.0.1:8125", f"http://{name}.local:8125",
                    "http://127.0.0.1:8125"]


def test_the_mdns_name_is_set_in_the_config(tmp_path: object) -> None:
    """docs/raspberry-pi.md said the config sets it; there was no such key."""
    from pathlib import Path

    from companion.platform.config import ConfigError, load_config, server_name

    folder = Path(str(tmp_path))
    good = folder / "good.toml"
    good.write_text('[server]\nname = "table-2"\n')
    assert server_name(load_config(good)) == "table-2"
    assert server_name({}) == "companion"
    bad = folder / "bad.toml"
    bad.write_text('[server]\nname = "Table 2.local"\n')
    with pytest.raises(ConfigError, match="name"):
        load_config(bad)
