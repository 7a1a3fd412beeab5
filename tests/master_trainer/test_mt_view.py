"""What each player sees, and what a tap on a tag means."""

from __future__ import annotations

import pytest
from mt_table import RULES, Table, started

from companion.engine.types import IllegalCommand


def test_view_has_the_contract_shape_without_money_or_board() -> None:
    """The view follows the contract: no currency, no board, edition extras."""
    v = started().view()
    assert v["currency"] is None and v["board"] is None
    assert v["current"] == "ash" and v["prompt"]["kind"] == "turn"
    assert {"teams", "power_points", "knocked_out", "item_hands", "evolution_bonuses",
            "catch_odds", "final_battle"} <= set(v["extra"])
    ash = v["players"][0]
    assert ash["name"] == "Ash" and ash["is_current"] and ash["score"]["points"] == 3
    assert ash["team"][0]["name"] == "Pikachu" and ash["team"][0]["starter"]


def test_other_players_hands_show_counts_only() -> None:
    """Item hands are secret: other players see how many cards, the owner and the banker
    see which."""
    t = started()
    t.give("ash", items=("potion", "potion", "fly"))
    assert t.view("misty")["extra"]["item_hands"]["ash"] == {"count": 3}
    mine = t.view("ash")["extra"]["item_hands"]["ash"]["cards"]
    assert {"item": "potion", "name": "Potion", "count": 2} in mine
    assert "cards" in t.view("banker")["extra"]["item_hands"]["ash"]
    assert "cards" in t.view(None)["extra"]["item_hands"]["ash"]
    assert all(a["actor"] == "misty" for a in t.view("misty")["actions"])


def test_views_of_one_state_share_the_table_but_never_a_hand() -> None:
    """The parts of a view every viewer sees alike are built once per state and shared by
    the views of that state. Whatever order the phones ask in, each view is exactly the
    one that phone would get alone, and a new state shows its change."""
    t = started()
    t.give("ash", items=("potion", "fly"))
    t.give("misty", items=("bonus_3",))
    viewers = ("ash", "misty", "", "banker", None)

    def alone(viewer: str | None) -> dict[str, object]:
        RULES.__dict__.pop("_public_view", None)  # nothing remembered from another viewer
        return t.view(viewer)

    expected = {v: alone(v) for v in viewers}
    for order in (viewers, tuple(reversed(viewers))):
        RULES.__dict__.pop("_public_view", None)
        for v in order:
            assert t.view(v) == expected[v]
    assert t.view("misty")["extra"]["item_hands"] == {"ash": {"count": 2}, "misty": {
        "count": 1, "cards": [{"item": "bonus_3", "name": "Attack Bonus 3", "count": 1}]}}
    assert t.view("ash")["players"][1]["items"] == {"count": 1}
    t.give("ash", team=("raichu",))
    assert t.view("misty")["extra"]["evolution_bonuses"]["ash"] == {"raichu": 3}
    assert t.view("misty")["players"][0]["score"]["points"] > expected["misty"][
        "players"][0]["score"]["points"]  # type: ignore[index]


def test_evolution_bonus_shown_and_used_as_battle_strength() -> None:
    """A complete group adds its bonus to the most evolved member, shown on the team."""
    t = started()
    t.give("ash", team=("raichu",))
    v = t.view("misty")
    assert v["extra"]["evolution_bonuses"]["ash"] == {"raichu": 3}
    raichu = v["players"][0]["team"][1]
    assert raichu["strength"] == 6 and raichu["battle_strength"] == 9


def test_log_explains_the_latest_events() -> None:
    """The view's log holds the latest explanations, newest last."""
    t = started()
    t.do("ash", "roll", dice=[3])
    assert t.view()["log"][-1] == "Ash rolled 3."


def test_tapping_a_space_or_a_chip_makes_the_command() -> None:
    """A tapped space tag says where the mover landed; a tapped chip names the chip."""
    t = started()
    t.do("ash", "roll", dice=[3])
    cmd = RULES.interpret_tap(t.state, "space:catch-pink")
    assert (cmd.actor, cmd.type, cmd.args) == ("ash", "land", {"space": "catch-pink"})
    t.do(cmd.actor, cmd.type, **cmd.args)
    cmd = RULES.interpret_tap(t.state, "chip:16-pidgey")
    assert (cmd.actor, cmd.type, cmd.args["chip"]) == ("ash", "reveal", "pidgey")
    with pytest.raises(IllegalCommand, match="means nothing now"):
        RULES.interpret_tap(t.state, "chip:7-squirtle")  # Misty's starter


def test_tapping_a_mover_picks_its_player() -> None:
    """A tapped mover names the player to challenge."""
    t = Table(({"name": "Ash", "token": "yellow"}, {"name": "Misty", "token": "blue"}))  # type: ignore[arg-type]
    t.deal(ash="pikachu", misty="squirtle")
    t.do("ash", "roll", dice=[2])
    cmd = RULES.interpret_tap(t.state, "token:blue")
    assert (cmd.actor, cmd.type, cmd.args) == ("ash", "battle", {"with": "misty"})


def test_tapping_a_mover_rolls_for_its_player_in_a_digital_game() -> None:
    """In a digital game a mover's tap rolls the die its player is asked for."""
    t = Table(({"name": "Ash", "token": "yellow"}, {"name": "Misty", "token": "blue"}),  # type: ignore[arg-type]
              dice="digital")
    t.deal(ash="pikachu", misty="squirtle")
    cmd = RULES.interpret_tap(t.state, "token:yellow")
    assert (cmd.actor, cmd.type) == ("ash", "roll")
    with pytest.raises(IllegalCommand, match="No player"):
        RULES.interpret_tap(t.state, "token:beige")
