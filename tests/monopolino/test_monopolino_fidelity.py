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
