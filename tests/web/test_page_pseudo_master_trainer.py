"""Nothing left untranslated (issue 30, item 6): a whole Pokémon Master Trainer game played to
its end on three phones in the pseudo-language, every screen looked at
(tests/web/pseudo_page.py)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from page_driver import CHROMIUM
from pseudo_page import chromium, play_in_pseudo

pytestmark = [pytest.mark.long(3),
              pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def test_a_whole_game_shows_no_word_outside_the_catalogue(browser: Any, tmp_path: Any) -> None:
    play_in_pseudo("master-trainer", browser, tmp_path)
