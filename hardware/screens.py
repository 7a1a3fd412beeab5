"""What the 128x64 OLED shows, drawn with PIL on any ImageDraw (no I/O here).

Layout of the game screen (misc-fixed 6x12, 21 characters a line, see hardware/fonts)::

    Ana's turn        4+3     <- whose turn, the last roll
    Ana 1500  Bo 980          <- balances, current player first
    Ana rolled 7, landed...   <- the newest log line (what the roll caused)
    Buy Cave for 60?          <- the prompt's text (or the log line before)
    [> Buy            1/3 ]   <- highlighted choice, or the value being edited
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

import segno
from PIL import ImageDraw

from hardware.fonts import oled_font

WIDTH, HEIGHT = 128, 64
LINE_H = 13  # 12 px a glyph, one blank row between lines
COLS = 21
ON, OFF = "white", "black"


def text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], words: str, fill: str = ON) -> None:
    """Draw ``words`` with the OLED font (any character: missing ones show as �)."""
    oled_font().draw(draw, xy, words, fill=fill)


def fit(words: str, cols: int = COLS) -> str:
    """``words`` cut to ``cols`` cells, with "~" marking a cut."""
    cells = oled_font().cells(" ".join(str(words).split()))
    return "".join(cells) if len(cells) <= cols else "".join(cells[: cols - 1]) + "~"


def wrap(words: str, cols: int = COLS) -> list[str]:
    """``words`` wrapped to lines of ``cols`` cells."""
    return textwrap.wrap(unicodedata.normalize("NFC", str(words)), cols,
                         break_on_hyphens=False)


def _line(draw: ImageDraw.ImageDraw, row: int, words: str, *, inverted: bool = False,
          right: str = "") -> None:
    y = row * LINE_H
    if inverted:
        draw.rectangle((0, y - 1, WIDTH - 1, y + LINE_H - 2), fill=ON)
    colour = OFF if inverted else ON
    width = len(oled_font().cells(right))
    room = COLS - (width + 1 if right else 0)
    text(draw, (1, y), fit(words, room), fill=colour)
    if right:
        text(draw, (WIDTH - 1 - 6 * width, y), right, fill=colour)


def _name(view: Mapping[str, Any], pid: str | None) -> str:
    for p in view.get("players", []):
        if p.get("id") == pid:
            return str(p.get("name", pid))
    return "Banker" if pid == "banker" else str(pid or "")


def _balances(view: Mapping[str, Any]) -> str:
    players = [p for p in view.get("players", []) if not p.get("bankrupt")]
    players.sort(key=lambda p: not p.get("is_current"))
    parts = [f"{''.join(oled_font().cells(str(p.get('name', '')))[:4])} {p.get('money', '')}"
             for p in players]
    wide = "  ".join(parts)
    return wide if len(oled_font().cells(wide)) <= COLS else " ".join(parts)


def draw_game(draw: ImageDraw.ImageDraw, view: Mapping[str, Any],
              nav: Mapping[str, Any] | None = None) -> None:
    """The game screen from a view dict and the navigator's state (``PromptNavigator.state``)."""
    if view.get("finished"):
        draw_end(draw, view)
        return
    roll = "+".join(str(d) for d in view.get("last_roll") or [])
    current = view.get("current")
    _line(draw, 0, f"{_name(view, current)}'s turn" if current else str(view.get("title", "")),
          right=roll)
    _line(draw, 1, _balances(view))
    log: Sequence[str] = view.get("log") or []
    prompt = view.get("prompt") or {}
    lines = [log[-1]] if log else []
    lines.append(prompt.get("text") or (log[-2] if len(log) > 1 else ""))
    for row, line in enumerate(lines[:2], start=2):
        _line(draw, row, line)
    _draw_choice(draw, nav)


def _draw_choice(draw: ImageDraw.ImageDraw, nav: Mapping[str, Any] | None) -> None:
    if not nav or not nav.get("items"):
        return
    editing = nav.get("editing")
    if editing:
        _line(draw, 4, f"{editing['label']}: < {editing['value']} >", inverted=True)
        return
    items, index = nav["items"], nav["index"]
    _line(draw, 4, f"> {items[index]}", inverted=True, right=f"{index + 1}/{len(items)}")


def draw_end(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    """The end of the game: who won and why."""
    _line(draw, 0, "Game over", inverted=True)
    winners = [_name(view, w) for w in view.get("winners", [])]
    won = " & ".join(winners) + (" wins!" if len(winners) == 1 else " win!") if winners else ""
    rows = [won] + wrap(str(view.get("end_reason", "")))
    for row, line in enumerate(rows[:4], start=1):
        _line(draw, row, line)


def draw_enrollment(draw: ImageDraw.ImageDraw, done: int, total: int, prompt: str) -> None:
    """Enrolling tags: a progress bar, "12 of 48 done" and what to tap next."""
    _line(draw, 0, "Enrolling tags", inverted=True)
    _line(draw, 1, f"{done} of {total} done")
    draw.rectangle((1, 28, WIDTH - 2, 34), outline=ON)
    if total:
        draw.rectangle((1, 28, 1 + round((WIDTH - 3) * done / total), 34), fill=ON)
    for row, line in enumerate(wrap(prompt)[:2]):
        text(draw, (1, 38 + row * LINE_H), line)


def draw_error(draw: ImageDraw.ImageDraw, text: str) -> None:
    """An error the table must see, wrapped over four lines."""
    _line(draw, 0, "! Problem", inverted=True)
    for row, line in enumerate(wrap(text)[:4], start=1):
        _line(draw, row, line)


def qr_matrix(url: str) -> list[list[bool]]:
    """The QR code of ``url`` (version 3 at most, so it fits at 2 px a module)."""
    qr = segno.make_qr(url, error="l", boost_error=True)
    if not isinstance(qr.version, int) or qr.version > 3:
        raise ValueError(f"address too long for the OLED's QR code (version {qr.version}): {url}")
    return [[bool(m) for m in row] for row in qr.matrix]


def draw_join(draw: ImageDraw.ImageDraw, url: str, code: str) -> None:
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
    text(draw, (left, 0), "Join:")
    draw.rectangle((left, 13, WIDTH - 1, 27), fill=ON)
    cols = (WIDTH - left) // 6
    text(draw, (left + 2, 15), fit(code, cols), fill=OFF)
    short = url.split("://", 1)[-1].split("?", 1)[0]  # the code is shown above
    for n, line in enumerate(wrap(short, cols)[:3]):
        text(draw, (left, 30 + n * 11), line)
