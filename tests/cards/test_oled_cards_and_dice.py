"""The OLED buttons name Mario's dice and list the cards a physical draw may name."""

from __future__ import annotations

from typing import Any

from companion.service import game
from hardware.navigator import PromptNavigator
from tests.playing import TableGame


def navigator(g: TableGame) -> tuple[PromptNavigator, list[Any]]:
    sent: list[Any] = []
    nav = PromptNavigator(lambda a, x: sent.append((a["type"], a["args"], x)))
    view = game.view(g.state)
    view["actions"] = [a.to_json() for a in game.legal_actions(g.state)]
    nav.update(view)
    return nav, sent


def test_the_oled_names_the_red_and_the_black_die_while_entering_them() -> None:
    g = TableGame.start("mario", ["Mario", "Luigi"])
    nav, sent = navigator(g)
    nav.ok()  # Roll: physical dice, enter them
    assert nav.state()["editing"]["value"] == "red [1] black 1"
    nav.next()
    nav.ok()
    nav.next()
    nav.next()
    assert nav.state()["editing"]["value"] == "red 2 black [3]"
    nav.ok()
    assert sent == [("roll", {}, [2, 3])]


def test_the_oled_lists_the_cards_that_can_be_drawn() -> None:
    g = TableGame.start("mario", ["Mario", "Luigi"], settings={"decks": "physical"})
    g.roll(2, 3)
    nav, sent = navigator(g)
    items = nav.state()["items"]
    assert len([i for i in items if i.startswith("\u201c")]) == 16
    while "Dry Bones" not in nav.state()["items"][nav.state()["index"]]:
        nav.next()
    nav.ok()
    assert sent == [("draw", {"card": "bf-13"}, None)]
