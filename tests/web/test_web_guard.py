"""The front's connection guard (issue 38): slow bodies, strangers holding every socket, a
request whose sender half-closes. A real server (``web.server.make_server``) over raw sockets
from other loopback addresses (127.0.0.1, the Pi itself, is the banker's own)."""

from __future__ import annotations

import json
import socket
import threading
from typing import Any

import pytest
from web_helpers import PIN

from web import create_app
from web.server import make_server

pytestmark = pytest.mark.long(2)


def _serve(service: Any, **limits: Any) -> Any:
    srv = make_server(create_app(service, config={"banker_pin": PIN}), "127.0.0.1", 0, **limits)
    threading.Thread(target=srv.run, daemon=True).start()
    return srv


def _connect(port: int, addr: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(addr, 0))


def _answer(s: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One whole answer: status, headers (lower-case names), body (its Content-Length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            return 0, {}, data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
    while len(body) < int(headers.get("content-length", 0)):
        chunk = s.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(lines[0].split()[1]), headers, body


def _request(method: str, path: str, body: bytes = b"", cookie: str = "",
             csrf: str = "", length: int | None = None) -> bytes:
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    if cookie:
        head.append(f"Cookie: companion={cookie}")
    if csrf:
        head += [f"X-CSRF-Token: {csrf}", "Content-Type: application/json"]
    if body or length is not None:
        head.append(f"Content-Length: {len(body) if length is None else length}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def _banker(port: int) -> tuple[str, str, str]:
    """Log in as the banker from 127.0.0.1 and start a game: (cookie, csrf, game id)."""
    s = _connect(port, "127.0.0.1")
    s.sendall(_request("GET", "/api/session"))
    _, headers, body = _answer(s)
    cookie = headers["set-cookie"].split(";")[0].split("=", 1)[1]
    csrf = json.loads(body)["csrf"]
    for path, data in (("/api/banker/login", {"pin": PIN}),
                       ("/api/games", {"edition": "mario", "players": ["A", "B"]})):
        s.sendall(_request("POST", path, json.dumps(data).encode(), cookie, csrf))
        status, headers, body = _answer(s)
        assert status in (200, 201), body
        if "set-cookie" in headers:
            cookie = headers["set-cookie"].split(";")[0].split("=", 1)[1]
    s.close()
    return cookie, csrf, json.loads(body)["game_id"]


def test_a_body_that_stops_coming_is_closed_at_its_deadline(service: Any) -> None:
    """Content-Length 1000, 7 bytes sent, then nothing: the connection is closed (nothing
    executed), as a head that never ends is; a whole body in time is answered."""
    srv = _serve(service, body_timeout=0.5)
    try:
        slow = _connect(srv.effective_port, "127.0.0.3")
        slow.sendall(_request("POST", "/api/join", b'{"code"', length=1000))
        assert slow.recv(100) == b""  # closed by the server, no thread held
        slow.close()
        ok = _connect(srv.effective_port, "127.0.0.3")
        ok.sendall(_request("GET", "/api/session"))
        assert _answer(ok)[0] == 200
        ok.close()
    finally:
        srv.close()


def test_strangers_holding_every_socket_do_not_lock_out_a_phone_or_the_banker(
        service: Any) -> None:
    """Every connection the server allows is held by strangers sending a body slowly (their
    bodies' deadline far away): a new phone and the banker on the Pi still get answers (a
    stranger's waiting connection makes room)."""
    srv = _serve(service, per_address=10, max_connections=60, body_timeout=600)
    port, held = srv.effective_port, []
    try:
        for n in range(60):
            s = _connect(port, f"127.0.1.{1 + n // 10}")
            s.sendall(_request("POST", "/api/join", b'{"code"', length=1000))
            held.append(s)
        for addr in ("127.0.0.20", "127.0.0.1", "127.0.0.21"):
            s = _connect(port, addr)
            s.sendall(_request("GET", "/api/session"))
            assert _answer(s)[0] == 200, addr
            s.close()
    finally:
        for s in held:
            s.close()
        srv.close()


@pytest.mark.parametrize("http", ["httptools", "h11"])
def test_a_request_whose_sender_half_closes_is_answered(service: Any, http: str) -> None:
    """A command sent whole, then the sender's side shut (``shutdown(SHUT_WR)``): it is
    executed and answered (before: executed, and the connection closed with no answer)."""
    srv = _serve(service, http=http)
    try:
        cookie, csrf, game = _banker(srv.effective_port)
        move = {"actor": "banker", "type": "transfer",
                "args": {"source": "bank", "to": "a", "amount": 5, "reason": "half-close"}}
        s = _connect(srv.effective_port, "127.0.0.1")
        s.sendall(_request("POST", f"/api/games/{game}/commands", json.dumps(move).encode(),
                           cookie, csrf))
        s.shutdown(socket.SHUT_WR)
        status, _, body = _answer(s)
        assert status == 200, body
        assert s.recv(100) == b""  # and then closed: nothing more can come
        s.close()
        assert service.view(game, None)["version"] == json.loads(body)["version"]
    finally:
        srv.close()


def test_a_phone_that_hangs_up_its_stream_is_noticed_at_once(service: Any) -> None:
    """A stream whose phone closes the socket ends at once (its FIN is a hang-up, not a
    half-close to answer): one machine (4 connections allowed here) opens a stream, reads
    its first view and hangs up, 20 times in a row, and every one opens."""
    srv = _serve(service, per_address=4)
    try:
        port = srv.effective_port
        cookie, csrf, game = _banker(port)
        s = _connect(port, "127.0.0.1")
        s.sendall(_request("GET", f"/api/games/{game}", cookie=cookie))
        code = json.loads(_answer(s)[2])["join_code"]
        s.close()
        phone = _connect(port, "127.0.0.9")
        phone.sendall(_request("GET", "/api/session"))
        _, headers, body = _answer(phone)
        mine = headers["set-cookie"].split(";")[0].split("=", 1)[1]
        phone.sendall(_request("POST", "/api/join", json.dumps({"code": code}).encode(),
                               mine, json.loads(body)["csrf"]))
        status, headers, _ = _answer(phone)
        assert status == 200
        mine = headers.get("set-cookie", f"companion={mine}").split(";")[0].split("=", 1)[1]
        phone.close()
        statuses = []
        for _ in range(20):
            s = _connect(port, "127.0.0.9")
            s.sendall(_request("GET", f"/api/games/{game}/events", cookie=mine))
            data = b""
            while b"event: view" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            statuses.append(int(data.split()[1]) if data else 0)
            s.close()
        assert statuses == [200] * 20, statuses
    finally:
        srv.close()


def test_uvicorn_is_bounded_to_the_versions_the_guard_was_proven_on() -> None:
    """The guard builds on what uvicorn does not document (``Config(http=<class>)`` and its
    protocols' module paths): an upgrade past the tested versions could silently drop a
    deadline or a cap. pyproject.toml bounds uvicorn, the installed one is inside the bound,
    and the page's server imports nothing private of a2wsgi or uvicorn but those paths."""
    import tomllib
    from importlib.metadata import version
    from pathlib import Path

    from packaging.requirements import Requirement

    root = Path(__file__).resolve().parents[2]
    deps = tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    uvicorn = next(Requirement(d) for d in deps if Requirement(d).name == "uvicorn")
    assert any(s.operator == "<" for s in uvicorn.specifier), uvicorn
    assert version("uvicorn") in uvicorn.specifier
    for path in (root / "web").rglob("*.py"):
        text = path.read_text()
        assert "a2wsgi." not in text and ".cycle" not in text, path
        assert "uvicorn.protocols" not in text or path.name == "guard.py", path
