"""Moves answered on the front's event loop (web/native.py) over real HTTP: the same answers,
status codes, messages and headers as the Flask route through a worker thread, and a move is
answered even while every worker thread is busy."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from web_helpers import PIN, SlowScreen

from companion.service import GameService
from web import create_app
from web.server import make_server

IGNORED = {"date", "set-cookie", "content-length"}
"""Headers that may differ between two answers to the same request (compared apart)."""


@pytest.fixture
def front(service: GameService) -> Iterator[Any]:
    app = create_app(service, config={"banker_pin": PIN, "heartbeat": 0.5})
    srv = make_server(app, "127.0.0.1", 0, threads=4, backend="front")
    threading.Thread(target=srv.run, daemon=True).start()
    try:
        yield srv._srv  # the Front itself
    finally:
        srv.close()


class Client:
    """A phone over real HTTP with its cookie and CSRF token."""

    def __init__(self, port: int) -> None:
        self.http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
        self.csrf = self.http.get("/api/session").json()["csrf"]

    def post(self, path: str, body: Any = None, headers: dict[str, str] | None = None,
             content: bytes | None = None) -> httpx.Response:
        h = {"X-CSRF-Token": self.csrf, **(headers or {})}
        if content is None:
            return self.http.post(path, json={} if body is None else body, headers=h)
        return self.http.post(path, content=content, headers=h)


@pytest.fixture
def table(front: Any) -> Iterator[dict[str, Any]]:
    port = front.effective_port
    banker = Client(port)
    assert banker.post("/api/banker/login", {"pin": PIN}).status_code == 200
    game = banker.post("/api/games", {"edition": "mario", "players": ["Mario", "Luigi"],
                                      "seed": 1}).json()["game_id"]
    view = banker.http.get(f"/api/games/{game}").json()
    seats = [p["id"] for p in view["players"]]
    mario, luigi, watcher = Client(port), Client(port), Client(port)
    for phone, seat in ((mario, seats[0]), (luigi, seats[1]), (watcher, None)):
        body = {"code": view["join_code"], **({"player": seat} if seat else {})}
        assert phone.post("/api/join", body).status_code == 200
    yield {"front": front, "game": game, "seats": seats, "banker": banker, "mario": mario,
           "luigi": luigi, "watcher": watcher, "view": view}
    for c in (banker, mario, luigi, watcher):
        c.http.close()


def both_paths(front: Any, send: Any) -> tuple[httpx.Response, httpx.Response]:
    """``send()`` answered on the loop, then the same through the Flask route on a worker."""
    native = front.native
    assert native is not None
    on_loop = send()
    front.native = None
    try:
        via_route = send()
    finally:
        front.native = native
    return on_loop, via_route


def same_answer(a: httpx.Response, b: httpx.Response) -> None:
    assert a.status_code == b.status_code
    assert a.json() == b.json()
    assert {k: v for k, v in a.headers.items() if k not in IGNORED} == \
        {k: v for k, v in b.headers.items() if k not in IGNORED}
    assert ("set-cookie" in a.headers) == ("set-cookie" in b.headers)


def test_refusals_are_the_routes_word_for_word(table: dict[str, Any]) -> None:
    game, (mario_id, luigi_id) = table["game"], table["seats"]
    path = f"/api/games/{game}/commands"
    mario, luigi, watcher = table["mario"], table["luigi"], table["watcher"]
    roll = {"actor": luigi_id, "type": "roll", "args": {}}
    stranger = httpx.Client(base_url=mario.http.base_url, timeout=10)

    def request(path: str, **kw: Any) -> httpx.Response:
        stranger.cookies.clear()  # no cookie on either path (the first answer sets one)
        return stranger.post(path, **kw)

    cases: dict[str, Any] = {
        "out of turn": lambda: luigi.post(path, roll),
        "for another player": lambda: luigi.post(path, {**roll, "actor": mario_id}),
        "a spectator acts": lambda: watcher.post(path, roll),
        "malformed JSON": lambda: mario.post(path, content=b'{"actor": ',
                                             headers={"Content-Type": "application/json"}),
        "not JSON": lambda: mario.post(path, content=b"actor=x",
                                       headers={"Content-Type": "text/plain"}),
        "unknown field": lambda: mario.post(path, {**roll, "actor": mario_id, "cheat": 1}),
        "no actor": lambda: mario.post(path, {"type": "roll"}),
        "bad version": lambda: mario.post(path, {**roll, "actor": mario_id, "version": "x"}),
        "stale version": lambda: mario.post(path, {**roll, "actor": mario_id, "version": 1}),
        "bad key": lambda: mario.post(path, {**roll, "actor": mario_id, "key": 5}),
        "unknown type": lambda: mario.post(path, {"actor": mario_id, "type": "fly"}),
        "wrong CSRF token": lambda: mario.post(path, roll, headers={"X-CSRF-Token": "nope"}),
        "other site": lambda: mario.post(path, roll, headers={"Origin": "http://evil.example"}),
        "no cookie": lambda: request(path, json=roll),
        "wrong Host": lambda: mario.post(path, roll, headers={"Host": "evil.example"}),
        "huge body": lambda: mario.post(path, content=b'{"actor": "' + b"x" * 40_000 + b'"}',
                                        headers={"Content-Type": "application/json"}),
        "too deep": lambda: mario.post(path, content=b"[" * 40 + b"]" * 40,
                                       headers={"Content-Type": "application/json"}),
    }
    version = table["banker"].http.get(f"/api/games/{game}").json()["version"]
    service_refuses = {"out of turn", "stale version", "unknown type"}
    """Requests in order that the game refuses: they reach the service before Flask runs."""
    native = table["front"].native
    with stranger:
        for name, send in cases.items():
            quick = native.quick_moves
            on_loop, via_route = both_paths(table["front"], send)
            assert on_loop.status_code >= 400, name
            same_answer(on_loop, via_route)
            assert native.quick_moves - quick == (name in service_refuses), name
    assert table["banker"].http.get(f"/api/games/{game}").json()["version"] == version


def test_a_move_gets_the_routes_answer_and_reaches_every_phone(table: dict[str, Any]) -> None:
    game, (mario_id, luigi_id) = table["game"], table["seats"]
    path = f"/api/games/{game}/commands"
    banker = table["banker"]

    def pay() -> httpx.Response:
        return banker.post(path, {"actor": "banker", "type": "transfer", "args": {
            "source": mario_id, "to": luigi_id, "amount": 5, "reason": "rent"}})

    on_loop, via_route = both_paths(table["front"], pay)
    assert on_loop.status_code == via_route.status_code == 200
    a, b = on_loop.json(), via_route.json()
    assert b["version"] == a["version"] + 1 and a["says"] == b["says"] and a["ok"] is True
    assert {k for k in on_loop.headers if k not in IGNORED} == \
        {k for k in via_route.headers if k not in IGNORED}
    view = table["watcher"].http.get(f"/api/games/{game}").json()
    money = {p["id"]: p["money"] for p in view["players"]}
    before = {p["id"]: p["money"] for p in table["view"]["players"]}
    assert money[mario_id] == before[mario_id] - 10 and money[luigi_id] == before[luigi_id] + 10
    # the same idempotency key twice: the first answer again, the move made once
    keyed = {"actor": "banker", "type": "transfer", "key": "pay-once",
             "args": {"source": mario_id, "to": luigi_id, "amount": 1, "reason": "rent"}}
    first, again = both_paths(table["front"], lambda: banker.post(path, keyed))
    assert first.json() == again.json() and first.status_code == 200
    view = table["watcher"].http.get(f"/api/games/{game}").json()
    assert {p["id"]: p["money"] for p in view["players"]}[mario_id] == money[mario_id] - 1


def test_a_move_is_answered_while_every_worker_is_busy(table: dict[str, Any]) -> None:
    """Page loads wait for a worker thread; a move does not need one."""
    front, game = table["front"], table["game"]
    release = threading.Event()
    front.pool = ThreadPoolExecutor(1)
    front.pool.submit(release.wait, 10)  # the only worker is taken
    try:
        r = table["banker"].post(f"/api/games/{game}/commands", {
            "actor": "banker", "type": "transfer", "args": {
                "source": "bank", "to": table["seats"][0], "amount": 2, "reason": "gift"}})
        assert r.status_code == 200 and r.json()["ok"] is True
    finally:
        release.set()
    assert table["banker"].http.get(f"/api/games/{game}").json()["version"] == \
        r.json()["version"]


def test_a_move_on_the_loop_is_streamed_to_a_watching_phone(table: dict[str, Any]) -> None:
    front, game = table["front"], table["game"]
    watcher = table["watcher"]
    with watcher.http.stream("GET", f"/api/games/{game}/events?live=patch") as events:
        lines = events.iter_lines()
        version = None
        for line in lines:
            if line.startswith("data: "):
                version = json.loads(line[6:])["version"]
                break
        r = table["banker"].post(f"/api/games/{game}/commands", {
            "actor": "banker", "type": "transfer", "args": {
                "source": "bank", "to": table["seats"][1], "amount": 4, "reason": "gift"}})
        assert r.status_code == 200
        for line in lines:
            if line.startswith("data: "):
                patch = json.loads(line[6:])
                assert patch["from"] == version and patch["to"] == r.json()["version"]
                break
    assert front.native is not None


def test_a_tap_after_a_move_made_before_the_server_ran_still_reaches_phones(
        service: GameService) -> None:
    """A move committed before the loop runs (a table tap at start-up) must not leave the
    loop's wake-up pending forever: later moves from the table still reach the phones."""
    app = create_app(service, config={"banker_pin": PIN, "heartbeat": 0.5,
                                      "stream_seconds": 3})  # then the stream ends
    game = service.create_game({"edition": "mario", "players": ["A", "B"], "seed": 1}).game_id
    srv = make_server(app, "127.0.0.1", 0, threads=4, backend="front")
    seat = service.view(game)["players"][0]["id"]

    def gift(amount: int) -> int:  # as the table's hardware does: straight to the service
        out = service.submit(game, {"actor": "banker", "type": "transfer", "args": {
            "source": "bank", "to": seat, "amount": amount, "reason": "tap"}})
        assert out.ok
        return out.version

    gift(1)  # before the loop runs
    threading.Thread(target=srv.run, daemon=True).start()
    try:
        phone = Client(srv.effective_port)
        assert phone.post("/api/banker/login", {"pin": PIN}).status_code == 200
        with phone.http.stream("GET", f"/api/games/{game}/events?live=patch") as events:
            lines = events.iter_lines()
            for line in lines:
                if line.startswith("data: "):
                    break
            version = gift(2)
            ids = [int(line[4:]) for line in lines if line.startswith("id: ")]
        phone.http.close()
        assert version in ids
    finally:
        srv.close()


def test_a_phones_move_from_the_page_goes_to_the_game_before_flask_runs(
        table: dict[str, Any]) -> None:
    """A player's move as the page sends it (Origin, token, seat) takes the quick path and is
    answered and streamed as the route would; a wrong token on the same phone does not."""
    front, game, (mario_id, _) = table["front"], table["game"], table["seats"]
    mario = table["mario"]
    origin = {"Origin": str(mario.http.base_url).rstrip("/")}
    path = f"/api/games/{game}/commands"
    quick = front.native.quick_moves
    bad = mario.post(path, {"actor": mario_id, "type": "roll", "args": {}},
                     headers={**origin, "X-CSRF-Token": "stale"})
    assert bad.status_code == 403 and bad.json()["code"] == "csrf"
    assert front.native.quick_moves == quick
    r = mario.post(path, {"actor": mario_id, "type": "roll", "args": {}}, headers=origin)
    assert r.status_code == 200 and r.json()["ok"] is True, r.json()
    assert front.native.quick_moves == quick + 1
    assert r.headers["vary"] == "Cookie" and r.headers["cache-control"] == "no-store"
    seen = table["watcher"].http.get(f"/api/games/{game}").json()["version"]
    assert seen == r.json()["version"]


def test_phones_see_a_move_without_waiting_for_the_oled(service: GameService) -> None:
    """The table's OLED (tens of milliseconds on I2C per frame on a Pi) is told about a move
    after the phones: a watching phone has the new version while the screen still draws."""
    from companion.table import Table

    screen = SlowScreen()
    Table(service, screen)  # subscribes before the front, as `companion run` wires them
    app = create_app(service, config={"banker_pin": PIN, "heartbeat": 0.5})
    srv = make_server(app, "127.0.0.1", 0, threads=4, backend="front")
    threading.Thread(target=srv.run, daemon=True).start()
    banker = Client(srv._srv.effective_port)
    try:
        assert banker.post("/api/banker/login", {"pin": PIN}).status_code == 200
        game = banker.post("/api/games", {"edition": "monopolino", "players": ["Ann", "Дмитрий"],
                                          "seed": 1}).json()["game_id"]
        seat = banker.http.get(f"/api/games/{game}").json()["players"][0]["id"]
        with ThreadPoolExecutor(1) as pool, banker.http.stream(
                "GET", f"/api/games/{game}/events") as events:
            lines = events.iter_lines()
            first = next(json.loads(ln[6:]) for ln in lines if ln.startswith("data: "))
            screen.release.clear()
            screen.drawing.clear()
            move = pool.submit(banker.post, f"/api/games/{game}/commands", {
                "actor": "banker", "type": "transfer", "args": {
                    "source": "bank", "to": seat, "amount": 3, "reason": "a “gift”"}})
            assert screen.drawing.wait(10)  # the OLED is busy with this move now
            seen = next(json.loads(ln[6:]) for ln in lines if ln.startswith("data: "))
            assert seen["version"] > first["version"] and screen.busy  # still drawing
            screen.release.set()
            assert move.result(10).status_code == 200
    finally:
        screen.release.set()
        banker.http.close()
        srv.close()
