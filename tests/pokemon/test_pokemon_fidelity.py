"""Pokémon: rulebook sentences the companion once got wrong, and its readings as settings."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from pokemon_play import Table  # noqa: E402

from companion.editions.pokemon.data import catch_odds  # noqa: E402
from companion.engine.types import Event, IllegalCommand  # noqa: E402
from companion.service import game  # noqa: E402

PSYCHIC = [f"psychic-{i}" for i in range(1, 7)]


def set_money(t: Table, pid: str, amount: int) -> None:
    delta = t.money(pid) - amount
    if delta:
        t._inject(Event("money", {"source": pid, "to": "bank", "amount": delta}))


def test_owing_with_a_sale_that_would_pay_bankruptcy_is_not_offered() -> None:
    """If a player can't pay: "If a player owes Poké Balls and can't pay, they have to try to
    earn Poké Balls by selling locations back to the Bank for the amount on their board spaces
    or to rival Trainers for an agreed-upon price." While a sale to the Bank would pay the
    debt, bankruptcy is refused with the reason."""
    t = Table()
    t.own("ash", "river")
    t.own("misty", "beach")
    set_money(t, "ash", 1)
    t.land_on("beach")
    t.do("ash", "explore")  # owes Misty 5, has 1
    assert t.kind == "debt"
    assert not any(a.type == "declare_bankruptcy" for a in game.legal_actions(t.state))
    with pytest.raises(IllegalCommand, match="River"):
        t.do("ash", "declare_bankruptcy")
    t.do("ash", "sell_to_bank", space=26)
    assert t.state.debt is None and t.money("misty") == 25 and not t.state.player("ash").bankrupt


def test_owing_when_every_sale_would_not_pay_bankruptcy_is_offered() -> None:
    """"If they're still in debt, they are bankrupt": when selling every location cannot pay,
    bankruptcy is offered at once."""
    t = Table()
    t.own("ash", "rocky-path")
    t.own("misty", "beach")
    set_money(t, "ash", 1)
    t.land_on("beach")
    t.do("ash", "explore")  # owes 5; 1 + 1 cannot pay it
    assert any(a.type == "declare_bankruptcy" for a in game.legal_actions(t.state))


def test_a_rivals_location_with_no_chip_left_says_nothing_can_be_caught() -> None:
    """No wild Pokémon of the type left: the explore prompt shows no chance at all and says so
    before the exploration cost is paid (never "1/1 (100.0%)")."""
    t = Table(ball_faces=6)
    t.give("misty", *PSYCHIC)
    t.own("misty", "cave")
    t.land_on("cave")
    odds = t.state.prompt.data["odds"]
    assert odds["chance"] == "0" and odds["percent"] == 0
    assert "100" not in t.state.prompt.text and "catches nothing" in t.state.prompt.text


def test_the_last_ball_re_roll_shows_no_chance_when_it_puts_you_out() -> None:
    """"if they run out of Poké Balls they're out of the game": by default spending the last
    Poké Ball on a re-roll puts the Trainer out before the roll, so its chance is 0, not 50 %."""
    t = Table()
    t.own("ash", "cave")
    set_money(t, "ash", 1)
    t.land_on("cave")
    t.do("ash", "explore")
    t.roll(6)
    odds = t.state.prompt.data["odds"]
    assert odds["chance"] == "0" and odds["rolls"] == 0
    assert "50" not in t.state.prompt.text and "cannot catch" in t.state.prompt.text


def test_odds_never_round_to_a_certainty() -> None:
    """65535/65536 is not shown as 100.0 %: the fraction is exact and the percentage stays
    below 100 unless the catch is certain."""
    t = Table()
    t.own("ash", "cave")
    set_money(t, "ash", 16)
    t.land_on("cave")
    odds = t.state.prompt.data["odds"]
    assert odds["chance"] == "65535/65536" and odds["rolls"] == 16
    assert "100.0%" not in t.state.prompt.text and ">99.9%" in t.state.prompt.text
    assert odds["percent"] < 100
    assert catch_odds(6, 6, 5, 1)["percent_text"] == "100%"
    assert catch_odds(1, 6, 0, 1)["percent_text"] == "16.7%"


# -- readings offered as settings -------------------------------------------------------------

def at_last_ball(**settings: object) -> Table:
    t = Table(["Ash", "Misty", "Brock"], **settings)  # type: ignore[arg-type]
    t.own("ash", "cave")
    set_money(t, "ash", 1)
    t.land_on("cave")
    t.do("ash", "explore")
    t.roll(6)  # X
    assert t.kind == "catch_miss"
    return t


def test_last_ball_reroll_yes_spends_it_and_is_out() -> None:
    """last_ball_reroll = yes, zero_balls = reroll (defaults): the last Poké Ball may be spent;
    the Trainer has run out and is out of the game."""
    t = at_last_ball(last_ball_reroll="yes", zero_balls="reroll")
    t.do("ash", "reroll")
    assert t.state.player("ash").bankrupt


def test_last_ball_reroll_no_keeps_it() -> None:
    """last_ball_reroll = no: the last Poké Ball cannot be spent on a re-roll."""
    t = at_last_ball(last_ball_reroll="no")
    assert not any(a.type == "reroll" for a in game.legal_actions(t.state))
    with pytest.raises(IllegalCommand, match="last Poké Ball"):
        t.do("ash", "reroll")
    t.do("ash", "stop")
    assert t.money("ash") == 1 and not t.state.player("ash").bankrupt


def test_zero_balls_debt_rolls_the_last_re_roll_and_stays_in() -> None:
    """zero_balls = debt: a Trainer at 0 Poké Balls is not out by that alone; the last re-roll
    is rolled (its chance shown is the die's), a catch counts and the Trainer plays on."""
    t = at_last_ball(zero_balls="debt")
    odds = t.state.prompt.data["odds"]
    assert Fraction(odds["numerator"], odds["denominator"]) == Fraction(1, 2)
    t.do("ash", "reroll")
    t.roll(1)
    assert t.caught("ash") == ["psychic-1"] and t.money("ash") == 0
    assert not t.state.player("ash").bankrupt


def test_early_end_mat_ranks_by_types() -> None:
    """early_end = mat (default): most types, then Pokémon, then Poké Balls."""
    t = Table()
    t.give("misty", "fire-1")
    set_money(t, "misty", 1)
    t.do("banker", "end_game")
    assert t.state.winners == ("misty",)


def test_early_end_balls_ranks_by_poke_balls() -> None:
    """early_end = balls: the most Poké Balls ("the last Trainer with Poké Balls")."""
    t = Table(early_end="balls")
    t.give("misty", "fire-1")
    set_money(t, "misty", 1)
    t.do("banker", "end_game")
    assert t.state.winners == ("ash",)


def test_free_parking_pot_house_rule() -> None:
    """House rule off by default: the Adventure card's Poké Ball goes to the Bank; on, it goes
    onto Free Parking and the next Trainer landing there takes it."""
    for rule, pot in (("off", 0), ("on", 1)):
        t = Table(free_parking_pot=rule)
        deck = [c for c in t.state.decks["adventure"] if c != "ad-08"]
        t._inject(Event("deck", {"deck": "adventure", "cards": ["ad-08", *deck]}))
        t.land_on("adventure-1")  # pay 1
        assert t.state.pot == pot
        if rule == "on":
            t.land_on("free-parking")
            assert t.state.pot == 0 and t.money("misty") == 21
