"""What the 128x64 OLED shows, drawn with PIL on any ImageDraw (no I/O here).

Five lines of 21 characters (misc-fixed 6x12, see hardware/fonts). The game screen::

    Ana's turn        4+3     <- whose turn, the last roll
    Ana ₥1500  Bob ₥980       <- balances, current player first; paged when they do not fit
    Buy “Tatooine” for ₥60?   <- the prompt's text (else the newest log line), paged
    ...                       <- (a bar at the right edge tells which page)
    [> Buy            1/3 ]   <- the highlighted choice, or the value being edited

The decision is never cut and never paged: the highlighted choice (or the value being edited)
takes as many inverted lines as it needs, and the text gives them up. Text and balances that do
not fit are shown a page at a time: :func:`game_rows` lays out page ``page`` (the table turns
the page every ``PAGE_S`` seconds) and :func:`game_pages` says how many there are.

The screen's own words ("Game over", "Ana's turn", "Join:") and its money are in the table's
language, ``lang`` (``[hardware.display] language``; the view's messages arrive rendered in it).
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import segno
from babel.numbers import format_decimal
from PIL import ImageDraw

from companion.engine import i18n
from companion.engine.i18n import Msg, Msgs
from companion.engine.money import Currency
from hardware.fonts import oled_font
from hardware.glance import without_asides

WIDTH, HEIGHT = 128, 64
LINE_H = 13  # 12 px a glyph, one blank row between lines
COLS = 21
ROWS = 5
ON, OFF = "white", "black"
PAGE_S = 3.0
"""Seconds a page of text or balances stays before the next one."""


@dataclass(frozen=True)
class Row:
    """One line of the screen: ``text`` on the left, ``right`` flush right, both whole."""

    text: str
    inverted: bool = False
    right: str = ""
    cut_ok: bool = False  # only the header may be cut (a title, a long name)


def text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], words: str, fill: str = ON) -> None:
    """Draw ``words`` with the OLED font (any character: missing ones show as �)."""
    oled_font().draw(draw, xy, words, fill=fill)


def width(words: str) -> int:
    """Cells ``words`` takes on the screen."""
    return len(oled_font().cells(words))


def fit(words: str, cols: int = COLS) -> str:
    """``words`` on one line (spacing kept), cut to ``cols`` cells with "~" marking a cut."""
    cells = oled_font().cells(" ".join(str(words).splitlines()))
    return "".join(cells) if len(cells) <= cols else "".join(cells[: cols - 1]) + "~"


def wrap(words: str, cols: int = COLS, first: int | None = None) -> list[str]:
    """``words`` wrapped to lines of ``cols`` cells (the first line ``first`` cells)."""
    norm = " ".join(unicodedata.normalize("NFC", str(words)).split())
    if first is None or first == cols:
        return textwrap.wrap(norm, cols, break_on_hyphens=False)
    head = textwrap.wrap(norm, first, break_on_hyphens=False)[:1]
    rest = norm[len(head[0]):].strip() if head else ""
    return head + textwrap.wrap(rest, cols, break_on_hyphens=False)


def _line(draw: ImageDraw.ImageDraw, row: int, words: str, *, inverted: bool = False,
          right: str = "") -> None:
    y = row * LINE_H
    if inverted:
        draw.rectangle((0, y - 1, WIDTH - 1, y + LINE_H - 2), fill=ON)
    colour = OFF if inverted else ON
    cells = width(right)
    room = COLS - (cells + 1 if right else 0)
    text(draw, (1, y), fit(words, room), fill=colour)
    if right:
        text(draw, (WIDTH - 1 - 6 * cells, y), right, fill=colour)


def _name(view: Mapping[str, Any], pid: str | None, lang: str = i18n.SOURCE) -> str:
    for p in view.get("players", []):
        if p.get("id") == pid:
            return str(p.get("name", pid))
    return i18n.render(Msg("Banker"), lang) if pid == "banker" else str(pid or "")


def counted(view: Mapping[str, Any], player: Mapping[str, Any],
            lang: str = i18n.SOURCE) -> str:
    """What the game counts for ``player``, short, with ``lang``'s decimal mark: "₥1500",
    "€6.50" / "€6,50", "19" (Poké Balls, coins), a score's short words ("4PP") or ""
    (nothing to count)."""
    money = player.get("money")
    if money is None:
        score = player.get("score")
        return "" if score is None else i18n.render(score["short"], lang)
    currency = view.get("currency") or {}
    if currency.get("symbol") and isinstance(money, int):
        return short_money(money, Currency(str(currency.get("one", "")),
                                           str(currency.get("many", "")),
                                           str(currency["symbol"]),
                                           int(currency.get("decimals", 0))), lang)
    if currency.get("symbol") and player.get("money_text"):
        return str(player["money_text"])
    return str(money)


def short_money(amount: int, currency: Currency, lang: str = i18n.SOURCE) -> str:
    """``amount`` short for the screen, with ``lang``'s decimal mark and no grouping:
    "€7.50" / "€7,50", "₥1500"."""
    sign, value = "-" if amount < 0 else "", abs(amount) / 10**currency.decimals
    if lang == i18n.SOURCE or lang not in i18n.LANGUAGES:  # no CLDR data loaded for English
        return f"{sign}{currency.symbol}{value:.{currency.decimals}f}"
    pattern = "0" + ("." + "0" * currency.decimals if currency.decimals else "")
    return f"{sign}{currency.symbol}{format_decimal(value, format=pattern, locale=lang)}"


def balance_pages(view: Mapping[str, Any], cols: int = COLS,
                  lang: str = i18n.SOURCE) -> list[str]:
    """The players still in, current first, as "name amount" packed into lines of ``cols``
    cells (two spaces between, one where that makes another fit). An amount is never cut; a
    name only if it alone is too long."""
    players = [p for p in view.get("players", []) if not p.get("bankrupt")]
    players.sort(key=lambda p: not p.get("is_current"))
    entries = []
    for p in players:
        amount = counted(view, p, lang)
        room = cols - (width(amount) + 1 if amount else 0)
        entries.append(" ".join(x for x in (fit(str(p.get("name", "")), room), amount) if x))
    lines: list[str] = []
    for entry in entries:
        if lines and width(lines[-1]) + 2 + width(entry) <= cols:
            lines[-1] += "  " + entry
        elif lines and width(lines[-1]) + 1 + width(entry) <= cols:
            lines[-1] += " " + entry
        else:
            lines.append(entry)
    return lines


def _choice_rows(nav: Mapping[str, Any] | None) -> list[Row]:
    """The decision, whole, on as many inverted lines as it takes: the highlighted choice
    with "n/N", or the value being edited."""
    if not nav or not nav.get("items"):
        return []
    editing = nav.get("editing")
    if editing:
        words = f"{editing['label']}: < {editing['value']} >"
        right = str(editing.get("position") or "")
    else:
        items, index = nav["items"], nav["index"]
        words = str(items[index])
        right = f"{index + 1}/{len(items)}" if len(items) > 1 else ""
    first = COLS - (width(right) + 1 if right else 0)
    lines = wrap(words, COLS, first=first) or [""]
    if len(lines) > ROWS - 1 and right:  # a card's whole text: the count makes room
        lines = wrap(words, COLS) or [""]
        if width(lines[-1]) + 1 + width(right) > COLS:
            right = ""
        return [Row(line, True, right if n == len(lines) - 1 else "")
                for n, line in enumerate(lines)]
    return [Row(line, True, right if n == 0 else "") for n, line in enumerate(lines)]


def question(view: Mapping[str, Any]) -> str:
    """What the screen says is asked: the prompt's glance (hardware/glance.py) or its text,
    without asides in parentheses (the phones show them); else the newest log line."""
    prompt = view.get("prompt") or {}
    words = prompt.get("glance") or prompt.get("text")
    if words:
        return without_asides(str(words))
    log: Sequence[str] = view.get("log") or []
    return str(log[-1]) if log else ""


def _paged(lines: list[str], size: int) -> list[list[str]]:
    if size <= 0 or not lines:
        return [[]]
    return [lines[i:i + size] for i in range(0, len(lines), size)]


@dataclass(frozen=True)
class _Layout:
    header: list[Row]
    choice: list[Row]
    texts: list[list[str]]  # the question's pages
    balances: list[list[str]]  # the balances' pages ([] when the question needs the room)


def _layout(view: Mapping[str, Any], nav: Mapping[str, Any] | None, lang: str = i18n.SOURCE
            ) -> _Layout:
    """The decision takes what it needs, the header (whose turn, the roll) one line; the
    question gets the rest. The balances take the lines the question leaves when it fits on
    one page with one to spare; else they give the question their line (the phones show
    them)."""
    roll = "+".join(str(d) for d in view.get("last_roll") or [])
    current = view.get("current")
    turn = i18n.render(Msg("{player}'s turn", player=_name(view, current, lang)), lang)
    header = Row(turn if current else str(view.get("title", "")), right=roll, cut_ok=True)
    choice = _choice_rows(nav)
    room = max(0, ROWS - len(choice) - 1)
    lines = wrap(question(view))
    balances = balance_pages(view, lang=lang)
    if balances and len(lines) < room:
        return _Layout([header], choice, [lines], _paged(balances, room - len(lines)))
    return _Layout([header] if len(choice) < ROWS else [], choice, _paged(lines, room), [])


def game_pages(view: Mapping[str, Any], nav: Mapping[str, Any] | None = None,
               lang: str = i18n.SOURCE) -> int:
    """How many pages the game screen has (1: nothing to turn)."""
    if view.get("finished"):  # as draw_end
        return len(_paged(_end_lines(view, lang), ROWS - 1))
    layout = _layout(view, nav, lang)
    return max(len(layout.texts), len(layout.balances))


@dataclass(frozen=True)
class Screen:
    """A laid-out screen: its rows, and where the paged text is (for the page bar)."""

    rows: list[Row]
    text_at: int = 1  # first row of the text
    text_rows: int = 0  # rows the text may use
    page: int = 0  # which page of the text is shown ...
    pages: int = 1  # ... of how many
    balance_at: int | None = None  # the first row of the balances, if they are shown
    balance_rows: int = 0  # ... and how many rows they have


def game_rows(view: Mapping[str, Any], nav: Mapping[str, Any] | None = None,
              page: int = 0, lang: str = i18n.SOURCE) -> Screen:
    """Game screen page ``page`` (any number: it wraps around): the question's page, or the
    balances' page when the question fits on one."""
    layout = _layout(view, nav, lang)
    rows = list(layout.header)
    text_page = page % len(layout.texts)
    text_at = len(rows)
    rows += [Row(line) for line in layout.texts[text_page]]
    balance_at, balance_rows = None, 0
    if layout.balances:
        balance_at = len(rows)
        shown = layout.balances[page % len(layout.balances)]
        balance_rows = ROWS - len(layout.choice) - balance_at
        rows += [Row(line) for line in shown]
    rows += [Row("")] * (ROWS - len(rows) - len(layout.choice))
    rows += layout.choice[:ROWS]
    text_rows = len(layout.texts[0]) if layout.balances else ROWS - text_at - len(layout.choice)
    return Screen(rows, text_at, max(0, text_rows), text_page, len(layout.texts), balance_at,
                  balance_rows)


def _draw(draw: ImageDraw.ImageDraw, screen: Screen) -> None:
    for n, row in enumerate(screen.rows):
        _line(draw, n, row.text, inverted=row.inverted, right=row.right)
    if screen.pages > 1:  # a bar at the right edge: which page of the text this is
        top = screen.text_at * LINE_H
        span = (screen.text_rows * LINE_H - 2) / screen.pages
        draw.line((WIDTH - 1, round(top + screen.page * span), WIDTH - 1,
                   round(top + (screen.page + 1) * span) - 1), fill=ON)


def _titled(title: str, lines: list[str], page: int) -> Screen:
    """An inverted title over lines paged four at a time."""
    pages = _paged(lines, ROWS - 1)
    shown = page % len(pages)
    return Screen([Row(title, True), *(Row(line) for line in pages[shown])], 1, ROWS - 1,
                  shown, len(pages))


def draw_game(draw: ImageDraw.ImageDraw, view: Mapping[str, Any],
              nav: Mapping[str, Any] | None = None, page: int = 0,
              lang: str = i18n.SOURCE) -> None:
    """The game screen from a view dict and the navigator's state (``PromptNavigator.state``),
    page ``page`` of :func:`game_pages`."""
    if view.get("finished"):
        draw_end(draw, view, page, lang)
    else:
        _draw(draw, game_rows(view, nav, page, lang))


def _end_lines(view: Mapping[str, Any], lang: str = i18n.SOURCE) -> list[str]:
    """Who won, why, then each player's figures when the view carries the game's story
    (``view["story"]``, companion/engine/story.py ``screen_lines``: the winner first)."""
    winners = [_name(view, w, lang) for w in view.get("winners", [])]
    won = i18n.render(Msgs("{players} wins!", "{players} win!", len(winners),
                           players=winners), lang) if winners else ""
    story = [str(line) for line in view.get("story", [])[1:]]
    return [*wrap(won), *wrap(str(view.get("end_reason", ""))), *story]


def draw_end(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], page: int = 0,
             lang: str = i18n.SOURCE) -> None:
    """The end of the game: who won and why (paged when it is long)."""
    _draw(draw, _titled(i18n.render(Msg("Game over"), lang), _end_lines(view, lang), page))


def draw_enrollment(draw: ImageDraw.ImageDraw, done: int, total: int, prompt: str,
                    lang: str = i18n.SOURCE) -> None:
    """Enrolling tags: a progress bar, "12 of 48 done" and what to tap next."""
    _line(draw, 0, i18n.render(Msg("Enrolling tags"), lang), inverted=True)
    _line(draw, 1, i18n.render(Msg("{done} of {total} done", done=done, total=total), lang))
    draw.rectangle((1, 28, WIDTH - 2, 34), outline=ON)
    if total:
        draw.rectangle((1, 28, 1 + round((WIDTH - 3) * done / total), 34), fill=ON)
    for row, line in enumerate(wrap(i18n.render(prompt, lang))[:2]):
        text(draw, (1, 38 + row * LINE_H), line)


def draw_error(draw: ImageDraw.ImageDraw, text: str, page: int = 0,
               lang: str = i18n.SOURCE) -> None:
    """An error the table must see, wrapped over four lines (paged when longer)."""
    _draw(draw, _titled(i18n.render(Msg("! Problem"), lang), wrap(i18n.render(text, lang)),
                        page))


def error_pages(text: str, lang: str = i18n.SOURCE) -> int:
    """How many pages :func:`draw_error` has for ``text``."""
    return len(_paged(wrap(i18n.render(text, lang)), ROWS - 1))


def qr_matrix(url: str) -> list[list[bool]]:
    """The QR code of ``url`` (version 3 at most, so it fits at 2 px a module)."""
    qr = segno.make_qr(url, error="l", boost_error=True)
    if not isinstance(qr.version, int) or qr.version > 3:
        raise ValueError(f"address too long for the OLED's QR code (version {qr.version}): {url}")
    return [[bool(m) for m in row] for row in qr.matrix]


def draw_join(draw: ImageDraw.ImageDraw, url: str, code: str, lang: str = i18n.SOURCE) -> None:
    """The join screen: a QR code of the page (dark modules on a lit square) and the code."""
    matrix = qr_matrix(url)
    size, scale = len(matrix), 2
    side = (size + 2) * scale  # one module of quiet zone around it
    top = (HEIGHT - side) // 2
    draw.rectangle((0, top, side - 1, top + side - 1), fill=ON)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                x0, y0 = (x + 1) * scale, top + (y + 1) * scale
                draw.rectangle((x0, y0, x0 + scale - 1, y0 + scale - 1), fill=OFF)
    left = side + 4
    text(draw, (left, 0), fit(i18n.render(Msg("Join:"), lang), (WIDTH - left) // 6))
    draw.rectangle((left, 13, WIDTH - 1, 27), fill=ON)
    cols = (WIDTH - left) // 6
    text(draw, (left + 2, 15), fit(code, cols), fill=OFF)
    short = url.split("://", 1)[-1].split("?", 1)[0]  # the code is shown above
    for n, line in enumerate(wrap(short, cols)[:3]):
        text(draw, (left, 30 + n * 11), line)
