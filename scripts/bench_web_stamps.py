"""Where a move's time goes inside the server, for ``scripts/bench_web.py --stamps``.

The server child installs wrappers around the functions a move passes through (the front's
request read and quick checks, the hand-over to the service thread, decide, inserts, commit,
publish, the hand-back to the loop and the writes to every stream); each records
``perf_counter_ns``, and the report prints each stage's median and p90 in µs to stderr when
the child is stopped. Diagnosis only: the wrappers cost a little time themselves.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable
from typing import Any


def log(*a: Any) -> None:
    print(*a, file=sys.stderr, flush=True)


def install_stamps() -> Callable[[], None]:
    """Time each stage of a move inside the server (``--stamps``): wrappers around the
    functions a move passes through record ``perf_counter_ns``; the returned function prints
    each stage's median and p90 (µs) to stderr. Moves are sequential in this benchmark, so
    one move's stamps are collected at a time."""
    from companion import service as service_mod
    from companion import store as store_mod
    from web import front as front_mod
    from web import native as native_mod

    now = time.perf_counter_ns
    move: dict[str, int] = {}
    done: list[dict[str, int]] = []

    def wrap(cls: Any, name: str, before: str | None, after: str | None,
             first: bool = False) -> None:
        fn = getattr(cls, name)
        if asyncio.iscoroutinefunction(fn):
            async def awrapped(*a: Any, **k: Any) -> Any:
                if first:
                    move.clear()
                if before:
                    move[before] = now()
                try:
                    return await fn(*a, **k)
                finally:
                    if after:
                        move[after] = now()
            setattr(cls, name, awrapped)
            return

        def wrapped(*a: Any, **k: Any) -> Any:
            if first:
                move.clear()
            if before and before not in move:
                move[before] = now()
            try:
                return fn(*a, **k)
            finally:
                if after:
                    move.setdefault(after, now())  # the writes may have set it first
        static = isinstance(cls.__dict__.get(name), staticmethod)
        setattr(cls, name, staticmethod(wrapped) if static else wrapped)

    wrap(front_mod.Front, "_request", "0 head read", None, first=True)
    wrap(native_mod.NativeCommands, "quick", "1 request read", "2 quick checks")
    wrap(service_mod.GameService, "_submit", "3 hand-over", None)
    wrap(store_mod.Store, "append", "4 decide", None)
    wrap(service_mod.GameService, "_view_ahead", "5 inserts", None)
    wrap(service_mod.GameService, "_take_ahead", "6 commit", None)
    wrap(front_mod.Front, "_published", "7 state set", "8 frames")
    wrap(front_mod.Front, "_run_posted", "9 hand-back", None)

    side: dict[str, list[float]] = {"view built ahead": [], "its patch": []}
    from companion import view_ahead as ahead_mod

    def timed(fn: Callable[..., Any], bucket: list[float]) -> Callable[..., Any]:
        def run(*a: Any) -> Any:
            t = now()
            try:
                return fn(*a)
            finally:
                bucket.append((now() - t) / 1e3)
        return run

    setattr(ahead_mod, "_render", timed(  # noqa: B010
        ahead_mod._render, side["view built ahead"]))  # type: ignore[attr-defined]
    setattr(front_mod.Front, "_ahead", timed(front_mod.Front._ahead, side["its patch"]))  # noqa: B010

    orig_wake = front_mod.Front._wake

    def wake(self: Any) -> None:
        t = now()  # a move the loop runs itself is written from inside its publish: the
        move.setdefault("8 frames", t)  # frames are built here, and there is no hand-back
        move.setdefault("9 hand-back", t)
        orig_wake(self)
        move["10 writes"] = now()
        if len(move) == 11:
            done.append(dict(move))
    front_mod.Front._wake = wake  # type: ignore[method-assign]

    def report() -> None:
        rows = done[20:]  # after the warm-up
        if not rows:
            log("stamps: no complete move")
            return
        names = sorted(rows[0], key=lambda n: int(n.split()[0]))
        out = []
        for a, b in zip(names, names[1:], strict=False):
            d = sorted((r[b] - r[a]) / 1e3 for r in rows)
            out.append(f"{b.split(' ', 1)[1]} {d[len(d) // 2]:.0f}/{d[len(d) * 9 // 10]:.0f}")
        tot = sorted((r[names[-1]] - r[names[0]]) / 1e3 for r in rows)
        for name, xs in side.items():
            xs = sorted(xs[20:])
            if xs:
                out.append(f"({name} {xs[len(xs) // 2]:.0f}/{xs[len(xs) * 9 // 10]:.0f})")
        log(f"stamps ({len(rows)} moves, median/p90 µs): " + ", ".join(out)
            + f"; total {tot[len(tot) // 2]:.0f}/{tot[len(tot) * 9 // 10]:.0f}")
    return report
