"""The banker ends a game the same way in every edition, and the words say the edition's
rule (issue 39 items 4 and 9): the confirmation names the ranking the game was set up with,
a Master Trainer game ends from the banker tab, and during the starting roll the heading names
the player the prompt waits for."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from page_driver import ARGS, CHROMIUM, banker_login, expect, new_phone, running_server

from companion.service.game_service import GameService

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")


@pytest.fixture(scope="module")
def served(tmp_path_factory: Any) -> Iterator[tuple[str, GameService, Any]]:
    with running_server(tmp_path_factory.mktemp("state")) as (base, service), \
            playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield base, service, browser
        browser.close()


def banker_tab(browser: Any, base: str, game_id: str, lang: str = "") -> Any:
    """The banker's phone on the game's banker tab (read in ``lang``, if given)."""
    errors: list[str] = []
    bank = new_phone(browser, errors)
    banker_login(bank, base, game_id)
    if lang:
        bank.evaluate(f"localStorage.setItem('companion.lang', {lang!r})")
        bank.goto(f"{base}/?game={game_id}")
    bank.locator("#tab-banker").click()
    return bank


def test_ending_a_pokemon_game_ranked_by_types_says_so(
        served: tuple[str, GameService, Any]) -> None:
    base, service, browser = served
    out = service.create_game({"edition": "pokemon", "players": ["Ash", "Misty"],
                               "dice": "physical", "seed": 1})
    bank = banker_tab(browser, base, str(out.game_id))
    bank.locator('.careful [data-type="end_game"] button').click()
    alert = bank.locator('.careful [data-type="end_game"] [role=alert]')
    expect()(alert).to_contain_text("the most types on the tracker mat")
    expect()(alert).not_to_contain_text("richest")
    bank.get_by_role("button", name="Cancel").click()
    assert not service.view(str(out.game_id), None)["finished"]
    bank.context.close()


def test_the_banker_ends_a_master_trainer_game_from_the_banker_tab(
        served: tuple[str, GameService, Any]) -> None:
    base, service, browser = served
    out = service.create_game({"edition": "master-trainer", "players": ["Ash", "Misty"],
                               "dice": "physical", "seed": 1})
    gid = str(out.game_id)
    bank = banker_tab(browser, base, gid)
    bank.locator('.careful [data-type="end_game"] button').click()
    expect()(bank.locator('.careful [data-type="end_game"] [role=alert]')).to_contain_text(
        "the Trainer with the most Power Points of revived Pokémon")
    bank.locator('.careful [data-type="end_game"] [data-confirm=yes]').click()
    bank.locator("#tab-table").click()
    expect()(bank.locator(".glance .turn")).to_contain_text("Game over")
    assert service.view(gid, None)["finished"]
    bank.context.close()


def test_the_starting_roll_heading_names_the_player_awaited(
        served: tuple[str, GameService, Any]) -> None:
    """Monopolino in Italian: Giulia has rolled to see who starts, Marco is awaited; the
    heading said "Tocca a Giulia" under a prompt that waits for Marco."""
    base, service, browser = served
    out = service.create_game({"edition": "monopolino", "players": ["Giulia", "Marco", "Sara"],
                               "dice": "physical", "seed": 1, "settings": {"order": "roll"}})
    gid = str(out.game_id)
    assert service.submit(gid, {"actor": "giulia", "type": "roll", "args": {"dice": [3]}}).ok
    bank = banker_tab(browser, base, gid, lang="it")
    bank.locator("#tab-table").click()
    expect()(bank.locator(".glance .now")).to_contain_text("Marco")
    expect()(bank.locator(".glance .turn")).to_contain_text("Tocca a Marco")
    expect()(bank.locator(".glance .turn")).not_to_contain_text("Giulia")
    bank.context.close()


def test_the_view_names_who_rolls_to_start(tmp_path: Path) -> None:
    """The view's ``current`` during the starting roll is the player the roll waits for."""
    with GameService(tmp_path) as service:
        gid = str(service.create_game({"edition": "monopolino", "players": ["Giulia", "Marco"],
                                       "dice": "physical", "seed": 1,
                                       "settings": {"order": "roll"}}).game_id)
        assert service.view(gid, None)["current"] == "giulia"
        assert service.submit(gid, {"actor": "giulia", "type": "roll",
                                    "args": {"dice": [3]}}).ok
        view = service.view(gid, None)
        assert view["prompt"]["to"] == ["marco"] and view["current"] == "marco"
