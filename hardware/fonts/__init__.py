"""The OLED's font: misc-fixed 6x12 (public domain), shipped here so a laptop and a Pi draw
the same pixels. It covers Latin, Greek, Cyrillic, currency signs (₥ € ₽), punctuation
(“curly” quotes, dashes, …) and common symbols (♀ ♂ ★ ■ ✕); anything else is drawn as the
replacement glyph � so the screen shows that something is there and never fails on it.

Text is drawn cell by cell (6 px a character, 12 px a line): it is normalised to NFC first,
so "e" + combining acute becomes "é"; combining marks left over are drawn over the cell before
them, and invisible format characters (zero-width joiners, variation selectors) take no cell.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw

BDF = Path(__file__).with_name("fixed-6x12.bdf")
REPLACEMENT = 0xFFFD
ZWJ = "\u200d"


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
        self.glyphs: dict[int, Glyph] = {}
        self._load(path.read_text(encoding="ascii"))
        if REPLACEMENT not in self.glyphs:  # a hollow box
            box = Image.new("1", (self.cell_w, self.cell_h))
            ImageDraw.Draw(box).rectangle((0, 1, self.cell_w - 2, self.cell_h - 3), outline=1)
            self.glyphs[REPLACEMENT] = Glyph(box, 0, 0)

    def _load(self, text: str) -> None:
        lines = iter(text.splitlines())
        code, bbx = -1, (0, 0, 0, 0)
        for line in lines:
            key, _, rest = line.partition(" ")
            if key == "FONTBOUNDINGBOX":
                self.cell_w, self.cell_h = (int(v) for v in rest.split()[:2])
            elif key == "FONT_ASCENT":
                self.ascent = int(rest)
            elif key == "ENCODING":
                code = int(rest.split()[0])
            elif key == "BBX":
                w, h, x, y = (int(v) for v in rest.split())
                bbx = (w, h, x, y)
            elif key == "BITMAP":
                w, h, x, y = bbx
                mask = Image.new("1", (max(w, 1), max(h, 1)))
                for row in range(h):
                    bits = int(next(lines), 16)
                    width = ((w + 7) // 8) * 8
                    for col in range(w):
                        if bits >> (width - 1 - col) & 1:
                            mask.putpixel((col, row), 1)
                if code >= 0:
                    self.glyphs[code] = Glyph(mask, x, self.ascent - h - y)

    def has(self, char: str) -> bool:
        """Whether ``char`` has a glyph of its own (else it is drawn as �)."""
        return ord(char) in self.glyphs

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
        found = self.glyphs.get(ord(char))
        if found is None or unicodedata.east_asian_width(char) in ("W", "F"):
            return self.glyphs[REPLACEMENT]
        return found


@cache
def oled_font() -> BitmapFont:
    """The shipped font, read once."""
    return BitmapFont(BDF)
