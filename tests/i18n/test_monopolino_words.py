"""Monopolino speaks Italian and Spanish (issue 30, its first complete edition): every line
of its example games, every prompt and every button a player or the banker is offered is a
message of the catalogue, never finished English; rendered in Italian it uses the box's own
words (botteghino, LOTTERIA) and the reader's money (€0,50)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion.engine.i18n import Msg, render
from companion.engine.types import GameSetup
from companion.plugins.editions import find_edition
from companion.service import game
from companion.service.script import parse_step, script_setup

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("monopolino-*.json"))


def _played(path: Path) -> tuple[list[str], list[str]]:
    """The game's lines, and every prompt text and action label shown along the way."""
    data = json.loads(path.read_text("utf-8"))
    rules = find_edition("monopolino")
    events = game.new_game(GameSetup.from_json(script_setup(data)))
    state = game.replay(events)
    shown: list[str] = []

    def look(state: Any) -> None:
        view = rules.view(state, None)
        shown.extend(a["label"] for a in view["actions"])
        if view.get("prompt"):
            shown.append(view["prompt"]["text"])

    look(state)
    for step in data["steps"]:
        new = game.decide(state, parse_step(state, step))
        for e in new:
            state = game.apply(state, e)
        events += new
        look(state)
    assert state.finished
    return [e.say for e in events if e.say], shown


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_line_prompt_and_button_is_a_message(path: Path) -> None:
    said, shown = _played(path)
    assert [s for s in said + shown if not isinstance(s, Msg)] == []


def test_an_italian_reader_gets_the_boxs_words_and_money() -> None:
    said, _shown = _played(EXAMPLES[0])
    italian = "\n".join(render(s, "it") for s in said)
    assert "botteghino" in italian and "LOTTERIA" in italian
    assert re.search(r"€\d+,\d\d", italian) and not re.search(r"€\d+\.\d\d", italian)
    spanish = "\n".join(render(s, "es") for s in said)
    assert "caseta" in spanish and " places a booth " not in spanish
