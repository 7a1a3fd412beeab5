"""At the real table: the banker sets up a game by tapping each player's token on the reader
(simulated hardware, the same reader -> tap detector -> table path as on a Pi)."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_helpers import PIN, open_banker_form

from companion.service.game_service import GameService
from companion.service.table import Table
from hardware.table import TableHardware
from web import create_app
from web.server import make_server

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")


@pytest.fixture
def table_server(tmp_path: Path) -> Iterator[tuple[str, Table]]:
    service = GameService(tmp_path).start()
    holder: dict[str, Table] = {}
    hw = TableHardware.from_config({}, on_tap=lambda r, u: holder["t"].tap(r, u),
                                   on_action=lambda a, e: None, simulate=True)
    holder["t"] = Table(service, hw)
    hw.start()
    app = create_app(service, hardware=hw, config={"banker_pin": PIN, "table": holder["t"]})
    srv = make_server(app, "127.0.0.1", 0, threads=16)
    threading.Thread(target=srv.run, daemon=True).start()
    yield f"http://127.0.0.1:{srv.effective_port}", holder["t"]
    srv.close()
    hw.stop()
    service.stop()


def test_tapping_tokens_gives_each_player_theirs(table_server: tuple[str, Table]) -> None:
    """With the players named, the banker presses "Tap tokens on the reader" and taps two
    enrolled tokens: the first goes to the first player, the second to the second; the game
    starts with those tokens."""
    base, table = table_server
    table.registry.enroll("04000000000011", "mario", "token:DK Barrel")
    table.registry.enroll("04000000000012", "mario", "token:Mario's Cap")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
        page.set_default_timeout(20000)
        page.goto(base + "/")
        open_banker_form(page)
        page.fill("#pin", PIN)
        page.get_by_role("button", name="Log in").click()
        expect(page.locator("#who")).to_have_text("Banker")
        page.locator("#setup > summary").click()
        expect(page.locator("#setup-edition option[value=mario]")).to_have_count(1)
        page.fill("#setup-players", "Luigi\nMario")
        expect(page.get_by_label("Token for Mario")).to_have_count(1)
        page.get_by_role("button", name="Tap tokens on the reader").click()
        expect(page.get_by_text("Luigi: tap your token.")).to_be_visible()
        table.hardware.virtual_tap("table", "04000000000011")
        expect(page.get_by_label("Token for Luigi")).to_have_value("DK Barrel")
        table.hardware.virtual_tap("table", "04000000000012")
        expect(page.get_by_label("Token for Mario")).to_have_value("Mario's Cap")
        expect(page.get_by_text("Every player has a token.")).to_be_visible()
        page.get_by_role("button", name="Start the game").click()
        expect(page.locator("#who")).to_have_text("Banker")
        browser.close()
    games = table.service.games()
    view = table.service.view(games[-1]["id"])
    assert {p["name"]: p["token"] for p in view["players"]} == {
        "Luigi": "DK Barrel", "Mario": "Mario's Cap"}
