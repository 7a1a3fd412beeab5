"""The house has no circles and one front door (issue 28): no module imports itself through
others, and only the composition root (``companion.app.runner``) reaches into ``web`` or
``hardware``. The graph is grimp's (import-linter's), type-checking imports included."""

from __future__ import annotations

import grimp
import pytest

PACKAGES = ("companion", "web", "hardware")
COMPOSITION_ROOT = "companion.app.runner"


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, cache_dir=None)


def test_no_module_imports_itself_through_others(graph: grimp.ImportGraph) -> None:
    cycles = sorted(
        " -> ".join((a, *(graph.find_shortest_chain(importer=b, imported=a) or ())))
        for a in graph.modules
        for b in graph.find_modules_directly_imported_by(a)
        if graph.chain_exists(importer=b, imported=a)
    )
    assert cycles == []


def test_the_core_never_imports_the_page_or_the_hardware(graph: grimp.ImportGraph) -> None:
    upward = sorted(
        f"{a} -> {b}"
        for a in graph.find_descendants("companion") | {"companion"}
        if a != COMPOSITION_ROOT
        for b in graph.find_modules_directly_imported_by(a)
        if b.split(".")[0] in ("web", "hardware")
    )
    assert upward == []
    # and so the rules, the service and the store cannot reach them even indirectly
    for core in ("companion.engine", "companion.monopoly", "companion.editions",
                 "companion.service.game_service", "companion.store.database"):
        for outside in ("web", "hardware"):
            assert not graph.chain_exists(importer=core, imported=outside, as_packages=True)
