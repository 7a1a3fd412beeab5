"""Find an edition's rules by name (like python-chess's ``find_variant``)."""

from __future__ import annotations

import importlib
from typing import Any

from companion.engine import event_format
from companion.engine.rules import Rules
from companion.engine.types import SetupError

# name -> "module:Class"; modules are imported on first use.
EDITIONS: dict[str, str] = {
    "mario": "companion.editions.mario:MarioRules",
    "pokemon": "companion.editions.pokemon:PokemonRules",
    "starwars": "companion.editions.starwars:StarWarsRules",
    "monopolino": "companion.editions.monopolino:MonopolinoRules",
    "master-trainer": "companion.editions.master_trainer:MasterTrainerRules",
}

_cache: dict[str, Rules[Any]] = {}


def available() -> list[str]:
    """Names of editions whose rules module is installed."""
    out = []
    for name in EDITIONS:
        try:
            find_edition(name)
        except SetupError:
            continue
        out.append(name)
    return out


event_format.on_unknown_type(available)


def register_edition(rules: Rules[Any]) -> None:
    """Add an edition that is not shipped (a test's, a plug-in's) under ``rules.name``; its
    data is checked now, as a shipped edition's is when first used (SeedError if bad)."""
    if not rules.name or rules.name in EDITIONS:
        raise ValueError(f"edition name {rules.name!r} is empty or taken")
    rules.check()
    EDITIONS[rules.name] = f"{type(rules).__module__}:{type(rules).__qualname__}"
    _cache[rules.name] = rules


def unregister_edition(name: str) -> None:
    """Remove an edition added with :func:`register_edition`."""
    EDITIONS.pop(name, None)
    _cache.pop(name, None)


_loading: set[str] = set()


def find_edition(name: str) -> Rules[Any]:
    """The rules of edition ``name``, or SetupError naming the known editions."""
    if name in _cache:
        return _cache[name]
    target = EDITIONS.get(name)
    if target is None:
        raise SetupError(f"Unknown edition {name!r}. Known editions: {', '.join(EDITIONS)}.")
    module_name, cls_name = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise SetupError(f"Edition {name!r} is not installed in this build.") from exc
    if name in _loading:  # a check that loads its own edition again would recurse
        raise RuntimeError(f"Edition {name!r} was asked for while it is being checked.")
    rules: Rules[Any] = getattr(module, cls_name)()
    _loading.add(name)
    try:
        rules.check()  # a seed naming something no rule handles fails here, at start-up
    finally:
        _loading.discard(name)
    _cache[name] = rules
    return rules
