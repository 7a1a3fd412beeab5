"""The banker chooses the box's language (docs/translating.md, "The box's words"): in the setup
form and in the box profile editor, among the languages the catalogue has, each by its own name;
a Monopolino box is Italian unless chosen otherwise, and the profile remembers its language.
Every phone reads the box's words in its own language (issue 41): an Italian phone reads VIA
(Monopolino's START, as the Italian rulebook prints it), an English phone START; the owner's
own card text is the same for every phone. In Debian's Chromium at a phone's size."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import PIN, FakeHardware

from companion.boxes.profiles import Profiles
from companion.engine.i18n import render
from companion.service.game_service import GameService
from web import create_app
from web.server import make_server

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
OWN_NAMES = ["English", "Español", "Italiano"]

pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, GameService]]:
    with GameService(tmp_path) as service:
        app = create_app(service, hardware=FakeHardware(), config={"banker_pin": PIN})
        srv = make_server(app, "127.0.0.1", 0, threads=8)
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{srv.effective_port}", service
        srv.close()


@pytest.fixture
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def english_phone(browser: Any) -> Any:
    ctx = browser.new_context(viewport=PHONE, locale="en-GB")
    ctx.set_default_timeout(20000)  # generous: CI shares two cores with the server
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def log_in(page: Any, base: str) -> None:
    page.goto(f"{base}/profile")
    page.fill("#pin", PIN)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#pf-edition")).to_be_visible()


def test_the_setup_form_starts_an_italian_box(server: tuple[str, GameService],
                                              browser: Any) -> None:
    base, service = server
    page = english_phone(browser)
    log_in(page, base)
    page.goto(base)
    page.locator("#setup summary").first.click()
    page.select_option("#setup-edition", "monopolino")
    menu = page.locator("#setup-box-language")
    expect(menu.locator("option")).to_have_text(OWN_NAMES)
    expect(menu).to_have_value("it")  # Monopolino is an Italian game
    page.fill("#setup-players", "Anna\nBen")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#toast")).to_have_text("Game started.")
    game_id = service.games()[-1]["id"]
    assert service.state(game_id)[1].board.language == "it"
    # each phone reads the box's words in its own language
    page.goto(f"{base}/?game={game_id}")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_text("START", exact=True).first).to_be_attached()
    assert page.get_by_text("VIA", exact=True).count() == 0
    page.evaluate("localStorage.setItem('companion.lang', 'it')")  # the phone picks Italiano
    page.goto(f"{base}/?game={game_id}")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.get_by_text("VIA", exact=True).first).to_be_attached()
    expect(page.get_by_text("Via dei Giocattoli").first).to_be_attached()
    assert page.get_by_text("START", exact=True).count() == 0
    assert page.get_by_text("Toy Street").count() == 0
    assert page.errors == []


def test_a_profile_remembers_its_box_language(server: tuple[str, GameService],
                                              browser: Any) -> None:
    base, service = server
    page = english_phone(browser)
    log_in(page, base)
    page.select_option("#pf-edition", "monopolino")
    page.fill("#pf-new", "La nostra scatola")
    page.get_by_role("button", name="Start from the edition's defaults").click()
    menu = page.locator("#pf-language")
    expect(menu.locator("option")).to_have_text(OWN_NAMES)
    expect(menu).to_have_value("it")  # Monopolino's own
    # the board list shows the Italian box's words, not a correction of them
    expect(page.locator("[data-field='spaces.start.name']")).to_have_value("VIA")
    card = page.locator("textarea[data-field$='.text']").first
    card.fill("Vai avanti fino al VIA e prendi €2.")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#status")).to_contain_text("Saved")
    saved = service.call(lambda: Profiles(service.store.conn).get("La nostra scatola",
                                                                  "monopolino"))
    board = saved["settings"]["board"]
    assert board.get("language", "it") == "it"  # the edition's own: the profile need not say
    assert "start" not in board.get("spaces", {})  # VIA is the box's word, not a correction
    texts = list(board["cards"].values())
    assert texts == [{"text": "Vai avanti fino al VIA e prendi €2."}]
    # reopened: still Italian
    page.reload()
    page.select_option("#pf-edition", "monopolino")
    page.get_by_role("button", name="La nostra scatola").click()
    expect(page.locator("#pf-language")).to_have_value("it")
    # a game on it: each reader reads START in their language, the owner's card text as typed
    game = service.create_game({"edition": "monopolino", "players": ["Anna", "Ben"],
                                "profile": "La nostra scatola"})
    assert game.ok, game.error
    board = service.state(game.game_id)[1].board
    assert (render(board.spaces[0].name, "it"), render(board.spaces[0].name, "en")) == (
        "VIA", "START")
    typed = [c.text for c in board.decks["risk"] if c.text.startswith("Vai avanti")]
    assert [render(t, "en") for t in typed] == ["Vai avanti fino al VIA e prendi €2."]
    assert page.errors == []
