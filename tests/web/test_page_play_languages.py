"""Each edition's play screen on an Italian and a Spanish phone (issue 41): the page and the
game's lines in the phone's language. docs/screens/<edition>-play-<lang>.png pictures each
(taken again with UPDATE_SCREENS=1, as the other screenshots)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from page_driver import ROOT, expect, join, join_code, new_phone, running_server, setup_game, steady

from companion.plugins.editions import known

WORDS = {"it": ("Tavolo", "Appena successo"), "es": ("Mesa", "Acaba de pasar")}
"""The Table tab and "What just happened", in each language."""


@pytest.mark.parametrize("lang", sorted(WORDS))
@pytest.mark.parametrize("edition", sorted(known()))
def test_an_editions_play_screen_in_the_phones_language(browser: Any, tmp_path: Path,
                                                         edition: str, lang: str) -> None:
    errors: list[str] = []
    table, happened = WORDS[lang]
    with running_server(tmp_path) as (base, service):
        game_id, ids = setup_game(service, edition, "play")
        page = new_phone(browser, errors, locale=f"{lang}-{lang.upper()}", bypass_csp=True)
        join(page, base, join_code(service, game_id), ids[0])
        steady(page, service.state(game_id)[0])
        expect()(page.locator("html")).to_have_attribute("lang", lang)
        expect()(page.locator("#tab-table")).to_have_text(table)
        expect()(page.get_by_role("list", name=happened).locator("li").first).to_be_visible()
        if os.environ.get("UPDATE_SCREENS"):
            page.screenshot(path=str(ROOT / "docs" / "screens" / f"{edition}-play-{lang}.png"),
                            full_page=True)
        page.context.close()
    assert errors == []
