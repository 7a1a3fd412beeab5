"""Every view a player sees while the examples in examples/ are played (for the OLED tests)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from companion.engine.types import GameSetup
from companion.service import game
from companion.service.script import parse_step, script_setup

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.json"))


@cache
def example_views(path: Path) -> list[dict[str, Any]]:
    """The views of one example script, before its first step and after each."""
    data = json.loads(path.read_text("utf-8"))
    state = game.replay(game.new_game(GameSetup.from_json(script_setup(data))))
    views = [game.view(state)]
    for step in data["steps"]:
        for event in game.decide(state, parse_step(state, step)):
            state = game.apply(state, event)
        views.append(game.view(state))
    return views


def all_views() -> Iterator[tuple[str, dict[str, Any]]]:
    """(example file name, view) for every example."""
    for path in EXAMPLES:
        for view in example_views(path):
            yield path.name, view
