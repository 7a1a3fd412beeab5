"""The OLED while the Pi is its own access point (companion.platform.hotspot): the Wi-Fi's join QR
code, then the page's, in turn, until a game is on the screen."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from PIL import ImageDraw

from companion.engine.i18n import SOURCE, Msg, render
from hardware import screens

log = logging.getLogger("hardware.wifi")

PERIOD_S = 10.0
"""Seconds each of the two QR codes stays on the screen."""


def draw_wifi_join(draw: ImageDraw.ImageDraw, qr_text: str, ssid: str, password: str,
                   lang: str = SOURCE) -> None:
    """The Wi-Fi's QR code on the left (phones' cameras offer to join), its name and password
    on the right for typing (the labels in the table's language ``lang``)."""
    matrix = screens.qr_matrix(qr_text)
    scale = 2
    side = (len(matrix) + 2) * scale
    top = (screens.HEIGHT - side) // 2
    draw.rectangle((0, top, side - 1, top + side - 1), fill=screens.ON)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                x0, y0 = (x + 1) * scale, top + (y + 1) * scale
                draw.rectangle((x0, y0, x0 + scale - 1, y0 + scale - 1), fill=screens.OFF)
    left = side + 2
    cols = (screens.WIDTH - left) // 6
    for n, line in enumerate(wifi_lines(ssid, password, cols, lang)):
        screens.text(draw, (left, n * screens.LINE_H), screens.fit(line, cols))


def wifi_lines(ssid: str, password: str, cols: int, lang: str = SOURCE) -> list[str]:
    """The lines beside the QR code: the password always whole (10 characters a line), then
    as much of the rest as fits in five lines: the labels give way first, then the name's
    second line (the QR code and the phone's Wi-Fi list carry the name too)."""
    secret = [password[i:i + cols] for i in range(0, len(password), cols)] or [""]
    name = screens.wrap(ssid, cols) or [""]
    wifi, word = render(Msg("Wi-Fi:"), lang), render(Msg("Password:"), lang)
    for lines in ([wifi, *name[:2], word, *secret], [*name[:2], word, *secret],
                  [screens.fit(ssid, cols), word, *secret], [screens.fit(ssid, cols), *secret]):
        if len(lines) <= screens.ROWS:
            return lines
    return secret[:screens.ROWS]


class JoinScreens:
    """Shows the Wi-Fi's QR code and the page's in turn while ``idle()`` (no game on the
    screen yet). ``step()`` draws the next one; ``start()`` runs it every ``period`` s."""

    def __init__(self, hardware: Any, hotspot: Any, page_url: str,
                 idle: Callable[[], bool], period: float = PERIOD_S) -> None:
        self.hardware, self.hotspot, self.page_url = hardware, hotspot, page_url
        self.idle, self.period = idle, period
        self.turn = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def step(self) -> str | None:
        """Draw the next screen: "wifi" or "page"; None once a game has the screen."""
        if not self.idle():
            return None
        shown = "wifi" if self.turn % 2 == 0 else "page"
        self.turn += 1
        try:
            if shown == "wifi":
                lang = getattr(self.hardware, "language", SOURCE)
                self.hardware.show_idle(lambda d: draw_wifi_join(
                    d, self.hotspot.qr_text, self.hotspot.ssid, self.hotspot.password, lang))
            else:
                self.hardware.show_join(self.page_url, "")
        except Exception:
            log.exception("showing the join screens failed")
        return shown

    def start(self) -> JoinScreens:
        def loop() -> None:
            while self.step() is not None and not self._stop.wait(self.period):
                pass

        self._thread = threading.Thread(target=loop, name="wifi-join-screens", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
