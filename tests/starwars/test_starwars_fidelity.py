"""Star Wars: rulebook sentences the companion once got wrong, and its readings as settings."""

from __future__ import annotations

import pytest
from starwars_play import Table, arrange, place

from companion.engine.types import IllegalCommand
from companion.service import game

LARS, ECHO_BASE, IMPERIAL = 3, 7, 31


def owing_leia(rent: int) -> Table:
    """The issue's game: Luke buys Lars Homestead, Leia buys Echo Base (rent corrected by the
    banker), Luke lands on Echo Base and cannot pay."""
    t = Table(board={"spaces": {"echo-base": {"rent": rent}}})
    t.roll(1, 2)
    t.do("luke", "buy")
    t.roll(3, 4)
    t.do("leia", "buy")
    t.roll(1, 3)
    assert t.state.debt is not None and t.state.debt.creditor == "leia"
    return t


def test_owing_a_player_sells_to_that_player_at_half_price() -> None:
    """Do You Owe Another Player?: "Sell them your properties to pay off the debt. Properties
    can be sold at half their purchase value, or traded to the satisfaction of both players."
    The property goes to the creditor, never to the Bank; its half value counts against the
    debt."""
    t = owing_leia(1460)  # Luke has 1440; Lars Homestead (60) sells for 30
    assert not any(a.type == "sell_to_bank" for a in game.legal_actions(t.state))
    with pytest.raises(IllegalCommand, match="sell them to Leia"):
        t.do("luke", "sell_to_bank", space=LARS)
    leia = t.p("leia").money
    events = t.do("luke", "sell_to_creditor", space=LARS)
    assert t.state.owner(LARS) == "leia" and t.state.debt is None
    assert t.p("luke").money == 1440 - 1430 and t.p("leia").money == leia + 1430
    assert any("sells Lars Homestead to Leia for ₥30" in e.say for e in events)
    assert not any("to the Bank" in e.say for e in events)
    assert t.total_money() == 10**6


def test_a_sale_that_does_not_cover_the_debt_leaves_the_rest_owed() -> None:
    """The sale counts against the debt; what is still owed stays owed (then bankruptcy gives
    the creditor everything)."""
    t = owing_leia(1500)
    t.do("luke", "sell_to_creditor", space=LARS)
    assert t.state.owner(LARS) == "leia"
    assert t.state.debt is not None and t.state.debt.amount == 1470
    t.do("luke", "declare_bankruptcy")
    assert t.p("luke").bankrupt and t.p("leia").money == 1500 - 100 + 1440


def test_a_sale_worth_more_than_the_debt_pays_the_change() -> None:
    """Sold at half its purchase value: if that is more than is owed, the creditor pays the
    difference."""
    t = Table()
    t.set_owner("imperial-palace", "luke")
    t.set_owner("echo-base", "leia")
    arrange(t, "money", source="luke", to="bank", amount=1495)
    t.roll(3, 4)  # Echo Base, rent 10; Luke has 5
    assert t.state.debt is not None and t.state.debt.amount == 10
    t.do("luke", "sell_to_creditor", space=IMPERIAL)  # price 300: ₥150
    assert t.state.owner(IMPERIAL) == "leia" and t.state.debt is None
    assert t.p("luke").money == 5 + 140 and t.p("leia").money == 1500 - 140


def test_force_levitate_swaps_with_a_ship_in_jail() -> None:
    """3 Force Levitate: "Swap the location of your ship with any other ship on the board."
    A ship in Jail is on the board: the swap takes it out and puts the levitating ship In Jail."""
    t = Table(["Luke", "Leia", "Han"])
    place(t, "han", "jail")
    arrange(t, "jail", player="han", in_jail=True, tries=1)
    t.roll(4, 6)  # Use the Force
    t.roll(3)
    options = [a.args["option"] for a in game.legal_actions(t.state) if a.type == "choose"]
    assert options == ["leia", "han"]
    t.choose("han")
    assert t.p("luke").position == t.index("jail") and t.p("luke").in_jail
    assert t.p("han").position == 10 and not t.p("han").in_jail
    assert t.state.turn_player.id == "leia"


def test_force_pull_pulls_a_player_out_of_jail() -> None:
    """4 Force Pull: "Move any player to one of your owned properties and collect rent." A
    player in Jail can be pulled: they leave Jail and pay the rent."""
    t = Table()
    t.set_owner("imperial-palace", "luke")
    place(t, "leia", "jail")
    arrange(t, "jail", player="leia", in_jail=True, tries=0)
    t.roll(4, 6)
    t.roll(4)
    t.choose("leia")
    t.choose("imperial-palace")
    assert t.p("leia").position == IMPERIAL and not t.p("leia").in_jail
    assert t.p("leia").money == 1470 and t.p("luke").money == 1530


def test_a_power_without_effect_says_why() -> None:
    """A power that cannot be used says what is missing, not just "no effect"."""
    t = Table()
    t.roll(4, 6)
    events = t.roll(4)
    assert any("Luke owns no property to pull anyone onto" in e.say for e in events)


# -- readings offered as settings -------------------------------------------------------------

def test_early_end_properties_ranks_by_properties() -> None:
    """early_end = properties (default): the end-of-game ranking, most properties first."""
    t = Table()
    t.set_owner("mos-eisley", "leia")
    t.do("banker", "end_game")
    assert t.state.winners == ("leia",)


def test_early_end_worth_ranks_by_money_and_prices() -> None:
    """early_end = worth: money plus the prices of properties."""
    t = Table(early_end="worth")
    t.set_owner("mos-eisley", "leia")
    arrange(t, "money", source="bank", to="luke", amount=100)
    t.do("banker", "end_game")
    assert t.state.winners == ("luke",)


def test_free_parking_pot_house_rule() -> None:
    """House rule off by default (Free Parking: "Nothing happens here"); on, the Galactic
    Empire Tax goes onto Free Parking and landing there takes it."""
    for rule, pot in (("off", 0), ("on", 100)):
        t = Table(free_parking_pot=rule)
        t.roll(1, 4)  # Galactic Empire Tax ₥100
        assert t.state.pot == pot
        if rule == "on":
            place(t, "leia", "jail")
            t.roll(3, 5)  # Leia -> Free Parking
            assert t.state.pot == 0 and t.p("leia").money == 1600
