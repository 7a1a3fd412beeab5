"""The OLED on the Pi's own Wi-Fi: the Wi-Fi's join QR code, then the page's, in turn, on the
table's real (simulated) 128x64 screen, until a game takes it; and the hotspot's unit."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from companion.platform.config import SIMULATED_HARDWARE, load_config
from companion.platform.hotspot import Hotspot
from hardware import screens
from hardware.table import TableHardware
from hardware.wifi_screen import JoinScreens

REPO = Path(__file__).resolve().parents[2]
HOTSPOT = Hotspot("Companion 3F2A", "abcdefghjk")


def qr_on_screen(frame: Image.Image, text: str) -> bool:
    """Whether ``frame`` shows ``text``'s QR code at 2 px a module, dark on a lit square, at
    the left edge, centred in height (as hardware.screens.draw_join draws the page's)."""
    matrix = screens.qr_matrix(text)
    side = (len(matrix) + 2) * 2
    top = (screens.HEIGHT - side) // 2
    px = frame.load()
    assert px is not None
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            lit = bool(px[(x + 1) * 2, top + (y + 1) * 2])
            if lit == dark:
                return False
    return True


@pytest.fixture
def hardware() -> Any:
    hw = TableHardware.from_config(SIMULATED_HARDWARE, on_tap=lambda r, u: None,
                                   on_action=lambda a, e: None, simulate=True)
    yield hw
    hw.stop()


def test_the_wifi_then_the_page_then_the_game(hardware: Any) -> None:
    url = HOTSPOT.page_url
    idle = {"yes": True}
    screens_ = JoinScreens(hardware, HOTSPOT, url, idle=lambda: idle["yes"])
    assert screens_.step() == "wifi"
    frame = hardware.display.frame()
    assert qr_on_screen(frame, "WIFI:S:Companion 3F2A;T:WPA;P:abcdefghjk;;")
    assert not qr_on_screen(frame, url)
    assert screens_.step() == "page"
    assert qr_on_screen(hardware.display.frame(), url)
    assert screens_.step() == "wifi", "in turn"
    idle["yes"] = False  # a game was created: its screen stays
    before = hardware.display.frame().tobytes()
    assert screens_.step() is None
    assert hardware.display.frame().tobytes() == before


def test_the_name_and_password_are_written_beside_the_code(hardware: Any) -> None:
    """For a phone without a camera: the text on the right, inside the 128 px."""
    drawn: list[str] = []
    real = screens.text

    def spy(draw: Any, xy: tuple[int, int], words: str, fill: str = screens.ON) -> None:
        assert xy[0] + screens.width(words) <= screens.WIDTH, words
        assert xy[1] + 12 <= screens.HEIGHT, words
        drawn.append(words)
        real(draw, xy, words, fill)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(screens, "text", spy)
        JoinScreens(hardware, HOTSPOT, HOTSPOT.page_url, idle=lambda: True).step()
    assert drawn == ["Wi-Fi:", "Companion", "3F2A", "Password:", "abcdefghjk"]


def test_the_config_takes_a_hotspot_section(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[hotspot]\nssid = "Zoë’s table"\npassword = "12345678"\n')
    assert load_config(config)["hotspot"]["ssid"] == "Zoë’s table"


ANALYZE = shutil.which("systemd-analyze")


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze not installed")
def test_systemd_accepts_the_hotspot_unit(tmp_path: Path) -> None:
    unit = (REPO / "systemd" / "companion-hotspot.service").read_text()
    assert "Before=companion.service" in unit and "Group=companion" in unit
    text, n = re.subn(r"^ExecStart=/opt/companion/venv/bin/python ", f"ExecStart={sys.executable} ",
                      unit, flags=re.M)
    assert n == 1
    text = text.replace("Group=companion", "Group=root")  # no such group on a test machine
    copy = tmp_path / "companion-hotspot.service"
    copy.write_text(text)
    done = subprocess.run([str(ANALYZE), "verify", str(copy)], capture_output=True, text=True,
                          timeout=600, cwd=tmp_path)
    complaints = [line for line in done.stderr.splitlines() if "companion-hotspot" in line]
    assert done.returncode == 0, done.stderr
    assert complaints == []


def test_the_install_puts_the_own_wifi_in_place(tmp_path: Path) -> None:
    done = subprocess.run(["bash", str(REPO / "scripts" / "install-pi.sh"), "--dry-run"],
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "COMPANION_CONFIG": str(tmp_path / "c.toml")})
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert ("systemd/companion-hotspot.service /etc/systemd/system/companion-hotspot.service"
            in out)
    assert "/etc/NetworkManager/dnsmasq-shared.d/companion-captive.conf" in out
    assert "enable companion-hotspot.service companion.service" in out
    assert "nftables" in out
    conf = (REPO / "systemd" / "companion-captive.conf").read_text()
    assert "address=/#/10.42.0.1" in conf


@pytest.mark.parametrize(("ssid", "password", "expected"), [
    ("Companion 3F2A", "kq7mxr2pwz9tnh4e",
     ["Companion", "3F2A", "Password:", "kq7mxr2pwz", "9tnh4e"]),
    ("Tavolo", "k" * 29, ["Tavolo", "Password:", "k" * 10, "k" * 10, "k" * 9]),
    ("T", "p" * 34, ["T", "p" * 10, "p" * 10, "p" * 10, "p" * 4]),
])
def test_a_long_password_is_written_whole(ssid: str, password: str,
                                          expected: list[str]) -> None:
    """A password of more than 10 characters was cut ("kq7mxr2pw~"): the phone's owner could
    not type it. It takes the lines it needs; the labels give way first."""
    from PIL import ImageDraw

    from companion.platform.hotspot import wifi_qr
    from hardware.wifi_screen import draw_wifi_join

    drawn: list[str] = []
    real = screens.text

    def spy(draw: Any, xy: tuple[int, int], words: str, fill: str = screens.ON) -> None:
        assert xy[1] + 12 <= screens.HEIGHT, words
        drawn.append(words)
        real(draw, xy, words, fill)

    image = Image.new("1", (screens.WIDTH, screens.HEIGHT))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(screens, "text", spy)
        draw_wifi_join(ImageDraw.Draw(image), wifi_qr(ssid, password), ssid, password)
    assert drawn == expected
    assert "".join(line for line in drawn if set(line) <= set(password)) == password
