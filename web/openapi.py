"""The OpenAPI 3 document of the JSON API (served at /api/openapi.json)."""

from __future__ import annotations

import json
from typing import Any

from web import history_api

ERR = {"$ref": "#/components/responses/Error"}
GID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
OBJ: dict[str, Any] = {"type": "object"}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _ok(desc: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"description": desc, **_json(schema or OBJ)}


def _op(summary: str, ok: dict[str, Any], *, body: dict[str, Any] | None = None,
        game: bool = False, errors: tuple[int, ...] = (400, 403, 404)) -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary, "responses": {"200": ok}}
    for code in errors:
        op["responses"][str(code)] = ERR
    if game:
        op["parameters"] = [GID]
    if body is not None:
        op["requestBody"] = {"required": True, **_json(body)}
        op["parameters"] = op.get("parameters", []) + [
            {"name": "X-CSRF-Token", "in": "header", "required": True,
             "schema": {"type": "string"}, "description": "The token from GET /api/session."}]
    return op


OUTCOME = {"$ref": "#/components/schemas/Outcome"}
SAID: dict[str, Any] = {"anyOf": [{"type": "string"}, {
    "type": "object", "required": ["say", "msg", "args"], "description": "a message: its "
    "English text, msgid, plural and arguments (docs/translating.md)", "properties": {
        "say": {"type": "string"}, "msg": {"type": "string"}, "plural": {"type": "string"},
        "args": {"type": "object"}}}]}
ENVELOPE: dict[str, Any] = {
    "actor": {"type": "string", "maxLength": 40, "description": "a player id or 'banker'"},
    "version": {"type": "integer", "description": "the view version the phone acted on"},
    "key": {"type": "string", "maxLength": 80, "description": "idempotency key (retries)"}}


def command_schema() -> dict[str, Any]:
    """A command body: one variant per shape of arguments, each naming the command types
    that take it. Derived from the handlers' ``@takes`` declarations of every edition
    (companion/engine/commands.py), the same declarations the engine checks commands by."""
    from companion.engine.commands import args_schema
    from companion.plugins.editions import available, find_edition

    shapes: dict[str, tuple[dict[str, Any], set[str]]] = {}
    for edition in available():
        for name, args in find_edition(edition).command_args().items():
            schema = args_schema(args)
            key = json.dumps(schema, sort_keys=True)
            shapes.setdefault(key, (schema, set()))[1].add(name)
    variants = [{"type": "object", "required": ["actor", "type"], "properties": {
        **ENVELOPE, "type": {"type": "string", "enum": sorted(names),
                             "description": "the action's type from view.actions"},
        "args": schema}} for schema, names in sorted(shapes.values(),
                                                     key=lambda v: sorted(v[1]))]
    return {"anyOf": variants, "description": "an action from view.actions: its type, its "
            "args plus its input's values (each command's args as its handler declares them)"}


SETUP = {"type": "object", "required": ["edition", "players"], "properties": {
    "edition": {"type": "string"},
    "players": {"type": "array", "items": {"oneOf": [
        {"type": "string"},
        {"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string"}, "id": {"type": "string"}, "token": {"type": "string"}}}]}},
    "seed": {"type": "integer"}, "dice": {"enum": ["digital", "physical"]},
    "settings": {"type": "object", "description": "edition settings; 'board': {'spaces': "
                 "{id: {kind, name, color, price, rent, amount, deck}}, 'add', 'remove', "
                 "'order', 'cards': {id: {text}}, 'confirmed'} corrects board data"},
    "profile": {"type": "string", "description": "a saved box profile whose settings are "
                "merged under these (docs/profiles.md)"}}}

PROFILE = {"type": "object", "properties": {
    "format": {"type": "integer", "enum": [1]}, "edition": {"type": "string"},
    "name": {"type": "string"}, "note": {"type": "string"},
    "settings": {"type": "object", "description": "as the setup form sends them; 'board' = "
                 "board corrections (docs/profiles.md)"},
    "tags": {"type": "object", "description": "tag UID -> object ('card:<id>')"}}}
PROFILE_DATA = _ok("the profile with its board, cards and unverified facts", {
    "type": "object", "properties": {"profile": PROFILE,
                                     "unverified": {"type": "array", "items": {"type": "string"}},
                                     "board": {"type": "object", "nullable": True}}})


def profile_paths() -> dict[str, Any]:
    """Box profiles (web/profiles_api.py, banker only)."""
    names = [{"name": n, "in": "path", "required": True, "schema": {"type": "string"}}
             for n in ("edition", "name")]
    csrf = {"name": "X-CSRF-Token", "in": "header", "required": True,
            "schema": {"type": "string"}}

    def named(op: dict[str, Any]) -> dict[str, Any]:
        op["parameters"] = names + op.get("parameters", [])
        return op

    delete = _op("Delete a profile (banker)", _ok("deleted"))
    delete["parameters"] = [csrf]
    return {
        "/api/profiles": {"get": _op("Saved box profiles (banker)", _ok("profiles"),
                                     errors=(400, 403)) | {"parameters": [{
                                         "name": "edition", "in": "query", "required": False,
                                         "schema": {"type": "string"}}]}},
        "/api/profiles/check": {"post": _op("Check a draft profile without saving (banker)",
                                            PROFILE_DATA, body=PROFILE)},
        "/api/profiles/import": {"post": _op("Save an exported profile file (banker; "
                                             "?replace=1 replaces)", PROFILE_DATA, body=PROFILE)},
        "/api/profiles/defaults/{edition}": {"get": _op(
            "The edition's shipped board and cards (banker)", PROFILE_DATA) | {
                "parameters": names[:1]}},
        "/api/profiles/{edition}/{name}": {
            "get": named(_op("A profile with its board and unverified facts (banker)",
                             PROFILE_DATA)),
            "put": named(_op("Save a profile, all or nothing (banker)", PROFILE_DATA,
                             body=PROFILE)),
            "delete": named(delete)},
        "/api/profiles/{edition}/{name}/confirm": {"post": named(_op(
            "Confirm an unverified fact as printed on the box (banker)", PROFILE_DATA,
            body={"type": "object", "required": ["fact"], "properties": {
                "fact": {"type": "string"}}}))},
        "/api/profiles/{edition}/{name}/export": {"get": named(_op(
            "The profile as a file to share (banker)", PROFILE_DATA))},
    }


EDITION = {"type": "object", "properties": {
    "name": {"type": "string"}, "title": {"type": "string"}, "family": {"type": "string"},
    "setup": {"type": "object", "properties": {
        "settings": {"type": "array", "items": OBJ},
        "tokens": {"type": "array", "items": {"type": "string"}},
        "board": {"type": "object", "nullable": True},
        "unverified": {"type": "array", "items": OBJ,  # the box's words or messages
                       "description": "notes on the facts not printed in the rulebook, each "
                                      "read in the phone's language"}}}}}


def document() -> dict[str, Any]:
    paths: dict[str, Any] = {
        "/api/session": {"get": _op("This phone's session: CSRF token, banker flag, games "
                                    "joined", _ok("the session"), errors=(400,))},
        "/api/editions": {"get": _op("Editions installed", _ok("editions", {
            "type": "array", "items": {"type": "object", "properties": {
                "name": {"type": "string"}, "title": {"type": "string"}}}}), errors=(400,))},
        "/api/editions/{name}": {"get": _op(
            "One edition's setup form: settings, tokens, correctable board data, unverified "
            "facts", _ok("the edition", EDITION), errors=(400, 404)) | {"parameters": [
                {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}]}},
        "/api/games": {
            "get": _op("Games (join codes for the banker only)",
                       _ok("games", {"type": "array", "items": OBJ}), errors=(400,)),
            "post": _op("Start a game (banker)", _ok("refused", OUTCOME), body=SETUP,
                        errors=(400, 403, 409)) | {"responses": {
                            "201": _ok("started", OUTCOME), "400": ERR, "403": ERR, "409": ERR}}},
        "/api/games/{game_id}": {"get": _op("The game's view for this phone (docs/contracts.md)",
                                            _ok("the view", {"$ref": "#/components/schemas/View"}),
                                            game=True)},
        "/api/games/{game_id}/events": {"get": _op(
            "Live views as Server-Sent Events; id = version. Resume with Last-Event-ID.",
            {"description": "event stream", "content": {"text/event-stream": {
                "schema": {"type": "string"}}}}, game=True, errors=(400, 403, 404, 503))
            | {"parameters": [GID, {"name": "after", "in": "query", "required": False,
                                    "schema": {"type": "integer"}}]}},
        "/api/games/{game_id}/seats": {"get": _op("Players and whether a phone holds each",
                                                  _ok("seats", {"type": "array", "items": OBJ}),
                                                  game=True)},
        "/api/games/{game_id}/commands": {
            "post": _op("Send a command for an actor this phone may act as",
                        _ok("accepted", OUTCOME), body=command_schema(), game=True,
                        errors=(400, 403, 404, 409)),
            "get": _op("Every command (banker; for undo)",
                       _ok("commands", {"type": "array", "items": OBJ}), game=True)},
        "/api/games/{game_id}/undo": {"post": _op(
            "Undo command cmd and everything after it (banker; no cmd: the last)",
            _ok("undone", OUTCOME), body={"type": "object", "properties": {
                "cmd": {"type": "integer"}}}, game=True, errors=(400, 403, 404, 409))},
        "/api/games/{game_id}/history": {"get": _op(
            "Every event in words, newest first", _ok("history", {"type": "array", "items": {
                "type": "object", "properties": {
                    "seq": {"type": "integer"}, "cmd": {"type": "integer"},
                    "time": {"type": "number"}, "say": {"type": "string"},
                    "undone": {"type": "boolean"}, "cite": {"type": "string"},
                    "citation": {"type": "object", "properties": {
                        k: {"type": "string"} for k in ("id", "edition", "section", "quote",
                                                        "reading", "house", "text")}}}}}),
                game=True)},
        "/api/games/{game_id}/balances": {"get": _op(
            "Every player's money after each command (for the chart)", _ok("balances", {
                "type": "object", "properties": {
                    "players": {"type": "array", "items": OBJ},
                    "points": {"type": "array", "items": {"type": "object", "properties": {
                        "version": {"type": "integer"}, "money": OBJ}}}}}), game=True)},
        "/api/games/{game_id}/export": {"get": _op(
            "The game's log as JSON lines (banker)", {"description": "JSON lines", "content": {
                "application/x-ndjson": {"schema": {"type": "string"}}}}, game=True)},
        "/api/games/{game_id}/qr.svg": {"get": _op(
            "The join QR code (banker)", {"description": "SVG", "content": {
                "image/svg+xml": {"schema": {"type": "string"}}}}, game=True)},
        "/api/games/{game_id}/release": {"post": _op(
            "Free a player's phone seat (banker, or the phone itself)",
            _ok("released"), body={"type": "object", "required": ["player"], "properties": {
                "player": {"type": "string"}}}, game=True)},
        "/api/join": {"post": _op(
            "Join with the game's code; with 'player', claim that player",
            _ok("joined", {"type": "object", "properties": {
                "game_id": {"type": "string"}, "player": {"type": ["string", "null"]}}}),
            body={"type": "object", "required": ["code"], "properties": {
                "code": {"type": "string"}, "player": {"type": "string"}}},
            errors=(400, 403, 404, 409, 429))},
        "/api/banker/login": {"post": _op(
            "Become the banker with the PIN (5 wrong tries lock it for a while)",
            _ok("logged in"), body={"type": "object", "required": ["pin"], "properties": {
                "pin": {"type": "string"}}}, errors=(400, 401, 403, 429))},
        "/api/banker/logout": {"post": _op("Stop being the banker", _ok("logged out"),
                                           body=OBJ, errors=(400, 403))},
        "/api/oled.png": {"get": _op("The OLED screen mirror (banker)", {
            "description": "PNG", "content": {"image/png": {"schema": {
                "type": "string", "format": "binary"}}}})},
        "/api/tap": {"post": _op("Simulate a tag tap (banker, simulated hardware only)",
                                 _ok("tapped"), body={"type": "object", "required": ["role", "uid"],
                                                      "properties": {
                                                          "role": {"type": "string"},
                                                          "uid": {"type": "string"},
                                                          "game_id": {"type": "string"}}},
                                 errors=(400, 403, 404, 409))},
        "/api/table": {
            "get": _op("The game the table serves and each device's state (banker)",
                       _ok("table"), errors=(400, 403)),
            "post": _op("Choose the game the table serves (banker)", _ok("served"),
                        body={"type": "object", "required": ["game_id"], "properties": {
                            "game_id": {"type": "string"}}}, errors=(400, 403, 404, 409))},
        "/api/tags": {"get": _op("Tag enrollment so far (banker)", _ok("tags"), errors=(400, 403))
                      | {"parameters": [{"name": "edition", "in": "query", "required": False,
                                         "schema": {"type": "string"}}]}},
        "/api/tags/last": {"get": _op("The latest tag tapped (banker): tokens at setup",
                                      _ok("tap"), errors=(400, 403))},
        "/api/enrollment": {"post": _op(
            "Start enrolling tags for an edition, or stop with null (banker)", _ok("enrolling"),
            body={"type": "object", "required": ["edition"], "properties": {
                "edition": {"type": "string", "nullable": True},
                "move": {"type": "boolean"}}})},
        "/api/openapi.json": {"get": _op("This document", _ok("OpenAPI 3"), errors=(400,))},
        "/api/i18n/{lang}.json": {"get": {**_op(
            "The page's catalogue for a language: its messages, plural categories, languages "
            "offered (docs/translating.md)", _ok("catalogue"), errors=(404,)),
            "parameters": [{"name": "lang", "in": "path", "required": True,
                            "schema": {"type": "string"}}]}},
        **profile_paths(),
        **history_api.openapi_paths(),
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": "Board Companion", "version": "1",
                 "description": "The JSON API behind the phone page. Every POST needs the "
                                "X-CSRF-Token header from GET /api/session and the session "
                                "cookie; refusals are {error, code} with a 4xx status."},
        "paths": paths,
        "components": {
            "schemas": {
                "Error": {"type": "object", "required": ["error", "code"], "properties": {
                    "error": {"type": "string"}, "code": {"type": "string"}}},
                "Outcome": {"type": "object", "required": ["ok", "version"], "properties": {
                    "ok": {"type": "boolean"}, "version": {"type": "integer"},
                    "says": {"type": "array", "items": {"type": "string"}},
                    "said": {"type": "array", "items": SAID,
                             "description": "the says as messages (docs/translating.md)"},
                    "error": {"type": "string"}, "code": {"type": "string"},
                    "game_id": {"type": "string"}}},
                "View": {"type": "object", "required": ["game_id", "version", "players"],
                         "properties": {
                             "game_id": {"type": "string"}, "version": {"type": "integer"},
                             "edition": {"type": "string"}, "title": {"type": "string"},
                             "players": {"type": "array", "items": OBJ},
                             "actions": {"type": "array", "items": OBJ},
                             "log": {"type": "array", "items": SAID},
                             "log_cites": {"type": "array", "items": {"type": "string"}},
                             "log_events": {"type": "array", "items": {"type": "string"},
                                            "description": "each log line's event type"},
                             "page": {**OBJ, "description": "what the page draws "
                                      "differently for this edition (Rules.page)"}}}},
            "responses": {"Error": {"description": "refused (nothing changed)",
                                    **_json({"$ref": "#/components/schemas/Error"})}},
        },
    }
