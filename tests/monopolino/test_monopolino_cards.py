"""Monopolino RISK cards: GO..., BOOTH, pay and go, the discard pile and its reshuffle."""

from __future__ import annotations

from monopolino_table import Table

from companion.service import game

GO_CLOWN_PARK = "risk-11"
GO_START = "risk-07"
BLUE_STATION = "risk-03"
PAY_AND_GO = "risk-01"
BOOTH_PURPLE = "risk-15"


def land_on_risk(t: Table, *cards: str) -> None:
    """Anna, on START, rolls 2 onto the first RISK space with ``cards`` on top of the deck."""
    t.stack(*cards)
    t.roll(2)


def test_deck_has_24_cards_with_the_quoted_texts() -> None:
    """24 RISK cards, among them "Pay €0.50 and go to the SHOOTING GALLERY." and "Go to the
    BLUE Station and roll the dice again."."""
    t = Table()
    texts = [c.text for c in t.state.b.decks["risk"]]
    assert len(texts) == 24 and len(t.state.decks["risk"]) == 24
    assert "Pay €0.50 and go to the SHOOTING GALLERY." in texts
    assert "Go to the BLUE Station and roll the dice again." in texts


def test_card_is_discarded_face_up() -> None:
    """After following a card, it goes face up on the discard pile."""
    t = Table()
    land_on_risk(t, GO_CLOWN_PARK)
    assert t.state.ext["discard"]["risk"] == [GO_CLOWN_PARK]
    assert GO_CLOWN_PARK not in t.state.decks["risk"]
    assert game.view(t.state)["extra"]["risk"] == {"deck": 23, "discard": 1}


def test_go_card_follows_the_space() -> None:
    """GO…: advance to the space shown and follow its instructions (here: a free street, pay
    and place a booth); no START money without passing START."""
    t = Table()
    land_on_risk(t, GO_CLOWN_PARK)
    assert t.position("anna") == "clown-park" and t.owner("clown-park") == "anna"
    assert t.money("anna") == 650


def test_go_card_passing_start_collects() -> None:
    """GO…: if you pass START, take €0.50."""
    t = Table()
    t.put("anna", "aquarium-street")
    t.stack(GO_CLOWN_PARK)
    t.roll(3)  # risk-4
    assert t.position("anna") == "clown-park"
    assert t.money("anna") == 750 + 50 - 100


def test_go_to_start_card() -> None:
    """GO… to START: ending the move on START takes €0.50."""
    t = Table()
    land_on_risk(t, GO_START)
    assert t.position("anna") == "start" and t.money("anna") == 800


def test_blue_station_card_rolls_again() -> None:
    """"Go to the BLUE Station and roll the dice again.": move there, then roll and move."""
    t = Table()
    land_on_risk(t, BLUE_STATION)
    assert t.position("anna") == "blue-station"
    assert t.state.prompt is not None and t.state.prompt.kind == "station"
    t.roll(3)
    assert t.position("anna") == "marble-street" and t.owner("marble-street") == "anna"


def test_pay_and_go_to_shooting_gallery() -> None:
    """"Pay €0.50 and go to the SHOOTING GALLERY.": the €0.50 goes on the LOTTERY (like the
    GO TO SHOOTING GALLERY space; unverified) and the move does not pass START."""
    t = Table()
    t.put("anna", "bumper-cars")
    t.stack(PAY_AND_GO)
    t.roll(1)  # risk-3
    assert t.position("anna") == "shooting-gallery"
    assert t.money("anna") == 700 and t.state.pot == 50


def test_booth_card_free_space() -> None:
    """BOOTH: without moving, you may place a booth on a space of the colour shown that has no
    booth on it, for free."""
    t = Table()
    land_on_risk(t, BOOTH_PURPLE)
    assert t.state.prompt is not None and t.state.prompt.kind == "booth_card"
    options = {a.args["option"] for a in game.legal_actions(t.state) if a.type == "choose"}
    assert options == {"toy-street", "puppet-park", "none"}
    t.choose("puppet-park")
    assert t.owner("puppet-park") == "anna" and t.position("anna") == "risk-1"
    assert t.money("anna") == 750 and t.booths("anna") == 13


def test_booth_card_only_on_a_free_space() -> None:
    """BOOTH: with one space free, only that space is offered (no replacing yet)."""
    t = Table()
    t.give_booth("ben", "toy-street")
    land_on_risk(t, BOOTH_PURPLE)
    options = {a.args["option"] for a in game.legal_actions(t.state) if a.type == "choose"}
    assert options == {"puppet-park", "none"}


def test_booth_card_may_be_declined() -> None:
    """BOOTH: placing is allowed, not required ("you may")."""
    t = Table()
    land_on_risk(t, BOOTH_PURPLE)
    t.choose("none")
    assert t.owner("toy-street") is None and t.booths("anna") == 14


def test_booth_card_replaces_opponent() -> None:
    """BOOTH: both spaces taken by booths of different players: replace an opponent's booth of
    your choice; it goes back to its owner."""
    t = Table(("Anna", "Ben", "Cleo"))
    t.give_booth("ben", "toy-street")
    t.give_booth("cleo", "puppet-park")
    land_on_risk(t, BOOTH_PURPLE)
    options = {a.args["option"] for a in game.legal_actions(t.state) if a.type == "choose"}
    assert options == {"toy-street", "puppet-park", "none"}
    t.choose("puppet-park")
    assert t.owner("puppet-park") == "anna" and t.booths("anna") == 9
    assert t.booths("cleo") == 10


def test_booth_card_replaces_only_opponents() -> None:
    """BOOTH: one space yours, the other an opponent's: you may replace the opponent's."""
    t = Table()
    t.give_booth("anna", "toy-street")
    t.give_booth("ben", "puppet-park")
    land_on_risk(t, BOOTH_PURPLE)
    options = {a.args["option"] for a in game.legal_actions(t.state) if a.type == "choose"}
    assert options == {"puppet-park", "none"}


def test_booth_card_both_by_one_player_draws_again() -> None:
    """BOOTH: both spaces hold the same player's booths: nothing can be done; discard the card
    and draw a new one."""
    t = Table()
    t.give_booth("ben", "toy-street")
    t.give_booth("ben", "puppet-park")
    land_on_risk(t, BOOTH_PURPLE, GO_START)
    assert t.state.ext["discard"]["risk"] == [BOOTH_PURPLE, GO_START]
    assert t.position("anna") == "start" and t.money("anna") == 800


def test_booth_card_both_own_draws_again() -> None:
    """BOOTH: both spaces already hold your own booths: discard and draw again too."""
    t = Table()
    t.give_booth("anna", "toy-street")
    t.give_booth("anna", "puppet-park")
    land_on_risk(t, BOOTH_PURPLE, GO_START)
    assert t.position("anna") == "start"


def test_booth_card_without_booths_is_discarded() -> None:
    """Chosen behaviour: a player with no booths left decides nothing: the BOOTH card is
    discarded without effect and no new card is drawn."""
    t = Table()
    t.set_booths("anna", 0)
    land_on_risk(t, BOOTH_PURPLE, GO_START)
    assert t.state.ext["discard"]["risk"] == [BOOTH_PURPLE]
    assert t.position("anna") == "risk-1" and t.state.turn_player.id == "ben"


def test_used_up_deck_is_reshuffled_from_the_discard_pile() -> None:
    """When the RISK cards are used up, the discard pile is shuffled into a new deck."""
    t = Table()
    every = list(t.state.decks["risk"])
    t.arrange("deck", deck="risk", cards=[])
    t.arrange("ext", set={"discard": {"risk": every}})
    t.roll(2)
    assert "shuffled" in t.said()
    deck, pile = t.state.decks["risk"], t.state.ext["discard"]["risk"]
    assert len(deck) == 23 and len(pile) == 1 and sorted([*deck, *pile]) == sorted(every)
    assert game.replay(t.events) == t.state
