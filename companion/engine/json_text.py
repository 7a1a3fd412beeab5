"""JSON from outside (a phone's request, a profile file, a script), read so that bad input is
a one-line refusal, never a traceback: not UTF-8 text (a binary file), nested deeper than
:data:`MAX_DEPTH`, a number longer than :data:`MAX_DIGITS` digits, ``NaN``/``Infinity``, a
lone UTF-16 surrogate (``"\\ud800"``, which no text can hold), or not JSON at all.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 32
"""Lists and objects nested deeper than this are refused (a profile nests about 6 deep)."""
MAX_DIGITS = 4300
"""Digits a number may have (Python's own limit on int() from text; the fields'
own checks then refuse a long one by name: an amount is at most 10 digits)."""

_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')
_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")


class JsonTextError(ValueError):
    """Why the text is not acceptable JSON, in words for the person who sent it."""


def nesting(raw: bytes) -> int:
    """How deep lists and objects nest in the JSON text ``raw`` (strings skipped)."""
    deepest = level = 0
    for ch in re.findall(rb"[\[\]{}]", _STRINGS.sub(b"", raw)):
        level += 1 if ch in (b"[", b"{") else -1
        deepest = max(deepest, level)
    return deepest


def _number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise JsonTextError(f"a number is longer than {MAX_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_DIGITS:
        raise JsonTextError(f"a number is longer than {MAX_DIGITS} digits")
    return float(text)


def _constant(name: str) -> Any:
    raise JsonTextError(f"{name} is not a number")


def loads(raw: bytes | str, max_depth: int = MAX_DEPTH) -> Any:
    """The value in ``raw``, or :class:`JsonTextError` saying what is wrong with it."""
    if isinstance(raw, str):
        try:
            raw = raw.encode("utf-8")
        except UnicodeEncodeError:
            raise JsonTextError("the text holds a character that is not valid text") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise JsonTextError("it is not text (UTF-8); is it the right file?") from None
    if raw.count(b"[") + raw.count(b"{") > max_depth and nesting(raw) > max_depth:
        raise JsonTextError(f"it nests deeper than {max_depth} levels")
    try:
        data = json.loads(text, parse_int=_number, parse_float=_float,
                          parse_constant=_constant)
    except JsonTextError:
        raise
    except (ValueError, RecursionError) as exc:
        raise JsonTextError(f"it is not valid JSON ({str(exc).split(':')[0]})") from None
    if b"\\u" in raw and _SURROGATE.search(raw):
        try:  # a lone half of a surrogate pair cannot be stored, shown or encoded
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise JsonTextError("it holds a lone surrogate (\\ud800-\\udfff), which is not "
                                "text") from None
    return data
