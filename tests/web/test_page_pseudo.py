"""Nothing left untranslated (issue 30, item 6): Monopolino and Monopoly Star Wars played to
their end on three phones in the pseudo-language (tests/web/pseudo_page.py); the pages drawn
without script in it too. The other editions have a file each (test_page_pseudo_*.py)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from page_driver import CHROMIUM, running_server
from pseudo_page import chromium, get, play_in_pseudo

pytestmark = [pytest.mark.long(4),
              pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.mark.parametrize("edition", ["monopolino", "starwars"])
def test_a_whole_game_shows_no_word_outside_the_catalogue(edition: str, browser: Any,
                                                          tmp_path: Any) -> None:
    play_in_pseudo(edition, browser, tmp_path)


def test_the_wifi_page_in_the_pseudo_language(tmp_path: Any) -> None:
    """The pages the companion draws without script: their words from the catalogue."""
    with running_server(tmp_path) as (base, _service):
        page = get(base + "/")
        assert '<html lang="qps">' in page and "⟦Loading…⟧" in page, page
