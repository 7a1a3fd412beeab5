"""Battles on a rival's location (Monopoly: Pokémon Edition)."""

from __future__ import annotations

import pytest
from pokemon_play import Table

from companion.engine.types import Event, IllegalCommand
from companion.service import game


def battle_table(**kw: object) -> Table:
    t = Table(**kw)  # type: ignore[arg-type]
    t.own("misty", "cave")
    t.land_on("cave")
    t.do("ash", "battle")
    return t


def keep(t: Table, pid: str, card: str) -> None:
    deck = [c for c in t.state.decks["challenge"] if c != card]
    t._inject(Event("deck", {"deck": "challenge", "cards": deck}))
    t._inject(Event("card_kept", {"player": pid, "card": card, "keep": True}))


def test_higher_total_wins_challenger_takes_the_location() -> None:
    """Each rolls the die and adds 1 per Pokémon held, partner included; the challenger winning
    pays nothing and takes the Location card; the turn ends after the battle."""
    t = battle_table()
    t.roll(5)  # Ash 5 + 1 (partner)
    t.roll(4)  # Misty 4 + 1
    assert t.state.owner(8) == "ash"
    assert t.money("ash") == 20 and t.money("misty") == 20
    assert t.state.turn_player.id == "misty" and t.kind == "turn"


def test_pokemon_held_add_to_the_roll() -> None:
    """Every Pokémon held counts, also a second one of a type beside the mat."""
    t = Table()
    t.give("misty", "fire-1", "fire-2")
    t.own("misty", "cave")
    t.land_on("cave")
    t.do("ash", "battle")
    t.roll(6)  # 6 + 1 = 7
    t.roll(4)  # 4 + 3 = 7: a tie
    assert t.state.owner(8) == "misty"
    assert t.money("ash") == 18 and t.money("misty") == 22


def test_tie_goes_to_the_owner_who_is_paid_the_battle_fee() -> None:
    """A tie goes to the owner; the owner winning is paid the battle fee."""
    t = battle_table()
    t.roll(3)
    t.roll(3)
    assert t.state.owner(8) == "misty"
    assert t.money("ash") == 18 and t.money("misty") == 22
    assert "a tie goes to the owner" in t.log()


def test_complete_colour_set_cannot_be_taken() -> None:
    """The challenger winning does not take the card when the owner holds the whole set."""
    t = Table()
    t.own("misty", "cave", "forest")
    t.land_on("cave")
    t.do("ash", "battle")
    t.roll(6)
    t.roll(1)
    assert t.state.owner(8) == "misty" and t.money("ash") == 20
    assert "whole Psychic set" in t.log()


def test_challenge_cards_add_to_the_total() -> None:
    """Trainers may play kept Challenge cards to improve their total; a used card goes to the
    bottom of its deck."""
    t = Table()
    t.own("misty", "cave")
    keep(t, "ash", "ch-01")  # +2
    keep(t, "ash", "ch-03")
    keep(t, "misty", "ch-02")  # +1
    t.land_on("cave")
    t.do("ash", "battle")
    t.roll(3)  # 3 + 1
    t.roll(4)  # 4 + 1
    assert t.kind == "battle_card" and t.asked == "ash"
    t.choose("ch-01")
    t.choose("done")
    assert t.asked == "misty"
    t.choose("ch-02")  # Ash 6, Misty 6: tie
    assert t.state.owner(8) == "misty" and t.money("misty") == 22
    assert t.state.decks["challenge"][-2:] == ("ch-01", "ch-02")
    assert t.state.player("ash").cards == ("ch-03",)


def test_no_exploring_after_a_battle() -> None:
    """Explore or battle, not both: after the battle the turn ends."""
    t = battle_table()
    t.roll(1)
    with pytest.raises(IllegalCommand):
        t.do("ash", "explore")
    t.roll(2)
    assert t.kind == "turn" and t.state.turn_player.id == "misty"


def test_battle_view_and_jailed_owner_still_battles() -> None:
    """A Trainer in Jail still battles on their locations; the view shows the battle."""
    t = Table()
    t.own("misty", "cave")
    t._inject(Event("moved", {"player": "misty", "to": 7}))
    t._inject(Event("jail", {"player": "misty", "in_jail": True, "tries": 0}))
    t.land_on("cave")
    t.do("ash", "battle")
    t.roll(1)
    assert game.view(t.state)["extra"]["battle"]["rolls"] == {"ash": 1}
    assert t.asked == "misty"
    t.roll(6)
    assert t.money("misty") == 22
