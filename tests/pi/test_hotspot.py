"""No Wi-Fi at the venue: the Pi stays on a known network when one is in reach and becomes
its own access point when none is, through nmcli (a fake NetworkManager as strict as nmcli)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import segno

from companion.platform import hotspot
from companion.platform.hotspot import (
    PROFILE,
    Hotspot,
    Network,
    NmcliError,
    Settings,
    ensure_network,
    terse_fields,
    unescape,
    wifi_qr,
)
from hardware.screens import qr_matrix
from tests.pi.fake_nmcli import FakeNetworkManager


class Clock:
    """Virtual time: sleeping moves it on."""

    def __init__(self) -> None:
        self.now = 0.0

    def sleep(self, seconds: float) -> None:
        self.now += seconds

    def __call__(self) -> float:
        return self.now


def ensure(nm: FakeNetworkManager, settings: Settings | None = None) -> hotspot.Outcome:
    clock = Clock()
    return ensure_network(Network(nm), settings or Settings(), sleep=clock.sleep, clock=clock)


def test_at_home_the_pi_stays_on_its_wifi() -> None:
    nm = FakeNetworkManager(air={"Home", "Neighbour"}).known("preconfigured", "Home")
    out = ensure(nm)
    assert out.state == "connected" and out.network == "preconfigured"
    assert nm.profile(PROFILE) is None, "no access point made"


def test_networkmanager_gets_time_to_join_at_boot() -> None:
    """At boot the Wi-Fi is not joined yet: the check waits for NetworkManager's own join
    rather than start an access point over it."""
    nm = FakeNetworkManager(air={"Home"}, joins_after=5).known("preconfigured", "Home")
    out = ensure(nm)
    assert out.state == "connected"
    assert nm.profile(PROFILE) is None


def test_a_known_network_in_reach_that_was_not_joined_is_joined() -> None:
    nm = FakeNetworkManager(air={"Club"}, joins_after=None).known("club", "Club")
    out = ensure(nm)
    assert out.state == "connected" and out.network == "club"
    assert nm.active["wlan0"] == "club"


def test_at_the_holiday_house_the_pi_becomes_an_access_point() -> None:
    nm = FakeNetworkManager(air={"Gîte Wi-Fi"}).known("preconfigured", "Home")
    out = ensure(nm)
    assert out.state == "hotspot" and out.hotspot is not None
    assert out.hotspot.ssid == "Companion 3F2A", "named after the Wi-Fi's address"
    assert nm.active["wlan0"] == PROFILE
    ap = nm.profile(PROFILE)
    assert ap is not None
    props = ap.props
    assert props["802-11-wireless.mode"] == "ap"
    assert props["ipv4.method"] == "shared" and props["ipv4.addresses"] == "10.42.0.1/24"
    assert props["802-11-wireless-security.key-mgmt"] == "wpa-psk"
    assert props["802-11-wireless-security.proto"] == "rsn", "WPA2 only"
    assert props["connection.autoconnect"] == "no", "never taken instead of a known network"
    assert props["802-11-wireless-security.psk"] == out.hotspot.password
    assert len(out.hotspot.password) == 10
    assert not set(out.hotspot.password) & set("0o1l"), "no look-alike characters"


def test_the_password_stays_the_same_from_one_boot_to_the_next() -> None:
    nm = FakeNetworkManager().known("preconfigured", "Home")
    first = ensure(nm)
    del nm.active["wlan0"]  # reboot
    second = ensure(nm)
    assert first.hotspot is not None and second.hotspot is not None
    assert second.hotspot.password == first.hotspot.password
    assert [p.name for p in nm.profiles].count(PROFILE) == 1, "the profile is reused"


def test_the_owners_name_and_password_from_the_config() -> None:
    nm = FakeNetworkManager()
    settings = Settings.from_config({"hotspot": {"ssid": "Zoë’s table", "password":
                                                 "dice;and:tokens"}})
    out = ensure(nm, settings)
    assert out.hotspot == Hotspot("Zoë’s table", "dice;and:tokens")
    assert nm.profile(PROFILE).props["802-11-wireless.ssid"] == "Zoë’s table"  # type: ignore


@pytest.mark.parametrize("section, message", [
    ({"password": "short"}, "8 to 63"),
    ({"password": "naïve-password"}, "ASCII"),
    ({"ssid": "x" * 33}, "1 to 32 bytes"),
    ({"ssid": "A table with a long name", "password": "a-password-of-forty-characters-long-yes"},
     "too long together"),
    ({"channel": 6}, "unknown key"),
])
def test_bad_settings_are_refused_with_the_reason(section: dict[str, object],
                                                  message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Settings.from_config({"hotspot": section})


def test_no_wifi_and_switched_off() -> None:
    assert ensure(FakeNetworkManager(wifi=None)).state == "no-wifi"
    nm = FakeNetworkManager()
    assert ensure(nm, Settings(enabled=False)).state == "disabled"
    assert nm.calls == []


def test_nmcli_refusals_reach_the_owner() -> None:
    """Not root: NetworkManager refuses the profile; a Wi-Fi that cannot be an access point:
    activation fails. Both are errors with nmcli's words, not a silent pass."""
    with pytest.raises(NmcliError, match="Insufficient privileges"):
        ensure(FakeNetworkManager(root=False))
    with pytest.raises(NmcliError, match="Access Point") as failed:
        ensure(FakeNetworkManager(ap_capable=False))
    assert failed.value.status == 4


def test_the_service_writes_what_phones_need_and_removes_it_on_failure(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    status = tmp_path / "run" / "status.json"
    monkeypatch.setattr(hotspot, "STATUS", status)
    nm = FakeNetworkManager()
    monkeypatch.setattr(hotspot, "run_nmcli", nm)
    rules: list[str] = []
    monkeypatch.setattr(hotspot, "_nft", lambda cmd, text: rules.append(text))
    assert hotspot.main(["--config", str(tmp_path / "none.toml")]) == 0
    data = json.loads(status.read_text())
    assert data["ssid"] == "Companion 3F2A" and data["address"] == "10.42.0.1"
    assert oct(status.stat().st_mode & 0o777) == "0o640", "the password is not for everyone"
    assert hotspot.read_status(status) == Hotspot(data["ssid"], data["password"])
    assert 'iifname "wlan0" tcp dport 80 redirect to :8080' in rules[0]
    nm.running = False
    assert hotspot.main(["--config", str(tmp_path / "none.toml")]) == 1
    assert not status.exists() and hotspot.read_status(status) is None


def test_terse_output_is_read_with_its_escapes() -> None:
    assert terse_fields(r"Café\: open:802-11-wireless") == ["Café: open", "802-11-wireless"]
    assert terse_fields(r"a\\b:c") == ["a\\b", "c"]
    assert unescape(r"DC\:A6\:32\:01\:3F\:2A") == "DC:A6:32:01:3F:2A"
    nm = FakeNetworkManager(air={"Café: open"}, joins_after=None).known("cafe", "Café: open")
    assert Network(nm).known_networks() == {"Café: open": "cafe"}
    assert ensure(nm).network == "cafe"


def test_the_wifi_qr_code_phones_scan() -> None:
    """The ZXing Wi-Fi format: S, T, P; backslash, ; , : and " escaped."""
    assert wifi_qr("Companion 3F2A", "abcdefghjk") == (
        "WIFI:S:Companion 3F2A;T:WPA;P:abcdefghjk;;")
    assert wifi_qr('Zoë "Wi;Fi"', r"a:b,c\d") == r'WIFI:S:Zoë \"Wi\;Fi\";T:WPA;P:a\:b\,c\\d;;'
    # the default fits the OLED's QR code (version 3 at most), so it can be shown
    default = Hotspot("Companion 3F2A", "abcdefghjk")
    assert len(qr_matrix(default.qr_text)) <= 29
    assert segno.make_qr(default.qr_text, error="l").version <= 3
