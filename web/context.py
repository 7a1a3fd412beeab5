"""What the blueprints share: the service, the hardware, seats, limiters and stream slots."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from flask import current_app

from web.claims import Claims
from web.security import Limiter


class StreamSlots:
    """At most ``capacity`` open event streams, so streams never take every server thread."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.open = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self.open >= self.capacity:
                return False
            self.open += 1
            return True

    def give(self) -> None:
        with self._lock:
            self.open = max(0, self.open - 1)


@dataclass
class Web:
    """The app's companion-side state (``app.extensions["companion"]``)."""

    service: Any
    hardware: Any
    claims: Claims
    pin: Limiter
    join: Limiter
    flood: Limiter
    streams: StreamSlots
    settings: dict[str, Any] = field(default_factory=dict)
    closing: threading.Event = field(default_factory=threading.Event)
    """Set when the server stops: every open stream ends at once."""

    def close_streams(self) -> None:
        self.closing.set()
        with self.service.changed:
            self.service.changed.notify_all()


def web() -> Web:
    return current_app.extensions["companion"]  # type: ignore[no-any-return]
