"""Trades, the hand limit and the items played on a turn (Potion, Fly)."""

from __future__ import annotations

import pytest
from mt_table import started

from companion.engine.types import IllegalCommand


def test_passing_a_mover_allows_a_trade_that_ends_the_turn() -> None:
    """Passing another mover, a player may offer a trade; accepted, the chips swap and the
    turn ends."""
    t = started()
    t.give("ash", team=("pidgey",))
    t.give("misty", team=("staryu",))
    t.do("ash", "roll", dice=[3])
    t.do("ash", "trade", **{"with": "misty", "give": "pidgey", "take": "staryu"})
    assert t.prompt_kind == "offer"
    t.do("misty", "accept")
    assert t.state.trainer("ash").team == ("pikachu", "staryu")
    assert t.state.trainer("misty").team == ("squirtle", "pidgey")
    assert t.state.current == "misty"


def test_declined_trade_the_mover_goes_on_to_its_space() -> None:
    """If the other player declines, the player lands on the space the roll reached."""
    t = started()
    t.give("ash", team=("pidgey",))
    t.give("misty", team=("staryu",))
    t.do("ash", "roll", dice=[3])
    t.do("ash", "trade", **{"with": "misty", "give": "pidgey", "take": "staryu"})
    t.do("misty", "decline")
    assert t.prompt_kind == "land" and t.state.current == "ash"
    assert t.state.trainer("ash").team == ("pikachu", "pidgey")


def test_starters_cannot_be_traded() -> None:
    """Starter Pokémon cannot be traded."""
    t = started()
    t.give("ash", team=("pidgey",))
    t.give("misty", team=("staryu",))
    t.do("ash", "roll", dice=[3])
    with pytest.raises(IllegalCommand, match="Starter Pokémon cannot be traded"):
        t.do("ash", "trade", **{"with": "misty", "give": "pikachu", "take": "staryu"})
    with pytest.raises(IllegalCommand, match="Starter Pokémon cannot be traded"):
        t.do("ash", "trade", **{"with": "misty", "give": "pidgey", "take": "squirtle"})


def test_knocked_out_pokemon_can_be_traded_and_stays_knocked_out() -> None:
    """Knocked-out Pokémon can still be traded in a regular trade."""
    t = started()
    t.give("ash", team=("pidgey",), knocked_out=("pidgey",))
    t.give("misty", team=("staryu",))
    t.do("ash", "roll", dice=[3])
    t.do("ash", "trade", **{"with": "misty", "give": "pidgey", "take": "staryu"})
    t.do("misty", "accept")
    assert t.state.trainer("misty").knocked_out == ("pidgey",)
    assert t.state.trainer("ash").knocked_out == ()


def test_trade_pokemon_card_forces_a_trade_unless_a_poke_doll() -> None:
    """Trade Pokémon: the other player must accept unless they play a Poké Doll."""
    t = started()
    t.give("ash", team=("pidgey",))
    t.give("misty", team=("staryu",), items=("poke_doll",))
    t.top_event("trade")
    t.do("ash", "roll", dice=[1])
    t.do("ash", "land", space="event-pink")
    assert t.prompt_kind == "trade_event"
    t.do("ash", "trade", **{"with": "misty", "give": "pidgey", "take": "staryu"})
    assert t.prompt_kind == "forced_trade"
    assert not any(a.type == "decline" for a in t.actions("misty"))
    t.do("misty", "poke_doll")
    assert "staryu" in t.state.trainer("misty").team and t.state.current == "misty"
    # without a Poké Doll the trade happens
    t.give("misty", items=())
    t.top_event("trade")
    t.do("misty", "roll", dice=[1])
    t.do("misty", "land", space="event-green")
    t.do("misty", "trade", **{"with": "ash", "give": "staryu", "take": "pidgey"})
    assert [a.type for a in t.actions("ash")] == ["accept"]
    t.do("ash", "accept")
    assert "pidgey" in t.state.trainer("misty").team


def test_trade_card_discarded_when_only_starters() -> None:
    """If the drawer or every other player has only a starter, the card is discarded."""
    t = started()
    t.top_event("trade")
    t.do("ash", "roll", dice=[1])
    events = t.do("ash", "land", space="event-pink")
    assert "discarded" in t.says(events) and t.state.current == "misty"


def test_hand_limit_seven_at_the_end_of_the_turn() -> None:
    """More than 7 Item Cards at the end of a turn: discard (or play) down to 7."""
    t = started()
    t.give("ash", items=("fly",) * 4 + ("potion",) * 2, team=("raichu",),
           knocked_out=("raichu",))
    t.do("ash", "roll", dice=[6])
    t.do("ash", "land", space="cinnabar")  # 6 + 2 = 8 cards
    assert t.prompt_kind == "discard" and t.state.current == "ash"
    with pytest.raises(IllegalCommand, match="holds no Master Ball"):
        t.do("ash", "discard", item="master_ball")
    t.do("ash", "use", item="potion", chip="raichu")  # playing a card counts too
    assert t.state.trainer("ash").knocked_out == ()
    assert len(t.state.trainer("ash").items) == 7
    assert t.state.current == "misty"


def test_discard_down_to_seven() -> None:
    """Each discarded card goes under the Item deck until 7 are left."""
    t = started()
    t.give("ash", items=("fly",) * 9)
    t.do("ash", "roll", dice=[6])
    t.do("ash", "land", space="town-no-draw")
    t.do("ash", "discard", item="fly")
    assert t.prompt_kind == "discard"
    t.do("ash", "discard", item="fly")
    assert len(t.state.trainer("ash").items) == 7 and t.state.current == "misty"


def test_fly_moves_to_any_city_or_town_instead_of_rolling() -> None:
    """Fly: move at once to any city or town."""
    t = started()
    t.give("ash", items=("fly",), team=("raichu",), knocked_out=("raichu",))
    t.do("ash", "use", item="fly")
    assert t.prompt_kind == "land"
    with pytest.raises(IllegalCommand, match="city or town"):
        t.do("ash", "land", space="catch-red")
    t.do("ash", "land", space="cerulean")
    assert t.state.trainer("ash").knocked_out == ()


def test_potion_revives_only_a_knocked_out_pokemon() -> None:
    """A Potion revives one of the player's knocked-out Pokémon."""
    t = started()
    t.give("ash", items=("potion",), team=("raichu",))
    assert not any(a.type == "use" for a in t.actions("ash"))
    with pytest.raises(IllegalCommand):
        t.do("ash", "use", item="potion", chip="raichu")


def test_item_cards_can_sweeten_a_trade_offer() -> None:
    """A trade offer may add Item Cards as an incentive; they change hands on acceptance."""
    t = started()
    t.give("ash", team=("pidgey",), items=("potion", "fly"))
    t.give("misty", team=("staryu",))
    t.do("ash", "roll", dice=[3])
    with pytest.raises(IllegalCommand, match="holds no Master Ball"):
        t.do("ash", "trade", **{"with": "misty", "give": "pidgey", "take": "staryu",
                                "items": "master_ball"})
    events = t.do("ash", "trade", **{"with": "misty", "give": "pidgey", "take": "staryu",
                                     "items": "potion"})
    assert "Pidgey + Potion" in t.says(events)
    t.do("misty", "accept")
    assert t.state.trainer("misty").items == ("potion",)
    assert t.state.trainer("ash").items == ("fly",)
