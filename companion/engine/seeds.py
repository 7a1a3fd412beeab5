"""Seed data checked when an edition loads: a small schema, and every name a seed gives (a
space kind, a card effect, an event card) must have a declared handler.

A problem is a :class:`SeedError` naming the file and the field, raised by ``find_edition``
at start-up, never in the middle of a game. It is not a :class:`SetupError`: a broken data
file is a bug in the build, not a player's wrong choice.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.engine.registry import declared, effect_args_type


class SeedError(RuntimeError):
    """An edition's data file is malformed or names something no rule handles."""


Spec = Mapping[str, object]
"""A schema: ``{field: type}`` where type is a Python type, a tuple of types, a nested Spec
(an object), or a one-element list ``[item spec]`` (a list). A field whose name ends in
``?`` is optional; other fields are allowed only when the Spec has ``"*": True``."""


def validate(value: object, spec: object, where: str) -> None:
    """Raise SeedError at the first field of ``value`` that does not fit ``spec``."""
    if isinstance(spec, list):
        if not isinstance(value, list):
            raise SeedError(f"{where}: expected a list, got {type(value).__name__}")
        for i, item in enumerate(value):
            validate(item, spec[0], f"{where}[{i}]")
        return
    if isinstance(spec, Mapping):
        if not isinstance(value, Mapping):
            raise SeedError(f"{where}: expected a table, got {type(value).__name__}")
        fields = {k.rstrip("?"): k.endswith("?") for k in spec if k != "*"}
        for name, optional in fields.items():
            if name not in value:
                if not optional:
                    raise SeedError(f"{_join(where, name)}: missing")
                continue
            validate(value[name], spec[name + "?" if optional else name], _join(where, name))
        if not spec.get("*"):
            extra = sorted(set(value) - set(fields))
            if extra:
                raise SeedError(f"{where}: unknown field(s) {', '.join(extra)}")
        return
    types = spec if isinstance(spec, tuple) else (spec,)
    kinds = tuple(t for t in types if isinstance(t, type))
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        want = " or ".join(t.__name__ for t in kinds)
        raise SeedError(f"{where}: expected {want}, got {value!r}")


def _join(where: str, name: str) -> str:
    """``seeds/x.toml: spaces[3].kind``: the file, then the field's path."""
    return f"{where}: {name}" if where.endswith(".toml") else f"{where}.{name}"


def check_names(
    rules: object, kind: str, name: str, where: str, quiet: frozenset[str] = frozenset()
) -> Callable[..., Any] | None:
    """The handler ``rules`` declares for ``kind`` ``name``; SeedError when there is none
    (``quiet`` names need none: landing on GO does nothing by itself)."""
    table = declared(type(rules)).get(kind, {})
    if name in table:
        method: Callable[..., Any] = getattr(rules, table[name])
        return method
    if name in quiet:
        return None
    known = ", ".join(sorted({*table, *quiet}))
    raise SeedError(f"{where} = {name!r}: no rule handles this {kind} (known: {known})")


def effect_args(method: Callable[..., Any], args: Mapping[str, object], where: str) -> Any:
    """The ``@effect`` method's declared arguments dataclass built from a seed's ``args``;
    SeedError naming ``where`` when one is missing, unknown or of the wrong type (a whole
    number, a word, yes or no)."""
    cls = effect_args_type(method)
    hints = typing.get_type_hints(cls)
    every = dataclasses.fields(cls)
    unknown = sorted(set(args) - {f.name for f in every})
    if unknown:
        known = ", ".join(f.name for f in every) or "none"
        raise SeedError(f"{where}: unknown argument {unknown[0]!r} (it takes: {known})")
    for f in every:
        if f.name not in args:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise SeedError(f"{where}: missing a required argument: {f.name!r}")
            continue
        want, value = hints[f.name], args[f.name]
        if want in (int, str, bool) and (not isinstance(value, want) or (
                isinstance(value, bool) and want is not bool)):
            raise SeedError(f"{where}.{f.name}: expected {want.__name__}, got {value!r}")
    return cls(**args)


_LITERAL = re.compile(
    r"""(?:\bcite=|\bciting\(|\bcites\(|["']cite["']:\s*)["']([a-z0-9][a-z0-9-]*)["']""")
"""A citation id written literally: ``cite="x"``, ``ctx.citing("x")``, ``{"cite": "x"}``."""


def cited_ids(cls: type) -> dict[str, str]:
    """Every citation id ``cls``'s rules name -> where (``@cites`` on a method, or a literal
    ``cite="..."``/``ctx.citing("...")`` in the body of one of its methods)."""
    from companion.engine.context import CITES

    found: dict[str, str] = {}
    sources: dict[str, list[str]] = {}
    """The source files read for this check only: held in ``linecache`` they would stay in
    the companion's memory for good (half a megabyte for the five editions)."""
    for klass in reversed(cls.__mro__):
        for name, value in vars(klass).items():
            where = f"{klass.__module__}.{klass.__qualname__}.{name}"
            for rule in getattr(value, CITES, ()):
                found.setdefault(rule, where)
            for rule in _literal_ids(inspect.unwrap(value), sources):
                found.setdefault(rule, where)
    return found


def _literal_ids(fn: object, sources: dict[str, list[str]]) -> list[str]:
    """The citation ids written literally in function ``fn``'s source lines (``sources``:
    the files read so far, by name)."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return []
    last = max((line for _, _, line in code.co_lines() if line is not None),
               default=code.co_firstlineno)
    name = code.co_filename
    if name not in sources:
        try:
            sources[name] = Path(name).read_text(encoding="utf-8").splitlines(keepends=True)
        except OSError:  # no source (a frozen build): nothing written literally to check
            sources[name] = []
    lines = sources[name][code.co_firstlineno - 1:last]
    return _LITERAL.findall("".join(lines))


def check_cited(cls: type, catalogue: Mapping[str, object], where: str,
                aliases: Mapping[str, str] | None = None,
                unused: frozenset[str] = frozenset()) -> None:
    """SeedError naming ``where`` and the id when ``cls`` cites an id ``catalogue`` lacks
    (``aliases``: family ids the edition's catalogue names differently; ``unused``: ids of
    rules the edition never applies)."""
    aliases = aliases or {}
    for rule, by in sorted(cited_ids(cls).items()):
        if rule not in unused and aliases.get(rule, rule) not in catalogue:
            raise SeedError(f"{where}: citations.{rule}: missing (cited by {by})")
