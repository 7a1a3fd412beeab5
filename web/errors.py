"""JSON errors (a small page for a wrong address outside ``/api``): every refusal is
``{"error": words, "code": machine name}`` with a 4xx status.

The words are in the asking phone's language: the page sends its language as
``Accept-Language`` with every call (a browser sends its own anyway), and a refusal that is a
message (:class:`companion.engine.i18n.Msg`) is rendered in it, with the message as data beside it
(``"message"``) for a reader that renders it itself (docs/translating.md)."""

from __future__ import annotations

import html
import logging
import sqlite3
from typing import Any

from flask import Flask, Response, has_request_context, jsonify, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from companion.engine import i18n
from companion.engine.i18n import Msg

log = logging.getLogger("web")

STATUS = {"ok": 200, "bad_request": 400, "bad_host": 400, "unauthorized": 401,
          "forbidden": 403, "csrf": 403, "not_found": 404, "method": 405, "illegal": 409,
          "stale": 409, "taken": 409, "too_large": 413, "locked": 429, "busy": 503,
          "storage": 503,
          "no_hardware": 404, "server_error": 500}


class ApiError(Exception):
    """A refusal with words for the page and a stable code."""

    def __init__(self, code: str, error: str, status: int | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(error)
        self.code, self.error = code, error
        self.status = status or STATUS.get(code, 400)
        self.headers = headers or {}


def reader() -> str:
    """The asking phone's language: the one of ours its ``Accept-Language`` prefers most (its
    quality values: ``en;q=0, it`` is Italian), else English (outside a request, English)."""
    if not has_request_context():
        return i18n.SOURCE
    return request.accept_languages.best_match(i18n.LANGUAGES, default=i18n.SOURCE)


def refusal(error: str) -> dict[str, Any]:
    """``{"error": words in the reader's language, "message"?: the message as data}``."""
    if not isinstance(error, Msg):
        return {"error": error}
    return {"error": i18n.render(error, reader()), "message": error.to_json()}


def error_response(code: str, error: str, status: int | None = None,
                   headers: dict[str, str] | None = None) -> Response:
    resp = jsonify({**refusal(error), "code": code})
    resp.status_code = status or STATUS.get(code, 400)
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def outcome_response(out: Any, created: bool = False) -> Response:
    """An Outcome (service.game_record) as JSON: 200/201 when accepted, 4xx when not."""
    body = out.to_json()
    if not out.ok:
        body.update(refusal(out.error))
    resp = jsonify(body)
    resp.status_code = (201 if created else 200) if out.ok else STATUS.get(out.code, 400)
    return resp


def not_found_page() -> Response:
    """A wrong address typed on a phone: a small page in its language, linking to the
    table's page."""
    lang = reader()

    def say(msg: Msg) -> str:
        return html.escape(i18n.render(msg, lang))

    title = say(Msg("Page not found"))
    nothing = say(Msg("There is nothing at this address."))
    link = say(Msg("Open the table's page"))
    body = (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{title}</title></head>"
            '<body style="font-family:sans-serif;margin:2em;line-height:1.5">'
            f"<h1>{title}</h1><p>{nothing}</p>"
            f'<p><a href="/">{link}</a></p></body></html>')
    resp = Response(body, 404, mimetype="text/html")
    resp.headers["Content-Language"] = lang
    return resp


def install(app: Flask) -> None:
    """Turn every exception into JSON (HTML error pages only outside /api)."""

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError) -> Response:
        return error_response(exc.code, exc.error, exc.status, exc.headers)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException) -> Response:
        if exc.code == 404 and not request.path.startswith("/api/"):
            return not_found_page()
        code = {404: "not_found", 405: "method", 413: "too_large"}.get(exc.code or 400,
                                                                        "bad_request")
        headers = {}
        if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
            headers["Allow"] = ", ".join(sorted(exc.valid_methods))
        return error_response(code, exc.description or exc.name, exc.code or 400, headers)

    @app.errorhandler(sqlite3.Error)
    def _storage(exc: sqlite3.Error) -> Response:
        """A write the database refused (a full disk, an I/O error): nothing changed; 503
        ``storage`` as a refused move, so the page knows to try again."""
        log.error("could not save: %s", exc)
        return error_response("storage", Msg(
            "The companion could not save ({problem}); nothing changed. Free some disk space "
            "or check the SD card, then try again.", problem=str(exc)))

    @app.errorhandler(Exception)
    def _crash(exc: Exception) -> Response:
        log.exception("unexpected error")
        return error_response("server_error", Msg(
            "Something went wrong on the companion; the game is unchanged. Try again."), 500)
