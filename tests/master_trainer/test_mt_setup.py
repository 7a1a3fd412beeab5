"""Setup: players, starters and the turn order."""

from __future__ import annotations

from pathlib import Path

import pytest
from mt_table import Table, started

from companion.editions.master_trainer.data import load
from companion.engine.types import IllegalCommand, RuleError, SetupError


def test_two_to_six_players() -> None:
    """Pokémon Master Trainer is for 2 to 6 players."""
    Table(("Ash", "Misty"))
    Table(("A", "B", "C", "D", "E", "F"))
    with pytest.raises(SetupError, match="2 to 6 players"):
        Table(("Ash",))
    with pytest.raises(SetupError, match="2 to 6 players"):
        Table(("A", "B", "C", "D", "E", "F", "G"))


def test_each_player_turns_over_a_starter_or_the_companion_draws_one() -> None:
    """Each player gets one of the 6 starters, drawn face down; nobody gets a taken one."""
    t = Table(("Ash", "Misty", "Brock"), dice="digital", seed=7)
    assert t.prompt_kind == "starter"
    t.do("ash", "starter", chip="pikachu")
    with pytest.raises(IllegalCommand, match="starter chips still face down"):
        t.do("misty", "starter", chip="pikachu")
    with pytest.raises(IllegalCommand, match="starter chips still face down"):
        t.do("misty", "starter", chip="pidgey")
    t.do("misty", "starter")  # the companion draws one at random
    t.do("brock", "starter")
    starters = [t.state.trainer(p).starter for p in ("ash", "misty", "brock")]
    assert len(set(starters)) == 3
    assert all(t.state.trainer(p).team == (t.state.trainer(p).starter,) for p in ("misty",))


def test_weakest_starter_goes_first_and_play_passes_left() -> None:
    """The player with the weakest starter (lowest Power Points) goes first."""
    t = Table(("Ash", "Misty", "Brock"))
    t.deal(ash="squirtle", misty="bulbasaur", brock="meowth")
    assert t.state.order == ("brock", "ash", "misty")
    assert t.state.current == "brock"
    assert t.prompt_kind == "turn"


def test_tie_for_weakest_starter_rolls_and_highest_goes_first() -> None:
    """Tied for the weakest starter: each rolls a die, highest first; ties roll again."""
    t = Table(("Ash", "Misty", "Brock"))
    t.deal(ash="squirtle", misty="pikachu", brock="meowth")  # Pikachu and Meowth: 3 each
    assert t.prompt_kind == "roll" and set(t.state.prompt.to) == {"misty", "brock"}
    with pytest.raises(IllegalCommand):
        t.do("ash", "roll", dice=[6])
    t.do("misty", "roll", dice=[4])
    t.do("brock", "roll", dice=[4])
    assert set(t.state.prompt.to) == {"misty", "brock"}  # a tie: roll again
    t.do("misty", "roll", dice=[2])
    t.do("brock", "roll", dice=[5])
    assert t.state.order == ("brock", "ash", "misty")


def test_physical_game_needs_entered_dice_and_digital_refuses_them() -> None:
    """Physical dice are entered by the players; digital dice are rolled by the companion."""
    t = started()
    with pytest.raises(IllegalCommand, match="physical dice"):
        t.do("ash", "roll")
    with pytest.raises(IllegalCommand, match="from 1 to 6"):
        t.do("ash", "roll", dice=[7])
    d = started(dice="digital")
    with pytest.raises(IllegalCommand, match="digital dice"):
        d.do("ash", "roll", dice=[3])
    d.do("ash", "roll")
    assert d.prompt_kind == "land"
    assert 1 <= d.state.last_roll[0] <= 6


def test_out_of_turn_command_names_who_may_act_and_changes_nothing() -> None:
    """Only the player whose turn it is may roll to move; a refused command changes nothing."""
    t = started()
    before = t.state
    with pytest.raises(IllegalCommand, match="only Ash can"):
        t.do("misty", "roll", dice=[3])
    with pytest.raises(IllegalCommand, match="not possible now"):
        t.do("ash", "fight", chip="pikachu")
    assert t.state == before


def test_evolution_groups_and_deck_totals_are_checked_alike_wherever_settings_come_from(
        tmp_path: Path) -> None:
    """docs/profiles.md's `evolution_groups` is a setting of a game from the service (as
    `companion play` and a profile file send it) and of a script; an Item deck of 98 cards
    is refused by both, as a saved profile refuses it."""
    from companion.service.game_service import GameService
    from companion.service.script import run_script

    groups = [["pidgey", "rattata"]]
    doubled = {"potion": load().item_deck["potion"] + 44}  # 98 cards
    base = {"edition": "master-trainer", "players": ["Ash", "Misty"], "seed": 1}
    with GameService(tmp_path) as service:
        made = service.create_game({**base, "settings": {"evolution_groups": groups}})
        assert made.ok, made.error
        refused = service.create_game({**base, "settings": {"item_deck": doubled}})
        assert not refused.ok and "item_deck: adds up to 98; the rulebook has 54" in refused.error
    assert run_script({**base, "settings": {"evolution_groups": groups}, "steps": []}
                      ).state.setup.settings["evolution_groups"] == groups
    with pytest.raises(RuleError, match="item_deck: adds up to 98; the rulebook has 54"):
        run_script({**base, "settings": {"item_deck": doubled}, "steps": []})
    with pytest.raises(RuleError, match="Unknown setting 'evolution_group'"):
        run_script({**base, "settings": {"evolution_group": groups}, "steps": []})


def test_a_lost_card_is_played_what_cannot_be_played_is_refused() -> None:
    """A deck short of the printed 54 is played (a real box loses cards); an empty deck, a
    deck above the printed total and a board with another number of chip spaces are not."""
    from companion.editions.master_trainer.data import load

    deck = dict(load().item_deck)
    deck["potion"] -= 1
    data = load({"item_deck": deck})
    assert sum(data.item_deck.values()) == 53
    assert data.deck_notes == ("Item Cards: 53 in this box, the rulebook has 54 (1 missing).",)
    assert load().deck_notes == ()
    with pytest.raises(RuleError, match="item_deck: adds up to 55; the rulebook has 54"):
        load({"item_deck": {**deck, "potion": deck["potion"] + 2}})
    with pytest.raises(RuleError, match="event_deck: no cards"):
        load({"event_deck": {k: 0 for k in load().event_deck}})
    board = dict(load().board_spaces)
    board[next(iter(board))] -= 1
    with pytest.raises(RuleError, match="board_spaces: adds up to 36; the rulebook has 37"):
        load({"board_spaces": board})
