"""Words the players read: grammar, the right pile, the buttons a prompt names, odds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.engine.types import IllegalCommand
from companion.service import game
from tests.playing import TableGame

ROOT = Path(__file__).resolve().parents[2]


def test_two_players_tied_at_an_early_end_are_richest_together() -> None:
    """"Luke and Leia is richest" read wrong: two names take "are"."""
    g = TableGame.start("starwars", ["Luke", "Leia"], settings={"early_end": "worth"})
    g.by("banker", "end_game")
    assert "Luke and Leia are richest with" in " ".join(g.says())


def test_monopolino_says_a_discarded_card_lies_on_the_face_up_discard_pile() -> None:
    """Monopolino's RISK cards go face up on a discard pile, not under the deck."""
    sys.path.insert(0, str(ROOT / "tests" / "monopolino"))
    try:
        from monopolino_table import Table
    finally:
        sys.path.pop(0)
    t = Table(decks="physical")
    t.roll(2)
    first = t.state.prompt.data["cards"][0]
    t.by("anna", "draw", card=first)
    while t.state.prompt is not None and t.state.prompt.kind != "turn":
        t.by(t.state.prompt.to[0], *(("draw", ) if t.state.prompt.kind == "draw" else ()),
             **({"card": t.state.prompt.data["cards"][0]} if t.state.prompt.kind == "draw"
                else {}))
    assert first in t.state.ext["discard"]["risk"]
    t.arrange("moved_to", player=t.state.turn_player.id, to=0)
    t.roll(2)
    assert t.state.prompt is not None and t.state.prompt.kind == "draw"
    with pytest.raises(IllegalCommand) as err:
        t.by(t.state.turn_player.id, "draw", card=first)
    text = str(err.value)
    assert "face-up discard pile" in text and "under the pile" not in text, text


def test_the_master_trainer_starter_prompt_names_only_what_the_buttons_do() -> None:
    """No "let the companion draw one" unless a button does it: the starter action offers
    the chips as a choice, and leaving it out is what the companion draws for."""
    g = TableGame.start("master-trainer", ["Ash", "Misty"])
    prompt = g.state.prompt
    assert prompt is not None and prompt.kind == "starter"
    actions = [a for a in game.legal_actions(g.state) if a.type == "starter"]
    labels = " ".join(a.label for a in actions)
    if "draw" in prompt.text.lower():
        assert "draw" in labels.lower(), (prompt.text, labels)


def js_chance(num: int, den: int) -> str:
    """The page's chance in words (web/static/i18n.js ``I18n.chance``), run by node in
    English."""
    words = (ROOT / "web" / "static" / "i18n.js").read_text("utf-8")
    script = ("globalThis.window = globalThis;\n" + words
              + f"process.stdout.write(JSON.stringify(I18n.chance({num}, {den})));")
    out = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    return str(json.loads(out.stdout))


def test_a_50_percent_catch_is_an_even_chance_not_likely() -> None:
    assert js_chance(1, 2).startswith("an even chance")
    assert js_chance(3, 4).startswith("very likely")
    assert js_chance(2, 3).startswith("likely")
    assert js_chance(1, 3).startswith("possible")


def test_a_chance_reads_the_same_on_the_page_and_on_the_table() -> None:
    """A chance sent as a message argument (i18n ``Chance``) is said by the page's i18n.js and
    by the companion (the OLED, the story) in the same words and digits."""
    from companion.engine.i18n import Chance, chance

    for num, den in ((1, 2), (3, 4), (2, 3), (1, 3), (0, 6), (6, 6), (16383, 16384),
                     (1, 1_000_000), (5, 6)):
        assert chance(Chance(num, den), "en") == js_chance(num, den), (num, den)
