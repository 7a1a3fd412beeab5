"""First-game mode explains every question each edition asks, in the rulebook's terms, with
its rule (companion/prompt_help.py).

The kinds are derived from the editions themselves: the ``@prompt_kind`` ids their rules
declare, and every kind their code asks (``ctx.ask("kind", ...)``, ``ask_roll(ctx, "kind",
...)``, ``ask_choice(ctx, "kind", ...)``, a kind chosen between literals), read from the
source of every class the edition's rules are made of. A new question without an
explanation fails here."""

from __future__ import annotations

import ast
import inspect
import textwrap

import pytest

from companion import prompt_help
from companion.engine.editions import EDITIONS, find_edition
from companion.engine.registry import declared

ASKS = {"ask": 0, "ask_roll": 1, "ask_choice": 1}


def _literals(node: ast.expr | None, names: dict[str, set[str]]) -> set[str]:
    """The string values ``node`` can take: a literal, ``a if c else b``, or a local name
    assigned those in the same function."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _literals(node.body, names) | _literals(node.orelse, names)
    if isinstance(node, ast.Name):
        return names.get(node.id, set())
    return set()


def asked_kinds(cls: type) -> set[str]:
    """Every prompt kind the code of ``cls`` and its bases asks with a known value."""
    kinds: set[str] = set()
    for klass in cls.__mro__:
        if not klass.__module__.startswith("companion."):
            continue
        tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            names: dict[str, set[str]] = {}
            for node in ast.walk(fn):
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                        node.targets[0], ast.Name):
                    names.setdefault(node.targets[0].id, set()).update(
                        _literals(node.value, {}))
            for node in ast.walk(fn):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in ASKS and len(node.args) > ASKS[node.func.attr]):
                    kinds |= _literals(node.args[ASKS[node.func.attr]], names)
    return kinds


def prompt_kinds(edition: str) -> set[str]:
    rules = find_edition(edition)
    return set(declared(type(rules)).get("prompt", {})) | asked_kinds(type(rules))


def test_the_kinds_found_include_those_asked_by_the_generic_helpers() -> None:
    """The derivation itself: Mario's teammate (ask_choice), Pokémon's Lapras, Master
    Trainer's dice kinds chosen between two literals, the family's declared buy."""
    assert {"teammate", "battle", "buy", "turn", "order"} <= prompt_kinds("mario")
    assert {"lapras", "catch_miss"} <= prompt_kinds("pokemon")
    assert {"turn", "roll", "time_machine", "starter"} <= prompt_kinds("master-trainer")


@pytest.mark.parametrize("edition", sorted(EDITIONS))
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
