"""A request's JSON body, read once for every route: size, JSON text and the fields the route
takes (any other field is refused with its name)."""

from __future__ import annotations

from typing import Any

from flask import request

from companion.engine import json_text
from companion.engine.i18n import Msg
from web.errors import ApiError

SMALL_BODY = 16 * 1024
"""Every body but a new game's setup (which may carry board and card corrections)."""


def body(keys: tuple[str, ...], limit: int = SMALL_BODY) -> dict[str, Any]:
    """The request's JSON object (empty body: ``{}``), or a 4xx: see :func:`parse_body`.
    ``keys``: the fields the route takes (every route names them; any other is refused)."""
    return parse_body(request.get_data(), request.is_json, limit, keys)


def parse_body(raw: bytes, is_json: bool, limit: int = SMALL_BODY,
               keys: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The JSON object in ``raw`` (empty: ``{}``), or a 4xx saying what is wrong: larger than
    ``limit`` bytes, not sent as JSON (``is_json``), not acceptable JSON
    (:func:`companion.engine.json_text.loads`: too deep, a lone surrogate, a huge number...), or
    with a field outside ``keys``."""
    if not raw:
        return {}
    if len(raw) > limit:
        raise ApiError("too_large", Msg("That request is too large (at most {n} KB).",
                                         n=limit // 1024))
    if not is_json:
        raise ApiError("bad_request", Msg("The request body must be JSON (application/json)."))
    try:
        data = json_text.loads(raw)
    except json_text.JsonTextError as exc:
        raise ApiError("bad_request", Msg("The request body is refused: {why}.",
                                          why=str(exc))) from None
    if not isinstance(data, dict):
        raise ApiError("bad_request", Msg("The request body must be a JSON object."))
    if keys is not None and set(data) - set(keys):
        extra = ", ".join(sorted(set(data) - set(keys)))
        if not keys:
            raise ApiError("bad_request", Msg("Unknown field(s) {extra}; expected no fields.",
                                              extra=extra))
        raise ApiError("bad_request", Msg("Unknown field(s) {extra}; expected {keys}.",
                                          extra=extra, keys=", ".join(keys)))
    return data
