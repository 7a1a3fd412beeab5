"""A Spanish phone at a Monopoly: Pokémon Edition table (issue 30): the game's lines, its
question and its buttons arrive as messages and read in Spanish, with the Spanish box's
Poké Balls; docs/screens/pokemon-play-es.png pictures it (test_page_play_languages.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from page_driver import expect, join, join_code, new_phone, running_server, setup_game, steady


def test_a_spanish_pokemon_game_pictured(browser: Any, tmp_path: Path) -> None:
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        game_id, ids = setup_game(service, "pokemon", "play")
        page = new_phone(browser, errors, locale="es-ES", bypass_csp=True)
        join(page, base, join_code(service, game_id), ids[0])
        steady(page, service.state(game_id)[0])
        expect()(page.locator("html")).to_have_attribute("lang", "es")
        said = page.get_by_role("list", name="Acaba de pasar")
        expect()(said).to_contain_text(re.compile(r"Poké Balls?\b"))
        expect()(said).to_contain_text(re.compile(r" captura | explorar | Tomar | combate "))
        text = said.inner_text()
        assert not re.search(r" (catches|pays|explore|battles|take control) ", text), text
        # a wild Pokémon to trade is named by its type, in the words the view's extra gives
        # the group the edition declares (page.assets[].groups), and its id leaves a line
        types = page.evaluate("S.view.extra.types")
        assert page.evaluate("assetName('pokemon', 'ice-1')") == f"Pokémon de tipo {types['ice']}"
        assert page.evaluate("words('Ana atrapa (ice-1)')") == "Ana atrapa"
        page.context.close()
    assert errors == []
