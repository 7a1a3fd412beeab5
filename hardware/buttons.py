"""Three push buttons (to ground, internal pull-ups) driving a PromptNavigator via gpiozero.

A button acts once it has been down, without a break, for ``press_s`` (20 ms), not when it
comes up, and once: a spike of a millisecond or two on a long wire never lasts that long. Its
contacts chatter for a few milliseconds going down and coming up, so after a press the button
must be up, without a break, for ``debounce_s`` before it can press again. gpiozero's own
``bounce_time`` is not used: on mock pins it does nothing, and on RPi.GPIO it can swallow the
release and leave a button "held".
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from gpiozero import Button
from gpiozero.pins import Factory

from hardware.config import ButtonsConfig
from hardware.navigator import PromptNavigator

NAMES = ("prev", "next", "ok")


class ButtonPanel:
    """prev / next (held: big steps, repeating), OK, and prev + next together: back.

    Every counted press runs under one lock and is followed by ``on_change()`` (redraw).
    ``schedule(delay, fn)`` times the press width and the debounce (tests pass a fake; the
    default is a daemon ``threading.Timer``)."""

    def __init__(self, cfg: ButtonsConfig, navigator: PromptNavigator, *,
                 pin_factory: Factory | None = None,
                 on_change: Callable[[], None] = lambda: None,
                 lock: threading.Lock | None = None,
                 schedule: Callable[[float, Callable[[], None]], None] | None = None) -> None:
        self.navigator = navigator
        self.debounce_s = cfg.debounce_s
        self.press_s = cfg.press_s
        self._schedule = schedule or _timer
        self._on_change = on_change
        self._lock = lock or threading.Lock()
        self._down: set[str] = set()
        self._edge: dict[str, int] = {}  # edges seen per button: a check is against the last
        self._spent: set[str] = set()  # pressed, and not yet up for debounce_s since
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
        with self._lock:
            self._down.add(name)
            edge = self._edge[name] = self._edge.get(name, 0) + 1
        self._schedule(self.press_s, lambda: self._settled_down(name, edge))

    def _released(self, name: str) -> None:
        with self._lock:
            self._down.discard(name)
            edge = self._edge[name] = self._edge.get(name, 0) + 1
        self._schedule(self.debounce_s, lambda: self._settled_up(name, edge))

    def _settled_down(self, name: str, edge: int) -> None:
        """``press_s`` after a down edge: a press if the button has not moved since, and
        the first since it was last up for ``debounce_s``."""
        with self._lock:
            if self._edge.get(name) != edge or name in self._spent:
                self.ignored += 1  # a spike, chatter, or the same press again
                return
            self._spent.add(name)
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

    def _settled_up(self, name: str, edge: int) -> None:
        with self._lock:
            if self._edge.get(name) == edge:
                self._spent.discard(name)  # up long enough: the next press counts

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


def _timer(delay: float, fn: Callable[[], None]) -> None:
    timer = threading.Timer(delay, fn)
    timer.daemon = True
    timer.start()
