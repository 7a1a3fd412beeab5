"""The Pokémon readings document and data agree, and every quote is the rulebook's own words."""

from __future__ import annotations

import os
from pathlib import Path

from companion.editions import readings

ROOT = Path(__file__).resolve().parents[2]
RULEBOOKS = Path(os.environ.get("COMPANION_RULEBOOKS", ROOT.parent / "shared" / "seeds"))
EDITION, DOC, BOOK = "pokemon", "pokemon.md", "000_02dc582a4f256c9e.txt"


def test_readings_and_citations_are_complete_and_quote_the_rulebook() -> None:
    """Every reading has its section, every setting its default and options, every citation a
    quote or a reading; the quotes are checked word for word when the rulebook is at hand
    (COMPANION_RULEBOOKS, default ../shared/seeds beside the checkout)."""
    doc = (ROOT / "docs" / "readings" / DOC).read_text("utf-8")
    book = RULEBOOKS / BOOK
    text = book.read_text("utf-8") if book.exists() else None
    assert readings.catalogue_problems(EDITION, doc, text) == []
