"""The venue screen in a real headless Chromium (Debian's, via Playwright): every table, whose
turn, the points, the last events and the standings, updated live while tables play.
``VENUE_SCREENSHOT=docs/venue-screen.png`` also saves the picture for docs/venue.md."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from venue_helpers import (
    FOUR_PLAYERS,
    ROOT,
    Broker,
    ScreenServer,
    SimTable,
    caught_up,
    run_all,
    wait_until,
)

from companion.venue.board import Board
from companion.venue.subscriber import ScreenSubscriber

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SCRIPTS = [*FOUR_PLAYERS, "master-trainer-three-players.json", "mario-three-players.json"]

pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")


def test_the_big_screen_shows_every_table_live(tmp_path: Path, broker: Broker,
                                               screen: tuple[Board, ScreenSubscriber]) -> None:
    board, _ = screen
    page_server = ScreenServer(board)
    tables = [SimTable(tmp_path, f"t{i:02d}", broker.port,
                       ROOT / "examples" / SCRIPTS[(i - 1) % len(SCRIPTS)]) for i in range(1, 13)]
    errors: list[str] = []
    try:
        for t in tables:
            t.begin()
        # some tables finish, the others stop part-way through their game
        run_all(tables, lambda t: t.play(None if int(t.name[1:]) % 4 == 1
                                         else len(t.steps) * (int(t.name[1:]) % 4) // 4))
        wait_until(lambda: caught_up(board, tables), what="the screen", every=0.5)
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
            ctx.set_default_timeout(30000)  # generous: CI shares two cores
            page: Any = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(page_server.url + "/")
            expect(page.locator("article.table")).to_have_count(12)
            expect(page.locator("#link")).to_have_text("live")
            t = tables[1]
            card = page.locator(f"article.table[data-key='{t.key}']")
            digest = t.digest(t.game_id)
            for p_ in digest["players"]:
                expect(card).to_contain_text(p_["name"])
                expect(card).to_contain_text(p_["points_text"])
            current = next(p_["name"] for p_ in digest["players"] if p_["is_current"])
            expect(card.locator("li.current")).to_contain_text(current)
            last_say = [s for _, s, _ in t.lines(t.game_id).values() if s][-1]
            expect(card.locator("ol.log")).to_contain_text(last_say)
            expect(page.locator("#standings")).to_contain_text("Monopolino")
            expect(page.locator("#standings")).to_contain_text("Pokémon Master Trainer")
            # live: the table plays on and the card follows without a reload
            t.play()
            digest = t.digest(t.game_id)
            last_say = [s for _, s, _ in t.lines(t.game_id).values() if s][-1]
            expect(card.locator("ol.log")).to_contain_text(last_say)
            for p_ in digest["players"]:
                expect(card).to_contain_text(p_["points_text"])
            wait_until(lambda: caught_up(board, tables), what="the screen", every=0.5)
            page.wait_for_timeout(300)
            target = os.environ.get("VENUE_SCREENSHOT")
            page.screenshot(path=str(tmp_path / "venue.png"))
            if target:
                page.screenshot(path=str(ROOT / target))
            browser.close()
        assert errors == []
    finally:
        page_server.close()
        for t in tables:
            t.close()
