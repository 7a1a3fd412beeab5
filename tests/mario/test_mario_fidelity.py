"""Mario: rulebook sentences the companion once got wrong, and the readings offered as settings.

Board as in test_mario_rules.py: 14 Free Parking, 19 Question Block, 20 Lava Lake, 21 Go to Jail.
Rolls are [red, black]: Bowser moves on the black die.
"""

from __future__ import annotations

from companion.testing import TableGame

GO, JAIL, GO_TO_JAIL = 0, 7, 21


def mario(n: int = 2, **settings: object) -> TableGame:
    names = ["Mario", "Luigi", "Peach", "Toad", "Yoshi", "DK"][:n]
    return TableGame.start("mario", names, settings=settings)


def put_bowser(g: TableGame, position: int, active: bool = True) -> None:
    g.patch(ext={**g.state.ext, "bowser": {"position": position, "active": active, "wake": []}})


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
