"""Money, the board's locations and the one numbered die (Monopoly: Pokémon Edition)."""

from __future__ import annotations

import pytest
from pokemon_play import Table, total_money

from companion.engine.types import Event, IllegalCommand, SetupError
from companion.monopoly.board import load_board
from companion.service import game

LOCATIONS = {
    "rock": (["Rocky Path", "Cliffside"], 1), "ice": (["Snowy Mountain", "Glacier"], 1),
    "psychic": (["Cave", "Forest"], 2), "fighting": (["Gym", "Stadium"], 2),
    "fire": (["Plateau", "Desert"], 3), "electric": (["Town", "City"], 3),
    "grass": (["Field", "Countryside"], 4), "water": (["River", "Beach"], 5),
}


def test_twenty_poke_balls_each_rest_is_the_bank() -> None:
    """Each Trainer takes 20 Poké Balls; the remaining Poké Balls are the Bank."""
    t = Table(["Ash", "Misty", "Brock"])
    assert [p.money for p in t.state.players] == [20, 20, 20]
    assert t.state.bank == total_money(t.state) - 60
    assert game.view(t.state)["currency"]["many"] == "Poké Balls"


def test_sixteen_locations_two_per_type_cost_equals_battle_fee() -> None:
    """16 locations, two per type, with the rulebook's costs; exploration cost = battle fee."""
    b = load_board("pokemon")
    locs = [s for s in b.spaces if s.kind == "location"]
    assert len(locs) == 16
    for color, (names, cost) in LOCATIONS.items():
        mine = [s for s in locs if s.color == color]
        assert [s.name for s in mine] == names
        assert all(s.price == cost and s.rent == cost for s in mine)
    assert "board order of the spaces" in b.unverified


def test_passing_go_collects_two() -> None:
    """A Trainer passing GO collects 2 Poké Balls from the Bank."""
    t = Table()
    t._inject(Event("moved", {"player": "ash", "to": 25}))
    t.roll(4)  # 25 -> 1 (Rocky Path), passing GO
    assert t.money("ash") == 22
    assert "passes GO: collects 2 Poké Balls" in t.log()


def test_landing_on_go_collects_two() -> None:
    """A Trainer landing on GO collects 2 Poké Balls from the Bank."""
    t = Table()
    t._inject(Event("moved", {"player": "ash", "to": 24}))
    t.roll(4)
    assert t.state.player("ash").position == 0
    assert t.money("ash") == 22


def test_one_numbered_die_moves() -> None:
    """Trainers roll one numbered die: two values are refused, one moves the token."""
    t = Table()
    with pytest.raises(IllegalCommand, match="exactly 1"):
        t.roll(3, 4)
    t.roll(5)
    assert t.state.player("ash").position == 5


def test_who_goes_first_highest_roll() -> None:
    """Each Trainer rolls the numbered die; the highest roller starts."""
    t = Table(order="roll")
    t.roll(2)
    t.roll(5)
    assert t.state.turn_player.id == "misty"
    assert t.kind == "turn"


def test_two_to_four_trainers() -> None:
    """The game is for 2 to 4 Trainers."""
    with pytest.raises(SetupError, match="2 to 4"):
        Table(["A", "B", "C", "D", "E"])
