"""Lapras, the Challenge and Adventure decks, the corners and Jail (Pokémon Edition)."""

from __future__ import annotations

import pytest
from pokemon_play import Table

from companion.engine.types import Event, IllegalCommand
from companion.service import game


def options(t: Table) -> list[str]:
    return [a.args["option"] for a in game.legal_actions(t.state) if a.type == "choose"]


def top(t: Table, deck: str, card: str) -> None:
    rest = [c for c in t.state.decks[deck] if c != card]
    t._inject(Event("deck", {"deck": deck, "cards": [card, *rest]}))


def jail(t: Table, pid: str, tries: int = 0) -> None:
    t._inject(Event("moved", {"player": pid, "to": 7}))
    t._inject(Event("jail", {"player": pid, "in_jail": True, "tries": tries}))


def test_lapras_ride_to_any_space_up_to_the_next_lapras_and_follow_it() -> None:
    """On Lapras the Trainer may move to any space up to the next Lapras and follows the rules
    of the space where they land."""
    t = Table()
    t.land_on("lapras-1", 4)
    assert options(t) == ["stay", "snowy-mountain", "glacier", "jail", "cave", "adventure-1",
                          "forest", "lapras-2"]
    t.choose("forest")
    assert t.state.player("ash").position == 10
    assert t.kind == "buy"


def test_lapras_to_the_next_lapras_does_not_ride_again() -> None:
    """Riding to the next Lapras ends there: that Lapras is not ridden again this turn."""
    t = Table()
    t.land_on("lapras-3", 4)
    t.choose("lapras-4")
    assert t.state.player("ash").position == 25 and t.state.turn_player.id == "misty"


def test_lapras_passing_go_collects_two() -> None:
    """Riding Lapras past GO collects 2 Poké Balls."""
    t = Table()
    t.land_on("lapras-4", 4)
    t.choose("rocky-path")
    assert t.money("ash") == 22 and t.kind == "buy"


def test_lapras_stay() -> None:
    """A Trainer who does not want to ride stays on Lapras and does nothing."""
    t = Table()
    t.land_on("lapras-2", 3)
    t.choose("stay")
    assert t.state.player("ash").position == 11 and t.state.turn_player.id == "misty"


def test_adventure_card_used_at_once_goes_under_the_deck() -> None:
    """A card used at once is done and returned to the bottom of its deck."""
    t = Table()
    top(t, "adventure", "ad-07")
    t.land_on("adventure-1")
    assert t.money("ash") == 22
    assert t.state.decks["adventure"][-1] == "ad-07"


def test_adventure_card_moves_and_follows_the_space() -> None:
    """A card that moves the Trainer follows the rules of the space reached."""
    t = Table()
    top(t, "adventure", "ad-04")
    t.land_on("adventure-2")
    assert t.state.player("ash").position == 27 and t.kind == "buy"


def test_get_out_of_jail_free_is_kept_then_used_and_returned() -> None:
    """A Get Out of Jail Free card is kept; used at the start of a turn in Jail it frees the
    Trainer and goes to the bottom of the Adventure deck; they then roll and move."""
    t = Table()
    top(t, "adventure", "ad-01")
    t.land_on("adventure-1")
    assert t.state.player("ash").cards == ("ad-01",)
    assert "ad-01" not in t.state.decks["adventure"]
    t.land_on("free-parking")
    jail(t, "ash")
    t.do("ash", "use_jail_card")
    assert not t.state.player("ash").in_jail and t.kind == "turn"
    assert t.state.decks["adventure"][-1] == "ad-01"
    t.roll(1)
    assert t.state.player("ash").position == 8


def test_challenge_keep_card_is_kept_for_battle() -> None:
    """Some Challenge cards are kept until the Trainer battles."""
    t = Table()
    top(t, "challenge", "ch-02")
    t.land_on("challenge-1")
    assert t.state.player("ash").cards == ("ch-02",)


def test_free_parking_and_just_visiting_do_nothing() -> None:
    """Free Parking and Just Visiting: the Trainer does nothing."""
    t = Table()
    t.land_on("free-parking")
    t.land_on("jail")
    assert t.money("ash") == 20 and t.money("misty") == 20
    assert not t.state.player("misty").in_jail


def test_go_to_jail_no_salary() -> None:
    """Go to Jail: straight to the In Jail space, no Poké Balls for passing GO; turn over."""
    t = Table()
    t.land_on("go-to-jail")
    ash = t.state.player("ash")
    assert ash.in_jail and ash.position == 7 and t.money("ash") == 20
    assert t.state.turn_player.id == "misty"


def test_jail_pay_one_at_the_start_of_the_turn() -> None:
    """In Jail: pay 1 Poké Ball at the start of the turn, then roll and move as normal."""
    t = Table()
    jail(t, "ash")
    t.do("ash", "pay_jail_fine")
    assert t.money("ash") == 19 and t.kind == "turn"
    t.roll(1)
    assert t.state.player("ash").position == 8 and t.kind == "buy"


def test_jail_roll_a_six_moves_without_following_the_space() -> None:
    """Rolling a 6 frees the Trainer; the move after it does not follow the space."""
    t = Table()
    jail(t, "ash")
    t.roll(6)
    ash = t.state.player("ash")
    assert not ash.in_jail and ash.position == 13
    assert t.state.owner(13) is None and t.state.turn_player.id == "misty"


def test_jail_miss_stays_then_third_miss_pays_one_and_moves() -> None:
    """Up to three turns to roll a 6; after the third miss pay 1 and use that roll to move."""
    t = Table()
    jail(t, "ash")
    t.roll(2)
    assert t.state.player("ash").in_jail and t.state.player("ash").jail_tries == 1
    t.land_on("free-parking")
    t.roll(3)
    t.land_on("free-parking")
    t.roll(4)
    ash = t.state.player("ash")
    assert not ash.in_jail and ash.position == 11 and t.money("ash") == 19
    assert t.kind == "lapras"


def test_jailed_trainer_still_collects_and_bids() -> None:
    """A jailed Trainer still collects exploration costs and bids in auctions."""
    t = Table()
    t.own("misty", "cave")
    jail(t, "misty")
    t.land_on("cave")
    t.do("ash", "explore")
    assert t.money("misty") == 22
    t.roll(6)
    t.do("ash", "stop")
    t2 = Table()
    jail(t2, "misty")
    t2._inject(Event("money", {"source": "ash", "to": "bank", "amount": 20}))
    t2.land_on("rocky-path")
    assert t2.kind == "auction"
    with pytest.raises(IllegalCommand, match="cannot do that now"):
        t2.do("ash", "bid", amount=1)
    t2.do("misty", "bid", amount=1)
    t2.do("ash", "pass")
    assert t2.state.owner(1) == "misty"
