"""First-game mode explains every question each edition asks, in the rulebook's terms, with
its rule (companion/service/prompt_help.py).

The kinds are the editions' own declarations: every prompt an edition may ask is a declared
constant (``companion.engine.prompts``: ``RollPrompt``, ``ChoicePrompt``, ``CommandPrompt``),
and ``companion.engine.registry.prompts`` lists those of an edition's modules. A new
question without an explanation fails here."""

from __future__ import annotations

import pytest

from companion.engine.registry import prompts
from companion.plugins.editions import find_edition, known
from companion.service import prompt_help


def prompt_kinds(edition: str) -> set[str]:
    return set(prompts(type(find_edition(edition))))


def test_the_kinds_found_include_those_asked_by_the_generic_helpers() -> None:
    """The declarations found: Mario's teammate (a choice), Pokémon's Lapras, Master
    Trainer's two dice kinds, the family's buy."""
    assert {"teammate", "battle", "buy", "turn", "order"} <= prompt_kinds("mario")
    assert {"lapras", "catch_miss"} <= prompt_kinds("pokemon")
    assert {"turn", "roll", "time_machine", "starter"} <= prompt_kinds("master-trainer")


@pytest.mark.parametrize("edition", sorted(known()))
def test_every_question_an_edition_asks_is_explained_with_its_rule(edition: str) -> None:
    rules = find_edition(edition)
    never = getattr(rules, "never_cites", {})
    missing, uncited = [], []
    for kind in sorted(prompt_kinds(edition)):
        found = prompt_help.explanation(edition, kind)
        if found is None:
            missing.append(kind)
        elif found.cite not in never and rules.citation(found.cite) is None:
            uncited.append(f"{kind} cites {found.cite!r}")
    assert not missing, f"{edition}: no first-game explanation for {missing}"
    assert not uncited, f"{edition}: not in its citation catalogue: {uncited}"
    shown = prompt_help.explanations(edition)
    asked = {k for k in prompt_kinds(edition)
             if prompt_help.explanation(edition, k).cite not in never}  # type: ignore[union-attr]
    assert asked <= set(shown)
    assert all(v["rule"] for v in shown.values())


def test_an_explanation_shows_the_rulebooks_words() -> None:
    teammate = prompt_help.explanations("mario")["teammate"]
    assert "teammate" in teammate["text"]
    rule = teammate["rule"]["say"] if isinstance(teammate["rule"], dict) else teammate["rule"]
    assert rule.startswith("Monopoly: The Super Mario Bros. Movie Edition rulebook")
    assert "battle against Bowser" in rule
    assert "auction" not in prompt_help.explanations("monopolino")  # never asked there
