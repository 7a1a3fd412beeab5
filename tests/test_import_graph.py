"""The import contract (issue 40): the house has floors, and every arrow points down.

A module may import its own package and any floor below its own, never a floor above, never a
sibling on its own floor (docs/architecture.md, "Floors"). The graph is grimp's (import-linter's:
imports inside functions and under ``TYPE_CHECKING`` included) plus the loads grimp cannot see:
a module that calls ``importlib.import_module``/``__import__`` gets an arrow to every module its
string constants name, and a module that names an entry-point group of pyproject.toml gets an
arrow to every target declared in that group."""

from __future__ import annotations

import ast
import sys
import tomllib
from collections.abc import Iterable, Mapping
from functools import cache
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "web", "hardware")

FLOORS: tuple[tuple[str, ...], ...] = (
    ("companion",),  # the package itself: its version, nothing else
    ("companion.engine",),  # the rules core: standard library, babel, itself
    ("companion.monopoly",),  # the Monopoly family's shared rules
    ("companion.editions",),  # one package per edition
    ("companion.plugins",),  # where the installed editions are found (entry points)
    ("companion.store", "companion.platform"),  # the database; the Pi and the process
    ("companion.boxes",),  # the owner's box: profiles, card tags, the tag registry
    ("companion.service",),  # the one front door (ServicePort)
    ("web", "hardware", "companion.venue"),  # the surfaces (adapters)
    ("companion.app",),  # the composition root: runner, cli
)
"""Bottom to top. Packages on one floor are independent of each other."""

def _floor(module: str) -> int:
    """The floor a module is on (its package's), -1 for a module on none."""
    package = _package(module)
    return next((level for level, ps in enumerate(FLOORS) if package in ps), -1)


def _package(module: str) -> str:
    """The floor package a module belongs to (``companion.engine``, ``web``, ...)."""
    found = [p for ps in FLOORS for p in ps if module == p or module.startswith(p + ".")]
    return max(found, key=len) if found else module


def dynamic_targets(source: str, modules: Iterable[str],
                    groups: Mapping[str, Iterable[str]]) -> set[str]:
    """The modules that ``source`` loads where grimp cannot see: those its string constants
    name (``"pkg.mod"`` or ``"pkg.mod:Attr"``) when it calls ``import_module`` or
    ``__import__``, and every target of an entry-point group whose name it holds."""
    tree = ast.parse(source)
    names = {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(tree)
             if isinstance(n, ast.Name | ast.Attribute)}
    strings = {n.value for n in ast.walk(tree)
               if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    known = set(modules)
    found: set[str] = set()
    if names & {"import_module", "__import__"}:
        found |= {s.split(":")[0] for s in strings} & known
    for group, targets in groups.items():
        if group in strings:
            found |= {t.split(":")[0].strip() for t in targets}
    return found


@cache
def _entry_points() -> tuple[dict[str, list[str]], list[str]]:
    """pyproject.toml's entry-point groups (``{group: [target]}``) and its scripts' targets."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    groups = {g: list(points.values()) for g, points in project.get("entry-points", {}).items()}
    return groups, list(project.get("scripts", {}).values())


@cache
def edges() -> dict[str, frozenset[str]]:
    """Every module's imports: grimp's graph plus the loads it cannot see."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    groups, _ = _entry_points()
    out: dict[str, frozenset[str]] = {}
    for module in sorted(graph.modules):
        found = set(graph.find_modules_directly_imported_by(module))
        path = ROOT.joinpath(*module.split("."))
        file = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        if file.is_file():
            found |= dynamic_targets(file.read_text("utf-8"), graph.modules, groups)
        out[module] = frozenset(found - {module})
    return out


def test_the_scan_sees_loads_through_importlib_and_entry_points() -> None:
    modules = {"companion.editions.mario", "companion.editions.mario.story", "x.y"}
    loads = ('import importlib\nTABLE = {"m": "companion.editions.mario:MarioRules"}\n'
             'def load(n): return importlib.import_module(TABLE[n])\n')
    assert dynamic_targets(loads, modules, {}) == {"companion.editions.mario"}
    assert dynamic_targets('__import__("companion.editions.mario.story")', modules, {}) == {
        "companion.editions.mario.story"}
    assert dynamic_targets('NAME = "companion.editions.mario"', modules, {}) == set()
    group = {"board_companion.editions": ["x.y:Rules"]}
    assert dynamic_targets('GROUP = "board_companion.editions"', modules, group) == {"x.y"}
    assert dynamic_targets('GROUP = "other"', modules, group) == set()


def test_every_module_lives_on_a_floor() -> None:
    assert sorted(m for m in edges() if _floor(m) < 0) == []


def test_no_arrow_points_up_or_sideways() -> None:
    up = sorted(
        f"{a} -> {b}"
        for a, bs in edges().items()
        for b in bs
        if _package(a) != _package(b) and _floor(b) >= _floor(a)
    )
    assert up == [], "these arrows point up (docs/architecture.md):\n" + "\n".join(up)


def test_the_page_and_the_table_reach_the_database_only_through_the_service() -> None:
    """Floors may be skipped, but not to the store: the page and the table hold the service's
    front door (``ServicePort``), the one place that reads and writes the database."""
    direct = sorted(f"{a} -> {b}" for a, bs in edges().items() if _package(a) in ("web", "hardware")
                    for b in bs if _package(b) == "companion.store")
    assert direct == []


CORE_MAY_IMPORT = frozenset({"babel"})
"""Beyond the standard library, what the rules (engine, Monopoly family, editions) import:
babel, for plural rules and numbers in the reader's language (``companion.engine.i18n``)."""


def test_the_rules_import_only_the_standard_library_and_babel() -> None:
    graph = grimp.build_graph("companion", cache_dir=None, include_external_packages=True)
    core = ("companion.engine", "companion.monopoly", "companion.editions")
    outside = sorted(
        f"{a} -> {b}"
        for a in graph.modules if _package(a) in core
        for b in graph.find_modules_directly_imported_by(a)
        if b.split(".")[0] not in {"companion", "__future__", *sys.stdlib_module_names,
                                   *CORE_MAY_IMPORT})
    assert outside == []


def test_the_installed_commands_enter_at_the_composition_root() -> None:
    _, scripts = _entry_points()
    assert [s for s in scripts if not s.startswith("companion.app.")] == []


def _first_cycle(graph: Mapping[str, Iterable[str]]) -> list[str]:
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as exc:
        return list(exc.args[1])
    return []


def test_no_module_imports_itself_through_others() -> None:
    assert _first_cycle(edges()) == []


@pytest.mark.parametrize("depth", range(2, 6))
def test_no_package_imports_itself_through_others(depth: int) -> None:
    """Folders too, at every depth (``companion.engine``, ``companion.editions.mario``, ...);
    the top (``companion``) holds both the core and the composition root, so it is exempt."""

    def folder(module: str) -> str:
        return ".".join(module.split(".")[:depth])

    folders: dict[str, set[str]] = {}
    for a, bs in edges().items():
        folders.setdefault(folder(a), set()).update(
            folder(b) for b in bs if folder(b) != folder(a))
    assert _first_cycle(folders) == []
