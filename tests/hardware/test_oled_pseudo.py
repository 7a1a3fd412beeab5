"""Nothing left untranslated on the OLED (issue 30, item 6): a table whose screen is set to the
pseudo-language (``[hardware.display] language = "qps"``: every message decorated ⟦…⟧) plays
each edition's example game to its end, and every text the simulated 128x64 screen draws (the
words handed to the font, not read back from pixels; a text wrapped over several lines, or
paged, as the whole it was wrapped from) is looked at: the join screen, every page
of every game screen, every choice the buttons step through and the values they edit, the end
screen with the game's story. A word outside the catalogue fails, but for what a table shows
as it is in every language (tests/i18n/pseudo.py: names, the box's words, numbers, money)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.service.game_service import GameService
from companion.service.script import parse_step
from companion.service.table import Table
from hardware import screens
from hardware.table import TableHardware
from tests.i18n import pseudo

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCRIPTS = {"mario": "mario-two-players", "pokemon": "pokemon-two-trainers",
           "starwars": "starwars-two-ships", "monopolino": "monopolino-2-players",
           "master-trainer": "master-trainer-two-players"}
URL = "http://companion.local:8080/"
PAGES = 6
"""Pages of one screen looked at (the text and the balances turn every PAGE_S seconds)."""


@pytest.mark.parametrize("edition", list(SCRIPTS))
def test_a_whole_game_on_the_oled_shows_no_word_outside_the_catalogue(
        edition: str, tmp_path: Path, monkeypatch: Any) -> None:
    drawn: list[str] = []
    wrapped: list[str] = []
    real_text, real_wrap = screens.text, screens.wrap

    def text(draw: Any, xy: Any, words: str, fill: str = screens.ON) -> None:
        drawn.append(words)
        real_text(draw, xy, words, fill)

    def wrap(words: str, cols: int = screens.COLS, first: int | None = None) -> list[str]:
        wrapped.append(" ".join(str(words).split()))
        return real_wrap(words, cols, first)

    monkeypatch.setattr(screens, "text", text)
    monkeypatch.setattr(screens, "wrap", wrap)
    now = [0.0]
    data = json.loads((EXAMPLES / f"{SCRIPTS[edition]}.json").read_text("utf-8"))
    steps = data.pop("steps")
    found: dict[str, str] = {}
    with GameService(tmp_path) as service:
        # the buttons' choices go nowhere: every choice can be stepped through and opened
        hw = TableHardware.from_config(
            {"readers": [{"role": "bank"}], "display": {"kind": "dummy", "language": "qps"}},
            on_tap=lambda r, u: None, on_action=lambda a, e: None, simulate=True,
            clock=lambda: now[0])
        try:
            table = Table(service, hw)
            table.public_url = URL
            out = service.create_game(data)
            assert out.ok, out.error
            game_id = str(out.game_id)
            words = pseudo.Table(service, edition)

            def look(where: str) -> None:
                words.learn(game_id)
                drawn.clear()
                wrapped.clear()
                table.show_active()
                for _ in range(PAGES):  # every page of the screen
                    now[0] += screens.PAGE_S
                    hw.tick()
                for n in range(len(hw.navigator.actions)):  # every choice, opened
                    hw.navigator.index = n
                    hw.press("ok")
                    options = ((hw.navigator.actions[n].get("input") or {}).get("options")
                               or [])
                    for _ in options[1:] or [None]:
                        hw.press("next")
                    hw.press("back")
                    hw.press("back")
                lines = [line for line in drawn if not any(line in whole for whole in wrapped)]
                for line in [*wrapped, *lines]:
                    if line in URL:  # the join screen's address, cut to fit, is no word
                        continue
                    if line.endswith("~") and any(w.startswith(line[:-1]) for w in words.words):
                        continue  # a name or a title cut to fit
                    if words.left(line):
                        found.setdefault(line, where)

            look("the join screen")
            for n, step in enumerate(steps, 1):
                _, state = service.state(game_id)
                res = service.submit(game_id, parse_step(state, step))
                assert res.ok, (n, step, res.error)
                look(f"step {n} {step!r}")
            assert service.view(game_id, None)["finished"]
        finally:
            hw.stop()
    assert found == {}, "\n".join(f"{where}: {line!r}" for line, where in found.items())


def test_the_start_up_and_fault_screens_show_no_word_outside_the_catalogue(
        tmp_path: Path, monkeypatch: Any) -> None:
    """Issue 41: the screens a table shows when it cannot start (a damaged, read-only, busy or
    deleted database, a state directory in memory), when a device goes missing, and when a
    screen cannot be drawn, in the pseudo-language."""
    from companion.store.errors import StoreError, StoreLost
    from tests.i18n.test_device_words import device_fault

    drawn: list[str] = []
    real_wrap = screens.wrap

    def wrap(words: str, cols: int = screens.COLS, first: int | None = None) -> list[str]:
        drawn.append(" ".join(str(words).split()))
        return real_wrap(words, cols, first)

    monkeypatch.setattr(screens, "wrap", wrap)
    hw = TableHardware.from_config(
        {"readers": [{"role": "bank"}], "display": {"kind": "dummy", "language": "qps"}},
        on_tap=lambda r, u: None, on_action=lambda a, e: None, simulate=True)
    texts = [StoreError("x", kind).screen for kind in ("damaged", "read_only", "busy")]
    texts += [StoreLost("x").screen, device_fault("table"), device_fault("buttons")]
    try:
        for text in texts:
            hw.show_error(text)

        def broken(draw: Any) -> None:
            raise OSError("the panel")

        hw.display.render(broken)  # a screen that cannot be drawn says so
    finally:
        hw.stop()
    with GameService(tmp_path) as service:
        words = pseudo.Table(service, "mario")
    assert len(drawn) >= len(texts) + 1
    assert [line for line in drawn if words.left(line.replace("I/O", ""))] == []
