"""Monopoly: Star Wars reads in Italian and Spanish: every log line, prompt, label and choice
of each example game is a message translated in both (tests/i18n/untranslated.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.i18n.untranslated import EXAMPLES, english_left

GAMES = sorted(EXAMPLES.glob("starwars-*.json"))


@pytest.mark.parametrize("lang", ["it", "es"])
@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_star_wars_game_has_no_english_left(path: Path, lang: str) -> None:
    assert english_left(path, lang) == []
