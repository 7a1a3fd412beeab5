"""Every passage the rules search shows has its words in every language the catalogues have
(issue 41, item 4): an edition's search file (seeds/<edition>.search.toml) says what each cited
passage says, in Italian and Spanish, and names no rule the edition does not cite."""

from __future__ import annotations

import pytest

from companion.engine import readings
from companion.engine.i18n import LANGUAGES, SOURCE
from companion.plugins.editions import known

TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE]


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("edition", sorted(known()))
def test_every_cited_passage_is_said_in_the_readers_language(edition: str, lang: str) -> None:
    cited = readings.citations(edition).items()
    shown = {rule for rule, c in cited if "quote" in c or "house" in c}
    said = readings.summaries(edition, lang)
    assert shown and sorted(shown - set(said)) == []
    assert sorted(set(said) - shown) == []
    assert [rule for rule, text in said.items() if len(text.split()) < 3] == []
