"""Keeping a small Pi's resident memory down (glibc malloc tuning; no-ops elsewhere)."""

from __future__ import annotations

from typing import Any


def _libc() -> Any:
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6")
    except OSError:  # not glibc: nothing to tune
        return None


def limit_malloc_arenas(arenas: int = 2) -> None:
    """Let all threads share ``arenas`` malloc arenas. glibc gives busy threads their own
    (up to 8 per core); each keeps freed memory, and a web server has dozens of threads."""
    libc = _libc()
    if libc is not None:
        libc.mallopt(-8, arenas)  # M_ARENA_MAX


def release_memory() -> None:
    """Hand freed heap back to the system (glibc keeps it otherwise; the many short-lived
    strings of views and events would slowly raise a small Pi's resident memory)."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
