"""Star Wars: can't pay (sell at half price, trade, bankruptcy to a player or to the Bank)."""

from __future__ import annotations

import pytest
from starwars_play import Table, arrange, set_money, stack

from companion.engine.types import IllegalCommand


def test_sell_to_the_bank_at_half_price() -> None:
    """Can't pay: sell properties to the Bank at half their price; they become unowned."""
    t = Table()
    t.set_owner("imperial-palace", "luke")
    set_money(t, "luke", 5)
    t.roll(1, 4)  # Galactic Empire Tax ₥100
    assert t.state.debt is not None and t.state.prompt.kind == "debt"  # type: ignore[union-attr]
    with pytest.raises(IllegalCommand):
        t.do("luke", "roll", dice=[1, 2])
    t.do("luke", "sell_to_bank", space=31)
    assert t.state.owner(31) is None and t.state.debt is None
    assert t.p("luke").money == 5 + 150 - 100
    assert t.state.turn_player.id == "leia"


def test_trade_to_raise_money() -> None:
    """Can't pay: properties may be traded to the satisfaction of both players."""
    t = Table()
    t.set_owner("imperial-palace", "luke")
    set_money(t, "luke", 5)
    t.roll(1, 4)
    t.do("luke", "propose_trade", to="leia", give={"spaces": [31]}, take={"money": 250})
    t.do("leia", "accept_trade", trade=1)
    assert t.state.owner(31) == "leia" and t.state.debt is None
    assert t.p("luke").money == 155


def test_owing_a_player_everything_goes_to_them() -> None:
    """Still cannot pay a player: give all your properties (and money, card) to that player."""
    t = Table(["Luke", "Leia", "Han"])
    t.set_owner("echo-base", "leia")
    t.set_owner("mos-eisley", "luke")
    arrange(t, "deck", deck="chance", cards=[c for c in t.state.decks["chance"] if c != "ch-01"])
    arrange(t, "card_kept", player="luke", card="ch-01", keep=True)
    set_money(t, "luke", 4)
    t.roll(3, 4)  # Echo Base, rent 10
    t.do("luke", "declare_bankruptcy")
    assert t.p("luke").bankrupt
    assert t.state.owner(1) == "leia" and t.p("leia").cards == ("ch-01",)
    assert t.p("leia").money == 1504
    assert t.state.turn_player.id == "leia"


def test_owing_the_bank_properties_are_auctioned_at_once() -> None:
    """Still cannot pay the Bank: the properties go to the Bank and are auctioned at once among
    the other players; the Get Out of Jail Free card goes under the Chance pile."""
    t = Table(["Luke", "Leia", "Han"])
    t.set_owner("mos-eisley", "luke")
    t.set_owner("lars-homestead", "luke")
    arrange(t, "deck", deck="chance", cards=[c for c in t.state.decks["chance"] if c != "ch-01"])
    arrange(t, "card_kept", player="luke", card="ch-01", keep=True)
    set_money(t, "luke", 10)
    t.roll(1, 4)  # tax 100
    t.do("luke", "declare_bankruptcy")
    assert t.p("luke").bankrupt and t.state.decks["chance"][-1] == "ch-01"
    assert t.state.auction is not None and t.state.auction.space == 1
    assert "luke" not in t.state.prompt.to  # type: ignore[union-attr]
    t.do("leia", "bid", amount=10)
    t.do("han", "pass")
    assert t.state.owner(1) == "leia"
    assert t.state.auction is not None and t.state.auction.space == 3
    t.do("leia", "pass")
    t.do("han", "pass")
    assert t.state.owner(3) is None and t.state.auction is None
    assert t.state.turn_player.id == "leia" and t.state.prompt.kind == "turn"  # type: ignore[union-attr]
    assert t.total_money() == 10**6


def test_bankruptcy_of_the_second_last_player_ends_the_game() -> None:
    """The last player standing wins."""
    t = Table()
    set_money(t, "luke", 10)
    t.roll(1, 4)
    t.do("luke", "declare_bankruptcy")
    assert t.state.finished and t.state.winners == ("leia",)


def test_chance_pay_card_can_cause_a_debt() -> None:
    """A Chance card that charges more than you have puts you in debt to the Bank."""
    t = Table()
    stack(t, "ch-10")
    set_money(t, "luke", 20)
    t.roll(1, 1)
    assert t.state.debt is not None and t.state.debt.amount == 100
