"""Process settings for a long-running server: the garbage collector and open files."""

from __future__ import annotations

import gc
import resource

GC_YOUNG = 5000
"""Allocations between young-generation collections (Python's default is 700)."""


def settle_garbage() -> None:
    """After start-up: move what exists now out of the collector's reach (``gc.freeze``),
    and collect the young generation less often, so a move rarely pays for a collection
    and never for a full scan of the start-up objects."""
    gc.collect()
    gc.freeze()
    _, second, third = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, second, third)


def raise_open_files(want: int = 4096) -> None:
    """Let the process hold ``want`` sockets (the soft limit is often 1024)."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = want if hard == resource.RLIM_INFINITY else min(want, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):
        pass
