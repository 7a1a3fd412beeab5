"""A table device other than a reader (the buttons, the lights and buzzer) that may be
missing: opened, reported, and reopened after a failure with a growing pause; and the guards
that keep a device's or a callback's failure from stopping the table."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from companion.engine.i18n import Msg
from hardware.navigator import OnAction

log = logging.getLogger("hardware.table")

OnStatus = Callable[[str, bool, str], None]
MAX_BACKOFF_S = 4.0
"""The longest pause between two tries to reopen a device: one replugged is back within
~4 s (a try costs a few bus transfers)."""


class Part:
    """A device that may be missing: opened by ``opener``, reopened after a failure with a
    growing pause; ``device`` is None meanwhile."""

    def __init__(self, name: str, opener: Callable[[], Any], report: OnStatus) -> None:
        self.name, self._opener, self._report = name, opener, report
        self.device: Any = None
        self.status: tuple[bool, str] | None = None
        self._retry_at, self._backoff = 0.0, 1.0

    def tick(self, now: float) -> None:
        if self.device is not None or now < self._retry_at:
            return
        try:
            self.device = self._opener()
        except Exception as exc:  # noqa: BLE001 - any driver failure means "retry later"
            self._schedule(now, Msg("cannot open: {reason}",
                                    reason=str(exc or type(exc).__name__)))
            return
        self._backoff = 1.0
        self._set(True, Msg("ready"))

    def failed(self, now: float, message: str) -> None:
        self.close()
        self._schedule(now, message)

    def close(self) -> None:
        device, self.device = self.device, None
        if device is not None:
            quietly(device.close)

    def _schedule(self, now: float, message: str) -> None:
        self._retry_at = now + self._backoff
        self._backoff = min(MAX_BACKOFF_S, self._backoff * 2)
        self._set(False, message)

    def _set(self, working: bool, message: str) -> None:
        if self.status == (working, message):
            return
        self.status = (working, message)
        if working:
            log.info("%s: %s", self.name, message)
        else:
            log.warning("%s: %s (retrying; the game goes on from the phones)", self.name,
                        message)
        self._report(self.name, working, message)


def status_json(status: tuple[bool, str] | None) -> dict[str, Any]:
    if status is None:
        return {"working": None, "message": Msg("not tried yet")}
    return {"working": status[0], "message": status[1]}


def quietly(fn: Callable[[], Any]) -> None:
    try:
        fn()
    except Exception:  # noqa: BLE001 - closing a device that is gone may fail too
        log.debug("closing failed", exc_info=True)


def guarded(on_action: OnAction) -> OnAction:
    def call(action: dict[str, Any], extra: Any) -> None:
        try:
            on_action(action, extra)
        except Exception:
            log.exception("on_action(%r) failed", action.get("type"))

    return call
