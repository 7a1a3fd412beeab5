"""Star Wars: money at the start, GO, dice, doubles and Jail (scenario tests)."""

from __future__ import annotations

import pytest
from starwars_play import Table, arrange, place, stack

from companion.engine.types import SetupError


def test_each_player_starts_with_1500() -> None:
    """Each player receives ₥1,500; the rest of the money stays with the Bank."""
    t = Table(["Luke", "Leia", "Han"])
    assert [p.money for p in t.state.players] == [1500, 1500, 1500]
    assert t.state.b.currency.format(1500) == "₥1500"
    assert t.state.bank == 10**6 - 3 * 1500


def test_passing_go_collects_200() -> None:
    """Every time you pass GO, collect ₥200 from the Bank."""
    t = Table()
    place(t, "luke", "imperial-palace")
    t.roll(1, 2)  # 31 + 3 -> 2 (Chance), passing GO
    assert t.p("luke").position == 2
    assert any(e.type == "money_paid" and e.data["amount"] == 200 and e.data["to"] == "luke"
               for e in t.log[-12:])


def test_landing_on_go_collects_200() -> None:
    """Landing on GO also collects ₥200."""
    t = Table()
    place(t, "luke", "senate")  # 29
    t.roll(1, 2)  # -> 0
    assert t.p("luke").position == 0 and t.p("luke").money == 1700


def test_two_dice_move_then_next_player() -> None:
    """Roll both dice, move that many spaces; then the player on the left goes next."""
    t = Table()
    t.roll(1, 2)
    t.do("luke", "buy")
    assert t.p("luke").position == 3
    assert t.state.turn_player.id == "leia"


def test_doubles_roll_again() -> None:
    """A double: move, then roll the dice again and take another turn."""
    t = Table()
    t.roll(2, 2)  # -> 4 Jabba's Palace
    t.do("luke", "buy")
    assert t.state.turn_player.id == "luke"
    assert t.state.prompt is not None and t.state.prompt.kind == "turn"


def test_three_doubles_go_to_jail() -> None:
    """Three doubles in the same turn: go to Jail, no move on the third roll."""
    t = Table()
    t.roll(1, 1)  # 2 Chance
    stack(t, "ch-07")  # collect 50
    t.roll(1, 1)  # 4 Jabba
    t.do("luke", "auction")
    t.do("banker", "close_auction")
    t.roll(3, 3)
    assert t.p("luke").in_jail and t.p("luke").position == t.index("jail")
    assert t.state.turn_player.id == "leia"


def test_go_to_jail_space() -> None:
    """Go to Jail: straight to Jail, no ₥200, the turn is over."""
    t = Table()
    place(t, "luke", "free-parking")
    t.roll(3, 5)  # 16 + 8 = 24
    assert t.p("luke").in_jail and t.p("luke").money == 1500
    assert t.state.turn_player.id == "leia"


def jailed() -> Table:
    t = Table()
    place(t, "luke", "jail")
    arrange(t, "jail", player="luke", in_jail=True, tries=0)
    return t


def test_jail_doubles_move_without_extra_turn() -> None:
    """In Jail, a double moves you out by the dice, but you do not roll again."""
    t = jailed()
    t.roll(2, 2)  # 8 + 4 = 12 Forest Moon
    assert not t.p("luke").in_jail and t.p("luke").position == 12
    t.do("luke", "auction")
    t.do("banker", "close_auction")
    assert t.state.turn_player.id == "leia"


def test_jail_fine_before_the_turn() -> None:
    """Pay ₥50 before your turn, then roll and take your turn as usual."""
    t = jailed()
    t.do("luke", "pay_jail_fine")
    assert not t.p("luke").in_jail and t.p("luke").money == 1450
    t.roll(1, 3)  # 12
    assert t.p("luke").position == 12


def test_jail_card_goes_under_the_chance_pile() -> None:
    """Use Get Out of Jail Free at the start of the turn; the card goes under the Chance pile."""
    t = jailed()
    arrange(t, "deck", deck="chance", cards=[c for c in t.state.decks["chance"] if c != "ch-01"])
    arrange(t, "card_kept", player="luke", card="ch-01", keep=True)
    t.do("luke", "use_jail_card")
    assert not t.p("luke").in_jail and t.p("luke").cards == ()
    assert t.state.decks["chance"][-1] == "ch-01"
    t.roll(1, 3)
    assert t.p("luke").position == 12


def test_third_failed_jail_roll_pays_50_and_moves() -> None:
    """No double by the third turn: pay the ₥50 fine, leave Jail and move by the dice."""
    t = jailed()
    arrange(t, "jail", player="luke", in_jail=True, tries=2)
    t.roll(1, 3)
    assert not t.p("luke").in_jail
    assert t.p("luke").position == 12 and t.p("luke").money == 1450


def test_failed_jail_roll_stays() -> None:
    """A failed roll in Jail (before the third) keeps you there; the turn ends."""
    t = jailed()
    t.roll(1, 3)
    assert t.p("luke").in_jail and t.p("luke").jail_tries == 1
    assert t.state.turn_player.id == "leia"


def test_jailed_player_still_collects_rent() -> None:
    """You may still collect rent while you are in Jail."""
    t = jailed()
    t.set_owner("lars-homestead", "luke")
    t.roll(1, 3)  # Luke stays
    t.roll(1, 2)  # Leia -> 3
    assert t.p("leia").money == 1494 and t.p("luke").money == 1506


def test_starting_roll_is_one_die_highest_starts() -> None:
    """Each player rolls one die; the highest roller starts, play continues to the left."""
    t = Table(["Luke", "Leia", "Han"], order="roll")
    assert t.state.prompt is not None and t.state.prompt.data["roll"]["count"] == 1
    t.roll(3)
    t.roll(5)
    t.roll(2)
    assert [p.id for p in t.state.players] == ["leia", "han", "luke"]
    assert t.state.turn_player.id == "leia" and t.state.prompt.data["roll"]["count"] == 2


def test_starting_roll_tie_rolls_again() -> None:
    """A tie for the highest roll: the tied players roll again."""
    t = Table(["Luke", "Leia"], order="roll")
    t.roll(4)
    t.roll(4)
    t.roll(1)
    t.roll(6)
    assert t.state.turn_player.id == "leia"


def test_banker_corrects_unverified_board_data() -> None:
    """Board layout, prices and card texts are not in the rulebook: the banker corrects them
    at setup; a correction of something unknown is refused."""
    t = Table(board={"spaces": {"echo-base": {"price": 120, "name": "Echo Base (Hoth)"},
                                "empire-tax-1": {"amount": 75}},
                     "cards": {"ch-06": {"text": "Collect ₥100."}}})
    assert t.state.b.find("echo-base").price == 120
    t.roll(1, 4)
    assert t.p("luke").money == 1425
    with pytest.raises(SetupError):
        Table(board={"spaces": {"death-star": {"price": 1}}})
    with pytest.raises(SetupError):
        Table(["A", "B", "C", "D", "E"])
