"""Each phone reads the table in its own language (issue 30): it follows its browser's
language, a choice on the page overrides it and is remembered, and the game's lines arrive as
messages the phone renders with the catalogue built from the same .po files."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

from page_driver import (
    expect,
    join,
    join_code,
    new_phone,
    running_server,
    setup_game,
    steady,
)


def _get(url: str, lang: str = "") -> tuple[int, str]:
    req = urllib.request.Request(url, headers={"Accept-Language": lang} if lang else {})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, ""


def test_the_page_and_its_catalogue_follow_accept_language(tmp_path: Path) -> None:
    with running_server(tmp_path) as (base, _service):
        assert '<html lang="it">' in _get(base + "/", "it-IT,it;q=0.9,en;q=0.5")[1]
        assert '<html lang="es">' in _get(base + "/", "es-AR")[1]
        assert '<html lang="en">' in _get(base + "/", "ru, de")[1]
        status, text = _get(base + "/api/i18n/it.json")
        cat = json.loads(text)
        assert status == 200 and cat["lang"] == "it"
        assert cat["messages"]["{player} places a booth on {space}."] == \
            "{player} mette un botteghino su {space}."
        assert cat["languages"] == {"en": "English", "es": "Español", "it": "Italiano"}
        assert _get(base + "/api/i18n/xx.json")[0] == 404
        # the pages the companion draws speak the reader's language too: their <html lang>
        # and their own words (the Wi-Fi page, the history and profile shells)
        for path in ("/", "/history", "/profile"):
            page = _get(base + path, "es-ES,es;q=0.9")[1]
            assert '<html lang="es">' in page and "Cargando…" in page, (path, page)
        assert "Vai alla partita" in _get(base + "/", "it")[1]


def test_a_phones_own_choice_beats_its_browsers_language(tmp_path: Path) -> None:
    """The choice made on the page (remembered in a cookie) draws the next page in it."""
    with running_server(tmp_path) as (base, _service):
        req = urllib.request.Request(base + "/history", headers={
            "Accept-Language": "en-GB", "Cookie": "companion.lang=it"})
        with urllib.request.urlopen(req, timeout=30) as resp:
            page = resp.read().decode()
            assert "Cookie" in resp.headers.get("Vary", "")
        assert '<html lang="it">' in page and "Le nostre partite" in page, page
        # the pseudo-language only for a phone that asks for it, never from a browser's list
        assert '<html lang="en">' in _get(base + "/", "qps")[1]
        status, text = _get(base + "/api/i18n/qps.json")
        cat = json.loads(text)
        assert status == 200 and "qps" not in cat["languages"]
        assert cat["messages"]["Your turn!"] == "⟦Your turn!⟧"


HAPPENED = {"en": "What just happened", "it": "Appena successo", "es": "Acaba de pasar"}


def _happened(page: Any) -> str:
    """The lines under "What just happened", named in the phone's own language."""
    lang = page.locator("html").get_attribute("lang") or "en"
    return str(page.get_by_role("list", name=HAPPENED[lang]).inner_text())


def test_an_italian_phone_reads_monopolino_in_italian(browser: Any, tmp_path: Path) -> None:
    """The same game, two phones: the Italian one reads its lines in Italian with €0,50, the
    English one reads them as before."""
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        game_id, ids = setup_game(service, "monopolino", "play")
        code = join_code(service, game_id)
        italian = new_phone(browser, errors, locale="it-IT")
        join(italian, base, code, ids[0])
        english = new_phone(browser, errors)
        join(english, base, code, ids[1])
        expect()(italian.locator("html")).to_have_attribute("lang", "it")
        said = _happened(italian)
        assert " avanza di " in said or " mette un botteghino " in said, said
        assert " moves " not in said and " places a booth " not in said, said
        assert re.search(r"€\d+,\d\d\b", said) and not re.search(r"€\d+\.\d\d\b", said), said
        # the page's own words too: its tabs and headings
        expect()(italian.locator("#tab-table")).to_have_text("Tavolo")
        expect()(italian.get_by_role("heading", name="Appena successo")
                              ).to_be_visible()
        # ...and every other word of the table: the players, booths and board panels, and the
        # page's own money figures in Italian digits (€4,50, never €4.50)
        for heading in ("Giocatori", "Botteghini e LOTTERIA", "Tabellone"):
            expect()(italian.get_by_role("heading", name=heading)).to_be_visible()
        # the pot under the name Monopolino gives it, a booth on each street that has one
        expect()(italian.locator(".board .mid .pot")).to_contain_text("Montepremi della LOTTERIA")
        owned = italian.locator(".cell.owned")
        for i in range(owned.count()):
            assert "botteghino" in (owned.nth(i).get_attribute("aria-label") or "")
        balance = italian.locator(".glance .balance").inner_text()
        assert balance.startswith("Hai ") and re.search(r"€\d+,\d\d$", balance), balance
        expect()(english.locator("#tab-table")).to_have_text("Table")
        english_said = _happened(english)
        assert " moves " in english_said or " places a booth " in english_said, english_said
        italian.context.close()
        english.context.close()
    assert errors == []


def test_the_phones_choice_of_language_is_remembered(browser: Any, tmp_path: Path) -> None:
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        game_id, ids = setup_game(service, "monopolino", "play")
        page = new_phone(browser, errors)
        join(page, base, join_code(service, game_id), ids[0])
        page.locator("#tab-more").click()
        page.select_option("#pref-lang", "es")
        expect()(page.locator("html")).to_have_attribute("lang", "es")
        page.reload()
        expect()(page.locator("html")).to_have_attribute("lang", "es")
        expect()(page.get_by_role("list", name=HAPPENED["es"])).to_contain_text(
            re.compile(r" avanza | caseta "))
        said = _happened(page)
        assert " moves " not in said and " places a booth " not in said, said
        page.context.close()
    assert errors == []


def test_an_italian_monopolino_game_pictured(browser: Any, tmp_path: Path) -> None:
    """The Table tab of an it-IT phone in play: the lines under "What just happened" are
    Italian (docs/screens/monopolino-play-it.png: test_page_play_languages.py)."""
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        game_id, ids = setup_game(service, "monopolino", "play")
        page = new_phone(browser, errors, locale="it-IT", bypass_csp=True)
        join(page, base, join_code(service, game_id), ids[0])
        steady(page, service.state(game_id)[0])
        assert " avanza di " in _happened(page) or " botteghino " in _happened(page)
        page.context.close()
    assert errors == []
