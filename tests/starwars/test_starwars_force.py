"""Star Wars: Use the Force, one scenario per face of the die."""

from __future__ import annotations

import pytest
from starwars_play import Table, arrange, place

from companion.engine.types import IllegalCommand
from companion.service import game


def on_the_force(players: list[str] | None = None) -> Table:
    """Luke lands on Use the Force (GO + 4 + 6) and is asked to roll one die."""
    t = Table(players)
    t.roll(4, 6)
    assert t.p("luke").position == 10
    assert t.state.prompt is not None and t.state.prompt.kind == "force"
    assert t.state.prompt.data["roll"]["count"] == 1
    return t


def test_force_1_mind_trick_swaps_properties() -> None:
    """1 Mind Trick: swap one of your properties with the property of a player you choose."""
    t = on_the_force()
    t.set_owner("mos-eisley", "luke")
    t.set_owner("imperial-palace", "leia")
    t.roll(1)
    t.choose("mos-eisley")
    options = [a.args["option"] for a in game.legal_actions(t.state) if a.type == "choose"]
    assert options == ["imperial-palace"]
    t.choose("imperial-palace")
    assert t.state.owner(31) == "luke" and t.state.owner(1) == "leia"
    assert t.state.turn_player.id == "leia"


def test_force_1_without_properties_has_no_effect() -> None:
    """A power that cannot be used is lost and the turn goes on."""
    t = on_the_force()
    t.roll(1)
    assert t.state.turn_player.id == "leia"


def test_force_2_stealth_takes_any_unowned_property_free() -> None:
    """2 Force Stealth: move to any unowned space and take it for free; no ₥200 for GO."""
    t = on_the_force()
    t.set_owner("senate", "leia")
    t.roll(2)
    options = [a.args["option"] for a in game.legal_actions(t.state) if a.type == "choose"]
    assert "senate" not in options and "mos-eisley" in options and "chance-1" not in options
    t.choose("mos-eisley")
    assert t.p("luke").position == 1 and t.state.owner(1) == "luke"
    assert t.p("luke").money == 1500


def test_force_3_levitate_swaps_ships_and_ends_the_turn() -> None:
    """3 Force Levitate: swap places with any other ship, no ₥200, the turn ends at once,
    even after a double."""
    t = Table()
    place(t, "leia", "senate")
    place(t, "luke", "mos-eisley")
    t.set_owner("mos-eisley", "luke")
    t.roll(4, 5)  # 1 + 9 = 10 (not a double)
    t.roll(3)
    t.choose("leia")
    assert t.p("luke").position == 29 and t.p("leia").position == 10
    assert t.p("luke").money == 1500 and t.p("leia").money == 1500
    assert t.state.turn_player.id == "leia"


def test_force_3_levitate_after_a_double_ends_the_turn() -> None:
    """The turn ends as soon as the positions are swapped: no second roll for the double."""
    t = Table()
    place(t, "luke", "jail")  # just visiting
    t.roll(1, 1)  # 10
    t.roll(3)
    t.choose("leia")
    assert t.state.turn_player.id == "leia" and t.p("luke").position == 0


def test_force_3_jailed_ships_are_offered() -> None:
    """"any other ship on the board": a ship in Jail is offered for Force Levitate too
    (tests/starwars/test_starwars_fidelity.py plays the swap)."""
    t = on_the_force(["Luke", "Leia", "Han"])
    place(t, "han", "jail")
    arrange(t, "jail", player="han", in_jail=True, tries=0)
    t.roll(3)
    options = [a.args["option"] for a in game.legal_actions(t.state) if a.type == "choose"]
    assert options == ["leia", "han"]
    with pytest.raises(IllegalCommand):
        t.do("luke", "choose", option="luke")


def test_force_4_pull_collects_rent() -> None:
    """4 Force Pull: move any player to one of your properties and collect rent."""
    t = on_the_force()
    t.set_owner("imperial-palace", "luke")
    t.roll(4)
    t.choose("leia")
    t.choose("imperial-palace")
    assert t.p("leia").position == 31
    assert t.p("leia").money == 1470 and t.p("luke").money == 1530


def test_force_5_mind_trick_takes_50_from_each() -> None:
    """5 Mind Trick: steal ₥50 from each player."""
    t = on_the_force(["Luke", "Leia", "Han"])
    t.roll(5)
    assert t.p("luke").money == 1600
    assert t.p("leia").money == 1450 and t.p("han").money == 1450


def test_force_6_dash_to_go_collects_200() -> None:
    """6 Force Dash: move directly to GO and collect ₥200."""
    t = on_the_force()
    t.roll(6)
    assert t.p("luke").position == 0 and t.p("luke").money == 1700


def test_force_die_is_one_value_from_1_to_6() -> None:
    """Use the Force rolls one die: two values or a 7 are refused."""
    t = on_the_force()
    with pytest.raises(IllegalCommand, match="exactly 1"):
        t.roll(1, 2)
    with pytest.raises(IllegalCommand, match="1 to 6"):
        t.roll(7)


def test_force_1_swap_after_a_trade_meanwhile_has_no_effect() -> None:
    """Trades stay open during the Force prompts: a swap whose property changed hands
    meanwhile has no effect (never a crash)."""
    t = on_the_force()
    t.set_owner("mos-eisley", "luke")
    t.set_owner("imperial-palace", "leia")
    t.roll(1)
    t.choose("mos-eisley")
    t.do("luke", "propose_trade", to="leia", give={"spaces": [1]}, take={"money": 1})
    t.do("leia", "accept_trade", trade=1)
    t.choose("imperial-palace")
    assert t.state.owner(1) == "leia" and t.state.owner(31) == "leia"
    assert t.state.turn_player.id == "leia"


def test_force_from_a_chance_card() -> None:
    """A Chance card may call on the Force: roll one die as on the space."""
    t = Table()
    arrange(t, "deck", deck="chance",
            cards=["ch-05", *[c for c in t.state.decks["chance"] if c != "ch-05"]])
    t.roll(1, 1)
    assert t.state.prompt is not None and t.state.prompt.kind == "force"
    t.roll(6)
    assert t.p("luke").position == 0 and t.p("luke").money == 1700
