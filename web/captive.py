"""The captive portal of the Pi's own Wi-Fi (companion.platform.hotspot), and its join QR codes.

While the Pi is its own access point, every name a phone looks up leads to the Pi and port 80
to the page's port, so the operating system's connectivity check (Android's
``connectivitycheck.gstatic.com/generate_204``, Apple's ``captive.apple.com``, Windows'
``www.msftconnecttest.com/connecttest.txt``, Firefox's ``detectportal.firefox.com``...) reaches
this app under a name it does not serve. Instead of the expected answer it gets a redirect to
the page, so the phone opens the page by itself ("Sign in to network"). On a network of the
owner's the host check (web/security.py) refuses such names as before.

``/wifi`` shows the Wi-Fi's join QR code (a phone's camera offers to join) and then the
page's, so one player can bring the next in.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, render_template

from companion.platform.hotspot import Hotspot
from web.security import host_name

bp = Blueprint("captive", __name__)

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def install(app: Flask, hotspot: Hotspot | None) -> None:
    """Register the QR pages; while ``hotspot`` is up, also answer its address and lead
    every other name to the page."""
    app.extensions["hotspot"] = hotspot
    app.register_blueprint(bp)
    if hotspot is None:
        return
    allowed: set[str] = app.config["ALLOWED_HOSTS"]
    allowed.add(hotspot.address)
    app.wsgi_app = Portal(app.wsgi_app, hotspot.page_url, allowed)  # type: ignore[method-assign]


class Portal:
    """WSGI: a request for a name this app does not serve is sent to the page (before the
    app's own host check refuses it)."""

    def __init__(self, app: WsgiApp, page_url: str, allowed: set[str]) -> None:
        self.app, self.page_url, self.allowed = app, page_url, allowed

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]
                 ) -> Iterable[bytes]:
        host = host_name(environ.get("HTTP_HOST", ""))
        if not host or host in self.allowed:
            return self.app(environ, start_response)
        body = (f'<!doctype html><title>Board Companion</title><a href="{self.page_url}">'
                "Open the game</a>\n").encode()
        start_response("302 Found", [
            ("Location", self.page_url), ("Cache-Control", "no-store"),
            ("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body)))])
        return [body]


def _hotspot() -> Hotspot:
    hotspot: Hotspot | None = current_app.extensions.get("hotspot")
    if hotspot is None:
        abort(404, "The companion is on a Wi-Fi network of yours: join that one.")
    return hotspot


def _svg(text: str) -> Response:
    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=6, border=2, xmldecl=False)
    resp = Response(out.getvalue(), mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.app_context_processor
def _context() -> dict[str, Any]:
    return {"hotspot": current_app.extensions.get("hotspot")}


@bp.get("/wifi")
def wifi() -> Response:
    resp = Response(render_template("wifi.html", hotspot=_hotspot()))
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/wifi/join.svg")
def join_qr() -> Response:
    """The Wi-Fi's join QR code (``WIFI:S:...;T:WPA;P:...;;``)."""
    return _svg(_hotspot().qr_text)


@bp.get("/wifi/page.svg")
def page_qr() -> Response:
    """The page's QR code on the Pi's own Wi-Fi."""
    return _svg(_hotspot().page_url)
