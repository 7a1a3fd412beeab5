"""Back in after a dead phone: take a seat over with its key (shown once) or the banker's yes.

A phone that holds a player asks for the seat's key (``POST /seat/<game>/key``) and sees it
once; the hash is kept in settings ``web.seat_keys``. A new phone that joined with the game's
code takes the seat over with that key (``POST /seat/<game>/reclaim {player, key}``), or,
without a key, asks the banker, whose page shows the request with an Approve button
(``POST /seat/<game>/approve {player}``). Routes live under ``/seat`` (outside ``/api``, whose
routes the OpenAPI document lists); the global Host and CSRF checks guard them as any POST.
``GET /seat/<game>`` also gives the seat order (colours stay with a seat, not turn order).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading

from flask import Blueprint, Response, jsonify, session

from web import access
from web.api import body
from web.context import web
from web.errors import ApiError
from web.security import guard, is_banker, record_failure, require_banker

bp = Blueprint("seat_reclaim", __name__, url_prefix="/seat")
KEY = "web.seat_keys"
_lock = threading.Lock()
_requests: dict[str, dict[str, str]] = {}   # game -> player -> session id asking
_granted: dict[str, dict[str, str]] = {}    # game -> session id -> player approved


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.strip().upper().encode()).hexdigest()


def _keys() -> dict[str, dict[str, str]]:
    svc = web().service
    raw = svc.call(svc.store.setting, KEY)
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        data = {}
    return data if isinstance(data, dict) else {}


def _save(keys: dict[str, dict[str, str]]) -> None:
    svc = web().service
    svc.call(svc.store.set_setting, KEY, json.dumps(keys))


def _seat_order(game_id: str) -> list[str]:
    _, state = web().service.state(game_id)
    return [str(p.id) for p in state.setup.players]


def _player(game_id: str) -> str:
    player = body().get("player")
    if not isinstance(player, str) or player not in _seat_order(game_id):
        raise ApiError("bad_request", "Name a 'player' of this game.")
    return player


def _move_seat(game_id: str, player: str, sid: str) -> None:
    claims = web().claims
    claims.release(game_id, player)
    claims.claim(game_id, player, sid)


@bp.get("/<game_id>")
def status(game_id: str) -> Response:
    """Seat order, which seats have a key, requests (banker), and this phone's approval."""
    access.viewer(game_id)
    sid = session.get("sid", "")
    with _lock:
        granted = _granted.get(game_id, {}).pop(sid, None)
        asks = dict(_requests.get(game_id, {}))
    if granted:
        access.remember(game_id, granted)
    names = {p["id"]: p["name"] for p in web().service.view(game_id, None)["players"]}
    return jsonify({
        "order": _seat_order(game_id), "keyed": sorted(_keys().get(game_id, {})),
        "granted": granted, "asking": [p for p, s in asks.items() if s == sid],
        "requests": [{"player": p, "name": names.get(p, p)} for p in asks]
        if is_banker() else []})


@bp.post("/<game_id>/key")
def new_key(game_id: str) -> Response:
    """A new key for the seat this phone holds; shown once (only its hash is kept)."""
    access.record(game_id)
    mine = access.my_player(game_id)
    if mine is None:
        raise ApiError("forbidden", "Claim a player first; the key is for your own seat.")
    secret = "-".join(secrets.token_hex(2).upper() for _ in range(3))
    with _lock:
        keys = _keys()
        keys.setdefault(game_id, {})[mine] = _digest(secret)
        _save(keys)
    return jsonify({"player": mine, "key": secret})


@bp.post("/<game_id>/reclaim")
def reclaim(game_id: str) -> Response:
    """Take a seat over: with its key at once; without, ask the banker."""
    w = web()
    access.record(game_id)
    if not access.joined(game_id):
        raise ApiError("forbidden", "Join this game with its code first.")
    player = _player(game_id)
    key = body().get("key")
    sid = session["sid"]
    if key is None or key == "":
        with _lock:
            _requests.setdefault(game_id, {})[player] = sid
        return jsonify({"player": player, "pending": True})
    if not isinstance(key, str):
        raise ApiError("bad_request", "'key' must be the seat key shown on the old phone.")
    guard(w.join, w.flood, "join")
    stored = _keys().get(game_id, {}).get(player)
    if not stored or not hmac.compare_digest(stored, _digest(key)):
        record_failure(w.join, w.flood, "join")
        raise ApiError("unauthorized", "That is not this seat's key.")
    _move_seat(game_id, player, sid)
    access.remember(game_id, player)
    with _lock:
        _requests.get(game_id, {}).pop(player, None)
    return jsonify({"player": player, "pending": False})


@bp.post("/<game_id>/approve")
def approve(game_id: str) -> Response:
    """The banker gives a seat to the phone that asked for it."""
    require_banker()
    access.record(game_id)
    player = _player(game_id)
    with _lock:
        sid = _requests.get(game_id, {}).pop(player, None)
        if sid is None:
            raise ApiError("not_found", "No phone is asking for that seat now.")
        _granted.setdefault(game_id, {})[sid] = player
    _move_seat(game_id, player, sid)
    return jsonify({"player": player, "approved": True})


@bp.post("/<game_id>/deny")
def deny(game_id: str) -> Response:
    """The banker turns a request down."""
    require_banker()
    access.record(game_id)
    player = _player(game_id)
    with _lock:
        _requests.get(game_id, {}).pop(player, None)
    return jsonify({"player": player, "approved": False})


def register(app_bp: Blueprint) -> None:
    """Nest these routes in the page's blueprint (no edit to ``create_app`` needed)."""
    app_bp.register_blueprint(bp)

