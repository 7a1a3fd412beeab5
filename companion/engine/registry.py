"""Declared rules: every handler the log or the seed data can name carries a stable id.

A method is declared with ``@task("move")``, ``@effect("collect")``, ``@space_kind("go")``,
``@prompt_kind(BUY)`` (or the general ``@declare(kind, id)``). The id, never the method's
name, is what the log stores (tasks on the to-do list, the task a prompt runs next) and what
seed files name (space kinds, card effects), so renaming a method changes no saved game.
``declared(cls)`` lists an edition's ids per kind; editions check their seed data against it
when they load (see ``Rules.check``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

from companion.engine.commands import NoArgs
from companion.engine.prompts import ChoicePrompt, CommandPrompt, PromptKind, RollPrompt

F = TypeVar("F", bound=Callable[..., Any])

ATTR = "__rule_ids__"


def declare(kind: str, id: str) -> Callable[[F], F]:
    """Declare the decorated method as the ``kind`` handler with stable id ``id``."""

    def mark(fn: F) -> F:
        ids: tuple[tuple[str, str], ...] = getattr(fn, ATTR, ())
        setattr(fn, ATTR, (*ids, (kind, id)))
        return fn

    return mark


def task(id: str) -> Callable[[F], F]:
    """A step of the to-do list (``ctx.then(Task(id, ...))``); its id is stored in the log."""
    return declare("task", id)


def effect(id: str, args: type | None = None) -> Callable[[F], F]:
    """A card effect word (``effect = {do = "<id>", ...}`` in a seed file): the method
    ``(ctx, pid, card, args)`` receives the card's other keys as the frozen dataclass ``args``
    (none: the word takes no argument), checked against the seed data when the edition loads
    (:func:`companion.engine.seeds.effect_args`)."""
    declared_args = args or NoArgs
    if not hasattr(declared_args, "__dataclass_fields__"):
        raise TypeError(f"@effect needs a dataclass of arguments, not {args!r}")

    def mark(fn: F) -> F:
        setattr(fn, EFFECT_ARGS, declared_args)
        return declare("effect", id)(fn)

    return mark


EFFECT_ARGS = "__effect_args__"


def effect_args_type(method: Callable[..., Any]) -> type:
    """The arguments dataclass an ``@effect`` method declares."""
    found: type = getattr(method, EFFECT_ARGS, NoArgs)
    return found


def space_kind(id: str) -> Callable[[F], F]:
    """What landing on a space of ``kind = "<id>"`` does."""
    return declare("space", id)


def prompt_kind(prompt: PromptKind) -> Callable[[F], F]:
    """The actions a prompt of kind ``prompt`` offers (a :class:`CommandPrompt`'s answers, or
    more answers to a roll or a choice: a turn's Jail fine)."""
    if not isinstance(prompt, PromptKind):
        raise TypeError(f"@prompt_kind takes a declared prompt, not {prompt!r}")
    return declare("prompt", prompt.kind)


_cache: dict[type, dict[str, dict[str, str]]] = {}


def declared(cls: type) -> dict[str, dict[str, str]]:
    """``{kind: {id: attribute name}}`` for ``cls`` and its bases (subclasses win)."""
    table = _cache.get(cls)
    if table is None:
        table = {}
        for klass in reversed(cls.__mro__):
            for name, value in vars(klass).items():
                for kind, id in getattr(value, ATTR, ()):
                    table.setdefault(kind, {})[id] = name
        _cache[cls] = table
    return table


def handler(obj: object, kind: str, id: str) -> Callable[..., Any] | None:
    """The bound ``kind`` handler ``id`` of ``obj``, or None when none is declared (looked up
    once per object: prompts and landings ask for one on most commands)."""
    known: dict[tuple[str, str], Callable[..., Any] | None] | None = getattr(
        obj, "__dict__", {}).get(_BOUND)
    if known is not None and (kind, id) in known:
        return known[kind, id]
    name = declared(type(obj)).get(kind, {}).get(id)
    found = None if name is None else getattr(obj, name)
    if hasattr(obj, "__dict__"):
        obj.__dict__.setdefault(_BOUND, {})[kind, id] = found
    return found


_BOUND = "_bound_handlers"


def need(obj: object, kind: str, id: str) -> Callable[..., Any]:
    """The bound ``kind`` handler ``id`` of ``obj``; editions check their data when they load,
    so a missing one is a bug in the rules, reported with what is declared."""
    found = handler(obj, kind, id)
    if found is None:
        known = ", ".join(sorted(declared(type(obj)).get(kind, {})))
        raise LookupError(f"{type(obj).__name__} declares no {kind} {id!r} (known: {known})")
    return found



def _prompt_values(cls: type) -> list[PromptKind]:
    """Every prompt declared (or imported) in the modules of ``cls`` and its bases."""
    modules = dict.fromkeys(k.__module__ for k in reversed(cls.__mro__))
    return [v for m in modules for v in vars(sys.modules[m]).values()
            if isinstance(v, PromptKind)]


def prompts(cls: type) -> dict[str, PromptKind]:
    """The prompts ``cls`` may ask, by kind (those its modules declare or import)."""
    return {p.kind: p for p in _prompt_values(cls)}


def unanswered(cls: type) -> list[str]:
    """What is wrong with the prompts ``cls`` may ask: a roll or choice whose step ``cls``
    does not declare, a command prompt without a ``@prompt_kind`` handler, two different
    prompts of one kind. Empty when every prompt is answered."""
    table = declared(cls)
    tasks, handlers = table.get("task", {}), table.get("prompt", {})
    found: dict[str, PromptKind] = {}
    out = []
    for p in _prompt_values(cls):
        seen = found.setdefault(p.kind, p)
        if seen != p:
            out.append(f"prompt {p.kind!r} is declared twice: {seen} and {p}")
    for p in found.values():
        if isinstance(p, RollPrompt | ChoicePrompt) and p.then not in tasks:
            out.append(f"prompt {p.kind!r} runs step {p.then!r}, which is not declared "
                       "(@task)")
        elif isinstance(p, CommandPrompt) and p.kind not in handlers:
            out.append(f"prompt {p.kind!r} has no @prompt_kind handler listing its answers")
    return out
