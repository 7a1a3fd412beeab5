"""Landing on spaces and the Event Cards."""

from __future__ import annotations

import pytest
from mt_table import started

from companion.engine.types import IllegalCommand


def test_city_or_town_draws_an_item_card() -> None:
    """Most cities and towns let the player draw an Item Card."""
    t = started()
    t.top_items("fly")
    events = t.do("ash", "roll", dice=[4])
    events = t.do("ash", "land", space="town")
    assert "draws an Item Card" in t.says(events)
    assert t.state.trainer("ash").items == ("fly",)
    t.do("misty", "roll", dice=[4])
    t.do("misty", "land", space="town-no-draw")
    assert t.state.trainer("misty").items == ()


def test_cinnabar_island_gives_two_item_cards() -> None:
    """Landing on Cinnabar Island collects 2 Item Cards."""
    t = started()
    t.do("ash", "roll", dice=[6])
    t.do("ash", "land", space="cinnabar")
    assert len(t.state.trainer("ash").items) == 2


def test_take_item_cards_events() -> None:
    """Take Item Card 1, 2 or 3: draw that many from the top of the Item deck."""
    t = started()
    for n, pid in ((3, "ash"), (2, "misty"), (1, "ash")):
        t.top_event(f"take_{n}")
        before = len(t.state.trainer(pid).items)
        t.do(pid, "roll", dice=[1])
        events = t.do(pid, "land", space="event-pink")
        assert f"Take Item Card {n}" in t.says(events)
        assert len(t.state.trainer(pid).items) == before + n
    assert t.state.events_deck[-1] == "take_1"  # drawn events go under the pile


def test_chance_takes_any_chip_of_the_landed_colour() -> None:
    """Chance: take any chip of the colour landed on from the board, no roll needed."""
    t = started()
    t.top_event("chance")
    t.do("ash", "roll", dice=[2])
    t.do("ash", "land", space="event-blue")
    assert t.prompt_kind == "take"
    with pytest.raises(IllegalCommand, match="colour you landed on"):
        t.do("ash", "take", chip="pidgey")
    t.do("ash", "take", chip="raichu")
    assert t.state.trainer("ash").team == ("pikachu", "raichu")


def test_chance_any_colour_but_yellow_when_none_of_that_colour_is_left() -> None:
    """If none of the landed colour is left on the board, any chip on the board but yellow."""
    t = started(settings={"board_spaces": {"red": 0, "pink": 18}})  # still 37 chips
    t.top_event("chance")
    t.do("ash", "roll", dice=[2])
    t.do("ash", "land", space="event-red")
    with pytest.raises(IllegalCommand):
        t.do("ash", "take", chip="mewtwo")
    t.do("ash", "take", chip="pidgey")
    assert "pidgey" in t.state.trainer("ash").team


def test_pokemon_center_card_revives_knocked_out_pokemon() -> None:
    """Pokémon Center card: revives the knocked-out Pokémon."""
    t = started()
    t.give("ash", team=("raichu", "pidgey"), knocked_out=("raichu", "pidgey"))
    t.top_event("pokemon_center")
    t.do("ash", "roll", dice=[2])
    t.do("ash", "land", space="event-green")
    assert t.state.trainer("ash").knocked_out == ()


def test_cerulean_revives_one_or_takes_the_dice_challenge() -> None:
    """Cerulean/Vermilion: revive one knocked-out Pokémon, or with several knocked out,
    the Dice Challenge: 1 or 6 revives all, anything else none."""
    t = started()
    t.give("ash", team=("raichu", "pidgey"), knocked_out=("raichu", "pidgey"))
    t.do("ash", "roll", dice=[2])
    t.do("ash", "land", space="cerulean")
    assert t.prompt_kind == "revive"
    t.do("ash", "revive", chip="raichu")
    assert t.state.trainer("ash").knocked_out == ("pidgey",)
    t.give("misty", team=("seel", "onix"), knocked_out=("seel", "onix"))
    t.do("misty", "roll", dice=[2])
    t.do("misty", "land", space="vermilion")
    t.do("misty", "challenge")
    events = t.do("misty", "roll", dice=[3])
    assert "no Pokémon is revived" in t.says(events)
    assert len(t.state.trainer("misty").knocked_out) == 2
    t.turn_of("misty")
    t.do("misty", "roll", dice=[2])
    t.do("misty", "land", space="vermilion")
    t.do("misty", "challenge")
    t.do("misty", "roll", dice=[6])
    assert t.state.trainer("misty").knocked_out == ()


def test_single_knocked_out_pokemon_is_revived_at_a_pokemon_center() -> None:
    """With one knocked-out Pokémon, the Pokémon Center city revives it."""
    t = started()
    t.give("ash", team=("raichu",), knocked_out=("raichu",))
    t.do("ash", "roll", dice=[2])
    t.do("ash", "land", space="cerulean")
    assert t.state.trainer("ash").knocked_out == ()
    assert t.state.current == "misty"


def test_plateau_spaces_need_twenty_power_points_from_cinnabar() -> None:
    """Indigo Plateau is entered only with 20 Power Points, from Cinnabar Island."""
    t = started()
    t.do("ash", "roll", dice=[2])
    with pytest.raises(IllegalCommand, match="20 Power Points"):
        t.do("ash", "land", space="final")
    with pytest.raises(IllegalCommand, match="no space kind"):
        t.do("ash", "land", space="moon")
