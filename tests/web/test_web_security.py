"""Attacks a player with a browser on the table's Wi-Fi might try; each must fail cleanly."""

from __future__ import annotations

from typing import Any

from web_helpers import PIN, Phone, action


def test_dns_rebinding_host_refused(phone: Any) -> None:
    p = phone()
    for path in ("/", "/api/session", "/api/games"):
        r = p.get(path, headers={"Host": "attacker.example:8000"})
        assert r.status_code == 400 and r.get_json()["code"] == "bad_host"
    assert p.get("/", headers={"Host": "companion.local:8000"}).status_code == 200
    assert p.get("/", headers={"Host": "127.0.0.1"}).status_code == 200


def test_csrf_token_and_origin_required(phone: Any) -> None:
    p = phone()
    body = {"pin": PIN}
    r = p.client.post("/api/banker/login", json=body)  # no token
    assert r.status_code == 403 and r.get_json()["code"] == "csrf"
    r = p.client.post("/api/banker/login", json=body, headers={"X-CSRF-Token": "guess"})
    assert r.status_code == 403
    for origin in ("http://attacker.example", "null"):
        r = p.post("/api/banker/login", body, headers={"Origin": origin})
        assert r.status_code == 403 and r.get_json()["code"] == "csrf"
    other = phone()  # another session's token is no good here
    r = p.client.post("/api/banker/login", json=body, headers={"X-CSRF-Token": other.csrf})
    assert r.status_code == 403
    r = p.post("/api/banker/login", body, headers={"Origin": "http://localhost"})
    assert r.status_code == 200


def test_cookie_flags(phone: Any, app: Any) -> None:
    client = app.test_client()
    r = client.get("/api/session")
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert app.debug is False
    assert "default-src 'self'" in r.headers["Content-Security-Policy"]


def test_pin_attempts_locked(phone: Any, app: Any) -> None:
    p = phone()
    clock = [1000.0]
    app.extensions["companion"].pin.clock = lambda: clock[0]
    for _ in range(5):
        assert p.post("/api/banker/login", {"pin": "0000"}).status_code == 401
    r = p.post("/api/banker/login", {"pin": PIN})  # even the right PIN, while locked
    assert r.status_code == 429 and r.get_json()["code"] == "locked" and r.headers["Retry-After"]
    fresh = phone()  # a new cookie does not reset the lock (it is per address)
    assert fresh.post("/api/banker/login", {"pin": PIN}).status_code == 429
    clock[0] += 61
    assert p.post("/api/banker/login", {"pin": PIN}).status_code == 200
    assert p.post("/api/banker/login", {"pin": 1234}).status_code == 401  # wrong type


def test_join_code_guessing_locked(phone: Any, game: dict[str, Any]) -> None:
    p = phone()
    wrong = [c for c in (f"{i:04d}" for i in range(20)) if c != game["code"]][:10]
    codes = [p.post("/api/join", {"code": c}).status_code for c in wrong]
    assert codes[:9] == [404] * 9 and codes[-1] == 404
    assert p.post("/api/join", {"code": game["code"]}).status_code == 429


def test_roles_enforced(phone: Any, game: dict[str, Any]) -> None:
    gid = game["id"]
    stranger, mario = phone(), phone()
    assert stranger.get(f"/api/games/{gid}").status_code == 403
    assert stranger.get(f"/api/games/{gid}/events").status_code == 403
    assert stranger.get(f"/api/games/{gid}/history").status_code == 403
    assert stranger.post("/api/games", {"edition": "mario", "players": ["A", "B"]}).status_code \
        == 403
    mario.post("/api/join", {"code": game["code"], "player": "mario"})
    for path in ("export", "commands", "qr.svg"):
        assert mario.get(f"/api/games/{gid}/{path}").status_code == 403
    assert mario.post(f"/api/games/{gid}/undo", {}).status_code == 403
    view = mario.get(f"/api/games/{gid}").get_json()
    # acting as the banker to move money to oneself
    r = mario.command(gid, action(view, "banker", "transfer"), source="bank", to="mario",
                      amount=1000, reason="mine")
    assert r.status_code == 403
    # a phone never sends a balance: there is no command that sets one
    r = mario.command(gid, {"actor": "mario", "type": "set_money"}, money=10**6)
    assert r.status_code == 409
    after = mario.get(f"/api/games/{gid}").get_json()
    assert [p["money"] for p in after["players"]] == [p["money"] for p in view["players"]]


def test_forged_session_cookie_rejected(app: Any, game: dict[str, Any]) -> None:
    client = app.test_client()
    client.set_cookie("companion", "eyJiYW5rZXJfdW50aWwiOjk5OTk5OTk5OTl9.forged.sig",
                      domain="localhost")
    assert client.get(f"/api/games/{game['id']}/export").status_code == 403


def test_server_errors_are_json_without_traceback(banker: Phone, hardware: Any) -> None:
    def broken() -> bytes:
        raise RuntimeError("secret internals")

    hardware.frame_png = broken
    r = banker.get("/api/oled.png")
    assert r.status_code == 500 and r.get_json()["code"] == "server_error"
    assert b"secret internals" not in r.data and b"Traceback" not in r.data


def test_oversized_and_malformed_bodies(banker: Phone, game: dict[str, Any]) -> None:
    gid = game["id"]
    r = banker.post(f"/api/games/{gid}/commands", data="x" * 300_000,
                    content_type="application/json")
    assert r.status_code == 413
    r = banker.post(f"/api/games/{gid}/commands", {"actor": "banker", "type": "transfer",
                                                   "args": {"amount": "1e99"}})
    assert r.status_code == 409
    assert banker.post("/api/join", {"code": 1234}).status_code == 400
