"""Messages as keys and arguments (companion/engine/i18n.py): money and numbers in each reader's
conventions, plurals by each catalogue's own rule, a message kept as data in the real log,
and an old log's plain English shown as it was written."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.i18n import (
    LANGUAGES,
    Money,
    Msg,
    Msgs,
    from_stored,
    money,
    number,
    render,
    stored,
)
from companion.engine.money import Currency
from companion.engine.types import Event, GameSetup
from companion.service import game
from companion.store.database import Store

EURO = Currency("euro", "euros", "€", 2)
CREDITS = Currency("credit", "credits", "₥", 0)
COINS = Currency("coin", "coins")
BALLS = Currency("Poké Ball", "Poké Balls")


def test_the_three_languages_are_offered() -> None:
    assert LANGUAGES == ("en", "es", "it")


@pytest.mark.parametrize(("lang", "euro", "credits"), [
    ("en", "€7.50", "₥1,500"), ("it", "€7,50", "₥1.500"), ("es", "€7,50", "₥1.500")])
def test_money_is_written_the_readers_way(lang: str, euro: str, credits: str) -> None:
    assert money(750, EURO, lang) == euro
    assert money(1500, CREDITS, lang) == credits
    assert money(-50, EURO, lang) == ("-€0.50" if lang == "en" else "-€0,50")


@pytest.mark.parametrize(("lang", "one", "three", "million"), [
    ("en", "1 coin", "3 coins", "1,000,000 coins"),
    ("it", "1 moneta", "3 monete", "1.000.000 di monete"),
    ("es", "1 moneda", "3 monedas", "1.000.000 de monedas")])
def test_counted_money_takes_each_languages_plural(lang: str, one: str, three: str,
                                                   million: str) -> None:
    assert [money(n, COINS, lang) for n in (1, 3, 1_000_000)] == [one, three, million]


def test_poke_balls_stay_invariable_in_italian() -> None:
    assert money(2, BALLS, "it") == "2 Poké Ball"
    assert money(2, BALLS, "es") == "2 Poké Balls"
    assert money(1, BALLS, "en") == "1 Poké Ball"


def test_a_message_is_its_english_text_and_renders_in_another_language() -> None:
    msg = Msg("{player} pays {amount} to the Bank for {space}.", player="“Zoë”",
              amount=Money(750, EURO), space="Дмитрий Street")
    assert msg == "“Zoë” pays €7.50 to the Bank for Дмитрий Street."
    assert render(msg, "it") == "“Zoë” paga €7,50 alla Banca per Дмитрий Street."
    assert render(msg, "es") == "“Zoë” paga €7,50 a la Banca por Дмитрий Street."
    assert render(msg, "xx") == str(msg)  # an unknown language reads English


def test_a_nested_message_and_a_list_render_in_the_same_language() -> None:
    why = Msg("{player} lands on {space}: pays {amount} onto the LOTTERY", player="Ann",
              space="Sweets", amount=Money(50, EURO))
    assert render(Msg("{why}.", why=why), "it") == \
        "Ann si ferma su Sweets: paga €0,50 sulla LOTTERIA."
    win = Msg("{players} are richest with {amount} each and share the win.",
              players=["Ann", "Bo"], amount=Money(900, EURO))
    assert render(win, "es") == "Ann y Bo son los más ricos con €9,00 cada uno y ganan juntos."
    assert render(Msgs("{n} coin", "{n} coins", 1), "it") == "1 moneta"


def test_a_message_is_kept_as_data_in_the_log_and_read_back(tmp_path: Path) -> None:
    """The real SQLite log stores the key and arguments, not a language; read back, the
    message renders in any language. A line an older version wrote in English stays so."""
    said = Msg("{player} lands on the LOTTERY and takes {amount}.", player="Zoë",
               amount=Money(1250, EURO))
    store = Store(tmp_path / "games.db")
    with store.transaction() as conn:
        store.add_game(conn, "g1", "monopolino", "t", 0.0, "1234")
        store.append(conn, "g1", 1, 0, 0.0, [Event("noted", {}, said),
                                              Event("noted", {}, "Ann rolled 5.")])
    store.close()
    again = Store(tmp_path / "games.db")
    first, old = (row.event.say for row in again.rows("g1"))
    again.close()
    assert isinstance(first, Msg) and first == said
    assert render(first, "it") == "Zoë si ferma sulla LOTTERIA e prende €12,50."
    assert not isinstance(old, Msg)
    assert [render(old, lang) for lang in LANGUAGES] == ["Ann rolled 5."] * 3


def test_a_prompt_kept_in_an_events_data_stays_a_message_after_a_restart(tmp_path: Path) -> None:
    """The question on the table is kept in an event's data (the to-do list and prompt): read
    back after a restart it still renders in each phone's language, not in English."""
    asked = Msg("{player}: buy {space} for {amount} or auction it", player="Zoë",
                space="Vicolo Corto", amount=Money(150, EURO))
    data = {"prompt": {"kind": "buy", "to": ["zoe"], "text": asked, "data": {"space": 1}},
            "todo": [{"say": Msg("Roll again")}], "note": "plain"}
    store = Store(tmp_path / "games.db")
    with store.transaction() as conn:
        store.add_game(conn, "g1", "monopolino", "t", 0.0, "1234")
        store.append(conn, "g1", 1, 0, 0.0, [Event("flow_changed", data)])
    store.close()
    again = Store(tmp_path / "games.db")
    (row,) = again.rows("g1")
    again.close()
    text = row.event.data["prompt"]["text"]
    assert isinstance(text, Msg) and text == asked
    assert render(text, "it").startswith("Zoë: ")
    assert render(text, "it") != str(asked)
    assert isinstance(row.event.data["todo"][0]["say"], Msg)
    assert row.event.data["note"] == "plain" and row.event.data["prompt"]["data"] == {"space": 1}


def test_a_question_asked_before_a_restart_still_speaks_each_language(tmp_path: Path) -> None:
    """The rules' own ``prompt_asked`` fact, kept by the store and replayed after a restart,
    gives the question back as a message: an Italian phone reads it in Italian."""
    setup = GameSetup.from_json({"edition": "monopolino", "players": ["Zoë", "Дмитрий"],
                                 "dice": "digital", "seed": 3, "settings": {}})
    events = game.new_game(setup)
    assert "prompt_asked@2" in [e.type for e in events]
    store = Store(tmp_path / "games.db")
    with store.transaction() as conn:
        store.add_game(conn, "g1", "monopolino", "t", 0.0, "1234")
        store.append(conn, "g1", 1, 0, 0.0, events)
    store.close()
    again = Store(tmp_path / "games.db")
    state = game.replay(row.event for row in again.rows("g1"))
    again.close()
    assert state.prompt is not None
    text = state.prompt.text
    assert isinstance(text, Msg)
    assert render(text, "it") == "Zoë: tira per vedere chi comincia"
    assert str(text) == "Zoë: roll to see who starts"


def test_an_export_line_keeps_the_message() -> None:
    said = Msg("{player} rolled {n}.", player="Ann", n=1200)
    back = Event.from_json(Event("noted", {}, said).to_json())
    assert isinstance(back.say, Msg) and render(back.say, "it") == "Ann ha fatto 1.200."
    assert from_stored(stored("plain words")) == "plain words"


def test_a_bad_argument_is_refused_where_the_message_is_made() -> None:
    with pytest.raises(TypeError):
        Msg("{x}", x=1.5)


@pytest.mark.parametrize("decimals", [0, 2])
def test_english_digits_are_cldrs(decimals: int) -> None:
    """English is written without loading Babel's locale data; its digits stay CLDR's."""
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
    for value in (0, 7, 1200, 1959, 25000, 1234567, 7.5, 0.05, 1500.25):
        if decimals == 0 and isinstance(value, float):
            continue
        assert number(value, "en", decimals) == format_decimal(
            value, format=pattern, locale="en", group_separator=True)


def test_english_lists_are_cldrs_without_its_locale_data() -> None:
    """A list said in English ("A, B, and C") reads as Babel's, without loading Babel's locale
    data (4 MB of CLDR, which took the 8-phone memory figure over its 60 MB budget)."""
    import subprocess
    import sys

    from babel.lists import format_list

    for items in (["A"], ["A", "B"], ["A", "B", "C"], ["A", "B", "C", "D"]):
        assert render(Msg("Over: {spaces}", spaces=items), "en") == \
            "Over: " + format_list(items, locale="en")
    code = ("import babel.localedata as d; from companion.engine.i18n import Msg, render; "
            "render(Msg('Over: {s}', s=['A', 'B', 'C']), 'en'); print(sorted(d._cache))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
