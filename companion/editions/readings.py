"""Readings, settings and citations kept in each edition's data file.

A *reading* is the companion's choice where a rulebook is silent or two of its passages
disagree (``[[readings]]``); each is explained in ``docs/readings/<edition>.md``. A reading with
two plausible answers is a *setting* the banker picks at setup: ``setting``, ``default`` and
``options`` (each a value and a label in words). *Citations* (``[citations.<rule id>]``) give
the rulebook section and a short exact quote for each automatic action.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from companion.engine.types import SetupError

_FILES = {"master-trainer": ("master-trainer", "rules.toml")}


@cache
def _tables(edition: str) -> Mapping[str, Any]:
    parts = _FILES.get(edition, (f"{edition}.toml",))
    path = resources.files("seeds")
    for part in parts:
        path = path.joinpath(part)
    return tomllib.loads(path.read_text("utf-8"))


def readings(edition: str) -> list[dict[str, Any]]:
    """Every reading the edition takes, in the data file's order."""
    return [dict(r) for r in _tables(edition).get("readings", ())]


def citations(edition: str) -> dict[str, dict[str, str]]:
    """Rule id -> ``{section, quote}`` (or ``{reading}`` for the companion's own choice)."""
    return {k: dict(v) for k, v in _tables(edition).get("citations", {}).items()}


def settings_info(edition: str) -> tuple[dict[str, Any], ...]:
    """The readings offered as settings, as setup-form entries (type ``choice``)."""
    return tuple(
        {"name": r["setting"], "label": r["label"], "type": "choice", "default": r["default"],
         "choices": [{"value": o["value"], "label": o["label"]} for o in r["options"]]}
        for r in readings(edition) if "setting" in r)


def setting_names(edition: str) -> tuple[str, ...]:
    return tuple(info["name"] for info in settings_info(edition))


def chosen(edition: str, settings: Mapping[str, Any], name: str) -> str:
    """The value of setting ``name`` in ``settings`` (its default when not given); a value
    that is not one of its options is refused with the options in words."""
    for info in settings_info(edition):
        if info["name"] == name:
            value = settings.get(name, info["default"])
            values = [c["value"] for c in info["choices"]]
            if value not in values:
                words = "; ".join(f"'{c['value']}' ({c['label']})" for c in info["choices"])
                raise SetupError(f"Setting '{name}' ({info['label']}) is one of: {words}.")
            return str(value)
    raise KeyError(name)


def check(edition: str, settings: Mapping[str, Any]) -> None:
    """Refuse a game whose reading settings have a value that is not an option."""
    for name in setting_names(edition):
        chosen(edition, settings, name)
