"""Live updates as patches: a phone that follows the stream by patches holds exactly the view
a fresh load gives; after a gap it gets the whole view; frames are shared, not per stream."""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from web_helpers import PIN

from companion.service.game_service import GameService
from web import create_app, events
from web.server import make_server

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=2), inner,
                                                                 max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(json_values, json_values)
def test_a_patch_turns_any_view_into_the_next(old: Any, new: Any) -> None:
    assert events.apply(copy.deepcopy(old), events.diff(old, new)) == new


def test_a_scrolled_log_is_sent_as_its_new_line_only() -> None:
    old = {"log": [f"line {i}" for i in range(12)], "version": 3}
    new = {"log": [f"line {i}" for i in range(1, 13)], "version": 4}
    assert events.diff(old, new) == [["l", ["log"], 1, ["line 12"]], ["s", ["version"], 4]]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, GameService]]:
    with GameService(tmp_path) as service:
        app = create_app(service, config={"banker_pin": PIN, "stream_seconds": 30})
        srv = make_server(app, "127.0.0.1", 0, threads=8)
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{srv.effective_port}", service
        srv.close()
        thread.join(10)


@pytest.fixture
def http_banker(served: tuple[str, GameService]) -> Iterator[tuple[httpx.Client, dict[str, str]]]:
    with httpx.Client(base_url=served[0], timeout=10) as c:
        h = {"X-CSRF-Token": c.get("/api/session").json()["csrf"]}
        assert c.post("/api/banker/login", json={"pin": PIN}, headers=h).status_code == 200
        yield c, h


def pay(c: httpx.Client, h: dict[str, str], game: str, src: str, to: str, amount: int) -> int:
    r = c.post(f"/api/games/{game}/commands", headers=h, json={
        "actor": "banker", "type": "transfer",
        "args": {"source": src, "to": to, "amount": amount, "reason": "rent"}})
    assert r.status_code == 200, r.text
    return int(r.json()["version"])


def sse(r: httpx.Response) -> Iterator[tuple[str, dict[str, Any]]]:
    kind, data = "message", ""
    for line in r.iter_lines():
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:"):
            data += line[5:].strip()
        elif line == "" and data:
            yield kind, json.loads(data)
            kind, data = "message", ""


def test_a_phone_following_by_patches_ends_with_the_view_a_fresh_load_shows(
        http_banker: tuple[httpx.Client, dict[str, str]]) -> None:
    c, h = http_banker
    game = c.post("/api/games", headers=h, json={"edition": "mario", "players": ["A", "B", "C"],
                                                  "seed": 1}).json()["game_id"]
    ids = [p["id"] for p in c.get(f"/api/games/{game}").json()["players"]]
    kinds: list[str] = []
    with c.stream("GET", f"/api/games/{game}/events?live=patch") as r:
        it = sse(r)
        kind, view = next(it)
        kinds.append(kind)
        for i in range(30):
            version = pay(c, h, game, "bank", ids[i % 3], 1 + i)
            kind, body = next(it)
            kinds.append(kind)
            view = events.apply(view, body["ops"]) if kind == "patch" else body
            assert view["version"] == version
    assert kinds[0] == "view" and set(kinds[1:]) == {"patch"}
    assert view == c.get(f"/api/games/{game}").json()


def test_a_phone_back_after_a_gap_gets_the_whole_view(
        http_banker: tuple[httpx.Client, dict[str, str]]) -> None:
    c, h = http_banker
    game = c.post("/api/games", headers=h, json={"edition": "mario", "players": ["A", "B"],
                                                  "seed": 1}).json()["game_id"]
    ids = [p["id"] for p in c.get(f"/api/games/{game}").json()["players"]]
    seen = pay(c, h, game, "bank", ids[0], 5)
    with c.stream("GET", f"/api/games/{game}/events?live=patch",
                  headers={"Last-Event-ID": str(seen)}) as r:
        it = sse(r)
        pay(c, h, game, "bank", ids[1], 6)  # one version on: a patch fits
        kind, body = next(it)
        assert kind == "patch" and body["from"] == seen
    with c.stream("GET", f"/api/games/{game}/events?live=patch") as other:
        watching = sse(other)
        next(watching)
        for amount in (7, 8, 9):  # the phone is away for three moves that another watches
            version = pay(c, h, game, "bank", ids[0], amount)
            while next(watching)[1].get("to", -1) != version:
                pass
    with c.stream("GET", f"/api/games/{game}/events?live=patch",
                  headers={"Last-Event-ID": str(body["to"])}) as r:
        kind, view = next(sse(r))
    assert kind == "view" and view == c.get(f"/api/games/{game}").json()


def test_streams_of_one_viewer_share_one_frame_per_version(
        served: tuple[str, GameService]) -> None:
    _, service = served
    game = service.create_game({"edition": "mario", "players": ["A", "B"], "seed": 1}).game_id
    calls: list[str | None] = []
    real = service.view

    def counted(game_id: str, viewer: str | None = None) -> dict[str, Any]:
        calls.append(viewer)
        return real(game_id, viewer)

    service.view = counted  # type: ignore[method-assign]
    first = events.frames(service, game, None)
    assert all(events.frames(service, game, None) is first for _ in range(20))
    assert len({id(real(game, None)) for _ in range(3)}) == 1  # the service's view is cached too


def test_threaded_servers_send_patches_too(banker: Any, game: dict[str, Any]) -> None:
    """The generator path (Flask's test client) follows the same rules."""
    from test_web_api import read_events
    from web_helpers import action

    gid = game["id"]
    url = f"/api/games/{gid}/events?live=patch"
    (first,) = read_events(banker.get(url, buffered=False), 1)
    assert first["event"] == "view"
    view = json.loads(first["data"])
    banker.command(gid, action(view, "mario", "roll"))
    resp = banker.get(url, headers={"Last-Event-ID": first["id"]}, buffered=False)
    (second,) = read_events(resp, 1)
    assert second["event"] == "patch"
    patched = events.apply(view, json.loads(second["data"])["ops"])
    assert patched == banker.get(f"/api/games/{gid}").get_json()
