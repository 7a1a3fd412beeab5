"""What the blueprints share: the service, the hardware, seats, limiters and stream slots."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import current_app

from companion.service.game_service import ServicePort
from companion.service.join_codes import LastMoves
from web.claims import Claims
from web.security import BankerSessions, Limiter

LOOPBACK = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})


class StreamSlots:
    """At most ``capacity`` open spectator streams, at most ``per_address`` of them from one
    address (the Pi's own loopback is not limited), so one join code handed round cannot
    take every slot (issue 26). A seated phone or the banker always gets its stream: those
    are bounded by the seats and the PIN, not by the spectators.

    A phone keeps at most ``per_owner`` streams per game (two tabs are fine): when it opens
    one more (after a Wi-Fi drop the server has not noticed yet), its oldest stream hands
    over its slot and ends at its next check. When all slots are taken, a phone holding two
    streams gives one up first."""

    def __init__(self, capacity: int, per_owner: int = 2, per_address: int = 16) -> None:
        self.capacity = capacity
        self.per_owner = per_owner
        self.per_address = per_address
        self._lock = threading.Lock()
        self._owners: dict[Any, list[threading.Event]] = {}
        self._counted: dict[threading.Event, str | None] = {}
        """The spectators' tickets and their addresses."""
        self._addresses: Counter[str] = Counter()

    @property
    def open(self) -> int:
        """Spectator streams open."""
        return len(self._counted)

    def take(self, owner: Any = None, address: str | None = None,
             seated: bool = False) -> threading.Event | None:
        """A slot for ``owner`` (e.g. (session, game); None: anonymous) from ``address``, or
        None when none is free for it. The event returned is set when the stream must end
        (slot handed over); release it with :meth:`give`."""
        with self._lock:
            mine = self._owners.get(owner, []) if owner is not None else []
            if owner is not None and len(mine) >= self.per_owner:
                self._hand_over(mine)  # the oldest stream hands its slot over
            if not seated:
                limited = address is not None and address not in LOOPBACK
                if limited and self._addresses[address or ""] >= self.per_address:
                    return None
                if self.open >= self.capacity:
                    # full: a phone holding two streams (often one dead after a drop) gives
                    # one up
                    spare = next((t for t in self._owners.values()
                                  if len(t) > 1 and t[0] in self._counted), None)
                    if spare is None:
                        return None
                    self._hand_over(spare)
            ticket = threading.Event()
            if not seated:
                self._counted[ticket] = address
                if address is not None:
                    self._addresses[address] += 1
            if owner is not None:
                self._owners.setdefault(owner, []).append(ticket)
            return ticket

    def give(self, owner: Any = None, ticket: threading.Event | None = None) -> None:
        """Release a slot, unless it was handed over to a newer stream already."""
        with self._lock:
            if ticket is None or ticket.is_set():
                return
            mine = self._owners.get(owner)
            if mine is not None and ticket in mine:
                mine.remove(ticket)
                if not mine:
                    del self._owners[owner]
            self._uncount(ticket)

    def _hand_over(self, tickets: list[threading.Event]) -> None:
        old = tickets.pop(0)
        old.set()
        self._uncount(old)

    def _uncount(self, ticket: threading.Event) -> None:
        if ticket in self._counted:
            address = self._counted.pop(ticket)
            if address is not None:
                self._addresses[address] -= 1
                if self._addresses[address] <= 0:
                    del self._addresses[address]


@dataclass
class Web:
    """The app's companion-side state (``app.extensions["companion"]``)."""

    service: ServicePort
    """All the app may use of the game service."""
    hardware: Any
    claims: Claims
    pin: Limiter
    join: Limiter
    flood: Limiter
    streams: StreamSlots
    bankers: BankerSessions
    clock: Callable[[], float]
    """The steady clock (``companion.platform.steady_clock``) logins, cookies and join codes use."""
    last_moves: LastMoves
    settings: dict[str, Any] = field(default_factory=dict)
    closing: threading.Event = field(default_factory=threading.Event)
    """Set when the server stops: every open stream ends at once."""

    def close_streams(self) -> None:
        self.closing.set()
        with self.service.changed:
            self.service.changed.notify_all()


def web() -> Web:
    return current_app.extensions["companion"]  # type: ignore[no-any-return]
