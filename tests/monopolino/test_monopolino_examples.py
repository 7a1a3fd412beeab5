"""The example scripts examples/monopolino-*.json play to a finish with known winners."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.service import game
from companion.service.script import load_script, run_script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
WINNERS = {
    "monopolino-2-players.json": ["anna"],
    "monopolino-3-players.json": ["ben"],
    "monopolino-4-players.json": ["anna"],
}


@pytest.mark.parametrize("name", sorted(WINNERS))
def test_example_plays_to_the_end(name: str) -> None:
    """Each example finishes when a player has no money left; the richest player wins."""
    result = run_script(load_script(EXAMPLES / name))
    final = result.final()
    assert final["finished"] and final["winners"] == WINNERS[name]
    assert "no money left" in final["end_reason"]
    assert any(p["money"] == 0 for p in final["players"])
    assert game.replay(result.events) == result.state


def test_every_example_is_checked() -> None:
    """No example file is left without a known result."""
    assert {p.name for p in EXAMPLES.glob("monopolino-*.json")} == set(WINNERS)
