"""Fixtures for the web tests: a started service on a temp dir, the app and logged-in clients."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.service import GameService
from web import create_app

PIN = "2468"


class FakeHardware:
    """Simulated table hardware: a fixed frame and a list of taps."""

    def __init__(self) -> None:
        self.taps: list[tuple[str, str]] = []

    def frame_png(self) -> bytes:
        import io

        from PIL import Image, ImageDraw

        img = Image.new("1", (128, 64))
        ImageDraw.Draw(img).text((4, 24), "OLED mirror", fill=1)
        buf = io.BytesIO()
        img.save(buf, format="PNG")
        return buf.getvalue()

    def virtual_tap(self, role: str, uid: str) -> None:
        self.taps.append((role, uid))


@pytest.fixture
def service(tmp_path: Path) -> Iterator[GameService]:
    with GameService(tmp_path) as svc:
        yield svc


@pytest.fixture
def hardware() -> FakeHardware:
    return FakeHardware()


@pytest.fixture
def app(service: GameService, hardware: FakeHardware) -> Flask:
    return create_app(service, hardware=hardware, config={"banker_pin": PIN, "pin_lock": 60,
                                                          "stream_seconds": 2, "heartbeat": 0.5})


class Phone:
    """A test client that carries its CSRF token like the page does."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.csrf = client.get("/api/session").get_json()["csrf"]

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(path, **kw)

    def post(self, path: str, json: Any = None, headers: dict[str, str] | None = None,
             **kw: Any) -> Any:
        h = {"X-CSRF-Token": self.csrf, **(headers or {})}
        if "data" not in kw:
            kw["json"] = {} if json is None else json
        return self.client.post(path, headers=h, **kw)

    def login(self) -> Phone:
        assert self.post("/api/banker/login", {"pin": PIN}).status_code == 200
        return self

    def command(self, game: str, action: dict[str, Any], version: int | None = None,
                **args: Any) -> Any:
        body = {"actor": action["actor"], "type": action["type"],
                "args": {**action.get("args", {}), **args}}
        if version is not None:
            body["version"] = version
        return self.post(f"/api/games/{game}/commands", body)


@pytest.fixture
def phone(app: Flask) -> Callable[[], Phone]:
    return lambda: Phone(app.test_client())


@pytest.fixture
def banker(app: Flask) -> Phone:
    return Phone(app.test_client()).login()


@pytest.fixture
def game(banker: Phone) -> dict[str, Any]:
    r = banker.post("/api/games", {"edition": "mario", "players": ["Mario", "Luigi"], "seed": 1})
    assert r.status_code == 201, r.get_json()
    gid = r.get_json()["game_id"]
    code = banker.get(f"/api/games/{gid}").get_json()["join_code"]
    return {"id": gid, "code": code}


def action(view: dict[str, Any], actor: str, kind: str) -> dict[str, Any]:
    return next(a for a in view["actions"] if a["actor"] == actor and a["type"] == kind)
