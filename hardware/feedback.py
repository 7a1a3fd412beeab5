"""A green LED, a red LED and a buzzer confirming taps, flagging errors, celebrating."""

from __future__ import annotations

import logging
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
log = logging.getLogger(__name__)


class Feedback:
    """``signal(kind)`` plays a pattern in the background; patterns never overlap.

    A pin that fails while playing (unplugged, GPIO error) ends the pattern; the error is kept
    in ``fault`` for the owner to report and reopen the parts, and is never raised."""

    def __init__(self, cfg: FeedbackConfig, *, pin_factory: Factory | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        built: list[LED | Buzzer | TonalBuzzer] = []
        try:
            built.append(LED(cfg.green, pin_factory=pin_factory))
            built.append(LED(cfg.red, pin_factory=pin_factory))
            if cfg.buzzer_kind == "passive":
                built.append(TonalBuzzer(cfg.buzzer, pin_factory=pin_factory, octaves=2))
            else:
                built.append(Buzzer(cfg.buzzer, pin_factory=pin_factory))
        except Exception:
            for device in built:
                device.close()
            raise
        self.green, self.red = built[0], built[1]
        self.buzzer: Buzzer | TonalBuzzer = built[2]
        self.fault: Exception | None = None
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
            except Exception as exc:  # noqa: BLE001 - the worker must outlive a bad pin
                if self.fault is None:
                    log.warning("lights and buzzer: %s", exc)
                self.fault = exc
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
            try:
                device.close()
            except Exception:  # noqa: BLE001 - an unplugged pin may fail to close
                log.debug("closing %r failed", device, exc_info=True)
