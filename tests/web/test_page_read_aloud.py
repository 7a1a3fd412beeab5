"""Read aloud, for the youngest players (issue 41): a switch kept on the phone, off until
turned on, that speaks each new line of the table in the phone's language with the browser's
speech synthesis (web/static/aloud.js). Chromium's speechSynthesis is stubbed in the page to
record each utterance and its language; a phone with no voice for its language says so on
the switch and speaks nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from page_driver import expect, join, join_code, new_phone, running_server, script

from companion.engine import i18n
from companion.service.game_service import GameService
from companion.service.script import parse_step

HAPPENED = "Appena successo"


def stub(page: Any, voices: list[str]) -> None:
    """The page's speechSynthesis replaced by a recorder (``window.__spoken``: each
    utterance's text and lang) with these voices."""
    page.context.add_init_script(f"window.__voices = {json.dumps(voices)};" + """(() => {
      const voices = window.__voices.map((lang) => ({lang, name: "stub " + lang, default: false}));
      window.__spoken = [];
      window.SpeechSynthesisUtterance = function (text) { this.text = text; this.lang = ""; };
      Object.defineProperty(window, "speechSynthesis", {configurable: true, value: {
        speak(u) { window.__spoken.push({text: u.text, lang: u.lang}); },
        cancel() {}, getVoices() { return voices; }, addEventListener() {},
      }});
    })();""")


def start(service: GameService) -> tuple[str, list[str]]:
    data = script("monopolino")
    steps = data.pop("steps")
    out = service.create_game(data)
    assert out.ok, out.error
    return str(out.game_id), steps


def play(service: GameService, game_id: str, step: str) -> list[str]:
    """The step played; the lines it said, in Italian."""
    before = len(service.history(game_id))
    res = service.submit(game_id, parse_step(service.state(game_id)[1], step))
    assert res.ok, res.error
    rows = service.history(game_id)[before:]
    return [i18n.render(r["say"], "it") for r in rows]


def spoken(page: Any) -> list[dict[str, str]]:
    return list(page.evaluate("window.__spoken"))


def test_a_phone_reads_the_table_aloud_in_its_language(browser: Any, tmp_path: Path) -> None:
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        game_id, steps = start(service)
        page = new_phone(browser, errors, locale="it-IT")
        stub(page, ["en-US", "it-IT"])
        ids = [p["id"] for p in service.view(game_id, None)["players"]]
        join(page, base, join_code(service, game_id), ids[0])
        play(service, game_id, steps[0])
        expect()(page.get_by_role("list", name=HAPPENED)).to_be_visible()
        assert spoken(page) == []  # off by default: nothing said
        page.locator("#tab-more").click()
        switch = page.get_by_label("Leggi ad alta voce quello che succede al tavolo")
        expect()(switch).not_to_be_checked()
        switch.check()
        page.wait_for_function("() => window.__spoken.length === 1")
        assert spoken(page) == [{"text": "Lettura ad alta voce attiva.", "lang": "it-IT"}]
        lines = play(service, game_id, steps[1])
        assert lines
        page.wait_for_function(f"() => window.__spoken.length >= {1 + len(lines)}")
        said = spoken(page)[1:]
        assert [s["text"] for s in said][:len(lines)] == lines
        assert {s["lang"] for s in said} == {"it-IT"}
        # kept on the phone: after a reload it is still on, and it speaks the next move
        page.reload()
        page.locator("#tab-more").click()
        expect()(page.get_by_label("Leggi ad alta voce quello che succede al tavolo")
                 ).to_be_checked()
        lines = play(service, game_id, steps[2])
        page.wait_for_function(f"() => window.__spoken.length >= {len(lines)}")
        assert [s["text"] for s in spoken(page)][:len(lines)] == lines
        page.context.close()
    assert errors == []


def test_a_phone_without_a_voice_for_its_language_says_so(browser: Any,
                                                            tmp_path: Path) -> None:
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        game_id, steps = start(service)
        page = new_phone(browser, errors, locale="es-ES")
        stub(page, ["en-US", "it-IT"])
        ids = [p["id"] for p in service.view(game_id, None)["players"]]
        join(page, base, join_code(service, game_id), ids[0])
        page.locator("#tab-more").click()
        expect()(page.locator("#pref-aloud-hint")).to_have_text(
            "Este teléfono no tiene voz para este idioma: añade una en los ajustes de texto "
            "a voz.")
        page.locator("#pref-aloud").check()
        play(service, game_id, steps[0])
        page.locator("#tab-table").click()
        expect()(page.get_by_role("list", name="Acaba de pasar")).to_be_visible()
        assert spoken(page) == []  # an English voice would garble Spanish: nothing said
        page.context.close()
    assert errors == []
