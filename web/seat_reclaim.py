"""Back in after a dead phone: take a seat over with its key, or with the banker's yes.

A phone that holds a player asks for the seat's key (``POST /seat/<game>/key``) and sees it
once; only its hash is kept (settings ``web.seat_keys``). A key is spent when used: a new
phone that joined with the game's code takes the seat over with it
(``POST /seat/<game>/reclaim {player, key}``), and the seat gets a new key at once, shown
only in that answer, on the phone that now holds the seat. So a key seen over a shoulder
works once, and the owner throwing a thief out gets a key the thief never saw.

Without a key, the new phone asks the banker. Every asking phone is its own request, with a
short code shown on that phone and on the banker's page (and the kind of phone, and how long
it has waited), so two phones asking for "Misty" are two requests the banker tells apart;
approving one (``POST /seat/<game>/approve {request}``) gives the seat to that phone only,
with a new key it alone sees. Routes live under ``/seat`` (outside ``/api``, whose routes
the OpenAPI document lists); the global Host and CSRF checks guard them as any POST.
``GET /seat/<game>`` also gives the seat order (colours stay with a seat, not turn order).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
from dataclasses import dataclass

from flask import Blueprint, Response, jsonify, request, session

from companion.engine.i18n import Msg, Msgs, wire
from web import access
from web.bodies import body
from web.context import LOOPBACK, web
from web.errors import ApiError
from web.security import PHONE_LOCKED, attempt, is_banker, require_banker

bp = Blueprint("seat_reclaim", __name__, url_prefix="/seat")
KEY = "web.seat_keys"
MAX_ASKING = 12
"""Requests one game may have waiting; past that a phone is told to wait for the banker."""
PER_ADDRESS = 2
"""Requests one machine (address) may have waiting in a game, whatever its sessions (the
Pi's own loopback is not limited)."""
EXPIRES = 600.0
"""Seconds a request waits for the banker; then it is dropped (the phone may ask again)."""
REFUSED_WAIT = 300.0
"""Seconds a phone and its machine wait before asking again after the banker said no."""
CODE_LETTERS = "ACDEFHJKMNPRTUVWXY34679"
"""A request's code: letters and digits no one misreads (no O/0, I/1, B/8, S/5)."""


@dataclass
class Ask:
    """One phone asking the banker for a seat."""

    player: str
    sid: str
    code: str
    device: str
    since: float
    """When it asked (on :data:`clock`)."""
    address: str


clock = time.monotonic
"""When requests were made and how old they are (tests move it)."""
_lock = threading.Lock()
_requests: dict[str, dict[str, Ask]] = {}        # game -> request id -> the phone asking
_granted: dict[str, dict[str, tuple[str, str]]] = {}  # game -> session id -> (player, key)
_held_back: dict[str, dict[str, float]] = {}  # game -> "sid:…"/"addr:…" -> until (inf: blocked)


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.strip().upper().encode()).hexdigest()


def _keys() -> dict[str, dict[str, str]]:
    svc = web().service
    raw = svc.setting(KEY)
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        data = {}
    return data if isinstance(data, dict) else {}


def _save(keys: dict[str, dict[str, str]]) -> None:
    svc = web().service
    svc.set_setting(KEY, json.dumps(keys))


def _new_key(game_id: str, player: str) -> str:
    """A fresh key for the seat (the old one stops working); call with ``_lock`` held."""
    secret = "-".join(secrets.token_hex(2).upper() for _ in range(3))
    keys = _keys()
    keys.setdefault(game_id, {})[player] = _digest(secret)
    _save(keys)
    return secret


def forget_key(game_id: str, player: str) -> None:
    """The seat was freed: its key no longer takes it over."""
    with _lock:
        keys = _keys()
        if keys.get(game_id, {}).pop(player, None) is not None:
            _save(keys)


def _seat_order(game_id: str) -> list[str]:
    _, state = web().service.state(game_id)
    return [str(p.id) for p in state.setup.players]


def _player(game_id: str, player: object) -> str:
    if not isinstance(player, str) or player not in _seat_order(game_id):
        raise ApiError("bad_request", Msg("Name a 'player' of this game."))
    return player


def _move_seat(game_id: str, player: str, sid: str) -> None:
    claims = web().claims
    claims.release(game_id, player)
    claims.claim(game_id, player, sid)


def device(agent: str) -> str:
    """What kind of phone a User-Agent names, in a few words (to tell two requests apart)."""
    kind = next((name for token, name in (
        ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("CrOS", "Chromebook"),
        ("Windows", "Windows"), ("Macintosh", "Mac"), ("Linux", "Linux")) if token in agent),
        "")
    browser = next((name for token, name in (
        ("Firefox/", "Firefox"), ("FxiOS", "Firefox"), ("Edg", "Edge"), ("SamsungBrowser",
        "Samsung Internet"), ("CriOS", "Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari"))
        if token in agent), "")
    return " ".join(w for w in (kind, browser) if w) or Msg("unknown browser")


def _code(taken: set[str]) -> str:
    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(4))
        if code not in taken:
            return code


@bp.get("/<game_id>")
def status(game_id: str) -> Response:
    """Seat order, which seats have a key, this phone's requests and (once) the seat it was
    given with its new key, and for the banker every request."""
    access.viewer(game_id)
    sid = session.get("sid", "")
    now = clock()
    with _lock:
        _expire(game_id, now)
        granted: tuple[str, str | None] | None = _granted.get(game_id, {}).pop(sid, None)
        asks = dict(_requests.get(game_id, {}))
    if granted is None and session.get("games", {}).get(game_id) == access.SPECTATOR:
        given = web().claims.seat_of(game_id, sid)  # approved, then a restart lost the news
        granted = (given, None) if given else None
    if granted:
        access.remember(game_id, granted[0])
    names = {p["id"]: p["name"] for p in web().service.view(game_id, None)["players"]}
    return jsonify({
        "order": _seat_order(game_id), "keyed": sorted(_keys().get(game_id, {})),
        "granted": granted[0] if granted else None, "key": granted[1] if granted else None,
        "asking": [{"player": a.player, "code": a.code} for a in asks.values() if a.sid == sid],
        "requests": [{"id": rid, "player": a.player, "name": names.get(a.player, a.player),
                      "code": a.code, "device": wire(a.device), "waited": int(now - a.since)}
                     for rid, a in sorted(asks.items(), key=lambda kv: kv[1].since)]
        if is_banker() else []})


@bp.post("/<game_id>/key")
def new_key(game_id: str) -> Response:
    """A new key for the seat this phone holds; shown once (only its hash is kept)."""
    body(())
    access.record(game_id)
    mine = access.my_player(game_id)
    if mine is None:
        raise ApiError("forbidden", Msg("Claim a player first; the key is for your own seat."))
    with _lock:
        secret = _new_key(game_id, mine)
    return jsonify({"player": mine, "key": secret})


@bp.post("/<game_id>/reclaim")
def reclaim(game_id: str) -> Response:
    """Take a seat over: with its key at once (the key is spent, this phone gets the seat's
    new one); without, ask the banker (this phone's own request, with a code to show)."""
    w = web()
    access.record(game_id)
    if not access.joined(game_id):
        raise ApiError("forbidden", Msg("Join this game with its code first."))
    data = body(("player", "key"))
    player, key = _player(game_id, data.get("player")), data.get("key")
    sid = session["sid"]
    if key is None or key == "":
        return jsonify(_ask(game_id, player, sid))
    if not isinstance(key, str) or len(key) > 64:
        raise ApiError("bad_request", Msg("'key' must be the seat key shown on the old phone."))
    # a seat key (48 random bits) is limited per address only: guesses from everywhere
    # together could not find one in years, and a flood of wrong join codes never keeps
    # the seat's owner out
    tried = attempt("key", (w.join, request.remote_addr or "?", PHONE_LOCKED))
    with _lock:  # checking and spending the key is one step: it works once
        stored = _keys().get(game_id, {}).get(player)
        if not stored or not hmac.compare_digest(stored, _digest(key)):
            raise ApiError("unauthorized", Msg("That is not this seat's key (a key works once: "
                           "a used one is spent)."))
        tried.right()
        secret = _new_key(game_id, player)
        for rid in [r for r, a in _requests.get(game_id, {}).items() if a.sid == sid]:
            del _requests[game_id][rid]
    _move_seat(game_id, player, sid)
    access.remember(game_id, player)
    return jsonify({"player": player, "pending": False, "key": secret})


def _expire(game_id: str, now: float) -> None:
    """Drop the game's requests older than :data:`EXPIRES` and holds that are over (call
    with ``_lock`` held)."""
    asks = _requests.get(game_id, {})
    for rid in [r for r, a in asks.items() if now - a.since >= EXPIRES]:
        del asks[rid]
    held = _held_back.get(game_id, {})
    for who in [w for w, until in held.items() if until <= now]:
        del held[who]


def _hold_back(game_id: str, ask: Ask, seconds: float) -> None:
    """The phone and its machine may not ask again for ``seconds`` (inf: in this game)."""
    held = _held_back.setdefault(game_id, {})
    until = clock() + seconds
    for who in (f"sid:{ask.sid}", *([f"addr:{ask.address}"] if ask.address not in LOOPBACK
                                    else [])):
        held[who] = max(until, held.get(who, 0.0))


def _ask(game_id: str, player: str, sid: str) -> dict[str, object]:
    """This phone's request for ``player`` (one per phone: asking again replaces it; at most
    :data:`PER_ADDRESS` per machine; none for a while after a refusal, none once blocked)."""
    addr, now = request.remote_addr or "?", clock()
    with _lock:
        _expire(game_id, now)
        asks = _requests.setdefault(game_id, {})
        held = _held_back.get(game_id, {})
        until = max(held.get(f"sid:{sid}", 0.0), held.get(f"addr:{addr}", 0.0))
        if until == float("inf"):
            raise ApiError("forbidden", Msg("The banker has blocked this phone from asking for "
                           "seats in this game."))
        if until > now:
            wait = int(until - now) + 1
            raise ApiError("locked", Msgs(
                "The banker refused this phone's request; ask again in {n} second.",
                "The banker refused this phone's request; ask again in {n} seconds.", wait),
                headers={"Retry-After": str(wait)})
        mine = next((rid for rid, a in asks.items() if a.sid == sid), None)
        if mine is not None and asks[mine].player == player:
            return {"player": player, "pending": True, "code": asks[mine].code}
        if mine is not None:
            del asks[mine]
        if addr not in LOOPBACK and sum(a.address == addr for a in asks.values()) >= PER_ADDRESS:
            raise ApiError("locked", Msg("Phones on this machine are already asking for seats; "
                           "wait until the banker has answered them."),
                           headers={"Retry-After": "30"})
        if len(asks) >= MAX_ASKING:
            raise ApiError("busy", Msg("Many phones are asking for seats; wait until the banker "
                           "has answered them."), headers={"Retry-After": "30"})
        code = _code({a.code for a in asks.values()})
        asks[secrets.token_urlsafe(9)] = Ask(player, sid, code,
                                             device(request.headers.get("User-Agent", "")),
                                             now, addr)
    return {"player": player, "pending": True, "code": code}


def _request_id() -> str:
    rid = body(("request",)).get("request")
    if not isinstance(rid, str) or not rid:
        raise ApiError("bad_request", Msg("Name the 'request' to answer (its id)."))
    return rid


@bp.post("/<game_id>/approve")
def approve(game_id: str) -> Response:
    """The banker gives a seat to the one phone whose request this is; it gets a new key
    (the old one is spent), and other requests for that seat are dropped."""
    require_banker()
    access.record(game_id)
    rid = _request_id()
    with _lock:
        ask = _requests.get(game_id, {}).pop(rid, None)
        if ask is None:
            raise ApiError("not_found", Msg("That phone is not asking any more (it was answered "
                           "or asked for another seat)."))
        for other in [r for r, a in _requests[game_id].items() if a.player == ask.player]:
            del _requests[game_id][other]
        secret = _new_key(game_id, ask.player)
        _granted.setdefault(game_id, {})[ask.sid] = (ask.player, secret)
    _move_seat(game_id, ask.player, ask.sid)
    return jsonify({"player": ask.player, "code": ask.code, "approved": True})


@bp.post("/<game_id>/deny")
def deny(game_id: str) -> Response:
    """The banker turns one request down: that phone and its machine wait
    :data:`REFUSED_WAIT` seconds before asking again."""
    ask = _answer(game_id, REFUSED_WAIT)
    return jsonify({"player": ask.player, "code": ask.code, "approved": False})


@bp.post("/<game_id>/block")
def block(game_id: str) -> Response:
    """The banker turns one request down and blocks that phone and its machine from asking
    for seats again in this game (until the companion restarts)."""
    ask = _answer(game_id, float("inf"))
    return jsonify({"player": ask.player, "code": ask.code, "approved": False,
                    "blocked": True})


def _answer(game_id: str, hold: float) -> Ask:
    """The banker's no to the request the body names; its phone is held back ``hold`` s."""
    require_banker()
    access.record(game_id)
    rid = _request_id()
    with _lock:
        ask = _requests.get(game_id, {}).pop(rid, None)
        if ask is not None:
            _hold_back(game_id, ask, hold)
    if ask is None:
        raise ApiError("not_found", Msg("That phone is not asking any more."))
    return ask


def register(app_bp: Blueprint) -> None:
    """Nest these routes in the page's blueprint (no edit to ``create_app`` needed)."""
    app_bp.register_blueprint(bp)
