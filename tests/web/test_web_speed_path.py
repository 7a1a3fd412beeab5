"""The move's path: on a table with a slow OLED (tens of milliseconds per frame on I2C on a
Pi) the phones and the mover hear of a move while the screen still draws it; a move the page
server decides on its own thread reaches every phone before its answer, in one turn."""

from __future__ import annotations

import json
import select
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from web_helpers import PIN, SlowScreen

from companion.service import GameService
from web import create_app
from web.server import make_server


def test_the_mover_is_answered_while_the_oled_still_draws(service: GameService) -> None:
    from companion.table import Table

    screen = SlowScreen()
    Table(service, screen)  # subscribes before the front, as `companion run` wires them
    app = create_app(service, config={"banker_pin": PIN, "heartbeat": 0.5})
    srv = make_server(app, "127.0.0.1", 0, threads=4, backend="front")
    threading.Thread(target=srv.run, daemon=True).start()
    http = httpx.Client(base_url=f"http://127.0.0.1:{srv._srv.effective_port}", timeout=10)
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


def test_a_move_the_loop_decides_reaches_the_phones_before_its_answer_in_one_turn(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """A phone's move decided on the page server's own thread (an idle service) is written
    to every following phone from inside its publish, then answered at once: each phone
    already holds the move when the mover hears back, and the loop is never woken up for it
    (before, the frames and the answer each waited for a wake-up and a further turn of the
    loop). Names with odd characters, as at a real table."""
    from companion import writer_thread

    monkeypatch.setattr(writer_thread, "QUICK_WRITE", 1.0)  # any disk counts as quick here
    app = create_app(service, config={"banker_pin": PIN, "heartbeat": 30})
    srv = make_server(app, "127.0.0.1", 0, threads=4, backend="front")
    threading.Thread(target=srv.run, daemon=True).start()
    port = srv._srv.effective_port
    http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
    phones: list[socket.socket] = []
    try:
        csrf = {"X-CSRF-Token": http.get("/api/session").json()["csrf"],
                "Origin": f"http://127.0.0.1:{port}"}
        assert http.post("/api/banker/login", json={"pin": PIN}, headers=csrf).status_code == 200
        game = http.post("/api/games", json={"edition": "monopolino", "seed": 1, "players": [
            "Дмитрий", "“Zoë” €"]}, headers=csrf).json()["game_id"]
        seat = http.get(f"/api/games/{game}").json()["players"][0]["id"]
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
        for _ in range(3):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(f"GET /api/games/{game}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                      f"Cookie: {cookie}\r\n\r\n".encode())
            assert b'"version":' in _read_until(s, b'"version":')
            phones.append(s)
        loop = srv._srv.loop
        wakes: list[object] = []
        plain = loop.call_soon_threadsafe

        def counted(*a: Any, **k: Any) -> Any:
            wakes.append(a[0])
            return plain(*a, **k)

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
        for n in range(8):
            service.call(lambda: None)  # the last move's housekeeping done: the service is idle
            answer = http.post(f"/api/games/{game}/commands", headers=csrf, json={
                "actor": "banker", "type": "transfer", "args": {
                    "source": "bank", "to": seat, "amount": 1 + n, "reason": "gift"}})
            assert answer.status_code == 200, answer.text
            version = answer.json()["version"]
            for s in phones:  # already arrived: written before the answer
                assert select.select([s], [], [], 0)[0], "the phone did not have the move yet"
                assert f'"version":{version}'.encode() in _read_until(
                    s, f'"version":{version}'.encode())
        assert wakes == []
    finally:
        for s in phones:
            s.close()
        http.close()
        srv.close()


def _read_until(s: socket.socket, needle: bytes) -> bytes:
    got = b""
    while needle not in got:
        data = s.recv(65536)
        assert data, "the stream ended"
        got += data
    return got
