"""Editions are composed, never overriding an engine or family internal.

Every method an edition class defines that the family (or, for Master Trainer, the engine)
also has must be a declared hook (``companion/monopoly/hooks.py``), a ``refuse_<command>``, or
a re-declared space kind, card effect or prompt kind (with its decorator). A family ``@task``
is never declared again. A new override fails here, naming the edition, the class and the
method.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from companion.engine.registry import ATTR, declared
from companion.engine.rules import Rules
from companion.monopoly import hooks
from companion.monopoly.rules import MonopolyRules
from companion.plugins.editions import find_edition, known

FAMILY = ("companion.engine", "companion.monopoly")

PENDING: dict[str, dict[str, str]] = {}
"""Overrides left on purpose, with the reason (docs/architecture.md); may only shrink."""


def edition_classes(cls: type) -> list[type]:
    return [k for k in cls.__mro__ if not k.__module__.startswith(FAMILY)
            and k.__module__ not in ("builtins", "abc", "typing")]


def overrides(cls: type) -> dict[str, str]:
    """``{"Class.method": why}`` for every method of ``cls``'s own classes that overrides a
    base internal, and every family task id it declares again."""
    base: type = MonopolyRules if issubclass(cls, MonopolyRules) else Rules
    family_tasks = declared(base).get("task", {})
    out = {}
    for klass in edition_classes(cls):
        for name, value in vars(klass).items():
            fn: Any = value.__func__ if isinstance(value, staticmethod | classmethod) else value
            if name.startswith("__") or not callable(fn):
                continue
            ids = getattr(fn, ATTR, ())
            for kind, id in ids:
                if kind == "task" and id in family_tasks:
                    out[f"{klass.__name__}.{name}"] = f"declares the family task {id!r} again"
            if not hasattr(base, name) or hooks.allowed(name):
                continue
            if ids and all(kind in hooks.DECLARABLE for kind, _ in ids):
                continue
            out[f"{klass.__name__}.{name}"] = f"overrides {base.__name__}.{name}"
    return out


@pytest.mark.parametrize("edition", list(known()))
def test_no_edition_overrides_an_engine_or_family_internal(edition: str) -> None:
    found = overrides(type(find_edition(edition)))
    pending = PENDING.get(edition, {})
    new = {k: v for k, v in found.items() if k.split(".", 1)[1] not in pending}
    assert new == {}, (f"{edition} overrides internals; add a hook or policy to the family "
                       f"(companion/monopoly/hooks.py) instead: {new}")
    gone = set(pending) - {k.split(".", 1)[1] for k in found}
    assert not gone, f"{edition} no longer overrides {sorted(gone)}: strike them from PENDING"


def test_the_toy_edition_needs_no_override() -> None:
    sys.path.insert(0, str(Path(__file__).parents[1] / "toy_edition"))
    try:
        from lemonade import LemonadeRules
    finally:
        sys.path.pop(0)
    assert overrides(LemonadeRules) == {}


def test_the_check_sees_an_override_and_a_task_declared_again() -> None:
    from companion.editions.mario import MarioRules
    from companion.engine.registry import task

    class Sneaky(MarioRules):
        def settle_debt(self, ctx: Any) -> None:
            pass

        @task("end_turn")
        def my_end(self, ctx: Any) -> None:
            pass

    found = overrides(Sneaky)
    assert found["Sneaky.settle_debt"] == "overrides MonopolyRules.settle_debt"
    assert found["Sneaky.my_end"] == "declares the family task 'end_turn' again"


def test_every_hook_exists_on_the_family_or_the_engine() -> None:
    for name in [*hooks.ENGINE_INTERFACE, *hooks.FAMILY_HOOKS]:
        assert hasattr(MonopolyRules, name), name
