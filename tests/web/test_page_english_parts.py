"""On an Italian or Spanish phone every English-only text is marked ``lang="en"`` (issue 41,
items 4 and 6; WCAG 3.1.2, language of parts): the rulebook's quotes (a rule on a log line, the
History tab's and the first-game help's, the rules search's sources) and an old game's stored
English lines, so a screen reader reads them with an English voice. The rules search finds a
passage by the phone's own words, says it in them, and shows the English quote as its source.
Chromium at a phone's size, real HTTP, real SQLite."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from page_driver import ROOT, expect, join, join_code, new_phone, running_server, setup_game

from companion.service.game_service import GameService


def test_an_italian_phone_marks_the_rulebooks_english(browser: Any, tmp_path: Path) -> None:
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        game_id, ids = setup_game(service, "monopolino", "play")
        page = new_phone(browser, errors, locale="it-IT", first_game="on")
        join(page, base, join_code(service, game_id), ids[0])
        expect()(page.locator("html")).to_have_attribute("lang", "it")
        # a rule on a log line: the rulebook's one line, English
        happened = page.get_by_role("list", name="Appena successo")
        happened.get_by_role("button", name="regola").first.click()
        cite = happened.locator(".why .cite").first
        expect()(cite).to_be_visible()  # the framing in Italian, the rulebook's quote in it English
        expect()(cite.locator("[lang=en]").first).to_be_visible()
        # first-game help: the Italian frame, the English quote inside it marked
        help_ = page.get_by_role("region", name="Cosa significa")
        expect()(help_).to_contain_text("citazione dal regolamento inglese")
        expect()(help_.locator("[lang=en]")).to_have_count(2)  # the section and the quote
        quote = help_.locator("[lang=en]").last.inner_text()
        assert quote.split()[:1] and f"“{quote}”" in help_.inner_text()
        # the History tab's rules
        page.locator("#tab-history").click()
        history = page.locator("ol.hist")
        expect()(history.locator(".cite [lang=en]").first).to_be_visible()
        # the rules search: Italian words find the passage, said in Italian above the quote
        page.get_by_role("button", name="Regole", exact=True).click()
        sheet = page.get_by_role("dialog", name="Regole a portata di mano")
        sheet.get_by_role("searchbox").fill("affitto")
        found = sheet.get_by_role("list", name="Passi trovati")
        rent = found.locator("li", has_text="Affitto:").first
        expect()(rent).to_contain_text("paghi al proprietario")
        quote = rent.locator("q")
        expect()(quote).to_have_text("pay the amount shown on the space to the owner of the booth.")
        expect()(quote).to_have_attribute("lang", "en")
        expect()(rent.locator("strong")).to_have_attribute("lang", "en")  # the section's heading
        page.context.close()
    assert errors == []


def _old_game(service: GameService) -> str:
    """A Monopolino game stopped mid-turn, exported before the log held messages: its lines
    are stored English."""
    lines = (ROOT / "tests/golden/logs/monopolino-2-players.mid-turn.jsonl").read_text(
        "utf-8").splitlines()
    out = service.import_game(lines, unchecked=True)
    assert out.ok, out.error
    return str(out.game_id)


def test_an_old_games_english_lines_are_marked(browser: Any, tmp_path: Path) -> None:
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        game_id = _old_game(service)
        page = new_phone(browser, errors, locale="es-ES")
        join(page, base, join_code(service, game_id), "anna")
        happened = page.get_by_role("list", name="Acaba de pasar")
        expect()(happened.locator("li").first).to_be_visible()
        for li in happened.locator("li").all():
            expect()(li.locator("[lang=en]").first).not_to_have_text("")
        page.locator("#tab-history").click()
        rows = page.locator("ol.hist > li")
        expect()(rows.first).to_be_visible()
        assert rows.count() == page.locator("ol.hist > li > [lang=en]:first-child").count()
        page.context.close()
    assert errors == []
