"""The JSON API the page uses (documented at /api/openapi.json)."""

from __future__ import annotations

import hmac
import io
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, request, session

from companion.engine.i18n import SOURCE, Msg, Msgs, localized, wire
from companion.engine.types import SetupError
from companion.plugins import editions
from companion.service import join_codes
from companion.service.game_record import move_words
from companion.service.past import Past
from web import access
from web.bodies import body
from web.context import web
from web.errors import ApiError, outcome_response
from web.events import dumps
from web.history_api import read_past
from web.openapi import document
from web.seat_reclaim import forget_key
from web.security import PHONE_LOCKED, attempt, guess, is_banker, require_banker

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_SETUP_BODY = 256 * 1024




@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(document())


@bp.get("/session")
def who_am_i() -> Response:
    hw = web().hardware
    return jsonify({
        "csrf": session["csrf"], "banker": is_banker(),
        # the seat this phone still holds (another phone may have taken it over since)
        "games": {g: access.my_player(g) for g in session.get("games", {})},
        "pin_set": bool(web().settings["banker_pin"]), "pin_wait": pin_wait(),
        "hardware": hw is not None, "simulated": hasattr(hw, "virtual_tap"),
        "public_url": web().settings["public_url"]})


def pin_wait() -> int:
    """Seconds a login from this phone waits for the lock a flood of wrong PINs from many
    addresses set (0: none, or this phone has been the banker before)."""
    w = web()
    if w.bankers.known_device(session.get("device")):
        return 0
    left = w.flood.locked_for("pin:*")
    return int(left) + 1 if left else 0


@bp.get("/editions")
def list_editions() -> Response:
    out = []
    for name in editions.available():  # one that does not load is left out, the log says why
        rules = editions.find_edition(name)
        out.append({"name": name, "title": str(getattr(rules, "title", name)),
                    "family": str(getattr(rules, "family", ""))})
    return jsonify(out)


@bp.get("/editions/<name>")
def edition_setup(name: str) -> Response:
    """What the setup form offers for one edition (``Rules.setup_info``)."""
    if name not in editions.known():
        raise ApiError("not_found", Msg("Unknown edition {name}.", name=repr(name)))
    try:
        rules = editions.find_edition(name)
    except Exception as exc:  # not installed in this build
        raise ApiError("not_found", Msg("Edition {name} is not available.",
                                        name=repr(name))) from exc
    return jsonify({"name": name, "title": str(rules.title), "family": str(rules.family),
                    "setup": setup_words(rules.setup_info())})


def setup_words(info: dict[str, Any]) -> dict[str, Any]:
    """The setup form's data with the box's words: the board the banker corrects in the box's
    language (as the profile editor shows it), each token's name as data for the phone to
    read in its language (``token_names``; the token's id stays its English name), the notes on
    its unverified facts as data for the phone to read in its language."""
    language = str(info.get("language") or SOURCE)
    out = {**info, "token_names": {str.__str__(t): wire(t) for t in info.get("tokens", [])},
           "unverified": [wire(n) for n in info.get("unverified", [])]}
    if info.get("board"):
        out["board"] = localized(info["board"], language)
    return out


@bp.get("/games")
def list_games() -> Response:
    banker = is_banker()
    active = web().service.active_game()
    out = []
    for g in web().service.games():
        item = {k: g[k] for k in ("id", "edition", "title", "status", "created")}
        item["active"] = g["id"] == active
        item["joined"] = g["id"] in session.get("games", {})
        if banker:
            item["join_code"] = g["join_code"]
        out.append(item)
    return jsonify(out)


@bp.post("/games")
def create_game() -> Response:
    require_banker()
    setup = body(("edition", "players", "seed", "dice", "settings", "profile"), MAX_SETUP_BODY)
    out = web().service.create_game(physical_decks_by_default(setup))
    answer: Response = outcome_response(out, created=True)
    if out.ok:
        answer.headers["Location"] = f"/api/games/{out.game_id}"
    return answer


def physical_decks_by_default(setup: Any) -> Any:
    """A new game draws from the real deck unless its settings say ``decks = "virtual"``
    (the engine's own default stays virtual, so saved games replay as they were)."""
    if not isinstance(setup, dict) or not isinstance(setup.get("settings", {}), dict):
        return setup
    try:
        info = editions.find_edition(str(setup.get("edition"))).setup_info()
    except SetupError:  # an unknown edition: the service refuses it with its own message
        return setup
    if any(st.get("name") == "decks" for st in info.get("settings", ())):
        return {**setup, "settings": {"decks": "physical", **setup.get("settings", {})}}
    return setup


@bp.get("/games/<game_id>")
def get_view(game_id: str) -> Response:
    view = web().service.view(game_id, access.viewer(game_id))
    return Response(dumps(view), mimetype="application/json")  # messages as data, as streamed


@bp.get("/games/<game_id>/seats")
def seats(game_id: str) -> Response:
    access.viewer(game_id)
    held = web().claims.seats(game_id)
    mine = access.my_player(game_id)
    view = web().service.view(game_id, None)
    return jsonify([{"id": p["id"], "name": p["name"], "token": p.get("token", ""),
                     "claimed": p["id"] in held, "mine": p["id"] == mine}
                    for p in view["players"]])


COMMAND_KEYS = ("actor", "type", "args", "version", "key")


def command_request(game_id: str) -> tuple[dict[str, Any], int | None, str | None]:
    """This request's command, the version its sender saw and its idempotency key, once
    the body is well formed and this phone may act for the actor (else ApiError). The one
    place that decides; the route below calls it."""
    return checked_command(game_id, body(COMMAND_KEYS))


def checked_command(game_id: str, data: dict[str, Any], sess: Mapping[str, Any] | None = None,
                    ) -> tuple[dict[str, Any], int | None, str | None]:
    """:func:`command_request` for a body already read (``sess``: the session, default the
    request's)."""
    access.viewer(game_id, sess)
    access.may_act(game_id, data.get("actor"), sess)
    version, key = data.get("version"), data.get("key")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise ApiError("bad_request", Msg("'version' must be the game version the page shows."))
    if key is not None and not isinstance(key, str):
        raise ApiError("bad_request", Msg("'key' must be a string."))
    cmd = {"actor": data.get("actor"), "type": data.get("type"), "args": data.get("args", {})}
    return cmd, version, key


@bp.post("/games/<game_id>/commands")
def command(game_id: str) -> Response:
    cmd, version, key = command_request(game_id)
    service = web().service
    answer: Response = outcome_response(service.submit(game_id, cmd, version, key))
    return answer


@bp.post("/games/<game_id>/undo")
def undo(game_id: str) -> Response:
    require_banker()
    access.record(game_id)
    cmd = body(("cmd",)).get("cmd")
    if cmd is not None and (not isinstance(cmd, int) or isinstance(cmd, bool)):
        raise ApiError("bad_request", Msg("'cmd' must be a command number from the history."))
    answer: Response = outcome_response(web().service.undo(game_id, cmd))
    return answer


HISTORY_PAGE_MAX = 10_000
"""Lines one answer of ``/history?limit=`` may ask for."""


def _query_number(name: str, top: int) -> int | None:
    """The whole number ``1..top`` in the query's ``name``, None if absent; else a 400."""
    raw = request.args.get(name)
    if raw is None:
        return None
    if not raw.isdecimal() or not 1 <= int(raw) <= top:
        raise ApiError("bad_request", Msg("'{name}' must be a whole number from 1 to {top}.",
                                          name=name, top=top))
    return int(raw)


@bp.get("/games/<game_id>/history")
def history(game_id: str) -> Response:
    """Newest first: every line, or ``?limit=N`` lines, older than event ``?before=SEQ``."""
    access.viewer(game_id)
    limit = _query_number("limit", HISTORY_PAGE_MAX)
    before = _query_number("before", 2**62)
    lines = [line for line in read_past(Past.log_lines, game_id,
                                        access.record(game_id).edition)
             if before is None or line["seq"] < before]  # off the move path: service/past.py
    # each line's English ``say`` with its message beside it (``msg``, ``args``): a phone
    # reads the line in its own language; its rule (``cite``) likewise
    return jsonify([{**row, **(wire(row["say"]) if isinstance(row.get("say"), Msg) else {}),
                     **({"cite": wire(row["cite"])} if isinstance(row.get("cite"), Msg) else {})}
                    for row in reversed(lines[-limit:] if limit else lines)])


@bp.get("/games/<game_id>/commands")
def commands(game_id: str) -> Response:
    require_banker()
    access.record(game_id)
    view = web().service.view(game_id, None)
    names = {p["id"]: p["name"] for p in view["players"]}
    rules = editions.find_edition(str(view["edition"]))
    return jsonify([{"cmd": c["cmd"], "time": c["time"], "actor": c["actor"],
                     "type": c["body"].get("type", ""), "first_seq": c["first_seq"],
                     "last_seq": c["last_seq"],
                     "move": wire(move_words(c["body"], names, rules))}
                    for c in web().service.commands(game_id)])


@bp.get("/games/<game_id>/balances")
def balances(game_id: str) -> Response:
    access.viewer(game_id)
    rec = access.record(game_id)
    view = web().service.view(game_id, None)
    return jsonify({"players": [{"id": p["id"], "name": p["name"]} for p in view["players"]],
                    "points": rec.history.points()})


@bp.get("/games/<game_id>/export")
def export(game_id: str) -> Response:
    require_banker()
    access.record(game_id)
    text = "\n".join(web().service.export(game_id)) + "\n"
    return Response(text, mimetype="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="game-{game_id}.jsonl"'})


@bp.get("/games/<game_id>/qr.svg")
def qr(game_id: str) -> Response:
    require_banker()
    rec = access.record(game_id)
    import segno

    base = web().settings["public_url"] or request.host_url
    buf = io.BytesIO()
    segno.make(f"{base.rstrip('/')}/?code={rec.join_code}").save(buf, kind="svg", scale=5,
                                                                 dark="#000", light="#fff")
    return Response(buf.getvalue(), mimetype="image/svg+xml")


@bp.post("/join")
def join() -> Response:
    """Join the game with its code, as a spectator or (``player``) claiming that player."""
    w = web()
    data = body(("code", "player"))
    code, player = data.get("code"), data.get("player")
    if not isinstance(code, str) or not code.strip():
        raise ApiError("bad_request", Msg("Enter the game's join code."))
    if player is not None and not isinstance(player, str):
        raise ApiError("bad_request", Msg("'player' must be a player id."))
    if len(code) > 16:
        raise ApiError("bad_request", Msg("A join code is 6 digits."))
    tried = guess(w.join, w.flood, "join")
    games = [g for g in w.service.games()
             if hmac.compare_digest(g["join_code"].encode(), code.strip().encode())]
    if not games:
        raise ApiError("not_found", Msg("No game has that code; check the companion's screen."))
    found = games[-1]
    why = join_codes.refusal(found["status"], w.last_moves.idle(found["id"]))
    if why:
        raise ApiError("not_found", why)
    tried.right()
    game_id = found["id"]
    if player:
        ids = [p["id"] for p in w.service.view(game_id, None)["players"]]
        if player not in ids:
            raise ApiError("not_found", Msg("That game has no such player."))
        if not w.claims.claim(game_id, player, session["sid"]):
            raise ApiError("taken", Msg("Another phone already plays for that player; the "
                           "banker can release it."))
    access.remember(game_id, player)
    return jsonify({"game_id": game_id, "player": player or None})


@bp.post("/games/<game_id>/release")
def release(game_id: str) -> Response:
    """Free a player's seat: the banker any, a phone its own."""
    access.record(game_id)
    player = body(("player",)).get("player")
    if not isinstance(player, str):
        raise ApiError("bad_request", Msg("Name the 'player' to release."))
    if not is_banker() and access.my_player(game_id) != player:
        raise ApiError("forbidden", Msg("Only the banker can release another phone's player."))
    released = web().claims.release(game_id, player)
    if released:
        forget_key(game_id, player)
    if not is_banker():
        access.remember(game_id, None)
    return jsonify({"released": released})


def PIN_FLOOD(seconds: int) -> Msg:  # noqa: N802 - a message
    return Msgs("Someone is trying many PINs from many phones, so logins from a new phone wait "
                "{n} second. A phone that has been the banker here before can log in now.",
                "Someone is trying many PINs from many phones, so logins from a new phone wait "
                "{n} seconds. A phone that has been the banker here before can log in now.",
                seconds)


@bp.post("/banker/login")
def banker_login() -> Response:
    """The banker's PIN (spaces ignored). A phone that has been the banker here before (its
    session carries the mark :meth:`BankerSessions.device` gives) counts its wrong tries
    apart, so a flood of guesses from other addresses never locks the real banker out."""
    w = web()
    pin = body(("pin",)).get("pin")
    expected = w.settings["banker_pin"]
    if not expected:
        raise ApiError("forbidden", Msg("No banker PIN is set on this companion."))
    if w.bankers.known_device(session.get("device")):
        tried = attempt("pin", (w.pin, f"device:{session['sid']}", PHONE_LOCKED))
    else:
        tried = attempt("pin", (w.pin, request.remote_addr or "?", PHONE_LOCKED),
                        (w.flood, "*", PIN_FLOOD))
    if not isinstance(pin, str) or not hmac.compare_digest(
            "".join(pin.split()).encode(), expected.encode()):
        raise ApiError("unauthorized", Msg("Wrong PIN."))
    tried.right(forget=True)
    w.bankers.end(session.get("banker"))
    session["banker"] = w.bankers.start()
    session["device"] = w.bankers.device
    return jsonify({"banker": True})


@bp.post("/banker/logout")
def banker_logout() -> Response:
    body(())
    web().bankers.end(session.pop("banker", None))
    return jsonify({"banker": False})
