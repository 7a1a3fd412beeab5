"""The one page (HTML shell; everything else comes from the JSON API)."""

from __future__ import annotations

from flask import Blueprint, Response, render_template

from web import seat_reclaim

bp = Blueprint("pages", __name__)
seat_reclaim.register(bp)


@bp.get("/")
def index() -> Response:
    resp = Response(render_template("index.html"))
    resp.headers["Cache-Control"] = "no-cache"
    return resp
