"""Master Trainer with its real Item deck: every Item Card draw (a town, Cinnabar Island, a
Take Item Card event, a battle prize, the Pokémon Master's reward) asks which card was drawn;
the card named goes into the hand, used cards go under the pile, and the rule that was
drawing goes on after the answer."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from companion.engine.types import Command, IllegalCommand
from companion.service import game
from companion.service.game_service import GameService

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "master_trainer"))
from mt_table import RULES, started  # noqa: E402

ONE_EACH = ("potion", "fly")
"""A pile of two Item Cards (arranged after the start: a box's deck has the rulebook's 54)."""
PHYSICAL = {"decks": "physical"}


def offered(t: object) -> list[str]:
    return sorted(a.args["card"] for a in game.legal_actions(t.state)  # type: ignore[attr-defined]
                  if a.type == "draw")


def test_a_town_asks_which_item_card_was_drawn_and_the_turn_waits_for_it() -> None:
    t = started(settings=PHYSICAL)
    t.do("ash", "roll", dice=[1])
    t.do("ash", "land", space="town")
    assert t.prompt_kind == "draw_items"
    assert t.state.current == "ash" and t.state.trainer("ash").items == ()
    assert "potion" in offered(t) and "fly" in offered(t)
    events = t.do("ash", "draw", card="potion")
    assert "Potion" not in t.says(events)  # a hand is secret: the log says "an Item Card"
    assert t.state.trainer("ash").items == ("potion",)
    assert t.state.current == "misty"  # the turn ended only after the answer
    assert t.state.items_deck.count("potion") == 4  # 5 in the deck, one now in a hand


def test_take_item_card_2_asks_twice_then_ends_the_turn() -> None:
    t = started(settings=PHYSICAL)
    t.do("ash", "roll", dice=[1])
    t.do("ash", "land", space="event-pink")
    t.do("ash", "draw", card="take_2")
    assert t.prompt_kind == "draw_items" and "2" in t.state.prompt.text
    t.do("ash", "draw", card="fly")
    assert t.prompt_kind == "draw_items" and t.state.current == "ash"
    t.do("ash", "draw", card="great_ball")
    assert sorted(t.state.trainer("ash").items) == ["fly", "great_ball"]
    assert t.state.current == "misty"


def test_a_card_in_a_hand_or_under_the_pile_cannot_be_drawn_and_nothing_changes() -> None:
    t = started(settings=PHYSICAL)
    t.state = replace(t.state, items_deck=ONE_EACH, items_top=0)  # a pile of two
    t.do("ash", "roll", dice=[1])
    t.do("ash", "land", space="town")
    t.do("ash", "draw", card="potion")
    t.do("misty", "roll", dice=[1])
    t.do("misty", "land", space="town")
    assert offered(t) == ["fly"]
    before = t.state
    with pytest.raises(IllegalCommand, match="in a player's hand"):
        t.do("misty", "draw", card="potion")
    with pytest.raises(IllegalCommand, match="There is no Item Card 'zz-99'"):
        t.do("misty", "draw", card="zz-99")
    assert t.state is before
    t.do("misty", "draw", card="fly")
    # Ash discards the Potion: it goes under the (now empty) pile and is the only card left
    t.give("ash", items=("potion",))
    t.state = replace(t.state, items_deck=(), items_top=0)
    t.do("ash", "roll", dice=[1])
    assert "deck is empty" in t.says(t.do("ash", "land", space="town"))
    assert t.state.current == "misty"


def test_used_cards_go_under_the_pile_and_come_round_after_the_cards_above() -> None:
    t = started(settings=PHYSICAL)
    t.state = replace(t.state, items_deck=(*ONE_EACH, "great_ball"), items_top=0)
    t.do("ash", "roll", dice=[1])
    t.do("ash", "land", space="town")
    t.do("ash", "draw", card="great_ball")
    t.do("misty", "roll", dice=[1])
    t.do("misty", "land", space="catch-pink")
    t.do("misty", "reveal")
    t.do("misty", "skip")
    t.do("ash", "roll", dice=[1])
    t.do("ash", "land", space="catch-pink")
    t.do("ash", "reveal")
    t.do("ash", "catch", ball="great")  # the Great Ball goes under the pile
    t.do("ash", "roll", dice=[1])
    t.do("misty", "roll", dice=[1])
    t.do("misty", "land", space="town")
    assert offered(t) == ["fly", "potion"]  # the Great Ball is under them
    t.do("misty", "draw", card="fly")
    t.do("ash", "roll", dice=[1])
    t.do("ash", "land", space="town")
    assert offered(t) == ["potion"]
    t.do("ash", "draw", card="potion")
    t.do("misty", "roll", dice=[1])
    t.do("misty", "land", space="town")
    assert offered(t) == ["great_ball"]  # the pile came round


def test_cinnabar_at_the_end_of_the_turn_draws_two_then_checks_the_hand_limit() -> None:
    t = started(settings=PHYSICAL)
    t.give("ash", team=("mewtwo", "dragonite", "articuno"),
           items=("potion",) * 3 + ("fly",) * 3)
    t.do("ash", "roll", dice=[1])
    t.do("ash", "land", space="town-no-draw")
    assert t.prompt_kind == "draw_items" and t.state.trainer("ash").place == "cinnabar"
    t.do("ash", "draw", card="great_ball")
    t.do("ash", "draw", card="bonus_2")
    assert t.prompt_kind == "discard"  # 8 cards: the hand limit is checked after the draws
    t.do("ash", "discard", item="fly")
    assert t.state.current == "misty"


def test_a_battle_prize_from_the_deck_asks_the_winner() -> None:
    t = started(settings=PHYSICAL)
    t.do("ash", "roll", dice=[1])
    t.do("ash", "battle", **{"with": "misty"})
    t.do("misty", "accept")
    t.do("ash", "fight", chip="pikachu")
    t.do("misty", "fight", chip="squirtle")
    t.do("ash", "roll", dice=[6])
    t.do("misty", "roll", dice=[1])
    assert t.prompt_kind == "draw_items" and t.state.prompt.to == ("ash",)
    t.do("ash", "draw", card="bonus_5")
    t.do("ash", "draw", card="potion")
    assert sorted(t.state.trainer("ash").items) == ["bonus_5", "potion"]
    assert t.state.current == "misty"


def test_an_item_card_tag_names_the_card_drawn() -> None:
    t = started(settings=PHYSICAL)
    assert ("card:potion-5", "Item Card: Potion (5 of 5)") in RULES.tag_objects()
    t.do("ash", "roll", dice=[1])
    t.do("ash", "land", space="town")
    assert RULES.interpret_tap(t.state, "card:potion-2") == Command(
        "ash", "draw", {"card": "potion"})
    with pytest.raises(IllegalCommand, match="Event Card"):
        RULES.interpret_tap(t.state, "card:take_2-1")


def test_virtual_decks_still_deal_item_cards_from_the_companion_deck() -> None:
    t = started(settings={"decks": "virtual"})
    top = t.state.items_deck[0]
    t.do("ash", "roll", dice=[1])
    t.do("ash", "land", space="town")
    assert t.state.trainer("ash").items == (top,) and t.state.current == "misty"


def test_a_restart_in_the_middle_of_an_item_draw_resumes_the_same_prompt(
        tmp_path: Path) -> None:
    setup = {"edition": "master-trainer", "players": ["Ash", "Misty"], "dice": "physical",
             "seed": 1, "order": "", "settings": PHYSICAL}
    steps = [Command("ash", "starter", {"chip": "pikachu"}),
             Command("misty", "starter", {"chip": "squirtle"}),
             Command("ash", "roll", {"dice": [1]}), Command("ash", "land", {"space": "town"})]
    with GameService(tmp_path) as svc:
        out = svc.create_game(setup)
        assert out.ok, out.error
        gid = out.game_id
        for cmd in steps:
            assert svc.submit(gid, cmd.to_json()).ok
        assert svc.state(gid)[1].prompt.kind == "draw_items"
    with GameService(tmp_path) as svc:
        state = svc.state(gid)[1]
        assert state.prompt.kind == "draw_items" and state.current == "ash"
        done = svc.submit(gid, Command("ash", "draw", {"card": "fly"}).to_json())
        assert done.ok, done.error
        state = svc.state(gid)[1]
        assert state.trainer("ash").items == ("fly",) and state.current == "misty"


def test_a_battle_prize_names_the_cards_taken_from_the_loser_then_one_from_the_deck() -> None:
    t = started(settings=PHYSICAL)
    t.give("misty", items=("potion",))
    t.do("ash", "roll", dice=[1])
    t.do("ash", "battle", **{"with": "misty"})
    t.do("misty", "accept")
    t.do("ash", "fight", chip="pikachu")
    t.do("misty", "fight", chip="squirtle")
    t.do("ash", "roll", dice=[6])
    t.do("misty", "roll", dice=[1])
    assert t.prompt_kind == "prize" and t.state.prompt.to == ("ash",)
    before = t.state
    with pytest.raises(IllegalCommand, match="Misty holds no Fly card"):
        t.do("ash", "draw", card="fly")
    assert t.state is before
    assert RULES.interpret_tap(t.state, "card:potion-4") == Command(
        "ash", "draw", {"card": "potion"})  # the card taken, tapped
    t.do("ash", "draw", card="potion")
    assert t.state.trainer("misty").items == ()
    assert t.prompt_kind == "draw_items"  # Misty had one card: the second comes from the pile
    t.do("ash", "draw", card="bonus_3")
    assert sorted(t.state.trainer("ash").items) == ["bonus_3", "potion"]
    assert t.state.current == "misty"
