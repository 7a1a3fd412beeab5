"""How ``prompt_asked`` stores a prompt's data: only what its declared kind cannot give back.

A roll's or a choice's data (:class:`~companion.engine.context.RollAsk`,
:class:`~companion.engine.context.ChoiceAsk`) names the step its kind declares
(``RollPrompt.then``), the player it asks (the prompt's only ``to``), no arguments and the
default "Roll" button: the log leaves those out and a replay puts them back from the edition's
declared prompts (:func:`companion.engine.registry.prompts`). Data that would not read back
exactly is stored whole, so nothing is lost whatever an edition asks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.engine.i18n import Msg
from companion.engine.prompts import ChoicePrompt, PromptKind, RollPrompt
from companion.engine.registry import prompts

ROLL = Msg("Roll")
"""The roll button's word when the rules name none (``Rules.ask_roll``)."""


_DECLARED: dict[type, dict[str, PromptKind]] = {}


def _declared(cls: type) -> dict[str, PromptKind]:
    """The prompts edition rules ``cls`` declares, by kind (looked up once per class)."""
    found = _DECLARED.get(cls)
    if found is None:
        found = _DECLARED[cls] = prompts(cls)
    return found


def stored(rules: object, kind: str, to: Sequence[str], data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` of prompt ``kind`` asked of ``to`` as the log keeps it."""
    declared = _declared(type(rules)).get(kind)
    short = dict(data)
    if isinstance(declared, RollPrompt) and isinstance(data.get("roll"), Mapping):
        spec = dict(data["roll"])
        for key, default in _roll_defaults(declared, to).items():
            if key in spec and _same(spec[key], default):
                del spec[key]
        short["roll"] = spec
    elif isinstance(declared, ChoicePrompt) and "options" in data:
        for key, default in (("task", declared.then), ("args", {})):
            if key in short and _same(short[key], default):
                del short[key]
    else:
        return dict(data)
    return short if read(rules, kind, to, short) == data else dict(data)


def read(rules: object, kind: str, to: Sequence[str], data: Mapping[str, Any]) -> dict[str, Any]:
    """The data :func:`stored` kept, whole again."""
    declared = _declared(type(rules)).get(kind)
    if isinstance(declared, RollPrompt) and isinstance(data.get("roll"), Mapping):
        spec = data["roll"]
        whole = {**_roll_defaults(declared, to), **spec}
        return {"roll": {k: whole[k] for k in ("who", "count", "task", "args", "label", *spec)
                         if k in whole}, **{k: v for k, v in data.items() if k != "roll"}}
    if isinstance(declared, ChoicePrompt) and "options" in data:
        return {"options": data["options"], "task": data.get("task", declared.then),
                "args": data.get("args", {}),
                **{k: v for k, v in data.items() if k not in ("options", "task", "args")}}
    return dict(data)


def _roll_defaults(declared: RollPrompt, to: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {"task": declared.then, "args": {}, "label": ROLL}
    if len(to) == 1:
        out["who"] = to[0]
    return out


def _same(value: Any, default: Any) -> bool:
    """``value`` is ``default`` (a message only as that same message, not its English)."""
    if isinstance(default, Msg):
        return isinstance(value, Msg) and value.to_json() == default.to_json()
    return type(value) is type(default) and value == default
