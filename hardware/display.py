"""The OLED: a luma device (real on I2C, or luma's in-memory dummy) and the latest frame.

The panel may be missing at start, or unplugged and plugged back while the companion runs.
:class:`Display` never lets that (nor a drawing fault) escape: it keeps drawing frames in
memory for the page's mirror, reports the panel as not working (``status()``, the journal and
``on_status``), tries to open it again with a growing pause (1 s, 2 s, then every 4 s),
and shows the latest frame as soon as it answers again.

:class:`FakeI2C` is a fake of luma's I2C interface that can be unplugged and plugged back:
the real luma SSD1306 driver runs on it, so tests exercise the same failures as a Pi
(``OSError`` 121, "Remote I/O error").
"""

from __future__ import annotations

import errno
import io
import logging
import threading
import time
import weakref
from collections.abc import Callable, Mapping
from typing import Any

from luma.core.device import device as LumaDevice
from luma.core.device import dummy
from luma.core.render import canvas
from PIL import Image, ImageDraw

from companion.engine.i18n import Msg
from hardware import screens
from hardware.config import DisplayConfig

log = logging.getLogger(__name__)

Opener = Callable[[], LumaDevice]
OnStatus = Callable[[str, bool, str], None]
NOP = 0xE3  # a no-op command on SSD1306 and SH1106: is anyone there?
MAX_BACKOFF_S = 4.0
"""The longest pause between two tries to reopen a device: one replugged is back within
~4 s (a try costs a few bus transfers)."""
REFRESH_S = 4.0
"""How often the panel gets its set-up and the current frame again, whatever it draws
meanwhile. A panel that lost power for a moment still acknowledges writes, so nothing else
notices that it came back dark."""


DIM_CONTRAST = 0x08
"""The contrast of a dimmed panel (a screen left unchanged: see TableHardware.show_idle)."""


ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1,
        0xD9: 1, 0xDA: 1, 0xDB: 1, 0xDC: 1}
"""SSD1306 / SH1106 commands and how many argument bytes follow each (the fake parses)."""


class FakeI2C:
    """luma's serial interface in memory, with an SSD1306 behind it.

    ``unplug()`` makes every transfer fail as a missing panel does; ``replug()`` brings it
    back. ``power_cycle()`` is a panel that lost power for a moment (a loose wire, a
    brown-out): it still acknowledges every write, but comes back as a controller does at
    power-up, display off, charge pump off, its RAM blank. ``shown()`` is what the glass
    shows: the RAM, or None while the panel is dark (or unplugged). ``frames`` counts data
    transfers."""

    def __init__(self) -> None:
        self.plugged = True
        self.frames = 0
        self.power_cycle()

    def unplug(self) -> None:
        self.plugged = False

    def replug(self) -> None:
        """Plugged back: the panel had no power meanwhile (dark, blank, as at power-up)."""
        self.plugged = True
        self.power_cycle()

    def power_cycle(self) -> None:
        self.on = self.pump = False
        self.contrast = 0x7F  # the controller's reset value
        self.ram = bytearray(screens.WIDTH * screens.HEIGHT // 8)
        self._at = 0

    def shown(self) -> bytes | None:
        return bytes(self.ram) if self.plugged and self.on and self.pump else None

    def _check(self) -> None:
        if not self.plugged:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def command(self, *cmd: int) -> None:
        self._check()
        i = 0
        while i < len(cmd):
            op, args = cmd[i], list(cmd[i + 1:i + 1 + ARGS.get(cmd[i], 0)])
            i += 1 + len(args)
            if op in (0xAE, 0xAF):
                self.on = op == 0xAF
            elif op == 0x81 and args:
                self.contrast = args[0]
            elif op == 0x8D:  # SSD1306 charge pump
                self.pump = args[:1] == [0x14]
            elif op == 0x22 and args:  # SSD1306 page range (the column range starts at 0)
                self._at = args[0] * screens.WIDTH
            elif 0xB0 <= op <= 0xB7:  # SH1106 page address
                self._at = (op - 0xB0) * screens.WIDTH

    def data(self, data: Any) -> None:
        self._check()
        self.frames += 1
        chunk = bytes(data)[:len(self.ram) - self._at]
        self.ram[self._at:self._at + len(chunk)] = chunk
        self._at += len(chunk)

    def cleanup(self) -> None:
        pass


class _Recorder:
    """Passes a driver's writes on and keeps the commands it sends before its first data:
    the controller's set-up, to send again (:meth:`Display.tick`)."""

    def __init__(self, bus: Any) -> None:
        self.bus = bus
        self.setup: list[tuple[int, ...]] | None = []

    def command(self, *cmd: int) -> None:
        if self.setup is not None:
            self.setup.append(cmd)
        self.bus.command(*cmd)

    def data(self, data: Any) -> None:
        self.setup_done()
        self.bus.data(data)

    def setup_done(self) -> None:
        if self.setup is not None:  # without DISPLAYOFF: sent again, it must not blink
            _SETUP[self] = [c for c in (c[1:] if c[:1] == (0xAE,) else c
                                        for c in self.setup) if c]
        self.setup = None

    def cleanup(self) -> None:
        self.bus.cleanup()


_SETUP: weakref.WeakKeyDictionary[Any, list[tuple[int, ...]]] = weakref.WeakKeyDictionary()


def make_opener(cfg: DisplayConfig, simulate: bool = False,
                serial: Any = None) -> Opener | None:
    """How to open the panel for ``cfg`` (None: no panel). ``serial``: a serial interface to
    use instead of the real I2C bus (a :class:`FakeI2C`)."""
    if cfg.kind == "none":
        return None
    if simulate or cfg.kind == "dummy":
        return lambda: dummy(width=screens.WIDTH, height=screens.HEIGHT, rotate=cfg.rotate,
                             mode="1")

    def open_panel() -> LumaDevice:
        from luma.oled.device import sh1106, ssd1306

        if serial is None:
            from luma.core.interface.serial import i2c

            bus: Any = i2c(port=cfg.i2c_port, address=cfg.i2c_address)
        else:
            bus = serial
        try:
            bus.command(NOP)  # fails here, before luma registers an exit hook for the device
        except Exception:
            _quietly(bus.cleanup)
            raise
        kind = ssd1306 if cfg.kind == "ssd1306" else sh1106
        recorder = _Recorder(bus)
        device = kind(recorder, width=screens.WIDTH, height=screens.HEIGHT, rotate=cfg.rotate)
        recorder.setup_done()
        return device

    return open_panel


def make_device(cfg: DisplayConfig, simulate: bool = False) -> LumaDevice | None:
    """The luma device for ``cfg`` opened now (raises if it cannot be), or None."""
    opener = make_opener(cfg, simulate)
    return None if opener is None else opener()


class Display:
    """Draws screens on a device and keeps a copy of the last frame for the web page.

    Build with an open ``device``, or with an ``opener`` it calls (and calls again after a
    failure) to open the panel."""

    def __init__(self, device: LumaDevice | None = None, *, opener: Opener | None = None,
                 on_status: OnStatus | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.device = device
        self._opener = opener
        self._on_status = on_status
        self._clock = clock
        self._lock = threading.RLock()  # on_status may draw (reentrant), never deadlock
        self._frame = Image.new("1", (screens.WIDTH, screens.HEIGHT))
        self._retry_at = 0.0
        self._setup_at = clock()  # when the panel last got its set-up
        self._backoff = 1.0
        self._status: tuple[bool, str] | None = None
        self._dim = False
        self.language = "en"
        """The table's language for the screen's own words (the table sets it)."""
        if device is not None:
            self._status = (True, Msg("screen ready"))
        elif opener is not None:
            with self._lock:
                self._open(clock())

    # -- the panel ----------------------------------------------------------------------
    def status(self) -> tuple[bool, str] | None:
        """(working, message) of the panel; None when there is none to have."""
        return self._status

    def tick(self) -> None:
        """Try to open a missing panel when its pause has passed, and every ``REFRESH_S``
        set up an open one again and resend the frame (call it now and then)."""
        with self._lock:
            now = self._clock()
            if self.device is None and self._opener is not None:
                self._open(now)
            elif self.device is not None and now - self._setup_at >= REFRESH_S:
                self._send(self._frame, now, setup=True)

    def _open(self, now: float) -> None:
        assert self._opener is not None
        if now < self._retry_at:
            return
        try:
            device = self._opener()
        except Exception as exc:  # noqa: BLE001 - any driver failure means "retry later"
            self._failed(now, Msg("cannot open: {reason}", reason=str(_describe(exc))))
            return
        self.device, self._backoff, self._setup_at = device, 1.0, now
        self._report(True, Msg("screen ready"))
        self._send(self._frame, now)

    def _send(self, image: Image.Image, now: float, setup: bool = False) -> None:
        """Send a frame; with ``setup`` (or when ``REFRESH_S`` has passed since the last), the
        controller's set-up before it and DISPLAYON after (a panel that lost power is dark
        with a blank RAM, and no write tells). A new frame never puts the set-up off."""
        if self.device is None:
            return
        setup = setup or now - self._setup_at >= REFRESH_S
        try:
            commands = _SETUP.get(getattr(self.device, "_serial_interface", None), [])
            for command in commands if setup else []:
                self.device.command(*command)
            with canvas(self.device) as draw:
                draw.bitmap((0, 0), image, fill="white")
            if setup and commands and self._dim:
                self.device.contrast(DIM_CONTRAST)
            if setup and commands:
                self.device.show()
            if setup:
                self._setup_at = now
        except Exception as exc:  # noqa: BLE001
            device, self.device = self.device, None
            _release(device)
            self._failed(now, Msg("stopped answering: {reason}", reason=str(_describe(exc))))

    def _failed(self, now: float, message: str) -> None:
        self._retry_at = now + self._backoff
        self._backoff = min(MAX_BACKOFF_S, self._backoff * 2)
        self._report(False, message)

    def _report(self, working: bool, message: str) -> None:
        if self._status == (working, message):
            return
        self._status = (working, message)
        if working:
            log.info("screen: %s", message)
        else:
            log.warning("screen: %s (retrying; the game goes on from the phones)", message)
        if self._on_status is not None:
            try:
                self._on_status("screen", working, message)
            except Exception:
                log.exception("on_status failed")

    def dim(self, on: bool) -> None:
        """Lower the panel's contrast (``DIM_CONTRAST``), or give it back its set-up's."""
        with self._lock:
            if on == self._dim:
                return
            self._dim = on
            self._send(self._frame, self._clock(), setup=True)

    # -- frames -------------------------------------------------------------------------
    def render(self, draw_fn: Callable[[ImageDraw.ImageDraw], None],
               shift: tuple[int, int] = (0, 0)) -> None:
        """Draw one frame with ``draw_fn`` (moved by ``shift`` pixels) and send it to the
        panel. Never raises: a drawing fault is logged and shown as such, a missing panel is
        retried."""
        image = Image.new("1", (screens.WIDTH, screens.HEIGHT))
        try:
            draw_fn(ImageDraw.Draw(image))
            if shift != (0, 0):
                moved = Image.new("1", image.size)
                moved.paste(image, shift)
                image = moved
        except Exception as exc:  # noqa: BLE001 - the screen must never stop the table
            log.exception("drawing a screen failed")
            image = Image.new("1", (screens.WIDTH, screens.HEIGHT))
            try:
                screens.draw_error(ImageDraw.Draw(image), Msg(
                    "Screen fault: {fault}. The page shows the game.",
                    fault=type(exc).__name__), lang=self.language)
            except Exception:  # noqa: BLE001
                log.exception("drawing the fault failed too")
        with self._lock:
            self._frame = image
            now = self._clock()
            if self.device is None and self._opener is not None:
                self._open(now)  # sends the frame when it opens
            else:
                self._send(image, now)

    def show_game(self, view: Mapping[str, Any], nav: Mapping[str, Any] | None = None,
                  page: int = 0) -> None:
        self.render(lambda d: screens.draw_game(d, view, nav, page, self.language))

    def show_join(self, url: str, code: str) -> None:
        self.render(lambda d: screens.draw_join(d, url, code, self.language))

    def show_enrollment(self, done: int, total: int, prompt: str) -> None:
        self.render(lambda d: screens.draw_enrollment(d, done, total, prompt, self.language))

    def show_error(self, text: str, page: int = 0) -> None:
        self.render(lambda d: screens.draw_error(d, text, page, self.language))

    def frame(self) -> Image.Image:
        """A copy of the last frame (mode "1", 128x64)."""
        with self._lock:
            return self._frame.copy()

    def frame_png(self, scale: int = 1) -> bytes:
        """The last frame as PNG bytes, optionally scaled up for a phone screen."""
        image = self.frame()
        if scale > 1:
            size = (image.width * scale, image.height * scale)
            image = image.resize(size, Image.Resampling.NEAREST)
        out = io.BytesIO()
        image.save(out, format="PNG")
        return out.getvalue()

    def close(self, keep_shown: bool = False) -> None:
        """Blank and close the panel; with ``keep_shown``, leave it lit with the last frame
        (luma's ``persist``: its exit hook does not switch it off either), so a reason not
        to start stays readable after the process has exited."""
        with self._lock:
            device, self.device = self.device, None
        if device is not None:
            _release(device, keep_shown)


def _release(device: LumaDevice, keep_shown: bool = False) -> None:
    """Blank (unless ``keep_shown``) and close a real panel (and its bus, even when blanking
    fails)."""
    if isinstance(device, dummy):
        return
    device.persist = keep_shown
    _quietly(device.cleanup)
    serial = getattr(device, "_serial_interface", None)
    if serial is not None:
        _quietly(serial.cleanup)


def _describe(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def _quietly(fn: Callable[[], Any]) -> None:
    try:
        fn()
    except Exception:  # noqa: BLE001 - closing a panel that is gone may fail too
        log.debug("closing the screen failed", exc_info=True)
