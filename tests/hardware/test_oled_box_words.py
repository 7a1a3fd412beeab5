"""The OLED reads the box's words in the table's language (issue 41, item 2: "Anna pesca RISK"
on the OLED too): a Monopolino table whose screen is Italian plays a game to its end, and every
text the simulated screen draws (the words handed to the font: prompts, choices, the end
screen) names the box's things by their Italian names, never by their English ones."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from companion.engine.i18n import render
from companion.monopoly.board import load_board
from companion.service.game_service import GameService
from companion.service.script import parse_step
from companion.service.table import Table
from hardware import screens
from hardware.table import TableHardware

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_an_italian_oled_names_monopolinos_things_in_italian(
        tmp_path: Path, monkeypatch: Any) -> None:
    drawn: list[str] = []
    real_text, real_wrap = screens.text, screens.wrap

    def text(draw: Any, xy: Any, words: str, fill: str = screens.ON) -> None:
        drawn.append(words)
        real_text(draw, xy, words, fill)

    def wrap(words: str, cols: int = screens.COLS, first: int | None = None) -> list[str]:
        drawn.append(" ".join(str(words).split()))
        return real_wrap(words, cols, first)

    monkeypatch.setattr(screens, "text", text)
    monkeypatch.setattr(screens, "wrap", wrap)
    now = [0.0]
    data = json.loads((EXAMPLES / "monopolino-4-players.json").read_text("utf-8"))
    steps = data.pop("steps")
    with GameService(tmp_path) as service:
        hw = TableHardware.from_config(
            {"readers": [{"role": "bank"}], "display": {"kind": "dummy", "language": "it"}},
            on_tap=lambda r, u: None, on_action=lambda a, e: None, simulate=True,
            clock=lambda: now[0])
        try:
            table = Table(service, hw)
            out = service.create_game(data)
            assert out.ok, out.error
            for step in steps:
                _, state = service.state(str(out.game_id))
                assert service.submit(str(out.game_id), parse_step(state, step)).ok
                table.show_active()
                for _ in range(3):  # the screen's pages: the last lines, the balances
                    now[0] += screens.PAGE_S
                    hw.tick()
        finally:
            hw.stop()
    said = "\n".join(drawn)
    assert "Via dei Giocattoli" in said and "Stazione ROSSA" in said
    english = {render(w, "en") for w in _box_words()} - {render(w, "it") for w in _box_words()}
    assert [w for w in sorted(english) if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", said)] == []


def _box_words() -> list[str]:
    board = load_board("monopolino")
    return [*(s.name for s in board.spaces), *board.deck_titles.values(),
            *board.color_names.values(), *(c.text for cs in board.decks.values() for c in cs)]
