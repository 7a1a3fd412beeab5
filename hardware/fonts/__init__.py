"""The OLED's font: misc-fixed 6x12 (public domain), shipped here so a laptop and a Pi draw
the same pixels. It covers Latin, Greek, Cyrillic, currency signs (₥ € ₽), punctuation
(“curly” quotes, dashes, …) and common symbols (♀ ♂ ★ ■ ✕); anything else is drawn as the
replacement glyph � so the screen shows that something is there and never fails on it.

Text is drawn cell by cell (6 px a character, 12 px a line): it is normalised to NFC first,
so "e" + combining acute becomes "é"; combining marks left over are drawn over the cell before
them, and invisible format characters (zero-width joiners, variation selectors) take no cell.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw

BDF = Path(__file__).with_name("fixed-6x12.bdf")
REPLACEMENT = 0xFFFD
ZWJ = "\u200d"
_CHAR = re.compile(r"^ENCODING (-?\d+)\n.*?^BBX (-?\d+) (-?\d+) (-?\d+) (-?\d+)\n.*?"
                   r"^BITMAP\n(.*?)^ENDCHAR", re.M | re.S)


@dataclass(frozen=True)
class Glyph:
    mask: Image.Image
    """Mode "1" image of the glyph's bounding box."""
    dx: int
    dy: int
    """Offset of the box from the cell's top-left corner."""


class BitmapFont:
    """A fixed-width bitmap font read from a BDF file; draws any string without failing."""

    def __init__(self, path: Path) -> None:
        self.cell_w, self.cell_h, self.ascent = 6, 12, 10
        self._raw: dict[int, tuple[str, int, int, int, int]] = {}  # hex rows, w, h, dx, dy
        self._made: dict[int, Glyph] = {}
        self._load(path.read_text(encoding="ascii"))
        if REPLACEMENT not in self._raw:  # a hollow box
            box = Image.new("1", (self.cell_w, self.cell_h))
            ImageDraw.Draw(box).rectangle((0, 1, self.cell_w - 2, self.cell_h - 3), outline=1)
            self._made[REPLACEMENT] = Glyph(box, 0, 0)

    def _load(self, text: str) -> None:
        head, _, chars = text.partition("STARTCHAR")
        for line in head.splitlines():
            key, _, rest = line.partition(" ")
            if key == "FONTBOUNDINGBOX":
                self.cell_w, self.cell_h = (int(v) for v in rest.split()[:2])
            elif key == "FONT_ASCENT":
                self.ascent = int(rest)
        for m in _CHAR.finditer(chars):
            code, w, h, x, y = (int(v) for v in m.group(1, 2, 3, 4, 5))
            if code >= 0:
                self._raw[code] = (m.group(6).replace("\n", ""), w, h, x, self.ascent - h - y)

    def glyph(self, code: int) -> Glyph | None:
        """The glyph of code point ``code`` (made on first use), or None."""
        found = self._made.get(code)
        if found is None and code in self._raw:
            rows, w, h, dx, dy = self._raw[code]
            # BDF rows are padded to whole bytes, most significant bit first: PIL's mode "1"
            mask = (Image.frombytes("1", (w, h), bytes.fromhex(rows)) if w and h
                    else Image.new("1", (1, 1)))
            found = self._made[code] = Glyph(mask, dx, dy)
        return found

    def has(self, char: str) -> bool:
        """Whether ``char`` has a glyph of its own (else it is drawn as �)."""
        return ord(char) in self._raw or ord(char) in self._made

    def cells(self, text: str) -> list[str]:
        """``text`` split into what takes one cell each: a character and the combining marks
        drawn over it. Format characters take none; a zero-width joiner and what it joins
        (an emoji sequence) share the cell before it."""
        out: list[str] = []
        text = unicodedata.normalize("NFC", str(text))
        i = 0
        while i < len(text):
            char = text[i]
            i += 1
            if char == ZWJ:
                i += 1  # the joined character is part of the previous cell's emoji
                continue
            category = unicodedata.category(char)
            if category == "Cf" or 0xFE00 <= ord(char) <= 0xFE0F:
                continue
            if category in ("Mn", "Me") and out:
                out[-1] += char
                continue
            out.append(char)
        return out

    def width(self, text: str) -> int:
        """Pixels ``text`` takes."""
        return len(self.cells(text)) * self.cell_w

    def draw(self, draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str,
             fill: str | int = "white") -> None:
        """Draw ``text`` with its cells' top-left corner at ``xy``."""
        x, y = xy
        for cell in self.cells(text):
            for char in cell:
                glyph = self._glyph(char)
                draw.bitmap((x + glyph.dx, y + glyph.dy), glyph.mask, fill=fill)
            x += self.cell_w

    def _glyph(self, char: str) -> Glyph:
        found = self.glyph(ord(char))
        if found is None or unicodedata.east_asian_width(char) in ("W", "F"):
            replacement = self.glyph(REPLACEMENT)
            assert replacement is not None
            return replacement
        return found


@cache
def oled_font() -> BitmapFont:
    """The shipped font, read once."""
    return BitmapFont(BDF)
