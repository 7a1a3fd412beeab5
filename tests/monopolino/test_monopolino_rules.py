"""Monopolino scenario tests: one rule each, with dice values chosen by the test."""

from __future__ import annotations

import pytest
from monopolino_table import Table

from companion.engine.types import IllegalCommand, SetupError
from companion.service import game


def test_setup_money_die_board() -> None:
    """Each player starts with €7.50 (one €2, two €1, five €0.50, five €0.20 = 750 cents);
    the board has 32 spaces; one die is rolled; prompts show euros."""
    t = Table(("Anna", "Ben", "Cleo"))
    assert [p.money for p in t.state.players] == [200 + 2 * 100 + 5 * 50 + 5 * 20] * 3
    assert len(t.state.b.spaces) == 32
    view = game.view(t.state)
    assert view["players"][0]["money_text"] == "€7.50"
    assert view["currency"]["decimals"] == 2
    [roll] = [a for a in game.legal_actions(t.state) if a.type == "roll"]
    assert roll.actor == "anna" and roll.input is not None and roll.input["count"] == 1


def test_booths_per_player() -> None:
    """Each player takes 10 booths, or 14 when playing with two players."""
    assert Table(("Anna", "Ben", "Cleo")).booths("cleo") == 10
    assert Table(("Anna", "Ben", "Cleo", "Dan")).booths("dan") == 10
    two = Table(("Anna", "Ben"))
    assert two.booths("anna") == two.booths("ben") == 14
    assert game.view(two.state)["players"][1]["booths_left"] == 14


def test_two_to_four_players() -> None:
    """Four tokens and booths in four colours: 2 to 4 players."""
    with pytest.raises(SetupError):
        Table(("Anna",))
    with pytest.raises(SetupError):
        Table(("A", "B", "C", "D", "E"))


def test_starting_roll_uses_one_die() -> None:
    """Each player rolls the die; the highest score begins."""
    t = Table(("Anna", "Ben"), order="roll")
    t.roll(2)
    t.roll(5)
    assert t.state.turn_player.id == "ben"


def test_free_street_pay_bank_and_place_booth() -> None:
    """A street without booths: pay the amount shown to the Bank and place one of your booths
    (no buy choice, no auction)."""
    t = Table()
    bank, price = t.state.bank, t.state.b.find("toy-street").price
    t.roll(1)
    assert t.owner("toy-street") == "anna"
    assert t.money("anna") == 750 - price and t.state.bank == bank + price
    assert t.booths("anna") == 13
    assert t.state.prompt is not None and t.state.prompt.to == ("ben",)
    assert t.state.prompt.kind == "turn"


def test_booth_rent_paid_to_owner() -> None:
    """A space with a booth: pay the amount shown to the booth's owner, not to the Bank."""
    t = Table()
    t.give_booth("ben", "toy-street")
    t.roll(1)
    assert t.money("anna") == 700 and t.money("ben") == 800
    assert t.owner("toy-street") == "ben"


def test_double_rent_with_both_spaces_of_colour() -> None:
    """If the owner also has a booth on the other space of the colour, the amount doubles."""
    t = Table()
    t.give_booth("ben", "toy-street")
    t.give_booth("ben", "puppet-park")
    t.roll(3)
    assert t.money("anna") == 650 and t.money("ben") == 850


def test_own_booth_costs_nothing() -> None:
    """Landing on your own booth: nothing to pay."""
    t = Table()
    t.give_booth("anna", "toy-street")
    t.roll(1)
    assert t.money("anna") == 750


def test_no_booths_left_nothing_happens() -> None:
    """Chosen behaviour: a player with no booths left places nothing; a free street costs them
    nothing and stays free."""
    t = Table()
    t.set_booths("anna", 0)
    t.roll(1)
    assert t.owner("toy-street") is None and t.money("anna") == 750
    assert "no booths left" in t.said()


def test_cannot_afford_free_street() -> None:
    """Chosen behaviour: a player who cannot pay a free street's full price pays nothing and
    places no booth; the game goes on."""
    t = Table()
    t.set_money("anna", 40)
    t.roll(1)
    assert t.owner("toy-street") is None and t.money("anna") == 40
    assert not t.state.finished


def test_paying_the_last_cent_for_a_street_ends_the_game() -> None:
    """The game ends the moment a player has no money left, even after placing a booth."""
    t = Table()
    t.set_money("anna", 50)
    t.roll(1)
    assert t.owner("toy-street") == "anna"
    assert t.state.finished and t.state.winners == ("ben",)


def test_station_rolls_again() -> None:
    """A station: roll the die again, move, and follow the instructions of the new space."""
    t = Table()
    t.roll(4)
    assert t.position("anna") == "blue-station"
    assert t.state.prompt is not None and t.state.prompt.kind == "station"
    t.roll(1)
    assert t.position("anna") == "kite-park" and t.owner("kite-park") == "anna"
    assert t.state.turn_player.id == "ben"


def test_start_paid_when_passing() -> None:
    """START: take €0.50 from the Bank each time you pass through it."""
    t = Table()
    t.put("anna", "toy-shop-street")
    t.roll(2)
    assert t.position("anna") == "toy-street"
    assert t.money("anna") == 750 + 50 - 50


def test_start_paid_when_landing() -> None:
    """START: take €0.50 when your move ends on it."""
    t = Table()
    t.put("anna", "funfair-park")
    t.roll(3)
    assert t.position("anna") == "start" and t.money("anna") == 800


def test_sweets_and_balloons_pay_the_lottery() -> None:
    """Sweets and balloons spaces: pay €0.50, placing it on the LOTTERY."""
    t = Table()
    t.put("anna", "puppet-park")
    t.roll(3)  # sweets
    t.put("ben", "ice-cream-street")
    t.roll(1)  # balloons
    assert t.money("anna") == 700 and t.money("ben") == 700
    assert t.state.pot == 100
    view = game.view(t.state)
    assert (view["pot_text"], view["pot_label"]) == ("€1.00", "Lottery pot")


def test_lottery_takes_the_pot() -> None:
    """The LOTTERY space: take the money if there is any."""
    t = Table()
    t.put("anna", "puppet-park")
    t.roll(3)
    t.put("ben", "clown-park")
    t.roll(1)
    assert t.money("ben") == 800 and t.state.pot == 0


def test_empty_lottery_nothing_happens() -> None:
    """The LOTTERY space with no money on it: nothing happens."""
    t = Table()
    t.put("anna", "clown-park")
    t.roll(1)
    assert t.money("anna") == 750 and "LOTTERY is empty" in t.said()


def test_shooting_gallery_nothing_happens() -> None:
    """The SHOOTING GALLERY space: nothing happens."""
    t = Table()
    t.put("anna", "marble-street")
    t.roll(1)
    assert t.money("anna") == 750 and t.state.turn_player.id == "ben"


def test_go_to_shooting_gallery() -> None:
    """GO TO SHOOTING GALLERY: put €0.50 on the LOTTERY and move to the SHOOTING GALLERY
    without passing START (no €0.50 from the Bank); next turn you move normally."""
    t = Table()
    t.put("anna", "candy-floss-park")
    t.roll(1)
    assert t.position("anna") == "shooting-gallery"
    assert t.money("anna") == 700 and t.state.pot == 50
    t.roll(6)  # Ben
    t.roll(1)
    assert t.position("anna") == "ice-cream-street"


def test_rent_beyond_means_ends_the_game() -> None:
    """The game ends the moment a player has no money left; the richest player wins. A rent
    larger than the payer's money takes all of it."""
    t = Table(("Anna", "Ben", "Cleo"))
    t.give_booth("cleo", "toy-street")
    t.set_money("anna", 30)
    t.set_money("ben", 900)
    total = t.total()
    t.roll(1)
    assert t.money("anna") == 0 and t.money("cleo") == 780
    assert t.state.finished and t.state.winners == ("ben",)
    assert "no money left" in t.state.end_reason
    assert t.total() == total
    with pytest.raises(IllegalCommand, match="over"):
        t.do("ben", "roll", dice=[1])


def test_sweets_beyond_means_ends_the_game() -> None:
    """A €0.50 fee the player cannot pay in full takes all their money: the game ends."""
    t = Table()
    t.put("anna", "puppet-park")
    t.set_money("anna", 20)
    t.roll(3)
    assert t.state.pot == 20 and t.state.finished and t.state.winners == ("ben",)


def test_banker_ends_game_richest_wins() -> None:
    """Stopped early by the banker, the player with the most money wins (booths count for
    nothing)."""
    t = Table()
    t.give_booth("anna", "toy-shop-street")
    t.set_money("ben", 760)
    t.do("banker", "end_game")
    assert t.state.winners == ("ben",)


def test_price_correction_sets_rent() -> None:
    """The amount shown is both price and rent: the banker corrects the price; a rent
    correction is refused."""
    t = Table(board={"spaces": {"toy-street": {"price": 70}}})
    assert t.state.b.find("toy-street").rent == 70
    t.roll(1)
    assert t.money("anna") == 680
    with pytest.raises(SetupError, match="price"):
        Table(board={"spaces": {"toy-street": {"rent": 70}}})


@pytest.mark.parametrize(("actor", "type", "args", "words"), [
    ("ben", "roll", {"dice": [3]}, "only Anna"),
    ("anna", "roll", {"dice": [7]}, "1 to 6"),
    ("anna", "roll", {"dice": [3, 4]}, "exactly 1"),
    ("anna", "buy", {}, "no buying choice"),
    ("anna", "auction", {}, "no auctions"),
    ("anna", "propose_trade", {"to": "ben", "give": {"money": 10}}, "no trades"),
    ("anna", "sell_to_bank", {"space": 1}, "never sold"),
    ("anna", "pay_jail_fine", {}, "no jail"),
    ("anna", "choose", {"option": "none"}, "not possible"),
])
def test_illegal_commands_change_nothing(actor: str, type: str, args: dict[str, object],
                                         words: str) -> None:
    """An illegal command raises IllegalCommand naming the rule; nothing changes."""
    t = Table()
    before = t.state
    with pytest.raises(IllegalCommand, match=words):
        t.do(actor, type, **args)
    assert t.state == before
