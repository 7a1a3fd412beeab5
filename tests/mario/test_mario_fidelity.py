"""Mario: rulebook sentences the companion once got wrong, and the readings offered as settings.

Board as in test_mario_rules.py: 14 Free Parking, 19 Question Block, 20 Lava Lake, 21 Go to Jail.
Rolls are [red, black]: Bowser moves on the black die.
"""

from __future__ import annotations

from tests.playing import TableGame

GO, JAIL, GO_TO_JAIL = 0, 7, 21


def mario(n: int = 2, **settings: object) -> TableGame:
    names = ["Mario", "Luigi", "Peach", "Toad", "Yoshi", "DK"][:n]
    return TableGame.start("mario", names, settings=settings)


def put_bowser(g: TableGame, position: int, active: bool = True) -> None:
    bowser = {"position": position, "active": active, "wake": []}
    g.patch(ext=g.state.ext.updated({"bowser": bowser}))


def test_go_to_jail_with_bowser_on_it_goes_straight_to_jail() -> None:
    """Go to Jail: "When you land on this corner space, immediately put your token into the
    Jail section on the opposite corner space." Bowser standing there starts no battle."""
    g = mario(3)
    put_bowser(g, GO_TO_JAIL - 1)
    g.patch_player("mario", position=GO_TO_JAIL - 2)
    g.roll(1, 1)  # Bowser 20 -> 21 (Go to Jail); Mario 19 -> 21
    assert g.state.ext["bowser"]["position"] == GO_TO_JAIL
    assert g.player("mario").in_jail and g.player("mario").position == JAIL
    assert g.state.prompt.kind == "turn" and g.state.prompt.to == ("luigi",)
    assert not any("meets Bowser" in s or "team up" in s for s in g.says(1))


# -- readings offered as settings -------------------------------------------------------------

TOAD_TOWN, PIRANHA, FREE_PARKING = 4, 26, 14


def _finish_turn(g: TableGame) -> None:
    while g.state.prompt.kind != "turn":
        g.do("auction") if g.state.prompt.kind == "buy" else g.do("close_auction", actor="banker")


def _beat_bowser_in_marios_turn(g: TableGame) -> None:
    g.patch_player("luigi", position=17)
    g.roll(2, 3)  # Bowser 14 -> 17 meets Luigi during Mario's turn
    g.choose("mario")
    g.roll(5)
    g.roll(5, actor="mario")
    _finish_turn(g)


def test_bowser_rest_this_turn_counts() -> None:
    """GO: "After all the players have taken and completed their next turn (including the same
    turn for a player who has initiated in battling Bowser)": the battle's turn counts."""
    g = mario(2, bowser_rest="this_turn")
    _beat_bowser_in_marios_turn(g)
    g.roll(2, 1)  # Luigi's turn
    _finish_turn(g)
    assert g.state.ext["bowser"]["active"]


def test_bowser_rest_next_turn_waits_for_the_leaders_next_turn() -> None:
    """Bowser: "When all players have completed their next turn, Bowser will be active again
    after your next turn": the battle's own turn does not count."""
    g = mario(2, bowser_rest="next_turn")
    _beat_bowser_in_marios_turn(g)
    g.roll(2, 1)  # Luigi's turn
    _finish_turn(g)
    assert not g.state.ext["bowser"]["active"]
    g.roll(2, 1)  # Mario's next turn: Bowser still rests
    assert g.state.ext["bowser"]["position"] == GO
    _finish_turn(g)
    assert g.state.ext["bowser"]["active"]


def test_rent_automatic_is_paid_on_landing() -> None:
    """rent_collection = automatic (default): the rent is paid on landing."""
    g = mario(2, rent_collection="automatic")
    g.patch(deeds={**g.state.deeds, TOAD_TOWN: g.state.deeds[TOAD_TOWN].__class__("luigi")})
    g.roll(3, 1)
    assert g.player("luigi").money == 30 + g.state.b.spaces[TOAD_TOWN].rent


def test_rent_ask_is_paid_when_asked_and_lost_after_the_next_roll() -> None:
    """Rent: "you ask them to pay ... You will lose this opportunity when a next player rolls
    the dice, so DON'T forget to ask." With rent_collection = ask the owner must ask."""
    rent = None
    for ask in (True, False):
        g = mario(2, rent_collection="ask")
        g.patch(deeds={**g.state.deeds, TOAD_TOWN: g.state.deeds[TOAD_TOWN].__class__("luigi")})
        rent = g.state.b.spaces[TOAD_TOWN].rent
        g.roll(3, 1)  # Mario lands on Luigi's Toad Town: nothing paid yet
        assert g.player("mario").money == 30
        assert any(a.type == "ask_rent" for a in g.actions("luigi"))
        if ask:
            g.do("ask_rent", actor="luigi", claim=0)
            assert g.player("luigi").money == 30 + rent and g.player("mario").money == 30 - rent
        else:
            g.roll(1, 2)  # Luigi, the next player, rolls: the rent is lost
            assert not any(a.type == "ask_rent" for a in g.actions("luigi"))
            assert g.player("mario").money == 30
            assert any("is lost" in s for s in g.says(1))


def test_rent_ask_with_a_debt_settles_then_asks_the_same_question_again() -> None:
    """Asked for more than they have, the payer raises money first; then the game goes on
    where it was."""
    g = mario(2, rent_collection="ask")
    g.patch(deeds={**g.state.deeds, TOAD_TOWN: g.state.deeds[TOAD_TOWN].__class__("luigi"),
                   1: g.state.deeds[1].__class__("mario")})
    g.patch_player("mario", money=0)
    g.roll(3, 1)
    g.do("ask_rent", actor="luigi", claim=0)
    assert g.state.prompt.kind == "debt"
    g.do("sell_to_bank", actor="mario", space=1)
    assert g.state.prompt.kind == "turn" and g.state.prompt.to == ("luigi",)
    assert g.player("luigi").money == 30 + g.state.b.spaces[TOAD_TOWN].rent


def test_early_end_worth_counts_board_prices() -> None:
    """early_end = worth (default): coins plus the board prices of the locations owned."""
    g = mario(2)
    g.patch(deeds={**g.state.deeds, TOAD_TOWN: g.state.deeds[TOAD_TOWN].__class__("luigi")})
    g.do("end_game", actor="banker")
    assert g.state.winners == ("luigi",)


def test_early_end_money_counts_coins_only() -> None:
    """early_end = money: coins only."""
    g = mario(2, early_end="money")
    g.patch(deeds={**g.state.deeds, TOAD_TOWN: g.state.deeds[TOAD_TOWN].__class__("luigi")})
    g.patch_player("mario", money=31)
    g.do("end_game", actor="banker")
    assert g.state.winners == ("mario",)


def test_free_parking_pot_off_pays_the_bank() -> None:
    """House rule off (the rulebook): the Piranha Plant's coins go to the Bank."""
    g = mario(2)
    g.patch_player("mario", position=22)
    g.roll(3, 1)
    g.roll(4)
    assert g.state.pot == 0


def test_free_parking_pot_on_collects_and_pays_out() -> None:
    """House rule on: fines go onto Free Parking, and landing there takes the pot."""
    g = mario(2, free_parking_pot="on")
    g.patch_player("mario", position=22)
    g.roll(3, 1)  # Bowser 14 -> 15; Mario -> 26 Piranha Plant
    g.roll(4)
    assert g.state.pot == 4 and g.player("mario").money == 26
    g.patch_player("luigi", position=10)
    g.roll(3, 1)  # Bowser 15 -> 16; Luigi -> 14 Free Parking
    assert g.state.pot == 0 and g.player("luigi").money == 34


def test_a_setting_value_that_is_not_an_option_is_refused() -> None:
    """Bad input gets a clear message naming the options."""
    import pytest

    from companion.engine.types import SetupError
    with pytest.raises(SetupError, match="'automatic'"):
        mario(2, rent_collection="sometimes")
