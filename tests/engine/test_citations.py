"""Every automatic action that moves money, moves a piece, changes ownership or ends a game
cites the rule that caused it: the edition, the rulebook's section and a short quote, or the
companion's own reading / house default (issue 11, "The rule cited")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.engine.editions import find_edition
from companion.script import run_script

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.json"))

CITED = frozenset({
    "money_paid",      # money paid or received
    "moved_to",        # a token moved (Monopoly family)
    "mover_placed",    # a mover placed (Master Trainer)
    "deed_owned",      # ownership of a location
    "traded",          # Pokémon changing hands (Master Trainer)
    "chip_caught",     # a Pokémon joining a team (Master Trainer)
    "items_taken",     # Item Cards won in a battle (Master Trainer)
    "went_bankrupt",
    "finished",        # the game ended
})
"""The event types (companion/engine/events.py) that must carry a citation."""


def _run(example: str) -> tuple[str, list[tuple[str, str, str]]]:
    data = json.loads((ROOT / "examples" / example).read_text("utf-8"))
    result = run_script(data)
    return data["edition"], [(e.type.split("@")[0], e.say, e.cite) for e in result.events]


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_money_move_ownership_and_end_event_of_an_example_cites_its_rule(
    example: str,
) -> None:
    edition, events = _run(example)
    rules = find_edition(edition)
    uncited = [(kind, say) for kind, say, cite in events
               if kind in CITED and rules.citation(cite) is None]
    assert uncited == []
    assert any(kind in CITED for kind, _, _ in events)
