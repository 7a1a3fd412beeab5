"""Bounds on every input, checked before the rules see it.

A command's arguments are declared once, with the handler that reads them (``@takes`` in
:mod:`companion.engine.commands`): the engine checks them before the rules see the command,
wherever it comes from (a phone, a tag, a script). Here: the command's envelope (its actor and
type are short names, its arguments not too long) and a new game's settings against what its
edition declares in ``setup_info`` (types, counts, amounts, string lengths). Whatever is
refused is refused with words a player understands, and nothing is stored.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from companion.engine.commands import (
    MAX_AMOUNT,
    MAX_ARGS_BYTES,
    MAX_ID,
    MAX_ITEMS,
    MAX_TEXT,
    ArgumentError,
)
from companion.engine.types import Command, GameSetup, IllegalCommand, SetupError

__all__ = ["ArgumentError", "MAX_AMOUNT", "MAX_ARGS_BYTES", "MAX_COUNT", "MAX_ID", "MAX_ITEMS",
           "MAX_PLAYERS", "MAX_SETTINGS_BYTES", "MAX_TEXT", "check_command", "check_setup"]

MAX_COUNT = 200
"""The most copies of one card, chip or item a setup may ask for."""
MAX_SETTINGS_BYTES = 64 * 1024
MAX_PLAYERS = 12

Check = Callable[[Any], str | None]
"""A bound: None when the value fits, else what is wrong (completing "it must be ...")."""


def integer(lo: int, hi: int) -> Check:
    def check(v: Any) -> str | None:
        ok = isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi
        return None if ok else f"a whole number from {lo} to {hi}"
    return check


def text(longest: int) -> Check:
    def check(v: Any) -> str | None:
        return None if isinstance(v, str) and len(v) <= longest else \
            f"a text of at most {longest} characters"
    return check


def check_command(command: Command) -> None:
    """Refuse a command whose actor or type is not a short name (its arguments are checked by
    the engine against its handler's ``@takes``: an :class:`ArgumentError`)."""
    if len(command.actor) > MAX_ID or len(command.type) > MAX_ID:
        raise IllegalCommand("A command's actor and type are short names.")


# -- a new game --------------------------------------------------------------------------
def _setting_check(spec: Mapping[str, Any]) -> Check:
    kind = spec.get("type")
    if kind == "int":
        return integer(int(spec.get("min", 0)), int(spec.get("max", MAX_AMOUNT)))
    if kind == "choice":
        values = [c.get("value") for c in spec.get("choices", ())]
        return lambda v: None if v in values else "one of " + ", ".join(map(repr, values))
    if kind == "counts":
        keys = {k["key"] for k in spec.get("keys", ())}
        count = integer(int(spec.get("min", 0)), int(spec.get("max", MAX_COUNT)))

        def counts(v: Any) -> str | None:
            if not isinstance(v, Mapping) or set(v) - keys:
                return "an object with counts for " + ", ".join(sorted(keys))
            bad = next((f"{k}: {why}" for k, n in v.items() if (why := count(n))), None)
            return None if bad is None else f"counts, each {bad}"
        return counts
    if kind == "text":
        return text(int(spec.get("max", 200)))
    return lambda v: None  # json: bounded by size and depth below, shaped by the edition


def _corrections(board: Any) -> str | None:
    """The board corrections' outline (the edition checks every value)."""
    if not isinstance(board, Mapping):
        return "an object of 'spaces' and 'cards'"
    for part in ("spaces", "cards"):
        value = board.get(part, {})
        if not isinstance(value, Mapping) or len(value) > 200:
            return f"an object whose '{part}' is an object of corrections by id"
        if not all(isinstance(c, Mapping) for c in value.values()):
            return f"an object whose '{part}' holds one object per corrected {part[:-1]}"
    return None


def depth(value: Any, limit: int) -> bool:
    """True when ``value`` nests no deeper than ``limit`` lists or objects."""
    if isinstance(value, Mapping):
        return limit > 0 and all(depth(v, limit - 1) for v in value.values())
    if isinstance(value, list | tuple):
        return limit > 0 and all(depth(v, limit - 1) for v in value)
    return True


def check_setup(setup: GameSetup, info: Mapping[str, Any]) -> None:
    """Refuse settings the edition does not declare, or of the wrong type or size.
    ``info`` is the edition's ``setup_info()``."""
    if len(setup.players) > MAX_PLAYERS:
        raise SetupError(f"A game has at most {MAX_PLAYERS} players.")
    settings = dict(setup.settings)
    if not depth(settings, 8) or len(json.dumps(settings, default=str)) > MAX_SETTINGS_BYTES:
        raise SetupError("The settings are too large or nested too deep.")
    declared = {str(s["name"]): s for s in info.get("settings", ())}
    for name, value in settings.items():
        if name == "board" and info.get("board") is not None:
            why = _corrections(value)
        elif name in declared:
            why = _setting_check(declared[name])(value)
        else:
            known = ", ".join(sorted(declared) + (["board"] if info.get("board") else []))
            raise SetupError(f"Unknown setting {name!r} (this edition has: {known or 'none'}).")
        if why:
            label = declared.get(name, {}).get("label", name)
            raise SetupError(f"Setting '{name}' ({label}) must be {why}.")
