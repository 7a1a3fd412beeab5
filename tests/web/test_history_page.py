"""The history page in Chromium: the household's games, a game's story, and its replay
stepped back and forth (docs/history.md; screenshots docs/screens/history-*.png, rewritten
with UPDATE_SCREENS=1)."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_history_api import JOIN_IN_PAGE, Clock, household_code, play
from web_helpers import PIN, FakeHardware

from companion.service.game_service import GameService
from web import create_app
from web.server import make_server

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = Path(__file__).resolve().parents[2] / (
    "docs/screens" if os.environ.get("UPDATE_SCREENS") else "artifacts/screenshots")
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, list[str], str]]:
    clock = Clock()
    with GameService(tmp_path, clock=clock) as service:
        games = [play(service, "mario-two-players.json", ["Zoë", "Дмитрий"], clock),
                 play(service, "pokemon-two-trainers.json", ["Zoë", "Дмитрий"], clock)]
        code = household_code(service)
        app = create_app(service, hardware=FakeHardware(), config={"banker_pin": PIN})
        srv = make_server(app, "127.0.0.1", 0, threads=8)
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{srv.effective_port}", games, code
        finally:
            srv.close()


@pytest.fixture
def page() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        ctx = browser.new_context(viewport=PHONE, device_scale_factor=1,
                                  reduced_motion="reduce")
        ctx.set_default_timeout(30000)
        errors: list[str] = []
        pg = ctx.new_page()
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.on("console", lambda m: errors.append(m.text) if "Content Security" in m.text
              else None)
        yield pg
        browser.close()
        assert errors == []


def test_the_household_the_story_and_a_replay_stepped_back(site: tuple[str, list[str], str],
                                                           page: Any) -> None:
    base, games, code = site
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{base}/history")
    assert page.evaluate(JOIN_IN_PAGE, code) == 200  # a guest who joined tonight's game
    page.reload()
    players = page.get_by_role("region", name="Players")
    expect(players).to_contain_text("Zoë")
    expect(players.locator("tbody tr").first).to_contain_text("2")  # Zoë won both
    expect(page.get_by_role("img", name="Wins so far")).to_be_visible()
    page.screenshot(path=str(SHOTS / "history-household.png"), full_page=True)

    page.get_by_role("link", name="Monopoly: The Super Mario Bros. Movie Edition").click()
    story = page.get_by_role("region", name="The story")
    expect(story).to_contain_text("Zoë wins: Zoë is the last player standing and wins!")
    expect(story).to_contain_text("Laps")
    where = page.get_by_role("status")
    expect(where).to_have_text("Step 53 of 53")
    page.screenshot(path=str(SHOTS / "history-story.png"), full_page=True)
    page.get_by_role("button", name="Back one step").click()
    expect(where).to_have_text("Step 52 of 53")
    expect(page.get_by_role("region", name="Replay")).to_contain_text("must raise 3 coins")
    page.get_by_role("button", name="First step").click()
    expect(where).to_have_text("Step 0 of 53")
    page.get_by_role("combobox", name="Jump to a turn").select_option(index=3)
    expect(where).not_to_have_text("Step 0 of 53")
    jumped = int(where.inner_text().split()[1])
    page.locator("h2", has_text="Replay").click()  # the focus off the list: arrows step
    page.keyboard.press("ArrowRight")
    expect(where).to_have_text(f"Step {jumped + 1} of 53")
    page.get_by_role("region", name="Replay").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "history-replay.png"))

    rules = page.get_by_role("region", name="Rules at hand")
    rules.get_by_role("searchbox", name="Search the rules").fill("Bowser simply passes")
    found = rules.get_by_role("list", name="Passages found")
    expect(found).to_contain_text("When Bowser simply passes a player")
    expect(found.locator("li")).to_have_count(1)
    rules.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "history-rules.png"))


def test_the_main_page_tells_the_story_at_the_end(tmp_path: Path, page: Any) -> None:
    from page_driver import finish, join, join_code, running_server, setup_game

    with running_server(tmp_path) as (base, service):
        game_id, ids = setup_game(service, "mario", "last")
        join(page, base, join_code(service, game_id), ids[0])
        finish(service, game_id, "mario")
        panel = page.locator("details.story")
        panel.get_by_text("The story of the game").click()
        expect(panel).to_contain_text("Mario wins: Mario is the last player standing")
        expect(panel).to_contain_text("Laps: 3")
        panel.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "story-panel.png"))
        panel.get_by_role("link", name="Replay this game").click()
        expect(page.get_by_role("status")).to_have_text("Step 53 of 53")
