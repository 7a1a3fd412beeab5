"""The one page (HTML shell; everything else comes from the JSON API), and what a phone needs
to keep it on its home screen like an app: a web app manifest and its icons."""

from __future__ import annotations

import functools
import io
from typing import Any

from babel.messages.pofile import read_po
from flask import Blueprint, Response, abort, jsonify, render_template, request

from companion.engine import i18n
from web import errors, seat_reclaim

bp = Blueprint("pages", __name__)
seat_reclaim.register(bp)
NAME = "Board Companion"
ICON_SIZES = (180, 192, 512)  # iPhone's home screen; Android's two
THEME = "#0b5cb5"  # the page's accent


PSEUDO = i18n.PSEUDO
"""The pseudo-language (docs/translating.md): every message decorated ⟦…⟧, built from the
same catalogue source; never offered to players (not in the page's choice of languages), only
a phone that asks for it gets it (tests/web/test_page_pseudo.py)."""
COOKIE = "companion.lang"
"""The language a phone chose on the page (web/static/i18n.js), for the pages drawn here."""


def reader_lang() -> str:
    """The language of this request's reader: the phone's own choice (its cookie), else its
    browser's Accept-Language, else English."""
    chosen = request.cookies.get(COOKIE, "")
    if chosen in i18n.LANGUAGES or chosen == PSEUDO:
        return chosen
    return errors.reader()


def page_words(msgid: str, lang: str, **args: Any) -> str:
    """A template's own words in ``lang`` (``{{ tr("Loading…") }}``), from the catalogue."""
    return i18n.render(i18n.Msg(msgid, **args), lang)


@bp.app_context_processor
def template_words() -> dict[str, Any]:
    """Every template gets ``lang`` (its ``<html lang>``) and ``tr`` in the reader's language."""
    lang = reader_lang()
    return {"lang": lang, "tr": lambda msgid, **args: page_words(msgid, lang, **args)}


@bp.after_app_request
def vary_by_language(resp: Response) -> Response:
    if resp.mimetype == "text/html":
        resp.vary.add("Accept-Language")
        resp.vary.add("Cookie")
    return resp


@functools.cache
def pseudo_catalogue() -> dict[str, Any]:
    """The page's catalogue in the pseudo-language: every msgid of every template (companion's
    and each edition's), decorated."""
    messages: dict[str, Any] = {}
    for path in i18n.templates():
        with path.open("rb") as f:
            template = read_po(f)
        for entry in template:
            if isinstance(entry.id, tuple | list) and entry.id:
                messages.setdefault(str(entry.id[0]), [f"⟦{form}⟧" for form in entry.id])
            elif entry.id:
                messages.setdefault(str(entry.id), f"⟦{entry.id}⟧")
    cat = i18n.page_catalogue(i18n.SOURCE)
    return {**cat, "lang": PSEUDO, "intl": i18n.SOURCE, "name": "Pseudo", "messages": messages}


@bp.get("/")
def index() -> Response:
    resp = Response(render_template("index.html"))
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
    if lang == PSEUDO:
        resp = jsonify(pseudo_catalogue())
    elif lang not in i18n.LANGUAGES:
        abort(404)
    else:
        resp = jsonify(i18n.page_catalogue(lang))
    resp.headers["Cache-Control"] = "no-cache"
    return resp
