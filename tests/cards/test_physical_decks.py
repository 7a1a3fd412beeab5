"""Physical decks: the player names the real card drawn, and the deck model stays true to the
pile on the table (a kept card cannot be drawn, used cards go under, Monopolino reshuffles)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.engine.types import IllegalCommand, SetupError
from companion.plugins.editions import find_edition
from companion.service import game, script
from tests.playing import TableGame

FURY = "bowsers-fury"


def mario() -> TableGame:
    return TableGame.start("mario", ["Mario", "Luigi"], settings={"decks": "physical"})


def drawable(g: TableGame) -> list[str]:
    return [a.args["card"] for a in game.legal_actions(g.state) if a.type == "draw"]


def test_landing_on_a_card_space_asks_which_card_was_drawn_and_follows_it() -> None:
    g = mario()
    g.roll(2, 3)  # Mario to Bowser's Fury
    assert g.state.prompt.kind == "draw"
    assert len(drawable(g)) == 16
    labels = {a.args["card"]: a.label for a in game.legal_actions(g.state) if a.type == "draw"}
    assert "Dry Bones" in labels["bf-13"]
    money = g.state.players[0].money
    g.do("draw", card="bf-13")
    assert g.state.players[0].money == money - 1
    assert g.state.prompt.to == ("luigi",)


def test_virtual_decks_stay_the_default_for_old_setups() -> None:
    g = TableGame.start("mario", ["Mario", "Luigi"])
    g.roll(2, 3)
    assert g.state.prompt.kind == "turn"  # the companion drew its own card


def test_a_used_card_goes_under_the_pile_and_comes_round_last() -> None:
    g = mario()
    g.roll(2, 3)
    g.do("draw", card="bf-13")
    g.roll(2, 3)  # Luigi to Bowser's Fury too
    assert g.state.prompt.kind == "draw"
    assert "bf-13" not in drawable(g)
    with pytest.raises(IllegalCommand, match="under the pile"):
        g.do("draw", card="bf-13")
    assert g.state.decks[FURY][-1] == "bf-13"


def test_the_pile_comes_round_when_every_card_above_was_drawn() -> None:
    g = mario()
    pile = list(g.state.decks[FURY])
    last = pile[0]
    g.arrange("card_drawn", player="mario", deck=FURY, card=last,
              cards=[last, *pile[1:]], top=1)
    g.roll(2, 3)
    assert drawable(g) == [last]
    g.do("draw", card=last)
    assert g.state.deck_tops[FURY] == 0
    g.roll(2, 3)
    assert len(drawable(g)) == 16 - (1 if g.state.b.card(last).keep else 0)


def test_a_kept_card_is_held_and_cannot_be_drawn_until_it_is_used() -> None:
    g = mario()
    g.roll(2, 3)
    g.do("draw", card="bf-01")  # Get Out of Jail Free: kept
    assert "bf-01" in g.state.players[0].cards
    assert "bf-01" not in g.state.decks[FURY]
    g.roll(2, 3)
    with pytest.raises(IllegalCommand, match="held by a player"):
        g.do("draw", card="bf-01")
    assert "bf-01" not in drawable(g)


def test_a_card_of_another_deck_is_refused_with_its_deck() -> None:
    g = mario()
    g.roll(2, 3)
    with pytest.raises(IllegalCommand, match="Question Block|not Bowser"):
        g.do("draw", card="qb-03")
    with pytest.raises(IllegalCommand, match="no card"):
        g.do("draw", card="zz-99")


def test_tapping_an_enrolled_card_tag_draws_that_card() -> None:
    g = mario()
    g.roll(2, 3)
    command = find_edition("mario").interpret_tap(g.state, "card:bf-16", "object")
    assert command.type == "draw" and command.args == {"card": "bf-16"}
    money = g.state.players[0].money
    g.send(command)
    assert g.state.players[0].money == money + 2


def test_decks_setting_is_checked() -> None:
    with pytest.raises(SetupError, match="physical"):
        TableGame.start("mario", ["Mario", "Luigi"], settings={"decks": "real"})


def test_monopolino_physical_deck_reshuffles_its_discard_pile_when_used_up() -> None:
    g = TableGame.start("monopolino", ["Ann", "Ben"], settings={"decks": "physical"})
    deck = next(iter(g.state.decks))
    cards = list(g.state.decks[deck])
    g.arrange("deck_changed", deck=deck, cards=[])
    g.arrange("edition_values_set", set={"discard": {deck: cards}})
    space = next(s for s in g.state.b.spaces if s.kind == "card")
    g.roll(space.index)
    assert g.state.prompt.kind == "draw"
    assert sorted(drawable(g)) == sorted(cards)
    g.do("draw", card=cards[3])
    assert cards[3] not in g.state.decks[deck]
    assert len(g.state.decks[deck]) == len(cards) - 1


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_physical_deck_example_names_every_card_drawn() -> None:
    data = json.loads((EXAMPLES / "mario-physical-deck.json").read_text("utf-8"))
    result = script.run_script(data)
    draws = [e for e in result.events if e.type == "card_drawn"]
    named = [s.split("card=")[1] for s in data["steps"] if " draw " in s]
    assert [e.data["card"] for e in draws] == named
    luigi = result.state.players[1]
    assert luigi.cards == ()  # Get Out of Jail Free used: back under its pile
    assert result.state.decks["question-block"][-1] == "qb-16"


def test_the_corrected_card_example_pays_mario_5() -> None:
    data = json.loads((EXAMPLES / "mario-card-corrected.json").read_text("utf-8"))
    result = script.run_script(data)
    mario = result.state.players[0]
    assert mario.money == 30 + 5
    assert "Card: Mario collects 5 coins." in [e.say for e in result.events]


def test_a_script_names_the_dice_and_the_old_unnamed_order_still_reads() -> None:
    named = TableGame.start("mario", ["Mario", "Luigi"])
    command = script.parse_step(named.state, "mario: roll black=5 red=2")
    assert command.args["dice"] == [2, 5]
    assert script.parse_step(named.state, "mario: roll 2 5").args["dice"] == [2, 5]
    with pytest.raises(IllegalCommand, match="Name every die"):
        script.parse_step(named.state, "mario: roll red=2")


def test_mario_dice_input_names_the_red_and_the_black_die() -> None:
    g = TableGame.start("mario", ["Mario", "Luigi"])
    roll = next(a for a in game.legal_actions(g.state) if a.type == "roll")
    assert roll.input is not None and roll.input["names"] == ["red", "black"]


def test_star_wars_get_out_of_jail_free_goes_back_under_the_chance_pile() -> None:
    """"Keep this card until needed, then return it to the bottom of the Chance pile.\""""
    g = TableGame.start("starwars", ["Luke", "Leia"], settings={"decks": "physical"})
    g.roll(1, 1)  # Luke to the first Chance space (doubles: he rolls again)
    g.do("draw", card="ch-01")  # Get Out of Jail Free: kept
    assert "ch-01" in g.state.players[0].cards
    assert "ch-01" not in g.state.decks["chance"]
    g.roll(5, 6)  # the second Chance space
    g.do("draw", card="ch-03")  # Go to Jail
    assert g.state.players[0].in_jail
    g.roll(1, 2)  # Leia
    g.do("buy")
    assert g.state.prompt.to == ("luke",)
    g.do("use_jail_card")
    assert g.state.decks["chance"][-1] == "ch-01"
    assert g.state.players[0].cards == ()
