"""A box profile carries its language (issue 30, item 4; issue 41): the banker's setup chooses
the box's language (``board.language``, Monopolino's is Italian unless set), the language its
owner's words are in. Every reader reads the box's shipped words in their own language (issue
41: START is VIA to an Italian phone, START to an English one, whatever the box); an owner's
corrected card text is the box's own words and stays as written for every reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.i18n import render
from companion.engine.types import SetupError
from companion.service.game_service import GameService

TEXT = "VAI… al VIA. Prendi €0,50."


def _setup(language: str | None) -> dict[str, object]:
    board: dict[str, object] = {"cards": {"risk-01": {"text": TEXT}}}
    if language:
        board["language"] = language
    return {"edition": "monopolino", "players": ["Zoë", "Дмитрий"], "seed": 1,
            "settings": {"board": board}}


def test_each_reader_reads_the_boxs_words_in_their_language(tmp_path: Path) -> None:
    with GameService(tmp_path) as svc:
        for language in ("it", "en", None):
            out = svc.create_game(_setup(language))
            assert out.ok, out.error
            start = svc.view(out.game_id, None)["board"]["spaces"][0]["name"]
            assert (render(start, "it"), render(start, "en")) == ("VIA", "START")


def test_a_box_profile_keeps_its_language_and_its_owners_words(tmp_path: Path) -> None:
    from companion.boxes.profiles import Profiles

    with GameService(tmp_path) as svc:
        def save() -> None:
            Profiles(svc.store.conn).save({"edition": "monopolino", "name": "la nostra scatola",
                                           "settings": {"board": _setup("it")["settings"][
                                               "board"]}, "tags": {}})  # type: ignore[index]
        svc.call(save)
        out = svc.create_game({"edition": "monopolino", "players": ["Zoë", "Дмитрий"],
                               "seed": 1, "profile": "la nostra scatola"})
        assert out.ok, out.error
        state = svc.state(out.game_id)[1]
        card = next(c for c in state.board.decks["risk"] if c.id == "risk-01")  # type: ignore[attr-defined]
        assert card.text == TEXT and render(card.text, "es") == TEXT


def test_an_unknown_box_language_is_refused_by_name() -> None:
    from companion.monopoly.board import load_board

    with pytest.raises(SetupError, match="box.s language is one of"):
        load_board("monopolino", {"language": "klingon"})
