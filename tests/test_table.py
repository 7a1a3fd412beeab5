"""companion/table.py: what the table's screen shows as a game starts and goes on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.service import GameService
from companion.table import Table


class Screen:
    """Records what the table asks the hardware to show."""

    def __init__(self) -> None:
        self.shown: list[tuple[str, Any]] = []

    def show(self, view: dict[str, Any]) -> None:
        self.shown.append(("game", view["version"]))

    def show_join(self, url: str, code: str) -> None:
        self.shown.append(("join", (url, code)))

    def show_error(self, text: str) -> None:
        self.shown.append(("error", text))

    def show_enrollment(self, progress: Any) -> None:
        self.shown.append(("enrollment", progress))

    def signal(self, kind: str) -> None:
        self.shown.append(("signal", kind))


def test_a_new_game_shows_its_join_code_until_the_first_move(tmp_path: Path) -> None:
    """Right after the banker starts a game the OLED shows the QR code (the page's address
    with the game's join code) and the code itself; once play starts, it shows the game."""
    screen = Screen()
    with GameService(tmp_path) as service:
        table = Table(service, screen)
        table.public_url = "http://companion.local:8080"
        out = service.create_game({"edition": "mario", "players": ["Mario", "Luigi"],
                                   "dice": "physical", "settings": {"order": "seated"}})
        code = service.view(out.game_id)["join_code"]
        assert screen.shown[-1] == ("join", (f"http://companion.local:8080/?code={code}", code))
        service.submit(out.game_id, {"actor": "mario", "type": "roll", "args": {"dice": [3, 1]}})
        assert screen.shown[-1] == ("game", service.view(out.game_id)["version"])


def test_a_fault_from_any_source_reaches_the_screen(tmp_path: Path) -> None:
    """A notice the service publishes (a full disk, say) shows on the OLED and sounds the
    error signal, whoever sent the command."""
    screen = Screen()
    with GameService(tmp_path) as service:
        table = Table(service, screen)
        service._publish("", 0, {"text": "could not save", "level": "error"})
        assert ("error", "could not save") in screen.shown
        assert ("signal", "error") in screen.shown
        assert table.last_notice == {"text": "could not save", "level": "error"}
