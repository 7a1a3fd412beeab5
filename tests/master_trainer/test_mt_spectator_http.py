"""Hidden cards over real HTTP: a spectator's phone sees how many Item Cards each player
holds, never which; a seated player sees their own hand; the banker sees every hand."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from companion.engine.types import GameSetup
from companion.service import game
from companion.service.game_service import GameService
from companion.service.script import parse_step
from web import create_app
from web.server import make_server

PIN = "2468"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "master-trainer-two-players.json"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    with GameService(tmp_path) as service:
        app = create_app(service, config={"banker_pin": PIN})
        srv = make_server(app, "127.0.0.1", 0, threads=4)
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{srv.effective_port}"
        srv.close()
        thread.join(10)


def client(base: str) -> tuple[httpx.Client, dict[str, str]]:
    c = httpx.Client(base_url=base, timeout=10)
    return c, {"X-CSRF-Token": c.get("/api/session").json()["csrf"]}


def commands(setup: dict[str, Any], steps: list[Any]) -> list[dict[str, Any]]:
    """The commands the example's first steps mean (worked out on a local copy)."""
    state = game.replay(game.new_game(GameSetup.from_json(setup)))
    out = []
    for step in steps:
        cmd = parse_step(state, step)
        for e in game.decide(state, cmd):
            state = game.apply(state, e)
        out.append(cmd.to_json())
    return out


def hands(view: dict[str, Any]) -> dict[str, Any]:
    return {p["id"]: p["items"] for p in view["players"]}


def test_a_spectator_phone_sees_no_hand_while_the_banker_sees_every_hand(served: str) -> None:
    data = json.loads(EXAMPLE.read_text("utf-8"))
    setup = {k: v for k, v in data.items() if k != "steps"}
    setup["settings"] = {"decks": "virtual"}
    banker, bh = client(served)
    spectator, sh = client(served)
    ash, ah = client(served)
    try:
        assert banker.post("/api/banker/login", json={"pin": PIN}, headers=bh).status_code == 200
        r = banker.post("/api/games", json=setup, headers=bh)
        assert r.status_code == 201, r.text
        gid = r.json()["game_id"]
        for cmd in commands(setup, data["steps"][:4]):  # starters, a roll, a town: items drawn
            r = banker.post(f"/api/games/{gid}/commands", json=cmd, headers=bh)
            assert r.status_code == 200, r.text
        code = banker.get(f"/api/games/{gid}").json()["join_code"]
        assert spectator.post("/api/join", json={"code": code}, headers=sh).status_code == 200
        assert ash.post("/api/join", json={"code": code, "player": "ash"},
                        headers=ah).status_code == 200

        full = hands(banker.get(f"/api/games/{gid}").json())
        holder = next(p for p, h in full.items() if h["count"])
        assert full[holder]["cards"], "the banker sees the cards in hand"

        seen = spectator.get(f"/api/games/{gid}").json()
        assert all("cards" not in h for h in hands(seen).values())
        assert all("cards" not in h for h in seen["extra"]["item_hands"].values())
        assert hands(seen)[holder]["count"] == full[holder]["count"]
        assert seen["actions"] == []

        mine = hands(ash.get(f"/api/games/{gid}").json())
        assert ("cards" in mine["ash"]) and "cards" not in mine["misty"]
    finally:
        for c in (banker, spectator, ash):
            c.close()
