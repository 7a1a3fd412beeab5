"""A game's story, its replay and the household's history over HTTP, and the history page
(docs/history.md). Nothing here is on a move's path: every answer is read from the log."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request

from companion.history import (
    FORMAT,
    SummaryTable,
    by_profile,
    chart_svg,
    household,
    matching,
    summary,
)
from companion.i18n import Msg
from companion.replay import Replay
from companion.story import rows_of
from web import access
from web.context import web
from web.errors import ApiError, reader
from web.events import dumps
from web.security import is_banker

bp = Blueprint("history", __name__)

_replays: OrderedDict[tuple[str, int], Replay] = OrderedDict()
_lock = threading.Lock()
KEPT_REPLAYS = 4
"""Replays kept in memory (a few phones stepping through a few games)."""


def _rows(game_id: str) -> list[Any]:
    service = web().service
    return rows_of(service.call(service.store.rows, game_id))


@bp.get("/history")
def page() -> Response:
    resp = Response(render_template("history.html"))
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/api/games/<game_id>/story")
def game_story(game_id: str) -> Response:
    """The story so far (the whole story once the game is over)."""
    _viewer(game_id)
    return Response(dumps(web().service.story(game_id)), mimetype="application/json")


def _viewer(game_id: str) -> str:
    """Who reads: as in the live game (docs/api.md); a finished game is the household's
    history, so a phone that never joined it reads it as a spectator (no hidden hands)."""
    if access.record(game_id).state.finished and not access.joined(game_id):
        return access.SPECTATOR
    return access.viewer(game_id)


def _replay(game_id: str) -> Replay:
    rec = access.record(game_id)
    key = (game_id, rec.version)
    with _lock:
        found = _replays.get(key)
        if found is not None:
            _replays.move_to_end(key)
            return found
    made = Replay.of(game_id, _rows(game_id))
    with _lock:
        _replays[key] = made
        while len(_replays) > KEPT_REPLAYS:
            _replays.popitem(last=False)
    return made


@bp.get("/api/games/<game_id>/replay")
def replay(game_id: str) -> Response:
    """The game after step ``?step=`` (default: the last) as this phone saw it then; a
    running game only for the banker. ``?turns=1`` adds where each turn begins."""
    viewer = _viewer(game_id)
    if not access.record(game_id).state.finished and not is_banker():
        raise ApiError("forbidden", Msg("Only the banker can replay a game still being played."))
    made = _replay(game_id)
    raw = request.args.get("step", "")
    try:
        step = made.last if raw == "" else int(raw)
    except ValueError:
        raise ApiError("bad_request", Msg("'step' must be a step number.")) from None
    if not 0 <= step <= made.last:
        raise ApiError("bad_request", Msg("There is no step {step}: steps go from 0 to {last}.",
                                          step=step, last=made.last))
    out = made.view(step, viewer, access.record(game_id).join_code if is_banker() else "")
    out.pop("actions", None)  # a replay is looked at, not played
    if request.args.get("turns"):
        out["replay"]["turns"] = made.turns()
    return Response(dumps(out), mimetype="application/json")  # messages as data


def _summaries() -> list[dict[str, Any]]:
    """Every finished game's summary, computed from its log the first time it is asked for
    and kept in the database (again if the game changed since, e.g. an undo)."""
    service = web().service
    table: SummaryTable = service.call(lambda: SummaryTable(service.store.conn))
    kept = service.call(table.all)
    versions = dict(service.call(lambda: service.store.conn.execute(
        "SELECT game_id, MAX(seq) FROM events GROUP BY game_id").fetchall()))
    out = []
    profiles: dict[str, str] | None = None
    for g in service.call(service.store.games, "finished"):
        version = int(versions.get(g["id"], 0))
        have = kept.get(g["id"])
        if have is not None and have[0] == version and have[1].get("format") == FORMAT:
            out.append(have[1])
            continue
        if profiles is None:  # the box profile each game was set up from, read once
            profiles = dict(service.call(lambda: service.store.conn.execute(
                "SELECT game_id, json_extract(body, '$.profile') FROM commands WHERE cmd = 0 "
                "AND json_extract(body, '$.profile') IS NOT NULL").fetchall()))
        try:
            made = summary(g, _rows(g["id"]), str(profiles.get(g["id"]) or ""))
        except Exception:  # noqa: BLE001 - a damaged game is left out, never the history
            continue
        service.call(table.save, g["id"], version, made)
        out.append(made)
    return out


def _filter(games: list[dict[str, Any]]) -> list[Any]:
    """The games the query asks for: ``?box=<edition>``, ``?profile=<name>`` (empty: set
    up without one), ``?player=<name>``; each absent: any."""
    asked = {k: request.args.get(k) for k in ("box", "profile", "player")}
    for key, value in asked.items():
        if value is not None and len(value) > 80:
            raise ApiError("bad_request", Msg("'{key}' is at most 80 characters.", key=key))
    return matching(games, **asked)


@bp.get("/api/history")
def history() -> Response:
    """The household's history: games, players (by name across games), boxes, box
    profiles, chart; of the games asked for (``?box=&profile=&player=``), with ``choices``,
    every box profile and player to ask for."""
    games = _summaries()
    everyone = household(games)
    out = household(_filter(games))
    out["choices"] = {"profiles": [{k: p[k] for k in ("edition", "profile", "title", "games")}
                                   for p in by_profile(games)],
                      "players": [p["name"] for p in everyone["players"]]}
    return jsonify(out)


@bp.get("/api/history/chart.svg")
def chart() -> Response:
    resp = Response(chart_svg(household(_filter(_summaries()))["chart"]),
                    mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = "no-store"
    return resp


def openapi_paths() -> dict[str, Any]:
    """This module's routes in the OpenAPI document (web/openapi.py)."""
    gid = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
    err = {"$ref": "#/components/responses/Error"}
    obj = {"content": {"application/json": {"schema": {"type": "object"}}}}

    def op(summary: str, params: list[dict[str, Any]], **ok: Any) -> dict[str, Any]:
        return {"get": {"summary": summary, "parameters": params, "responses": {
            "200": {"description": "ok", **(ok or obj)}, "400": err, "403": err, "404": err}}}

    step = {"name": "step", "in": "query", "required": False, "schema": {"type": "integer"}}
    turns = {"name": "turns", "in": "query", "required": False, "schema": {"type": "string"}}
    svg = {"content": {"image/svg+xml": {"schema": {"type": "string"}}}}
    filters = [{"name": k, "in": "query", "required": False,
                "schema": {"type": "string", "maxLength": 80}}
               for k in ("box", "profile", "player")]
    return {
        "/api/games/{game_id}/story": op(
            "The game's story: winner and why, each player's figures (docs/history.md)",
            [gid]),
        "/api/games/{game_id}/replay": op(
            "The view after a step of the game, as this phone saw it then, with 'replay': "
            "{step, last, cmd, time, said, cites, turns?} (a running game: banker only)",
            [gid, step, turns]),
        "/api/games/{game_id}/rules": op(
            "Rules at hand: the readings in force, a search (?q=) over the rulebook "
            "passages, readings and help of the game's edition by English words or the "
            "reader's (Accept-Language; each result's 'summary' says the passage in them), "
            "and 'prompts': what each question the edition asks means, with its rule "
            "(first-game mode)",
            [gid, {"name": "q", "in": "query", "required": False,
                   "schema": {"type": "string", "maxLength": 200}}]),
        "/api/history": op("The household's history: games, players, boxes, box profiles, "
                           "chart points, of the games asked for; 'choices' to ask for",
                           filters),
        "/api/history/chart.svg": op("Wins over time, one line per player (SVG)", filters,
                                     **svg),
    }


@bp.get("/api/games/<game_id>/rules")
def rules(game_id: str) -> Response:
    """Rules at hand: ``?q=`` searches the rulebook passages, readings and help of this
    game's edition in English and the reader's language (``Accept-Language``); ``readings``
    are the readings in force for this game; ``prompts``, what each question the edition asks
    means, with its rule (first-game mode)."""
    from companion import prompt_help, rules_lookup

    _viewer(game_id)
    state = access.record(game_id).state
    query = request.args.get("q", "")
    if len(query) > 200:
        raise ApiError("bad_request", Msg("A search is at most 200 characters."))
    settings = state.setup.settings
    return jsonify({"edition": state.edition,
                    "readings": rules_lookup.in_force(state.edition, settings),
                    "results": rules_lookup.search(state.edition, settings, query,
                                                   reader()),
                    "prompts": prompt_help.explanations(state.edition)})
