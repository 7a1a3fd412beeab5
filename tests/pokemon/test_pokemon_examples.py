"""The example scripts examples/pokemon-*.json play to a finish."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pokemon_play import ROOT

from companion.service import game
from companion.service.script import run_script

EXAMPLES = sorted((ROOT / "examples").glob("pokemon-*.json"))
ENDINGS = {
    "pokemon-two-trainers.json": ("misty", "last Trainer with Poké Balls"),
    "pokemon-three-trainers.json": ("ash", "last Trainer with Poké Balls"),
    "pokemon-four-trainers.json": ("ash", "all 8 types"),
}


def test_there_are_examples() -> None:
    """Every shipped example is checked here."""
    assert {p.name for p in EXAMPLES} == set(ENDINGS)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_plays_to_a_finish(path: Path) -> None:
    """Each step is legal when reached and the game ends with the expected winner."""
    result = run_script(json.loads(path.read_text("utf-8")))
    state = result.state
    winner, why = ENDINGS[path.name]
    assert state.finished and state.winners == (winner,)
    assert why in state.end_reason
    assert game.replay(result.events) == state
