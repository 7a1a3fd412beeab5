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
    t = Table(["Luke", "Leia", "Han"], board={"spaces": {"echo-base": {"rent": 100}}})
    t.set_owner("echo-base", "leia")
    t.set_owner("mos-eisley", "luke")
    arrange(t, "deck", deck="chance", cards=[c for c in t.state.decks["chance"] if c != "ch-01"])
    arrange(t, "card_kept", player="luke", card="ch-01", keep=True)
    set_money(t, "luke", 4)
    t.roll(3, 4)  # Echo Base, rent 100: ₥4 and Mos Eisley (₥30) cannot pay it
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


def test_no_bankruptcy_to_a_player_while_selling_to_them_would_pay() -> None:
    """"Sell them your properties to pay off the debt... If you still cannot pay, you must give
    all your properties": Leia (₥30 and Jabba's Palace, ₥40 to Luke) owes ₥50 after Luke's
    Force 5; bankruptcy is refused and not offered until the sale is made or cannot pay."""
    t = Table()
    t.set_owner("jabbas-palace", "leia")
    set_money(t, "leia", 30)
    t.roll(4, 6)  # Use the Force
    t.roll(5)  # Mind Trick: ₥50 from each
    assert t.state.debt is not None and t.state.debt.player == "leia"
    assert "declare_bankruptcy" not in {a.type for a in t.actions("leia")}
    with pytest.raises(IllegalCommand, match="Jabba's Palace"):
        t.do("leia", "declare_bankruptcy")
    assert not t.p("leia").bankrupt and t.state.debt is not None
    t.do("leia", "sell_to_creditor", space=t.index("jabbas-palace"))
    assert t.state.debt is None and t.p("leia").money == 20 and t.p("luke").money == 1510


def test_no_bankruptcy_to_the_bank_while_selling_would_pay() -> None:
    """"Sell your properties to the Bank to pay off your debt. If you still cannot pay the
    Bank...": ₥70 and Lars Homestead (₥30 to the Bank) pay the ₥100 tax."""
    t = Table()
    t.set_owner("lars-homestead", "luke")
    set_money(t, "luke", 70)
    t.roll(1, 4)  # Galactic Empire Tax ₥100
    assert t.state.debt is not None
    assert "declare_bankruptcy" not in {a.type for a in t.actions("luke")}
    with pytest.raises(IllegalCommand, match="Lars Homestead"):
        t.do("luke", "declare_bankruptcy")
    t.do("luke", "sell_to_bank", space=t.index("lars-homestead"))
    assert t.state.debt is None and t.p("luke").money == 0


def test_bankruptcy_offered_once_sales_cannot_pay() -> None:
    """₥60 and Lars Homestead (₥30) cannot pay the ₥100 tax: bankruptcy is offered."""
    t = Table()
    t.set_owner("lars-homestead", "luke")
    set_money(t, "luke", 60)
    t.roll(1, 4)
    assert "declare_bankruptcy" in {a.type for a in t.actions("luke")}
    t.do("luke", "declare_bankruptcy")
    assert t.p("luke").bankrupt


def test_bankruptcy_offered_when_the_creditor_has_no_marker_left() -> None:
    """Owing a ship whose 16 markers are all on the board: nothing can be sold to it, so
    bankruptcy is offered (a trade remains possible)."""
    t = Table()
    palace = t.index("jabbas-palace")
    for i in [i for i in t.state.b.ownable if i != palace][:16]:
        t.set_owner(t.state.b.spaces[i].id, "luke")
    t.set_owner("jabbas-palace", "leia")
    set_money(t, "leia", 30)
    t.roll(4, 6)
    t.roll(5)
    assert t.state.debt is not None and t.state.debt.player == "leia"
    assert "declare_bankruptcy" in {a.type for a in t.actions("leia")}
    t.do("leia", "declare_bankruptcy")
    assert t.p("leia").bankrupt
