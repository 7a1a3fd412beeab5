"""Monopoly: Pokémon Edition reads in Italian and Spanish: every log line, prompt, label and
choice of each example game is a message translated in both, with no English words passed
inside one (tests/i18n/untranslated.py); Poké Balls are counted one or many as the Spanish
box does, Pokémon names stay, and the catching odds are written with the reader's decimal
comma."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from companion.editions.pokemon import data
from companion.engine.i18n import render
from tests.i18n.untranslated import EXAMPLES, english_arguments, english_left, shown

GAMES = sorted(EXAMPLES.glob("pokemon-*.json"))


@pytest.mark.parametrize("lang", ["it", "es"])
@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_pokemon_game_has_no_english_left(path: Path, lang: str) -> None:
    assert english_left(path, lang) == []


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_no_english_words_ride_inside_a_pokemon_message(path: Path) -> None:
    assert english_arguments(path) == []


def _read(lang: str) -> str:
    return "\n".join(render(t, lang) for t in shown(EXAMPLES / "pokemon-four-trainers.json"))


@pytest.mark.parametrize(("lang", "sentences"), [
    ("it", ["Poké Ball! Ash cattura un Pokémon selvatico di tipo Roccia (rock-1) e lo mette "
            "sulla plancia.",
            "Brock vince la lotta 6 a 6 (in caso di pareggio vince chi controlla il luogo): "
            "Dawn paga la tassa di lotta di 1 Poké Ball.",
            "Paga 2 Poké Ball per esplorare",
            "Lapras! Brock: viaggia fino a una casella qualsiasi entro il prossimo Lapras, o "
            "resta qui",
            "ha completato la plancia con tutti e 8 i tipi e vince!"]),
    ("es", ["¡Poké Ball! Ash captura un Pokémon salvaje de tipo Roca (rock-1) y lo pone en su "
            "tablero.",
            "Brock gana el combate 6 a 6 (el empate es para quien controla el lugar): Dawn paga "
            "la cuota de combate de 1 Poké Ball.",
            "Pagar 2 Poké Balls para explorar",
            "¡Lapras! Brock: viaja a cualquier casilla hasta el siguiente Lapras, o quédate",
            "ha completado su tablero con los 8 tipos y gana!"]),
])
def test_a_trainer_reads_the_game_in_their_language(lang: str, sentences: list[str]) -> None:
    text = _read(lang)
    assert [s for s in sentences if s not in text] == []


@pytest.mark.parametrize(("lang", "want"), [
    ("en", "chance to catch within your Poké Balls: 1/6 (16.7%, 1 roll)"),
    ("it", "probabilità di cattura con le tue Poké Ball: 1/6 (16,7%, 1 tiro)"),
    ("es", "probabilidad de captura con tus Poké Balls: 1/6 (16,7\u00a0%, 1 tirada)"),
])
def test_the_odds_use_the_readers_decimal_comma(lang: str, want: str) -> None:
    odds = data.catch_odds(1, 6, 0, 1)
    assert render(data.odds_text(odds), lang) == want
    assert str(data.percent_msg(Fraction(1, 2))) == data.catch_odds(3, 6, 0, 1)["percent_text"]


@pytest.mark.parametrize("chance", [Fraction(0), Fraction(1), Fraction(1, 2), Fraction(1, 6),
                                    Fraction(1, 3000), Fraction(2999, 3000), Fraction(5, 36)])
def test_the_english_percentage_is_the_one_the_odds_store(chance: Fraction) -> None:
    """The stored odds keep their English ``percent_text``; the message reads the same."""
    assert str(data.percent_msg(chance)) == data._percent_text(chance)
