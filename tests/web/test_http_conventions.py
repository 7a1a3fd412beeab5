"""HTTP as clients expect it: Allow on a 405, Location on a 201, one Date header, and a
page (not JSON) for a wrong address outside /api."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

from flask import Flask
from page_driver import running_server
from web_helpers import Phone


def raw_get(base: str, path: str) -> list[tuple[str, str]]:
    """The answer's status line and headers, exactly as the real server sends them."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=60) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n"
                  .encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    return [(k.strip().lower(), v.strip()) for k, _, v in (h.partition(":") for h in head[1:])]


def test_each_answer_has_one_date_header(tmp_path: Path) -> None:
    with running_server(tmp_path) as (base, _):
        for path in ("/static/app.js", "/", "/api/editions"):
            dates = [v for k, v in raw_get(base, path) if k == "date"]
            assert len(dates) == 1, (path, dates)


def test_a_405_says_which_methods_are_allowed(phone: Any) -> None:
    p = phone()
    csrf = {"X-CSRF-Token": p.csrf}
    resp = p.client.delete("/", headers=csrf)
    assert resp.status_code == 405
    assert set(resp.headers["Allow"].replace(" ", "").split(",")) >= {"GET", "HEAD"}
    api = p.client.put("/api/editions", headers=csrf)
    assert api.status_code == 405 and "GET" in api.headers["Allow"]
    assert api.get_json()["code"] == "method"


def test_a_created_game_says_where_it_is(banker: Phone) -> None:
    resp: Any = banker.post("/api/games", {"edition": "mario", "players": ["Mario", "Luigi"]})
    assert resp.status_code == 201
    gid = resp.get_json()["game_id"]
    assert resp.headers["Location"] == f"/api/games/{gid}"
    assert banker.get(resp.headers["Location"]).status_code == 200


def test_a_wrong_address_gets_a_small_page_in_the_phones_language(app: Flask) -> None:
    resp = app.test_client().get("/tabel", headers={"Accept-Language": "it-IT,it;q=0.9"})
    assert resp.status_code == 404
    assert resp.mimetype == "text/html"
    page = resp.get_data(as_text=True)
    assert '<html lang="it"' in page and 'href="/"' in page
    assert "Pagina non trovata" in page
    english = app.test_client().get("/tabel")
    assert "Page not found" in english.get_data(as_text=True)
    api = app.test_client().get("/api/nothing-here")
    assert api.status_code == 404 and api.get_json()["code"] == "not_found"
