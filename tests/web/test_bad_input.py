"""Bad input gets a clear 4xx and changes nothing: unknown fields on every route, text no
encoding can hold, JSON too deep or numbers too long, a full disk at the banker's login."""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Flask
from web_helpers import PIN, Phone

DEEP = "[" * 5000 + "]" * 5000
HUGE = "1" * 5000


def test_undo_with_a_misspelt_field_is_refused_and_undoes_nothing(
        banker: Phone, game: dict[str, Any]) -> None:
    gid = game["id"]
    for _ in range(2):
        r = banker.post(f"/api/games/{gid}/commands", {"actor": "banker", "type": "transfer",
                        "args": {"source": "bank", "to": "mario", "amount": 1,
                                 "reason": "test"}})
        assert r.status_code == 200, r.get_json()
    before = banker.get(f"/api/games/{gid}").get_json()["version"]
    r = banker.post(f"/api/games/{gid}/undo", {"cmdd": 999})
    assert r.status_code == 400 and "cmdd" in r.get_json()["error"], r.get_json()
    assert banker.get(f"/api/games/{gid}").get_json()["version"] == before


def test_every_route_refuses_a_field_it_does_not_take(app: Flask, banker: Phone,
                                                      game: dict[str, Any]) -> None:
    """Each POST/PUT route, as the banker, with one field no route takes: never a success,
    and where the route gets as far as the body, a 400 naming the field."""
    named = 0
    for rule in app.url_map.iter_rules():
        methods = (rule.methods or set()) & {"POST", "PUT"}
        if not methods:
            continue
        path = rule.rule.replace("<game_id>", game["id"]).replace("<edition>", "mario")
        path = path.replace("<name>", "ours")
        for method in methods:
            r = banker.client.open(path, method=method, json={"zzz_unknown": 1},
                                   headers={"X-CSRF-Token": banker.csrf})
            assert r.status_code >= 400, (method, path, r.get_json())
            if r.status_code == 400:
                assert "zzz_unknown" in r.get_json()["error"], (method, path, r.get_json())
                named += 1
    assert named >= 15


def raw(phone: Phone, path: str, text: str) -> Any:
    return phone.post(path, data=text.encode(), content_type="application/json")


def test_a_lone_surrogate_is_a_400_not_a_crash(phone: Any, game: dict[str, Any]) -> None:
    p = phone()
    for path, text in (("/api/banker/login", '{"pin": "\\ud800"}'),
                       ("/api/join", '{"code": "\\ud800"}'),
                       ("/api/join", '{"code": "123456", "player": "\\udfff"}')):
        r = raw(p, path, text)
        assert r.status_code == 400 and "surrogate" in r.get_json()["error"], (path, r.data)
    r = raw(p, "/api/banker/login", '{"pin": "\\ud83d\\ude00"}')  # a whole pair is text
    assert r.status_code == 401
    assert p.get("/api/session").get_json()["banker"] is False


def test_profile_import_of_deep_or_huge_json_is_a_400(banker: Phone) -> None:
    for text in (DEEP, '{"format": 1, "edition": "mario", "name": "x", "settings": {"seed": '
                 + HUGE + "}}", '{"name": "\\ud800"}'):
        r = raw(banker, "/api/profiles/import", text)
        assert r.status_code == 400 and r.get_json()["error"], r.data[:300]
    r = banker.post("/api/profiles/import", data=b"\xff\xfe\x00binary",
                    content_type="application/json")
    assert r.status_code == 400 and "text" in r.get_json()["error"]
    assert banker.get("/api/profiles").get_json()["profiles"] == []


def fill_the_disk(service: Any) -> None:
    """The database cannot grow any more (as on a full SD card), its free pages used up."""
    conn = service.store.conn
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    rows = iter(range(10**6))
    for size in (2000, 200, 10):  # the big rows fill the pages, the small ones the gaps
        try:
            for _ in range(10_000):
                service.store.set_setting(f"filler.{next(rows)}", "x" * size)
            raise AssertionError("the database never filled")
        except sqlite3.Error:
            pass


def test_banker_login_on_a_full_disk_is_a_503_storage(app: Flask, service: Any,
                                                      phone: Any) -> None:
    p = phone()
    fill_the_disk(service)
    r = p.post("/api/banker/login", {"pin": PIN})
    assert r.status_code == 503 and r.get_json()["code"] == "storage", r.get_json()
    assert "could not save" in r.get_json()["error"]
    assert p.get("/api/session").get_json()["banker"] is False
    service.store.conn.execute("PRAGMA max_page_count = 1073741823")
    assert p.post("/api/banker/login", {"pin": PIN}).status_code == 200
