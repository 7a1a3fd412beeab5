"""The OLED's end screen tells the game's story: the winner, why, and each player's
figures (128x64, 21 characters a line)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from companion.service.game_service import GameService
from companion.service.script import parse_step
from companion.service.table import Table
from hardware.screens import HEIGHT, WIDTH, draw_end

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hardware"))
from oled_reference import assert_matches_reference  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


class Screen:
    def __init__(self) -> None:
        self.views: list[dict[str, Any]] = []

    def show(self, view: dict[str, Any]) -> None:
        self.views.append(view)

    def show_join(self, url: str, code: str) -> None:
        pass

    def signal(self, kind: str) -> None:
        pass


def test_the_table_shows_the_story_when_the_game_ends(tmp_path: Path) -> None:
    screen = Screen()
    data = json.loads((ROOT / "examples" / "mario-two-players.json").read_text("utf-8"))
    with GameService(tmp_path) as service:
        Table(service, screen)
        gid = service.create_game({k: v for k, v in data.items() if k != "steps"}).game_id
        for step in data["steps"]:
            cmd = parse_step(service.state(gid)[1], step)
            assert service.submit(gid, {"actor": cmd.actor, "type": cmd.type,
                                        "args": cmd.args}).ok
    assert "story" not in screen.views[-2]
    assert screen.views[-1]["story"] == ["Mario wins!", "Mario GO!4 laps3", "Luigi GO!4 laps3"]


def test_the_end_screen_with_a_story() -> None:
    """Page 1: who won and why; page 2: each player's figures."""
    view = {"finished": True, "winners": ["d"], "players": [{"id": "d", "name": "Дмитрий"}],
            "end_reason": "Дмитрий is the last player standing and wins!",
            "story": ["Дмитрий wins!", "Дмитрий GO!4 laps3", "Zoë GO!4 laps3"]}
    for page, name in ((0, "end-story"), (1, "end-story-2")):
        image = Image.new("1", (WIDTH, HEIGHT))
        draw_end(ImageDraw.Draw(image), view, page)
        assert_matches_reference(image, name)
