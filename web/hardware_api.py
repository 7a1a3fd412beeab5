"""Banker-only hardware endpoints: the OLED mirror, virtual taps, tag enrollment, and the
table: which game it serves and how each device is doing."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.boxes.tags import TagError, normalise_uid
from companion.engine.i18n import Msg, said, wire
from companion.engine.types import RuleError
from companion.service.game_service import GameNotFound
from web.bodies import body
from web.context import web
from web.errors import ApiError
from web.security import require_banker

bp = Blueprint("hardware", __name__, url_prefix="/api")

ROLES = ("bank", "player", "object", "banker")


@bp.get("/oled.png")
def oled() -> Response:
    require_banker()
    hw = web().hardware
    if hw is None or not hasattr(hw, "frame_png"):
        raise ApiError("no_hardware", Msg("No table hardware is attached."))
    return Response(hw.frame_png(), mimetype="image/png")


@bp.post("/tap")
def tap() -> Response:
    require_banker()
    hw = web().hardware
    if hw is None or not hasattr(hw, "virtual_tap"):
        raise ApiError("no_hardware", Msg("Virtual taps need simulated hardware."))
    data = body(("role", "uid", "game_id"))
    role, uid = data.get("role"), data.get("uid")
    if not isinstance(role, str) or not role or len(role) > 32:
        raise ApiError("bad_request", Msg("'role' names the reader (for example 'bank')."))
    try:
        uid = normalise_uid(uid) if isinstance(uid, str) else normalise_uid("")
    except TagError as exc:
        raise ApiError("bad_request", said(exc)) from None
    game_id = data.get("game_id")
    if game_id is not None:
        if not isinstance(game_id, str) or len(game_id) > 64:
            raise ApiError("bad_request", Msg("'game_id' is the game the tap is meant for."))
        _check_served(game_id)
    try:
        hw.virtual_tap(role, uid)
    except (KeyError, TypeError) as exc:
        raise ApiError("bad_request", str(exc).strip("'\"")) from None
    return jsonify({"tapped": uid, "role": role})


def _served_game() -> str | None:
    table = web().settings.get("table")
    if table is not None:
        return str(table.served_game() or "") or None
    served: str | None = web().service.active_game()
    return served


def _check_served(game_id: str) -> None:
    """A virtual tap is like a tag on the table's reader: it reaches the game the table
    serves. Sent from another game's page it is refused (409), naming the served game."""
    served = _served_game()
    if served == game_id:
        return
    if served is None:
        raise ApiError("not_served", Msg("No game is served at the table: start one, or choose "
                       "one under Table."), 409)
    try:
        title = web().service.record(served).title
    except GameNotFound:
        title = Msg("a game no longer here")
    raise ApiError("not_served", Msg(
        "The table serves another game ({title}, {game}), so a tap would not reach this one. "
        "Choose \"Serve this game at the table\" first.", title=title, game=served), 409)


@bp.get("/table")
def table_status() -> Response:
    """The game the table serves and every device's state (a missing screen, reader,
    buttons or lights are shown here while the companion retries them)."""
    require_banker()
    table = web().settings.get("table")
    hw = web().hardware
    served = table.served() if table is not None else None
    devices = hw.status() if hw is not None and hasattr(hw, "status") else {}
    return jsonify({"served": served, "can_serve": table is not None, "devices": [
        {"name": name, **state, "label": wire(DEVICES.get(name) or _reader(name)),
         "message": wire(state.get("message", ""))} for name, state in devices.items()]})


DEVICES = {"screen": Msg("screen"), "buttons": Msg("buttons"),
           "lights and buzzer": Msg("lights and buzzer"), "power supply": Msg("power supply")}
"""The table's devices by their name in hardware.table's status, as the banker reads them."""


def _reader(name: str) -> str:
    """``"reader table"``: the reader of that role (its role is the owner's own name for it)."""
    role = name.removeprefix("reader ")
    return Msg("reader {role}", role=role) if role != name else name


@bp.post("/table")
def serve_game() -> Response:
    """The banker chooses which open game the table (readers, buttons, OLED) serves."""
    require_banker()
    table = web().settings.get("table")
    if table is None:
        raise ApiError("no_hardware", Msg("No table hardware is attached."))
    game_id = body(("game_id",)).get("game_id")
    if not isinstance(game_id, str) or not game_id or len(game_id) > 64:
        raise ApiError("bad_request", Msg("'game_id' names the game the table should serve."))
    try:
        return jsonify({"served": table.serve(game_id)})
    except GameNotFound as exc:
        raise ApiError("not_found", said(exc)) from None
    except RuleError as exc:
        raise ApiError("illegal", said(exc)) from None


@bp.get("/tags")
def tags() -> Response:
    """Enrollment so far. Hook: a service with ``enrollment(edition) -> dict`` (done, total,
    next label) is asked for the given edition; otherwise the tag table is counted."""
    require_banker()
    service = web().service
    edition = request.args.get("edition", "")
    table = web().settings.get("table")
    hook = getattr(table, "progress_for", None)
    progress: Any = None
    if callable(hook) and edition:
        try:
            progress = hook(edition)
        except RuleError as exc:
            raise ApiError("bad_request", said(exc)) from None

    if isinstance(progress, dict):  # its words as messages: each phone reads its language
        progress = {k: wire(v) for k, v in progress.items()}
    return jsonify({"enrolled": service.tag_counts(), "progress": progress,
                    "enroll_hook": callable(hook)})


@bp.post("/enrollment")
def enrollment() -> Response:
    """Start enrolling tags for ``edition`` (taps then name objects in order; ``move``: a tag
    enrolled as something else is moved instead of refused), or stop with ``{"edition": null}``.
    Progress: GET /api/tags?edition=..."""
    require_banker()
    table = web().settings.get("table")
    if table is None:
        raise ApiError("no_hardware", Msg("No table hardware is attached."))
    data = body(("edition", "move"))
    edition, move = data.get("edition"), data.get("move", False)
    if not isinstance(move, bool):
        raise ApiError("bad_request", Msg("'move' is true or false."))
    if edition is None:
        table.stop_enrollment()
        return jsonify({"enrolling": None})
    if not isinstance(edition, str):
        raise ApiError("bad_request", Msg("'edition' is an edition name or null."))
    try:
        started = table.start_enrollment(edition, move=move)
        return jsonify({k: wire(v) for k, v in started.items()})
    except RuleError as exc:
        raise ApiError("bad_request", said(exc)) from None


@bp.get("/tags/last")
def last_tap() -> Response:
    """The latest tag tapped during play (``{n, uid, edition, object}``, or null): the setup
    form gives each player the token tapped on the reader."""
    require_banker()
    table = web().settings.get("table")
    return jsonify({"tap": None if table is None else table.last_tap})
