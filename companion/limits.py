"""Bounds on every input, checked before the rules see it.

A command's arguments are checked against a declared table (:data:`ARGS`: every argument
name any command takes, with its type and bounds; :data:`COMMANDS`: which names each
command takes), a new game's settings against what its edition declares in ``setup_info``
(types, counts, amounts, string lengths). Whatever is refused is refused with words a
player understands, and nothing is stored: an argument the table does not name, an amount
beyond :data:`MAX_AMOUNT` or a list longer than :data:`MAX_ITEMS` never reaches the log.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from companion.engine.types import Command, GameSetup, IllegalCommand, SetupError

MAX_AMOUNT = 10**9
"""The largest amount of money (in minor units) one command may name."""
MAX_ID = 40
MAX_TEXT = 120
MAX_ITEMS = 64
MAX_ARGS_BYTES = 4096
"""A command's arguments, encoded as JSON: far above any real command (a trade of every
space on the board is about 300 bytes)."""
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


def nothing(v: Any) -> str | None:
    return None if v is None else "empty"


def list_of(item: Check, longest: int) -> Check:
    def check(v: Any) -> str | None:
        if not isinstance(v, list) or len(v) > longest:
            return f"a list of at most {longest} items"
        bad = next((why for why in map(item, v) if why), None)
        return None if bad is None else f"a list of items each {bad}"
    return check


def either(*checks: Check) -> Check:
    def check(v: Any) -> str | None:
        whys = [c(v) for c in checks]
        return None if None in whys else " or ".join(w for w in whys if w)
    return check


def trade_side(v: Any) -> str | None:
    """One side of a Monopoly trade: money and short lists of spaces, cards or extras."""
    if not isinstance(v, Mapping) or len(v) > 8:
        return "an object of money and lists (spaces, cards, ...)"
    for key, value in v.items():
        if not isinstance(key, str) or len(key) > MAX_ID:
            return "an object with short names"
        why = (integer(0, MAX_AMOUNT) if key == "money"
               else list_of(either(integer(0, 10**6), text(MAX_ID)), MAX_ITEMS))(value)
        if why:
            return f"an object whose '{key}' is {why}"
    return None


ident = text(MAX_ID)
small = either(nothing, integer(-10**6, 10**6), text(64), lambda v: None if isinstance(v, bool)
               else "true or false")
some = either(small, list_of(small, 16))

ARGS: dict[str, Check] = {
    "amount": integer(0, MAX_AMOUNT),
    "source": ident, "to": ident, "target": ident, "with": ident,
    "reason": text(MAX_TEXT),
    "option": small, "space": small, "chip": small, "ball": small, "item": small,
    "trade": small, "card": small,
    "dice": either(nothing, integer(0, 100), text(20), list_of(integer(0, 100), 6)),
    "give": either(small, trade_side), "take": either(small, trade_side),
    "items": some, "bonus": some,
    "value": small, "values": list_of(small, 16),
}
"""Every argument name a command may carry, and its bounds."""

COMMANDS: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in {
    "transfer": ("source", "to", "amount", "reason"),
    "propose_trade": ("to", "give", "take"),
    "accept_trade": ("trade",), "decline_trade": ("trade",), "cancel_trade": ("trade",),
    "bid": ("amount",), "pass": (), "buy": ("space",), "auction": ("space",),
    "close_auction": (), "end_game": (), "sell_to_bank": ("space",),
    "continue_location": ("space",), "declare_bankruptcy": (), "pay_jail_fine": (),
    "use_jail_card": (), "roll": ("dice",), "draw": ("card",), "choose": ("option",), "keep": (),
    "time_machine": ("target", "dice"), "reveal": ("chip",), "catch": ("ball",),
    "skip": (), "revive": ("chip",), "challenge": (), "take": ("chip",),
    "starter": ("chip",), "land": ("space",), "discard": ("item",),
    "use": ("item", "chip", "space"), "battle": ("with", "option"),
    "trade": ("with", "give", "take", "items"), "accept": (), "decline": (),
    "poke_doll": (), "fight": ("chip", "bonus"), "explore": (), "reroll": (), "stop": (),
}.items()}
"""The arguments each command takes. A command not listed (an edition's newer verb) may
carry only names from :data:`ARGS`, each within its bounds."""

ANY_COMMAND = frozenset({"value", "values"})
"""What a script may leave over for any command (a bare value the rules then judge)."""


def check_command(command: Command) -> None:
    """Refuse a command whose arguments are unknown, of the wrong type or out of bounds."""
    if len(command.actor) > MAX_ID or len(command.type) > MAX_ID:
        raise IllegalCommand("A command's actor and type are short names.")
    allowed = COMMANDS.get(command.type, frozenset(ARGS)) | ANY_COMMAND
    for name, value in command.args.items():
        if name not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise IllegalCommand(f"'{command.type}' takes no argument {name!r} "
                                 f"(it takes: {known}).")
        why = ARGS[name](value)
        if why:
            raise IllegalCommand(f"Argument '{name}' of '{command.type}' must be {why}.")
    if len(json.dumps(dict(command.args), default=str)) > MAX_ARGS_BYTES:
        raise IllegalCommand("That command's arguments are too long.")


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
