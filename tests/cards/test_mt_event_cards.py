"""Master Trainer with its real Event pile: the player names the Event Card drawn; a drawn
card goes under the pile and comes round only after the cards above it."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from companion.engine.types import IllegalCommand
from companion.service import game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "master_trainer"))
from mt_table import started  # noqa: E402


def named(t: object) -> list[str]:
    return [a.args["card"] for a in game.legal_actions(t.state)  # type: ignore[attr-defined]
            if a.type == "draw"]


def test_an_event_space_asks_which_event_card_was_drawn_and_follows_it() -> None:
    t = started(settings={"decks": "physical"})
    t.do("ash", "roll", dice=[1])
    t.do("ash", "land", space="event-pink")
    assert t.state.prompt.kind == "draw_event"
    assert "take_2" in named(t)
    events = t.do("ash", "draw", card="take_2")
    assert "Take Item Card 2" in t.says(events)
    assert t.state.prompt.kind == "draw_items"  # the Item Cards come off the real pile too
    t.do("ash", "draw", card="potion")
    t.do("ash", "draw", card="fly")
    assert len(t.state.trainer("ash").items) == 2
    assert t.state.events_deck[-1] == "take_2"


def test_a_card_under_the_pile_cannot_come_up_until_the_pile_comes_round() -> None:
    t = started(settings={"decks": "physical"})
    t.state = replace(t.state, events_deck=("take_1", "take_2"), events_top=0)  # a pile of two
    t.do("ash", "roll", dice=[1])
    t.do("ash", "land", space="event-pink")
    t.do("ash", "draw", card="take_2")
    t.do("ash", "draw", card="potion")
    t.do("ash", "draw", card="fly")
    t.do("misty", "roll", dice=[1])
    t.do("misty", "land", space="event-pink")
    assert named(t) == ["take_1"]
    with pytest.raises(IllegalCommand, match="under the pile"):
        t.do("misty", "draw", card="take_2")
    t.do("misty", "draw", card="take_1")
    t.do("misty", "draw", card="potion")
    t.do("ash", "roll", dice=[1])
    t.do("ash", "land", space="event-blue")
    assert sorted(named(t)) == ["take_1", "take_2"]  # the pile came round
