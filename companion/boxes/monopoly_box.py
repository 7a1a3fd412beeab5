"""A Monopoly box's profile: the board and cards the owner corrects (companion/engine/box.py),
for every edition of the family that declares no ``box`` of its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine import i18n
from companion.engine.box import BoxProfile
from companion.engine.i18n import Msg, said
from companion.engine.types import SetupError
from companion.monopoly import board_edit
from companion.monopoly.board import _raw, load_board
from companion.monopoly.effect_words import effect_choices


class MonopolyBox(BoxProfile):
    """The board corrected and checked against the rulebook's totals; facts confirmed on it."""

    def check(self, rules: Any, settings: Mapping[str, Any]) -> None:
        try:
            board_edit.edit_spaces(rules.name, _raw(rules.name), settings.get("board") or {},
                                   strict=True)
        except SetupError as exc:
            raise SetupError(Msg("settings.board.{error}", error=said(exc))) from None

    def unverified(self, rules: Any, settings: Mapping[str, Any]) -> list[str]:
        return list(load_board(rules.name, settings.get("board")).data["unverified_facts"])

    def confirm(self, rules: Any, settings: dict[str, Any], fact: str) -> None:
        board = settings.setdefault("board", {})
        board.setdefault("confirmed", []).append(fact)

    def editor(self, rules: Any, profile: Mapping[str, Any], facts: list[str]
               ) -> dict[str, Any]:
        board = load_board(rules.name, profile["settings"].get("board"))
        # the box's words in its language: what its owner reads on it and corrects
        data = _board_data(rules, profile, board, facts, _raw(rules.name))
        return {"board": i18n.localized(data, board.language) | {"language": board.language}}


def _board_data(rules: Any, profile: Mapping[str, Any], board: Any, facts: list[str],
                raw: Any) -> dict[str, Any]:
    marks = board_edit.facts_by_space(facts)
    tags = {obj: uid for uid, obj in profile["tags"].items()}
    return {
        "spaces": [{"id": s.id, "name": s.name, "kind": s.kind, "color": s.color,
                    "price": s.price, "rent": s.rent, "amount": s.amount, "deck": s.deck,
                    "unverified": marks.get(s.id, [])} for s in board.spaces],
        "kinds": sorted(board_edit.handled_kinds(rules.name, raw["spaces"])),
        "colors": dict(board.color_names),
        "decks": dict(board.deck_titles),
        "cards": [{"id": c.id, "deck": deck, "text": c.text, "effect": dict(c.effect),
                   "tag": tags.get(f"card:{c.id}"), "unverified": marks.get(c.id, [])}
                  for deck, cards in board.decks.items() for c in cards],
        "layout_unverified": "board.layout" in facts,
        "currency": board.currency.to_json(),
        # what a card may do, in words, for the effect editor (web/static/effects.js)
        **effect_choices(type(rules), board),
    }
