"""Who this session is in a game: the banker, a seated player or a spectator."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import session

from companion.engine.i18n import Msg, said
from companion.service.game_service import GameDamaged, GameNotFound
from web.context import web
from web.errors import ApiError
from web.security import is_banker

SPECTATOR = ""


def record(game_id: str) -> Any:
    """The service's record of the game, or 404."""
    if not isinstance(game_id, str) or not game_id.isalnum() or len(game_id) > 32:
        raise ApiError("not_found", Msg("There is no such game."))
    try:
        return web().service.record(game_id)
    except GameDamaged as exc:
        raise ApiError("not_found", said(exc)) from None
    except GameNotFound:
        raise ApiError("not_found", Msg("There is no such game.")) from None


def my_player(game_id: str, sess: Mapping[str, Any] | None = None) -> str | None:
    """The player this phone holds in the game (and still holds on the server), or None.
    ``sess``: the session to read (default: the request's)."""
    sess = session if sess is None else sess
    games, sid = sess.get("games", {}), sess.get("sid")
    player = games.get(game_id)
    claims = web().claims
    if player and claims.holder(game_id, player) == sid:
        return str(player)
    if game_id in games and sid:  # given by the banker while the phone was away (or the
        return claims.seat_of(game_id, sid)  # power cut before it heard): the seats decide
    return None


def joined(game_id: str, sess: Mapping[str, Any] | None = None) -> bool:
    return is_banker(sess) or game_id in (session if sess is None else sess).get("games", {})


def viewer(game_id: str, sess: Mapping[str, Any] | None = None) -> str:
    """The viewer to render for: ``"banker"``, a player id, or ``SPECTATOR`` (a phone that
    holds no player: it sees no hidden cards; None is the whole table, for the console and
    logs). Refuses a phone that has not joined with the game's code, before the game is
    looked up: a stranger never makes the companion load a finished game (issue 38)."""
    if not joined(game_id, sess):
        service = web().service
        if not (service.loaded(game_id) or any(g["id"] == game_id for g in service.games())):
            raise ApiError("not_found", Msg("There is no such game."))
        raise ApiError("forbidden", Msg("Join this game with its code first."))
    record(game_id)
    if is_banker(sess):
        return "banker"
    return my_player(game_id, sess) or SPECTATOR


def may_act(game_id: str, actor: Any, sess: Mapping[str, Any] | None = None) -> None:
    """A player's phone acts only for its player; the banker for anyone; spectators never."""
    if not isinstance(actor, str) or not actor:
        raise ApiError("bad_request", Msg("A command needs an 'actor'."))
    if is_banker(sess):
        return
    mine = my_player(game_id, sess)
    if mine is None:
        raise ApiError("forbidden", Msg("Spectators cannot act; claim a player first."))
    if actor != mine:
        raise ApiError("forbidden", Msg("This phone plays for another player."))


def remember(game_id: str, player: str | None) -> None:
    games = dict(session.get("games", {}))
    games[game_id] = player or SPECTATOR
    session["games"] = games
