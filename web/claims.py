"""Which phone (session id) holds which player of which game; kept in the settings table."""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.service.game_service import ServicePort

KEY = "web.claims"


class Claims:
    """``game_id -> {player_id: session id}``, persisted so a restart keeps every seat."""

    def __init__(self, service: ServicePort) -> None:
        self.service = service
        self._lock = threading.Lock()
        raw = service.setting(KEY)
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            data = {}
        self._claims: dict[str, dict[str, str]] = data if isinstance(data, dict) else {}

    def _save(self) -> None:
        self.service.set_setting(KEY, json.dumps(self._claims))

    def holder(self, game_id: str, player: str) -> str | None:
        return self._claims.get(game_id, {}).get(player)

    def seat_of(self, game_id: str, sid: str) -> str | None:
        """The player ``sid`` holds in the game, or None."""
        return next((p for p, s in self._claims.get(game_id, {}).items() if s == sid), None)

    def seats(self, game_id: str) -> dict[str, str]:
        return dict(self._claims.get(game_id, {}))

    def claim(self, game_id: str, player: str, sid: str) -> bool:
        """Give ``player`` to ``sid``; False if another phone holds it. A phone holds one
        player per game: claiming another releases the first."""
        with self._lock:
            seats = self._claims.setdefault(game_id, {})
            held = seats.get(player)
            if held is not None and held != sid:
                return False
            for p in [p for p, s in seats.items() if s == sid and p != player]:
                del seats[p]
            seats[player] = sid
            self._save()
            return True

    def release(self, game_id: str, player: str) -> bool:
        with self._lock:
            seats = self._claims.get(game_id, {})
            if player not in seats:
                return False
            del seats[player]
            self._save()
            return True
