"""The box's own words in the reader's language (issue 41, items 1 and 2): space names, card
texts, deck titles, colours, tokens and types travel as data (an id and each language's word,
``engine.i18n.Word``) and every surface renders them in its reader's language, so one thing
has one name on a phone: a Monopolino game read in Italian says LOTTERIA, RISCHIO, TIRO A
SEGNO, Dolciumi, VIA and its BOTTEGHINO cards in Italian, as its rulebook prints them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.engine.i18n import PSEUDO, catalogue, localized, render
from companion.engine.types import GameSetup
from companion.monopoly.board import load_board
from companion.plugins.editions import find_edition
from companion.service import game
from companion.service.script import load_script, parse_step, script_setup

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _states(name: str) -> Iterator[tuple[Any, list[str]]]:
    """Each state of example ``name`` after each step, with the lines said so far."""
    data = load_script(EXAMPLES / name)
    events = game.new_game(GameSetup.from_json(script_setup(data)))
    state = game.replay(events)
    said = [e.say for e in events if e.say]
    yield state, said
    for step in data.get("steps", []):
        new, state = game.step(state, parse_step(state, step))
        said += [e.say for e in new if e.say]
        yield state, said


def _read(name: str, lang: str) -> str:
    """Everything example ``name`` shows in ``lang``: its lines, prompts and the OLED's view
    (``localized``, as hardware/display.py draws it) at every step."""
    out: list[str] = []
    for state, said in _states(name):
        view = localized(game.view(state), lang)
        if view.get("prompt"):
            out.append(str(view["prompt"]["text"]))
        out += [str(a["label"]) for a in view.get("actions", [])]
        out += [str(p.get("space", "")) for p in view["players"]]
        if state.finished:
            out += [render(s, lang) for s in said]
    return "\n".join(out)


@pytest.fixture(scope="module")
def italian() -> str:
    return _read("monopolino-4-players.json", "it") + _read("monopolino-2-players.json", "it")


def test_monopolino_in_italian_says_lotteria_not_lottery(italian: str) -> None:
    assert "LOTTERIA" in italian
    assert "LOTTERY" not in italian


def test_monopolino_in_italian_says_rischio_for_its_cards_and_spaces(italian: str) -> None:
    assert "pesca RISCHIO" in italian
    assert not re.search(r"\bRISK\b", italian)


def test_monopolino_in_italian_says_tiro_a_segno_dolciumi_and_palloncini(italian: str) -> None:
    assert "TIRO A SEGNO" in italian and "SHOOTING GALLERY" not in italian
    assert "Dolciumi" in italian and "Sweets" not in italian
    assert "Palloncini" in italian and "Balloons" not in italian


def test_monopolino_in_italian_names_its_colours_in_italian(italian: str) -> None:
    assert "casella Viola" in italian
    assert not re.search(r"\b(Purple|Light blue|Dark blue)\b", italian)


def test_the_default_monopolino_box_says_via_to_an_italian_reader(italian: str) -> None:
    board = load_board("monopolino")
    assert render(board.spaces[0].name, "it") == "VIA"
    assert render(board.spaces[0].name, "en") == "START"
    assert "START" not in italian


def test_the_booth_card_reads_botteghino_in_italian(italian: str) -> None:
    board = load_board("monopolino")
    text = render(board.card("risk-15").text, "it")
    assert text.startswith("BOTTEGHINO:") and "VIOLA" in text
    assert "BOTTEGHINO:" in italian and "BOOTH" not in italian


def test_an_owners_correction_of_a_name_wins_for_its_language() -> None:
    board = load_board("monopolino", {"spaces": {"toy-street": {"name": {"it": "Via Balocchi"}}},
                                      "cards": {"risk-09": {"text": "VAI… in Via Balocchi."}}})
    name = board.find("toy-street").name
    assert render(name, "it") == "Via Balocchi"
    assert render(name, "es") == render(load_board("monopolino").find("toy-street").name, "es")
    text = board.card("risk-09").text  # typed without a language: the printed words, for all
    assert render(text, "en") == render(text, "es") == "VAI… in Via Balocchi."


def test_the_shipped_translations_are_marked_unverified_and_can_be_confirmed() -> None:
    facts = load_board("monopolino").data["unverified_facts"]
    assert "spaces.toy-street.name.it" in facts and "spaces.start.name.it" not in facts
    board = load_board("monopolino", {"confirmed": ["spaces.toy-street.name.it"]})
    assert "spaces.toy-street.name.it" not in board.data["unverified_facts"]


# -- the pseudo-language: every box word on a phone's view goes through the box's words -------
BOARDS = {"monopolino": "monopolino-4-players.json", "starwars": "starwars-digital.json",
          "mario": "mario-three-players.json", "pokemon": "pokemon-four-trainers.json"}
"""One example game of each edition with a board file."""
ONE_GAME = {**BOARDS, "master-trainer": "master-trainer-three-players.json"}
"""One example game of each edition (Master Trainer's spaces, cards and attacks are catalogue
messages, tests/i18n/test_master_trainer_words.py; its Pokémon and Rivals are box words)."""


def _box_words(edition: str) -> set[str]:
    """Every English word of the edition's box: space names, deck titles, card texts, colour
    names, tokens and Pokémon types, as the data file ships them (Master Trainer: its chips'
    Pokémon, its Rivals and their Pokémon)."""
    if edition == "master-trainer":
        from companion.editions.master_trainer.data import load

        data = load()
        return ({str.__str__(c.name) for c in data.chips.values()}
                | {str.__str__(r.name) for r in data.rivals.values()}
                | {str.__str__(r.pokemon) for r in data.rivals.values()})
    board = load_board(edition)
    words = {str.__str__(s.name) for s in board.spaces}
    words |= {str.__str__(t) for t in board.deck_titles.values()}
    words |= {str.__str__(c.text) for cards in board.decks.values() for c in cards}
    words |= {str.__str__(n) for n in board.color_names.values()}
    words |= {str.__str__(t) for t in board.tokens}
    words |= {str(t["name"]) for t in dict(board.data.get("types", {})).values()}
    return words


def _undecorated(text: str) -> str:
    """``text`` without its ⟦…⟧ parts (nested ones too)."""
    while True:
        inner = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
        if inner == text:
            return text
        text = inner


def _strings(value: Any) -> Iterator[str]:
    """Every text in a view (the data file's notes on its unverified facts too)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


@pytest.mark.parametrize("edition", sorted(ONE_GAME))
def test_pseudo_language_game_shows_no_undecorated_box_word_on_the_phones_view(
        edition: str) -> None:
    """Every seat's view at every step of a game, rendered in the pseudo-language as the page
    renders it: no space name, card text, deck title, colour, token or type is left
    undecorated (each is one of the box's words, rendered in the reader's language)."""
    words = sorted(_box_words(edition), key=len, reverse=True)
    pattern = re.compile("|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in words))
    left: set[str] = set()
    for state, _said in _states(ONE_GAME[edition]):
        for seat in [None, *(p.id for p in state.setup.players)]:
            view = game.view(state, seat)
            view.pop("actions", None)
            for text in _strings(localized(view, PSEUDO)):
                left |= set(pattern.findall(_undecorated(text)))
    assert sorted(left) == []


def test_every_edition_with_a_board_has_its_words_in_italian_and_spanish() -> None:
    for edition in BOARDS:
        board = load_board(edition)
        for lang in ("it", "es"):
            for s in board.spaces:
                assert render(s.name, lang), (edition, s.id, lang)
            missing = [c.id for cards in board.decks.values() for c in cards
                       if render(c.text, lang) == str.__str__(c.text)]
            assert missing == [], (edition, lang)
    assert find_edition("monopolino").setup_info()["language"] == "it"


def test_the_pot_is_il_montepremi_in_italian_never_il_piatto() -> None:
    """One name for the pot on an Italian phone (the LOTTERIA's and Free Parking's)."""
    cat = catalogue("it")
    assert cat is not None
    said = {str(m.id): str(m.string) for m in cat if isinstance(m.id, str) and m.id
            and re.search(r"\bpot\b", m.id)}
    assert said and [k for k, v in said.items() if "piatto" in v] == []
    assert all("montepremi" in v.lower() for v in said.values() if v)


@pytest.mark.parametrize("lang", ["it", "es"])
def test_a_reading_that_quotes_a_monopolino_card_quotes_it_in_the_readers_language(
        lang: str) -> None:
    cat = catalogue(lang)
    assert cat is not None
    quoting = {str(m.id): str(m.string) for m in cat if isinstance(m.id, str)
               and re.search(r"Pay (EUR |€)0.50", m.id)}
    assert quoting and {k: v for k, v in quoting.items() if "Pay" in v} == {}


def test_a_words_file_naming_a_word_its_data_file_lacks_is_refused_at_start_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.engine.seeds import SeedError
    from companion.monopoly import board

    for edition in BOARDS:  # the shipped files name only their editions' words
        board.check_words(edition, board._raw(edition), f"seeds/{edition}.toml")
    monkeypatch.setattr(board, "_words", lambda edition: {"it": {"spaces": {"via-roma": "X"}}})
    with pytest.raises(SeedError, match=r"monopolino.it.toml: spaces.via-roma is not a word"):
        board.check_words("monopolino", board._raw("monopolino"), "seeds/monopolino.toml")


# -- the edition's notes on its unverified facts are box words too ----------------------------
@pytest.mark.parametrize("edition", sorted(BOARDS))
def test_the_setup_forms_and_the_views_notes_on_unverified_facts_read_in_italian(
        edition: str) -> None:
    """An Italian phone's setup form and game view say which facts are guessed in Italian."""
    english = [str.__str__(n) for n in load_board(edition).unverified]
    notes = localized(find_edition(edition).setup_info(), "it")["unverified"]
    assert len(notes) == len(english) and not set(notes) & set(english), notes
    state = next(_states(BOARDS[edition]))[0]
    assert localized(game.view(state), "it")["board"]["unverified"] == notes
    assert localized(find_edition(edition).setup_info(), "es")["unverified"] != notes


def test_monopolinos_notes_name_the_board_order_in_italian() -> None:
    notes = localized(find_edition("monopolino").setup_info(), "it")["unverified"]
    assert notes[0] == "ordine delle caselle"


def test_a_words_file_with_more_notes_than_its_data_file_is_refused_at_start_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.engine.seeds import SeedError
    from companion.monopoly import board

    monkeypatch.setattr(board, "_words",
                        lambda edition: {"it": {"edition": {"unverified": ["x"] * 9}}})
    with pytest.raises(SeedError, match=r"mario.it.toml: edition.unverified has more notes"):
        board.check_words("mario", board._raw("mario"), "seeds/mario.toml")
