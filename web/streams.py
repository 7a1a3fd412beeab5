"""What a live stream is: the one structure the events view (web/events.py) hands the
server's loop (web/front.py), kept apart so that neither imports the other for it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class StreamSpec:
    """What the events view hands the loop: whose view of which game, from which version."""

    game_id: str
    viewer: str | None
    after: int
    seconds: float
    heartbeat: float
    gone: Callable[[], bool]
    """True when the stream must end (server closing, slot handed to a newer stream)."""
    release: Callable[[], None]
    frame: Callable[[int], tuple[int, bytes | None]] = field(default=lambda seen: (0, None))
    """``frame(seen)``: ``(version, what a stream holding version seen needs next)``, the
    frame None when it is up to date."""
    share: Any = None
    """Streams with equal ``share`` get equal frames for the same version seen."""
