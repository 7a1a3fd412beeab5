"""Master Trainer on the real piles, on the phones (Chromium, 390×844): the drawing player's
phone asks which Item Card was drawn and the card picked joins their hand; a spectator's
phone never shows a hand's cards. Screenshot: docs/screens/mt-item-draw.png."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from page_driver import (
    CHROMIUM,
    expect,
    join,
    join_code,
    new_phone,
    running_server,
    tap_command,
    visible_text,
)
from test_profile_page import SHOTS

from companion.engine.types import Command

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def test_the_drawing_phone_names_the_item_card_and_a_spectator_sees_no_hand(
        tmp_path: Path) -> None:
    setup = {"edition": "master-trainer", "players": ["Ash", "Misty"], "dice": "physical",
             "seed": 1, "order": "", "settings": {"decks": "physical"}}
    steps = [Command("ash", "starter", {"chip": "pikachu"}),
             Command("misty", "starter", {"chip": "squirtle"}),
             Command("ash", "roll", {"dice": [1]}), Command("ash", "land", {"space": "town"})]
    errors: list[str] = []
    with running_server(tmp_path) as (base, service), \
            playwright_api.sync_playwright() as p:
        gid = service.create_game(setup).game_id
        for cmd in steps:
            assert service.submit(gid, cmd.to_json()).ok
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            ash = new_phone(browser, errors)
            join(ash, base, join_code(service, gid), "ash")
            prompt = ash.locator('.action[data-actor="ash"][data-type="draw"]')
            expect()(prompt.first).to_be_visible()
            potion = ash.get_by_role("button", name="Item Card: Potion")
            expect()(potion).to_be_visible()
            # a searchable grid of the cards, not a column of full-width buttons (#29 item 17)
            ash.get_by_label("Find the card").fill("pot")
            expect()(ash.locator(".card-grid .action:visible")).to_have_count(1)
            ash.get_by_label("Find the card").fill("")
            potion.scroll_into_view_if_needed()
            SHOTS.mkdir(parents=True, exist_ok=True)
            ash.screenshot(path=str(SHOTS / "mt-item-draw.png"))
            tap_command(ash, {"actor": "ash", "type": "draw", "args": {"card": "potion"}}, 0)
            expect()(ash.get_by_role("region", name="Ash's team", exact=True)).to_contain_text(
                "Potion")
            assert service.state(gid)[1].trainer("ash").items == ("potion",)

            watcher = new_phone(browser, errors)
            watcher.goto(f"{base}/?code={join_code(service, gid)}")
            watcher.get_by_role("button", name="Join", exact=True).click()
            expect()(watcher.locator("#who")).to_have_text("Watching")
            version = service.state(gid)[0]
            watcher.wait_for_function(f"() => window.__version >= {version}")
            watcher.locator("#tab-table").click()
            expect()(watcher.get_by_text("Pikachu").first).to_be_visible()
            assert "Potion" not in visible_text(watcher)
        finally:
            browser.close()
    assert errors == []
