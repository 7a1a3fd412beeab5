"""Each command's arguments, declared once, next to the rule that handles it.

A ``cmd_<type>`` handler names its arguments with ``@takes(SomeArgs)``: a frozen dataclass whose
fields are the argument names, typed with the bounded types below (``Amount``, ``Index``,
``Id``, ...). The handler receives them as that dataclass, built once from the checked command
(``def cmd_buy(self, ctx, actor: str, args: BuyArgs)``; ``actor`` is who sent it); a handler
without ``@takes`` takes no argument (:class:`NoArgs`). From that one declaration come

- the check every command passes before the rules see it (:func:`check_args`: an argument the
  structure does not name, a value of the wrong type or out of bounds is refused in words a
  player understands, and nothing is stored), and
- the JSON schema of the command in the OpenAPI document (:func:`args_schema`).

Plain dataclasses and one checking function, not msgspec or pydantic: both are compiled
(C, Rust) and ship no armhf wheel on PyPI, so a 32-bit Raspberry Pi OS would build them or
depend on piwheels; the checks needed (whole numbers in a range, short texts, short lists,
unions) fit in this module (docs/api.md).
"""

from __future__ import annotations

import functools
import json
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Annotated, Any, TypeVar

from companion.engine.i18n import Msg
from companion.engine.types import Command, IllegalCommand

MAX_AMOUNT = 10**9
"""The largest amount of money (in minor units) one command may name."""
MAX_ID = 40
MAX_TEXT = 120
MAX_ITEMS = 64
MAX_ARGS_BYTES = 4096
"""A command's arguments, encoded as JSON: far above any real command (a trade of every
space on the board is about 300 bytes)."""


class ArgumentError(IllegalCommand):
    """A command's arguments are not those its handler declares (a malformed request, not a
    move the rules refuse: the service answers it as a bad request)."""


@dataclass(frozen=True, slots=True)
class Between:
    """A whole number's bounds (inclusive)."""

    lo: int
    hi: int


@dataclass(frozen=True, slots=True)
class Longest:
    """The most characters of a text, items of a list or entries of an object."""

    n: int


Amount = Annotated[int, Between(0, MAX_AMOUNT)]
"""An amount of money in minor units."""
Index = Annotated[int, Between(0, 10**6)]
"""A space's index, a claim's or an offer's number."""
Id = Annotated[str, Longest(MAX_ID)]
"""A player, space, chip, card or item id."""
Text = Annotated[str, Longest(MAX_TEXT)]
Die = Annotated[int, Between(0, 100)]
Dice = Annotated[list[Die], Longest(6)] | Die | Annotated[str, Longest(20)] | None
"""Dice a player entered (physical dice): a list of values, one value, or none (digital)."""
Small = Annotated[int, Between(-10**6, 10**6)] | Annotated[str, Longest(64)] | bool | None
"""A short plain value: a choice's value, a space, a chip, a card."""
Smalls = Small | Annotated[list[Small], Longest(16)]
TradeSide = Annotated[dict[str, Amount | Annotated[list[Index | Id], Longest(MAX_ITEMS)]],
                      Longest(8)]
"""One side of a Monopoly trade: ``money`` and short lists of spaces, cards or extras."""


@dataclass(frozen=True, slots=True)
class NoArgs:
    """A command that takes no argument."""


F = TypeVar("F", bound=Callable[..., Any])
TAKES = "__takes__"


def takes(args: type) -> Callable[[F], F]:
    """Declare the arguments of the ``cmd_`` handler below: ``args`` is a dataclass whose
    fields are the argument names and their bounded types (every field has a default: an
    argument left out is the default; a Python keyword's field ends in ``_``: ``with_``)."""
    if not hasattr(args, "__dataclass_fields__"):
        raise TypeError(f"@takes needs a dataclass, not {args!r}")

    def mark(fn: F) -> F:
        setattr(fn, TAKES, args)
        return fn

    return mark


def declared_args(handler: Callable[..., Any]) -> type:
    """The argument structure a handler declares (:class:`NoArgs` when it declares none)."""
    found: type = getattr(handler, TAKES, NoArgs)
    return found


Check = Callable[[Any], Msg | None]
"""A bound: None when the value fits, else what is wrong (completing "it must be ...")."""


def _check_of(tp: Any, bound: Between | Longest | None = None) -> Check:
    """The check of one declared type (recursively through unions, lists and objects)."""
    origin = typing.get_origin(tp)
    if origin is Annotated:
        base, *meta = typing.get_args(tp)
        return _check_of(base, next((m for m in meta if isinstance(m, Between | Longest)),
                                    None))
    if origin in (typing.Union, types.UnionType):
        checks = [_check_of(t) for t in typing.get_args(tp)]

        def either(v: Any) -> Msg | None:
            whys: list[Msg] = []
            for c in checks:  # the first that fits ends the check (most commands: the first)
                why = c(v)
                if why is None:
                    return None
                if why not in whys:
                    whys.append(why)
            return functools.reduce(lambda a, b: Msg("{first} or {second}", first=a, second=b),
                                    whys)
        return either
    if tp is type(None):
        return lambda v: None if v is None else Msg("empty")
    if tp is bool:
        return lambda v: None if isinstance(v, bool) else Msg("true or false")
    if tp is int:
        lo, hi = (bound.lo, bound.hi) if isinstance(bound, Between) else (-MAX_AMOUNT,
                                                                          MAX_AMOUNT)

        def integer(v: Any) -> Msg | None:
            ok = type(v) is int and lo <= v <= hi
            return None if ok else Msg("a whole number from {lo} to {hi}", lo=str(lo), hi=str(hi))
        return integer
    longest = bound.n if isinstance(bound, Longest) else None
    if tp is str:
        n = longest or MAX_TEXT
        return lambda v: None if isinstance(v, str) and len(v) <= n else \
            Msg("a text of at most {n} characters", n=str(n))
    if origin is list:
        most = longest or MAX_ITEMS
        inner = typing.get_args(tp)[0]
        lo_hi = _int_bounds(inner)
        if lo_hi is not None:  # a list of whole numbers (dice): one loop, no call per item
            lo, hi = lo_hi

            def ints(v: Any) -> Msg | None:
                if type(v) is not list or len(v) > most:
                    return Msg("a list of at most {n} items", n=str(most))
                for x in v:
                    if type(x) is not int or not lo <= x <= hi:
                        return Msg("a list of items each a whole number from {lo} to {hi}",
                                   lo=str(lo), hi=str(hi))
                return None
            return ints
        item = _check_of(inner)

        def list_of(v: Any) -> Msg | None:
            if type(v) is not list or len(v) > most:
                return Msg("a list of at most {n} items", n=str(most))
            for x in v:
                why = item(x)
                if why is not None:
                    return Msg("a list of items each {why}", why=why)
            return None
        return list_of
    if origin is dict:
        value = _check_of(typing.get_args(tp)[1])
        most = longest or MAX_ITEMS

        def mapping(v: Any) -> Msg | None:
            if not isinstance(v, Mapping) or len(v) > most:
                return Msg("an object of at most {n} entries", n=str(most))
            for key, item in v.items():
                if not isinstance(key, str) or len(key) > MAX_ID:
                    return Msg("an object with short names")
                why = value(item)
                if why:
                    return Msg("an object whose '{key}' is {why}", key=key, why=why)
            return None
        return mapping
    raise TypeError(f"no check for the declared type {tp!r}")  # pragma: no cover


def _int_bounds(tp: Any) -> tuple[int, int] | None:
    """``(lo, hi)`` when ``tp`` is a bounded whole number, else None."""
    if typing.get_origin(tp) is Annotated:
        base, *meta = typing.get_args(tp)
        bound = next((m for m in meta if isinstance(m, Between)), None)
        if base is int and bound is not None:
            return bound.lo, bound.hi
    return None


@functools.cache
def _checks(args: type) -> dict[str, Check]:
    """Argument name -> its check, worked out once per structure."""
    hints = typing.get_type_hints(args, include_extras=True)
    return {arg_name(f.name): _check_of(hints[f.name]) for f in fields(args)}


def arg_name(field: str) -> str:
    """The argument a field stands for: a Python keyword's field ends in ``_`` (``with_``)."""
    return field.removesuffix("_")


A = TypeVar("A")


def typed_args(args: type[A], given: Mapping[str, Any]) -> A:
    """The declared structure ``args`` holding a command's arguments ``given`` (already
    :func:`check_args`-checked); an argument left out is its field's default."""
    return args(**{f.name: given[arg_name(f.name)] for f in fields(args)  # type: ignore[arg-type]
                   if arg_name(f.name) in given})


def check_args(args: type, command: Command) -> None:
    """Refuse ``command`` when its arguments are not those ``args`` declares, of their types
    and within their bounds (the message says which argument and what it must be)."""
    given = command.args
    if not given:
        return
    checks = _checks(args)
    nested = False
    for name, value in given.items():
        check = checks.get(name)
        if check is None:
            known = ", ".join(sorted(checks)) or "none"
            raise ArgumentError(Msg("'{command}' takes no argument {name} (it takes: {known}).",
                                    command=command.type, name=repr(name), known=known))
        why = check(value)
        if why:
            raise ArgumentError(Msg("Argument '{name}' of '{command}' must be {why}.", name=name,
                                    command=command.type, why=why))
        nested = nested or type(value) is dict
    # every other value is bounded by its type; an object of lists (a trade) is measured
    if nested and len(json.dumps(dict(given), default=str)) > MAX_ARGS_BYTES:
        raise ArgumentError(Msg("That command's arguments are too long."))


def _schema_of(tp: Any, bound: Between | Longest | None = None) -> dict[str, Any]:
    """The OpenAPI 3.0 schema of one declared type (the same bounds :func:`_check_of` checks)."""
    origin = typing.get_origin(tp)
    if origin is Annotated:
        base, *meta = typing.get_args(tp)
        return _schema_of(base, next((m for m in meta if isinstance(m, Between | Longest)),
                                     None))
    if origin in (typing.Union, types.UnionType):
        parts = [t for t in typing.get_args(tp) if t is not type(None)]
        nullable = len(parts) < len(typing.get_args(tp))
        out = _schema_of(parts[0]) if len(parts) == 1 else {
            "anyOf": [_schema_of(t) for t in parts]}
        return {**out, "nullable": True} if nullable else out
    if tp is type(None):
        return {"nullable": True}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        lo, hi = (bound.lo, bound.hi) if isinstance(bound, Between) else (-MAX_AMOUNT,
                                                                          MAX_AMOUNT)
        return {"type": "integer", "minimum": lo, "maximum": hi}
    longest = bound.n if isinstance(bound, Longest) else None
    if tp is str:
        return {"type": "string", "maxLength": longest or MAX_TEXT}
    if origin is list:
        return {"type": "array", "maxItems": longest or MAX_ITEMS,
                "items": _schema_of(typing.get_args(tp)[0])}
    if origin is dict:
        return {"type": "object", "maxProperties": longest or MAX_ITEMS,
                "additionalProperties": _schema_of(typing.get_args(tp)[1])}
    raise TypeError(f"no schema for the declared type {tp!r}")  # pragma: no cover


def args_schema(args: type) -> dict[str, Any]:
    """The JSON schema (OpenAPI 3.0) of a command's ``args`` under structure ``args``."""
    hints = typing.get_type_hints(args, include_extras=True)
    props = {arg_name(f.name): _schema_of(hints[f.name]) for f in fields(args)}
    out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    doc = (args.__doc__ or "").strip()
    if doc and not doc.startswith(args.__name__ + "("):
        out["description"] = doc.split("\n\n")[0]
    return out
