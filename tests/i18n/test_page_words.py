"""Every word the page's JavaScript asks for is in the catalogue: a tr("...") the extractor
cannot see (inside a template literal, or inside another tr's arguments) would read English
in every language, and the catalogue test would not notice (it checks what was extracted)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from companion.engine.i18n import catalogue

ROOT = Path(__file__).resolve().parents[2]
CALL = re.compile(r"\b(?:tr|trn|trNodes)\(\s*\"((?:[^\"\\]|\\.)*)\"")
JOINED = re.compile(r"\"\s*\+\s*\"")  # "a " + "b": one message written on two lines


def test_every_page_word_is_in_the_catalogue() -> None:
    cat = catalogue("it")
    assert cat is not None
    held = {m.id if isinstance(m.id, str) else m.id[0] for m in cat if m.id}
    missing = []
    for path in sorted([*(ROOT / "web" / "static").glob("*.js"),
                        *(ROOT / "web" / "venue" / "static").glob("*.js")]):
        source = JOINED.sub("", path.read_text("utf-8"))
        for m in CALL.finditer(source):
            word = json.loads(f'"{m.group(1)}"')
            if word not in held:
                missing.append(f"{path.name}: {word}")
    assert missing == [], "not extracted: keep tr(...) out of template literals and of " \
        "another tr's arguments (docs/translating.md)"
