"""Monopoly: The Super Mario Bros. Movie Edition reads in Italian and Spanish: every log line,
prompt, label and choice of each example game is a message translated in both, with no
English words passed inside one (tests/i18n/untranslated.py); a player reads coins as
"monete" / "monedas", one or many, and GAME OVER as the cards print it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from companion.editions.mario import MarioRules, MarioValues
from companion.engine.i18n import render
from companion.engine.types import GameSetup
from companion.monopoly.state import values_of
from companion.plugins.editions import find_edition
from companion.service import game
from companion.service.script import load_script, parse_step, script_setup
from tests.i18n.untranslated import EXAMPLES, english_arguments, english_left, shown
from tests.playing import replay_export

GAMES = sorted(EXAMPLES.glob("mario-*.json"))
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "logs"


@pytest.mark.parametrize("lang", ["it", "es"])
@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_mario_game_has_no_english_left(path: Path, lang: str) -> None:
    assert english_left(path, lang) == []


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_no_english_words_ride_inside_a_mario_message(path: Path) -> None:
    assert english_arguments(path) == []


def _read(lang: str) -> str:
    return "\n".join(render(t, lang) for t in shown(EXAMPLES / "mario-three-players.json"))


@pytest.mark.parametrize(("lang", "sentences"), [
    ("it", ["Bowser avanza di 5 caselle (dado nero 5) fino a Lago di Lava.",
            "Bowser arriva su Pista Arcobaleno: GAME OVER, niente affitto finché il proprietario "
            "non sceglie di continuare.",
            "Luigi paga 1 moneta per rimettere in gioco Pista Arcobaleno: riscuote di nuovo "
            "l'affitto.",
            "La squadra fa 8 (7 o più) e batte Bowser: Luigi incassa 2 monete.",
            "Luigi incontra Bowser! Scegli un compagno di squadra per la battaglia",
            "Fai squadra con Peach",
            "Mario: tira un dado contro Bowser (Luigi ha fatto 6)"]),
    ("es", ["Bowser avanza 5 casillas (dado negro 5) hasta Lago de Lava.",
            "Bowser cae en Senda Arcoíris: GAME OVER, no cobra alquiler hasta que su dueño decida "
            "continuar.",
            "Luigi paga 1 moneda para continuar Senda Arcoíris: vuelve a cobrar alquiler.",
            "El equipo saca 8 (7 o más) y vence a Bowser: Luigi cobra 2 monedas.",
            "¡Luigi se encuentra con Bowser! Elige compañero para la batalla",
            "Formar equipo con Peach",
            "Mario: tira un dado contra Bowser (Luigi ha sacado 6)"]),
])
def test_a_player_reads_bowser_in_their_language(lang: str, sentences: list[str]) -> None:
    text = _read(lang)
    assert [s for s in sentences if s not in text] == []


def test_the_buttons_of_a_new_game_speak_italian_after_an_old_english_game_was_shown() -> None:
    """An old log's prompts hold plain English labels ("Roll against Bowser"); the same
    button in a new game is still a message (a remembered action must not be reused)."""
    for log in sorted(GOLDEN.glob("mario-*.jsonl")):
        state = replay_export(log.read_text("utf-8").splitlines())
        game.legal_actions(state)
    data = load_script(EXAMPLES / "mario-three-players.json")
    state = game.replay(game.new_game(GameSetup.from_json(script_setup(data))))
    labels = []
    for step in data["steps"]:
        _new, state = game.step(state, parse_step(state, step))
        labels += [render(a.label, "it") for a in game.legal_actions(state)]
    assert "Roll against Bowser" not in labels and "Tira contro Bowser" in labels


def test_the_end_when_bowser_has_every_location_is_translated() -> None:
    """The sentence that ends the game when all 16 locations are GAME OVER."""
    rules = find_edition("mario")
    assert isinstance(rules, MarioRules)
    data = load_script(EXAMPLES / "mario-two-players.json")
    state = game.replay(game.new_game(GameSetup.from_json(script_setup(data))))
    values = values_of(state, MarioValues)
    state = replace(state, ext=values.updated({"game_over": frozenset(state.b.ownable)}))
    result = rules.ended(state)
    assert result is not None
    assert render(result[1], "it") == ("Bowser ha messo in GAME OVER tutti e 16 i luoghi: il "
                                       "Regno dei Funghi è suo e perdono tutti.")
    assert render(result[1], "es") == ("Bowser ha puesto en GAME OVER los 16 lugares: el Reino "
                                       "Champiñón es suyo y todos pierden.")
    assert json.dumps(result[1]) == json.dumps(
        "Bowser has put all 16 locations in GAME OVER: the Mushroom Kingdom is his and "
        "everyone loses.")
