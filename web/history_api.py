"""A game's story, its replay and the household's history over HTTP, and the history page
(docs/history.md). Nothing here is on a move's path: every answer is read from the log."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request, session

from companion.engine.i18n import Msg
from companion.service.history import by_profile, chart_svg, household, matching
from companion.service.past import Past, PastBusy
from web import access
from web.context import web
from web.errors import ApiError, reader
from web.events import dumps
from web.pages import reader_lang
from web.security import is_banker

bp = Blueprint("history", __name__)


@bp.record_once
def _start(state: Any) -> None:
    """One reader of the past per app (service/past.py): its worker starts when first asked."""
    state.app.extensions["past"] = Past(state.app.extensions["companion"].service)


def past() -> Past:
    from flask import current_app

    return current_app.extensions["past"]  # type: ignore[no-any-return]


def read_past(fn: Any, *args: Any) -> Any:
    """``fn(worker, *args)`` on the reader of the past (no request there: everything it
    needs is in its arguments); 503 busy when too many wait already."""
    worker = past()
    try:
        return worker.run(fn, worker, *args)
    except PastBusy:
        raise ApiError("busy", Msg("The companion is busy reading other past games; try again "
                                   "in a moment.")) from None


def household_member() -> None:
    """Who may read the household's past (its players' names, wins and time, every finished
    game's story and replay): the banker, or a phone that joined a game here with its join
    code (docs/history.md)."""
    if not (is_banker() or session.get("games")):
        raise ApiError("forbidden", Msg("Join a game on this companion with its code to read "
                                        "its past games."))


@bp.get("/history")
def page() -> Response:
    resp = Response(render_template("history.html"))
    resp.headers["Cache-Control"] = "no-cache"
    return resp


def _finished(game_id: str) -> bool:
    """Whether the game is over, without loading a finished game into the service's memory
    (404 for no such game)."""
    service = web().service
    if isinstance(game_id, str) and game_id.isalnum() and len(game_id) <= 32 and (
            not service.loaded(game_id)):
        row = next((g for g in service.games() if g["id"] == game_id), None)
        if row is not None and row["status"] == "finished":
            return True
    return bool(access.record(game_id).state.finished)


def _viewer(game_id: str) -> tuple[str, bool]:
    """Who reads, and whether the game is over. A game being played: as in the live game
    (docs/api.md); a finished game is the household's past: any of its members, a phone
    that never joined this game as a spectator (no hidden hands)."""
    if not _finished(game_id):
        return access.viewer(game_id), False
    household_member()
    if is_banker():
        return "banker", True
    mine = session.get("games", {}).get(game_id)
    held = mine and web().claims.holder(game_id, mine) == session.get("sid")
    return (str(mine) if held else access.SPECTATOR), True


@bp.get("/api/games/<game_id>/story")
def game_story(game_id: str) -> Response:
    """The story so far (the whole story once the game is over)."""
    _viewer(game_id)
    service = web().service
    if service.loaded(game_id):
        rec = service.record(game_id)
        told = rec.told
        if told is not None and told[0] == rec.version:  # the OLED's, told at the end
            return Response(dumps(told[1]), mimetype="application/json")
    return Response(dumps(read_past(Past.story, game_id)), mimetype="application/json")


@bp.get("/api/games/<game_id>/replay")
def replay(game_id: str) -> Response:
    """The game after step ``?step=`` (default: the last) as this phone saw it then; a
    running game only for the banker. ``?turns=1`` adds where each turn begins."""
    viewer, finished = _viewer(game_id)
    if not finished and not is_banker():
        raise ApiError("forbidden", Msg("Only the banker can replay a game still being played."))
    raw = request.args.get("step", "")
    try:
        step = None if raw == "" else int(raw)
    except ValueError:
        raise ApiError("bad_request", Msg("'step' must be a step number.")) from None
    code = _join_code(game_id) if is_banker() else ""
    out = read_past(_replay_view, game_id, step, viewer, code, bool(request.args.get("turns")))
    return Response(dumps(out), mimetype="application/json")  # messages as data


def _join_code(game_id: str) -> str:
    return next((str(g["join_code"]) for g in web().service.games() if g["id"] == game_id), "")


def _replay_view(worker: Past, game_id: str, step: int | None, viewer: str, code: str,
                 turns: bool) -> dict[str, Any]:
    """On the reader of the past: the replay's view after ``step`` (None: the last)."""
    made = worker.replay(game_id)
    step = made.last if step is None else step
    if not 0 <= step <= made.last:
        raise ApiError("bad_request", Msg("There is no step {step}: steps go from 0 to {last}.",
                                          step=step, last=made.last))
    out = made.view(step, viewer, code)
    out.pop("actions", None)  # a replay is looked at, not played
    if turns:
        out["replay"]["turns"] = made.turns()
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
    household_member()
    games = read_past(Past.summaries)
    everyone = household(games)
    out = household(_filter(games))
    out["choices"] = {"profiles": [{k: p[k] for k in ("edition", "profile", "title", "games")}
                                   for p in by_profile(games)],
                      "players": [p["name"] for p in everyone["players"]]}
    return jsonify(out)


@bp.get("/api/history/chart.svg")
def chart() -> Response:
    household_member()
    resp = Response(chart_svg(household(_filter(read_past(Past.summaries)))["chart"],
                              lang=reader_lang()),
                    mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = "no-store"
    resp.vary.add("Accept-Language")
    resp.vary.add("Cookie")
    return resp


def openapi_paths() -> dict[str, Any]:
    """This module's routes in the OpenAPI document (web/openapi.py)."""
    gid = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
    err = {"$ref": "#/components/responses/Error"}
    obj = {"content": {"application/json": {"schema": {"type": "object"}}}}

    def op(summary: str, params: list[dict[str, Any]], **ok: Any) -> dict[str, Any]:
        return {"get": {"summary": summary, "parameters": params, "responses": {
            "200": {"description": "ok", **(ok or obj)}, "400": err, "403": err, "404": err,
            "503": err}}}

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
            "'prompts': what each question the edition asks means, with its rule "
            "(first-game mode), and 'example': words to search for, in the edition's "
            "(a message id; \"\" when it names none)",
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
    means, with its rule (first-game mode); ``example``, what the edition suggests
    searching for (its message id)."""
    from companion.service import prompt_help, rules_lookup

    _viewer(game_id)
    query = request.args.get("q", "")
    if len(query) > 200:
        raise ApiError("bad_request", Msg("A search is at most 200 characters."))
    service = web().service
    state = (service.record(game_id).state if service.loaded(game_id) else
             read_past(lambda worker, gid: worker.replay(gid).state(0), game_id))
    settings = state.setup.settings
    return jsonify({"edition": state.edition,
                    "readings": rules_lookup.in_force(state.edition, settings),
                    "results": rules_lookup.search(state.edition, settings, query,
                                                   reader()),
                    "prompts": prompt_help.explanations(state.edition),
                    "example": rules_lookup.search_example(state.edition)})
