"""The setup form marks a field as an unverified default from the board's unverified fact ids
(``spaces.<id>.price``, ``cards.<id>.text``), never from the words of the edition's notes."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.monopoly import rules as monopoly_rules
from companion.monopoly.board import load_board
from companion.plugins.editions import find_edition


def _fields(facts: Any) -> set[str]:
    return {f.split(".")[2] for f in facts if f.split(".")[0] in ("spaces", "cards")}


@pytest.mark.parametrize("edition", ["mario", "starwars", "monopolino", "pokemon"])
def test_marked_fields_are_the_facts_fields(edition: str) -> None:
    info = find_edition(edition).setup_info()
    facts = load_board(edition).data["unverified_facts"]
    assert set(info["board"]["unverified"]) == _fields(facts)


def test_notes_in_the_box_language_still_mark_prices_and_rents(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Mario's notes said in Italian ("prezzi", "affitti"): the same facts are unverified,
    so the same fields are dashed on the form."""
    board = load_board("mario")
    italian = replace(board, unverified=("nomi dei luoghi", "ordine dei colori sul tabellone",
                                         "prezzi", "affitti", "testi delle carte"))
    monkeypatch.setattr(monopoly_rules, "load_board", lambda name, *a, **k: italian)
    marked = set(find_edition("mario").setup_info()["board"]["unverified"])
    assert {"name", "price", "rent", "text"} <= marked
