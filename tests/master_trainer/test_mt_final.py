"""Twenty Power Points, Cinnabar Island, Indigo Plateau and the Final Battle."""

from __future__ import annotations

from dataclasses import replace

import pytest
from mt_table import started

from companion.engine.types import IllegalCommand

TWENTY = ("mewtwo", "zapdos")  # Pikachu 3 + Mewtwo 9 + Zapdos 8 = 20


def at_cinnabar_with_twenty(players: tuple[str, ...] = ("Ash", "Misty"), **kw):  # type: ignore[no-untyped-def]
    t = started(players, **kw)
    t.give("ash", team=TWENTY)
    t.do("ash", "roll", dice=[2])
    events = t.do("ash", "land", space="town-no-draw")
    assert "straight to Cinnabar Island" in t.says(events)
    assert t.state.trainer("ash").place == "cinnabar"
    assert len(t.state.trainer("ash").items) == 2
    t.turn_of("ash")
    return t


def test_twenty_power_points_at_turn_end_sends_to_cinnabar() -> None:
    """With 20 Power Points of revived Pokémon at the end of the turn, the player moves to
    Cinnabar Island and collects 2 Item Cards."""
    at_cinnabar_with_twenty()


def test_knocked_out_power_points_do_not_count_towards_twenty() -> None:
    """Knocked-out Pokémon do not count toward the 20 Power Points."""
    t = started()
    t.give("ash", team=TWENTY, knocked_out=("zapdos",))
    t.do("ash", "roll", dice=[2])
    t.do("ash", "land", space="town-no-draw")
    assert t.state.trainer("ash").place == "town-no-draw"
    assert t.view()["extra"]["power_points"]["ash"] == 12


def test_enter_final_battle_and_win_ends_the_game() -> None:
    """On ENTER Final Battle (exact count) the other player plays the Pokémon Master with a
    Rival Card; beating the Master wins the game."""
    t = at_cinnabar_with_twenty()
    t.do("ash", "roll", dice=[3])
    t.do("ash", "land", space="plateau")
    assert t.state.trainer("ash").on_plateau
    t.turn_of("ash")
    t.do("ash", "roll", dice=[4])
    with pytest.raises(IllegalCommand, match="around the track"):
        t.do("ash", "land", space="town")
    t.do("ash", "land", space="final")
    b = t.state.battle
    assert b is not None and b.kind == "final" and b.defender == "misty"
    assert "rival" not in t.view("ash")["extra"]["final_battle"]  # secret until shown
    assert "rival" in t.view("misty")["extra"]["final_battle"]
    t.state = replace(t.state, battle=replace(b, rival="lance"))
    t.give("ash", items=("bonus_5", "bonus_4"))
    t.do("ash", "fight", chip="mewtwo", bonus=[5, 4])
    assert t.view("ash")["extra"]["final_battle"]["rival"]["name"] == "Lance"
    t.do("ash", "roll", dice=[6])
    events = t.do("misty", "roll", dice=[2])
    # Lance: 14 + 2 + 7 = 23 (the rulebook's example); Ash: Mewtwo 9 + 6 + 5 + 4 = 24
    assert "Lance: 14 + die 2 + Attack Bonus 7 = 23" in t.says(events)
    assert t.state.finished and t.state.winners == ("ash",)
    assert t.actions() == []
    with pytest.raises(IllegalCommand, match="game is over"):
        t.do("misty", "roll", dice=[1])


def test_losing_the_final_battle_knocks_out_and_returns_to_cinnabar() -> None:
    """Losing knocks out the Pokémon and sends the player back to Cinnabar Island; the
    Master's player draws two Item Cards."""
    t = at_cinnabar_with_twenty()
    t.do("ash", "roll", dice=[4])
    t.do("ash", "land", space="final")
    t.state = replace(t.state, battle=replace(t.state.battle, rival="lance"))
    t.do("ash", "fight", chip="zapdos")
    t.do("ash", "roll", dice=[1])
    events = t.do("misty", "roll", dice=[2])
    assert "Pokémon Master wins" in t.says(events)
    ash = t.state.trainer("ash")
    assert "zapdos" in ash.knocked_out and ash.place == "cinnabar" and not ash.on_plateau
    assert len(t.state.trainer("misty").items) == 2
    assert not t.state.finished and t.state.current == "misty"
    assert t.power("ash") == 12  # must revive or catch more before re-entering


def test_final_battle_tie_rolls_again() -> None:
    """In the case of a tie, both trainers roll again."""
    t = at_cinnabar_with_twenty(settings={"rivals": {"gary": {"strength": 10,
                                                              "bonus": [1, 1, 1, 1, 1, 1]}}})
    t.do("ash", "roll", dice=[4])
    t.do("ash", "land", space="final")
    t.state = replace(t.state, battle=replace(t.state.battle, rival="gary"))
    t.do("ash", "fight", chip="mewtwo")
    t.do("ash", "roll", dice=[3])
    events = t.do("misty", "roll", dice=[1])  # Mewtwo 9 + 3 = 12 = Gary 10 + 1 + 1
    assert "A tie: both roll again" in t.says(events)
    assert t.prompt_kind == "roll" and set(t.state.prompt.to) == {"ash", "misty"}
    t.do("ash", "roll", dice=[4])
    t.do("misty", "roll", dice=[1])
    assert t.state.winners == ("ash",)


def test_highest_roll_of_the_others_plays_the_pokemon_master() -> None:
    """With more than two players the others roll; the highest plays the Pokémon Master."""
    t = at_cinnabar_with_twenty(("Ash", "Misty", "Brock"))
    t.do("ash", "roll", dice=[4])
    t.do("ash", "land", space="final")
    assert t.prompt_kind == "roll" and set(t.state.prompt.to) == {"misty", "brock"}
    t.do("misty", "roll", dice=[5])
    t.do("brock", "roll", dice=[5])
    assert set(t.state.prompt.to) == {"misty", "brock"}  # a tie: roll again
    t.do("misty", "roll", dice=[2])
    t.do("brock", "roll", dice=[3])
    assert t.state.battle.defender == "brock"


def test_banker_settings_give_the_printed_rival_card() -> None:
    """The banker enters a Rival Card's printed values in the game settings."""
    t = at_cinnabar_with_twenty(settings={"rivals": {"gary": {"strength": 10,
                                                              "bonus": [1, 1, 1, 1, 1, 1]}}})
    t.do("ash", "roll", dice=[4])
    t.do("ash", "land", space="final")
    t.state = replace(t.state, battle=replace(t.state.battle, rival="gary"))
    t.do("ash", "fight", chip="mewtwo")
    t.do("ash", "roll", dice=[1])
    events = t.do("misty", "roll", dice=[1])  # Gary 10 + 1 + 1 = 12 vs Mewtwo 9 + 1 = 10
    assert "Gary: 10 + die 1 + Attack Bonus 1 = 12" in t.says(events)
    assert "not verified" not in t.says(events)


def test_plateau_catch_space_picks_any_chip_of_that_colour_on_the_board() -> None:
    """Catch Red/Blue/Green on the plateau: choose any chip of that colour on the board,
    face up ones included, then try to catch it as usual."""
    t = at_cinnabar_with_twenty()
    t.state = replace(t.state, face_up=("gyarados",))
    t.do("ash", "roll", dice=[2])
    t.do("ash", "land", space="plateau-catch-red")
    t.do("ash", "reveal", chip="gyarados")
    t.do("ash", "catch")
    t.do("ash", "roll", dice=[5])
    assert "gyarados" in t.state.trainer("ash").team


def test_twenty_points_on_cinnabar_goes_on_into_the_plateau() -> None:
    """Starting a turn on Cinnabar Island with 20 Power Points, the mover enters Indigo
    Plateau (no going back along the road, no Fly)."""
    t = at_cinnabar_with_twenty()
    t.give("ash", items=("fly",))
    assert not any(a.type == "use" for a in t.actions("ash"))
    with pytest.raises(IllegalCommand, match="Fly"):
        t.do("ash", "use", item="fly")
    t.do("ash", "roll", dice=[2])
    with pytest.raises(IllegalCommand, match="goes on into Indigo Plateau"):
        t.do("ash", "land", space="town")
    t.do("ash", "land", space="plateau")


def test_pokemon_master_plays_no_item_cards() -> None:
    """Pokémon Masters cannot use any Item Cards: no Time Machine for the Master's player."""
    t = at_cinnabar_with_twenty()
    t.do("ash", "roll", dice=[4])
    t.do("ash", "land", space="final")
    t.give("misty", items=("time_machine",))
    t.do("ash", "fight", chip="mewtwo")
    t.do("ash", "roll", dice=[1])
    t.do("misty", "roll", dice=[6])
    assert t.prompt_kind != "time_machine"
    assert "time_machine" in t.state.trainer("misty").items


def test_potion_revives_a_pokemon_before_choosing_it_for_the_final_battle() -> None:
    """"A player can use as many Item Cards as they want during their turn": having entered
    the Final Battle on their turn, a player may play a Potion and field the revived Pokémon
    ("Once a Pokémon is revived, it can again be used to fight")."""
    t = at_cinnabar_with_twenty()
    t.do("ash", "roll", dice=[4])
    t.do("ash", "land", space="final")
    t.give("ash", items=("potion",), knocked_out=("zapdos",))
    assert t.prompt_kind == "fight"
    assert any(a.type == "use" and a.args.get("item") == "potion" for a in t.actions("ash"))
    t.do("ash", "use", item="potion", chip="zapdos")
    assert "zapdos" not in t.state.trainer("ash").knocked_out
    assert "potion" not in t.state.trainer("ash").items
    assert t.prompt_kind == "fight"
    t.do("ash", "fight", chip="zapdos")
    assert t.state.battle.fighters == {"ash": "zapdos"}


def test_no_potion_for_the_defender_of_a_trainer_battle_outside_their_turn() -> None:
    """"Most Item Cards can only be played during the player's turn": the challenged player
    gets no Potion while choosing a Pokémon on someone else's turn."""
    t = at_cinnabar_with_twenty()
    t.give("misty", team=("pidgey",), items=("potion",), knocked_out=("pidgey",))
    t.give("ash", items=("potion",), knocked_out=("zapdos",))
    t.do("ash", "roll", dice=[2])
    t.do("ash", "battle", **{"with": "misty"})
    t.do("misty", "accept")
    assert t.prompt_kind == "fight"
    assert not any(a.type == "use" for a in t.actions("misty"))
    assert any(a.type == "use" for a in t.actions("ash"))


def test_the_banker_ends_the_game_the_most_power_points_win() -> None:
    """A table that stops before the Elite Four: the banker ends the game as in every
    edition; the Trainer with the most Power Points of revived Pokémon wins (reading
    early-end), and the page says so before the banker confirms."""
    t = started(("Ash", "Misty", "Brock"))
    t.give("misty", team=("zapdos",))  # Squirtle 5 + Zapdos 8
    t.give("ash", team=("mewtwo",), knocked_out=("mewtwo",))  # Mewtwo knocked out: 3
    assert "the most Power Points" in t.view()["end_rule"]
    assert any(a.type == "end_game" and a.actor == "banker" for a in t.actions())
    with pytest.raises(IllegalCommand):
        t.do("ash", "end_game")
    [end] = [e for e in t.do("banker", "end_game") if e.type == "finished"]
    assert t.state.finished and t.state.winners == ("misty",)
    assert t.state.end_reason == "Misty leads with 13 Power Points."
    assert end.say == "The banker ends the game. Misty leads with 13 Power Points."
    assert end.cite == "early-end"
    assert t.actions() == []


def test_the_banker_ends_a_tied_game_the_tied_trainers_share_it() -> None:
    t = started(("Ash", "Misty"))
    t.give("ash", team=("rattata",))  # Pikachu 3 + Rattata 2 = 5, Misty's Squirtle 5
    t.do("banker", "end_game")
    assert t.state.winners == ("ash", "misty")
    assert t.state.end_reason == "Ash and Misty lead with 5 Power Points."


def at_the_final_with_real_piles():  # type: ignore[no-untyped-def]
    """Ash (20 Power Points) lands on ENTER Final Battle in a game on the real piles; the
    Item Cards drawn on the way are named as they come."""
    t = started(settings={"decks": "physical"})
    t.give("ash", team=TWENTY)

    def name_draws() -> None:
        while t.state.prompt is not None and t.state.prompt.kind == "draw_items":
            a = next(a for a in t.actions() if a.type == "draw")
            t.do(a.actor, "draw", card=a.args["card"])

    t.do("ash", "roll", dice=[2])
    t.do("ash", "land", space="town-no-draw")
    name_draws()
    t.turn_of("ash")
    t.do("ash", "roll", dice=[3])
    t.do("ash", "land", space="plateau")
    t.turn_of("ash")
    t.do("ash", "roll", dice=[4])
    t.do("ash", "land", space="final")
    return t


def test_with_the_real_piles_the_master_names_the_rival_card_drawn() -> None:
    """decks: physical: the Pokémon Master draws the Rival Card from the real pile and names
    it (a pick on their phone, or its tag); only their phone lists the cards; the battle
    uses the card named, not one the companion drew."""
    t = at_the_final_with_real_piles()
    assert t.state.prompt is not None and t.state.prompt.to == ("misty",)
    assert t.state.battle is None  # no card drawn by the companion
    picks = {a.args["card"] for a in t.actions() if a.type == "draw"}
    assert picks == {"lorelei", "bruno", "agatha", "lance", "gary"}
    assert not [a for a in t.view("ash")["actions"] if a["type"] == "draw"]
    assert len([a for a in t.view("misty")["actions"] if a["type"] == "draw"]) == 5
    with pytest.raises(IllegalCommand):
        t.do("ash", "draw", card="lance")
    with pytest.raises(IllegalCommand):
        t.do("misty", "draw", card="potion")
    t.do("misty", "draw", card="lance")
    b = t.state.battle
    assert b is not None and b.kind == "final" and b.rival == "lance"
    assert "rival" not in t.view("ash")["extra"]["final_battle"]  # secret until shown
    t.give("ash", items=("bonus_5", "bonus_4"))
    t.do("ash", "fight", chip="mewtwo", bonus=[5, 4])
    assert t.view("ash")["extra"]["final_battle"]["rival"]["name"] == "Lance"


def test_a_rival_cards_tag_names_it() -> None:
    from companion.editions.master_trainer.rules import MasterTrainerRules

    rules = MasterTrainerRules()
    assert ("card:lance-1", "Rival Card: Lance") in [(o, str(n)) for o, n in rules.tag_objects()]
    t = at_the_final_with_real_piles()
    command = rules.interpret_tap(t.state, "card:bruno-1")
    assert (command.actor, command.type, command.args) == ("misty", "draw", {"card": "bruno"})
