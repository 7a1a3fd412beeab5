"""Trades, debt, bankruptcy and the two ways to win (Monopoly: Pokémon Edition)."""

from __future__ import annotations

import pytest
from pokemon_play import Table

from companion.engine.types import Event, IllegalCommand
from companion.service import game

SEVEN = ["rock-1", "ice-1", "psychic-1", "fighting-1", "fire-1", "electric-1", "grass-1"]


def keep(t: Table, pid: str, card: str) -> None:
    deck = t.state.b.card(card).deck
    t._inject(Event("deck", {"deck": deck,
                             "cards": [c for c in t.state.decks[deck] if c != card]}))
    t._inject(Event("card_kept", {"player": pid, "card": card, "keep": True}))


def test_trade_locations_pokemon_poke_balls_and_jail_cards() -> None:
    """Trainers trade locations, wild Pokémon, Poké Balls and Get Out of Jail Free cards."""
    t = Table()
    t.own("ash", "cave")
    t.give("misty", "water-1")
    keep(t, "misty", "ad-01")
    t.do("ash", "propose_trade", to="misty", give={"spaces": [8], "money": 3},
         take={"pokemon": ["water-1"], "cards": ["ad-01"]})
    assert "Water Pokémon water-1" in game.view(t.state)["trades"][0]["text"]
    t.do("misty", "accept_trade", trade=1)
    assert t.state.owner(8) == "misty" and t.caught("ash") == ["water-1"]
    assert t.state.player("ash").cards == ("ad-01",)
    assert t.money("ash") == 17 and t.money("misty") == 23


def test_trade_refuses_what_is_not_held_and_challenge_cards() -> None:
    """A trade can only give what the Trainer holds; Challenge cards are not traded."""
    t = Table()
    keep(t, "ash", "ch-01")
    with pytest.raises(IllegalCommand, match="does not hold the wild Pokémon"):
        t.do("ash", "propose_trade", to="misty", give={"pokemon": ["fire-1"]})
    with pytest.raises(IllegalCommand, match="Only Get Out of Jail Free"):
        t.do("ash", "propose_trade", to="misty", give={"cards": ["ch-01"]})


def test_debt_sell_locations_to_bank_and_pokemon_to_trainers() -> None:
    """Owing more than they have, a Trainer sells locations to the Bank at the board price and
    wild Pokémon to Trainers at an agreed price; once paid, the turn goes on."""
    t = Table()
    t.own("ash", "rocky-path")
    t.own("misty", "beach")
    t.give("ash", "fire-1")
    t._inject(Event("money", {"source": "ash", "to": "bank", "amount": 19}))
    t.land_on("beach")
    t.do("ash", "explore")  # owes Misty 5, has 1
    assert t.kind == "debt"
    t.do("ash", "sell_to_bank", space=1)
    assert t.money("ash") == 2 and t.state.owner(1) is None and t.kind == "debt"
    t.do("ash", "propose_trade", to="misty", give={"pokemon": ["fire-1"]}, take={"money": 3})
    t.do("misty", "accept_trade", trade=1)
    assert t.money("ash") == 0 and t.money("misty") == 22 and t.caught("misty") == ["fire-1"]
    assert t.kind == "catch"


def test_bankrupt_to_a_trainer_gives_pokemon_and_keep_cards() -> None:
    """Still in debt to a Trainer: bankrupt; they get the wild Pokémon and kept cards."""
    t = Table(["Ash", "Misty", "Brock"])
    t.own("misty", "beach")
    t.give("ash", "fire-1", "ice-2")
    keep(t, "ash", "ad-01")
    t._inject(Event("money", {"source": "ash", "to": "bank", "amount": 19}))
    t.land_on("beach")
    t.do("ash", "battle")
    t.roll(1)
    t.roll(6)
    assert t.kind == "debt"
    t.do("ash", "declare_bankruptcy")
    assert t.state.player("ash").bankrupt
    assert t.caught("misty") == ["fire-1", "ice-2"]
    assert t.state.player("misty").cards == ("ad-01",)
    assert t.money("misty") == 21


def test_bankrupt_to_the_bank_releases_pokemon() -> None:
    """Owing the Bank: the Pokémon go back beside the board and Get Out of Jail Free cards to
    the bottom of the Adventure deck."""
    t = Table(["Ash", "Misty", "Brock"])
    t.give("ash", "fire-1")
    keep(t, "ash", "ad-01")
    t._inject(Event("money", {"source": "ash", "to": "bank", "amount": 20}))
    deck = [c for c in t.state.decks["adventure"] if c != "ad-08"]
    t._inject(Event("deck", {"deck": "adventure", "cards": ["ad-08", *deck]}))
    t.land_on("adventure-1")  # pay 1
    t.do("ash", "declare_bankruptcy")
    assert game.view(t.state)["extra"]["wild"]["fire"] == 6
    assert t.state.decks["adventure"][-1] == "ad-01"


def test_first_trainer_with_all_eight_types_wins() -> None:
    """The first Trainer whose tracker mat has all 8 types wins."""
    t = Table()
    t.give("ash", *SEVEN)
    t.own("ash", "beach")
    t.land_on("beach")
    t.do("ash", "explore")
    t.roll(2)
    assert t.state.finished and t.state.winners == ("ash",)
    assert "all 8 types" in t.state.end_reason
    with pytest.raises(IllegalCommand, match="game is over"):
        t.do("ash", "roll", dice=[1])


def test_last_trainer_with_poke_balls_wins() -> None:
    """The last Trainer with Poké Balls when all others have lost theirs wins."""
    t = Table()
    t.own("misty", "beach")
    t._inject(Event("money", {"source": "ash", "to": "bank", "amount": 20}))
    t.land_on("beach")
    t.do("ash", "explore")
    t.do("ash", "declare_bankruptcy")
    assert t.state.finished and t.state.winners == ("misty",)
    assert "last Trainer with Poké Balls" in t.state.end_reason


def test_banker_ends_early_most_types_wins() -> None:
    """Stopped early by the banker: the most types on the mat leads."""
    t = Table()
    t.give("misty", "fire-1", "ice-1")
    t.do("banker", "end_game")
    assert t.state.winners == ("misty",)
