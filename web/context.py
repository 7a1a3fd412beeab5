"""What the blueprints share: the service, the hardware, seats, limiters and stream slots."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from flask import current_app

from web.claims import Claims
from web.security import BankerSessions, Limiter


class StreamSlots:
    """At most ``capacity`` open event streams, so streams never take every server thread.

    A phone keeps at most ``per_owner`` streams per game (two tabs are fine): when it opens
    one more (after a Wi-Fi drop the server has not noticed yet), its oldest stream hands
    over its slot and ends at its next check, instead of holding a thread until a write
    fails. When all slots are taken, a phone holding two streams gives one up first."""

    def __init__(self, capacity: int, per_owner: int = 2) -> None:
        self.capacity = capacity
        self.per_owner = per_owner
        self.open = 0
        self._lock = threading.Lock()
        self._owners: dict[Any, list[threading.Event]] = {}

    def take(self, owner: Any = None) -> threading.Event | None:
        """A slot for ``owner`` (e.g. (session, game); None: anonymous), or None when all
        are in use. The event returned is set when the stream must end (slot handed over)."""
        with self._lock:
            mine = self._owners.setdefault(owner, []) if owner is not None else []
            if owner is not None and len(mine) >= self.per_owner:
                mine.pop(0).set()  # the oldest stream hands its slot over
            elif self.open >= self.capacity:
                # full: a phone holding two streams (often one dead after a drop) gives one up
                spare = next((t for t in self._owners.values() if len(t) > 1), None)
                if spare is None:
                    return None
                spare.pop(0).set()
            else:
                self.open += 1
            ticket = threading.Event()
            if owner is not None:
                mine.append(ticket)
            return ticket

    def give(self, owner: Any = None, ticket: threading.Event | None = None) -> None:
        """Release a slot, unless it was handed over to a newer stream of the same owner."""
        with self._lock:
            if ticket is not None and ticket.is_set():
                return
            mine = self._owners.get(owner)
            if mine is not None and ticket in mine:
                mine.remove(ticket)
                if not mine:
                    del self._owners[owner]
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
    bankers: BankerSessions
    settings: dict[str, Any] = field(default_factory=dict)
    closing: threading.Event = field(default_factory=threading.Event)
    """Set when the server stops: every open stream ends at once."""

    def close_streams(self) -> None:
        self.closing.set()
        with self.service.changed:
            self.service.changed.notify_all()


def web() -> Web:
    return current_app.extensions["companion"]  # type: ignore[no-any-return]
