"""The OLED shows a prompt at a glance (issue 42, item 6): 82-83 % of the examples' prompt
screens needed more than one page (a page turns every 3 s), ~13 % nine or more. Each prompt
kind's form says what is asked (hardware/glance.py), whose turn is the header, the choice is
whole; the full text is on the phones. Counted in pages, never timed."""

from __future__ import annotations

from bench_oled import LANGUAGES, TARGET, page_counts, share


def test_95_percent_of_prompt_screens_need_at_most_two_pages_in_every_language() -> None:
    counts = page_counts()
    assert set(counts) == set(LANGUAGES)
    for lang, by_pages in counts.items():
        assert sum(by_pages.values()) > 1500, lang  # every example's prompts
        assert share(by_pages, 2) >= TARGET, (lang, share(by_pages, 2), sorted(by_pages.items()))
