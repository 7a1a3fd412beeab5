"""Trainer Battles, Poké Doll, Let's Fight! and the Time Machine."""

from __future__ import annotations

import pytest
from mt_table import started

from companion.engine.types import IllegalCommand


def challenge(t, ash_items=(), misty_items=()):  # type: ignore[no-untyped-def]
    t.give("ash", team=("raichu",), items=ash_items)
    t.give("misty", team=("staryu",), items=misty_items)
    t.do("ash", "roll", dice=[5])
    t.do("ash", "battle", **{"with": "misty"})
    assert t.prompt_kind == "challenge"


def test_battle_total_winner_takes_two_items_loser_knocked_out() -> None:
    """Battle total = Attack Strength (+ Evolution Bonus) + die + up to two Attack Bonus
    cards; the winner takes two random Item Cards from the loser; the loser's Pokémon is
    knocked out."""
    t = started()
    challenge(t, ash_items=("bonus_2", "bonus_3"), misty_items=("potion", "fly", "bonus_1"))
    t.do("misty", "accept")
    fight = next(a for a in t.actions("ash") if a.type == "fight")
    assert fight.input["bonus"]["names"] == {  # the phone names the cards it offers
        "bonus_2": "Attack Bonus 2", "bonus_3": "Attack Bonus 3"}
    t.do("ash", "fight", chip="raichu", bonus="2,3")
    hidden = t.view("misty")["extra"]["battle"]["sides"]["ash"]
    assert hidden["bonus_cards"] == 2 and "bonus" not in hidden  # secret until the roll
    t.do("misty", "fight", chip="staryu", bonus=[1])
    t.do("ash", "roll", dice=[1])
    events = t.do("misty", "roll", dice=[6])
    said = t.says(events)
    # Raichu 6 + Pikachu/Raichu bonus 3 + die 1 + 2 + 3 = 15; Staryu 2 + 6 + 1 = 9
    assert "= 15" in said and "= 9" in said and "Ash wins" in said
    assert "staryu" in t.state.trainer("misty").knocked_out
    assert len(t.state.trainer("ash").items) == 2  # bonus cards used, two taken from Misty
    assert len(t.state.trainer("misty").items) == 0  # bonus_1 used, two taken
    assert t.state.items_deck[-3:] == ("bonus_2", "bonus_3", "bonus_1")
    assert t.state.current == "misty"


def test_tie_rolls_again() -> None:
    """In case of a tie, both players roll again."""
    t = started()
    challenge(t)
    t.do("misty", "accept")
    t.do("ash", "fight", chip="pikachu")
    t.do("misty", "fight", chip="squirtle")
    t.do("ash", "roll", dice=[4])
    events = t.do("misty", "roll", dice=[3])  # Pikachu 3+4 = Squirtle 4+3
    assert "both players roll again" in t.says(events)
    assert t.prompt_kind == "roll"
    t.do("ash", "roll", dice=[1])
    t.do("misty", "roll", dice=[2])
    assert "pikachu" in t.state.trainer("ash").knocked_out


def test_prize_comes_from_the_deck_when_the_loser_has_fewer_than_two() -> None:
    """If the loser has one Item Card the second comes from the deck; none, both from it."""
    t = started()
    challenge(t, misty_items=("potion",))
    t.do("misty", "accept")
    t.do("ash", "fight", chip="raichu")
    t.do("misty", "fight", chip="staryu")
    t.do("ash", "roll", dice=[6])
    events = t.do("misty", "roll", dice=[1])
    assert "fewer than two" in t.says(events)
    assert "potion" in t.state.trainer("ash").items and len(t.state.trainer("ash").items) == 2


def test_knocked_out_pokemon_cannot_fight_or_count_power_points() -> None:
    """A knocked-out Pokémon cannot fight and adds no Power Points until revived."""
    t = started()
    t.give("ash", team=("raichu",), knocked_out=("raichu",))
    assert t.power("ash") == 3  # Pikachu only
    t.give("misty", team=("staryu",))
    t.do("ash", "roll", dice=[5])
    t.do("ash", "battle", **{"with": "misty"})
    t.do("misty", "accept")
    with pytest.raises(IllegalCommand, match="knocked-out Pokémon cannot fight"):
        t.do("ash", "fight", chip="raichu")
    with pytest.raises(IllegalCommand, match="At most two"):
        t.do("ash", "fight", chip="pikachu", bonus=[1, 2, 3])
    with pytest.raises(IllegalCommand, match="hold no Attack Bonus 4"):
        t.do("ash", "fight", chip="pikachu", bonus=4)


def test_nobody_can_challenge_or_be_challenged_without_an_able_pokemon() -> None:
    """A player whose Pokémon are all knocked out cannot be challenged."""
    t = started()
    t.give("misty", knocked_out=("squirtle",))
    t.do("ash", "roll", dice=[5])
    with pytest.raises(IllegalCommand):
        t.do("ash", "battle", **{"with": "misty"})


def test_poke_doll_stops_a_battle_and_the_mover_goes_on() -> None:
    """A Poké Doll stops a challenge; the challenger goes on to the space rolled."""
    t = started()
    challenge(t, misty_items=("poke_doll",))
    t.do("misty", "poke_doll")
    assert t.prompt_kind == "land" and t.state.battle is None
    assert "poke_doll" not in t.state.trainer("misty").items
    assert not any(a.type == "battle" for a in t.actions("ash"))  # passed only once
    t.do("ash", "land", space="town-no-draw")
    assert t.state.current == "misty"


def test_lets_fight_challenges_any_player() -> None:
    """Let's Fight!: challenge any other player, wherever they are."""
    t = started(("Ash", "Misty", "Brock"))
    t.top_event("lets_fight")
    t.do("ash", "roll", dice=[1])
    t.do("ash", "land", space="event-pink")
    assert t.prompt_kind == "lets_fight"
    t.do("ash", "battle", **{"with": "brock"})
    t.do("brock", "accept")
    assert t.prompt_kind == "fight" and set(t.state.prompt.to) == {"ash", "brock"}


def test_time_machine_rerolls_a_die_right_after_it_is_rolled() -> None:
    """Time Machine: right after a roll, its holder makes anyone roll that die again."""
    t = started()
    t.give("misty", items=("time_machine",))
    t.do("ash", "roll", dice=[6])
    assert t.prompt_kind == "time_machine" and t.state.prompt.to == ("misty",)
    with pytest.raises(IllegalCommand, match="only Misty can"):
        t.do("ash", "time_machine", target="ash", dice=[2])
    events = t.do("misty", "time_machine", target="ash", dice=[2])
    assert "must roll again" in t.says(events)
    assert t.state.last_roll == (2,) and t.prompt_kind == "land"
    assert "rolled 2" in t.state.prompt.text
    assert t.state.items_deck[-1] == "time_machine"


def test_keep_lets_the_dice_stand() -> None:
    """Holders may let the dice stand."""
    t = started()
    t.give("ash", items=("time_machine",))
    t.do("ash", "roll", dice=[4])
    t.do("ash", "keep")
    assert t.prompt_kind == "land" and "time_machine" in t.state.trainer("ash").items
