"""The banker's undo and the history name a move in its edition's words ("Ann's call for
rent"), declared by that edition's rules (``move_words``), the engine's own in game_record."""

from __future__ import annotations

from companion.engine import i18n
from companion.plugins.editions import find_edition
from companion.service.game_record import move_words

NAMES = {"p1": "Ann"}


def said(kind: str, edition: str, lang: str = i18n.SOURCE) -> str:
    return i18n.render(move_words({"type": kind, "actor": "p1"}, NAMES, find_edition(edition)),
                       lang)


def test_each_edition_names_its_own_moves() -> None:
    assert said("ask_rent", "mario") == "Ann's call for rent"
    assert said("time_machine", "master-trainer") == "Ann's Time Machine"
    assert said("buy", "pokemon") == "Ann's purchase"  # the family's
    assert said("roll", "master-trainer") == "Ann's roll"  # the engine's
    assert said("time_machine", "mario") == "Ann's move"  # not a Mario command


def test_the_banker_moves_too() -> None:
    told = i18n.render(move_words({"type": "transfer"}, NAMES, find_edition("starwars")),
                       i18n.SOURCE)
    assert told == "the banker's transfer"
