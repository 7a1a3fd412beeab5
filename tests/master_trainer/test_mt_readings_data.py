"""The Master Trainer readings document and data agree; every quote is the rulebook's."""

from __future__ import annotations

import os
from pathlib import Path

from companion.editions import readings

ROOT = Path(__file__).resolve().parents[2]
RULEBOOKS = Path(os.environ.get("COMPANION_RULEBOOKS", ROOT.parent / "shared" / "seeds"))
EDITION, DOC, BOOK = "master-trainer", "master-trainer.md", "001_5bc591c5d493f0c3.txt"


def test_readings_and_citations_are_complete_and_quote_the_rulebook() -> None:
    """Every reading has its section, every setting its default and options, every citation a
    quote or a reading; the quotes are checked word for word when the rulebook is at hand
    (COMPANION_RULEBOOKS, default ../shared/seeds beside the checkout)."""
    doc = (ROOT / "docs" / "readings" / DOC).read_text("utf-8")
    book = RULEBOOKS / BOOK
    text = book.read_text("utf-8") if book.exists() else None
    assert readings.catalogue_problems(EDITION, doc, text) == []
