"""The venue screen: one page for a big screen showing every table of a venue, live.

``create_venue_app(board)`` builds the Flask app over a :class:`companion.venue.board.Board`
(fed by :class:`companion.venue.subscriber.ScreenSubscriber`); ``web.venue.live.VenueFront``
serves it with the live stream, by the page's server (``web.server.make_venue_server``). It
only reads: there is no
route that changes anything, and nothing here talks to a table. Everything the page needs is
served from here (no CDN), so it works on a venue network without internet. The screen speaks
the venue's language (``language``, ``companion venue --language``): its own words and the
tables' messages from the same catalogue as the phones' (web/static/i18n.js).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, jsonify, render_template, send_file

from companion.engine import i18n

bp = Blueprint("venue", __name__, template_folder="templates", static_folder="static",
               static_url_path="/venue-static")

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
