"""The venue screen speaks the venue's language (``companion venue --language it``): the tables'
log lines, prompts, end reasons and money as their messages say them in that language, and the
page's own words from the same catalogue. An Italian screen following two tables (one played
to its end, one mid-game) on a real Mosquitto shows no English word but names."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from venue_helpers import ROOT, Broker, ScreenServer, SimTable, caught_up, run_all, wait_until

from companion.engine.i18n import Msg, render
from companion.venue.board import Board
from companion.venue.subscriber import ScreenSubscriber

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")

pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")


def _names(value: Any, out: set[str]) -> None:
    """The words of every name a message carries (players, spaces, cards: box words)."""
    if isinstance(value, Msg):
        for v in value.args.values():
            _names(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            _names(v, out)
    elif isinstance(value, str):
        out.update(w.lower() for w in WORD.findall(value))


def _page_words(page: Any) -> set[str]:
    text = page.evaluate("""() => [document.title, document.body.innerText,
        ...[...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label'))]
        .join('\\n')""")
    return {w.lower() for w in WORD.findall(text)}


def test_an_italian_venue_screen_has_no_english_word_but_names(
        tmp_path: Path, broker: Broker, screen: tuple[Board, ScreenSubscriber]) -> None:
    board, _ = screen
    italian = ScreenServer(board, language="it")
    english = ScreenServer(board)
    examples = ROOT / "examples"
    tables = [SimTable(tmp_path, "t01", broker.port, examples / "monopolino-4-players.json"),
              SimTable(tmp_path, "t02", broker.port, examples / "starwars-digital.json")]
    tables[0].setup.setdefault("settings", {})["board"] = {"language": "it"}
    errors: list[str] = []
    try:
        for t in tables:
            t.begin()
        run_all(tables, lambda t: t.play(None if t.name == "t01" else len(t.steps) // 2))
        wait_until(lambda: caught_up(board, tables), what="the screen", every=0.5)
        names = {"board", "companion", "café"}
        for t in tables:
            for _typ, say, _undone in t.lines(t.game_id).values():
                _names(say, names)
            view = t.service.view(t.game_id)
            for p in view["players"]:
                names.update(w.lower() for w in WORD.findall(f"{p['name']} {p.get('token')}"))
            names.update(w.lower() for w in WORD.findall(f"{t.name} {view['title']}"))
            _names(view.get("prompt", {}).get("text") if view.get("prompt") else None, names)
        words, texts = {}, {}
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for lang, server in (("it", italian), ("en", english)):
                # the screen's language, not the browser's
                ctx = browser.new_context(viewport={"width": 1920, "height": 1080},
                                          locale="en-GB")
                ctx.set_default_timeout(30000)
                page: Any = ctx.new_page()
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(server.url + "/")
                expect(page.locator("article.table")).to_have_count(2)
                expect(page.locator("#standings h3")).to_have_count(2)
                expect(page.locator("#link")).to_have_text("in diretta" if lang == "it" else "live")
                assert page.evaluate("document.documentElement.lang") == lang
                words[lang] = _page_words(page)
                texts[lang] = page.evaluate("document.body.innerText")
                ctx.close()
            browser.close()
        english_left = sorted(words["it"] & words["en"] - names)
        assert english_left == []
        # the Italian screen says the tables' last lines in Italian
        for t in tables:
            said = [s for _, s, _ in t.lines(t.game_id).values() if isinstance(s, Msg)]
            assert render(said[-1], "it") in texts["it"]
            assert str.__str__(said[-1]) not in texts["it"]
        assert errors == []
    finally:
        italian.close()
        english.close()
        for t in tables:
            t.close()
