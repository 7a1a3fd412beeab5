"""Star Wars: buying, auctions, rent, property markers, Hyperspace, tax, Chance."""

from __future__ import annotations

import pytest
from starwars_play import Table, place, set_money, stack

from companion.engine.types import IllegalCommand


def test_buy_at_the_board_price() -> None:
    """An unowned property: pay the price on the board space and place a marker."""
    t = Table()
    t.roll(3, 4)  # Echo Base, ₥100
    t.do("luke", "buy")
    assert t.state.owner(7) == "luke" and t.p("luke").money == 1400


def test_cannot_buy_without_the_money() -> None:
    """Can't afford it: the property must be auctioned instead."""
    t = Table()
    set_money(t, "luke", 50)
    t.roll(3, 4)
    with pytest.raises(IllegalCommand):
        t.do("luke", "buy")
    t.do("luke", "auction")
    assert t.state.auction is not None


def test_auction_starts_at_10_and_rises_by_1() -> None:
    """Bids start at ₥10 and anyone, the lander too, raises by as little as ₥1."""
    t = Table(["Luke", "Leia", "Han"])
    t.roll(3, 4)
    t.do("luke", "auction")
    with pytest.raises(IllegalCommand, match="lowest bid now is ₥10"):
        t.do("leia", "bid", amount=9)
    t.do("leia", "bid", amount=10)
    with pytest.raises(IllegalCommand, match="₥11"):
        t.do("luke", "bid", amount=10)
    t.do("luke", "bid", amount=11)
    t.do("han", "pass")
    t.do("leia", "pass")
    assert t.state.owner(7) == "luke" and t.p("luke").money == 1489
    assert t.state.turn_player.id == "leia"


def test_the_bank_never_bids_the_banker_closes() -> None:
    """The banker bids from their own seat; the Bank itself cannot bid. No bid: unowned."""
    t = Table()
    t.roll(3, 4)
    t.do("luke", "auction")
    with pytest.raises(IllegalCommand):
        t.do("banker", "bid", amount=10)
    t.do("banker", "close_auction")
    assert t.state.owner(7) is None and t.state.auction is None


def test_nobody_bids_it_stays_unowned() -> None:
    """If no one would like to bid for the property, it remains unowned."""
    t = Table()
    t.roll(3, 4)
    t.do("luke", "auction")
    t.do("luke", "pass")
    t.do("leia", "pass")
    assert t.state.owner(7) is None and t.state.auction is None
    assert t.total_money() == 10**6


def test_rent_to_the_owner() -> None:
    """Another player owns it: pay the rent shown on the space to the owner."""
    t = Table()
    t.set_owner("echo-base", "leia")
    t.roll(3, 4)
    assert t.p("luke").money == 1490 and t.p("leia").money == 1510


def test_own_property_nothing_happens() -> None:
    """If you own it, your turn is over."""
    t = Table()
    t.set_owner("echo-base", "luke")
    t.roll(3, 4)
    assert t.p("luke").money == 1500 and t.state.turn_player.id == "leia"


def test_complete_colour_set_doubles_rent() -> None:
    """Owning all properties of a colour (all three Endor properties) doubles their rent."""
    t = Table()
    for s in ("forest-moon", "ewok-village", "shield-bunker"):
        t.set_owner(s, "leia")
    t.roll(6, 6)  # Forest Moon, rent 14
    assert t.p("luke").money == 1500 - 28


def test_sixteen_markers_then_no_more_properties() -> None:
    """Each ship has 16 property markers: with all 16 on the board it cannot buy or bid."""
    t = Table()
    owned = [i for i in t.state.b.ownable if i != 7][:16]
    for i in owned:
        t.set_owner(t.state.b.spaces[i].id, "luke")
    t.roll(3, 4)
    with pytest.raises(IllegalCommand, match="16 of Luke's property markers"):
        t.do("luke", "buy")
    t.do("luke", "auction")
    with pytest.raises(IllegalCommand, match="property markers"):
        t.do("luke", "bid", amount=10)
    t.do("leia", "bid", amount=10)
    assert t.state.owner(7) == "leia"


def test_sixteen_markers_limit_trades() -> None:
    """A trade cannot give a ship more properties than it has markers."""
    t = Table()
    for i in list(t.state.b.ownable)[:16]:
        t.set_owner(t.state.b.spaces[i].id, "luke")
    t.set_owner("imperial-palace", "leia")
    with pytest.raises(IllegalCommand, match="property markers"):
        t.do("leia", "propose_trade", to="luke", give={"spaces": [31]}, take={"money": 10})
    t.do("leia", "propose_trade", to="luke", give={"spaces": [31]}, take={"spaces": [1]})
    assert len(t.state.trades) == 1


def test_hyperspace_moves_to_the_next_unowned_property() -> None:
    """Hyperspace: immediately move to the next unowned property (and buy or auction it)."""
    t = Table()
    t.set_owner("echo-base", "leia")
    t.set_owner("ice-plains", "leia")
    t.roll(2, 4)  # Hyperspace at 6 -> skip 7 and 9 -> Wampa Cave 11
    assert t.p("luke").position == 11
    assert t.state.prompt is not None and t.state.prompt.kind == "buy"
    t.do("luke", "buy")
    assert t.state.owner(11) == "luke" and t.p("luke").money == 1380


def test_hyperspace_passing_go_collects_200() -> None:
    """Hyperspace past GO still passes GO: collect ₥200."""
    t = Table()
    for s in ("cloud-city", "carbon-freezing", "tibanna-mines", "jedi-temple", "senate",
              "imperial-palace"):
        t.set_owner(s, "leia")
    place(t, "luke", "free-parking")
    t.roll(2, 3)  # 21 Hyperspace -> Mos Eisley (1)
    assert t.p("luke").position == 1 and t.p("luke").money == 1700


def test_galactic_empire_tax_pays_the_bank() -> None:
    """Galactic Empire Tax: pay the amount shown on the space to the Bank."""
    t = Table()
    bank = t.state.bank
    t.roll(1, 4)  # 5
    assert t.p("luke").money == 1400 and t.state.bank == bank + 100


def test_chance_card_read_and_returned_under_the_pile() -> None:
    """Chance: take the top card, follow it, return it to the bottom of the pile."""
    t = Table()
    stack(t, "ch-06")
    t.roll(1, 1)  # 2 Chance: collect 100
    assert t.p("luke").money == 1600
    assert t.state.decks["chance"][-1] == "ch-06" and len(t.state.decks["chance"]) == 16


def test_chance_get_out_of_jail_free_is_kept() -> None:
    """The Get Out of Jail Free card is kept until used (it leaves the pile)."""
    t = Table()
    stack(t, "ch-01")
    t.roll(1, 1)
    assert t.p("luke").cards == ("ch-01",) and "ch-01" not in t.state.decks["chance"]


def test_chance_hyperspace_card() -> None:
    """A Chance card may send you through Hyperspace to the next unowned property."""
    t = Table()
    stack(t, "ch-04")
    t.roll(1, 1)  # 2 -> next unowned: Lars Homestead (3)
    assert t.p("luke").position == 3 and t.state.prompt.kind == "buy"  # type: ignore[union-attr]


def test_illegal_command_changes_nothing() -> None:
    """Bad input raises IllegalCommand naming the rule; the state does not change."""
    t = Table()
    before = t.state
    with pytest.raises(IllegalCommand, match="only Luke"):
        t.do("leia", "roll", dice=[1, 2])
    with pytest.raises(IllegalCommand, match="physical dice"):
        t.do("luke", "roll")
    with pytest.raises(IllegalCommand, match="no command"):
        t.do("luke", "fly")
    with pytest.raises(IllegalCommand):
        t.do("luke", "buy")
    assert t.state is before
