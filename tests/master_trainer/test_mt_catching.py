"""Catching Pokémon: catch faces, Poké Balls and their odds, the board and the tray."""

from __future__ import annotations

import pytest
from mt_table import RULES, started

from companion.editions.master_trainer.catching import catch_odds
from companion.editions.master_trainer.data import load
from companion.engine.types import IllegalCommand

DATA = load()
# The rulebook's words: Great Ball adds or subtracts 1, Ultra Ball adds 1 or 2, Master Ball
# adds 1 to 4; the player decides after the roll and may keep the plain roll.
BALL_WORDS = {None: {0}, "great_ball": {0, -1, 1}, "ultra_ball": {0, 1, 2},
              "master_ball": {0, 1, 2, 3, 4}}


def brute_force(catch: tuple[int, ...], adjust: set[int]) -> int:
    return sum(any(f + a in catch for a in adjust) for f in range(1, 7))


@pytest.mark.parametrize("colour", ["pink", "green", "blue", "red", "yellow"])
@pytest.mark.parametrize("ball", list(BALL_WORDS))
def test_odds_shown_equal_exact_enumeration(colour: str, ball: str | None) -> None:
    """The odds shown before the roll equal an exact count over the six die faces."""
    chip = DATA.of_colour(colour)[0]
    b = DATA.balls[ball] if ball else None
    assert catch_odds(chip, b) * 6 == brute_force(chip.catch, BALL_WORDS[ball])


def land_on_pink_pidgey(items: tuple[str, ...] = ()) -> object:
    t = started()
    t.give("ash", items=items)
    t.do("ash", "roll", dice=[3])
    t.do("ash", "land", space="catch-pink")
    assert t.prompt_kind == "reveal"
    t.do("ash", "reveal", chip="16-pidgey")
    return t


def test_prompt_shows_exact_odds_for_each_ball_held() -> None:
    """Before the roll the player sees the odds without a ball and with each ball held."""
    t = land_on_pink_pidgey(items=("great_ball", "master_ball"))
    assert t.prompt_kind == "catch"
    assert "No ball: 3 in 6 (50%)" in t.state.prompt.text
    assert "Great Ball: 5 in 6 (83%)" in t.state.prompt.text
    assert "Master Ball: 5 in 6 (83%)" in t.state.prompt.text
    assert "Ultra Ball" not in t.state.prompt.text
    odds = t.view("ash")["extra"]["catch_odds"]
    assert [o["sixths"] for o in odds["by_ball"]] == [3, 5, 5]


def test_caught_chip_joins_team_and_a_new_face_down_chip_takes_its_place() -> None:
    """Caught: the chip joins the team; a chip of that colour from the tray refills the space."""
    t = land_on_pink_pidgey(items=("great_ball",))
    board_before = t.state.board_down["pink"] + 1  # the revealed chip was face down
    tray_before = RULES.tray(t.state, "pink")
    events = t.do("ash", "catch", ball="great")
    assert "great_ball" not in t.state.trainer("ash").items
    assert t.state.items_deck[-1] == "great_ball"  # used cards go under the deck
    events = t.do("ash", "roll", dice=[2])  # 2 + 1 = 3 catches Pidgey
    assert "catches Pidgey" in t.says(events)
    assert t.state.trainer("ash").team == ("pikachu", "pidgey")
    assert t.state.board_down["pink"] == board_before
    assert RULES.tray(t.state, "pink") == tray_before - 1
    assert t.state.current == "misty"


def test_missed_chip_stays_face_up_for_anyone_to_try() -> None:
    """Missed: the chip stays face up on its space; another player may try it later."""
    t = land_on_pink_pidgey()
    t.do("ash", "catch", ball="none")
    events = t.do("ash", "roll", dice=[6])
    assert "does not catch" in t.says(events)
    assert "pidgey" in t.state.face_up
    t.do("misty", "roll", dice=[2])
    t.do("misty", "land", space="catch-pink")
    t.do("misty", "reveal", chip="pidgey")
    t.do("misty", "catch", ball="none")
    t.do("misty", "roll", dice=[4])
    assert "pidgey" in t.state.trainer("misty").team and "pidgey" not in t.state.face_up


def test_no_refill_once_the_tray_is_empty() -> None:
    """With no chip of that colour left in the tray, the board space stays empty."""
    # every red chip starts on the board (still 37 chips on the board's spaces)
    t = started(settings={"board_spaces": {"red": 26, "pink": 0, "green": 3, "blue": 8}})
    assert RULES.tray(t.state, "red") == 0
    t.do("ash", "roll", dice=[3])
    t.do("ash", "land", space="catch-red")
    t.do("ash", "reveal", chip="gyarados")
    t.do("ash", "catch")
    events = t.do("ash", "roll", dice=[5])
    assert "space stays empty" in t.says(events)
    assert t.state.board_down["red"] == 25


def test_one_ball_held_per_attempt_and_chip_must_match_the_space() -> None:
    """Only a ball the player holds can be played; the chip must be of the space's colour."""
    t = started()
    t.do("ash", "roll", dice=[3])
    t.do("ash", "land", space="catch-blue")
    with pytest.raises(IllegalCommand, match="blue chip"):
        t.do("ash", "reveal", chip="pidgey")
    with pytest.raises(IllegalCommand, match="already in Misty's team"):
        t.do("ash", "reveal", chip="squirtle")
    t.do("ash", "reveal", chip="ivysaur")
    with pytest.raises(IllegalCommand, match="Poké Ball you hold"):
        t.do("ash", "catch", ball="ultra")


def test_companion_can_flip_a_random_face_down_chip() -> None:
    """Without a chip named, the companion turns over one of the face-down chips."""
    t = started()
    t.do("ash", "roll", dice=[3])
    t.do("ash", "land", space="catch-green")
    t.do("ash", "reveal")
    assert DATA.chips[t.state.chip_at_stake].colour == "green"


def test_unknown_dungeon_legendary_mixed_again_after_a_miss() -> None:
    """Unknown Dungeon: pick a legendary chip and roll; a miss puts it back among the four."""
    t = started()
    t.top_event("unknown_dungeon")
    t.do("ash", "roll", dice=[2])
    t.do("ash", "land", space="event-blue")
    assert t.prompt_kind == "reveal"
    with pytest.raises(IllegalCommand, match="legendary"):
        t.do("ash", "reveal", chip="pidgey")
    t.do("ash", "reveal", chip="mewtwo")
    t.do("ash", "catch")
    events = t.do("ash", "roll", dice=[5])
    assert "mixed again" in t.says(events)
    assert "mewtwo" in RULES.hidden(t.state, "yellow") and "mewtwo" not in t.state.face_up
    # next time the dungeon offers all four again; a 6 catches
    t.top_event("unknown_dungeon")
    t.do("misty", "roll", dice=[2])
    t.do("misty", "land", space="event-red")
    t.do("misty", "reveal", chip="zapdos")
    t.do("misty", "catch")
    t.do("misty", "roll", dice=[6])
    assert "zapdos" in t.state.trainer("misty").team
