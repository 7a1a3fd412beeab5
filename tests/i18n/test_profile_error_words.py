"""A box profile's and a board correction's refusals are messages: the banker's phone reads them
in its language (the editor shows each next to the field it names, so the field path stays
first; the API answers a refusal in the asking phone's language, web/errors.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.boxes.profiles import ProfileError, check
from companion.engine.i18n import Msg, render, said

ENGLISH = re.compile(r"\b(the|is|not|of|has|an|choose|one|space|board|rulebook|needs|there|"
                     r"list|must|group|properties|whole|amount|object)\b", re.IGNORECASE)
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|“[^”]*”")

BAD = [
    ("starwars", {"spaces": {"imperial-palace": {"kind": "parking"}}}),
    ("starwars", {"language": "de"}),
    ("starwars", {"remove": ["go"]}),
    ("starwars", {"spaces": {"nope": {"price": 2}}}),
    ("starwars", {"add": [{"id": "X"}]}),
    ("starwars", {"order": ["go"]}),
    ("starwars", {"spaces": {"senate": {"price": -1}}}),
    ("starwars", {"confirmed": ["spaces.nope.price"]}),
    ("starwars", {"spaces": {"senate": {"color": "pink"}}}),
    ("starwars", {"colour": 1}),
    ("monopolino", {"remove": ["bumper-cars"]}),
]


def refusal(edition: str, board: dict[str, Any]) -> str:
    with pytest.raises(ProfileError) as info:
        check({"edition": edition, "name": "box", "settings": {"board": board}})
    return said(info.value)


@pytest.mark.parametrize(("edition", "board"), BAD)
@pytest.mark.parametrize("lang", ["it", "es"])
def test_a_board_refusal_reads_in_the_banker_s_language(edition: str, board: dict[str, Any],
                                                        lang: str) -> None:
    said_ = refusal(edition, board)
    assert isinstance(said_, Msg), said_
    text = render(said_, lang)
    field, _, words = text.partition(": ")
    assert field.startswith(("settings.board", "confirmed")), text  # the editor finds it
    left = ENGLISH.findall(QUOTED.sub("", words))
    assert left == [], text



PROFILE_BAD = [
    [],
    {"edition": "starwars", "name": "box", "colour": 1},
    {"format": 9, "edition": "starwars", "name": "box"},
    {"edition": "risk", "name": "box"},
    {"edition": "starwars", "name": "<>"},
    {"edition": "starwars", "name": "box", "note": 5},
    {"edition": "starwars", "name": "box", "settings": []},
    {"edition": "starwars", "name": "box", "tags": []},
    {"edition": "starwars", "name": "box", "tags": {"zz": "card:x"}},
    {"edition": "starwars", "name": "box", "tags": {"04A1B2C3": 5}},
    {"edition": "starwars", "name": "box", "tags": {"04A1B2C3": "card:nope"}},
]


@pytest.mark.parametrize("raw", PROFILE_BAD)
@pytest.mark.parametrize("lang", ["it", "es"])
def test_a_profile_file_refusal_reads_in_the_banker_s_language(raw: Any, lang: str) -> None:
    with pytest.raises(ProfileError) as info:
        check(raw)
    said_ = said(info.value)
    assert isinstance(said_, Msg), said_
    text = render(said_, lang)
    _field, _, words = text.partition(": ")
    left = ENGLISH.findall(QUOTED.sub("", words))
    assert left == [], text


CARDS_BAD = [
    {"nope": {"text": "x"}},
    {"ch-02": {"colour": "x"}},
    {"ch-02": {"text": ""}},
    {"ch-02": {"effect": 5}},
    {"ch-02": {"effect": {"do": "collect", "amount": -5}}},
    {"ch-02": {"effect": {"do": "collect", "amount": "five"}}},
    {"ch-02": {"effect": {"do": "move_to", "space": "nowhere"}}},
]


@pytest.mark.parametrize("cards", CARDS_BAD)
@pytest.mark.parametrize("lang", ["it", "es"])
def test_a_card_correction_refusal_reads_in_the_banker_s_language(cards: Any, lang: str) -> None:
    """A card's text or effect corrected wrongly in the editor is refused in the banker's
    language, its field first (the editor places it next to that card)."""
    said_ = refusal("starwars", {"cards": cards})
    assert isinstance(said_, Msg), said_
    text = render(said_, lang)
    field, _, words = text.partition(": ")
    assert field.startswith("cards."), text
    assert ENGLISH.findall(QUOTED.sub("", words)) == [], text
