"""Find an edition's rules by name: every installed distribution's entry points in the group
``board_companion.editions`` (``name = "package.module:RulesClass"``), the shipped five
included (pyproject.toml). An edition installed from outside is found the same way, with no
edit here (docs/adding-an-edition.md)."""

from __future__ import annotations

import logging
from importlib.metadata import EntryPoint, entry_points
from importlib.resources.abc import Traversable
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from companion.engine import event_format, i18n
from companion.engine.rules import Rules
from companion.engine.types import SetupError

GROUP = "board_companion.editions"
log = logging.getLogger(__name__)

_cache: dict[str, Rules[Any]] = {}
_registered: dict[str, Rules[Any]] = {}
_loading: set[str] = set()
_told: set[str] = set()  # the editions whose failure to load the log has said


def _entry_points() -> dict[str, EntryPoint]:
    """The installed editions' entry points by name (the first installed wins a clash)."""
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=GROUP):
        found.setdefault(point.name, point)
    return found


def known() -> list[str]:
    """Every edition name installed or registered, loadable or not."""
    return [*_entry_points(), *(n for n in _registered if n not in _entry_points())]


def available() -> list[str]:
    """Names of the editions whose rules load; the log says once why an installed one does not
    (a data file declared wrong, a module that fails to import): it must not stop the others."""
    out = []
    for name in known():
        try:
            find_edition(name)
        except Exception as exc:  # noqa: BLE001 - any plug-in's fault, said and left out
            if name not in _told:
                _told.add(name)
                log.warning("edition %r is left out: %s", name, exc)
            continue
        out.append(name)
    return out


event_format.on_unknown_type(available)


def catalogue_folders() -> list[Traversable]:
    """Each installed edition's own catalogues: the ``locales`` folder beside the module its
    entry point names (where its rules' ``locales`` point), found without importing its rules
    (importing the five shipped ones takes ~170 ms; this ~5 ms, once per process)."""
    out: list[Traversable] = []
    for point in _entry_points().values():
        try:
            spec = find_spec(point.module)
        except Exception:  # noqa: BLE001 - not installed, or a broken package (available()
            continue  # says why): its words are left out, the others' still read
        if spec is not None and spec.origin is not None:
            folder = Path(spec.origin).parent / "locales"
            if folder.is_dir():
                out.append(folder)
    return out


i18n.find_catalogues_with(catalogue_folders)


def register_edition(rules: Rules[Any]) -> None:
    """Add an edition that is not installed (a test's) under ``rules.name``; its data is
    checked now, as an installed edition's is when first used (SeedError if bad)."""
    if not rules.name or rules.name in known():
        raise ValueError(f"edition name {rules.name!r} is empty or taken")
    rules.check()
    _registered[rules.name] = _cache[rules.name] = rules


def unregister_edition(name: str) -> None:
    """Remove an edition added with :func:`register_edition`."""
    if _registered.pop(name, None) is not None:
        _cache.pop(name, None)


def find_edition(name: str) -> Rules[Any]:
    """The rules of edition ``name``, or SetupError naming the known editions."""
    if name in _cache:
        return _cache[name]
    point = _entry_points().get(name)
    if point is None and not known():
        raise SetupError(f"No edition is installed, so not {name!r}: the editions are found "
                         f"through the installed package's entry points ({GROUP}); install "
                         "the companion with pip (pip install -e . in a checkout).")
    if point is None:
        raise SetupError(f"Unknown edition {name!r}. Known editions: {', '.join(known())}.")
    try:
        cls = point.load()
    except ModuleNotFoundError as exc:
        if exc.name != point.module and not point.module.startswith(f"{exc.name}."):
            raise
        raise SetupError(f"Edition {name!r} is not installed in this build.") from exc
    if name in _loading:  # a check that loads its own edition again would recurse
        raise RuntimeError(f"Edition {name!r} was asked for while it is being checked.")
    rules: Rules[Any] = cls()
    if rules.name != name:
        raise SetupError(f"Edition {name!r} ({point.value}) calls itself {rules.name!r}.")
    _loading.add(name)
    try:
        rules.check()  # a seed naming something no rule handles fails here, at start-up
    finally:
        _loading.discard(name)
    _cache[name] = rules
    return rules
