"""A green LED, a red LED and a buzzer confirming taps, flagging errors, celebrating."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable

from gpiozero import LED, Buzzer, TonalBuzzer
from gpiozero.pins import Factory
from gpiozero.tones import Tone

from hardware.config import FeedbackConfig

Step = tuple[str, str | None, float]  # (LEDs lit: "g", "r", "gr" or "", note or None, seconds)

PATTERNS: dict[str, list[Step]] = {
    "ok": [("g", "A5", 0.12)],
    "error": [("r", "C4", 0.15), ("", None, 0.08), ("r", "C4", 0.3)],
    "catch": [("g", "C5", 0.1), ("g", "E5", 0.1), ("g", "G5", 0.1), ("g", "C6", 0.25)],
    "win": [("g", "C5", 0.12), ("r", "E5", 0.12), ("g", "G5", 0.12), ("r", "E5", 0.12),
            ("gr", "C6", 0.4)],
}
KINDS = tuple(PATTERNS)


class Feedback:
    """``signal(kind)`` plays a pattern in the background; patterns never overlap."""

    def __init__(self, cfg: FeedbackConfig, *, pin_factory: Factory | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.green = LED(cfg.green, pin_factory=pin_factory)
        self.red = LED(cfg.red, pin_factory=pin_factory)
        self.buzzer: Buzzer | TonalBuzzer
        if cfg.buzzer_kind == "passive":
            self.buzzer = TonalBuzzer(cfg.buzzer, pin_factory=pin_factory, octaves=2)
        else:
            self.buzzer = Buzzer(cfg.buzzer, pin_factory=pin_factory)
        self._sleep = sleep
        self._queue: queue.Queue[tuple[str, threading.Event] | None] = queue.Queue()
        self._worker = threading.Thread(target=self._work, name="feedback", daemon=True)
        self._worker.start()

    def signal(self, kind: str, wait: bool = False) -> None:
        """Play ``kind`` ("ok", "error", "catch", "win"); ``wait`` blocks until done."""
        if kind not in PATTERNS:
            raise ValueError(f"unknown signal {kind!r}; known: {', '.join(KINDS)}")
        done = threading.Event()
        self._queue.put((kind, done))
        if wait:
            done.wait(5)

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            kind, done = item
            try:
                for leds, note, seconds in PATTERNS[kind]:
                    self._set(leds, note)
                    self._sleep(seconds)
                self._set("", None)
            finally:
                done.set()

    def _set(self, leds: str, note: str | None) -> None:
        self.green.value = "g" in leds
        self.red.value = "r" in leds
        if isinstance(self.buzzer, TonalBuzzer):
            if note:
                self.buzzer.play(Tone(note))
            else:
                self.buzzer.stop()
        else:
            self.buzzer.value = note is not None

    def close(self) -> None:
        self._queue.put(None)
        self._worker.join(2)
        for device in (self.green, self.red, self.buzzer):
            device.close()
