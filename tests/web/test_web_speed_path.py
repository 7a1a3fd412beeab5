"""The move's path: on a table with a slow OLED (tens of milliseconds per frame on I2C on a
Pi) the phones and the mover hear of a move while the screen still draws it."""

from __future__ import annotations

import json
import socket
import threading
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from web_helpers import PIN, SlowScreen

from companion.service.game_service import GameService
from web import create_app
from web.server import make_server


def test_the_mover_is_answered_while_the_oled_still_draws(service: GameService) -> None:
    from companion.service.table import Table

    screen = SlowScreen()
    Table(service, screen)  # subscribes before the front, as `companion run` wires them
    app = create_app(service, config={"banker_pin": PIN, "heartbeat": 0.5})
    srv = make_server(app, "127.0.0.1", 0, threads=4)
    threading.Thread(target=srv.run, daemon=True).start()
    http = httpx.Client(base_url=f"http://127.0.0.1:{srv.effective_port}", timeout=10)
    try:
        csrf = {"X-CSRF-Token": http.get("/api/session").json()["csrf"]}
        assert http.post("/api/banker/login", json={"pin": PIN}, headers=csrf).status_code == 200
        game = http.post("/api/games", json={"edition": "monopolino", "players": ["Ann", "Bo"],
                                             "seed": 1}, headers=csrf).json()["game_id"]
        seat = http.get(f"/api/games/{game}").json()["players"][0]["id"]
        with ThreadPoolExecutor(1) as pool, http.stream(
                "GET", f"/api/games/{game}/events") as events:
            lines = events.iter_lines()
            first = next(json.loads(ln[6:]) for ln in lines if ln.startswith("data: "))
            screen.release.clear()
            screen.drawing.clear()
            move = pool.submit(http.post, f"/api/games/{game}/commands", json={
                "actor": "banker", "type": "transfer", "args": {
                    "source": "bank", "to": seat, "amount": 3, "reason": "gift"}},
                headers=csrf)
            assert screen.drawing.wait(10)  # the OLED is busy with this move now
            answer = move.result(10)  # before: only once the screen had finished
            assert answer.status_code == 200 and screen.busy
            seen = next(json.loads(ln[6:]) for ln in lines if ln.startswith("data: "))
            assert seen["version"] == answer.json()["version"] > first["version"]
            screen.release.set()
    finally:
        screen.release.set()
        http.close()
        srv.close()


def _read_until(s: socket.socket, needle: bytes) -> bytes:
    got = b""
    while needle not in got:
        data = s.recv(65536)
        assert data, "the stream ended"
        got += data
    return got


def test_a_listener_that_reads_through_the_service_after_a_move_does_not_hang_it(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's screen, told of a move after its answer, asks the service for more (as
    ``Table._show`` does at a game's end): that must not wait for itself. Before, on the
    service thread (a slow card, or a busy service), it waited 30 s, and every request
    behind it (a new game) timed out."""
    heard: list[int] = []
    service.subscribe(lambda game_id, version, notice: heard.append(
        service.call(lambda: version)))
    app = create_app(service, config={"banker_pin": PIN, "heartbeat": 30})
    srv = make_server(app, "127.0.0.1", 0, threads=4)
    threading.Thread(target=srv.run, daemon=True).start()
    http = httpx.Client(base_url=f"http://127.0.0.1:{srv.effective_port}", timeout=10)
    try:
        csrf = {"X-CSRF-Token": http.get("/api/session").json()["csrf"]}
        assert http.post("/api/banker/login", json={"pin": PIN}, headers=csrf).status_code == 200
        game = http.post("/api/games", json={"edition": "mario", "players": ["Zoë", "Дмитрий"],
                                             "seed": 1}, headers=csrf).json()["game_id"]
        seat = http.get(f"/api/games/{game}").json()["players"][0]["id"]
        r = http.post(f"/api/games/{game}/commands", headers=csrf, json={
            "actor": "banker", "type": "transfer",
            "args": {"source": "bank", "to": seat, "amount": 3, "reason": "gift"}})
        assert r.status_code == 200
        r = http.post("/api/games", json={"edition": "mario", "players": ["A", "B"]},
                      headers=csrf)  # queued behind the listener's work
        assert r.status_code == 201
        assert heard[-1] >= 1
    finally:
        http.close()
        srv.close()
