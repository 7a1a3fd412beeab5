"""The one page (HTML shell; everything else comes from the JSON API), and what a phone needs
to keep it on its home screen like an app: a web app manifest and its icons."""

from __future__ import annotations

import functools
import io

from flask import Blueprint, Response, abort, jsonify, render_template, request

from companion import i18n
from web import seat_reclaim

bp = Blueprint("pages", __name__)
seat_reclaim.register(bp)
NAME = "Board Companion"
ICON_SIZES = (180, 192, 512)  # iPhone's home screen; Android's two
THEME = "#0b5cb5"  # the page's accent


@bp.get("/")
def index() -> Response:
    lang = i18n.choose(request.headers.get("Accept-Language"))
    resp = Response(render_template("index.html", lang=lang))
    resp.vary.add("Accept-Language")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """Add to home screen: the table opens full screen, like an app, at the join page."""
    resp = jsonify({
        "name": NAME, "short_name": "Companion", "id": "/", "start_url": "/", "scope": "/",
        "display": "standalone", "orientation": "portrait", "background_color": "#f6f5f2",
        "theme_color": THEME, "description": "The bank, dice and referee of your board game.",
        "icons": [{"src": f"/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png",
                   "purpose": "any"} for n in ICON_SIZES[1:]]
        + [{"src": "/icon-512.png", "sizes": "512x512", "type": "image/png",
            "purpose": "maskable"}]})
    resp.mimetype = "application/manifest+json"
    resp.headers["Cache-Control"] = "max-age=86400"
    return resp


@functools.cache
def icon_png(size: int) -> bytes:
    """A die showing five on the accent colour, drawn once per size (no file to ship)."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (size, size), THEME)
    draw = ImageDraw.Draw(img)
    pad, r = size * 0.22, size * 0.1
    draw.rounded_rectangle((pad, pad, size - pad, size - pad), radius=size * 0.09, fill="white")
    step = (size - 2 * pad) / 4
    for cx, cy in ((1, 1), (3, 1), (2, 2), (1, 3), (3, 3)):
        x, y = pad + cx * step, pad + cy * step
        draw.ellipse((x - r / 1.6, y - r / 1.6, x + r / 1.6, y + r / 1.6), fill=THEME)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


@bp.get("/icon-<int:size>.png")
def icon(size: int) -> Response:
    if size not in ICON_SIZES:
        abort(404)
    resp = Response(icon_png(size), mimetype="image/png")
    resp.headers["Cache-Control"] = "max-age=86400"
    return resp


@bp.get("/api/i18n/<lang>.json")
def catalogue(lang: str) -> Response:
    """The page's catalogue for ``lang``, built from the same ``.po`` (docs/translating.md)."""
    if lang not in i18n.LANGUAGES:
        abort(404)
    resp = jsonify(i18n.page_catalogue(lang))
    resp.headers["Cache-Control"] = "no-cache"
    return resp
