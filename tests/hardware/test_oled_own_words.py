"""The OLED's own words follow the table's language too (issue 30): the turn line, the
balances' money, "Game over" and who won, the join, enrolment, error and Wi-Fi screens; an
error that is a message (a refused tap) is shown in the table's language."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from companion.engine.i18n import Msg
from hardware import screens, wifi_screen
from hardware.table import TableHardware

EURO = {"one": "euro", "many": "euros", "symbol": "€", "decimals": 2}
VIEW: dict[str, Any] = {
    "title": "Monopolino", "current": "p1", "currency": EURO, "last_roll": [3],
    "players": [{"id": "p1", "name": "Zoë", "money": 750, "money_text": "€7.50",
                 "is_current": True},
                {"id": "p2", "name": "Дмитрий", "money": 125050, "money_text": "€1,250.50"}],
    "prompt": None, "log": ["Zoë rolls 3."], "actions": []}
OVER = {**VIEW, "finished": True, "winners": ["p1", "p2"], "end_reason": "Time is up."}


def _texts(screen: screens.Screen) -> list[str]:
    return [row.text for row in screen.rows]


def test_the_turn_line_and_the_balances_speak_the_tables_language() -> None:
    rows = _texts(screens.game_rows(VIEW, None, 0, "it"))
    assert rows[0] == "Tocca a Zoë"
    assert rows[2:4] == ["Zoë €7,50", "Дмитрий €1250,50"]  # below the newest log line
    assert _texts(screens.game_rows(VIEW, None, 0, "es"))[0] == "Le toca a Zoë"
    english = _texts(screens.game_rows(VIEW, None, 0))
    assert english[0] == "Zoë's turn" and english[2:4] == ["Zoë €7.50", "Дмитрий €1250.50"]
    assert screens.counted({"currency": None}, {"money": None, "score": {
        "points": 4, "goal": 40, "label": Msg("Power Points"),
        "count": Msg("{n} Power Points", n=4), "short": Msg("{n}PP", n=4)}}, "it") == "4PP"


def test_the_end_screen_says_who_won_in_the_tables_language() -> None:
    def won(lang: str) -> str:
        return " ".join(screens._end_lines(OVER, lang)).removesuffix(" Time is up.")
    assert won("it") == "Zoë e Дмитрий vincono!"
    assert won("es") == "¡Zoë y Дмитрий ganan!"
    assert won("en") == "Zoë and Дмитрий win!"


def _drawn(fn: Any) -> bytes:
    image = Image.new("1", (screens.WIDTH, screens.HEIGHT))
    fn(ImageDraw.Draw(image))
    return image.tobytes()


def _said(monkeypatch: Any, fn: Any) -> list[str]:
    """Every piece of text ``fn`` draws on the screen, in order (what the table reads)."""
    seen: list[str] = []
    real = screens.text

    def text(draw: Any, xy: Any, words: str, fill: str = screens.ON) -> None:
        seen.append(words)
        real(draw, xy, words, fill)

    monkeypatch.setattr(screens, "text", text)
    _drawn(fn)
    return seen


def test_the_fixed_screens_are_in_the_tables_language(monkeypatch: Any) -> None:
    error = Msg("That tag means nothing in this game.")
    assert _said(monkeypatch, lambda d: screens.draw_error(d, error, lang="it")) == [
        "! Problema", *screens.wrap("Quel tag non significa nulla in questa partita.")]
    assert _said(monkeypatch, lambda d: screens.draw_enrollment(
        d, 3, 48, Msg("That tag means nothing in this game."), lang="es"))[:2] == [
        "Registro de tags", "3 de 48 hechos"]
    assert _said(monkeypatch, lambda d: screens.draw_join(d, "http://c.local/", "123456",
                                                          lang="es"))[0] == "Únete:"
    assert _said(monkeypatch, lambda d: wifi_screen.draw_wifi_join(
        d, "WIFI:S:x;;", "Tavolo", "pw", lang="es")) == [
        "Wifi:", "Tavolo", "Contraseña:", "pw"]


def _table(language: str) -> TableHardware:
    return TableHardware.from_config({"readers": [{"role": "bank"}],
                                      "display": {"kind": "dummy", "language": language}},
                                     lambda r, u: None, lambda a, x: None, simulate=True)


def test_an_italian_table_shows_its_own_words_and_a_refusal_in_italian() -> None:
    table = _table("it")
    try:
        table.show(OVER)
        shown = table.display.frame().tobytes()
        assert shown == _drawn(lambda d: screens.draw_end(d, OVER, 0, "it"))
        assert shown != _drawn(lambda d: screens.draw_end(d, OVER, 0))
        table.show_error(Msg("That tag means nothing in this game."))
        assert table.display.frame().tobytes() == _drawn(lambda d: screens._draw(
            d, screens._titled("! Problema", screens.wrap(
                "Quel tag non significa nulla in questa partita."), 0)))
    finally:
        table.stop()
