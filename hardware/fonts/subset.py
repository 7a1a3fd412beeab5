"""Make ``fixed-6x12.bdf`` from misc-fixed's 6x12 (the ISO 10646 font in Debian's xfonts-base).

Run once when the font or the ranges change::

    apt-get download xfonts-base pcf2bdf          # then dpkg-deb -x both .debs into x/
    zcat x/usr/share/fonts/X11/misc/6x12.pcf.gz > 6x12.pcf
    x/usr/bin/pcf2bdf -o 6x12.bdf 6x12.pcf
    python hardware/fonts/subset.py 6x12.bdf hardware/fonts/fixed-6x12.bdf

The font is public domain ("Public domain font. Share and enjoy.", font-misc-misc/COPYING).
"""

from __future__ import annotations

import sys
from pathlib import Path

RANGES = [
    (0x0020, 0x024F),  # Basic Latin, Latin-1, Latin Extended-A and -B
    (0x0250, 0x02FF),  # IPA extensions, spacing modifiers (ˆ ˇ ˘ ˙ ˚ ˛ ˜ ˝)
    (0x0300, 0x036F),  # combining diacritics
    (0x0370, 0x03FF),  # Greek
    (0x0400, 0x052F),  # Cyrillic and its supplement
    (0x1E00, 0x1EFF),  # Latin Extended Additional (Vietnamese, Welsh)
    (0x1F00, 0x1FFF),  # Greek extended
    (0x2000, 0x206F),  # general punctuation: dashes, curly quotes, ellipsis, bullet
    (0x2070, 0x209F),  # super- and subscripts
    (0x20A0, 0x20CF),  # currency: ₥ € ₽ ₴ ₺ ₹ ...
    (0x2100, 0x214F),  # letterlike: № ™ ℃
    (0x2150, 0x218F),  # number forms: ⅓ Ⅻ
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # mathematical operators: − × ≤ ≥
    (0x2500, 0x25FF),  # box drawing, blocks, geometric shapes: ■ ▶ ●
    (0x2600, 0x26FF),  # miscellaneous symbols: ★ ♥ ♀ ♂
    (0x2700, 0x27BF),  # dingbats: ✓ ✕
    (0xFFFD, 0xFFFD),  # the replacement character, drawn for anything else
]


# Currency signs newer than misc-fixed, drawn here (rows 0-11 of the 6x12 cell, baseline
# under row 9; public domain like the font).
EXTRA = {
    0x20B8: ["", "", "", "#####", "", "#####", "..#", "..#", "..#", "..#"],  # ₸ tenge
    0x20B9: ["", "", "", "#####", "...#", "#####", "...#", "###", ".#", "..##"],  # ₹ rupee
    0x20BA: ["", "", "", ".#", ".##", "##", ".##", "##..#", ".#..#", ".###"],  # ₺ lira
    0x20BD: ["", "", "", ".###", ".#..#", ".#..#", ".###", "####", ".#", ".#"],  # ₽ ruble
    0x20BF: ["", "", ".#.#", "####", ".#..#", ".###", ".#..#", ".#..#", "####", ".#.#"],  # ₿
}


def extra_glyph(code: int, rows: list[str]) -> str:
    """One hand-drawn glyph as a BDF character."""
    rows = (rows + [""] * 12)[:12]
    bitmap = "".join(f"{sum(0x80 >> i for i, c in enumerate(r) if c == '#'):02X}\n"
                     for r in rows)
    return (f"STARTCHAR uni{code:04X}\nENCODING {code}\nSWIDTH 480 0\nDWIDTH 6 0\n"
            f"BBX 6 12 0 -2\nBITMAP\n{bitmap}ENDCHAR\n")


def wanted(code: int) -> bool:
    return any(lo <= code <= hi for lo, hi in RANGES)


def subset(text: str) -> str:
    """The BDF ``text`` with only the glyphs in RANGES (header and properties kept)."""
    head, _, rest = text.partition("STARTCHAR")
    head = "\n".join(line for line in head.splitlines() if not line.startswith("CHARS ")) + "\n"
    chars = []
    for block in ("STARTCHAR" + rest).split("STARTCHAR")[1:]:
        block = "STARTCHAR" + block.split("ENDFONT")[0]
        code = int(next(ln for ln in block.splitlines() if ln.startswith("ENCODING")).split()[1])
        if wanted(code) and code not in EXTRA:
            chars.append((code, block.rstrip("\n") + "\n"))
    chars += [(code, extra_glyph(code, rows)) for code, rows in EXTRA.items()]
    chars.sort()
    return head + f"CHARS {len(chars)}\n" + "".join(c for _, c in chars) + "ENDFONT\n"


if __name__ == "__main__":
    source, target = sys.argv[1:3]
    Path(target).write_text(subset(Path(source).read_text(encoding="latin-1")),
                            encoding="ascii")
