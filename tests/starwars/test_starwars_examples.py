"""Star Wars: the example scripts play to their end through the script runner."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.service import game
from companion.service.script import load_script, run_script

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("starwars-*.json"))


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_plays_to_its_expected_finish(path: Path) -> None:
    """Each example is legal step by step, finishes, and names the expected winners."""
    data = load_script(path)
    result = run_script(data)
    state = result.state
    assert state.finished
    assert list(state.winners) == data["expect"]["winners"]
    assert state.end_reason == data["expect"]["end_reason"]
    assert game.replay(result.events) == state
