"""The card and board editors name every effect and kind of space in words, declared by the
edition's rules beside them (``effect_words``, ``kind_words``), never by an id."""

from __future__ import annotations

import pytest

from companion.monopoly.board import load_board
from companion.monopoly.effect_words import effect_choices
from companion.monopoly.rules import MonopolyRules
from companion.plugins.editions import find_edition, known

FAMILY = [e for e in sorted(known()) if isinstance(find_edition(e), MonopolyRules)]


@pytest.mark.parametrize("edition", FAMILY)
def test_every_effect_and_kind_has_its_editions_words(edition: str) -> None:
    rules = find_edition(edition)
    offered = effect_choices(type(rules), load_board(edition))
    unnamed = [e["do"] for e in offered["effects"] if e["do"] not in rules.effect_words]
    assert not unnamed, f"{edition}: effects without words: {unnamed}"
    kinds = [k["value"] for k in offered["effect_kinds"] if k["value"] not in rules.kind_words]
    assert not kinds, f"{edition}: kinds of space without words: {kinds}"
    assert {k["value"]: k["label"] for k in offered["effect_kinds"]}["go"] == "GO"
