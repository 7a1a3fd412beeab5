"""The example scripts in examples/ play whole games to a win."""

from __future__ import annotations

import json

import pytest
from mt_table import EXAMPLES, run_example

from companion.service import game
from companion.service.script import run_script

PHYSICAL_ITEMS = EXAMPLES / "master-trainer-physical-items.json"
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


def test_the_physical_items_example_names_every_card_drawn() -> None:
    """Real piles: each ``draw card=`` step names one card (Event Card, Item Card from the
    pile, a battle prize from the loser's hand, or the Pokémon Master's Rival Card), the
    companion deals none itself, and naming the cards its own deck would have dealt gives the
    virtual game's hands and pile."""
    t = run_example(PHYSICAL_ITEMS)
    steps = json.loads(PHYSICAL_ITEMS.read_text("utf-8"))["steps"]
    named = [e for e in t.events
             if e.type in ("item_card_named", "event_card_named", "items_taken",
                           "final_battle_begun")]
    assert len(named) == sum(" draw card=" in s for s in steps) > 20
    assert {e.type for e in named} == {"item_card_named", "items_taken", "final_battle_begun"}
    assert not any(e.type in ("items_drawn", "event_drawn") for e in t.events)
    virtual = json.loads(PHYSICAL_ITEMS.read_text("utf-8"))
    virtual["settings"] = {"decks": "virtual"}
    virtual["steps"] = [s for s in steps if " draw card=" not in s]
    v = run_script(virtual).state
    assert [x.items for x in t.state.trainers] == [x.items for x in v.trainers]
    assert t.state.items_deck == v.items_deck
    assert game.replay(t.events) == t.state
