"""The profile editor in a real browser (Debian's chromium via Playwright) at a phone's size:
the board list with inline validation, confirming a fact, enrolling a card tag, saving.
Screenshots go to docs/screens/profile-*.png."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import PIN, FakeHardware

from companion.boxes.profiles import Profiles
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
"""Screenshots for docs/screens/ are rewritten only with UPDATE_SCREENS=1; a plain test run
leaves the checkout as it was."""
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")


class FakeTable:
    """The table's last tap, as web/hardware_api.py reads it."""

    def __init__(self) -> None:
        self.last_tap: dict[str, Any] | None = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, GameService, FakeTable]]:
    table = FakeTable()
    with GameService(tmp_path) as service:
        app = create_app(service, hardware=FakeHardware(),
                         config={"banker_pin": PIN, "table": table})
        srv = make_server(app, "127.0.0.1", 0, threads=8)
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{srv.effective_port}", service, table
        srv.close()


@pytest.fixture
def page() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        ctx = browser.new_context(viewport=PHONE, device_scale_factor=1)
        ctx.set_default_timeout(20000)  # generous: CI shares two cores with the server
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        yield pg
        browser.close()
        assert errors == []


def shot(page: Any, name: str, full: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"profile-{name}.png"), full_page=full)


def test_the_owner_corrects_the_board_and_cards_and_saves_a_profile(
        server: tuple[str, GameService, FakeTable], page: Any) -> None:
    base, service, table = server
    page.goto(f"{base}/profile")
    page.fill("#pin", PIN)
    page.get_by_role("button", name="Log in").click()
    page.select_option("#pf-edition", "starwars")
    expect(page.locator("#pf-list")).to_contain_text("No saved profile")
    page.fill("#pf-new", "Our box")
    shot(page, "choose")
    page.get_by_role("button", name="Start from the edition's defaults").click()

    # An Endor property turned into Free Parking: the rulebook's three Endor properties are
    # two, said inline; turned back, the board is right again.
    for sid in ("forest-moon", "imperial-palace", "tibanna-mines", "senate", "mos-eisley"):
        page.locator(f"#space-{sid} > summary").click()
    page.select_option('[data-field="spaces.forest-moon.kind"]', "free_parking")
    page.select_option('[data-field="spaces.forest-moon.color"]', "")
    error = page.locator("#board-errors + .field-error")
    expect(error).to_have_text("the rulebook's endor group has 3 properties, not 2.")  # no path
    expect(page.locator("#status")).to_have_class("bad")
    page.locator("#space-forest-moon").scroll_into_view_if_needed()
    shot(page, "board-error")
    page.select_option('[data-field="spaces.forest-moon.kind"]', "location")
    page.select_option('[data-field="spaces.forest-moon.color"]', "endor")
    expect(page.locator("#status")).to_have_class("ok")

    # Imperial Palace turned into a landing: 17 properties, a board the rulebook allows.
    page.select_option('[data-field="spaces.imperial-palace.kind"]', "free_parking")
    expect(page.locator("#status")).to_have_class("ok")

    page.select_option('[data-field="spaces.tibanna-mines.kind"]', "card")
    page.select_option('[data-field="spaces.tibanna-mines.deck"]', "chance")
    page.select_option('[data-field="spaces.tibanna-mines.color"]', "")
    expect(page.locator("#status")).to_have_class("ok")
    expect(page.locator(".field-error")).to_have_count(0)

    # A wrong price is named next to its field.
    price = page.locator('[data-field="spaces.senate.price"]')
    price.fill("-5")
    price.dispatch_event("change")
    wrong = page.locator('[data-field="spaces.senate.price"] + .field-error')
    expect(wrong).to_contain_text("a whole amount")
    expect(wrong).not_to_contain_text("spaces.senate")
    price.fill("350")
    price.dispatch_event("change")
    expect(page.locator("#status")).to_have_class("ok")

    # Confirm Mos Eisley's price as printed on the box: its mark clears.
    marks = page.locator('[data-marks="s:mos-eisley"]')
    expect(marks).to_contain_text("unverified: price")
    marks.locator(".unverified", has_text="price").get_by_role("button").click()
    expect(page.locator('[data-marks="s:mos-eisley"]')).not_to_contain_text("price")
    page.locator("#space-mos-eisley").scroll_into_view_if_needed()
    shot(page, "board")

    # Enrol the tag of a card: the editor asks, the card is tapped on the reader.
    card = page.locator("#card-ch-02").locator("xpath=..")
    card.get_by_role("button", name="Tap card tag").click()
    expect(page.locator("#tag-ch-02")).to_have_text("Tap this card on the reader…")
    table.last_tap = {"n": 1, "uid": "04A1B2C3D4E5F6", "edition": "starwars", "object": None}
    expect(page.locator("#tag-ch-02")).to_have_text("Tag 04A1B2C3D4E5F6")
    text = page.locator("#card-ch-02")
    text.fill("Advance to GO. Collect ₥200 credits.")
    text.dispatch_event("change")
    expect(page.locator('[data-marks="c:ch-02"]')).not_to_contain_text("text")
    expect(card.get_by_role("button", name="Replace tag")).to_be_visible()
    card.scroll_into_view_if_needed()
    shot(page, "cards")

    page.get_by_role("button", name="Save").click()
    expect(page.locator("#status")).to_contain_text("Saved.")
    saved = service.call(lambda: Profiles(service.store.conn).get("Our box", "starwars"))
    board = saved["settings"]["board"]
    assert board["spaces"]["imperial-palace"] == {"kind": "free_parking"}
    assert board["spaces"]["tibanna-mines"] == {"kind": "card", "color": "", "deck": "chance"}
    assert board["confirmed"] == ["spaces.mos-eisley.price"]
    assert board["cards"] == {"ch-02": {"text": "Advance to GO. Collect ₥200 credits."}}
    assert saved["tags"] == {"04A1B2C3D4E5F6": "card:ch-02"}
    expect(page.get_by_role("link", name="Export")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "saved")


def test_the_setup_form_starts_a_game_from_a_saved_profile(
        server: tuple[str, GameService, FakeTable], page: Any) -> None:
    base, service, _ = server
    board = {"spaces": {"imperial-palace": {"kind": "free_parking"},
                        "tibanna-mines": {"kind": "card", "deck": "chance", "color": ""}}}
    service.call(lambda: Profiles(service.store.conn).save(
        {"edition": "starwars", "name": "Our box", "settings": {"board": board}}))
    page.goto(f"{base}/profile")
    page.fill("#pin", PIN)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#pf-edition")).to_be_visible()
    page.goto(base)
    page.locator("#setup summary").first.click()
    page.select_option("#setup-edition", "starwars")
    expect(page.locator("#setup-profile option", has_text="Our box")).to_have_count(1)
    page.select_option("#setup-profile", "Our box")
    page.fill("#setup-players", "Luke\nLeia")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#toast")).to_have_text("Game started.")
    game_id = service.games()[-1]["id"]
    spaces = {s["id"]: s for s in service.view(game_id)["board"]["spaces"]}
    assert spaces["imperial-palace"]["kind"] == "free_parking"
    assert sum(s["kind"] == "location" for s in spaces.values()) == 16
    link = page.get_by_role("link", name="Box profiles (board and cards of your box)")
    expect(link).to_be_attached()  # the banker tab leads to the editor


def test_spaces_are_added_removed_and_reordered(
        server: tuple[str, GameService, FakeTable], page: Any) -> None:
    base, service, _ = server
    page.goto(f"{base}/profile?edition=pokemon")
    page.fill("#pin", PIN)
    page.get_by_role("button", name="Log in").click()
    page.fill("#pf-new", "Family box")
    page.get_by_role("button", name="Start from the edition's defaults").click()
    first = page.locator("details.space", has=page.locator(".skind", has_text="card")).first
    removed = first.get_attribute("id").removeprefix("space-")
    first.locator("summary").click()
    first.get_by_role("button", name="Remove").click()
    page.fill("#new-space-id", "rest-stop")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#board-title")).to_have_text("Board (28 spaces)")
    added = page.locator("#space-rest-stop")
    added.get_by_role("button", name="Move rest-stop up").click()
    expect(page.locator("details.space").nth(26)).to_have_attribute("id", "space-rest-stop")
    expect(page.locator("#status")).to_have_class("ok")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#status")).to_contain_text("Saved.")
    board = service.call(lambda: Profiles(service.store.conn).get("Family box", "pokemon")
                         )["settings"]["board"]
    assert board["remove"] == [removed]
    assert board["add"] == [{"id": "rest-stop", "name": "rest-stop", "kind": "free_parking"}]
    assert board["order"][26] == "rest-stop" and len(board["order"]) == 28


def test_a_card_effect_is_corrected_in_the_profile_and_applies_in_the_next_game(
        server: tuple[str, GameService, FakeTable], page: Any) -> None:
    """The box's Bowser's Fury card 13 says "Collect 5 coins": the owner says so once, in
    words the editor shows beside the card; a wrong word is refused before anything is saved."""
    base, service, _ = server
    page.goto(f"{base}/profile?edition=mario")
    page.fill("#pin", PIN)
    page.get_by_role("button", name="Log in").click()
    page.fill("#pf-new", "Movie box")
    page.get_by_role("button", name="Start from the edition's defaults").click()
    effect = page.locator("#effect-bf-13")
    expect(effect.locator(".effect-say")).to_have_text("Pay 1 coin to the Bank.")
    effect.locator("select[data-effect-word]").select_option(label="Collect money from the Bank")
    amount = effect.get_by_label("Amount")
    amount.fill("")
    amount.dispatch_event("change")  # no amount: said at once, nothing saved
    expect(page.locator("#status")).to_have_class("bad")
    expect(page.locator("#status")).to_contain_text("Amount: enter a whole number")
    page.get_by_role("button", name="Save").click()
    assert service.call(lambda: Profiles(service.store.conn).list("mario")) == []
    text = page.locator("#card-bf-13")
    text.fill("Bowser trips! Collect 5 coins.")
    text.dispatch_event("change")
    amount.fill("5")
    amount.dispatch_event("change")
    expect(effect.locator(".effect-say")).to_have_text("Collect 5 coins from the Bank.")
    expect(page.locator("#status")).to_have_class("ok")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#status")).to_contain_text("Saved.")
    saved = service.call(lambda: Profiles(service.store.conn).get("Movie box", "mario"))
    assert saved["settings"]["board"]["cards"] == {"bf-13": {
        "text": "Bowser trips! Collect 5 coins.", "effect": {"do": "collect", "amount": 5}}}
    out = service.create_game({"edition": "mario", "players": ["Mario", "Luigi"],
                               "profile": "Movie box"})
    assert out.ok, out.error
    state = service.state(out.game_id)[1]
    card = state.b.card("bf-13")
    assert (card.text, dict(card.effect)) == ("Bowser trips! Collect 5 coins.",
                                              {"do": "collect", "amount": 5})
