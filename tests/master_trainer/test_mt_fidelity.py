"""Master Trainer: the readings offered as settings, a test for each value."""

from __future__ import annotations

import pytest
from mt_table import Table, started

from companion.engine.types import SetupError


def ultra_ball_on_pidgey(settings: dict[str, str]) -> Table:
    """Ash plays an Ultra Ball on Pidgey (caught on 3, 4 or 5)."""
    t = started(settings=settings)
    t.give("ash", items=("ultra_ball",))
    t.do("ash", "roll", dice=[3])
    t.do("ash", "land", space="catch-pink")
    t.do("ash", "reveal", chip="16-pidgey")
    return t


def test_ball_adjust_may_keep_the_plain_roll() -> None:
    """Ultra Ball: "The player can add 1 or 2 to their roll." ball_adjust = may (default): a
    5 catches Pidgey as rolled; the odds shown are 5 in 6."""
    t = ultra_ball_on_pidgey({})
    assert "Ultra Ball: 5 in 6" in t.state.prompt.text
    t.do("ash", "catch", ball="ultra")
    events = t.do("ash", "roll", dice=[5])
    assert "catches Pidgey" in t.says(events)


def test_ball_adjust_must_add() -> None:
    """ball_adjust = must: once played the ball must adjust the roll: 5 + 1 or 5 + 2 misses
    Pidgey; the odds shown are 4 in 6."""
    t = ultra_ball_on_pidgey({"ball_adjust": "must"})
    assert "Ultra Ball: 4 in 6" in t.state.prompt.text
    t.do("ash", "catch", ball="ultra")
    events = t.do("ash", "roll", dice=[5])
    assert "does not catch" in t.says(events)


def center_card(settings: dict[str, str]) -> Table:
    t = started(settings=settings)
    t.give("ash", team=("raichu", "pidgey"), knocked_out=("raichu", "pidgey"))
    t.top_event("pokemon_center")
    t.do("ash", "roll", dice=[2])
    t.do("ash", "land", space="event-green")
    return t


def test_center_card_all_revives_every_knocked_out_pokemon() -> None:
    """Pokémon Center card: "It's used to revive any knocked-out Pokémon." center_card = all
    (default): all of them."""
    t = center_card({})
    assert t.state.trainer("ash").knocked_out == ()


def test_center_card_one_revives_the_one_chosen() -> None:
    """center_card = one: one knocked-out Pokémon of the player's choice."""
    t = center_card({"center_card": "one"})
    assert t.prompt_kind == "revive_card"
    t.do("ash", "revive", chip="pidgey")
    assert t.state.trainer("ash").knocked_out == ("raichu",)
    assert t.state.current == "misty"


def test_a_setting_value_that_is_not_an_option_is_refused() -> None:
    with pytest.raises(SetupError, match="'may'"):
        Table(settings={"ball_adjust": "sometimes"})
