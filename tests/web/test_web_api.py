"""The JSON API with Flask's test client: joining, playing, undo, history, SSE resume."""

from __future__ import annotations

import json
from typing import Any

from web_helpers import Phone, action


def join(phone: Phone, code: str, player: str | None = None) -> Any:
    return phone.post("/api/join", {"code": code, **({"player": player} if player else {})})


def test_session_and_editions(phone: Any) -> None:
    p = phone()
    s = p.get("/api/session").get_json()
    assert s["csrf"] and s["banker"] is False and s["pin_set"] is True and s["simulated"] is True
    names = [e["name"] for e in p.get("/api/editions").get_json()]
    assert "mario" in names


def test_join_claim_and_play(phone: Any, game: dict[str, Any]) -> None:
    mario, luigi = phone(), phone()
    assert mario.get(f"/api/games/{game['id']}").status_code == 403  # not joined yet
    assert join(mario, "0000" if game["code"] != "0000" else "0001").status_code == 404
    r = join(mario, game["code"], "mario")
    assert r.status_code == 200 and r.get_json() == {"game_id": game["id"], "player": "mario"}
    assert join(luigi, game["code"], "mario").status_code == 409  # one phone per player
    assert join(luigi, game["code"], "luigi").status_code == 200
    view = mario.get(f"/api/games/{game['id']}").get_json()
    roll = action(view, "mario", "roll")
    r = mario.command(game["id"], roll, view["version"])
    assert r.status_code == 200 and r.get_json()["ok"] is True
    seats = {s["id"]: s for s in mario.get(f"/api/games/{game['id']}/seats").get_json()}
    assert seats["mario"]["mine"] and seats["luigi"]["claimed"] and not seats["luigi"]["mine"]


def test_refused_commands_change_nothing(phone: Any, game: dict[str, Any]) -> None:
    mario, watcher = phone(), phone()
    join(mario, game["code"], "mario")
    join(watcher, game["code"])
    gid = game["id"]
    view = mario.get(f"/api/games/{gid}").get_json()
    v0 = view["version"]
    roll = action(view, "mario", "roll")
    cases = [
        (mario.command(gid, {"actor": "luigi", "type": "roll"}), 403, "forbidden"),
        (watcher.command(gid, roll), 403, "forbidden"),
        (mario.command(gid, {"actor": "mario", "type": "buy"}), 409, "illegal"),
        (mario.command(gid, roll, version=v0 - 1), 409, "stale"),
        (mario.command(gid, roll, version=v0 + 50), 400, "bad_request"),
        (mario.post(f"/api/games/{gid}/commands", data="not json",
                    content_type="application/json"), 400, "bad_request"),
        (mario.post(f"/api/games/{gid}/commands", {"actor": "mario", "type": "roll",
                                                    "args": [1]}), 400, "bad_request"),
        (mario.post("/api/games/nosuch/commands", {"actor": "mario", "type": "roll"}), 404,
         "not_found"),
        (mario.post(f"/api/games/{gid}/undo", {}), 403, "forbidden"),
    ]
    for resp, status, code in cases:
        body = resp.get_json()
        assert resp.status_code == status, body
        assert body["code"] == code and body["error"]
    assert mario.get(f"/api/games/{gid}").get_json()["version"] == v0


def test_banker_undo_history_balances_export(banker: Phone, game: dict[str, Any]) -> None:
    gid = game["id"]
    view = banker.get(f"/api/games/{gid}").get_json()
    transfer = action(view, "banker", "transfer")
    r = banker.command(gid, transfer, source="bank", to="mario", amount=7, reason="Found coins")
    assert r.status_code == 200, r.get_json()
    view = banker.get(f"/api/games/{gid}").get_json()
    assert next(p for p in view["players"] if p["id"] == "mario")["money"] == 37
    hist = banker.get(f"/api/games/{gid}/history").get_json()
    assert "Found coins" in hist[0]["say"]  # newest first
    points = banker.get(f"/api/games/{gid}/balances").get_json()["points"]
    assert points[-1]["money"]["mario"] == 37
    cmds = banker.get(f"/api/games/{gid}/commands").get_json()
    r = banker.post(f"/api/games/{gid}/undo", {"cmd": cmds[-1]["cmd"]})
    assert r.status_code == 200 and r.get_json()["ok"]
    view = banker.get(f"/api/games/{gid}").get_json()
    assert next(p for p in view["players"] if p["id"] == "mario")["money"] == 30
    assert banker.post(f"/api/games/{gid}/undo", {"cmd": "x"}).status_code == 400
    lines = banker.get(f"/api/games/{gid}/export").get_data(as_text=True).splitlines()
    assert json.loads(lines[0])["game"] == gid and len(lines) > 3
    assert banker.get(f"/api/games/{gid}/qr.svg").mimetype == "image/svg+xml"
    games = banker.get("/api/games").get_json()
    assert games[0]["join_code"] == game["code"]


def test_hardware_endpoints(banker: Phone, phone: Any, hardware: Any) -> None:
    assert banker.get("/api/oled.png").data.startswith(b"\x89PNG")
    assert banker.post("/api/tap", {"role": "bank", "uid": "04:a1:b2:c3"}).status_code == 200
    assert hardware.taps == [("bank", "04A1B2C3")]
    assert banker.post("/api/tap", {"role": "bank", "uid": "zz"}).status_code == 400
    assert banker.get("/api/tags?edition=mario").get_json()["enrolled"] == {}
    p = phone()
    assert p.get("/api/oled.png").status_code == 403
    assert p.post("/api/tap", {"role": "bank", "uid": "04A1B2C3"}).status_code == 403


def test_release_lets_another_phone_claim(banker: Phone, phone: Any,
                                          game: dict[str, Any]) -> None:
    a, b = phone(), phone()
    join(a, game["code"], "mario")
    assert join(b, game["code"], "mario").status_code == 409
    assert b.post(f"/api/games/{game['id']}/release", {"player": "mario"}).status_code == 403
    assert banker.post(f"/api/games/{game['id']}/release", {"player": "mario"}).status_code == 200
    assert join(b, game["code"], "mario").status_code == 200
    view = a.get(f"/api/games/{game['id']}").get_json()
    assert a.command(game["id"], action(view, "mario", "roll")).status_code == 403


def read_events(resp: Any, count: int) -> list[dict[str, str]]:
    """The first ``count`` SSE events (comments skipped) of a streamed response."""
    events: list[dict[str, str]] = []
    buf = ""
    for chunk in resp.response:
        buf += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buf:
            block, buf = buf.split("\n\n", 1)
            fields = dict(line.split(": ", 1) for line in block.splitlines()
                          if ": " in line and not line.startswith(":"))
            if "data" in fields:
                events.append(fields)
        if len(events) >= count:
            break
    resp.close()
    return events


def test_events_resume_with_last_event_id(banker: Phone, game: dict[str, Any]) -> None:
    gid = game["id"]
    first = read_events(banker.get(f"/api/games/{gid}/events", buffered=False), 1)[0]
    v1 = int(first["id"])
    assert first["event"] == "view" and json.loads(first["data"])["version"] == v1
    # up to date: only heartbeats until the stream ends (stream_seconds=2 in the tests)
    resp = banker.get(f"/api/games/{gid}/events", headers={"Last-Event-ID": str(v1)},
                      buffered=False)
    assert read_events(resp, 1) == []
    view = banker.get(f"/api/games/{gid}").get_json()
    banker.command(gid, action(view, "mario", "roll"))
    resp = banker.get(f"/api/games/{gid}/events", headers={"Last-Event-ID": str(v1)},
                      buffered=False)
    (missed,) = read_events(resp, 1)
    assert int(missed["id"]) > v1 and json.loads(missed["data"])["last_roll"]


def test_openapi_document_lists_every_route(app: Any, phone: Any) -> None:
    doc = phone().get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    documented = {p.replace("{", "<").replace("}", ">") for p in doc["paths"]}
    routes = {r.rule for r in app.url_map.iter_rules() if r.rule.startswith("/api/")}
    assert routes == documented


def test_every_command_the_examples_send_or_offer_is_within_bounds() -> None:
    """The declared argument table (companion/engine/limits.py) refuses junk, never a real move:
    every step of every example game and every action offered on the way passes it."""
    import json
    from pathlib import Path

    from companion.engine import limits
    from companion.engine.types import Command, GameSetup
    from companion.plugins.editions import find_edition
    from companion.service import game
    from companion.service.script import parse_step

    for path in sorted(Path(__file__).resolve().parents[2].glob("examples/*.json")):
        data = json.loads(path.read_text("utf-8"))
        setup = GameSetup.from_json({k: v for k, v in data.items() if k != "steps"})
        limits.check_setup(setup, find_edition(setup.edition).setup_info())
        state = game.replay(game.new_game(setup))
        for step in data["steps"]:
            for a in game.legal_actions(state):
                limits.check_command(Command(a.actor, a.type, dict(a.args)))
            command = parse_step(state, step)
            limits.check_command(command)
            state = game.step(state, command)[1]


def test_every_editions_default_settings_are_within_bounds() -> None:
    from companion.engine import limits
    from companion.engine.types import GameSetup
    from companion.plugins import editions

    for name in editions.known():
        info = editions.find_edition(name).setup_info()
        settings = {s["name"]: s["default"] for s in info["settings"]}
        setup = GameSetup.from_json({"edition": name, "players": ["A", "B", "C"],
                                     "settings": settings})
        limits.check_setup(setup, info)
