"""Three push buttons (to ground, internal pull-ups) driving a PromptNavigator via gpiozero."""

from __future__ import annotations

import threading
from collections.abc import Callable

from gpiozero import Button
from gpiozero.pins import Factory

from hardware.config import ButtonsConfig
from hardware.navigator import PromptNavigator


class ButtonPanel:
    """prev / next (held: big steps, repeating), OK (held for ``hold_s``: back).

    Every press runs under one lock and is followed by ``on_change()`` (redraw the OLED).
    """

    def __init__(self, cfg: ButtonsConfig, navigator: PromptNavigator, *,
                 pin_factory: Factory | None = None,
                 on_change: Callable[[], None] = lambda: None,
                 lock: threading.Lock | None = None) -> None:
        self.navigator = navigator
        self._on_change = on_change
        self._lock = lock or threading.Lock()
        self._ok_held = False
        self.prev = Button(cfg.prev, pin_factory=pin_factory, hold_time=0.6, hold_repeat=True)
        self.next = Button(cfg.next, pin_factory=pin_factory, hold_time=0.6, hold_repeat=True)
        self.ok = Button(cfg.ok, pin_factory=pin_factory, hold_time=cfg.hold_s)
        self.prev.when_pressed = lambda: self._run(navigator.prev)
        self.prev.when_held = lambda: self._run(lambda: navigator.prev(big=True))
        self.next.when_pressed = lambda: self._run(navigator.next)
        self.next.when_held = lambda: self._run(lambda: navigator.next(big=True))
        self.ok.when_pressed = self._ok_pressed
        self.ok.when_held = self._ok_long
        self.ok.when_released = self._ok_released

    def _ok_pressed(self) -> None:
        self._ok_held = False

    def _ok_long(self) -> None:
        self._ok_held = True
        self._run(self.navigator.back)

    def _ok_released(self) -> None:
        if not self._ok_held:
            self._run(self.navigator.ok)

    def _run(self, fn: Callable[[], None]) -> None:
        with self._lock:
            fn()
        self._on_change()

    def close(self) -> None:
        for button in (self.prev, self.next, self.ok):
            button.close()
