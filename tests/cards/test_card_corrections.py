"""A banker's card correction may set the card's effect, checked against the declared effects,
and the corrected effect is what happens at the table."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine.types import SetupError
from tests.playing import TableGame


def corrected(edition: str, players: list[str], card: str, change: dict[str, Any],
              **settings: Any) -> TableGame:
    return TableGame.start(edition, players, settings={
        "decks": "physical", "board": {"cards": {card: change}}, **settings})


def land_and_draw(g: TableGame, card: str) -> None:
    deck = g.state.b.card(card).deck
    space = next(s for s in g.state.b.spaces if s.kind == "card" and s.deck == deck)
    count = g.state.prompt.data["roll"]["count"]
    if space.index > 6:  # stand the player within one die of the space
        g.arrange("moved_to", player=g.state.prompt.to[0], to=space.index - 3)
    dice = [3] if space.index > 6 else [space.index]
    g.roll(*(dice if count == 1 else [max(1, dice[0] - 1), 1]))
    assert g.state.prompt.kind == "draw", g.state.prompt
    g.do("draw", card=card)


def test_mario_bf13_corrected_to_collect_5_pays_the_player_5() -> None:
    g = corrected("mario", ["Mario", "Luigi"], "bf-13", {
        "text": "Bowser trips! Collect 5 coins.", "effect": {"do": "collect", "amount": 5}})
    money = g.state.players[0].money
    land_and_draw(g, "bf-13")
    assert g.state.players[0].money == money + 5
    assert any("collects 5 coins" in e.say for e in g.events)


def test_pokemon_ad07_corrected_effect_applies() -> None:
    g = corrected("pokemon", ["Ash", "Misty"], "ad-07",
                  {"effect": {"do": "pay", "amount": 3}})
    money = g.state.players[0].money
    land_and_draw(g, "ad-07")
    assert g.state.players[0].money == money - 3


def test_monopolino_risk09_corrected_effect_applies() -> None:
    g = corrected("monopolino", ["Ann", "Ben"], "risk-09",
                  {"text": "Collect 4.", "effect": {"do": "collect", "amount": 4}})
    money = g.state.players[0].money
    land_and_draw(g, "risk-09")
    assert g.state.players[0].money == money + 4


@pytest.mark.parametrize(("effect", "message"), [
    ({"do": "fly"}, r"cards\.bf-13\.effect\.do = 'fly': no rule"),
    ({"do": "collect"}, r"cards\.bf-13\.effect: missing a required argument: 'amount'"),
    ({"do": "collect", "amount": 5, "times": 2}, r"cards\.bf-13\.effect: .*'times'"),
    ({"do": "collect", "amount": "five"}, r"cards\.bf-13\.effect\.amount: a whole number"),
    ({"do": "move_to", "space": "moon"}, r"no space 'moon'"),
    ({"amount": 5}, r"cards\.bf-13\.effect: choose what the card does"),
])
def test_a_wrong_effect_is_refused_with_the_field(effect: dict[str, Any], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        corrected("mario", ["Mario", "Luigi"], "bf-13", {"effect": effect})


def test_a_text_only_correction_still_works_and_keeps_the_effect() -> None:
    g = corrected("mario", ["Mario", "Luigi"], "bf-13", {"text": "Trip. Pay 1 coin."})
    assert g.state.b.card("bf-13").effect == {"do": "pay", "amount": 1}
    assert g.state.b.card("bf-13").text == "Trip. Pay 1 coin."


def test_a_card_corrected_to_advance_to_the_nearest_space_of_a_kind() -> None:
    g = corrected("mario", ["Mario", "Luigi"], "bf-13",
                  {"text": "Run to the nearest Question Block.",
                   "effect": {"do": "move_to_nearest", "kind": "card"}})
    land_and_draw(g, "bf-13")
    mario = g.state.players[0]
    assert g.state.b.spaces[mario.position].id == "question-block-2"
    assert g.state.prompt.kind == "draw" and g.state.prompt.data["deck"] == "question-block"


def test_a_nearest_kind_not_on_the_board_is_refused() -> None:
    with pytest.raises(SetupError, match=r"cards\.bf-13\.effect\.kind: no space of kind 'moon'"):
        corrected("mario", ["Mario", "Luigi"], "bf-13",
                  {"effect": {"do": "move_to_nearest", "kind": "moon"}})


def test_every_declared_effect_is_documented_in_docs_cards_md() -> None:
    from pathlib import Path

    from companion.engine.registry import declared
    from companion.plugins.editions import find_edition

    doc = (Path(__file__).resolve().parents[2] / "docs" / "cards.md").read_text("utf-8")
    for edition in ("mario", "pokemon", "starwars", "monopolino"):
        for word in declared(type(find_edition(edition)))["effect"]:
            assert f"`{word}`" in doc, f"{edition}: effect {word!r} is not in docs/cards.md"
