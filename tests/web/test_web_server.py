"""The production server: streams are capped so commands and page loads always get a thread."""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

import httpx
import pytest
from web_helpers import PIN

from web import create_app
from web.server import RESERVE, make_server


@pytest.mark.parametrize("backend", ["cheroot", "waitress"])
def test_streams_never_starve_the_pool(service: Any, backend: str) -> None:
    pytest.importorskip(backend)
    app = create_app(service, config={"banker_pin": PIN, "heartbeat": 0.5})
    srv = make_server(app, "127.0.0.1", 0, threads=RESERVE + 4, backend=backend)
    threading.Thread(target=srv.run, daemon=True).start()
    base = f"http://127.0.0.1:{srv.effective_port}"
    try:
        with httpx.Client(base_url=base, timeout=5) as banker:
            csrf = banker.get("/api/session").json()["csrf"]
            banker.post("/api/banker/login", json={"pin": PIN}, headers={"X-CSRF-Token": csrf})
            game = banker.post("/api/games", json={"edition": "mario", "players": ["A", "B"]},
                               headers={"X-CSRF-Token": csrf}).json()["game_id"]
            socks, statuses = [], []
            for _ in range(6):  # six phones, each with its own session
                with httpx.Client(base_url=base, timeout=5) as phone:
                    token = phone.get("/api/session").json()["csrf"]
                    phone.post("/api/banker/login", json={"pin": PIN},
                               headers={"X-CSRF-Token": token})
                    cookie = f"companion={phone.cookies['companion']}"
                s = socket.create_connection(("127.0.0.1", srv.effective_port), timeout=5)
                s.sendall(f"GET /api/games/{game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          f"Cookie: {cookie}\r\n\r\n".encode())
                statuses.append(int(s.recv(200).split()[1]))
                socks.append(s)
            assert statuses == [200] * 4 + [503] * 2
            t = time.perf_counter()
            view = banker.get(f"/api/games/{game}").json()  # a pool thread is still free
            assert time.perf_counter() - t < 1 and view["game_id"] == game
            r = banker.post(f"/api/games/{game}/commands", headers={"X-CSRF-Token": csrf},
                            json={"actor": "banker", "type": "transfer", "args": {
                                "source": "bank", "to": "a", "amount": 3, "reason": "test"}})
            version = r.json()["version"]
            data = b""
            while f"id: {version}".encode() not in data:
                data += socks[0].recv(65536)  # the first stream gets the update
            frame = data.split(f"id: {version}".encode())[1].split(b"data: ")[1]
            assert json.loads(frame.split(b"\n")[0])["version"] == version
            for s in socks:
                s.close()
    finally:
        t = time.perf_counter()
        srv.close()
        assert time.perf_counter() - t < 5  # open streams end when the server stops


def test_a_phone_that_reconnects_takes_over_its_old_stream(service: Any) -> None:
    """A phone whose Wi-Fi dropped reconnects before the server noticed: its oldest stream
    hands over the slot (two tabs may stay open), so dead streams never lock phones out."""
    app = create_app(service, config={"banker_pin": PIN, "heartbeat": 0.5})
    srv = make_server(app, "127.0.0.1", 0, threads=RESERVE + 3, backend="cheroot")
    threading.Thread(target=srv.run, daemon=True).start()
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{srv.effective_port}", timeout=5) as b:
            csrf = b.get("/api/session").json()["csrf"]
            b.post("/api/banker/login", json={"pin": PIN}, headers={"X-CSRF-Token": csrf})
            game = b.post("/api/games", json={"edition": "mario", "players": ["A", "B"]},
                          headers={"X-CSRF-Token": csrf}).json()["game_id"]
            cookie = f"companion={b.cookies['companion']}"
            socks, statuses = [], []
            for _ in range(5):  # one phone reconnecting again and again; 3 slots in all
                s = socket.create_connection(("127.0.0.1", srv.effective_port), timeout=5)
                s.sendall(f"GET /api/games/{game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          f"Cookie: {cookie}\r\n\r\n".encode())
                statuses.append(int(s.recv(200).split()[1]))
                socks.append(s)
            assert statuses == [200] * 5
            socks[0].settimeout(5)
            rest = b""
            while not rest.endswith(b"0\r\n\r\n"):  # the oldest stream ends (last chunk)
                chunk = socks[0].recv(65536)
                assert chunk, "closed without ending the stream"
                rest += chunk
            for s in socks:
                s.close()
    finally:
        srv.close()
