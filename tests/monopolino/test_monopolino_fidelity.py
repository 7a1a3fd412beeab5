"""Monopolino: rulebook sentences the companion once got wrong, and its readings as settings."""

from __future__ import annotations

from monopolino_table import Table

GO_START = "risk-07"
BOOTH_PURPLE = "risk-15"
PAY_AND_GO = "risk-01"


def land_on_risk(t: Table, *cards: str) -> None:
    """Anna, on START, rolls 2 onto the first RISK space with ``cards`` on top of the deck."""
    t.stack(*cards)
    t.roll(2)


def test_booth_card_both_by_one_player_draws_again_even_without_booths() -> None:
    """BOOTH: "If both spaces are occupied by booths of the same player, you cannot do
    anything. In this case, discard the RISK card and draw a new one." The redraw happens
    even when the drawer has no booths left."""
    t = Table()
    t.give_booth("ben", "toy-street")
    t.give_booth("ben", "puppet-park")
    t.set_booths("anna", 0)
    land_on_risk(t, BOOTH_PURPLE, GO_START)
    assert t.state.ext["discard"]["risk"] == [BOOTH_PURPLE, GO_START]
    assert t.position("anna") == "start" and t.money("anna") == 800


# -- readings offered as settings -------------------------------------------------------------

def test_pay_card_to_the_lottery_by_default() -> None:
    """pay_card_to = lottery (default): the card's €0.50 goes onto the LOTTERY, like the GO TO
    SHOOTING GALLERY space ("place €0.50 on the LOTTERY space")."""
    t = Table()
    land_on_risk(t, PAY_AND_GO)
    assert t.state.pot == 50 and t.position("anna") == "shooting-gallery"


def test_pay_card_to_the_bank() -> None:
    """pay_card_to = bank: the card's €0.50 goes to the Bank."""
    t = Table(pay_card_to="bank")
    bank = t.state.bank
    land_on_risk(t, PAY_AND_GO)
    assert t.state.pot == 0 and t.state.bank == bank + 50 and t.money("anna") == 700
