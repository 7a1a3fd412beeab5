"""Server-Sent Events: the game's view for this phone, then small patches as it moves.

Each frame has ``id:`` = the game version it brings the phone to. A stream opened with
``?live=patch`` (the page does) gets the whole view (``event: view``) first, then for each
new version only what changed (``event: patch``, ``{"from", "to", "ops"}``, see
:func:`diff`), as long as the stream already holds the version the patch starts from; after
a gap (a resume from an older ``Last-Event-ID``, or when a patch would be nearly as large as
the view) it gets the whole view again. Other clients get a whole view per version.

Views and frames are computed once per game version and viewer and shared by every stream
of that viewer, never once per stream.

Under the server (web/front.py) the view only checks who may watch and hands the stream to
the event loop, so an open stream holds no thread; under Flask's test client it is a
generator.

Spectators' streams are limited in number, in all and per address; a seated phone's and the
banker's are not refused (web/context.py ``StreamSlots``). Streams end after
``stream_seconds`` (the browser reconnects with ``Last-Event-ID``).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, request, session

from companion.engine.i18n import Msg, Word, wire
from web import access
from web.context import StreamSlots, web
from web.errors import ApiError
from web.streams import StreamSpec

if TYPE_CHECKING:
    from companion.service.game_service import PhoneView, ServicePort

def _plain(value: Any) -> Any:
    """What orjson hands back (subclasses pass through): a message or a box's word as its data
    for the page to render in its language (companion/engine/i18n.py), another subclass as its base
    type."""
    if isinstance(value, Msg | Word):
        return wire(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int | float):
        return int(value) if isinstance(value, int) else float(value)
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list | tuple):
        return list(value)
    raise TypeError(f"not JSON: {type(value).__name__}")


try:  # a faster encoder (a dependency; the standard library if it is missing)
    import orjson

    OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS

    def dumps(value: Any) -> bytes:
        return bytes(orjson.dumps(value, default=_plain, option=OPTIONS))
except ImportError:  # pragma: no cover - depends on the machine
    def dumps(value: Any) -> bytes:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()

bp = Blueprint("events", __name__, url_prefix="/api")

SLICE = 1.0
"""Seconds a stream waits for news before checking whether it should end."""

PATCH_LIMIT = 6144
"""A patch at least this long is not sent: the whole view goes instead (a Master Trainer
view of three players is about 8.7 kB; a battle's patch, its lines with their event types
(``log_events``), about 4.1 kB)."""

SHIFTS = 12
"""The most log lines one move may add and still be sent as a scroll: a Master Trainer
battle says 8 or more, each a message (its data, several times its text), which item by item
made a patch over :data:`PATCH_LIMIT`."""

Path = list[str | int]
Op = list[Any]


# -- patches ----------------------------------------------------------------------------------
def diff(old: Any, new: Any, path: Path | None = None, out: list[Op] | None = None) -> list[Op]:
    """The changes that turn ``old`` into ``new``, as a list of operations on paths (a path is
    a list of object keys and array indexes):

    - ``["s", path, value]``: set ``path`` to ``value`` (the empty path replaces everything);
    - ``["d", path]``: delete the key at ``path``;
    - ``["l", path, k, items]``: the array at ``path`` drops its first ``k`` items and
      appends ``items`` (a log that scrolled).
    """
    path = [] if path is None else path
    out = [] if out is None else out
    if old == new:
        return out
    if isinstance(old, dict) and isinstance(new, dict):
        for k in old:
            if k not in new:
                out.append(["d", [*path, k]])
        for k, v in new.items():
            if k not in old:
                out.append(["s", [*path, k], v])
            elif old[k] != v:
                diff(old[k], v, [*path, k], out)
    elif isinstance(old, list) and isinstance(new, list):
        if len(old) == len(new):
            shift = _shift(old, new)
            if shift:
                out.append(["l", path, shift, new[len(new) - shift:]])
            else:
                for i, (a, b) in enumerate(zip(old, new, strict=True)):
                    if a != b:
                        diff(a, b, [*path, i], out)
        else:
            shift = _shift(old, new)
            if shift is not None:
                out.append(["l", path, shift, new[len(old) - shift:]])
            else:
                out.append(["s", path, new])
    else:
        out.append(["s", path, new])
    return out


def _shift(old: list[Any], new: list[Any]) -> int | None:
    """``k`` when ``new`` is ``old`` without its first ``k`` items plus new ones at the end
    (a scrolled log; 0: only appended), else None. Shifts up to :data:`SHIFTS` are looked
    for."""
    for k in range(0, min(len(old) - 1, SHIFTS) + 1):
        kept = len(old) - k  # at least one item kept, else it is no shift
        if kept <= len(new) and (k or len(new) > len(old)) and new[:kept] == old[k:]:
            return k
    return None


def apply(view: Any, ops: list[Op]) -> Any:
    """Apply :func:`diff`'s operations to ``view`` in place; returns the result."""
    for op in ops:
        kind, path = op[0], op[1]
        if not path:
            if kind == "s":
                view = op[2]
                continue
            target: Any = view
        else:
            parent: Any = view
            for key in path[:-1]:
                parent = parent[key]
            last = path[-1]
            if kind == "s":
                parent[last] = op[2]
                continue
            if kind == "d":
                del parent[last]
                continue
            target = parent[last]
        if kind == "l":
            del target[:op[2]]
            target.extend(op[3])
        else:
            raise ValueError(f"unknown patch operation {kind!r}")
    return view


# -- frames, computed once per version and viewer ---------------------------------------------
@dataclass(eq=False)
class Frames:
    """One viewer's view of one game version, with its SSE frames."""

    version: int
    view: PhoneView
    base: int = -1
    patch: bytes | None = None
    """``event: patch`` from version ``base`` (None when there is no smaller patch)."""
    _full: bytes | None = None

    @property
    def full(self) -> bytes:
        """``event: view`` with the whole view, serialised when first needed (a connect or a
        gap), not on every move."""
        if self._full is None:
            self._full = b"id: %d\nevent: view\ndata: %s\n\n" % (self.version, dumps(self.view))
        return self._full

    def frame(self, seen: int, patches: bool) -> bytes | None:
        """What a stream that holds version ``seen`` needs next (None: nothing)."""
        if self.version == seen:
            return None
        if patches and self.patch is not None and self.base == seen:
            return self.patch
        return self.full


_cache: dict[tuple[str, str | None], Frames] = {}
_cache_lock = threading.Lock()


def _next(hit: Frames | None, version: int, view: PhoneView) -> Frames:
    """The Frames of ``view``, with the patch from ``hit`` (the previous Frames) if small."""
    out = Frames(version, view)
    if hit is not None and hit.version < version:
        ops = diff(hit.view, view)
        patch = b"id: %d\nevent: patch\ndata: %s\n\n" % (
            version, dumps({"from": hit.version, "to": version, "ops": ops}))
        if len(patch) < PATCH_LIMIT:
            out.base, out.patch = hit.version, patch
    return out


def frames(service: ServicePort, game_id: str, viewer: str | None) -> Frames:
    """The current :class:`Frames` of the game for ``viewer``, built once per version (and
    shared by every viewer when the edition shows them all the same view)."""
    view = service.view(game_id, viewer)
    version = int(view["version"])
    key = (game_id, service.view_key(game_id, viewer))
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None and hit.version >= version:
            return hit if hit.version == version else Frames(version, view)
    out = _next(hit, version, view)
    with _cache_lock:
        now = _cache.get(key)
        if now is None or now.version < version:
            _cache[key] = out
    return out


def last_seen() -> int:
    raw = request.headers.get("Last-Event-ID") or request.args.get("after") or ""
    try:
        return int(raw)
    except ValueError:
        return -1


def stream(service: ServicePort, game_id: str, viewer: str | None, after: int, slots: StreamSlots,
           seconds: float, heartbeat: float, gone: Callable[[], bool],
           release: Callable[[], None] | None = None, patches: bool = False) -> Iterator[bytes]:
    try:
        yield b"retry: 1500\n\n"
        seen = after
        now = time.monotonic()
        end, last_write = now + seconds, now
        while now < end and not gone():
            f = frames(service, game_id, viewer)
            data = f.frame(seen, patches)
            if data is not None:
                seen, last_write = f.version, time.monotonic()
                yield data
                continue
            # wait in short slices so a closing server or a hung-up phone is noticed soon
            service.wait(game_id, seen, max(0.0, min(SLICE, end - now)))
            now = time.monotonic()
            if now - last_write >= heartbeat:
                last_write = now
                yield b": ping\n\n"
    finally:
        (release or slots.give)()


@bp.get("/games/<game_id>/events")
def events(game_id: str) -> Response:
    viewer = access.viewer(game_id)
    w = web()
    sid = session.get("sid")
    owner = (sid, game_id) if sid else None
    seated = viewer != access.SPECTATOR  # a player's phone or the banker: never refused
    superseded = w.streams.take(owner, request.remote_addr, seated)
    if superseded is None:
        raise ApiError("busy", Msg("Too many live connections; retrying shortly."),
                       headers={"Retry-After": "3"})
    patches = request.args.get("live") == "patch"

    def gone() -> bool:
        return w.closing.is_set() or superseded.is_set()

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    if "companion.front" in request.environ:  # the loop writes the stream: no thread held
        service = w.service

        def frame(seen: int) -> tuple[int, bytes | None]:
            f = frames(service, game_id, viewer)
            return f.version, f.frame(seen, patches)

        request.environ["companion.stream"] = StreamSpec(
            game_id, viewer, last_seen(), w.settings["stream_seconds"],
            w.settings["heartbeat"], gone, lambda: w.streams.give(owner, superseded),
            frame=frame, share=(game_id, service.view_key(game_id, viewer), patches))
        return Response(b"", mimetype="text/event-stream", headers=headers)
    body = stream(w.service, game_id, viewer, last_seen(), w.streams,
                  w.settings["stream_seconds"], w.settings["heartbeat"], gone,
                  release=lambda: w.streams.give(owner, superseded), patches=patches)
    return Response(body, mimetype="text/event-stream", headers=headers)
