"""The OLED: a luma device (real on I2C, or luma's in-memory dummy) and the latest frame."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Mapping
from typing import Any

from luma.core.device import device as LumaDevice
from luma.core.device import dummy
from luma.core.render import canvas
from PIL import Image, ImageDraw

from hardware import screens
from hardware.config import DisplayConfig


def make_device(cfg: DisplayConfig, simulate: bool = False) -> LumaDevice | None:
    """The luma device for ``cfg``: SSD1306/SH1106 on I2C, dummy when simulating, or None."""
    if cfg.kind == "none":
        return None
    if simulate or cfg.kind == "dummy":
        return dummy(width=screens.WIDTH, height=screens.HEIGHT, rotate=cfg.rotate, mode="1")
    from luma.core.interface.serial import i2c
    from luma.oled.device import sh1106, ssd1306

    serial = i2c(port=cfg.i2c_port, address=cfg.i2c_address)
    kind = ssd1306 if cfg.kind == "ssd1306" else sh1106
    return kind(serial, width=screens.WIDTH, height=screens.HEIGHT, rotate=cfg.rotate)


class Display:
    """Draws screens on a device and keeps a copy of the last frame for the web page."""

    def __init__(self, device: LumaDevice | None) -> None:
        self.device = device
        self._lock = threading.Lock()
        self._frame = Image.new("1", (screens.WIDTH, screens.HEIGHT))

    def render(self, draw_fn: Callable[[ImageDraw.ImageDraw], None]) -> None:
        """Draw one frame with ``draw_fn`` and send it to the panel."""
        image = Image.new("1", (screens.WIDTH, screens.HEIGHT))
        draw_fn(ImageDraw.Draw(image))
        with self._lock:
            self._frame = image
            if self.device is not None:
                with canvas(self.device) as draw:
                    draw.bitmap((0, 0), image, fill="white")

    def show_game(self, view: Mapping[str, Any], nav: Mapping[str, Any] | None = None) -> None:
        self.render(lambda d: screens.draw_game(d, view, nav))

    def show_join(self, url: str, code: str) -> None:
        self.render(lambda d: screens.draw_join(d, url, code))

    def show_enrollment(self, done: int, total: int, prompt: str) -> None:
        self.render(lambda d: screens.draw_enrollment(d, done, total, prompt))

    def show_error(self, text: str) -> None:
        self.render(lambda d: screens.draw_error(d, text))

    def frame(self) -> Image.Image:
        """A copy of the last frame (mode "1", 128x64)."""
        with self._lock:
            return self._frame.copy()

    def frame_png(self, scale: int = 1) -> bytes:
        """The last frame as PNG bytes, optionally scaled up for a phone screen."""
        image = self.frame()
        if scale > 1:
            image = image.resize((image.width * scale, image.height * scale), Image.NEAREST)
        out = io.BytesIO()
        image.save(out, format="PNG")
        return out.getvalue()

    def close(self) -> None:
        if self.device is not None and not isinstance(self.device, dummy):
            self.device.cleanup()
