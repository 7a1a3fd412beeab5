"""Suite-wide: the files that wait longest start first on the xdist workers.

``./scripts/test`` runs the suite on pytest-xdist workers, a file per worker at a time, in
collection order (``--dist loadfile --no-loadscope-reorder``). A file marked
``pytest.mark.long(minutes)`` (a rough figure on a free core, used only for this order) is
collected ahead of the rest, longest first, so the chroot build and whole games in Chromium
overlap everything else instead of being the tail one worker finishes alone. Each worker is
handed two files at the start: the second batch is of short files, so no long file waits
behind another.
"""

from __future__ import annotations

import pytest


def _minutes(item: pytest.Item) -> float:
    mark = item.get_closest_marker("long")
    return float(mark.args[0]) if mark is not None else 0.0


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    weight = {path: max(map(_minutes, its)) for path, its in files.items()}
    long = sorted((p for p in files if weight[p]), key=lambda p: -weight[p])
    short = [p for p in files if not weight[p]]
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    order = long[:workers] + short[:workers] + long[workers:] + short[workers:]
    items[:] = [item for path in order for item in files[path]]
