"""On the Pi's own Wi-Fi a phone that joins lands on the page: the operating systems'
connectivity checks are led to it over real HTTP, and the page offers the Wi-Fi's QR code."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import segno

from companion.platform.hotspot import Hotspot
from companion.service.game_service import GameService
from web import create_app
from web.server import make_server

HOTSPOT = Hotspot("Zoë’s table €", 'dice;and:"tokens"')
PAGE = "http://10.42.0.1:8080/"
# (host, path, what the check expects on an open internet): a redirect instead says "captive"
PROBES = [
    ("connectivitycheck.gstatic.com", "/generate_204", 204),  # Android
    ("clients3.google.com", "/generate_204", 204),  # older Android
    ("captive.apple.com", "/hotspot-detect.html", 200),  # iPhone, Mac ("Success")
    ("www.msftconnecttest.com", "/connecttest.txt", 200),  # Windows
    ("detectportal.firefox.com", "/canonical.html", 200),  # Firefox
    ("nmcheck.gnome.org", "/check_network_status.txt", 200),  # Linux laptops
]


def serve(service: GameService, hotspot: Hotspot | None) -> Iterator[str]:
    app = create_app(service, config={"banker_pin": "1234", "hotspot": hotspot,
                                      "public_url": PAGE if hotspot else ""})
    srv = make_server(app, "127.0.0.1", 0, threads=8)
    threading.Thread(target=srv.run, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.effective_port}"
    finally:
        srv.close()


@pytest.fixture
def service(tmp_path: Path) -> Iterator[GameService]:
    with GameService(tmp_path) as svc:
        yield svc


@pytest.fixture
def on_hotspot(service: GameService) -> Iterator[str]:
    yield from serve(service, HOTSPOT)


@pytest.fixture
def at_home(service: GameService) -> Iterator[str]:
    yield from serve(service, None)


def get(base: str, path: str, host: str) -> httpx.Response:
    return httpx.get(base + path, headers={"Host": host}, timeout=10, follow_redirects=False)


@pytest.mark.parametrize("host, path, open_internet", PROBES)
def test_every_phones_check_is_led_to_the_page(on_hotspot: str, host: str, path: str,
                                                open_internet: int) -> None:
    r = get(on_hotspot, path, host)
    assert r.status_code == 302, "not what the open internet answers: the phone opens it"
    assert r.headers["location"] == PAGE
    assert r.headers["cache-control"] == "no-store", "a phone must not remember the detour"
    assert "Success" not in r.text and "Microsoft Connect Test" not in r.text


def test_any_other_site_a_player_types_leads_to_the_page_too(on_hotspot: str) -> None:
    r = get(on_hotspot, "/some/page?q=1", "neverssl.com")
    assert (r.status_code, r.headers["location"]) == (302, PAGE)


def test_the_page_itself_answers_on_the_hotspot_address(on_hotspot: str) -> None:
    page = get(on_hotspot, "/", "10.42.0.1:8080")
    assert page.status_code == 200
    assert 'href="/wifi"' in page.text, "the page offers the Wi-Fi's QR code"
    assert get(on_hotspot, "/", "10.42.0.1").status_code == 200, "port 80, redirected by nft"
    assert get(on_hotspot, "/api/session", "10.42.0.1:8080").json()["csrf"]


def test_the_wifi_page_shows_both_qr_codes(on_hotspot: str) -> None:
    page = get(on_hotspot, "/wifi", "10.42.0.1:8080")
    assert page.status_code == 200
    assert "Zoë’s table €" in page.text and "dice;and:&#34;tokens&#34;" in page.text
    assert page.text.index("/wifi/join.svg") < page.text.index("/wifi/page.svg"), (
        "the Wi-Fi first, then the page")
    for path, text in (("/wifi/join.svg", HOTSPOT.qr_text), ("/wifi/page.svg", PAGE)):
        svg = get(on_hotspot, path, "10.42.0.1:8080")
        assert svg.headers["content-type"].startswith("image/svg+xml")
        expected = io.BytesIO()
        segno.make(text, error="m").save(expected, kind="svg", scale=6, border=2,
                                         xmldecl=False)
        assert svg.content == expected.getvalue()
    assert HOTSPOT.qr_text == r'WIFI:S:Zoë’s table €;T:WPA;P:dice\;and\:\"tokens\";;'


def test_on_the_owners_wifi_nothing_changes(at_home: str) -> None:
    """No hotspot: a foreign name is refused (DNS rebinding), not redirected; no QR page."""
    r = get(at_home, "/generate_204", "connectivitycheck.gstatic.com")
    assert r.status_code != 302 and "location" not in r.headers
    assert r.status_code == 400 and "does not answer to that address" in r.json()["error"]
    assert get(at_home, "/wifi", "127.0.0.1").status_code == 404
    page: Any = get(at_home, "/", "127.0.0.1")
    assert page.status_code == 200 and 'href="/wifi"' not in page.text
