"""Three push buttons (to ground, internal pull-ups) driving a PromptNavigator via gpiozero.

A button acts the moment it goes down (not when it comes up), once: its contacts chatter for
a few milliseconds going down and coming up, so a press counts only if the button had been up
for at least ``debounce_s`` before it. gpiozero's own ``bounce_time`` is not used: on mock
pins it does nothing, and on RPi.GPIO it can swallow the release and leave a button "held".
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from gpiozero import Button
from gpiozero.pins import Factory

from hardware.config import ButtonsConfig
from hardware.navigator import PromptNavigator

NAMES = ("prev", "next", "ok")


class ButtonPanel:
    """prev / next (held: big steps, repeating), OK, and prev + next together: back.

    Every counted press runs under one lock and is followed by ``on_change()`` (redraw).
    ``clock`` times the debounce (tests pass a fake one)."""

    def __init__(self, cfg: ButtonsConfig, navigator: PromptNavigator, *,
                 pin_factory: Factory | None = None,
                 on_change: Callable[[], None] = lambda: None,
                 lock: threading.Lock | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.navigator = navigator
        self.debounce_s = cfg.debounce_s
        self._on_change = on_change
        self._lock = lock or threading.Lock()
        self._clock = clock
        self._down: set[str] = set()
        self._up_since: dict[str, float] = {}
        self.presses = 0
        """Presses counted (chatter excluded)."""
        self.ignored = 0
        """Edges ignored as contact chatter."""
        built: list[Button] = []
        try:
            for name in NAMES:
                repeat = name != "ok"
                button = Button(getattr(cfg, name), pin_factory=pin_factory,
                                hold_time=cfg.hold_s, hold_repeat=repeat)
                built.append(button)
                button.when_pressed = lambda n=name: self._pressed(n)
                button.when_released = lambda n=name: self._released(n)
                if repeat:
                    button.when_held = lambda n=name: self._held(n)
        except Exception:
            for button in built:
                button.close()
            raise
        self.prev, self.next, self.ok = built

    def _pressed(self, name: str) -> None:
        now = self._clock()
        with self._lock:
            up_since = self._up_since.get(name)
            self._down.add(name)
            if up_since is not None and now - up_since < self.debounce_s:
                self.ignored += 1
                return
            self.presses += 1
            nav = self.navigator
            if name == "ok":
                nav.ok()
            elif ({"prev", "next"} - {name}) & self._down:
                nav.back()  # both arrows at once
            elif name == "prev":
                nav.prev()
            else:
                nav.next()
        self._changed()

    def _released(self, name: str) -> None:
        with self._lock:
            self._down.discard(name)
            self._up_since[name] = self._clock()

    def _held(self, name: str) -> None:
        with self._lock:
            if {"prev", "next"} <= self._down:
                return
            if name == "prev":
                self.navigator.prev(big=True)
            else:
                self.navigator.next(big=True)
        self._changed()

    def _changed(self) -> None:
        try:
            self._on_change()
        except Exception:  # noqa: BLE001 - a redraw must not kill gpiozero's event thread
            import logging

            logging.getLogger(__name__).exception("redraw after a button failed")

    def close(self) -> None:
        for button in (self.prev, self.next, self.ok):
            button.close()
