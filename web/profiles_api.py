"""Box profiles over HTTP (banker only) and the profile editor page (docs/profiles.md)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request

from companion.boxes.profiles import (
    ProfileError,
    ProfileNotFound,
    box_of,
    check,
    export_text,
)
from companion.boxes.profiles import unverified as unverified_facts
from companion.engine import i18n, json_text
from companion.engine.i18n import Msg, said
from companion.engine.types import SetupError
from companion.plugins.editions import find_edition
from web.bodies import body
from web.context import web
from web.errors import ApiError
from web.security import require_banker

bp = Blueprint("profiles", __name__)
PROFILE_KEYS = ("format", "edition", "name", "settings", "tags", "note")
"""The fields of a profile (a draft to check, a profile to save)."""


@contextmanager
def _refusals() -> Iterator[None]:
    """A profile refused (not found, not valid) becomes the API's 404 or 400."""
    try:
        yield
    except ProfileError as exc:
        code = "not_found" if isinstance(exc, ProfileNotFound) else "bad_request"
        raise ApiError(code, said(exc)) from None
    except SetupError as exc:
        raise ApiError("bad_request", said(exc)) from None


def editor_data(profile: dict[str, Any]) -> dict[str, Any]:
    """The profile with what the editor shows: every space and card with its facts and
    still-unverified marks, the kinds, colours and decks to choose from (what the edition's
    box declares: companion/engine/box.py)."""
    facts = unverified_facts(profile)
    rules = find_edition(profile["edition"])
    return {"profile": profile, "unverified": facts, "board": None,
            **box_of(rules).editor(rules, profile, facts)}


@bp.get("/api/profiles/defaults/<edition>")
def defaults(edition: str) -> Response:
    """The edition's shipped board and cards, the editor's starting point (not checked
    against the rulebook's totals: a default board may not meet them)."""
    require_banker()
    from companion.plugins.editions import available

    if edition not in available():
        raise ApiError("not_found", Msg("edition: {name} is not an edition.",
                                        name=repr(edition)))
    language = request.args.get("language")  # the box's words in that language (else its own)
    settings = {"board": {"language": language}} if language in i18n.LANGUAGES else {}
    profile = {"format": 1, "edition": edition, "name": "", "note": "", "settings": settings,
               "tags": {}}

    with _refusals():
        return jsonify(editor_data(profile))


@bp.get("/profile")
def page() -> Response:
    """The profile editor (a page of its own, linked from the banker's tab)."""
    resp = Response(render_template("profile.html"))
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/api/profiles")
def list_profiles() -> Response:
    require_banker()
    edition = request.args.get("edition") or None
    return jsonify({"profiles": web().service.profiles(edition)})


@bp.post("/api/profiles/check")
def check_profile() -> Response:
    """Check a draft without saving it: the editor's inline validation."""
    require_banker()
    data = body(PROFILE_KEYS)
    with _refusals():
        return jsonify(editor_data(check(data)))


@bp.get("/api/profiles/<edition>/<name>")
def get_profile(edition: str, name: str) -> Response:
    require_banker()
    with _refusals():
        return jsonify(editor_data(web().service.profile(name, edition)))


@bp.put("/api/profiles/<edition>/<name>")
def save_profile(edition: str, name: str) -> Response:
    """Save (create or replace) a profile: ``{settings, tags?, note?}``; all or nothing."""
    require_banker()
    data = body(PROFILE_KEYS) | {"edition": edition, "name": name}
    with _refusals():
        return jsonify(editor_data(web().service.save_profile(data)))


@bp.delete("/api/profiles/<edition>/<name>")
def delete_profile(edition: str, name: str) -> Response:
    require_banker()
    with _refusals():
        gone = web().service.delete_profile(name, edition)
    return jsonify({"deleted": {"edition": gone["edition"], "name": gone["name"]}})


@bp.post("/api/profiles/<edition>/<name>/confirm")
def confirm_fact(edition: str, name: str) -> Response:
    """Confirm one unverified fact (``{"fact": "spaces.<id>.price"}``): the mark clears."""
    require_banker()
    fact = body(("fact",)).get("fact")
    if not isinstance(fact, str):
        raise ApiError("bad_request", Msg("fact: name the fact, e.g. 'spaces.<id>.price'."))
    with _refusals():
        return jsonify(editor_data(web().service.confirm_profile_fact(name, edition, fact)))


@bp.get("/api/profiles/<edition>/<name>/export")
def export_profile(edition: str, name: str) -> Response:
    require_banker()
    with _refusals():
        text = export_text(web().service.profile(name, edition))
    resp = Response(text, mimetype="application/json")
    resp.headers["Content-Disposition"] = f'attachment; filename="{edition}-{name}.json"'
    return resp


@bp.post("/api/profiles/import")
def import_profile() -> Response:
    """Save an exported profile file (the body); ``?replace=1`` replaces one of that name."""
    require_banker()
    try:
        raw = json_text.loads(request.get_data())
    except json_text.JsonTextError as exc:
        raise ApiError("bad_request", Msg("That is not a JSON profile file: {why}.",
                                          why=str(exc))) from None
    replace = request.args.get("replace") in ("1", "true")
    with _refusals():
        return jsonify(editor_data(web().service.save_profile(check(raw), replace=replace)))
