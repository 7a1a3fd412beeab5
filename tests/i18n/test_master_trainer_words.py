"""Pokémon Master Trainer (1999) reads in Italian and Spanish: every log line, prompt, label and
choice of each example game is a message translated in both (tests/i18n/untranslated.py), and
the sentences a trainer reads use the localized Pokémon words families know (Poké Ball,
Allenatore / Entrenador, Centro Pokémon, Isola Cannella / Isla Canela) with Pokémon names as
they are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.engine.i18n import Msg, Msgs, catalogue, localized, render
from companion.engine.types import GameSetup
from companion.plugins.editions import find_edition
from companion.service import game
from companion.service.script import load_script, parse_step, script_setup
from tests.i18n.untranslated import EXAMPLES, english_left, shown

GAMES = sorted(EXAMPLES.glob("master-trainer-*.json"))


@pytest.mark.parametrize("lang", ["it", "es"])
@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_master_trainer_game_has_no_english_left(path: Path, lang: str) -> None:
    assert english_left(path, lang) == []


def test_the_example_games_are_played_to_their_end() -> None:
    for path in GAMES:
        data = load_script(path)
        state = game.replay(game.new_game(GameSetup.from_json(script_setup(data))))
        for step in data["steps"]:
            _new, state = game.step(state, parse_step(state, step))
        if path.stem != "master-trainer-physical-items":  # a short script: no Final Battle
            assert state.finished, path.stem


def _lines(lang: str) -> list[str]:
    """Every text the example games show, rendered in ``lang``."""
    return [render(text, lang) for path in GAMES for text in shown(path)]


@pytest.fixture(scope="module")
def read() -> dict[str, str]:
    return {lang: "\n".join(_lines(lang)) for lang in ("en", "it", "es")}


ENGLISH = ("'s turn.", " rolled ", "Trainer Battle", "knocked out", "Item Card", "Power Points",
           "Pallet Town", "Cinnabar Island", "Pokémon Center", "Attack Bonus", " draws ")
"""English words a reader of another language must never meet in a Master Trainer game."""


def test_an_italian_trainer_reads_the_game_in_italian(read: dict[str, str]) -> None:
    it = read["it"]
    for sentence in (
        "È il turno di Misty.",
        "Misty sfida Ash a una Lotta tra Allenatori.",
        "Pikachu di Misty è esausto: non può lottare né contare i Punti Potenza finché non "
        "viene rianimato.",
        "Ash ha 20 Punti Potenza di Pokémon non esausti a fine turno: dritto all'Isola Cannella.",
        "Isola Cannella: Ash pesca 2 carte Strumento.",
        "Provi a catturare Ivysaur? Probabilità: Senza Poké Ball: 2 su 6 (33%). Al massimo una "
        "Poké Ball, giocata prima del tiro.",
        "Ash batte il Maestro Pokémon ed è il nuovo Allenatore Maestro!",
        "Misty, Ash: tirate un dado per la Lotta tra Allenatori.",
        "Tutti partono da Biancavilla.",
    ):
        assert sentence in it, sentence
    for english in ENGLISH:
        assert english not in it, english


def test_a_spanish_trainer_reads_the_game_in_spanish(read: dict[str, str]) -> None:
    es = read["es"]
    for sentence in (
        "Turno de Misty.",
        "Misty desafía a Ash a un Combate entre Entrenadores.",
        "Pikachu de Misty está debilitado: no puede luchar ni contar sus Puntos de Poder hasta "
        "que lo revivan.",
        "Isla Canela: Ash roba 2 cartas de Objeto.",
        "¿Intentas atrapar a Ivysaur? Probabilidades: Sin Poké Ball: 2 de 6 (33 %).",
        "¡Ash vence al Maestro Pokémon y es el nuevo Maestro Entrenador!",
        "Todos salen de Pueblo Paleta.",
    ):
        assert sentence in es, sentence
    for english in ENGLISH:
        assert english not in es, english


def test_counts_take_each_languages_plural() -> None:
    """One secret Attack Bonus card, or several: each language's own singular and plural."""
    def sent(n: int) -> Msg:  # the line battles.py says when a fighter is sent out
        return Msgs("{player} sends out {pokemon} with {n} secret Attack Bonus card.",
                    "{player} sends out {pokemon} with {n} secret Attack Bonus cards.", n,
                    player="Ash", pokemon="Pikachu")

    assert render(sent(1), "it") == "Ash manda in campo Pikachu con 1 carta Bonus Attacco segreta."
    assert render(sent(2), "it") == "Ash manda in campo Pikachu con 2 carte Bonus Attacco segrete."
    assert render(sent(1), "es") == "Ash saca a Pikachu con 1 carta de Bonus de Ataque secreta."
    assert render(sent(2), "es") == "Ash saca a Pikachu con 2 cartas de Bonus de Ataque secretas."


def test_english_still_reads_as_before(read: dict[str, str]) -> None:
    en = read["en"]
    assert "Misty's turn." in en
    assert "Misty challenges Ash to a Trainer Battle." in en
    assert "Ash beats the Pokémon Master and is the new Master Trainer!" in en


def test_the_view_and_the_tags_read_in_the_readers_language() -> None:
    """What the OLED and the page show beside the log (a trainer's place, the cards in hand,
    the catch odds, a tag's name) is rendered in the reader's language (i18n.localized)."""
    data = load_script(EXAMPLES / "master-trainer-two-players.json")
    state = game.replay(game.new_game(GameSetup.from_json(script_setup(data))))
    rules = find_edition("master-trainer")
    seen = {"it": "", "es": ""}
    for step in data["steps"][:40]:
        _new, state = game.step(state, parse_step(state, step))
        for lang in seen:
            seen[lang] += json.dumps(localized(rules.view(state, None), lang), ensure_ascii=False)
    assert "Biancavilla" in seen["it"] and "Pozione" in seen["it"] and " su 6 (" in seen["it"]
    assert "Pueblo Paleta" in seen["es"] and "Poción" in seen["es"] and " de 6 (" in seen["es"]
    for lang, text in seen.items():
        assert "Pallet Town" not in text and "Potion" not in text and " in 6 (" not in text, lang
    tags = dict(rules.tag_objects())
    assert render(tags["card:potion-1"], "it") == "Carta Strumento: Pozione (1 di 5)"
    assert render(tags["token:orange"], "es") == "Peón naranja"


def test_a_chips_attack_reads_by_its_name_in_the_readers_language(read: dict[str, str]) -> None:
    """The attack printed on a chip is a game term a child knows from the Pokémon games by its
    Italian or Spanish name (docs/translating.md): Bulbasaur's Leech Seed is Parassiseme and
    Drenadoras, Pikachu's Thundershock Tuonoshock and Impactrueno."""
    assert "Parassiseme 4" in read["it"] and "Tuonoshock " in read["it"]
    assert "Drenadoras 4" in read["es"] and "Impactrueno " in read["es"]
    assert "Leech Seed 4" in read["en"]
    for lang in ("it", "es"):
        assert "Leech Seed" not in read[lang] and "Thundershock" not in read[lang], lang


@pytest.mark.parametrize("lang", ["it", "es"])
def test_every_chips_attack_has_its_name_in_each_language(lang: str) -> None:
    from companion.editions.master_trainer.data import load

    cat = catalogue(lang)
    assert cat is not None
    missing = sorted({c.attack for c in load().chips.values()
                      if c.attack and not (cat.get(c.attack) and cat.get(c.attack).string)})
    assert missing == []
