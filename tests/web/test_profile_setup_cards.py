"""The setup form edits a card's effect in words (what the card does, labelled fields, the
effect read back as a sentence: issue #29 item 7), checked as it is changed, and the game
started applies it; with a box profile chosen, the form offers the profile editor for that
profile instead. Chromium at a phone's size; screenshots go to docs/screens/setup-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_profile_page import PIN, SHOTS, FakeTable, expect, page, server  # noqa: F401
from web_helpers import open_banker_form

from companion.boxes.profiles import Profiles
from companion.service.game_service import GameService


def open_setup(page: Any, base: str, edition: str) -> None:  # noqa: F811
    page.goto(base + "/")
    open_banker_form(page)
    page.fill("#pin", PIN)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#who")).to_have_text("Banker")
    page.locator("#setup > summary").click()
    expect(page.locator(f"#setup-edition option[value={edition}]")).to_have_count(1)
    page.select_option("#setup-edition", edition)
    expect(page.locator("#setup-board")).to_have_count(1)


def test_the_setup_form_corrects_a_card_effect_and_the_game_applies_it(
        server: tuple[str, GameService, FakeTable], page: Any) -> None:  # noqa: F811
    base, service, _ = server
    open_setup(page, base, "mario")
    page.locator("#setup-board > summary").click()
    page.locator("#setup-board summary", has_text="Bowser's Fury").click()
    effect = page.locator('[data-effect="bf-13"]')
    expect(effect.locator(".effect-say")).to_have_text("Pay 1 coin to the Bank.")
    words = effect.locator("select[data-effect-word]")
    assert "Collect money from the Bank" in words.inner_text()
    assert "_" not in words.inner_text()  # words, never the vocabulary's ids
    words.select_option(label="Collect money from the Bank")
    amount = effect.get_by_label("Amount")
    amount.fill("")
    amount.dispatch_event("change")
    why = effect.locator("xpath=following-sibling::p[1]")
    expect(why).to_contain_text("Amount: enter a whole number")
    amount.fill("5")
    amount.dispatch_event("change")
    expect(effect.locator(".effect-say")).to_have_text("Collect 5 coins from the Bank.")
    expect(why).to_have_text("")
    page.locator('[data-card="bf-13"]').fill("Bowser trips! Collect 5 coins.")
    effect.scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "setup-card-effect.png"))

    page.fill("#setup-players", "Mario\nLuigi")
    page.select_option("#setup-set-decks", "virtual")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Join code:")).to_be_visible()
    games = service.games()
    state = service.state(games[-1]["id"])[1]
    assert state.setup.settings["board"]["cards"]["bf-13"] == {
        "text": "Bowser trips! Collect 5 coins.", "effect": {"do": "collect", "amount": 5}}


def test_with_a_profile_chosen_the_form_opens_that_profile_in_the_editor(
        server: tuple[str, GameService, FakeTable], page: Any) -> None:  # noqa: F811
    base, service, _ = server
    service.call(lambda: Profiles(service.store.conn).save(
        {"edition": "mario", "name": "Our box", "settings": {}}))
    open_setup(page, base, "mario")
    link = page.locator("#setup-profile-edit")
    expect(link).to_be_hidden()
    expect(page.locator("#setup-profile option[value='Our box']")).to_have_count(1)
    page.select_option("#setup-profile", "Our box")
    expect(link).to_be_visible()
    expect(page.locator("#setup-board")).to_be_hidden()
    assert link.get_attribute("href") == "/profile?edition=mario&name=Our%20box"
    page.screenshot(path=str(SHOTS / "setup-profile-chosen.png"))
    with page.context.expect_page() as opened:
        link.click()
    editor = opened.value
    expect(editor.locator("#card-bf-13")).to_be_visible()
    effect = editor.locator("#effect-bf-13")
    effect.locator("select[data-effect-word]").select_option("collect")
    effect.get_by_label("Amount").fill("5")
    effect.get_by_label("Amount").dispatch_event("change")
    editor.get_by_role("button", name="Save").click()
    expect(editor.locator("#status")).to_contain_text("Saved.")
    editor.close()
    page.fill("#setup-players", "Mario\nLuigi")
    page.select_option("#setup-set-decks", "virtual")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Join code:")).to_be_visible()
    state = service.state(service.games()[-1]["id"])[1]
    assert state.setup.settings["board"]["cards"]["bf-13"]["effect"] == {
        "do": "collect", "amount": 5}


pytestmark = pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                                reason="needs Debian's chromium")


def test_a_master_trainer_profile_enrols_the_tag_of_each_item_card(
        server: tuple[str, GameService, FakeTable], page: Any) -> None:  # noqa: F811
    base, service, table = server
    service.call(lambda: Profiles(service.store.conn).save(
        {"edition": "master-trainer", "name": "Our box", "settings": {}}))
    page.goto(f"{base}/profile?edition=master-trainer&name=Our%20box")
    page.fill("#pin", PIN)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#pin")).to_be_hidden()  # logged in before leaving the page
    page.goto(f"{base}/profile?edition=master-trainer&name=Our%20box")
    expect(page.locator("#card-tags summary")).to_have_text(  # the edition's decks
        ["Item Cards", "Event Cards", "Rival Cards"])
    page.locator("#card-tags summary", has_text="Item Cards").click()
    row = page.locator('[data-card-tag="potion-2"]')
    row.get_by_role("button", name="Tap card tag").click()
    expect(page.locator("#tag-potion-2")).to_have_text("Tap this card on the reader…")
    table.last_tap = {"n": 1, "uid": "04A1B2C3D4E5F6", "edition": "master-trainer",
                      "object": None}
    expect(page.locator("#tag-potion-2")).to_have_text("Tag 04A1B2C3D4E5F6")
    row.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "profile-mt-card-tags.png"))
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#status")).to_contain_text("Saved.")
    saved = service.call(lambda: Profiles(service.store.conn).get("Our box", "master-trainer"))
    assert saved["tags"] == {"04A1B2C3D4E5F6": "card:potion-2"}
