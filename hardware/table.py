"""The one object the service talks to: readers, buttons, LEDs, buzzer and the OLED.

``TableHardware.from_config(cfg, on_tap, on_action, simulate)`` builds the real parts or
their fakes; ``start()`` begins polling the readers in a thread that never dies of a reader:
a reader that is missing or stops answering is reported through ``on_status`` and reopened
with a growing pause (1 s, 2 s, ... 30 s).

Callbacks and threads: ``on_tap(role, uid)`` runs on the polling thread, ``on_action(action,
extra_input)`` on gpiozero's button thread (or the caller's, for :meth:`press`); both should
just queue a command for the service. Exceptions they raise are logged, never propagated.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hardware.config import HardwareConfig, load_hardware_config
from hardware.display import Display, make_device
from hardware.fake_reader import FakeReader
from hardware.navigator import OnAction, PromptNavigator
from hardware.nfc import Mfrc522Reader, TagReader
from hardware.taps import TapDetector

log = logging.getLogger(__name__)

OnTap = Callable[[str, str], None]
OnStatus = Callable[[str, bool, str], None]
"""``on_status(role, working, message)``: a reader came up, or went missing and why."""
MAX_BACKOFF_S = 30.0


@dataclass
class _ReaderSlot:
    reader: TagReader
    detector: TapDetector
    is_open: bool = False
    retry_at: float = 0.0
    backoff: float = 1.0
    status: tuple[bool, str] | None = None


class TableHardware:
    """Facade over the table's devices; build it with :meth:`from_config`."""

    def __init__(self, cfg: HardwareConfig, readers: Mapping[str, TagReader], display: Display,
                 navigator: PromptNavigator, *, buttons: Any = None, feedback: Any = None,
                 on_tap: OnTap, on_status: OnStatus | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.cfg = cfg
        self.display = display
        self.navigator = navigator
        self.buttons = buttons
        self.feedback = feedback
        self._on_tap = on_tap
        self._on_status = on_status
        self._clock = clock
        self._slots = {role: _ReaderSlot(r, TapDetector(cfg.taps)) for role, r in readers.items()}
        self._lock = threading.Lock()
        self._view: Mapping[str, Any] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @classmethod
    def from_config(cls, cfg: HardwareConfig | Mapping[str, Any], on_tap: OnTap,
                    on_action: OnAction, simulate: bool = False,
                    on_status: OnStatus | None = None) -> TableHardware:
        """Build from a HardwareConfig or the raw ``[hardware]`` dict.

        ``simulate``: fake readers fed by :meth:`virtual_tap`, gpiozero's MockFactory for
        buttons, LEDs and buzzer, and luma's dummy display, whatever the config says.
        """
        if not isinstance(cfg, HardwareConfig):
            cfg = load_hardware_config(cfg)
        readers: dict[str, TagReader] = {}
        for rc in cfg.readers:
            if simulate or rc.kind == "fake":
                readers[rc.role] = FakeReader()
            else:
                readers[rc.role] = Mfrc522Reader(rc.bus, rc.device, rc.rst_pin)
        mock = None
        if simulate or "mock" in (cfg.buttons.kind, cfg.feedback.kind):
            from gpiozero.pins.mock import MockFactory, MockPWMPin

            mock = MockFactory(pin_class=MockPWMPin)
        navigator = PromptNavigator(on_action=_guarded(on_action))
        table = cls(cfg, readers, Display(make_device(cfg.display, simulate)), navigator,
                    on_tap=on_tap, on_status=on_status)
        try:
            if cfg.buttons.kind != "none":
                from hardware.buttons import ButtonPanel

                factory = mock if simulate or cfg.buttons.kind == "mock" else None
                table.buttons = ButtonPanel(cfg.buttons, navigator, pin_factory=factory,
                                            on_change=table._redraw, lock=table._lock)
            if cfg.feedback.kind != "none":
                from hardware.feedback import Feedback

                factory = mock if simulate or cfg.feedback.kind == "mock" else None
                table.feedback = Feedback(cfg.feedback, pin_factory=factory)
        except Exception:
            table.stop()
            raise
        return table

    # -- readers ------------------------------------------------------------------------
    def start(self) -> None:
        """Start polling the readers (idempotent)."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._poll_forever, name="readers", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop polling and release every device this object opened."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        for slot in self._slots.values():
            self._close(slot)
        for part in (self.buttons, self.feedback):
            if part is not None:
                part.close()
        self.buttons = self.feedback = None
        self.display.close()

    def reader_status(self) -> dict[str, tuple[bool, str] | None]:
        """Per role: (working, message) as last reported, or None before the first poll."""
        return {role: slot.status for role, slot in self._slots.items()}

    def poll_once(self) -> None:
        """One pass over the readers (the thread's body; tests may call it directly)."""
        now = self._clock()
        for role, slot in self._slots.items():
            if not slot.is_open:
                if now < slot.retry_at:
                    continue
                try:
                    slot.reader.open()
                except Exception as exc:  # noqa: BLE001 - any driver failure means "retry later"
                    self._failed(role, slot, now, f"cannot open: {exc}")
                    continue
                slot.is_open, slot.backoff = True, 1.0
                slot.detector.reset()
                self._report(role, slot, True, "reader ready")
            try:
                uid = slot.reader.read_uid()
            except Exception as exc:  # noqa: BLE001
                self._close(slot)
                self._failed(role, slot, now, f"stopped answering: {exc}")
                continue
            tap = slot.detector.feed(now, uid)
            if tap is not None:
                try:
                    self._on_tap(role, tap)
                except Exception:
                    log.exception("on_tap(%r, %r) failed", role, tap)

    def _poll_forever(self) -> None:
        while not self._stop.is_set():
            try:
                self.poll_once()
            except Exception:  # never let the thread die
                log.exception("reader poll failed")
            self._stop.wait(self.cfg.taps.poll_s)

    def _failed(self, role: str, slot: _ReaderSlot, now: float, message: str) -> None:
        slot.retry_at = now + slot.backoff
        slot.backoff = min(MAX_BACKOFF_S, slot.backoff * 2)
        self._report(role, slot, False, message)

    def _report(self, role: str, slot: _ReaderSlot, working: bool, message: str) -> None:
        if slot.status == (working, message):
            return
        slot.status = (working, message)
        (log.info if working else log.warning)("reader %r: %s", role, message)
        if self._on_status is not None:
            try:
                self._on_status(role, working, message)
            except Exception:
                log.exception("on_status failed")

    @staticmethod
    def _close(slot: _ReaderSlot) -> None:
        if slot.is_open:
            slot.is_open = False
            try:
                slot.reader.close()
            except Exception:  # noqa: BLE001 - closing a dead reader may fail too
                log.debug("closing reader failed", exc_info=True)

    def virtual_tap(self, role: str, uid: str) -> None:
        """Simulation: put ``uid`` briefly on the fake reader ``role`` (goes through taps)."""
        slot = self._slots.get(role)
        if slot is None:
            raise KeyError(f"no reader with role {role!r}; roles: {sorted(self._slots)}")
        if not isinstance(slot.reader, FakeReader):
            raise TypeError(f"reader {role!r} is a real reader; virtual taps need simulate")
        slot.reader.tap(uid.replace(":", "").replace(" ", ""))

    # -- screen, buttons, feedback ------------------------------------------------------
    def show(self, view: Mapping[str, Any]) -> None:
        """Show the game from a view dict; the buttons now answer its prompt."""
        with self._lock:
            self._view = view
            self.navigator.update(view)
            state = self.navigator.state()
        self.display.show_game(view, state)

    def _redraw(self) -> None:
        with self._lock:
            view, state = self._view, self.navigator.state()
        if view is not None:
            self.display.show_game(view, state)

    def press(self, button: str) -> None:
        """Simulation and tests: "prev", "next", "ok" or "back" (a long OK)."""
        if button not in ("prev", "next", "ok", "back"):
            raise ValueError(f"unknown button {button!r}")
        with self._lock:
            getattr(self.navigator, button)()
        self._redraw()

    def show_join(self, url: str, code: str) -> None:
        self.display.show_join(url, code)

    def show_enrollment(self, progress: Any) -> None:
        """``progress``: a companion.tags.EnrollmentProgress or a dict with done/total/prompt."""
        get = progress.get if isinstance(progress, Mapping) else (
            lambda k: getattr(progress, k))
        self.display.show_enrollment(int(get("done")), int(get("total")), str(get("prompt")))

    def show_error(self, text: str) -> None:
        self.display.show_error(text)

    def signal(self, kind: str) -> None:
        """"ok", "error", "catch" or "win" on the LEDs and buzzer (no-op without them)."""
        if self.feedback is not None:
            self.feedback.signal(kind)
        elif kind not in ("ok", "error", "catch", "win"):
            raise ValueError(f"unknown signal {kind!r}")

    def frame_png(self, scale: int = 1) -> bytes:
        """The OLED's current frame as PNG bytes, for the page's mirror."""
        return self.display.frame_png(scale)


def _guarded(on_action: OnAction) -> OnAction:
    def call(action: dict[str, Any], extra: Any) -> None:
        try:
            on_action(action, extra)
        except Exception:
            log.exception("on_action(%r) failed", action.get("type"))

    return call
