"""Taking control of locations, auctions, exploring and the catching die."""

from __future__ import annotations

from fractions import Fraction

import pytest
from pokemon_play import Table

from companion.editions.pokemon.data import catch_odds
from companion.engine.types import Event, IllegalCommand, SetupError
from companion.service import game


def types(t: Table) -> list[str]:
    return [a.type for a in game.legal_actions(t.state) if a.actor == t.asked]


def test_uncontrolled_location_take_control_by_paying_cost() -> None:
    """Landing on an uncontrolled location the Trainer can afford: they must take control by
    paying its cost (no auction offered), then they may explore it."""
    t = Table()
    t.land_on("cave")  # Cave, cost 2
    assert t.kind == "buy"
    assert "auction" not in types(t)
    t.do("ash", "buy")
    assert t.money("ash") == 18
    assert t.state.owner(8) == "ash"
    assert t.kind == "explore" and set(types(t)) >= {"explore", "stop"}


def test_cannot_afford_auction_from_one_winner_may_not_explore() -> None:
    """A Trainer who cannot afford the location: the Banker auctions it from 1 Poké Ball; the
    highest bidder pays the Bank and takes it, but may not explore right away."""
    t2 = Table()
    t2._inject(Event("money", {"source": "ash", "to": "bank", "amount": 16}))
    t2.land_on("beach", 5)  # Beach costs 5, Ash has 4
    assert t2.kind == "auction" and t2.state.auction.floor == 1
    with pytest.raises(IllegalCommand, match="lowest bid"):
        t2.do("misty", "bid", amount=0)
    t2.do("misty", "bid", amount=1)
    t2.do("ash", "pass")
    assert t2.state.owner(27) == "misty" and t2.money("misty") == 19
    assert t2.kind == "turn" and t2.state.turn_player.id == "misty"


def test_auction_without_bids_stays_with_the_bank() -> None:
    """If no one bids, nobody pays and the Location card stays with the Bank."""
    t = Table()
    t._inject(Event("money", {"source": "ash", "to": "bank", "amount": 20}))
    t.roll(1)  # Rocky Path costs 1, Ash has 0
    bank = t.state.bank
    t.do("banker", "close_auction")
    assert t.state.owner(1) is None and t.state.bank == bank
    assert "stays with the Bank" in t.log()


def test_explore_own_location_is_free() -> None:
    """Exploring a location the Trainer controls costs nothing."""
    t = Table()
    t.own("ash", "cave")
    t.land_on("cave")
    assert t.kind == "explore" and t.state.prompt.data["cost"] == 0
    t.do("ash", "explore")
    assert t.money("ash") == 20 and t.kind == "catch"


def test_explore_rival_location_pays_rival_the_cost() -> None:
    """Exploring a rival's location: pay the rival the exploration cost, then roll."""
    t = Table()
    t.own("misty", "cave")
    t.land_on("cave")
    assert set(types(t)) >= {"explore", "battle"} and "stop" not in types(t)
    assert t.state.prompt.data["odds"]["money"] == 18 and "after paying" in t.state.prompt.text
    t.do("ash", "explore")
    assert t.money("ash") == 18 and t.money("misty") == 22
    assert t.kind == "catch"


def test_poke_ball_catches_a_wild_pokemon_of_the_type() -> None:
    """A Poké Ball face catches a wild Pokémon of the location's type from beside the board;
    the count of that type left goes down."""
    t = Table()
    t.land_on("cave")
    t.do("ash", "buy")
    t.do("ash", "explore")
    t.roll(1)  # faces 1-3 are Poké Balls by default
    assert t.caught("ash") == ["psychic-1"]
    assert game.view(t.state)["extra"]["wild"]["psychic"] == 5
    assert t.state.turn_player.id == "misty"


def test_x_stop_or_pay_one_and_reroll() -> None:
    """An X catches nothing: stop, or pay 1 Poké Ball to the Bank and re-roll, again and
    again."""
    t = Table()
    t.own("ash", "cave")
    t.land_on("cave")
    t.do("ash", "explore")
    t.roll(6)
    assert t.kind == "catch_miss" and set(types(t)) >= {"reroll", "stop"}
    t.do("ash", "reroll")
    assert t.money("ash") == 19 and t.kind == "catch"
    t.roll(4)
    t.do("ash", "reroll")
    t.roll(2)
    assert t.money("ash") == 18 and t.caught("ash") == ["psychic-1"]
    t2 = Table()
    t2.own("ash", "cave")
    t2.land_on("cave")
    t2.do("ash", "explore")
    t2.roll(5)
    t2.do("ash", "stop")
    assert t2.caught("ash") == [] and t2.state.turn_player.id == "misty"


def test_running_out_of_poke_balls_re_rolling_puts_you_out() -> None:
    """A Trainer who spends their last Poké Ball on a re-roll is out of the game; owing the
    Bank, their Pokémon are released back beside the board."""
    t = Table(["Ash", "Misty", "Brock"])
    t.give("ash", "fire-1")
    t.own("ash", "cave")
    t._inject(Event("money", {"source": "ash", "to": "bank", "amount": 19}))
    t.land_on("cave")
    t.do("ash", "explore")
    t.roll(6)
    assert "your last" in t.state.prompt.text
    t.do("ash", "reroll")
    assert t.state.player("ash").bankrupt
    assert "fire-1" in t.state.ext["wild"]["fire"] and t.caught("ash") == []
    assert t.state.owner(8) is None
    assert t.state.turn_player.id == "misty"


def test_no_reroll_without_poke_balls() -> None:
    """A Trainer with no Poké Balls left cannot pay to re-roll."""
    t = Table()
    t.own("misty", "cave")
    t._inject(Event("money", {"source": "ash", "to": "bank", "amount": 18}))
    t.land_on("cave")
    t.do("ash", "explore")  # pays the last 2
    assert t.money("ash") == 0
    t.roll(6)
    assert t.state.turn_player.id == "misty"
    assert "no Poké Ball left to re-roll" in t.log()


def test_ball_faces_is_a_setting() -> None:
    """The number of Poké Ball faces on the catching die is a setting of the game."""
    t = Table(ball_faces=1)
    t.own("ash", "cave")
    t.land_on("cave")
    t.do("ash", "explore")
    assert t.state.prompt.data["faces"] == ["ball", "x", "x", "x", "x", "x"]
    t.roll(2)
    assert t.kind == "catch_miss"
    t5 = Table(ball_faces=5)
    t5.own("ash", "cave")
    t5.land_on("cave")
    t5.do("ash", "explore")
    t5.roll(5)
    assert t5.caught("ash") == ["psychic-1"]
    with pytest.raises(SetupError, match="ball_faces"):
        Table(ball_faces=0)


def test_second_pokemon_of_a_type_sits_beside_the_mat() -> None:
    """A second Pokémon of a type sits beside the mat: the mat keeps one type, both count."""
    t = Table()
    t.give("ash", "psychic-1")
    t.own("ash", "cave")
    t.land_on("cave")
    t.do("ash", "explore")
    t.roll(1)
    assert "beside the mat" in t.log()
    ash = game.view(t.state)["players"][0]
    assert ash["types"] == ["psychic"] and ash["battle_strength"] == 3


def test_no_wild_pokemon_left_of_the_type() -> None:
    """Chips are tracked per type: when none of a type is left there is nothing to catch."""
    t = Table()
    t.give("misty", *[f"psychic-{i}" for i in range(1, 7)])
    t.own("ash", "cave")
    t.land_on("cave")
    assert t.state.turn_player.id == "misty"
    assert "No wild Psychic-type Pokémon are left" in t.log()


def test_catch_odds_exact_in_prompt_and_view() -> None:
    """Before each catching roll the exact chance of catching within the Trainer's Poké Balls
    (from the die's faces and the re-roll price) is in the prompt text, its data and the view."""
    t = Table(ball_faces=2)
    t.own("misty", "cave")
    t._inject(Event("money", {"source": "ash", "to": "bank", "amount": 16}))
    t.land_on("cave")
    t.do("ash", "explore")  # 2 left: this roll plus one re-roll that keeps a Poké Ball
    odds = t.state.prompt.data["odds"]
    expected = 1 - Fraction(4, 6) ** 2
    assert odds["rolls"] == 2 and Fraction(odds["numerator"], odds["denominator"]) == expected
    assert "5/9" in t.state.prompt.text
    assert game.view(t.state)["extra"]["catch"]["odds"] == odds
    t.roll(6)  # X: one re-roll left would spend the last Poké Ball
    after = game.view(t.state)["extra"]["catch"]["odds"]
    assert after["rolls"] == 1 and after["chance"] == "1/3" and t.kind == "catch_miss"
    assert catch_odds(3, 6, 0, 1)["chance"] == "1/2"
    assert catch_odds(3, 6, 3, 1)["chance"] == "7/8"


def test_explore_only_when_asked() -> None:
    """Illegal commands are refused with a reason, and nothing changes."""
    t = Table()
    before = t.state
    with pytest.raises(IllegalCommand, match="not possible now"):
        t.do("ash", "explore")
    with pytest.raises(IllegalCommand, match="only Ash"):
        t.roll(3, actor="misty")
    assert t.state is before


@pytest.mark.parametrize("kind", ["explore", "catch", "catch_miss"])
def test_odds_shown_follow_a_banker_transfer_made_while_the_prompt_stands(kind: str) -> None:
    """After a banker transfer leaves Ash with 1 Poké Ball, the prompt shows the real chance:
    1 roll, 1/2 under the default zero_balls (it showed 19 rolls and 524287/524288)."""
    t = Table()
    t.own("ash", "cave")
    t.land_on("cave")
    if kind != "explore":
        t.do("ash", "explore")
    if kind == "catch_miss":
        t.roll(t.state.prompt.data["odds"]["ball_faces"] + 1)  # X: the re-roll prompt
    assert t.kind == kind
    t.do("banker", "transfer", source="ash", to="bank", amount=t.money("ash") - 1,
         reason="a correction")
    assert t.kind == kind and t.money("ash") == 1
    odds = t.state.prompt.data["odds"]
    shown = game.view(t.state)
    if kind == "catch_miss":  # the last Poké Ball re-rolls nothing (default zero_balls)
        assert odds["rolls"] == 0 and odds["chance"] == "0"
        assert "your last" in t.state.prompt.text and "0 rolls" in t.state.prompt.text
    else:
        assert odds["rolls"] == 1 and odds["chance"] == "1/2"
        assert "1/2 (50.0%, 1 roll)" in t.state.prompt.text
        assert "524287" not in shown["prompt"]["text"]
    if kind != "explore":
        assert shown["extra"]["catch"]["odds"] == odds
    again = game.replay(t.events)
    assert again.prompt == t.state.prompt


def test_odds_shown_follow_a_trade_made_while_the_explore_prompt_stands() -> None:
    t = Table()
    t.own("ash", "cave")
    t.land_on("cave")
    t.do("ash", "propose_trade", to="misty", give={"money": 19}, take={})
    trade = t.state.trades[0].id
    t.do("misty", "accept_trade", trade=trade)
    assert t.kind == "explore" and t.money("ash") == 1
    assert t.state.prompt.data["odds"]["rolls"] == 1
    assert "1/2 (50.0%, 1 roll)" in t.state.prompt.text
