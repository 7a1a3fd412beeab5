"""First-game mode speaks the reader's language (issue 30, item 5): the explanation of a
question is translated, and the rule beside it keeps the rulebook's exact English words,
marked as a quotation of the English rulebook for a reader of another language."""

from __future__ import annotations

from companion.engine.i18n import Msg, render
from companion.plugins.editions import find_edition
from companion.service import prompt_help


def test_an_italian_reader_reads_the_explanation_in_italian_and_the_quote_in_english() -> None:
    found = prompt_help.explanation("monopolino", "station")
    assert found is not None
    assert render(Msg(found.text), "it") == ("Una stazione: tira di nuovo il dado e vai avanti di "
                                        "altrettante caselle.")
    cited = find_edition("monopolino").citation(found.cite)
    assert cited is not None
    rule = Msg.from_json(prompt_help.explanations("monopolino")["station"]["rule"])
    italian, spanish = render(rule, "it"), render(rule, "es")
    assert f"“{cited['quote']}”" in italian and f"“{cited['quote']}”" in spanish
    assert "citazione dal regolamento inglese" in italian
    assert "cita del reglamento en inglés" in spanish
    assert str(rule) == cited["text"]  # English: the line as it always was
