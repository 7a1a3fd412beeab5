"""The pseudo-language check shared by the page's and the OLED's tests (issue 30, item 6):
which words a table may show undecorated (the box's and the rulebook's, names, numbers, money,
codes) and whether a text shown has any other word outside the catalogue's ⟦…⟧."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from companion.engine.i18n import Msg
from companion.plugins.editions import find_edition, known
from companion.service.game_service import GameService

ALLOWED = ["Board Companion", "Language", "Lingua", "Idioma", "English", "Italiano", "Español"]
"""Words that are never translated: the product's name and the language picker's own words
(each language by its own name, "Language" in the three)."""
ANY_LANGUAGE = [re.compile(p) for p in (
    r"\b[0-9A-F]{4}(?:-[0-9A-F]{4}){2}\b",  # a seat key, shown and typed as printed
    r"\b\d{1,2} [A-Z][a-z]{2} \d{4}\b",      # a date (the pseudo-language's are English)
    r"[€₥]", r"\b\d+(?:[.,]\d+)*\b")]        # money and numbers

def _plain_strings(value: Any, keys: set[str], path: tuple[str, ...] = ()) -> Iterator[str]:
    """The plain text (never a message: a message must show decorated) under ``keys``;
    a card's ``text`` too (the box's printed words)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, str) and not isinstance(v, Msg) and v and (
                    k in keys or (k == "text" and "cards" in path)):
                yield v
            elif isinstance(v, dict | list):
                yield from _plain_strings(v, keys, (*path, k))
    elif isinstance(value, list):
        for v in value:
            if isinstance(v, str) and not isinstance(v, Msg) and path and path[-1] in (
                    "winners", "pokemon", "bank_auctions", "waiting_for"):
                yield v
            else:
                yield from _plain_strings(v, keys, path)


def _box_language_words(edition: str) -> set[str]:
    """The box's words in its own language (Monopolino's are Italian): the profile editor shows
    a box as printed, marked with its language (``lang``), whatever the phone reads."""
    from companion.engine.i18n import render
    from companion.monopoly.board import load_board

    try:
        board = load_board(edition)
    except Exception:  # an edition without a board file (Master Trainer)
        return set()
    words = [s.name for s in board.spaces] + list(board.deck_titles.values())
    words += list(board.color_names.values())
    words += [c.text for cards in board.decks.values() for c in cards]
    return {render(w, board.language) for w in words}


BOX_KEYS = {"name", "token", "space", "title", "partner", "deck_title", "color_name"}
"""Where the box's own words are in a view or a setup (with the players' names)."""


class Table:
    """The words a table may show untranslated: the box's and the rulebook's."""

    def __init__(self, service: GameService, edition: str) -> None:
        self.service, self.edition = service, edition
        self.words = set(ALLOWED)
        from companion.service.rules_lookup import passages
        for name in known():  # the setup form shows any edition's box
            rules = find_edition(name)
            self.words.add(str(getattr(rules, "title", name)))
            info = rules.setup_info()
            self.words |= set(_plain_strings(info, BOX_KEYS)) | set(info.get("tokens", []))
            board = info.get("board") or {}
            self.words |= _box_language_words(name)
            self.words |= {str(s["label"]) for s in board.get("effect_spaces", [])}
            self.words |= {str(c["label"]) for c in board.get("effect_colors", [])}
            for p in passages(name, {}):
                if p["kind"] == "rule":  # the rulebook's own words, quoted (readings are ours)
                    self.words |= {p["title"], p["text"]}
        from companion.service import prompt_help
        for help_ in prompt_help.explanations(edition).values():  # its rule, quoted
            self.words.add(str(help_.get("rule") or ""))

    def learn(self, game_id: str) -> None:
        """The game's own names: its players'. Its box's words are not allowed: they are
        decorated like every message when they come through the box's words (``Word``)."""
        for viewer in [None, *(p["id"] for p in self.service.view(game_id, None)["players"])]:
            view = self.service.view(game_id, viewer)
            self.words |= {str(p["name"]) for p in view["players"]}

    def left(self, text: str) -> bool:
        """Whether ``text`` has a word that is neither decorated nor allowed."""
        rest = text.replace("\u00ad", "")  # soft hyphens in long names
        while True:  # a message inside a message: ⟦Your turn: ⟦Roll the dice⟧⟧
            inner = re.sub(r"⟦[^⟦⟧]*⟧", " ", rest)
            if inner == rest:
                break
            rest = inner
        # a sentence with an element inside (trNodes) spans several text nodes: its first
        # one opens ⟦ and its last one closes ⟧ (and the OLED wraps one over several lines)
        rest = re.sub(r"⟦.*$", " ", re.sub(r"^.*⟧", " ", rest))
        for w in sorted((w for w in self.words if w and w.strip()), key=len, reverse=True):
            rest = rest.replace(w, " ")
        for rx in ANY_LANGUAGE:
            rest = rx.sub(" ", rest)
        return bool(re.search(r"[^\W\d_]", rest))  # a letter left: a word nobody translated
