"""The venue screen: one page for a big screen showing every table of a venue, live.

``create_venue_app(board)`` builds the Flask app over a :class:`companion.venue.board.Board`
(fed by :class:`companion.venue.subscriber.ScreenSubscriber`). It only reads: there is no
route that changes anything, and nothing here talks to a table. Everything the page needs is
served from here (no CDN), so it works on a venue network without internet. The screen speaks
the venue's language (``language``, ``companion venue --language``): its own words and the
tables' messages from the same catalogue as the phones' (web/static/i18n.js).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, jsonify, render_template, request, send_file

from companion.engine import i18n

bp = Blueprint("venue", __name__, template_folder="templates", static_folder="static",
               static_url_path="/venue-static")

SLICE = 1.0
SHARED_JS = Path(__file__).resolve().parents[1] / "static" / "i18n.js"
"""The phones' message renderer, served to the screen as it is."""


def _board() -> Any:
    from flask import current_app

    return current_app.extensions["venue"]["board"]


@bp.get("/")
def index() -> Response:
    cfg = _settings()
    lang = cfg["language"]
    resp = Response(render_template(
        "venue.html", title=cfg["title"], lang=lang,
        tr=lambda msgid, **args: i18n.render(i18n.Msg(msgid, **args), lang)))
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/venue-i18n.js")
def i18n_js() -> Response:
    resp = send_file(SHARED_JS, mimetype="text/javascript", max_age=0)
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/api/i18n/<lang>.json")
def catalogue(lang: str) -> Response:
    """The screen's catalogue (any language the companion has; English otherwise)."""
    resp = jsonify(i18n.page_catalogue(lang if lang in i18n.LANGUAGES else i18n.SOURCE))
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/api/venue")
def state() -> Response:
    return jsonify(_board().snapshot())


def frame(kind: str, revision: int, data: Any) -> bytes:
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"id: {revision}\nevent: {kind}\ndata: {body}\n\n".encode()


def stream(board: Any, after: int, seconds: float, heartbeat: float,
           closing: threading.Event) -> Iterator[bytes]:
    """A full ``state`` first (unless resuming), then ``changes`` batches as they happen."""
    yield b"retry: 1500\n\n"
    seen = after
    if seen < 0 or seen > board.revision:
        snap = board.snapshot()
        seen = snap["revision"]
        yield frame("state", seen, snap)
    end = time.monotonic() + seconds
    last = time.monotonic()
    while time.monotonic() < end and not closing.is_set():
        revision, changes = board.changes_since(seen, SLICE)
        if changes is None:
            snap = board.snapshot()
            seen = snap["revision"]
            yield frame("state", seen, snap)
            last = time.monotonic()
        elif changes:
            seen = revision
            yield frame("changes", seen, changes)
            last = time.monotonic()
        elif time.monotonic() - last >= heartbeat:
            last = time.monotonic()
            yield b": ping\n\n"


@bp.get("/api/venue/events")
def events() -> Response:
    raw = request.headers.get("Last-Event-ID") or request.args.get("after") or ""
    try:
        after = int(raw)
    except ValueError:
        after = -1
    cfg = _settings()
    body = stream(_board(), after, cfg["stream_seconds"], cfg["heartbeat"], cfg["closing"])
    return Response(body, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _settings() -> dict[str, Any]:
    from flask import current_app

    return dict(current_app.extensions["venue"])


def create_venue_app(board: Any, *, title: str = "Venue", stream_seconds: float = 600,
                     heartbeat: float = 15, language: str = i18n.SOURCE) -> Flask:
    if language not in i18n.LANGUAGES:
        raise ValueError(f"language {language!r}: one of {', '.join(i18n.LANGUAGES)}")
    app = Flask(__name__, static_folder=None)
    app.extensions["venue"] = {"board": board, "title": title, "closing": threading.Event(),
                               "language": language,
                               "stream_seconds": stream_seconds, "heartbeat": heartbeat}
    app.register_blueprint(bp)

    @app.after_request
    def headers(resp: Response) -> Response:
        resp.headers.setdefault("Content-Security-Policy", "default-src 'self'; "
                                "img-src 'self' data:; frame-ancestors 'none'")
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        return resp

    return app
