"""Each edition's readings document and data agree, and every quote is the rulebook's own
words (checked word for word when the rulebooks are at hand: COMPANION_RULEBOOKS, default
../shared/seeds beside the checkout)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.engine import readings

ROOT = Path(__file__).resolve().parents[2]
RULEBOOKS = Path(os.environ.get("COMPANION_RULEBOOKS", ROOT.parent / "shared" / "seeds"))
BOOKS = {  # edition -> its rulebook in ../shared/seeds (index: its README.md)
    "pokemon": "000_02dc582a4f256c9e.txt",
    "master-trainer": "001_5bc591c5d493f0c3.txt",
    "starwars": "002_09112b96d321cbaa.txt",
    "mario": "003_0fdd73a279e02194.txt",
    "monopolino": "004_377543ec2cf43d2c.txt",
}


@pytest.mark.parametrize("edition", sorted(BOOKS))
def test_readings_and_citations_are_complete_and_quote_the_rulebook(edition: str) -> None:
    """Every reading has its section, every setting its default and options, every citation a
    quote or a reading."""
    doc = (ROOT / "docs" / "readings" / f"{edition}.md").read_text("utf-8")
    book = RULEBOOKS / BOOKS[edition]
    text = book.read_text("utf-8") if book.exists() else None
    assert readings.catalogue_problems(edition, doc, text) == []
