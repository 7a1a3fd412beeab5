"""The example scripts in examples/ play whole games to a win."""

from __future__ import annotations

import pytest
from mt_table import EXAMPLES, run_example

from companion.engine import game

SCRIPTS = sorted(EXAMPLES.glob("master-trainer-*.json"))


def test_there_are_examples() -> None:
    """At least two example games ship with the edition."""
    assert len(SCRIPTS) >= 2


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_example_plays_to_a_win(path) -> None:  # type: ignore[no-untyped-def]
    """Played by the script runner, each example ends with a Final Battle won, and replaying
    its log gives the same state."""
    t = run_example(path)
    assert t.state.finished and len(t.state.winners) == 1
    assert "beats the Pokémon Master" in t.state.log[-1]
    assert game.replay(t.events) == t.state
