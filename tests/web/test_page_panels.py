"""An edition's own section of the table arrives as data in its words (view.panels) and the
page draws it for every edition alike (web/static/panels.js): a phone reads it in its own
language, the pot in its own digits."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from page_driver import expect, join, join_code, new_phone, running_server, setup_game, steady


@contextmanager
def seated_phone(browser: Any, tmp_path: Path, edition: str, locale: str) -> Iterator[Any]:
    """A phone in ``locale`` seated at a game of ``edition`` played to its middle; its page
    and the game's service. No page error may happen meanwhile."""
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        game_id, ids = setup_game(service, edition, "play")
        page = new_phone(browser, errors, locale=locale, bypass_csp=True)
        join(page, base, join_code(service, game_id), ids[0])
        steady(page, service.state(game_id)[0])
        yield page, service.view(game_id, None)
        page.context.close()
    assert errors == []


def test_monopolinos_booths_and_lottery_in_spanish(browser: Any, tmp_path: Path) -> None:
    with seated_phone(browser, tmp_path, "monopolino", "es-ES") as (page, view):
        section = page.get_by_role("region", name="Casetas y LOTERÍA")
        expect()(section).to_contain_text(re.compile(r"Bote de la LOTERÍA: €\d+,\d\d"))
        lines = section.get_by_role("listitem")
        expect()(lines).to_have_count(len(view["players"]))
        expect()(lines.first).to_contain_text(re.compile(r"le quedan? \d+ casetas?"))
        expect()(section).to_contain_text(re.compile(r"Cartas RIESGO: \d+ en el mazo"))


def test_star_wars_force_powers_in_italian_with_their_die_faces(browser: Any,
                                                                 tmp_path: Path) -> None:
    with seated_phone(browser, tmp_path, "starwars", "it-IT") as (page, _):
        section = page.get_by_role("region", name="Usa la Forza")
        powers = section.get_by_role("list").first.get_by_role("listitem")
        expect()(powers).to_have_count(6)
        for face in range(1, 7):
            expect()(powers.nth(face - 1).get_by_role("img", name=f"dadi: {face}",
                                                      exact=True)).to_be_visible()
        expect()(section).to_contain_text(re.compile(r"\d+ segnalin[oi] rimast[oi]"))
